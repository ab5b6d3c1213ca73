"""The machine-readable view: full-precision floats, nothing rounded."""

from __future__ import annotations

import json
from typing import Any

from mkdocs_selfattn.attention import DocumentResult


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
                "groups": dict(t.groups),
            }
            for t in result.targets
        ],
    }


def render_json(result: DocumentResult) -> str:
    return json.dumps(result_to_dict(result), ensure_ascii=False, indent=2) + "\n"
