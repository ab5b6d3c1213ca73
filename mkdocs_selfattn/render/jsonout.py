"""The machine-readable view: full-precision floats, nothing rounded."""

from __future__ import annotations

import json
from typing import Any

from mkdocs_selfattn.results import (
    CandidateResult,
    DocumentResult,
    TargetResult,
)


def result_to_dict(result: DocumentResult) -> dict[str, Any]:
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
                "representation": list(t.representation),
                "shift": list(t.shift),
                "top": t.top,
                "top_index": t.top_index,
                "groups": dict(t.groups),
            }
            for t in result.targets
        ],
    }


def render_json(result: DocumentResult) -> str:
    return json.dumps(result_to_dict(result), ensure_ascii=False, indent=2) + "\n"


def result_from_dict(data: dict[str, Any]) -> DocumentResult:
    """Inverse of :func:`result_to_dict`, so cached results need neither pyarrow nor numpy."""
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
                representation=tuple(float(v) for v in t["representation"]),
                shift=tuple(float(v) for v in t["shift"]),
                top=t["top"],
                top_index=t.get("top_index"),
                groups=tuple((str(k), float(v)) for k, v in t["groups"].items()),
            )
            for t in data["targets"]
        ),
    )
