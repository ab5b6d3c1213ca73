"""The figure views: ``chart``, ``context_chart``, ``separation_chart`` and ``context_space``.

Each is one function of the :data:`views.VIEWS` registry; they share one path (:func:`_figure`):
the figure's own check, then the cache, a worker or a drawing here, the chart's cache key and the
words of the page's language. What each draws is :func:`render.figure_query.draw_figure`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING

from mkdocs_selfattn.blocks.languages import localize_spec, pick
from mkdocs_selfattn.blocks.spec import ExampleSpec, ViewOptions
from mkdocs_selfattn.build.cache import code_fingerprint, content_key, matplotlib_version
from mkdocs_selfattn.build.jobs import render_chart_job
from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.render.chart import CHART_FORMAT, ChartStyle
from mkdocs_selfattn.render.chart_fonts import font_keys
from mkdocs_selfattn.render.words import CHART, Glossary, primary, words
from mkdocs_selfattn.version import __version__

if TYPE_CHECKING:
    from mkdocs_selfattn.build.example import Example, Piece, Rendered, ViewContext
    from mkdocs_selfattn.build.settings import Settings
    from mkdocs_selfattn.render.labels import Labels

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


@dataclass(frozen=True)
class FigurePlan:
    """What one figure of a block draws, and under which cache key: the view's words and title
    in the figure's language (``figure_language``), its labels from ``spec``'s display, and the
    words of its ``<title>``/``<desc>`` (the page's language) when they differ."""

    view: ViewOptions
    """The block's view in the figure's language, :attr:`~ViewOptions.text` every word."""
    spec: ExampleSpec
    """The example, its ``display`` in the figure's language."""
    page_text: dict[str, str] | None
    """The words in the page's language, or None when the figure is in it."""
    page_title: str | None
    """The block's ``title:`` in the page's language (None: its words' own)."""
    key: str

    @property
    def ahead(self) -> bool:
        """Whether the look-ahead may draw it: a :class:`ChartRequest` carries the figure's
        words and labels, not the page's, so a figure whose ``<title>``/``<desc>`` differ is sent
        by its page (still to a worker)."""
        return self.page_text is None


def plan_figure(
    example_key: str,
    spec: ExampleSpec,
    settings: Settings,
    view: ViewOptions,
    name: str,
) -> FigurePlan:
    """The figure ``name`` of a block (``view`` localised for the page), for the page or the
    look-ahead: both must find the same cache key."""
    language = figure_language(settings, view)
    number_format = view.number_format or settings.number_format
    page_words = chart_text(view, spec.layout, settings.glossary)
    page_text = None
    page_title = view.title
    if language != view.language:
        view = in_language(view, language)
        spec = localize_spec(spec, language)
        page_text = page_words
    drawn = replace(view, text=chart_text(view, spec.layout, settings.glossary))
    key = chart_key(example_key, spec, settings.chart, number_format, drawn, name)
    if page_text is not None:
        key = content_key(key, page_text, page_title)
    return FigurePlan(view=drawn, spec=spec, page_text=page_text, page_title=page_title, key=key)


def figure_language(settings: Settings, view: ViewOptions) -> str | None:
    """The language of the text drawn inside the view's figures."""
    chosen: str = settings.figure_language
    if chosen == "page":
        return view.language
    same = view.language is not None and primary(chosen) == primary(view.language)
    return view.language if same else chosen


def in_language(view: ViewOptions, language: str | None) -> ViewOptions:
    """``view``'s words and title for a figure in ``language``, not the page's: its per-language
    ``text:`` and ``title:`` for that language; a plain ``text:``/``title:`` is the page's."""
    text = pick(view.text_by_language, language) or {}
    title = pick(view.title_by_language, language)
    return replace(view, text=MappingProxyType(dict(text)), title=title, language=language)


def figure_labels(example: Example, spec: ExampleSpec) -> Labels:
    """The example's labels as a figure of ``spec`` (its display in the figure's language)
    shows them."""
    if spec.display == example.spec.display:
        return example.labels
    from mkdocs_selfattn.render.labels import Labels

    return Labels(dict(spec.display)).for_result(example.result)


def _figure(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered, name: str
) -> Piece:
    """Any chart view: checked, then from the cache, a worker or drawn here."""
    from mkdocs_selfattn.build.captions import figure_html
    from mkdocs_selfattn.render.chart_context import figure_problem

    query = view.query
    problem = None if name == "chart" else figure_problem(example.result, name)
    if problem is not None:
        raise BlockError(problem, line=line)
    number_format = view.number_format or pipeline.settings.number_format
    plan = plan_figure(example.key, example.spec, pipeline.settings, view, name)
    labels = figure_labels(example, plan.spec)
    drawn = plan.view
    if not pipeline.settings.draw_charts:
        from mkdocs_selfattn.render.figure_query import figure_texts
        from mkdocs_selfattn.render.glyphs import glyph_message, missing_glyphs

        texts = figure_texts(
            name, example.result, labels, number_format, drawn.text, drawn.title, query
        )
        missing = missing_glyphs(texts, pipeline.settings.chart.fonts)
        if missing:
            out.warnings.append(glyph_message(missing))
        return ("late", figure_html('<div class="selfattn-chart-box"></div>', view, name))
    style = pipeline.settings.chart
    cache = pipeline.cache
    key = plan.key
    cached = cached_chart(cache.get("chart", key))
    if cached is not None:
        return ("late", figure_html(_chart_html(cached[0], cached[1], out.warnings), view, name))
    args = (
        example.result,
        labels,
        style,
        number_format,
        dict(drawn.text),
        drawn.title,
        name,
        query,
    )
    job = chart_job(
        plan.page_text, None if plan.page_text is None else example.labels, plan.page_title
    )
    warnings: list[str] = []

    def finish(svg: str, missing: list[str]) -> str:
        cache.put("chart", key, {"svg": svg, "missing": missing})
        return figure_html(_chart_html(svg, missing, warnings), view, name)

    if pipeline.scheduler is None:
        html = finish(*job(*args))
        out.warnings += warnings
        return ("late", html)
    pending = pipeline.scheduler.chart(key, (job, args), lambda: job(*args), finish, warnings)
    return ("late", pending)


def chart_job(
    page_text: dict[str, str] | None, page_labels: Labels | None, page_title: str | None = None
) -> Callable[..., tuple[str, list[str]]]:
    """:func:`render_chart_job`, told the words of ``<title>``/``<desc>`` when they differ from
    the figure's (a partial of a module function pickles, for a worker)."""
    if page_text is None:
        return render_chart_job
    return partial(
        render_chart_job, page_text=page_text, page_labels=page_labels, page_title=page_title
    )


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


def chart_text(
    view: ViewOptions, layout: str | None = None, glossary: Glossary | None = None
) -> dict[str, str]:
    """A figure's words: the plugin's in the view's language (the layout's own, then the site's
    ``glossary``), then the block's own ``text:``."""
    return {**words(CHART, view.language, layout, glossary), **view.text}
