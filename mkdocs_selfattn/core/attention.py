"""The attention core's definition, for every layout: groups of rows, each read by a reader.

:func:`segment` cuts any layout's rows into groups (:class:`~row_keys.RowGroups`: a document's
target, with its position when the CSV has index columns; a question's scenario; a head's
document); :func:`read_groups` is one reader's pass over every group in a few numpy passes:
softmax or given weights, left-to-right weighted sums, top rows. :func:`compute` is the targets
layout (one softmax reader per target; baselines over each document's distinct candidates),
:mod:`~mkdocs_selfattn.core.reading_engine` the layouts with several readers per group.
:mod:`~mkdocs_selfattn.core.attention_fast` only spares work on common files, and
:mod:`~mkdocs_selfattn.core.document_results` picks one document out.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from mkdocs_selfattn.core.attention_fast import first_group_rows, identity_order, whole_group_runs
from mkdocs_selfattn.core.candidate_table import (
    PARALLEL_ROWS,
    CandidateTable,
    FloatArray,
    IntArray,
    run_now,
)
from mkdocs_selfattn.core.float_range import (
    checked_shift,
    means_in_range,
    redo_overflowed_differences,
    weighted_sums_in_range,
)
from mkdocs_selfattn.core.portable_exp import exp_array
from mkdocs_selfattn.core.row_keys import (
    AnyInts,
    RowGroups,
    combine,
    distinct_sizes,
    first_appearance_codes,
    first_occurrences,
    group_keys,
)
from mkdocs_selfattn.errors import DataError

Submit = Callable[..., Future[Any]]


@dataclass(frozen=True, eq=False)
class AttentionResults:
    """Results for every group of ``table``.

    ``order`` lists table rows group by group (CSV order inside a group); ``starts``/``sizes`` cut
    it into groups, which are numbered in order of first appearance in the file.
    """

    table: CandidateTable
    temperature: float
    order: IntArray
    starts: IntArray
    sizes: IntArray
    group_document: IntArray
    group_target: IntArray
    group_target_index: IntArray | None
    weights: FloatArray
    """Per table row (not per ``order`` position)."""
    context: FloatArray
    baseline: FloatArray
    """Per document code: mean vector of the document's distinct candidates."""
    shift: FloatArray
    top_row: IntArray
    """Per group: the table row with the largest weight, the first in CSV order on ties."""

    @property
    def n_groups(self) -> int:
        return int(self.starts.shape[0])


def checked_temperature(temperature: float, source: str) -> float:
    """Temperature divides scores, so it must be a positive finite number."""
    value = float(temperature)
    if not math.isfinite(value) or value <= 0:
        raise DataError(source, f"temperature must be a number greater than 0, not {temperature!r}")
    return value


def compute(table: CandidateTable, temperature: float = 1.0) -> AttentionResults:
    """Weights, contexts, baselines, shifts and tops for every group at once.

    Every sum runs left to right in CSV order, exactly like Python's ``sum()`` in the chapter's
    script, so the core and the script agree to the last bit rather than merely to the printed
    digits. (numpy's own reductions sum pairwise, which rounds differently.) It also makes a
    group's numbers depend on its own rows only: the whole file and one document agree exactly.
    """
    temperature = checked_temperature(temperature, table.source)
    groups = target_groups(table)
    cut = segment(groups)

    # On a large table the baselines (which need no weights) and half of the groups run on
    # worker threads; numpy releases the GIL inside each array operation.
    with ThreadPoolExecutor(max_workers=2) as pool:
        submit: Submit = pool.submit if table.n_rows >= PARALLEL_ROWS else run_now
        pending = submit(_baselines, table, cut.uniform)
        weights, context, top_row = read_groups(
            cut, table.scores, table.vectors, softmax(temperature), submit
        )
        baseline = pending.result()

    first_rows = cut.first_rows()
    group_document = table.document_codes[first_rows].astype(np.int64)
    shift = checked_shift(table, context, baseline[group_document], first_rows)
    return AttentionResults(
        table=table,
        temperature=temperature,
        order=cut.row_order(groups),
        starts=cut.starts,
        sizes=cut.sizes,
        group_document=group_document,
        group_target=table.target_codes[first_rows].astype(np.int64),
        group_target_index=None if table.target_index is None else table.target_index[first_rows],
        weights=weights,
        context=context,
        baseline=baseline,
        shift=shift,
        top_row=top_row,
    )


Weigh = Callable[[FloatArray, "FloatArray | None"], FloatArray]
"""A (groups × candidates) matrix of one column's values → the weights (into ``out`` if given):
the softmax for scores, the values themselves for given weights. Row by row: a group's weights
depend on its own row only."""


