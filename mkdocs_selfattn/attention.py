"""The softmax core: every (document, target) group of a table in one vectorised numpy pass.

A group is the set of rows sharing a document and a target token (and a target position when the
CSV has index columns); its rows, in CSV order, are the candidates the target re-reads.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mkdocs_selfattn.errors import DataError
from mkdocs_selfattn.table import CandidateTable, FloatArray, IntArray


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
    """Weights, representations, baselines, shifts and tops for every group at once."""
    temperature = check_temperature(temperature, table.source)
    n = table.n_rows
    group_codes = _first_appearance_codes(_group_keys(table))
    order, starts, sizes = _segments(group_codes)

    scores = table.scores[order]
    seg_max = np.maximum.reduceat(scores, starts)
    # Subtracting the group maximum before dividing keeps exp() in range even for ±1e300 scores:
    # every difference is ≤ 0, so the largest term is exactly exp(0) = 1 and nothing overflows.
    scaled = (scores - np.repeat(seg_max, sizes)) / temperature
    exps = np.exp(scaled)
    totals = np.add.reduceat(exps, starts)
    sorted_weights = exps / np.repeat(totals, sizes)

    vectors = table.vectors[order]
    representation = np.add.reduceat(sorted_weights[:, None] * vectors, starts, axis=0)

    is_max = sorted_weights == np.repeat(np.maximum.reduceat(sorted_weights, starts), sizes)
    positions = np.where(is_max, np.arange(n), n)
    top_row = order[np.minimum.reduceat(positions, starts)]

    weights = np.empty(n, dtype=np.float64)
    weights[order] = sorted_weights

    first_rows = order[starts]
    group_document = table.document_codes[first_rows]
    baseline = _baselines(table)
    shift = representation - baseline[group_document]
    return AttentionResults(
        table=table,
        temperature=temperature,
        order=order,
        starts=starts,
        sizes=sizes,
        group_document=group_document,
        group_target=table.target_codes[first_rows],
        group_target_index=None if table.target_index is None else table.target_index[first_rows],
        weights=weights,
        representation=representation,
        baseline=baseline,
        shift=shift,
        top_row=top_row,
    )


def _group_keys(table: CandidateTable) -> IntArray:
    keys = table.document_codes * max(len(table.targets), 1) + table.target_codes
    if table.target_index is not None:
        keys = _combine(keys, table.target_index)
    return keys


def _combine(left: IntArray, right: IntArray) -> IntArray:
    """One int64 key per (left, right) pair, via codes so no product can overflow."""
    left_codes = _first_appearance_codes(left)
    right_codes = _first_appearance_codes(right)
    width = int(right_codes.max()) + 1 if right_codes.size else 1
    return left_codes * width + right_codes


def _first_appearance_codes(keys: IntArray) -> IntArray:
    """Dense codes 0..k-1 numbered by first appearance (Arrow's hash encoding keeps that order)."""
    import pyarrow as pa

    encoded = pa.array(keys).dictionary_encode()
    return np.asarray(encoded.indices.to_numpy(zero_copy_only=False), dtype=np.int64)


def _segments(codes: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """Row order grouped by code, plus group starts and sizes (in that order)."""
    n = codes.shape[0]
    change = np.flatnonzero(codes[1:] != codes[:-1]) + 1
    run_starts = np.concatenate(([0], change)).astype(np.int64)
    n_groups = int(codes.max()) + 1 if n else 0
    if run_starts.shape[0] == n_groups:
        # Already contiguous (the usual layout of a course CSV): no sort needed. Codes are in
        # first-appearance order, so run k holds group k.
        order = np.arange(n, dtype=np.int64)
        starts = run_starts
    else:
        order = np.argsort(codes, kind="stable").astype(np.int64)
        counts = np.bincount(codes, minlength=n_groups)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    sizes = np.diff(np.append(starts, n)).astype(np.int64)
    return order, starts, sizes


def _baselines(table: CandidateTable) -> FloatArray:
    """Plain mean of each document's distinct candidates (first occurrence of each)."""
    keys = table.document_codes * max(len(table.candidates), 1) + table.candidate_codes
    if table.candidate_index is not None:
        keys = _combine(keys, table.candidate_index)
    codes = _first_appearance_codes(keys)
    running_max = np.maximum.accumulate(codes)
    is_first = np.empty(codes.shape[0], dtype=bool)
    if codes.shape[0]:
        is_first[0] = True
        is_first[1:] = codes[1:] > running_max[:-1]
    docs = table.document_codes[is_first]
    n_docs = len(table.documents)
    counts = np.bincount(docs, minlength=n_docs).astype(np.float64)
    baseline = np.zeros((n_docs, table.vectors.shape[1]), dtype=np.float64)
    firsts = table.vectors[is_first]
    for j in range(table.vectors.shape[1]):
        sums = np.bincount(docs, weights=firsts[:, j], minlength=n_docs)
        with np.errstate(invalid="ignore", divide="ignore"):
            baseline[:, j] = sums / counts
    return baseline


# ---------------------------------------------------------------------------------------------
# One document, as pages and the command line see it.


@dataclass(frozen=True)
class CandidateResult:
    token: str
    index: int | None
    role: str
    score: float
    weight: float
    vector: tuple[float, ...]


@dataclass(frozen=True)
class TargetResult:
    target: str
    target_index: int | None
    candidates: tuple[CandidateResult, ...]
    representation: tuple[float, ...]
    shift: tuple[float, ...]
    top: str
    top_index: int | None
    groups: tuple[tuple[str, float], ...]

    def candidate(self, token: str) -> CandidateResult:
        for item in self.candidates:
            if item.token == token:
                return item
        raise KeyError(token)


@dataclass(frozen=True)
class DocumentResult:
    """What one example shows: a document's targets with their weights, in CSV order."""

    source: str
    csv_rows: int
    document: str
    document_rows: int
    vector_columns: tuple[str, ...]
    baseline: tuple[float, ...]
    targets: tuple[TargetResult, ...]
    temperature: float

    def target(self, token: str) -> TargetResult:
        for item in self.targets:
            if item.target == token:
                return item
        raise KeyError(token)


def compute_document(
    table: CandidateTable,
    document: str,
    *,
    targets: Sequence[str] | None = None,
    groups: Mapping[str, Sequence[str]] | None = None,
    temperature: float = 1.0,
) -> DocumentResult:
    """Compute only ``document``'s rows; ``targets`` default to all of them in CSV order."""
    if document not in table.documents:
        raise DataError(
            table.source,
            f"document {document!r} not found; the file has {_listing(table.documents)}",
        )
    doc_code = table.documents.index(document)
    part = table.subset(table.document_codes == doc_code)
    results = compute(part, temperature)

    group_targets = [part.targets[c] for c in results.group_target]
    wanted = list(dict.fromkeys(group_targets)) if targets is None else list(targets)
    if not wanted:
        raise DataError(table.source, "the list of targets is empty; name at least one target")
    missing = [t for t in wanted if t not in group_targets]
    if missing:
        raise DataError(
            table.source,
            f"target(s) {', '.join(repr(m) for m in missing)} not found in document "
            f"{document!r}; its targets are {_listing(list(dict.fromkeys(group_targets)))}",
        )
    candidate_tokens = {part.candidates[c] for c in part.candidate_codes}
    for name, members in (groups or {}).items():
        absent = [m for m in members if m not in candidate_tokens]
        if absent:
            raise DataError(
                table.source,
                f"group {name!r} names {', '.join(repr(a) for a in absent)}, which is not a "
                f"candidate of document {document!r}; its candidates are "
                f"{_listing(sorted(candidate_tokens))}",
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


def _listing(values: Sequence[str], limit: int = 20) -> str:
    shown = ", ".join(repr(v) for v in values[:limit])
    more = len(values) - limit
    return shown + (f" and {more} more" if more > 0 else "")
