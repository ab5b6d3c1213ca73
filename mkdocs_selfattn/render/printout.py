"""The chapter-style console printout: a block's ``template:`` (Jinja2) filled from the core, or
its layout's default template, byte for byte what the course's example script prints.

The default templates (:mod:`printout_templates`) are the formats of the course's three scripts
written in terms of roles, so any file of the same layout prints the way its chapter's script
would; each layout's template and variables are its entry in ``layout_renderers.RENDERERS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.layout_renderers import RENDERERS
from mkdocs_selfattn.render.template_env import fill


def printout_variables(
    result: ReadingResult,
    labels: Labels | None = None,
    top: int = 3,
    csv_bytes: bytes | None = None,
    columns: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Every name a template of ``result``'s layout can use (docs/plugin/templates.md)."""
    variables = RENDERERS[result.layout].variables
    return variables(result, labels or Labels(), top, csv_bytes, columns)


def render_printout(
    result: ReadingResult,
    labels: Labels | None = None,
    template: str | None = None,
    *,
    line: int | None = None,
    top: int = 3,
    csv_bytes: bytes | None = None,
    columns: Mapping[str, str] | None = None,
) -> str:
    """The printout: ``template`` (the block's ``template:``) or the layout's default, filled.

    ``line`` is the page line of the block's ``template:`` key, for the message of a template
    that fails (:class:`~mkdocs_selfattn.render.template_env.TemplateError`); ``top`` is how
    many lines ``q.top`` holds (the block's ``top:``); ``csv_bytes`` and ``columns`` (the
    block's ``columns:``) give a targets template its candidates' cells (``c.cells``).
    """
    text = RENDERERS[result.layout].template if template is None else template
    variables = printout_variables(result, labels, top, csv_bytes, columns)
    return fill(text, variables, line=line)
