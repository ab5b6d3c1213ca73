"""The attention core's definition, for every layout: one engine, groups of rows, each read by
each reader.

:func:`attend` is the engine. :func:`segment` cuts any layout's rows into groups
(:class:`~row_keys.RowGroups`: a document's target, with its position when the CSV has index
columns; a question's scenario; a head's document); :func:`read_groups` is one reader's pass
over every group in a few numpy passes: softmax or given weights, left-to-right weighted sums,
top rows; a baseline rule gives the means shifts are measured from. A layout is what it passes:
:func:`compute` is the targets layout (one softmax reader; each document's distinct candidates
as the baseline), :mod:`~mkdocs_selfattn.core.reading_engine` the questions and heads layouts.
:mod:`~mkdocs_selfattn.core.attention_fast` only spares work on common files, and
:mod:`~mkdocs_selfattn.core.document_results` picks one document out.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from threading import Lock
from typing import Any

import numpy as np

from mkdocs_selfattn.core.arrays import PARALLEL_ROWS, FloatArray, IntArray, run_now
from mkdocs_selfattn.core.attention_fast import first_group_rows, identity_order, whole_group_runs
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
from mkdocs_selfattn.core.table import Table
from mkdocs_selfattn.errors import DataError

Submit = Callable[..., Future[Any]]


@dataclass(frozen=True, eq=False)
class Readings:
    """Every group of ``table`` read by each of its readers: what the one engine gives every
    layout. ``order`` lists table rows group by group (CSV order inside a group); ``starts`` and
    ``sizes`` cut it into groups, numbered in order of first appearance in the file."""

    table: Table
    temperature: float
    order: IntArray
    starts: IntArray
    sizes: IntArray
    weights: FloatArray
    """(readers × rows), per table row (not per ``order`` position)."""
    contexts: FloatArray
    """(groups × readers × axes): each reader's weighted sum of each group's vectors."""
    baseline: FloatArray
    """(baselines × axes): the plain means the layout measures shifts from."""
    baseline_of: IntArray
    """Per group, its row of ``baseline`` (a targets document's groups share one)."""
    top_rows: IntArray
    """(readers × groups): the table row with the largest weight, the first in CSV order on ties."""

    @property
    def n_groups(self) -> int:
        return int(self.starts.shape[0])

    def rows(self, group: int) -> IntArray:
        start = int(self.starts[group])
        return self.order[start : start + int(self.sizes[group])]

    def first_rows(self) -> IntArray:
        """Each group's first table row."""
        return self.order[self.starts]


Baseline = Callable[[Table, "Segments"], tuple[FloatArray, IntArray]]
"""A layout's baseline rule: the (baselines × axes) means and, per group, which one it reads."""

Prepare = Callable[[int, FloatArray, "Segments"], FloatArray]
"""Reader ``j``'s column → the values it weighs, checked per group (given weights must sum
to 1, or are divided by their sum where the block asks)."""


def attend(
    table: Table,
    weigh: Weigh,
    baseline: Baseline,
    *,
    temperature: float = 1.0,
    prepare: Prepare | None = None,
) -> Readings:
    """The engine of every layout: ``table``'s rows cut into groups, each group read by each
    reader (a column of :attr:`Table.values`) through ``weigh``, and the layout's baselines.

    Every sum runs left to right in CSV order, exactly like Python's ``sum()`` in the chapter's
    script, so the core and the script agree to the last bit rather than merely to the printed
    digits. (numpy's own reductions sum pairwise, which rounds differently.) It also makes a
    group's numbers depend on its own rows only: the whole file and one document agree exactly.
    """
    cut = segment(table_groups(table))
    n_readers, n_rows = table.values.shape[1], table.n_rows
    weights = np.empty((n_readers, n_rows), dtype=np.float64)
    contexts = np.empty((cut.n_groups, n_readers, table.vectors.shape[1]), dtype=np.float64)
    top_rows = np.empty((n_readers, cut.n_groups), dtype=np.int64)
    # On a large table the baselines (which need no weights) and half of the groups run on
    # worker threads; numpy releases the GIL inside each array operation.
    with ThreadPoolExecutor(max_workers=2) as pool:
        submit: Submit = pool.submit if n_rows >= PARALLEL_ROWS else run_now
        pending = submit(baseline, table, cut)
        for j in range(n_readers):
            values = np.ascontiguousarray(table.values[:, j])
            if prepare is not None:
                values = prepare(j, values, cut)
            out = (weights[j], contexts[:, j, :], top_rows[j])
            read_groups(cut, values, table.vectors, weigh, submit, out=out)
        means, baseline_of = pending.result()
    return Readings(
        table=table,
        temperature=temperature,
        order=cut.row_order(),
        starts=cut.starts,
        sizes=cut.sizes,
        weights=weights,
        contexts=contexts,
        baseline=means,
        baseline_of=baseline_of,
        top_rows=top_rows,
    )


def group_means(table: Table, cut: Segments) -> tuple[FloatArray, IntArray]:
    """The readings' baseline: each group's plain mean of its own rows' vectors."""
    group_of_row = cut.group_of_row
    counts = cut.sizes.astype(np.float64)
    means = np.empty((cut.n_groups, table.vectors.shape[1]), dtype=np.float64)
    for a in range(table.vectors.shape[1]):
        means[:, a] = means_in_range(group_of_row, table.vectors[:, a], counts)
    return means, np.arange(cut.n_groups, dtype=np.int64)


def document_candidate_means(table: Table, cut: Segments) -> tuple[FloatArray, IntArray]:
    """The targets' baseline: per document, the plain mean of its distinct candidates (first
    occurrence of each), which every target of the document shares."""
    group_document = table.document_codes[cut.first_rows()].astype(np.int64)
    return _baselines(table, cut.uniform), group_document


@dataclass(frozen=True, eq=False)
class AttentionResults:
    """A targets table's :class:`Readings` in its own terms: one softmax reader (the score
    column), a baseline per document, each group's target, and the shifts checked in range."""

    readings: Readings
    shift: FloatArray

    @property
    def table(self) -> Table:
        return self.readings.table

    @property
    def temperature(self) -> float:
        return self.readings.temperature

    @property
    def order(self) -> IntArray:
        return self.readings.order

    @property
    def starts(self) -> IntArray:
        return self.readings.starts

    @property
    def sizes(self) -> IntArray:
        return self.readings.sizes

    @property
    def n_groups(self) -> int:
        return self.readings.n_groups

    @property
    def weights(self) -> FloatArray:
        """Per table row."""
        weights: FloatArray = self.readings.weights[0]
        return weights

    @property
    def context(self) -> FloatArray:
        return self.readings.contexts[:, 0, :]

    @property
    def baseline(self) -> FloatArray:
        """Per document code: mean vector of the document's distinct candidates."""
        return self.readings.baseline

    @property
    def group_document(self) -> IntArray:
        return self.readings.baseline_of

    @property
    def top_row(self) -> IntArray:
        """Per group: the table row with the largest weight, the first in CSV order on ties."""
        top_row: IntArray = self.readings.top_rows[0]
        return top_row

    @property
    def group_target(self) -> IntArray:
        return self.table.group_codes[self.readings.first_rows()].astype(np.int64)

    @property
    def group_target_index(self) -> IntArray | None:
        index = self.table.group_index
        return None if index is None else index[self.readings.first_rows()]


def checked_temperature(temperature: float, source: str) -> float:
    """Temperature divides scores, so it must be a positive finite number."""
    value = float(temperature)
    if not math.isfinite(value) or value <= 0:
        raise DataError(source, f"temperature must be a number greater than 0, not {temperature!r}")
    return value


def compute(table: Table, temperature: float = 1.0) -> AttentionResults:
    """The targets layout through the engine: each target's softmax of the score column, the
    document's distinct candidates as its baseline, and every shift checked in range."""
    temperature = checked_temperature(temperature, table.source)
    readings = attend(
        table, softmax(temperature), document_candidate_means, temperature=temperature
    )
    first_rows = readings.first_rows()
    baseline = readings.baseline[readings.baseline_of]
    shift = checked_shift(table, readings.contexts[:, 0, :], baseline, first_rows)
    return AttentionResults(readings, shift)


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
    out: tuple[FloatArray, FloatArray, IntArray] | None = None,
) -> tuple[FloatArray, FloatArray, IntArray]:
    """One reader over every group: per-row weights, per-group weighted sums of ``vectors`` and
    top rows: the pass :func:`attend` makes for each reader of every layout (a target's softmax,
    a question's, a head's given weights), only ``values`` and ``weigh`` differ.

    Groups of one size are computed together as the rows of a matrix, so the number of numpy
    passes grows with the number of distinct sizes, not of groups. Every step works row by row
    (group by group), so splitting the groups between threads cannot change a single bit.
    ``out``: arrays to write the weights, weighted sums and top rows into.
    """
    order, starts, sizes, uniform = cut.order, cut.starts, cut.sizes, cut.uniform
    n_groups = int(starts.shape[0])
    dims = vectors.shape[1]
    if out is None:
        out = (
            np.empty(values.shape[0], dtype=np.float64),
            np.empty((n_groups, dims), dtype=np.float64),
            np.empty(n_groups, dtype=np.int64),
        )
    weights, context, top_row = out
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


