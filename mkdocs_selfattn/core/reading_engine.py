"""The questions and heads layouts as parameters of the one engine (:func:`attend`).

A question weighs its score column through the softmax; a head's weights are given, checked
per group to sum to 1 (or normalised where the block asks) before the engine reads them. Both
take each group's own mean as its baseline: the same segmentation, the same left-to-right
weighted sums and the same portable exp as a target's, so all three agree with their scripts to
the last bit. Heads are compared by the distances between their contexts (:func:`separations`).
"""

from __future__ import annotations

import numpy as np

from mkdocs_selfattn.core.arrays import FloatArray
from mkdocs_selfattn.core.attention import (
    Readings,
    Segments,
    attend,
    checked_temperature,
    given_rows,
    group_means,
    softmax,
)
from mkdocs_selfattn.core.table import Table
from mkdocs_selfattn.errors import DataError

SUM_TOLERANCE = 1e-9
"""How far a head's given weights may sum from 1 in one group (rounding in the file)."""


def compute_reading(
    table: Table, *, given: bool, temperature: float = 1.0, normalise: bool = False
) -> Readings:
    """The engine over every group of ``table`` for every reader: a question's softmax of its
    score column or a head's given weights, and each group's own mean as its baseline."""
    if not given:
        temperature = checked_temperature(temperature, table.source)
        return attend(table, softmax(temperature), group_means, temperature=temperature)

    def prepare(head: int, values: FloatArray, cut: Segments) -> FloatArray:
        return _given(table, head, values, cut, normalise)

    return attend(table, given_rows, group_means, prepare=prepare)


def _given(
    table: Table, head: int, values: FloatArray, cut: Segments, normalise: bool
) -> FloatArray:
    """A head's weights as given, each group's summing to 1 within the tolerance; otherwise,
    with ``normalise``, that group's weights divided by their sum, and without, an error."""
    group_of_row = cut.group_of_row
    # bincount adds each group's weights in row order from 0: the script's sum().
    totals = np.bincount(group_of_row, weights=values, minlength=cut.n_groups)
    off = np.abs(totals - 1.0) > SUM_TOLERANCE
    if not off.any():
        return values
    fixable = off & (totals > 0) if normalise else np.zeros_like(off)
    broken = np.flatnonzero(off & ~fixable)
    if broken.size:
        g = int(broken[0])
        first_row = int(cut.row_order()[cut.starts[g]])
        raise _sum_error(table, head, g, float(totals[g]), first_row, normalise)
    rows = np.flatnonzero(fixable[group_of_row])
    out = values.copy()
    out[rows] = values[rows] / totals[group_of_row[rows]]
    return out


def _sum_error(
    table: Table, head: int, group: int, total: float, row: int, normalise: bool
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


def group_name(table: Table, row: int) -> str:
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
