"""The softmax core: every (document, target) group of a table in one vectorised numpy pass.

A group is the set of rows sharing a document and a target token (and a target position when the
CSV has index columns); its rows, in CSV order, are the candidates the target re-reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mkdocs_selfattn.errors import DataError
from mkdocs_selfattn.float_range import (
    checked_shift,
    means_in_range,
    redo_overflowed_differences,
    weighted_sums_in_range,
)
from mkdocs_selfattn.results import CandidateResult, DocumentResult, TargetResult
from mkdocs_selfattn.table import (
    PARALLEL_ROWS,
    CandidateTable,
    FloatArray,
    IntArray,
    run_now,
)

__all__ = [
    "AttentionResults",
    "CandidateResult",
    "DocumentResult",
    "TargetResult",
    "check_temperature",
    "compute",
    "compute_document",
]

Submit = Callable[..., Future[Any]]
AnyInts = npt.NDArray[np.integer[Any]]


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
    representation: FloatArray
    baseline: FloatArray
    """Per document code: mean vector of the document's distinct candidates."""
    shift: FloatArray
    top_row: IntArray
    """Per group: the table row with the largest weight, the first in CSV order on ties."""

    @property
    def n_groups(self) -> int:
        return int(self.starts.shape[0])


def check_temperature(temperature: float, source: str) -> float:
    """Temperature divides scores, so it must be a positive finite number."""
    value = float(temperature)
    if not math.isfinite(value) or value <= 0:
        raise DataError(source, f"temperature must be a number greater than 0, not {temperature!r}")
    return value


def compute(table: CandidateTable, temperature: float = 1.0) -> AttentionResults:
    """Weights, representations, baselines, shifts and tops for every group at once.

    Every sum runs left to right in CSV order, exactly like Python's ``sum()`` in the chapter's
    script, so the core and the script agree to the last bit rather than merely to the printed
    digits. (numpy's own reductions sum pairwise, which rounds differently.) It also makes a
    group's numbers depend on its own rows only: the whole file and one document agree exactly.
    """
    temperature = check_temperature(temperature, table.source)
    n = table.n_rows
    order, starts, sizes = _segments(table)
    distinct_sizes = np.unique(sizes).tolist()
    # The usual course layout: each group's rows together, every group the same size. Then the
    # table reshapes into a (groups × candidates) matrix and nothing needs gathering.
    uniform = int(distinct_sizes[0]) if order is None and len(distinct_sizes) == 1 else None

    # On a large table the baselines (which need no weights) and half of the groups run on
    # worker threads; numpy releases the GIL inside each array operation.
    with ThreadPoolExecutor(max_workers=2) as pool:
        submit: Submit = pool.submit if n >= PARALLEL_ROWS else run_now
        pending = submit(_baselines, table, uniform)
        weights, representation, top_row = _softmax_groups(
            table, temperature, order, starts, sizes, distinct_sizes, uniform, submit
        )
        baseline = pending.result()

    first_rows = starts if order is None else order[starts]
    group_document = table.document_codes[first_rows].astype(np.int64)
    shift = checked_shift(table, representation, baseline[group_document], first_rows)
    return AttentionResults(
        table=table,
        temperature=temperature,
        order=_identity_order(table) if order is None else order,
        starts=starts,
        sizes=sizes,
        group_document=group_document,
        group_target=table.target_codes[first_rows].astype(np.int64),
        group_target_index=None if table.target_index is None else table.target_index[first_rows],
        weights=weights,
        representation=representation,
        baseline=baseline,
        shift=shift,
        top_row=top_row,
    )


def _identity_order(table: CandidateTable) -> IntArray:
    """``arange(n)``: the table's own row numbers when they are exactly that (a whole file).

    Row numbers only ever increase (subsets keep file order), so first 0 and last n - 1 means
    0..n-1; sharing them saves a fresh array as large as a column, which is not free.
    """
    rows = table.row_numbers
    n = table.n_rows
    if rows.shape[0] == n and (n == 0 or (rows[0] == 0 and rows[-1] == n - 1)):
        return rows
    return np.arange(n, dtype=np.int64)


