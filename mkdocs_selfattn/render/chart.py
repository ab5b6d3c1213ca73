"""The ``chart`` view: the weight of every candidate as grouped bars, one series per target (the
targets layout), per question or per head (the questions and heads layouts; ``query:`` picks one).

A target or head with more candidates than a chart can show gets the top ones and one hatched
"N others" bar holding the rest's summed weight; long labels are shortened, in full in their
``<title>`` tooltip. The drawing is :mod:`chart_bars`, the SVG plumbing :mod:`chart_svg`.
"""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.chart_bars import Bars, Series
from mkdocs_selfattn.render.chart_narrow import draw_bar_chart
from mkdocs_selfattn.render.chart_svg import (
    CHART_FORMAT,
    ChartOutput,
    ChartStyle,
    PrintableLabels,
    printable,
)
from mkdocs_selfattn.render.chart_svg import (
    chart_words as _words,
)
from mkdocs_selfattn.render.chart_weights import Weights
from mkdocs_selfattn.render.figure_text import (
    ALL_ITEMS,
    TOP_ITEMS,
    Kept,
    fold,
    keep_top,
    shorten,
    summed,
)
from mkdocs_selfattn.render.labels import Labels, format_value
from mkdocs_selfattn.render.layout_renderers import RENDERERS

__all__ = [
    "CHART_FORMAT",
    "DEFAULT_TEXT",
    "ChartOutput",
    "ChartStyle",
    "chart_words",
    "render_chart",
]

DEFAULT_TEXT: Mapping[str, str] = {
    "chart_title": "",
    "axis_weight": "attention weight",
    "axis_candidate": "candidate token",
    "chart_name": "attention weights of {targets}",
    "others": "{n} others",
    "axis_context": "context",
    "baseline": "uniform baseline",
    "context_name": "contexts of {queries} beside the uniform baseline",
    "axis_separation": "head separation",
    "axis_group": "group",
    "separation_name": "separation of {first} and {second} by {group}",
    "axis_x": "{axis}",
    "axis_y": "{axis}",
    "space_name": "head contexts in the context space",
    "space_axes": "axes {x} and {y} of {n}",
    "first_groups": "the first {shown} of {n} groups",
    "same_point": "at one point: {points}",
}
"""``chart_name``: the accessible name of a chart without a title (``{targets}``: their labels);
``others``: the summary bar of a target with more candidates than the chart shows (``{n}``: how
many); the rest are the words of the ``context_chart``, ``separation_chart`` and
``context_space`` views (``{axis}``: the axis name, ``{n}``: how many axes; ``same_point``: the
note naming heads drawn at one place, ``{points}`` them)."""


LEGEND_WIDTH = 48
"""Columns a legend entry may take: longer questions are shortened, in full in their tooltip."""

MAX_BARS = 32
"""Most bars a chart draws: with more series, fewer candidates (the top ones, then "N others"),
so that its values, upright at 14 units, stand apart in the book's 760-unit figure."""


def render_chart(
    result: ReadingResult,
    labels: Labels,
    *,
    style: ChartStyle | None = None,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
    title: str | None = None,
    query: str | None = None,
    page_text: Mapping[str, str] | None = None,
    page_labels: Labels | None = None,
    page_title: str | None = None,
) -> ChartOutput:
    """Grouped bars, one series per target (or question/head); returns SVG text and any glyphs
    no font could draw. ``text``/``labels`` are the words drawn (the figure's language);
    ``page_text``/``page_labels``/``page_title``, when given, those of ``<title>`` and ``<desc>``
    (the page's)."""
    style = style or ChartStyle()
    words = _words(DEFAULT_TEXT, text)
    data = RENDERERS[result.layout].weights(result, PrintableLabels(labels), query)
    title = None if title is None else printable(title)
    per_series = MAX_BARS // max(len(data.series), 1)
    kept = keep_top(
        len(data.candidates),
        lambda i: max((w[i] for w in data.weights), default=0),
        show_all=min(ALL_ITEMS, per_series),
        top=max(1, min(TOP_ITEMS, per_series - 1)),
    )
    names, heading, summary, values = _described(data, kept, words, title)
    shown = tuple(fold(n) for n in names)
    tooltips = {
        f"candidate_{p}": full
        for p, full in enumerate(names)
        if shown[p].replace("\n", " ") != full
    }
    series = []
    for s, (label, vs) in enumerate(zip(data.series, values, strict=True)):
        texts = tuple(format_value(v, number_format) for v in vs)
        short = shorten(label, LEGEND_WIDTH)
        if short != label:
            tooltips[f"series_{s}"] = label
        series.append(Series(short, tuple(vs), texts))
    bars = Bars(
        categories=shown,
        series=tuple(series),
        axis_x=words["axis_candidate"],
        axis_y=words["axis_weight"],
        heading=title if title is not None else words["chart_title"],
        legend=True,  # even one series: the legend says which question or head it is
        muted=frozenset({len(kept.items)} if kept.others else ()),
        shortened=frozenset(int(k.split("_")[1]) for k in tooltips if k.startswith("series_")),
        full=tuple(names),
    )
    page: tuple[str, str] | None = None
    if page_text is not None or page_labels is not None:
        weights = RENDERERS[result.layout].weights
        page_data = weights(result, PrintableLabels(page_labels or labels), query)
        page_words = _words(DEFAULT_TEXT, page_text if page_text is not None else text)
        said = None if page_title is None else printable(page_title)
        page = _described(page_data, kept, page_words, said)[1:3]

    return draw_bar_chart(style, bars, heading, summary, tooltips, page)


def _described(
    data: Weights, kept: Kept, words: Mapping[str, str], title: str | None
) -> tuple[list[str], str, str, list[list[float]]]:
    """The names of the bars shown, the accessible name and description, the values per series."""
    names = [data.candidates[i] for i in kept.items]
    if kept.others:
        names.append(words["others"].replace("{n}", str(len(kept.others))))
    values = []
    summary = []
    for label, ws in zip(data.series, data.weights, strict=True):
        vs = [ws[i] for i in kept.items]
        if kept.others:
            vs.append(summed(ws, kept.others))
        values.append(vs)
        summary.append(
            f"{label}: "
            + ", ".join(f"{n} {format_value(v, None)}" for n, v in zip(names, vs, strict=True))
        )
    heading = title or words["chart_name"].replace("{targets}", ", ".join(data.series))
    return names, heading, "; ".join(summary), values


def chart_words(
    labels: Labels,
    result: ReadingResult,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
    title: str | None = None,
    query: str | None = None,
) -> list[str]:
    """Every text the chart would draw, found without matplotlib: ``check`` validates a chart
    view this way (labels, number format, axis words) and skips the drawing itself."""
    words = _words(DEFAULT_TEXT, text)
    data = RENDERERS[result.layout].weights(result, PrintableLabels(labels), query)
    out = [words["axis_candidate"], words["axis_weight"], words["others"]]
    out.append(printable(title) if title is not None else words["chart_title"])
    out += data.series
    out += [shorten(c) for c in data.candidates]
    out += [format_value(w, number_format) for ws in data.weights for w in ws]
    return out
