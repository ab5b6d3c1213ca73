"""The machine-readable view: full-precision floats, nothing rounded."""

from __future__ import annotations

import json

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.core.results import DocumentResult


def render_json(result: DocumentResult | ReadingResult) -> str:
    return json.dumps(result.to_dict(), ensure_ascii=False, indent=2) + "\n"
