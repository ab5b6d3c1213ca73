"""A targets example's records: one document's targets, each (at each of its positions) a group
of :mod:`~mkdocs_selfattn.core.readings` read by one softmax head, with the block's targets and
groups checked against the file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from mkdocs_selfattn.core.attention import AttentionResults, compute
from mkdocs_selfattn.core.named_groups import check_named_groups, document_code, named_weights
from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingResult
from mkdocs_selfattn.core.table import Table
from mkdocs_selfattn.errors import DataError, did_you_mean_each
from mkdocs_selfattn.errors import listing as _listing

CHUNK_GROUPS = 4096
"""Groups whose rows are turned into Python values at a time: the lists made for the records
stay a few MB even for a document of a million rows."""


def compute_targets(
    table: Table,
    document: str,
    *,
    targets: Sequence[str] | None = None,
    groups: Mapping[str, Sequence[str]] | None = None,
    temperature: float = 1.0,
    check: bool = False,
) -> ReadingResult:
    """Compute only ``document``'s rows; ``targets`` default to all of them in CSV order: one
    group per target and position, read by one softmax head over the score column.
    With ``check``, rows that would compute a meaningless number are refused and uneven targets
    warned about (see :mod:`mkdocs_selfattn.core.data_checks`); pages always check.
    """
    doc_code = document_code(table.source, table.documents, document)
    part = table.subset(table.document_codes == doc_code)
    results = compute(part, temperature)
    warnings: tuple[str, ...] = ()
    if check:
        from mkdocs_selfattn.core.data_checks import check_document

        warnings = check_document(results, document)
    group_targets = [part.groups[c] for c in results.group_target]
    wanted = _wanted_targets(part, document, group_targets, targets)
    _check_groups(part, document, groups or {})
    # Each target's groups (one per position with index columns), in file order: one pass, so
    # a document of many targets costs linear time, not targets × groups.
    by_target: dict[str, list[int]] = {}
    for g, token in enumerate(group_targets):
        by_target.setdefault(token, []).append(g)
    doc_in_part = part.documents.index(document)
    baseline = tuple(float(v) for v in results.baseline[doc_in_part])
    shown = [g for token in wanted for g in by_target[token]]
    names = _GroupNames(results)
    target_groups: list[GroupResult] = []
    for at in range(0, len(shown), CHUNK_GROUPS):
        chunk = shown[at : at + CHUNK_GROUPS]
        columns = _Columns(results, chunk)
        target_groups += [
            _target_group(results, g, k, groups or {}, baseline, columns, names)
            for k, g in enumerate(chunk)
        ]
    return ReadingResult(
        source=table.source,
        layout="targets",
        csv_rows=table.n_rows,
        document=document,
        document_rows=part.n_rows,
        columns=(),
        axes=table.columns.axes,
        temperature=results.temperature,
        groups=tuple(target_groups),
        warnings=warnings,
    )


def _wanted_targets(
    part: Table,
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


def _check_groups(part: Table, document: str, groups: Mapping[str, Sequence[str]]) -> None:
    # Distinct candidates in CSV order (codes number tokens by first appearance in the file).
    names = part.encoded
    in_order = [names.candidates[c] for c in np.unique(names.candidate_codes)]
    check_named_groups(part.source, f"document {document!r}", groups, in_order)


def _target_group(
    results: AttentionResults,
    g: int,
    k: int,
    groups: Mapping[str, Sequence[str]],
    baseline: tuple[float, ...],
    columns: _Columns,
    names: _GroupNames,
) -> GroupResult:
    """Group ``g``, the ``k``-th shown, whose rows are ``columns``' slice ``k``."""
    lo, hi = columns.bounds[k], columns.bounds[k + 1]
    index = columns.index
    lines = tuple(
        map(
            Line,
            columns.tokens[lo:hi],
            columns.roles[lo:hi],
            columns.row_numbers[lo:hi],
            [()] * (hi - lo),
            columns.vectors[lo:hi],
            [None] * (hi - lo) if index is None else index[lo:hi],
        )
    )
    weights = tuple(columns.weights[lo:hi])
    target = names.targets[g]
    head = HeadResult(
        name=target,
        column=columns.score,
        given=False,
        values=tuple(columns.scores[lo:hi]),
        weights=weights,
        context=tuple(results.context[g].tolist()),
        shift=tuple(results.shift[g].tolist()),
        groups=named_weights(lines, weights, groups),
    )
    return GroupResult(
        name=target,
        lines=lines,
        baseline=baseline,
        heads=(head,),
        separations=((0.0,),),
        index=None if names.target_index is None else names.target_index[g],
    )


class _Columns:
    """The shown groups' rows, group after group, as Python lists made once (a value per row
    read through numpy scalars would cost a Python object per cell twice; the rows of targets
    not shown are never converted)."""

    def __init__(self, results: AttentionResults, shown: Sequence[int]) -> None:
        table, names = results.table, results.table.encoded
        picked = np.asarray(shown, dtype=np.int64)
        sizes = results.sizes[picked]
        bounds = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        self.bounds: list[int] = bounds.tolist()
        # Row p of shown group k sits at order[start of the group + (p - its first position)].
        positions = np.repeat(results.starts[picked] - bounds[:-1], sizes)
        positions += np.arange(positions.shape[0], dtype=np.int64)
        rows = results.order[positions]
        ((_, self.score),) = table.columns.readers
        self.tokens = [names.candidates[c] for c in names.candidate_codes[rows].tolist()]
        self.roles = [names.roles[c] for c in names.role_codes[rows].tolist()]
        self.row_numbers: list[int] = table.row_numbers[rows].tolist()
        self.vectors = [tuple(v) for v in table.vectors[rows].tolist()]
        self.scores: list[float] = table.values[rows, 0].tolist()
        self.weights: list[float] = results.weights[rows].tolist()
        self.index: list[int] | None = (
            None if names.candidate_index is None else names.candidate_index[rows].tolist()
        )


class _GroupNames:
    """Every group's target and position, as Python values made once."""

    def __init__(self, results: AttentionResults) -> None:
        groups = results.table.groups
        self.targets = [groups[c] for c in results.group_target.tolist()]
        self.target_index: list[int] | None = (
            None if results.group_target_index is None else results.group_target_index.tolist()
        )
