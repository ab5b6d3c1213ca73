"""The machine-readable view: full-precision floats, nothing rounded."""

from __future__ import annotations

import json

from mkdocs_selfattn.results import DocumentResult, result_to_dict


def render_json(result: DocumentResult) -> str:
    return json.dumps(result_to_dict(result), ensure_ascii=False, indent=2) + "\n"
