"""One document's results, as pages and the command line see them: the records of
:mod:`mkdocs_selfattn.core.results`, with the block's targets and groups checked against the
file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from mkdocs_selfattn.core.attention import AttentionResults, compute
from mkdocs_selfattn.core.candidate_table import CandidateTable
from mkdocs_selfattn.core.named_groups import check_named_groups
from mkdocs_selfattn.core.results import CandidateResult, DocumentResult, TargetResult
from mkdocs_selfattn.errors import DataError, did_you_mean, did_you_mean_each
from mkdocs_selfattn.errors import listing as _listing


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
    warned about (see :mod:`mkdocs_selfattn.core.data_checks`); pages always check.
    """
    if document not in table.documents:
        raise DataError(
            table.source,
            f"document {document!r} not found{did_you_mean(document, table.documents)}; "
            f"the file has {_listing(table.documents, quote=True)}",
            key="document",
        )
    doc_code = table.documents.index(document)
    part = table.subset(table.document_codes == doc_code)
    results = compute(part, temperature)
    warnings: tuple[str, ...] = ()
    if check:
        from mkdocs_selfattn.core.data_checks import check_document

        warnings = check_document(results, document)

    group_targets = [part.targets[c] for c in results.group_target]
    wanted = _wanted_targets(part, document, group_targets, targets)
    _check_groups(part, document, groups or {})

    # Each target's groups (one per position with index columns), in file order: one pass, so
    # a document of many targets costs linear time, not targets × groups.
    by_target: dict[str, list[int]] = {}
    for g, token in enumerate(group_targets):
        by_target.setdefault(token, []).append(g)
    target_results = [
        _target_result(results, g, groups or {}) for token in wanted for g in by_target[token]
    ]
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


def _wanted_targets(
    part: CandidateTable,
    document: str,
    group_targets: list[str],
    targets: Sequence[str] | None,
) -> list[str]:
    """The targets to show, in order; every one must be a target of the document."""
    wanted = list(dict.fromkeys(group_targets)) if targets is None else list(targets)
    if not wanted:
        raise DataError(
            part.source, "the list of targets is empty; name at least one target", key="targets"
        )
    known_set = set(group_targets)
    missing = [t for t in wanted if t not in known_set]
    if missing:
        known = list(dict.fromkeys(group_targets))
        raise DataError(
            part.source,
            f"target(s) {', '.join(repr(m) for m in missing)} not found in document "
            f"{document!r}{did_you_mean_each(missing, known)}; "
            f"its targets are {_listing(known, quote=True)}",
            key="targets",
        )
    return wanted


def _check_groups(part: CandidateTable, document: str, groups: Mapping[str, Sequence[str]]) -> None:
    # Distinct candidates in CSV order (codes number tokens by first appearance in the file).
    in_order = [part.candidates[c] for c in np.unique(part.candidate_codes)]
    check_named_groups(part.source, f"document {document!r}", groups, in_order)


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
        context=tuple(float(v) for v in results.context[g]),
        shift=tuple(float(v) for v in results.shift[g]),
        top=table.candidates[table.candidate_codes[top]],
        top_index=None if table.candidate_index is None else int(table.candidate_index[top]),
        groups=group_weights,
    )


def _group_weight(candidates: Sequence[CandidateResult], members: set[str]) -> float:
    # Summed left to right like the chapter's script, so both print the same rounded value.
    return float(sum(c.weight for c in candidates if c.token in members))
