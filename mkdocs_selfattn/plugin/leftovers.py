"""Blocks the plugin never saw must not ship as raw YAML.

The plugin expands blocks in ``on_page_markdown``; text that Python-Markdown inserts later, such
as a ``pymdownx.snippets`` include (``--8<--``), reaches the page after that. A preprocessor that
runs after the includes finds any ``selfattn`` block still there, reports it against the include
line of the page, and puts a visible error in its place.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from mkdocs_selfattn.blocks.markdown_scan import fenced_line_numbers, find_blocks

LEFTOVER = (
    "this selfattn block was inserted after the plugin ran (by pymdownx.snippets or another "
    "extension), so it was never computed; put the block in the page itself (includes may "
    "bring the text around it)"
)


UNREADABLE = (
    "this looks like a selfattn block in a place the plugin cannot read (the fence must start "
    "its line after spaces or '>' markers); move it to the top level, or into an admonition, "
    "list item, content tab, footnote or blockquote on its own"
)
_ANY_FENCE = re.compile(r"^[\s>*+\-\d.)]*(?:`{3,}|~{3,})\s*\{?\s*\.?selfattn(?![\w-])")
"""A selfattn fence opening behind any mix of markers, readable by the scanner or not."""


@dataclass
class Rendering:
    """The page being converted: its ``src_uri``, how messages name it, its source markdown
    and the markdown the plugin handed on."""

    src_uri: str
    name: str
    source: str
    expanded: str


Report = Callable[[Rendering | None, int | None, str], str]
"""Reports a problem on a page (at a line, if known); returns the error HTML to put there."""


class LeftoverGuard(Extension):
    def __init__(self, page: Callable[[], Rendering | None], report: Report) -> None:
        super().__init__()
        self.page = page
        self.report = report

    def __deepcopy__(self, memo: dict[int, object]) -> LeftoverGuard:
        # It lives in the site configuration, which other plugins may deep-copy; a copy must
        # not drag a copy of the plugin (and its worker pool) along with it.
        return self

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's API name
        # 29: after snippets (32) and whitespace normalisation (30), before fenced code (25).
        md.preprocessors.register(_Guard(md, self), "selfattn_leftovers", 29)


class _Guard(Preprocessor):
    def __init__(self, md: Markdown, guard: LeftoverGuard) -> None:
        super().__init__(md)
        self.guard = guard

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if "selfattn" not in text:
            return lines
        page = self.guard.page()
        converted = list(lines)
        code = fenced_line_numbers(text)
        for n, content in enumerate(converted):
            if n not in code and _ANY_FENCE.match(content):
                where = None if page is None else page_line(page, converted, n + 1)
                # The block stays as it is: where it ends is as unclear as where it starts.
                self.guard.report(page, where, UNREADABLE)
        for raw in reversed(find_blocks(text)):
            where = None if page is None else page_line(page, converted, raw.start)
            html = self.guard.report(page, where, LEFTOVER)
            placeholder = self.md.htmlStash.store(html)
            lines[raw.start - 1 : raw.end] = ["", raw.indent + placeholder, ""]
        return lines


def page_line(page: Rendering, lines: list[str], start: int) -> int | None:
    """The source line that brought in line ``start`` (1-based) of the converted text: the
    include line an inserted block replaced, found again in the page's own markdown."""
    expanded = page.expanded.split("\n")
    matcher = difflib.SequenceMatcher(None, expanded, lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if not j1 <= start - 1 < j2:
            continue
        if tag == "equal":
            origin = expanded[i1 + start - 1 - j1]  # a line the page itself has
        elif i1 < i2:
            origin = expanded[i1]  # the include line the inserted text replaced
        elif i1 > 0:
            origin = expanded[i1 - 1]
        else:
            return None
        source = page.source.split("\n")
        return source.index(origin) + 1 if origin in source else None
    return None


def is_guard(preprocessor: Preprocessor) -> bool:
    return isinstance(preprocessor, _Guard)
