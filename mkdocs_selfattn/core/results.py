"""What one example shows: plain, numpy-free records, so cached pages never import numpy, and
their serialisation (the cache format, also the command line's JSON view).

The attention core produces these; renderers, inline values and the cache consume them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal


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
    baseline: tuple[float, ...]
    targets: tuple[TargetResult, ...]
    temperature: float
    warnings: tuple[str, ...] = ()
    """Doubts about the data that do not stop the example (targets re-reading different
    candidates), located in the CSV; part of the result so a cached example repeats them."""

    # What every result record answers alike (ReadingResult has the same methods), so views
    # ask the record instead of telling the layouts apart.

    def to_dict(self) -> dict[str, Any]:
        return result_to_dict(self)

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


def result_to_dict(result: DocumentResult) -> dict[str, Any]:
    """Every number at full precision: the JSON view, and the body of the cache's payload."""
    return {
        "csv_rows": result.csv_rows,
        "document": result.document,
        "document_rows": result.document_rows,
        "vector_columns": list(result.vector_columns),
        "temperature": result.temperature,
        "baseline": list(result.baseline),
        "targets": [
            {
                "target": t.target,
                "target_index": t.target_index,
                "candidates": [
                    {
                        "token": c.token,
                        "index": c.index,
                        "role": c.role,
                        "score": c.score,
                        "weight": c.weight,
                        "vector": list(c.vector),
                    }
                    for c in t.candidates
                ],
                "context": list(t.context),
                "shift": list(t.shift),
                "top": t.top,
                "top_index": t.top_index,
                "groups": dict(t.groups),
            }
            for t in result.targets
        ],
    }


def result_payload(result: DocumentResult) -> dict[str, Any]:
    """The cache's form of a result (also what a worker sends back)."""
    payload = {**result_to_dict(result), "source": result.source}
    if result.warnings:
        payload["warnings"] = list(result.warnings)
    return payload


def result_from_dict(data: dict[str, Any]) -> DocumentResult:
    """Inverse of :func:`result_payload`, so cached results need neither pyarrow nor numpy."""
    return DocumentResult(
        source=str(data.get("source", "")),
        csv_rows=int(data["csv_rows"]),
        document=str(data["document"]),
        document_rows=int(data["document_rows"]),
        vector_columns=tuple(data["vector_columns"]),
        baseline=tuple(float(v) for v in data["baseline"]),
        temperature=float(data["temperature"]),
        warnings=tuple(str(w) for w in data.get("warnings", ())),
        targets=tuple(
            TargetResult(
                target=t["target"],
                target_index=t["target_index"],
                candidates=tuple(
                    CandidateResult(
                        token=c["token"],
                        index=c["index"],
                        role=c["role"],
                        score=float(c["score"]),
                        weight=float(c["weight"]),
                        vector=tuple(float(v) for v in c["vector"]),
                    )
                    for c in t["candidates"]
                ),
                context=tuple(float(v) for v in t["context"]),
                shift=tuple(float(v) for v in t["shift"]),
                top=t["top"],
                top_index=t.get("top_index"),
                groups=tuple((str(k), float(v)) for k, v in t["groups"].items()),
            )
            for t in data["targets"]
        ),
    )