def _softmax_groups(
    table: CandidateTable,
    temperature: float,
    order: IntArray | None,
    starts: IntArray,
    sizes: IntArray,
    distinct_sizes: list[int],
    uniform: int | None,
    submit: Submit = run_now,
) -> tuple[FloatArray, FloatArray, IntArray]:
    """Per-row weights, per-group representations and top rows.

    Groups of one size are computed together as the rows of a matrix, so the number of numpy
    passes grows with the number of distinct sizes, not of groups. Every step works row by row
    (group by group), so splitting the groups between threads cannot change a single bit.
    """
    n_groups = int(starts.shape[0])
    dims = table.vectors.shape[1]
    weights = np.empty(table.n_rows, dtype=np.float64)
    representation = np.empty((n_groups, dims), dtype=np.float64)
    top_row = np.empty(n_groups, dtype=np.int64)
    if uniform is not None:
        scores = table.scores.reshape(n_groups, uniform)
        vectors = table.vectors.reshape(n_groups, uniform, dims)
        matrix = weights.reshape(n_groups, uniform)

        def part(lo: int, hi: int) -> None:
            group_weights = _softmax_rows(scores[lo:hi], temperature, out=matrix[lo:hi])
            representation[lo:hi] = _weighted_sums(group_weights, vectors[lo:hi])
            # argmax returns the first maximum: ties go to the earliest candidate in CSV order.
            top_row[lo:hi] = starts[lo:hi] + np.argmax(group_weights, axis=1)

        half = n_groups // 2
        other = submit(part, 0, half)
        part(half, n_groups)
        other.result()
        return weights, representation, top_row

    for size in distinct_sizes:
        members = np.flatnonzero(sizes == size)
        positions = starts[members][:, None] + np.arange(size, dtype=np.int64)
        rows = positions if order is None else order[positions]
        group_weights = _softmax_rows(table.scores[rows], temperature)
        weights[rows] = group_weights
        representation[members] = _weighted_sums(group_weights, table.vectors[rows])
        top_row[members] = rows[np.arange(rows.shape[0]), np.argmax(group_weights, axis=1)]
    return weights, representation, top_row


def _softmax_rows(
    scores: FloatArray, temperature: float, out: FloatArray | None = None
) -> FloatArray:
    """Softmax of each row of a (groups × candidates) matrix, into ``out`` or a new array."""
    # Subtracting the row maximum before dividing keeps exp() in range even for ±1e300 scores:
    # every difference is ≤ 0, so the largest term is exactly exp(0) = 1 and nothing overflows.
    largest = scores.max(axis=1, keepdims=True)
    with np.errstate(over="ignore", under="ignore"):
        exps: FloatArray = np.subtract(scores, largest, out=out)
        if temperature != 1.0:
            exps /= temperature
        redo_overflowed_differences(exps, scores, largest, temperature)
        np.exp(exps, out=exps)
    exps /= _row_sums(exps)[:, None]
    return exps


def _row_sums(values: FloatArray) -> FloatArray:
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


def _weighted_sums(weights: FloatArray, vectors: FloatArray) -> FloatArray:
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


def _group_keys(table: CandidateTable, rows: IntArray | None = None) -> IntArray:
    """One int64 per row (or per row of ``rows``), equal exactly when the rows share a group."""

    def pick(values: AnyInts) -> AnyInts:
        return values if rows is None else values[rows]

    # int64 before multiplying: codes are int32 and the product may not fit.
    keys: IntArray = np.multiply(
        pick(table.document_codes), max(len(table.targets), 1), dtype=np.int64
    )
    keys += pick(table.target_codes)
    if table.target_index is not None:
        keys = _combine(keys, pick(table.target_index))
    return keys


def _combine(left: AnyInts, right: AnyInts) -> IntArray:
    """One int64 key per (left, right) pair (``left`` ≥ 0), never overflowing."""
    if not left.size:
        return left.astype(np.int64)
    low, high = int(right.min()), int(right.max())
    width = high - low + 1
    if (int(left.max()) + 1) * width < 2**62:
        keys: IntArray = np.multiply(left, width, dtype=np.int64)
        keys += right - low
        return keys
    # Positions spread too far apart for arithmetic: number the distinct values first.
    left_codes = _first_appearance_codes(left)
    right_codes = _first_appearance_codes(right)
    width = int(right_codes.max()) + 1
    return left_codes * width + right_codes


def _first_appearance_codes(keys: AnyInts) -> IntArray:
    """Dense codes 0..k-1 numbered by first appearance (Arrow's hash encoding keeps that order)."""
    import pyarrow as pa

    encoded = pa.array(keys).dictionary_encode()
    return np.asarray(encoded.indices.to_numpy(zero_copy_only=False), dtype=np.int64)


