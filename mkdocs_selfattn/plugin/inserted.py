"""Blocks that Python-Markdown's preprocessors insert after the plugin ran (pymdownx.snippets).

Such a block is never computed: the leftover guard (:mod:`leftovers`) reports it once, at the
include line. An inline value naming the block's id must then not add a second message saying the
id does not exist, so the page learns these ids (and their include lines) beforehand; and
``check``, which stops before the HTML, runs the preprocessors as far as the guard so that it
reports the same leftovers as a build.
"""

from __future__ import annotations

from typing import Any

import markdown as python_markdown

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.plugin.leftovers import Rendering, is_guard, page_line

_KEY = "_selfattn_markdown"
INCLUDE = "--8<--"


def site_markdown(config: Any) -> python_markdown.Markdown:
    """The site's Markdown converter, made once per build (kept on its configuration)."""
    md = config.__dict__.get(_KEY)
    if not isinstance(md, python_markdown.Markdown):
        md = python_markdown.Markdown(
            extensions=config.markdown_extensions, extension_configs=config.mdx_configs
        )
        config.__dict__[_KEY] = md
    md.reset()
    return md


def inserted_ids(markdown: str, config: Any) -> dict[str, int]:
    """Each id a snippet include would define on this page → the page line of its include."""
    if INCLUDE not in markdown:
        return {}
    from mkdocs_selfattn.build.page import recover_id

    md = site_markdown(config)
    if "snippet" not in md.preprocessors:
        return {}
    lines = md.preprocessors["snippet"].run(markdown.split("\n"))
    page = Rendering("", "", markdown, markdown)
    own = {(raw.body, raw.indent) for raw in find_blocks(markdown)}
    found: dict[str, int] = {}
    for raw in find_blocks("\n".join(lines)):
        example_id = recover_id(raw.body)
        if (raw.body, raw.indent) in own or example_id is None or example_id in found:
            continue
        found[example_id] = page_line(page, lines, raw.start) or 1
    return found


def run_to_guard(markdown: str, config: Any) -> None:
    """The preprocessors up to and including the leftover guard (which reports what it finds)."""
    if "selfattn" not in markdown and INCLUDE not in markdown:
        return
    md = site_markdown(config)
    lines = markdown.split("\n")
    for preprocessor in md.preprocessors:
        lines = preprocessor.run(lines)
        if is_guard(preprocessor):
            return
