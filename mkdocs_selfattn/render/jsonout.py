"""The machine-readable view: full-precision floats, nothing rounded, in the layout's JSON form."""

from __future__ import annotations

import json

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.layout_renderers import RENDERERS


def render_json(result: ReadingResult) -> str:
    plain = RENDERERS[result.layout].plain(result)
    return json.dumps(plain, ensure_ascii=False, indent=2) + "\n"
