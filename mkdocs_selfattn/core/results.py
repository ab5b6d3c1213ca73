"""A targets example as its views read it: the document → target → candidate view of the one
record family (:mod:`~mkdocs_selfattn.core.readings`), made by :func:`document_of`. The engine,
the cache and the workers carry the reading records; the targets layout's tables, printout
variables, inline values, mermaid graph, weight chart, try view and JSON view read this view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from mkdocs_selfattn.core.readings import GroupResult, ReadingResult
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
    """A targets example as its views read it: the document's targets with their candidates'
    weights, in the order the block lists them."""

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


_last: tuple[ReadingResult, DocumentResult] | None = None


def document_of(result: ReadingResult) -> DocumentResult:
    """The view of a targets example (one group per target, read by one softmax head). A page
    asks several views of one example in a row, so the last one made is kept."""
    global _last
    last = _last
    if last is not None and last[0] is result:
        return last[1]
    document = DocumentResult(
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
    _last = (result, document)
    return document


def _target(group: GroupResult) -> TargetResult:
    (head,) = group.heads
    lines = group.lines
    top = lines[head.top(1)[0]]
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
    result: DocumentResult,
) -> tuple[list[CandidateKey], list[dict[CandidateKey, float]]]:
    """Every candidate of the document in order of first appearance, and per target the summed
    weight of each of its candidates (added left to right from 0, as ``sum()`` adds).

    The compare table and the weight chart are candidates × targets: found by hashing, in one
    pass over the rows, so their cost grows with the rows, not with rows × candidates.
    """
    order: dict[CandidateKey, None] = {}
    per_target: list[dict[CandidateKey, float]] = []
    for target in result.targets:
        sums: dict[CandidateKey, float] = {}
        for cand in target.candidates:
            key = (cand.token, cand.index)
            order.setdefault(key, None)
            sums[key] = sums.get(key, 0) + cand.weight
        per_target.append(sums)
    return list(order), per_target
