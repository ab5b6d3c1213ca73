"""Placeholders: how pieces of HTML get past Markdown (and search) into a page unchanged.

Markdown would escape or re-wrap raw HTML, so the plugin puts a token in the markdown and swaps
it for the HTML in ``on_page_content``. "Late" pieces (tables, charts) go in even later, in
``on_post_page``: until then an empty, search-excluded box holds their place.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs_selfattn.build.scheduler import PendingHtml


class PageSlots:
    """The pieces one page stored, by token, until MkDocs has rendered its markdown."""

    def __init__(self, nonce: str, src_uri: str) -> None:
        # A per-build secret in every placeholder: CSV text that happens to look like one can
        # never be swapped for HTML. Placeholders never reach the output, so builds stay equal.
        seed = (nonce + src_uri).encode()
        self.prefix = "SELFATTNSLOT" + hashlib.sha1(seed).hexdigest()[:10]
        self.now: dict[str, str] = {}
        """Put in by on_page_content."""
        self.late: dict[str, str | PendingHtml] = {}
        """Put in by on_post_page (charts may still be drawing)."""

    def store(self, html: str | PendingHtml, late: bool) -> str:
        """The page expander's ``Store``: keep ``html`` and return its token."""
        token = f"{self.prefix}N{len(self.now) + len(self.late)}X"
        if late or not isinstance(html, str):
            self.late[token] = html
        else:
            self.now[token] = html
        return token

    def content(self, html: str) -> str:
        """on_page_content: the page's HTML with its pieces, and holders for the late ones.

        Holders keep the search index to prose and printout (not every table cell and tick
        label), and save search the time of parsing them.
        """
        if not self.now and not self.late:
            return html
        holders = {token: holder(token) for token in self.late}
        return replace_slots(html, {**self.now, **holders})

    def collect_late(
        self, error_box: Callable[[str], str]
    ) -> tuple[dict[str, str], list[tuple[int | None, list[str]]]]:
        """The late pieces, charts drawn (waiting for workers where needed), and the
        warnings of each chart by its block's line; a chart that cannot be drawn becomes
        ``error_box(message)`` and a warning: a worker failure must not end the build."""
        resolved: dict[str, str] = {}
        notes: list[tuple[int | None, list[str]]] = []
        for token, content in self.late.items():
            if isinstance(content, str):
                resolved[token] = content
                continue
            try:
                resolved[token] = content.resolve()
                messages = content.warnings
            except Exception as exc:  # any kind: see the docstring
                message = f"the chart could not be drawn ({type(exc).__name__}: {exc})"
                resolved[token] = error_box(message)
                messages = [*content.warnings, message]
            notes.append((content.line, messages))
        return resolved, notes


@dataclass
class LatePieces:
    """A page's late pieces, drawn, and the warnings of each chart by its block's line."""

    resolved: dict[str, str] = field(default_factory=dict)
    notes: list[tuple[int | None, list[str]]] = field(default_factory=list)

    @classmethod
    def of(cls, slots: PageSlots | None, language: Callable[[], str | None]) -> LatePieces:
        """Collected in on_post_page; ``language``, the page's, for a chart's error box."""
        if slots is None or not slots.late:
            return cls()
        where = language()

        def error_box(message: str) -> str:
            # Imported on failure only: it loads every renderer's words (10-20 ms a build).
            from mkdocs_selfattn.build.block_errors import error_html

            return error_html(message, language=where)

        return cls(*slots.collect_late(error_box))

    @property
    def failed(self) -> bool:
        return any(messages for _, messages in self.notes)

    def fill(self, html: str) -> str:
        return fill_holders(html, self.resolved) if self.resolved else html


_HOLDER_HEAD = '<div class="selfattn-late" data-search-exclude data-selfattn="'
_HOLDER_TAIL = '"></div>'


def holder(token: str) -> str:
    """The empty, search-excluded box that keeps a late piece's place until on_post_page."""
    return f"{_HOLDER_HEAD}{token}{_HOLDER_TAIL}"


def fill_holders(output: str, pieces: dict[str, str]) -> str:
    """Swap each holder for its piece in one pass over the page (a page is 100-200 kB, and a
    regular expression or one ``replace`` per piece scanned it several times)."""
    parts = output.split(_HOLDER_HEAD)
    filled = [parts[0]]
    for part in parts[1:]:
        token, tail, rest = part.partition(_HOLDER_TAIL)
        if tail and token in pieces:
            filled += [pieces[token], rest]
        else:
            filled += [_HOLDER_HEAD, part]
    return "".join(filled)


_SLOT = re.compile(r"<p>\s*(SELFATTNSLOT[0-9a-f]{10}N\d+X)\s*</p>|(SELFATTNSLOT[0-9a-f]{10}N\d+X)")


def replace_slots(html: str, slots: dict[str, str]) -> str:
    """Put the stored HTML where markdown left each token (a whole paragraph, or inline)."""

    def swap(match: re.Match[str]) -> str:
        token = match.group(1) or match.group(2)
        return slots.get(token, match.group(0))

    return _SLOT.sub(swap, html)