def table_groups(table: Table) -> RowGroups:
    """The group each row is read in: its group cell within its document (a targets file's
    target, with its position where index columns give one; a reading's group, or its document,
    or the whole file)."""
    return RowGroups(
        document_codes=table.document_codes,
        group_codes=table.group_codes,
        n_group_names=len(table.groups),
        group_index=table.group_index,
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
    groups: RowGroups

    @property
    def n_groups(self) -> int:
        return int(self.starts.shape[0])

    def first_rows(self) -> IntArray:
        """Each group's first table row."""
        return self.starts if self.order is None else self.order[self.starts]

    def row_order(self) -> IntArray:
        """``order``, spelled out when the rows are already grouped (then the table's own row
        numbers where they are 0..n-1, shared rather than copied)."""
        return identity_order(self.groups) if self.order is None else self.order

    memo: dict[str, IntArray] = field(default_factory=dict, compare=False, repr=False)
    lock: Lock = field(default_factory=Lock, compare=False, repr=False)

    @property
    def group_of_row(self) -> IntArray:
        """Per table row, the number of its group: made once, under a lock (the baseline's
        thread and every reader's given-weight check ask for it)."""
        with self.lock:
            if "group_of_row" not in self.memo:
                out = np.empty(self.groups.n_rows, dtype=np.int64)
                numbers = np.arange(self.n_groups, dtype=np.int64)
                out[self.row_order()] = np.repeat(numbers, self.sizes)
                self.memo["group_of_row"] = out
            return self.memo["group_of_row"]


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
    return Segments(order, starts, sizes, distinct, uniform, groups)


def _baselines(table: Table, uniform: int | None = None) -> FloatArray:
    """Plain mean of each document's distinct candidates (first occurrence of each).

    ``bincount`` adds its weights in row order starting from 0, which is the script's ``sum()``.
    """
    names = table.encoded
    is_first = None
    if uniform is not None:
        candidate_keys: AnyInts = names.candidate_codes
        if names.candidate_index is not None:
            candidate_keys = combine(candidate_keys, names.candidate_index)
        is_first = first_group_rows(table, candidate_keys, uniform)
    if is_first is None:
        keys = np.multiply(table.document_codes, max(len(names.candidates), 1), dtype=np.int64)
        keys += names.candidate_codes
        if names.candidate_index is not None:
            keys = combine(keys, names.candidate_index)
        is_first = first_occurrences(keys)
    docs = table.document_codes[is_first]
    n_docs = len(table.documents)
    counts = np.bincount(docs, minlength=n_docs).astype(np.float64)
    baseline = np.zeros((n_docs, table.vectors.shape[1]), dtype=np.float64)
    firsts = table.vectors[is_first]
    for j in range(table.vectors.shape[1]):
        baseline[:, j] = means_in_range(docs, firsts[:, j], counts)
    return baseline