def softmax(temperature: float) -> Weigh:
    """The way a score column is weighed: each group's softmax of its scores / temperature."""

    def weigh(scores: FloatArray, out: FloatArray | None) -> FloatArray:
        return _softmax_rows(scores, temperature, out=out)

    return weigh


def given_rows(values: FloatArray, out: FloatArray | None = None) -> FloatArray:
    """The weights of a given-weight head: its column as it is (checked and, where the block
    asks, normalised beforehand, see :mod:`mkdocs_selfattn.core.reading_engine`)."""
    if out is None:
        return values + 0.0
    out[...] = values
    return out


def read_groups(
    cut: Segments,
    values: FloatArray,
    vectors: FloatArray,
    weigh: Weigh,
    submit: Submit = run_now,
) -> tuple[FloatArray, FloatArray, IntArray]:
    """One reader over every group: per-row weights, per-group weighted sums of ``vectors`` and
    top rows. This is the engine every layout goes through (a target's softmax, a question's, a
    head's given weights), only ``values`` and ``weigh`` differ.

    Groups of one size are computed together as the rows of a matrix, so the number of numpy
    passes grows with the number of distinct sizes, not of groups. Every step works row by row
    (group by group), so splitting the groups between threads cannot change a single bit.
    """
    order, starts, sizes, uniform = cut.order, cut.starts, cut.sizes, cut.uniform
    n_groups = int(starts.shape[0])
    dims = vectors.shape[1]
    weights = np.empty(values.shape[0], dtype=np.float64)
    context = np.empty((n_groups, dims), dtype=np.float64)
    top_row = np.empty(n_groups, dtype=np.int64)
    if uniform is not None:
        scores = values.reshape(n_groups, uniform)
        grouped = vectors.reshape(n_groups, uniform, dims)
        matrix = weights.reshape(n_groups, uniform)

        def part(lo: int, hi: int) -> None:
            group_weights = weigh(scores[lo:hi], matrix[lo:hi])
            context[lo:hi] = weighted_sums(group_weights, grouped[lo:hi])
            # argmax returns the first maximum: ties go to the earliest candidate in CSV order.
            top_row[lo:hi] = starts[lo:hi] + np.argmax(group_weights, axis=1)

        half = n_groups // 2
        other = submit(part, 0, half)
        part(half, n_groups)
        other.result()
        return weights, context, top_row

    for size in cut.distinct:
        members = np.flatnonzero(sizes == size)
        positions = starts[members][:, None] + np.arange(size, dtype=np.int64)
        rows = positions if order is None else order[positions]
        group_weights = weigh(values[rows], None)
        weights[rows] = group_weights
        context[members] = weighted_sums(group_weights, vectors[rows])
        top_row[members] = rows[np.arange(rows.shape[0]), np.argmax(group_weights, axis=1)]
    return weights, context, top_row


def _softmax_rows(
    scores: FloatArray, temperature: float, out: FloatArray | None = None
) -> FloatArray:
    """Softmax of each row of a (groups × candidates) matrix, into ``out`` or a new array."""
    # Subtracting the row maximum before dividing keeps exp() in range even for ±1e300 scores:
    # every difference is ≤ 0, so the largest term is exactly exp(0) = 1 and nothing overflows.
    # exp is fdlibm's (portable_exp), not np.exp, whose SIMD kernel varies with the CPU: the same
    # bits on every machine, in the chapter's reference and in the page's try view.
    largest = scores.max(axis=1, keepdims=True)
    with np.errstate(over="ignore", under="ignore"):
        exps: FloatArray = np.subtract(scores, largest, out=out)
        if temperature != 1.0:
            exps /= temperature
        redo_overflowed_differences(exps, scores, largest, temperature)
        exp_array(exps, out=exps)
    exps /= row_sums(exps)[:, None]
    return exps


def row_sums(values: FloatArray) -> FloatArray:
    """Each row's sum, adding left to right like Python's ``sum()`` (numpy's sum is pairwise).

    With many rows, one column is added at a time (each add is a vector op over all rows and no
    matrix-sized temporary is made); with few, long rows an accumulate, which is sequential by
    definition, avoids a Python loop over the columns.
    """
    rows, columns = values.shape
    if rows >= 256 or columns <= 2:
        totals = values[:, 0] + 0.0
        for k in range(1, columns):
            totals += values[:, k]
        return totals
    accumulated: FloatArray = np.add.accumulate(values, axis=1)
    return accumulated[:, -1] + 0.0


