"""Which figure a view draws: the one place that maps a figure view's name to its drawing and
to the texts ``check`` tests for glyphs (without matplotlib). The block's ``query:`` is checked
once for every view, by the pipeline, before any of them renders."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.layout_renderers import RENDERERS

FIGURE_VIEWS = ("chart", "context_chart", "separation_chart", "context_space")


def draw_figure(
    name: str,
    result: ReadingResult,
    labels: Labels,
    style: Any,
    number_format: str | None,
    text: Mapping[str, str],
    title: str | None,
    query: str | None,
    *,
    page_text: Mapping[str, str] | None = None,
    page_labels: Labels | None = None,
    page_title: str | None = None,
) -> tuple[str, list[str]]:
    """The SVGs of figure ``name`` (the wide drawing, then the narrow one) and the glyphs no
    font could draw. ``page_text``/``page_labels``/``page_title``: the words of their
    ``<title>`` and ``<desc>`` when the page's language is not the figure's."""
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
            page_text=page_text,
            page_labels=page_labels,
            page_title=page_title,
        )
    else:
        from mkdocs_selfattn.render.chart_context import (
            render_context_chart,
            render_separation_chart,
        )
        from mkdocs_selfattn.render.chart_space import render_context_space

        figures = {
            "context_chart": render_context_chart,
            "separation_chart": render_separation_chart,
            "context_space": render_context_space,
        }
        out = figures[name](
            _drawing(name, result),
            labels,
            style=style,
            number_format=number_format,
            text=text,
            title=title,
            query=query,
            page_text=page_text,
            page_labels=page_labels,
            page_title=page_title,
        )
    return out.both, out.missing_glyphs


def figure_texts(
    name: str,
    result: ReadingResult,
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

    return figure_words(name, _drawing(name, result), labels, number_format, text, title)


def _drawing(name: str, result: ReadingResult) -> ReadingResult:
    """``result``, once its layout is known to draw figure ``name`` (the pipeline asked
    ``figure_problem`` first; a caller that did not gets an error, not a wrong figure)."""
    if name not in RENDERERS[result.layout].figures:
        raise ValueError(f"the {result.layout} layout does not draw {name!r}")
    return result