def _segments(table: CandidateTable) -> tuple[IntArray | None, IntArray, IntArray]:
    """Row order grouped by group (None when the file already is), group starts and sizes.

    Groups are numbered by first appearance. A course CSV normally lists each group's rows
    together; then every run of rows with the same document, target (and position) is a whole
    group, and neither a per-row key nor a sort is needed: only the runs' first rows are keyed.
    """
    n = table.n_rows
    columns: list[AnyInts] = [table.document_codes, table.target_codes]
    if table.target_index is not None:
        columns.append(table.target_index)
    boundary = np.zeros(n, dtype=bool)
    boundary[:1] = True
    for column in columns:
        boundary[1:] |= column[1:] != column[:-1]
    run_starts = np.flatnonzero(boundary)
    del boundary
    if np.unique(_group_keys(table, run_starts)).shape[0] == run_starts.shape[0]:
        return None, run_starts, np.diff(np.append(run_starts, n))
    codes = _first_appearance_codes(_group_keys(table))
    order = np.argsort(codes, kind="stable").astype(np.int64)
    counts = np.bincount(codes)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    return order, starts, counts.astype(np.int64)


def _baselines(table: CandidateTable, uniform: int | None = None) -> FloatArray:
    """Plain mean of each document's distinct candidates (first occurrence of each).

    ``bincount`` adds its weights in row order starting from 0, which is the script's ``sum()``.
    """
    is_first = None
    if uniform is not None:
        candidate_keys: AnyInts = table.candidate_codes
        if table.candidate_index is not None:
            candidate_keys = _combine(candidate_keys, table.candidate_index)
        is_first = _first_group_rows(table, candidate_keys, uniform)
    if is_first is None:
        keys = np.multiply(table.document_codes, max(len(table.candidates), 1), dtype=np.int64)
        keys += table.candidate_codes
        if table.candidate_index is not None:
            keys = _combine(keys, table.candidate_index)
        is_first = _first_occurrences(keys)
    docs = table.document_codes[is_first]
    n_docs = len(table.documents)
    counts = np.bincount(docs, minlength=n_docs).astype(np.float64)
    baseline = np.zeros((n_docs, table.vectors.shape[1]), dtype=np.float64)
    firsts = table.vectors[is_first]
    for j in range(table.vectors.shape[1]):
        baseline[:, j] = means_in_range(docs, firsts[:, j], counts)
    return baseline


def _first_group_rows(
    table: CandidateTable, candidate_keys: AnyInts, size: int
) -> npt.NDArray[np.bool_] | None:
    """First occurrences without hashing every row, when the layout allows it; else None.

    In a course CSV each target of a document re-reads the same candidates in the same order. If
    so (checked here), and the document's first group names no candidate twice, then exactly the
    rows of each document's first group are the first occurrences.
    """
    n_groups = table.n_rows // size
    keys = candidate_keys.reshape(n_groups, size)
    group_docs = table.document_codes[::size]
    new_doc = np.empty(n_groups, dtype=bool)
    new_doc[0] = True
    np.not_equal(group_docs[1:], group_docs[:-1], out=new_doc[1:])
    first_group = np.flatnonzero(new_doc)
    if np.unique(group_docs[first_group]).shape[0] != first_group.shape[0]:
        return None  # a document's groups are not all together
    # Each group equals the one before it unless it starts a new document.
    same = keys[1:] == keys[:-1]
    same |= new_doc[1:, None]
    if not same.all():
        return None
    leaders = np.sort(keys[first_group], axis=1)
    if np.any(leaders[:, 1:] == leaders[:, :-1]):
        return None
    is_first = np.zeros((n_groups, size), dtype=bool)
    is_first[first_group] = True
    return is_first.reshape(-1)


def _first_occurrences(keys: IntArray) -> npt.NDArray[np.bool_]:
    """Mask of the rows where a key is seen for the first time."""
    codes = _first_appearance_codes(keys)
    is_first = np.empty(codes.shape[0], dtype=bool)
    if codes.shape[0]:
        # First-appearance codes grow by one exactly at each new key.
        running_max = np.maximum.accumulate(codes)
        is_first[0] = True
        np.greater(codes[1:], running_max[:-1], out=is_first[1:])
    return is_first


# ---------------------------------------------------------------------------------------------
# One document, as pages and the command line see it.


