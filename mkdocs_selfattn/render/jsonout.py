"""The machine-readable view: full-precision floats, nothing rounded."""

from __future__ import annotations

import json

from mkdocs_selfattn.core.readings import ReadingResult, reading_to_dict
from mkdocs_selfattn.core.results import DocumentResult, result_to_dict


def render_json(result: DocumentResult | ReadingResult) -> str:
    data = reading_to_dict(result) if isinstance(result, ReadingResult) else result_to_dict(result)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
