"""The targets layout's part of the one record family (:mod:`~mkdocs_selfattn.core.readings`):
its reader (:func:`target_head`) and top candidate (:func:`top_line`), the candidates × targets
sums its compare table and weight chart share, and its published JSON form, the document →
target → candidate records that :func:`document_of` makes (``run --format json`` and the file
beside a page have always had this shape, and load back as these records).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingResult
from mkdocs_selfattn.core.record_form import to_plain


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
    context: tuple[float, ...]
    """Σ weight · vector per vector column (the page calls it the target's new
    representation): one name with a reading's ``HeadResult.context``."""
    shift: tuple[float, ...]
    top: str
    top_index: int | None
    groups: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class DocumentResult:
    """A targets example's JSON form: the document's targets with their candidates' weights,
    in the order the block lists them."""

    layout: ClassVar[Literal["targets"]] = "targets"
    """The layout, as a reading names its own (build/layouts.py looks it up)."""

    source: str
    csv_rows: int
    document: str
    document_rows: int
    vector_columns: tuple[str, ...]
    temperature: float
    baseline: tuple[float, ...]
    targets: tuple[TargetResult, ...]
    warnings: tuple[str, ...] = ()
    """Doubts about the data that do not stop the example (targets re-reading different
    candidates), located in the CSV; part of the result so a cached example repeats them."""

    def to_dict(self) -> dict[str, Any]:
        """The targets layout's JSON view (``render/layout_renderers``: the ``plain`` form)."""
        return to_plain(self)


def document_of(result: ReadingResult) -> DocumentResult:
    """The JSON form of a targets example (one group per target, read by one softmax head)."""
    return DocumentResult(
        source=result.source,
        csv_rows=result.csv_rows,
        document=result.document or "",
        document_rows=result.document_rows,
        vector_columns=result.axis_names,
        temperature=result.temperature,
        baseline=result.groups[0].baseline if result.groups else (),
        targets=tuple(_target(group) for group in result.groups),
        warnings=result.warnings,
    )


def _target(group: GroupResult) -> TargetResult:
    head = target_head(group)
    lines = group.lines
    top = top_line(group)
    return TargetResult(
        target=group.name,
        target_index=group.index,
        candidates=tuple(
            map(
                CandidateResult,
                [line.token for line in lines],
                [line.index for line in lines],
                [line.role for line in lines],
                head.values,
                head.weights,
                [line.vector for line in lines],
            )
        ),
        context=head.context,
        shift=head.shift,
        top=top.token,
        top_index=top.index,
        groups=head.groups,
    )


CandidateKey = tuple[str, "int | None"]
"""A candidate as views tell candidates apart: its token and, with index columns, its position."""


def weights_by_candidate(
    result: ReadingResult,
) -> tuple[list[CandidateKey], list[dict[CandidateKey, float]]]:
    """Every candidate of a targets example in order of first appearance, and per target (a
    group, read by its one head) the summed weight of each of its candidates (added left to
    right from 0, as ``sum()`` adds).

    The compare table and the weight chart are candidates × targets: found by hashing, in one
    pass over the rows, so their cost grows with the rows, not with rows × candidates.
    """
    order: dict[CandidateKey, None] = {}
    per_target: list[dict[CandidateKey, float]] = []
    for group in result.groups:
        sums: dict[CandidateKey, float] = {}
        for line, weight in zip(group.lines, target_head(group).weights, strict=True):
            key = (line.token, line.index)
            order.setdefault(key, None)
            sums[key] = sums.get(key, 0) + weight
        per_target.append(sums)
    return list(order), per_target


def target_head(group: GroupResult) -> HeadResult:
    """A target's one reader: the softmax over the score column."""
    (head,) = group.heads
    return head


def top_line(group: GroupResult) -> Line:
    """A target's top candidate: the largest weight, the first in CSV order on a tie."""
    return group.lines[target_head(group).top(1)[0]]
