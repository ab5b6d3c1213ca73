"""A figure's ``caption:``: its inline values filled in, escaped, wrapped with the figure.

The caption reads like the page's prose, so its numbers are inline values, answered from the
examples the page has defined so far (the block's own included); a wrong one fails at the
caption's line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from mkdocs_selfattn.blocks.spec import FIGURE_VIEWS, ViewOptions
from mkdocs_selfattn.build.inline import InlineValue, find_inline_values, inline_value
from mkdocs_selfattn.errors import BlockError, UseOfFailedExampleError
from mkdocs_selfattn.render.escape import html_text

if TYPE_CHECKING:
    from mkdocs_selfattn.build.example import Example


def with_caption(
    view: ViewOptions,
    examples: Mapping[str, Example],
    failed: Mapping[str, int] | None = None,
    unread: Sequence[int] = (),
) -> ViewOptions:
    """``view`` with :attr:`~ViewOptions.figcaption` filled in from its (localised) caption."""
    if view.caption is None:
        return view
    html = caption_html(view.caption, view.caption_line, examples, failed, unread)
    return replace(view, figcaption=html)


def caption_html(
    caption: str,
    line: int,
    examples: Mapping[str, Example],
    failed: Mapping[str, int] | None = None,
    unread: Sequence[int] = (),
) -> str:
    """The caption as HTML: its text escaped, its inline values answered."""
    pieces: list[str] = []
    position = 0
    for found in find_inline_values(caption):
        if isinstance(found, BlockError):
            raise BlockError(f"'caption': {found}", line=line)
        item = replace(found, line=line)
        pieces.append(html_text(caption[position : found.start]))
        pieces.append(_value(item, examples, failed, unread))
        position = found.end
    pieces.append(html_text(caption[position:]))
    return "".join(pieces).strip()


def _value(
    item: InlineValue,
    examples: Mapping[str, Example],
    failed: Mapping[str, int] | None,
    unread: Sequence[int],
) -> str:
    try:
        # Markdown-safe text is HTML-safe too: characters are written as entities.
        return inline_value(item, dict(examples), dict(failed or {}), unread)
    except UseOfFailedExampleError:
        raise
    except BlockError as exc:
        raise BlockError(f"'caption': {exc}", line=item.line) from None


def last_figure(view: ViewOptions) -> str | None:
    """The figure the caption sits under: the last one the block shows."""
    shown = [name for name in view.show if name in FIGURE_VIEWS]
    return shown[-1] if shown else None


def figure_html(html: str, view: ViewOptions, name: str) -> str:
    """``html`` as a captioned figure when it is the block's captioned figure, else as it is."""
    if view.figcaption is None or last_figure(view) != name:
        return html
    return (
        f'<figure class="selfattn-figure">{html}<figcaption>{view.figcaption}</figcaption></figure>'
    )