def weighted_sums(weights: FloatArray, vectors: FloatArray) -> FloatArray:
    """Σ weight × vector over each group's candidates: (groups × c) and (groups × c × d) in.

    Both ways below add the candidates left to right (tests hold numpy to that). With two or
    more vector columns einsum's loop keeps the columns innermost and adds each candidate in
    turn, in half the time of an accumulate; with one column it would sum the candidates
    innermost, which unrolls into several partial sums, so the accumulate is used there.
    """
    sums = weighted_sums_in_range(_left_to_right_weighted_sums, weights, vectors)
    # "+ 0.0" turns a -0.0 sum into 0.0, as Python's sum(), which starts from 0, would give.
    return sums + 0.0


def _left_to_right_weighted_sums(weights: FloatArray, vectors: FloatArray) -> FloatArray:
    if vectors.shape[2] >= 2:
        sums: FloatArray = np.einsum("gc,gcd->gd", weights, vectors)
        return sums
    products: FloatArray = weights[:, :, None] * vectors
    np.add.accumulate(products, axis=1, out=products)
    return products[:, -1, :]


def target_groups(table: CandidateTable) -> RowGroups:
    """A target is the group its rows are read in (with index columns, a target position)."""
    return RowGroups(
        document_codes=table.document_codes,
        group_codes=table.target_codes,
        n_group_names=len(table.targets),
        group_index=table.target_index,
        row_numbers=table.row_numbers,
    )


@dataclass(frozen=True, eq=False)
class Segments:
    """A table's rows cut into groups, numbered by first appearance: ``order`` lists the rows
    group by group (None when the file already does), ``starts``/``sizes`` cut it."""

    order: IntArray | None
    starts: IntArray
    sizes: IntArray
    distinct: list[int]
    """The distinct group sizes, ascending."""
    uniform: int | None
    """The one size of every group, when the file lists each group's rows together: then the
    table reshapes into a (groups × candidates) matrix and nothing needs gathering."""

    @property
    def n_groups(self) -> int:
        return int(self.starts.shape[0])

    def first_rows(self) -> IntArray:
        """Each group's first table row."""
        return self.starts if self.order is None else self.order[self.starts]

    def row_order(self, groups: RowGroups) -> IntArray:
        """``order``, spelled out when the rows are already grouped (then the table's own row
        numbers where they are 0..n-1, shared rather than copied)."""
        return identity_order(groups) if self.order is None else self.order

    def group_of_row(self, groups: RowGroups) -> IntArray:
        """Per table row, the number of its group."""
        out = np.empty(groups.n_rows, dtype=np.int64)
        numbers = np.arange(self.n_groups, dtype=np.int64)
        out[self.row_order(groups)] = np.repeat(numbers, self.sizes)
        return out


def segment(groups: RowGroups) -> Segments:
    """Cut the rows of any layout's table into its groups (see :class:`RowGroups`)."""
    run_starts = whole_group_runs(groups)
    if run_starts is not None:
        order: IntArray | None = None
        starts = run_starts
        sizes = np.diff(np.append(run_starts, groups.n_rows))
    else:
        codes = first_appearance_codes(group_keys(groups))
        order = np.argsort(codes, kind="stable").astype(np.int64)
        counts = np.bincount(codes)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
        sizes = counts.astype(np.int64)
    distinct = distinct_sizes(sizes)
    uniform = distinct[0] if order is None and len(distinct) == 1 else None
    return Segments(order, starts, sizes, distinct, uniform)


def _baselines(table: CandidateTable, uniform: int | None = None) -> FloatArray:
    """Plain mean of each document's distinct candidates (first occurrence of each).

    ``bincount`` adds its weights in row order starting from 0, which is the script's ``sum()``.
    """
    is_first = None
    if uniform is not None:
        candidate_keys: AnyInts = table.candidate_codes
        if table.candidate_index is not None:
            candidate_keys = combine(candidate_keys, table.candidate_index)
        is_first = first_group_rows(table, candidate_keys, uniform)
    if is_first is None:
        keys = np.multiply(table.document_codes, max(len(table.candidates), 1), dtype=np.int64)
        keys += table.candidate_codes
        if table.candidate_index is not None:
            keys = combine(keys, table.candidate_index)
        is_first = first_occurrences(keys)
    docs = table.document_codes[is_first]
    n_docs = len(table.documents)
    counts = np.bincount(docs, minlength=n_docs).astype(np.float64)
    baseline = np.zeros((n_docs, table.vectors.shape[1]), dtype=np.float64)
    firsts = table.vectors[is_first]
    for j in range(table.vectors.shape[1]):
        baseline[:, j] = means_in_range(docs, firsts[:, j], counts)
    return baseline
