"""The figures of the questions and heads layouts beyond the weights: ``context_chart`` (each
question's or head's context beside the uniform baseline) and ``separation_chart`` (how far two
heads' contexts are apart, per group); ``context_space`` is :mod:`chart_space`.

Each is one function from a :class:`ReadingResult` to a :class:`ChartOutput`; what they cannot
show (a separation with one head, a plane with one axis) is found by :func:`figure_problem`
before anything is drawn, so the block gets one clear message.
"""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.core.readings import GroupResult, ReadingResult
from mkdocs_selfattn.errors import listing
from mkdocs_selfattn.render.chart import DEFAULT_TEXT, MAX_BARS
from mkdocs_selfattn.render.chart_bars import Bars, Series
from mkdocs_selfattn.render.chart_narrow import draw_bar_chart
from mkdocs_selfattn.render.chart_svg import (
    ChartOutput,
    ChartStyle,
    PrintableLabels,
    chart_words,
    printable,
)
from mkdocs_selfattn.render.defaults import ROLE_CHANGE
from mkdocs_selfattn.render.figure_text import fold, shorten
from mkdocs_selfattn.render.labels import Labels, format_value
from mkdocs_selfattn.render.layout_renderers import RENDERERS


def figure_problem(result: ReadingResult, view: str) -> str | None:
    """Why ``view`` cannot be drawn for this result (None: it can)."""
    if view not in RENDERERS[result.layout].figures:
        return (
            f"the '{view}' view shows a queries: or heads: example; this one reads "
            f"{result.layout} (use 'chart' for its weights)"
        )
    names = result.head_names
    if view == "separation_chart" and len(names) < 2:
        return (
            f"the 'separation_chart' view compares two heads, and this example has one "
            f"({listing(names) or 'none'}): add a second head"
        )
    if view == "context_space" and len(result.axes) < 2:
        axes = listing(result.axis_names) or "none"
        return (
            f"the 'context_space' view draws contexts on two axes, and this example has one "
            f"({axes}): give two vector columns or two 'axes:'"
        )
    return None


def pair(result: ReadingResult, query: str | None) -> tuple[str, str]:
    """The two heads a separation chart compares: the last two, or the reference head and the
    head ``query`` names."""
    names = result.head_names
    if query is None:
        return names[-2], names[-1]
    return names[0], result.groups[0].head(query).name


