"""The ``context_space`` view: every head's context as a point on two context axes, a colour per
group and a marker per head; with more than two axes the first two, and a note that says so.

The lines from each group's first (reference) head to its other heads are the differences the
page prints: drawn in the change colour (red). Heads that land on one point are all drawn, larger
hollow markers under smaller ones, and a note names them ("head1 = head2").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mkdocs_selfattn.core.readings import GroupResult, ReadingResult
from mkdocs_selfattn.render.chart import DEFAULT_TEXT
from mkdocs_selfattn.render.chart_bars import fit_line
from mkdocs_selfattn.render.chart_narrow import LINE, PAD, heading_and_legend, text_el
from mkdocs_selfattn.render.chart_svg import (
    INSET,
    LABEL_SIZE,
    NARROW_SIZE,
    NARROW_WIDTH,
    SENTINEL,
    TITLE_SIZE,
    TITLE_X,
    ChartOutput,
    ChartStyle,
    Drawn,
    PrintableLabels,
    chart_words,
    draw_svg,
    fmt,
    measuring_renderer,
    printable,
    text_measure,
)
from mkdocs_selfattn.render.defaults import ROLE_CHANGE, ROLE_GUIDE, role_color, series_colors
from mkdocs_selfattn.render.figure_text import Measure, shorten, wrap
from mkdocs_selfattn.render.labels import Labels, format_value

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")

MAX_GROUPS = 12
"""Groups a context space draws: the note names how many of how many."""

LEGEND_WIDTH = 24
"""Columns a legend entry of the context space may take (it has the figure's right part)."""

MARKER = 9.0
"""A point's marker size (points across); coinciding points grow by :data:`RING` each."""
RING = 6.0


def coinciding(groups: Sequence[GroupResult]) -> dict[tuple[int, int], tuple[int, int]]:
    """(group, head) → (its rank among the points at the same place, how many are there)."""
    places: dict[tuple[float, float], list[tuple[int, int]]] = {}
    for gi, g in enumerate(groups):
        for hi, h in enumerate(g.heads):
            place = (round(h.context[0], 9), round(h.context[1], 9))
            places.setdefault(place, []).append((gi, hi))
    return {p: (r, len(ps)) for ps in places.values() for r, p in enumerate(ps)}


def render_context_space(
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
    """Every head's context as a point on the first two axes: a colour per group, a marker per
    head. With more than two axes the figure says which two it shows."""
    style = style or ChartStyle()
    words = chart_words(DEFAULT_TEXT, text)
    shown = PrintableLabels(labels)
    axes = result.axis_names
    x_name = words["axis_x"].replace("{axis}", shown(axes[0]))
    y_name = words["axis_y"].replace("{axis}", shown(axes[1]))
    groups = result.groups[:MAX_GROUPS]
    same = coinciding(groups)
    clusters = _same_notes(groups, same, shown, words)

    def described(words: Mapping[str, str], labels: Labels, title: str | None) -> tuple[str, str]:
        shown = PrintableLabels(labels)
        heading = printable(title) if title else words["space_name"]
        summary = "; ".join(
            f"{shown(g.name)}: "
            + ", ".join(
                f"{shown(h.name)} ({format_value(h.context[0], None)}, "
                f"{format_value(h.context[1], None)})"
                for h in g.heads
            )
            for g in result.groups
        )
        notes = _same_notes(groups, same, shown, words)
        if notes:
            summary += "; " + "; ".join(notes)
        return heading, summary

    heading, summary = described(words, labels, title)
    page = None
    if page_text is not None or page_labels is not None:
        page_words = chart_words(DEFAULT_TEXT, page_text if page_text is not None else text)
        page = described(page_words, page_labels or labels, page_title)
    notes = []
    if len(axes) > 2:
        notes.append(
            words["space_axes"]
            .replace("{x}", shown(axes[0]))
            .replace("{y}", shown(axes[1]))
            .replace("{n}", str(len(axes)))
        )
    if len(result.groups) > MAX_GROUPS:
        notes.append(
            words["first_groups"]
            .replace("{shown}", str(MAX_GROUPS))
            .replace("{n}", str(len(result.groups)))
        )
    note = "; ".join(notes) or None
    colors = series_colors(style.colors)
    change = role_color(style.colors, ROLE_CHANGE)
    guide = role_color(style.colors, ROLE_GUIDE)
    names = [shown(g.name) for g in groups] + [shown(h) for h in result.head_names]
    heading_text = printable(title) if title is not None else words["chart_title"]
    tooltips: dict[str, str] = {}

    def draw(fig: Any) -> Drawn:
        from matplotlib.lines import Line2D

        measure = text_measure(fig)
        width_u = fig.get_figwidth() * 72
        height_u = fig.get_figheight() * 72
        top = INSET
        if heading_text:
            fig.text(
                TITLE_X / width_u,
                1 - INSET / height_u,
                fit_line(heading_text, width_u - 2 * TITLE_X, TITLE_SIZE, measure),
                ha="left",
                va="top",
                fontsize=TITLE_SIZE,
            ).set_gid("heading")
            top += TITLE_SIZE * 1.2 + 10
        footer = [n for n in (note, "; ".join(clusters) or None) if n]
        bottom = INSET
        for i, line in enumerate(reversed(footer)):
            gid = "axes_note" if line == note else "same_note"
            fig.text(
                INSET / width_u,
                bottom / height_u,
                fit_line(line, width_u - 2 * INSET, LABEL_SIZE, measure),
                ha="left",
                va="bottom",
                fontsize=LABEL_SIZE,
            ).set_gid(gid)
            bottom += LABEL_SIZE * 1.3
            del i
        # Under the plot: tick labels and the axis name.
        bottom += LABEL_SIZE * 1.25 + 6 + LABEL_SIZE * 1.3 + 6
        handles = []
        for gi, _ in enumerate(groups):
            handles.append(
                Line2D(
                    [], [], color=colors[gi % len(colors)], marker="o", linestyle="", markersize=9
                )
            )
        for hi, _ in enumerate(result.head_names):
            handles.append(
                Line2D(
                    [],
                    [],
                    color=SENTINEL,
                    marker=MARKERS[hi % len(MARKERS)],
                    linestyle="",
                    markersize=9,
                    fillstyle="none",
                )
            )
        short = [shorten(n, LEGEND_WIDTH) for n in names]
        avail = height_u - top - INSET
        per_col = max(1, int(avail // (LABEL_SIZE * 1.75)))
        ncols = max(1, math.ceil(len(short) / per_col))
        legend = fig.legend(
            handles,
            short,
            loc="upper right",
            bbox_to_anchor=(1 - INSET / width_u, 1 - top / height_u),
            ncols=ncols,
            fontsize=LABEL_SIZE,
            borderaxespad=0,
            borderpad=0,
            handletextpad=0.4,
            columnspacing=1.0,
        )
        renderer = measuring_renderer(fig)
        legend_w = legend.get_window_extent(renderer).width * 72 / fig.dpi
        for i, (t, full) in enumerate(zip(legend.get_texts(), names, strict=True)):
            t.set_gid(f"legend_text_{i}")
            if short[i] != full:
                tooltips[f"legend_text_{i}"] = full
        left = INSET + LABEL_SIZE * 1.3 + 8 + 44
        right = INSET + legend_w + 16
        ax = fig.add_axes(
            (
                left / width_u,
                bottom / height_u,
                (width_u - left - right) / width_u,
                (height_u - top - bottom - LABEL_SIZE) / height_u,
            )
        )
        for spine in ax.spines.values():
            spine.set_color(guide)
        ax.tick_params(labelsize=LABEL_SIZE, color=guide)
        ax.locator_params(nbins=5)
        for g in groups:
            ref = g.heads[0].context if g.heads else (0.0, 0.0)
            for h in g.heads[1:]:
                # From the reference head to each other head: the differences the page prints.
                ax.plot(
                    [ref[0], h.context[0]],
                    [ref[1], h.context[1]],
                    color=change,
                    linewidth=1.2,
                    zorder=2,
                )
        for gi, g in enumerate(groups):
            color = colors[gi % len(colors)]
            for hi, h in enumerate(g.heads):
                rank, count = same[(gi, hi)]
                size = MARKER + RING * (count - 1 - rank)
                hollow = rank < count - 1
                point = ax.scatter(
                    [h.context[0]],
                    [h.context[1]],
                    s=size**2,
                    marker=MARKERS[hi % len(MARKERS)],
                    facecolors="none" if hollow else color,
                    edgecolors=color,
                    linewidths=1.8 if hollow else 0.6,
                    zorder=3 + rank,
                )
                point.set_gid(f"point_{gi}_{hi}")
        ax.margins(0.15)
        ax.set_xlabel(fit_line(x_name, width_u - left - right, LABEL_SIZE, measure))
        ax.xaxis.label.set_gid("axis_x")
        plot_h = height_u - top - bottom - LABEL_SIZE
        fig.text(
            INSET / width_u,
            (bottom + plot_h / 2) / height_u,
            fit_line(y_name, plot_h, LABEL_SIZE, measure),
            rotation=90,
            ha="left",
            va="center",
            fontsize=LABEL_SIZE,
        ).set_gid("axis_y")
        return Drawn(
            heading,
            summary,
            tooltips,
            narrow=_narrow(groups, result, shown, style, heading_text, x_name, y_name, footer),
            heading_page=None if page is None else page[0],
            summary_page=None if page is None else page[1],
        )

    return draw_svg(style, draw)


def _same_notes(
    groups: Sequence[GroupResult],
    same: Mapping[tuple[int, int], tuple[int, int]],
    shown: Labels,
    words: Mapping[str, str],
) -> list[str]:
    """The note for every place several heads share: "head1 = head2 (group)", or "head (group
    a, group b)" when it is one head in several groups."""
    places: dict[tuple[float, float], list[tuple[int, int]]] = {}
    for (gi, hi), (_, count) in same.items():
        if count > 1:
            h = groups[gi].heads[hi]
            places.setdefault((round(h.context[0], 9), round(h.context[1], 9)), []).append((gi, hi))
    out = []
    for members in places.values():
        members.sort()
        heads = list(dict.fromkeys(shown(groups[gi].heads[hi].name) for gi, hi in members))
        where = list(dict.fromkeys(shown(groups[gi].name) for gi, _ in members))
        if len(heads) == 1:
            points = f"{heads[0]} ({', '.join(where)})"
        elif len(where) == 1:
            points = f"{' = '.join(heads)} ({where[0]})"
        else:
            points = " = ".join(
                f"{shown(groups[gi].heads[hi].name)} ({shown(groups[gi].name)})"
                for gi, hi in members
            )
        out.append(words["same_point"].replace("{points}", points))
    return out


MARKER_PATHS: dict[str, Callable[[float, float, float], str]] = {
    "o": lambda x, y, r: (
        f"M{fmt(x - r)} {fmt(y)}a{fmt(r)} {fmt(r)} 0 1 0 {fmt(2 * r)} 0"
        f"a{fmt(r)} {fmt(r)} 0 1 0 {fmt(-2 * r)} 0Z"
    ),
    "s": lambda x, y, r: (
        f"M{fmt(x - r * 0.85)} {fmt(y - r * 0.85)}h{fmt(1.7 * r)}v{fmt(1.7 * r)}h{fmt(-1.7 * r)}Z"
    ),
    "^": lambda x, y, r: (
        f"M{fmt(x)} {fmt(y - r)}L{fmt(x + r)} {fmt(y + r * 0.8)}L{fmt(x - r)} {fmt(y + r * 0.8)}Z"
    ),
    "D": lambda x, y, r: (
        f"M{fmt(x)} {fmt(y - r)}L{fmt(x + r)} {fmt(y)}L{fmt(x)} {fmt(y + r)}L{fmt(x - r)} {fmt(y)}Z"
    ),
    "v": lambda x, y, r: (
        f"M{fmt(x)} {fmt(y + r)}L{fmt(x + r)} {fmt(y - r * 0.8)}L{fmt(x - r)} {fmt(y - r * 0.8)}Z"
    ),
    "P": lambda x, y, r: (
        f"M{fmt(x - r * 0.3)} {fmt(y - r)}h{fmt(r * 0.6)}v{fmt(r * 0.7)}"
        f"h{fmt(r * 0.7)}v{fmt(r * 0.6)}h{fmt(-r * 0.7)}v{fmt(r * 0.7)}h{fmt(-r * 0.6)}"
        f"v{fmt(-r * 0.7)}h{fmt(-r * 0.7)}v{fmt(-r * 0.6)}h{fmt(r * 0.7)}Z"
    ),
    "X": lambda x, y, r: (
        f"M{fmt(x - r)} {fmt(y - r)}L{fmt(x + r)} {fmt(y + r)}"
        f"M{fmt(x + r)} {fmt(y - r)}L{fmt(x - r)} {fmt(y + r)}"
    ),
    "*": lambda x, y, r: (
        "M"
        + "L".join(
            f"{fmt(x + (r if k % 2 == 0 else r * 0.45) * math.sin(k * math.pi / 5))} "
            f"{fmt(y - (r if k % 2 == 0 else r * 0.45) * math.cos(k * math.pi / 5))}"
            for k in range(10)
        )
        + "Z"
    ),
}
"""The wide drawing's markers as SVG paths around (x, y), ``r`` their half size."""


def marker_svg(
    marker: str, x: float, y: float, r: float, color: str, hollow: bool, gid: str | None = None
) -> str:
    ident = f' id="{gid}"' if gid else ""
    stroke_only = hollow or marker == "X"
    fill = "none" if stroke_only else color
    width = 2 if marker == "X" else (1.8 if hollow else 0.6)
    return (
        f'<path{ident} d="{MARKER_PATHS[marker](x, y, r)}" fill="{fill}" stroke="{color}" '
        f'stroke-width="{fmt(width)}"/>'
    )


def _narrow(
    groups: Sequence[GroupResult],
    result: ReadingResult,
    shown: Labels,
    style: ChartStyle,
    heading: str,
    x_name: str,
    y_name: str,
    footer: Sequence[str],
) -> Callable[[Measure], tuple[str, float]]:
    """The phone drawing: the legend (groups, then heads' markers) on top, a square plot, the
    notes under it."""

    def draw(measure: Measure) -> tuple[str, float]:
        from matplotlib.ticker import MaxNLocator

        colors = series_colors(style.colors)
        change = role_color(style.colors, ROLE_CHANGE)
        guide = role_color(style.colors, ROLE_GUIDE)
        same = coinciding(groups)
        entries = [(shown(g.name), colors[gi % len(colors)], "") for gi, g in enumerate(groups)]
        parts, y = heading_and_legend(heading, entries, measure)
        # The heads' markers: a row of their own, each marker with its name.
        x = PAD
        for hi, head in enumerate(result.head_names):
            name = wrap(shown(head), NARROW_WIDTH - 2 * PAD - 20, NARROW_SIZE, measure, 1)[0]
            w = 20 + measure(name, NARROW_SIZE)
            if x > PAD and x + w > NARROW_WIDTH - PAD:
                x = PAD
                y += NARROW_SIZE * LINE + 2
            parts.append(
                marker_svg(MARKERS[hi % len(MARKERS)], x + 6, y + 8, 5.5, "currentColor", True)
            )
            parts.append(text_el(x + 17, y + NARROW_SIZE, [name], NARROW_SIZE, gid=f"head_{hi}"))
            x += w + 14
        y += NARROW_SIZE * LINE + 10
        xs = [h.context[0] for g in groups for h in g.heads]
        ys = [h.context[1] for g in groups for h in g.heads]
        x_lo, x_hi = _padded(xs)
        y_lo, y_hi = _padded(ys)
        x_ticks = [t for t in MaxNLocator(4).tick_values(x_lo, x_hi) if x_lo <= t <= x_hi]
        y_ticks = [t for t in MaxNLocator(4).tick_values(y_lo, y_hi) if y_lo <= t <= y_hi]
        tick_w = max((measure(_tick(t), NARROW_SIZE) for t in y_ticks), default=0)
        left = PAD + NARROW_SIZE * LINE + 4 + tick_w + 6
        right = NARROW_WIDTH - PAD
        top = y + 4
        size = min(right - left, 240.0)
        bottom = top + size

        def px(v: float) -> float:
            return left + (v - x_lo) / (x_hi - x_lo) * (right - left)

        def py(v: float) -> float:
            return bottom - (v - y_lo) / (y_hi - y_lo) * size

        parts.append(
            f'<path d="M{fmt(left)} {fmt(top)}V{fmt(bottom)}H{fmt(right)}" fill="none" '
            f'stroke="{guide}" stroke-width="1"/>'
        )
        for t in x_ticks:
            parts.append(
                f'<path d="M{fmt(px(t))} {fmt(bottom)}v4" stroke="{guide}" stroke-width="1"/>'
            )
            parts.append(
                text_el(px(t), bottom + 6 + NARROW_SIZE, [_tick(t)], NARROW_SIZE, anchor="middle")
            )
        for t in y_ticks:
            parts.append(
                f'<path d="M{fmt(left)} {fmt(py(t))}h-4" stroke="{guide}" stroke-width="1"/>'
            )
            parts.append(
                text_el(left - 6, py(t) + NARROW_SIZE * 0.36, [_tick(t)], NARROW_SIZE, anchor="end")
            )
        y_label = wrap(y_name, size, NARROW_SIZE, measure, 1)[0]
        parts.append(
            f'<text id="axis_y" font-size="{fmt(NARROW_SIZE)}" text-anchor="middle" '
            f'fill="currentColor" transform="translate({fmt(PAD + NARROW_SIZE)} '
            f'{fmt(top + size / 2)}) rotate(-90)">{_escape(y_label)}</text>'
        )
        for g in groups:
            ref = g.heads[0].context if g.heads else (0.0, 0.0)
            for h in g.heads[1:]:
                parts.append(
                    f'<path d="M{fmt(px(ref[0]))} {fmt(py(ref[1]))}L{fmt(px(h.context[0]))} '
                    f'{fmt(py(h.context[1]))}" stroke="{change}" stroke-width="1.2"/>'
                )
        order = sorted(same.items(), key=lambda item: item[1][0])
        for (gi, hi), (rank, count) in order:
            h = groups[gi].heads[hi]
            r = (MARKER + RING * (count - 1 - rank)) * 0.6
            parts.append(
                marker_svg(
                    MARKERS[hi % len(MARKERS)],
                    px(h.context[0]),
                    py(h.context[1]),
                    r,
                    colors[gi % len(colors)],
                    rank < count - 1,
                    gid=f"point_{gi}_{hi}",
                )
            )
        y = bottom + 6 + NARROW_SIZE * LINE + 4
        x_label = wrap(x_name, NARROW_WIDTH - 2 * PAD, NARROW_SIZE, measure)
        parts.append(
            text_el(
                (left + right) / 2,
                y + NARROW_SIZE,
                x_label,
                NARROW_SIZE,
                anchor="middle",
                gid="axis_x",
            )
        )
        y += NARROW_SIZE * LINE * len(x_label) + 6
        for i, line in enumerate(footer):
            lines = wrap(line, NARROW_WIDTH - 2 * PAD, NARROW_SIZE, measure, 3)
            parts.append(text_el(PAD, y + NARROW_SIZE, lines, NARROW_SIZE, gid=f"note_{i}"))
            y += NARROW_SIZE * LINE * len(lines) + 4
        body = "".join(parts).replace(SENTINEL, "currentColor")
        return body, y + PAD

    return draw


def _escape(text: str) -> str:
    import html

    return html.escape(text)


def _tick(value: float) -> str:
    return f"{value:g}"


def _padded(values: Sequence[float]) -> tuple[float, float]:
    lo, hi = min(values, default=0.0), max(values, default=1.0)
    if hi == lo:
        return lo - 1, hi + 1
    pad = (hi - lo) * 0.15
    return lo - pad, hi + pad
