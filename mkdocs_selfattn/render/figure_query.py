"""Which figure a view draws, and with which question or head: the one place that maps a view
name to its drawing, checks a block's ``query:`` and lists a figure's texts for ``check``.

Kept free of matplotlib: the view checks a block and ``check`` tests glyphs without drawing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mkdocs_selfattn.readings import ReadingResult
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.results import DocumentResult

FIGURE_VIEWS = ("chart", "context_chart", "separation_chart", "context_space")


def query_problem(result: DocumentResult | ReadingResult, query: str | None) -> str | None:
    """Why the block's ``query:`` names nothing this example has (None: it is fine)."""
    if query is None:
        return None
    if not isinstance(result, ReadingResult):
        return (
            f"'query: {query}' picks a question or head, and this example reads targets: "
            "remove 'query:' (the chart shows every target)"
        )
    first = result.groups[0] if result.groups else None
    if first is not None and any(query in (h.name, h.column) for h in first.heads):
        return None
    what = "question" if result.layout == "questions" else "head"
    names = ", ".join(f"'{h.name}' ({h.column})" for h in first.heads) if first else "none"
    return f"'query: {query}' is not a {what} of this example; {what}s: {names}"


def draw_figure(
    name: str,
    result: DocumentResult | ReadingResult,
    labels: Labels,
    style: Any,
    number_format: str | None,
    text: Mapping[str, str],
    title: str | None,
    query: str | None,
) -> tuple[str, list[str]]:
    """The SVG of figure ``name`` and the glyphs no font could draw."""
    if name == "chart":
        from mkdocs_selfattn.render.chart import render_chart

        out = render_chart(
            result,
            labels,
            style=style,
            number_format=number_format,
            text=text,
            title=title,
            query=query,
        )
    else:
        from mkdocs_selfattn.render.chart_context import FIGURES

        assert isinstance(result, ReadingResult), name
        out = FIGURES[name](
            result,
            labels,
            style=style,
            number_format=number_format,
            text=text,
            title=title,
            query=query,
        )
    return out.svg, out.missing_glyphs


def figure_texts(
    name: str,
    result: DocumentResult | ReadingResult,
    labels: Labels,
    number_format: str | None,
    text: Mapping[str, str],
    title: str | None,
    query: str | None,
) -> list[str]:
    """Every text figure ``name`` would draw, for the glyph check without drawing."""
    if name == "chart":
        from mkdocs_selfattn.render.chart import chart_words

        return chart_words(labels, result, number_format, text, title, query)
    from mkdocs_selfattn.render.chart_context import figure_words

    assert isinstance(result, ReadingResult), name
    return figure_words(name, result, labels, number_format, text, title)