def render_context_chart(
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
    """Bars: the baseline (hatched), then every head's context, per group; one series per axis."""
    style = style or ChartStyle()
    words = chart_words(DEFAULT_TEXT, text)
    per_group = (1 + len(result.head_names)) * max(len(result.axes), 1)
    groups, more = _first_groups(result, MAX_BARS // per_group, words)

    def described(
        words: Mapping[str, str], labels: Labels, title: str | None
    ) -> tuple[list[str], str, str]:
        shown = PrintableLabels(labels)
        several = len(result.groups) > 1
        names: list[str] = []
        per_name: list[tuple[float, ...]] = []
        for g in groups:
            suffix = f" · {shown(g.name)}" if several else ""
            names.append(words["baseline"] + suffix)
            per_name.append(tuple(g.baseline))
            for h in g.heads:
                names.append(shown(h.name) + suffix)
                per_name.append(tuple(h.context))
        heads = ", ".join(shown(h) for h in result.head_names)
        heading = printable(title) if title else words["context_name"].replace("{queries}", heads)
        summary = "; ".join(
            f"{n}: " + ", ".join(format_value(v, None) for v in vs)
            for n, vs in zip(names, per_name, strict=True)
        )
        return names, heading, summary

    names, heading, summary = described(words, labels, title)
    shown = PrintableLabels(labels)
    muted: set[int] = set()
    per_axis: list[list[float]] = [[] for _ in result.axes]
    for g in groups:
        muted.add(sum(1 + len(x.heads) for x in groups[: groups.index(g)]))
        for a, v in enumerate(g.baseline):
            per_axis[a].append(v)
        for h in g.heads:
            for a, v in enumerate(h.context):
                per_axis[a].append(v)
    series = tuple(
        Series(shown(axis), tuple(vs), tuple(format_value(v, number_format) for v in vs))
        for axis, vs in zip(result.axis_names, per_axis, strict=True)
    )
    page = None
    if page_text is not None or page_labels is not None:
        page_words = chart_words(DEFAULT_TEXT, page_text if page_text is not None else text)
        page = described(page_words, page_labels or labels, page_title)[1:]
    return _bars(
        style,
        names,
        series,
        axis_x=more,
        axis_y=words["axis_context"],
        title=title,
        words=words,
        heading=heading,
        summary=summary,
        muted=frozenset(muted),
        page=page,
    )


def render_separation_chart(
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
    """One bar per group: the distance between the two heads' contexts (a change: red)."""
    style = style or ChartStyle()
    words = chart_words(DEFAULT_TEXT, text)
    first, second = pair(result, query)
    groups, more = _first_groups(result, MAX_BARS, words)
    values = tuple(g.separation(first, second) for g in groups)

    def described(
        words: Mapping[str, str], labels: Labels, title: str | None
    ) -> tuple[list[str], str, str]:
        shown = PrintableLabels(labels)
        names = [shown(g.name) for g in groups]
        heading = (
            printable(title)
            if title
            else (
                words["separation_name"]
                .replace("{first}", shown(first))
                .replace("{second}", shown(second))
                .replace("{group}", words["axis_group"])
            )
        )
        summary = ", ".join(
            f"{n} {format_value(v, None)}" for n, v in zip(names, values, strict=True)
        )
        return names, heading, summary

    names, heading, summary = described(words, labels, title)
    shown = PrintableLabels(labels)
    series = (
        Series(
            f"{shorten(shown(first), 30)} – {shorten(shown(second), 30)}",
            values,
            tuple(format_value(v, number_format) for v in values),
        ),
    )
    page = None
    if page_text is not None or page_labels is not None:
        page_words = chart_words(DEFAULT_TEXT, page_text if page_text is not None else text)
        page = described(page_words, page_labels or labels, page_title)[1:]
    return _bars(
        style,
        names,
        series,
        axis_x=f"{words['axis_group']} ({more})" if more else words["axis_group"],
        axis_y=words["axis_separation"],
        title=title,
        words=words,
        heading=heading,
        summary=summary,
        muted=frozenset(),
        page=page,
        role=ROLE_CHANGE,
    )


def _first_groups(
    result: ReadingResult, most: int, words: Mapping[str, str]
) -> tuple[tuple[GroupResult, ...], str]:
    """The groups a chart has room for (in file order), and the note saying how many of how
    many it shows ("" when all)."""
    most = max(most, 1)
    if len(result.groups) <= most:
        return result.groups, ""
    note = words["first_groups"].replace("{shown}", str(most))
    return result.groups[:most], note.replace("{n}", str(len(result.groups)))


def _bars(
    style: ChartStyle,
    names: list[str],
    series: tuple[Series, ...],
    *,
    axis_x: str,
    axis_y: str,
    title: str | None,
    words: Mapping[str, str],
    heading: str,
    summary: str,
    muted: frozenset[int],
    page: tuple[str, str] | None = None,
    role: int | None = None,
) -> ChartOutput:
    short = tuple(fold(n) for n in names)
    tooltips = {
        f"candidate_{p}": n for p, n in enumerate(names) if short[p].replace("\n", " ") != n
    }
    bars = Bars(
        categories=short,
        series=series,
        axis_x=axis_x,
        axis_y=axis_y,
        heading=printable(title) if title is not None else words["chart_title"],
        legend=len(series) > 1 or role is not None,
        weights=False,
        muted=muted,
        role=role,
        full=tuple(names),
    )

    return draw_bar_chart(style, bars, heading, summary, tooltips, page)


def figure_words(
    view: str,
    result: ReadingResult,
    labels: Labels,
    number_format: str | None,
    text: Mapping[str, str] | None,
    title: str | None,
) -> list[str]:
    """Every text a figure would draw, without matplotlib (``check``'s glyph test)."""
    words = chart_words(DEFAULT_TEXT, text)
    shown = PrintableLabels(labels)
    out = [printable(title) if title is not None else words["chart_title"]]
    out += [words[k] for k in ("baseline", "axis_context", "axis_group", "axis_separation")]
    out += [words["axis_x"], words["axis_y"], words["space_axes"], words["first_groups"]]
    out.append(words["same_point"])
    out += [shown(a) for a in result.axis_names] + [shown(h) for h in result.head_names]
    for g in result.groups:
        out.append(shown(g.name))
        for h in g.heads:
            out += [format_value(v, number_format) for v in h.context]
        out += [format_value(v, number_format) for row in g.separations for v in row]
    return out