def compute_document(
    table: CandidateTable,
    document: str,
    *,
    targets: Sequence[str] | None = None,
    groups: Mapping[str, Sequence[str]] | None = None,
    temperature: float = 1.0,
    check: bool = False,
) -> DocumentResult:
    """Compute only ``document``'s rows; ``targets`` default to all of them in CSV order.

    With ``check``, rows that would compute a meaningless number are refused and uneven targets
    warned about (see :mod:`mkdocs_selfattn.data_checks`); pages always check.
    """
    if document not in table.documents:
        raise DataError(
            table.source,
            f"document {document!r} not found{_did_you_mean(document, table.documents)}; "
            f"the file has {_listing(table.documents)}",
            key="document",
        )
    doc_code = table.documents.index(document)
    part = table.subset(table.document_codes == doc_code)
    results = compute(part, temperature)
    warnings: tuple[str, ...] = ()
    if check:
        from mkdocs_selfattn.data_checks import check_document

        warnings = check_document(results, document)

    group_targets = [part.targets[c] for c in results.group_target]
    wanted = list(dict.fromkeys(group_targets)) if targets is None else list(targets)
    if not wanted:
        raise DataError(
            table.source, "the list of targets is empty; name at least one target", key="targets"
        )
    missing = [t for t in wanted if t not in group_targets]
    if missing:
        known = list(dict.fromkeys(group_targets))
        raise DataError(
            table.source,
            f"target(s) {', '.join(repr(m) for m in missing)} not found in document "
            f"{document!r}{_did_you_mean(missing[0], known)}; its targets are {_listing(known)}",
            key="targets",
        )
    # Distinct candidates in CSV order (codes number tokens by first appearance in the file).
    in_order = [part.candidates[c] for c in np.unique(part.candidate_codes)]
    candidate_tokens = set(in_order)
    for name, members in (groups or {}).items():
        absent = [m for m in members if m not in candidate_tokens]
        if absent:
            raise DataError(
                table.source,
                f"group {name!r} names {', '.join(repr(a) for a in absent)}, which is not a "
                f"candidate of document {document!r}{_did_you_mean(absent[0], in_order)}; its "
                f"candidates are {_listing(in_order)}",
                key="groups",
            )

    target_results: list[TargetResult] = []
    for token in wanted:
        for g in range(results.n_groups):
            if group_targets[g] == token:
                target_results.append(_target_result(results, g, groups or {}))
    doc_in_part = part.documents.index(document)
    return DocumentResult(
        source=table.source,
        csv_rows=table.n_rows,
        document=document,
        document_rows=part.n_rows,
        vector_columns=table.vector_columns,
        baseline=tuple(float(v) for v in results.baseline[doc_in_part]),
        targets=tuple(target_results),
        temperature=results.temperature,
        warnings=warnings,
    )


def _target_result(
    results: AttentionResults, g: int, groups: Mapping[str, Sequence[str]]
) -> TargetResult:
    table = results.table
    start, size = int(results.starts[g]), int(results.sizes[g])
    rows = results.order[start : start + size]
    candidates = tuple(
        CandidateResult(
            token=table.candidates[table.candidate_codes[r]],
            index=None if table.candidate_index is None else int(table.candidate_index[r]),
            role=table.roles[table.role_codes[r]],
            score=float(table.scores[r]),
            weight=float(results.weights[r]),
            vector=tuple(float(v) for v in table.vectors[r]),
        )
        for r in rows
    )
    top = int(results.top_row[g])
    group_weights = tuple(
        (name, _group_weight(candidates, set(members))) for name, members in groups.items()
    )
    return TargetResult(
        target=table.targets[results.group_target[g]],
        target_index=(
            None if results.group_target_index is None else int(results.group_target_index[g])
        ),
        candidates=candidates,
        representation=tuple(float(v) for v in results.representation[g]),
        shift=tuple(float(v) for v in results.shift[g]),
        top=table.candidates[table.candidate_codes[top]],
        top_index=None if table.candidate_index is None else int(table.candidate_index[top]),
        groups=group_weights,
    )


def _group_weight(candidates: Sequence[CandidateResult], members: set[str]) -> float:
    # Summed left to right like the chapter's script, so both print the same rounded value.
    return float(sum(c.weight for c in candidates if c.token in members))


def _did_you_mean(text: str, options: Sequence[str]) -> str:
    import difflib

    close = difflib.get_close_matches(text, list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _listing(values: Sequence[str], limit: int = 20) -> str:
    shown = ", ".join(repr(v) for v in values[:limit])
    more = len(values) - limit
    return shown + (f" and {more} more" if more > 0 else "")
