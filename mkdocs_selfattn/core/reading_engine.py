"""The engine of the questions and heads layouts: attention's own passes over groups of rows.

A reading table's rows are segmented by :mod:`mkdocs_selfattn.core.attention` through the same
:class:`~mkdocs_selfattn.core.row_keys.RowGroups` view as a target's rows, its group being a
scenario, a document, or the whole file: the same segmentation, the same left-to-right weighted
sums and the same softmax with the portable exp compute every layout, so targets, questions and
heads are three cases of one engine and agree with their scripts to the last bit. A question
weighs its score column through the softmax; a head's weights are given (checked per group to
sum to 1, or normalised where the block asks).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mkdocs_selfattn.core.attention import (
    Segments,
    checked_temperature,
    given_rows,
    read_groups,
    segment,
    softmax,
)
from mkdocs_selfattn.core.candidate_table import FloatArray, IntArray
from mkdocs_selfattn.core.float_range import means_in_range
from mkdocs_selfattn.core.reading_table import ReadingTable
from mkdocs_selfattn.core.row_keys import RowGroups
from mkdocs_selfattn.errors import DataError

SUM_TOLERANCE = 1e-9
"""How far a head's given weights may sum from 1 in one group (rounding in the file)."""


@dataclass(frozen=True, eq=False)
class ReadingArrays:
    """Every group's numbers: groups in order of first appearance, rows in CSV order inside."""

    table: ReadingTable
    order: IntArray
    starts: IntArray
    sizes: IntArray
    weights: FloatArray
    """(heads × rows), per table row."""
    contexts: FloatArray
    """(groups × heads × axes)."""
    baseline: FloatArray
    """(groups × axes): plain mean of the group's vectors."""

    @property
    def n_groups(self) -> int:
        return int(self.starts.shape[0])

    def rows(self, group: int) -> IntArray:
        start = int(self.starts[group])
        return self.order[start : start + int(self.sizes[group])]


def reading_groups(table: ReadingTable) -> RowGroups:
    """A reading's group is its group cell within its document (one group per document, or
    the whole file, where the table names none)."""
    return RowGroups(
        document_codes=table.document_codes,
        group_codes=table.group_codes,
        n_group_names=len(table.groups),
        group_index=None,
        row_numbers=table.row_numbers,
    )


def compute_reading(
    table: ReadingTable, *, given: bool, temperature: float = 1.0, normalise: bool = False
) -> ReadingArrays:
    """Weights, contexts and baselines of every group of ``table`` for every reader."""
    if not given:
        temperature = checked_temperature(temperature, table.source)
    n_heads = len(table.columns.readers)
    columns = [np.ascontiguousarray(table.values[:, j]) for j in range(n_heads)]
    groups = reading_groups(table)
    cut = segment(groups)
    n = table.n_rows
    order = cut.row_order(groups)
    group_of_row = cut.group_of_row(groups)
    weigh = given_rows if given else softmax(temperature)
    weights = np.empty((n_heads, n), dtype=np.float64)
    contexts = np.empty((cut.n_groups, n_heads, table.vectors.shape[1]), dtype=np.float64)
    for j, values in enumerate(columns):
        if given:
            values = _given(table, j, values, group_of_row, order, cut, normalise)
        weights[j], contexts[:, j, :], _ = read_groups(cut, values, table.vectors, weigh)
    counts = cut.sizes.astype(np.float64)
    baseline = np.empty((cut.n_groups, table.vectors.shape[1]), dtype=np.float64)
    for a in range(table.vectors.shape[1]):
        baseline[:, a] = means_in_range(group_of_row, table.vectors[:, a], counts)
    return ReadingArrays(
        table=table,
        order=order,
        starts=cut.starts,
        sizes=cut.sizes,
        weights=weights,
        contexts=contexts,
        baseline=baseline,
    )


def _given(
    table: ReadingTable,
    head: int,
    values: FloatArray,
    group_of_row: IntArray,
    order: IntArray,
    cut: Segments,
    normalise: bool,
) -> FloatArray:
    """A head's weights as given, each group's summing to 1 within the tolerance; otherwise,
    with ``normalise``, that group's weights divided by their sum, and without, an error."""
    # bincount adds each group's weights in row order from 0: the script's sum().
    totals = np.bincount(group_of_row, weights=values, minlength=cut.n_groups)
    off = np.abs(totals - 1.0) > SUM_TOLERANCE
    if not off.any():
        return values
    fixable = off & (totals > 0) if normalise else np.zeros_like(off)
    broken = np.flatnonzero(off & ~fixable)
    if broken.size:
        g = int(broken[0])
        raise _sum_error(table, head, g, float(totals[g]), int(order[cut.starts[g]]), normalise)
    rows = np.flatnonzero(fixable[group_of_row])
    out = values.copy()
    out[rows] = values[rows] / totals[group_of_row[rows]]
    return out


def _sum_error(
    table: ReadingTable, head: int, group: int, total: float, row: int, normalise: bool
) -> DataError:
    name, column = table.columns.readers[head]
    where = group_name(table, row) or "the whole file"
    if normalise:
        fix = "give at least one weight above 0"
    else:
        fix = (
            f"fix the weights in {column!r} so that they sum to 1 in every group, or add "
            "'normalise: true' to divide them by their sum"
        )
    return DataError(
        table.source,
        f"group {where!r}, head {name!r}: the weights in {column!r} sum to {total!r}, not 1 "
        f"(within {SUM_TOLERANCE}); {fix}",
        line=table.line_of(row),
        key="heads",
    )


def group_name(table: ReadingTable, row: int) -> str:
    """A group's name: its group cell, else its document, else "" (the whole file)."""
    if table.columns.group is not None:
        return table.groups[int(table.group_codes[row])]
    if table.columns.document is not None:
        return table.documents[int(table.document_codes[row])]
    return ""


def separations(contexts: FloatArray) -> FloatArray:
    """(groups × heads × heads) Euclidean distances, squares added left to right from 0 as the
    script's ``sum()`` adds them."""
    n_groups, n_heads, _ = contexts.shape
    out = np.empty((n_groups, n_heads, n_heads), dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for i in range(n_heads):
            for j in range(n_heads):
                d = contexts[:, i, :] - contexts[:, j, :]
                out[:, i, j] = _root_of_squares(d)
                broken = ~np.isfinite(out[:, i, j])
                if broken.any():
                    # Squares past the float range, for a distance that may still fit: scaled
                    # by the largest difference, as hypot does (inf stays inf: beyond range).
                    scale = np.abs(d[broken]).max(axis=1)
                    out[broken, i, j] = _root_of_squares(d[broken] / scale[:, None]) * scale
    return out


def _root_of_squares(d: FloatArray) -> FloatArray:
    squares = d * d
    total = squares[:, 0] + 0.0
    for a in range(1, squares.shape[1]):
        total += squares[:, a]
    root: FloatArray = np.sqrt(total)
    return root
