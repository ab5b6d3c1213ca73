"""What one example shows: plain, numpy-free records, so cached pages never import numpy.

The attention core produces these; renderers, inline values and the cache consume them.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    warnings: tuple[str, ...] = ()
    """Doubts about the data that do not stop the example (targets re-reading different
    candidates), located in the CSV; part of the result so a cached example repeats them."""

    def target(self, token: str) -> TargetResult:
        for item in self.targets:
            if item.target == token:
                return item
        raise KeyError(token)
