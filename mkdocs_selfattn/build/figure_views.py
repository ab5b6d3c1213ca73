"""The figure views: ``chart``, ``context_chart``, ``separation_chart`` and ``context_space``.

Each is one function of the :data:`views.VIEWS` registry; they share one path (:func:`_figure`):
the figure's own check, then the cache, a worker or a drawing here, the chart's cache key and the
words of the page's language. What each draws is :func:`render.figure_query.draw_figure`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from mkdocs_selfattn.blocks.spec import ViewOptions
from mkdocs_selfattn.build.cache import code_fingerprint, content_key, matplotlib_version
from mkdocs_selfattn.build.jobs import render_chart_job
from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.render.chart import CHART_FORMAT, ChartStyle
from mkdocs_selfattn.render.chart_fonts import font_keys
from mkdocs_selfattn.render.words import CHART, words
from mkdocs_selfattn.version import __version__

if TYPE_CHECKING:
    from mkdocs_selfattn.blocks.spec import ExampleSpec
    from mkdocs_selfattn.build.example import Example, Piece, Rendered, ViewContext

FIGURES = ("chart", "context_chart", "separation_chart", "context_space")
"""The views drawn with matplotlib, which the look-ahead sends to a worker before pages render."""


def figure_names(view: ViewOptions) -> list[str]:
    """The figures a block shows, in its order, each once."""
    return [name for name in dict.fromkeys(view.show) if name in FIGURES]


def chart_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    """Every candidate's weight: per target, or per question/head (``query:`` picks one)."""
    return _figure(pipeline, example, view, line, out, "chart")


def context_chart_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    """Each question's (or head's) context beside the uniform baseline."""
    return _figure(pipeline, example, view, line, out, "context_chart")


def separation_chart_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    """How far two heads' contexts are apart, per group (scenario)."""
    return _figure(pipeline, example, view, line, out, "separation_chart")


def context_space_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    """Every head's context as a point on the first two context axes."""
    return _figure(pipeline, example, view, line, out, "context_space")


def _figure(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered, name: str
) -> Piece:
    """Any chart view: checked, then from the cache, a worker or drawn here."""
    from mkdocs_selfattn.render.chart_context import figure_problem

    query = view.query
    problem = None if name == "chart" else figure_problem(example.result, name)
    if problem is not None:
        raise BlockError(problem, line=line)
    number_format = view.number_format or pipeline.settings.number_format
    if not pipeline.settings.draw_charts:
        from mkdocs_selfattn.render.figure_query import figure_texts
        from mkdocs_selfattn.render.glyphs import glyph_message, missing_glyphs

        texts = figure_texts(
            name, example.result, example.labels, number_format, chart_text(view), view.title, query
        )
        missing = missing_glyphs(texts, pipeline.settings.chart.fonts)
        if missing:
            out.warnings.append(glyph_message(missing))
        return ("late", '<div class="selfattn-chart-box"></div>')
    style = pipeline.settings.chart
    cache = pipeline.cache
    key = chart_key(example.key, example.spec, style, number_format, view, name)
    cached = cached_chart(cache.get("chart", key))
    if cached is not None:
        return ("late", _chart_html(cached[0], cached[1], out.warnings))
    args = (
        example.result,
        example.labels,
        style,
        number_format,
        chart_text(view),
        view.title,
        name,
        query,
    )
    warnings: list[str] = []

    def finish(svg: str, missing: list[str]) -> str:
        cache.put("chart", key, {"svg": svg, "missing": missing})
        return _chart_html(svg, missing, warnings)

    if pipeline.scheduler is None:
        html = finish(*render_chart_job(*args))
        out.warnings += warnings
        return ("late", html)
    pending = pipeline.scheduler.chart(
        key, (render_chart_job, args), lambda: render_chart_job(*args), finish, warnings
    )
    return ("late", pending)


def _chart_html(svg: str, missing: list[str], warnings: list[str]) -> str:
    if missing:
        from mkdocs_selfattn.render.glyphs import glyph_message

        warnings.append(glyph_message(missing))
    return f'<div class="selfattn-chart-box">{svg}</div>'


def chart_key(
    example_key: str,
    spec: ExampleSpec,
    style: ChartStyle,
    number_format: str | None,
    view: ViewOptions,
    name: str,
    *,
    page_text: Mapping[str, str] | None = None,
) -> str:
    """The cache key of one figure (both its drawings): ``name`` is the view (a block may show
    several figures), and the block's ``query:`` picks what it shows. ``page_text``: the words of
    its ``<title>``/``<desc>`` when they are not the drawn ones (a figure language)."""
    extra = () if page_text is None else (dict(page_text),)
    return content_key(
        "chart",
        name,
        view.query,
        __version__,
        code_fingerprint(),
        CHART_FORMAT,
        example_key,
        dict(spec.display),
        style.width,
        style.height,
        list(style.colors),
        font_keys(style.fonts),
        number_format,
        chart_text(view),
        view.title,
        matplotlib_version(),
        *extra,
    )


def cached_chart(payload: object) -> tuple[str, list[str]] | None:
    if not isinstance(payload, dict) or not isinstance(payload.get("svg"), str):
        return None
    missing = payload.get("missing", [])
    if not isinstance(missing, list) or not all(isinstance(m, str) for m in missing):
        return None
    return payload["svg"], missing


def chart_text(view: ViewOptions) -> dict[str, str]:
    """A figure's words: the plugin's in the page's language, then the block's own ``text:``."""
    return {**words(CHART, view.language), **view.text}
