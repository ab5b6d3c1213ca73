"""What one example shows: plain, numpy-free records, so cached pages never import numpy (their
cache and JSON form is :mod:`record_form`'s, derived from the fields).

The attention core produces these; renderers, inline values and the cache consume them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

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
    """What one example shows: a document's targets with their weights, in CSV order."""

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

    # What every result record answers alike (ReadingResult has the same methods), so views
    # ask the record instead of telling the layouts apart.

    def to_dict(self) -> dict[str, Any]:
        return to_plain(self)

    def section_sizes(self) -> list[int]:
        """Values per section (a target: its candidates' scores), for the try view's limit."""
        return [len(target.candidates) for target in self.targets]

    def first_sections(self, sections: int) -> DocumentResult:
        return replace(self, targets=self.targets[:sections])

    def shown_names(self) -> set[str]:
        """Every name the example shows: targets, candidate tokens, named candidate groups."""
        found = {target.target for target in self.targets}
        for target in self.targets:
            found.update(cand.token for cand in target.candidates)
            found.update(name for name, _ in target.groups)
        return found

    def repeated_tokens(self) -> frozenset[str]:
        """Tokens at more than one position, which labels tell apart as ``token@N``."""
        positions: dict[str, set[int]] = {}
        for target in self.targets:
            if target.target_index is not None:
                positions.setdefault(target.target, set()).add(target.target_index)
            for cand in target.candidates:
                if cand.index is not None:
                    positions.setdefault(cand.token, set()).add(cand.index)
        return frozenset(token for token, seen in positions.items() if len(seen) > 1)


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
