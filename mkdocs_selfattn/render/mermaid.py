"""Mermaid flowcharts of one example, the chapter's figures with every number computed and every
label escaped: each layout draws the figure its registry entry names
(``render/layout_renderers.RENDERERS``; the figures are in :mod:`mermaid_figures`); this module
holds their words and the HTML a mermaid fence becomes.

No diagram is wider than a phone can show at a readable size: at most three readers stand side
by side, more are further diagrams. A node with more items than it can list names the top ones
and "N others"; long tokens are shortened (:mod:`figure_text`), so no node grows with the data."""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.layout_renderers import RENDERERS

DEFAULT_TEXT: Mapping[str, str] = {
    "document": "document",
    "candidates": "candidate tokens",
    "target": "current token",
    "weights": "re-reads most",
    "representation": "new representation",
    "shift": "shift",
    "others": "{n} others",
    "query": "question",
    "context": "context",
    "group": "group",
    "head": "head",
    "separation": "head separation",
    "acc_targets": "How the target tokens of {document} re-read the candidates",
    "acc_questions": "What each question weighs most, and its context",
    "acc_heads": "{group}: what each head weighs most, and its context",
    "acc_part": "part {i} of {n}",
}


def mermaid_diagrams(
    result: ReadingResult,
    labels: Labels,
    *,
    top: int = 3,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
    page_text: Mapping[str, str] | None = None,
    page_labels: Labels | None = None,
) -> list[str]:
    """Mermaid sources (without the fence), one per diagram. Node ids are generated, never taken
    from the CSV. ``text``/``labels`` are the words drawn in the boxes (the figure's language);
    ``page_text``/``page_labels`` those of the accessible title and description (the page's)."""
    words = {**DEFAULT_TEXT, **(text or {})}
    page = {**DEFAULT_TEXT, **(page_text if page_text is not None else text or {})}
    said = page_labels or labels
    draw = RENDERERS[result.layout].mermaid
    return draw(result, labels, words, top=top, number_format=number_format, page=page, said=said)


def mermaid_html(source: str, element: str = "pre", class_name: str = "mermaid") -> str:
    """What pymdownx.superfences makes of a ``mermaid`` fence (``fence_code_format`` for
    ``pre``, ``fence_div_format`` for ``div``), so the figure can bypass markdown and the search
    index and still read exactly as the fence would."""
    body = source.rstrip("\n").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if element == "div":
        return f'<div class="{class_name}">{body}</div>'
    return f'<pre class="{class_name}"><code>{body}</code></pre>'
