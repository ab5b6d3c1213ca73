"""The ``context_space`` view: every head's context as a point on two context axes, a colour per
group and a marker per head; with more than two axes the first two, and a note that says so."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.chart import DEFAULT_TEXT
from mkdocs_selfattn.render.chart_svg import (
    SENTINEL,
    ChartOutput,
    ChartStyle,
    Drawn,
    PrintableLabels,
    chart_words,
    draw_svg,
    measuring_renderer,
    printable,
)
from mkdocs_selfattn.render.figure_text import shorten
from mkdocs_selfattn.render.labels import Labels, format_value

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")

MAX_GROUPS = 12
"""Groups a context space draws (twice its colours): the note names how many of how many."""

LEGEND_WIDTH = 28
"""Columns a legend entry of the context space may take (it has the figure's right third)."""


def render_context_space(
    result: ReadingResult,
    labels: Labels,
    *,
    style: ChartStyle | None = None,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
    title: str | None = None,
    query: str | None = None,
) -> ChartOutput:
    """Every head's context as a point on the first two axes: a colour per group, a marker per
    head. With more than two axes the figure says which two it shows."""
    style = style or ChartStyle()
    words = chart_words(DEFAULT_TEXT, text)
    shown = PrintableLabels(labels)
    axes = result.axis_names
    x_name = words["axis_x"].replace("{axis}", shown(axes[0]))
    y_name = words["axis_y"].replace("{axis}", shown(axes[1]))
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
    note = None
    if len(axes) > 2:
        note = (
            words["space_axes"]
            .replace("{x}", shown(axes[0]))
            .replace("{y}", shown(axes[1]))
            .replace("{n}", str(len(axes)))
        )
    groups = result.groups[:MAX_GROUPS]
    if len(result.groups) > MAX_GROUPS:
        more = (
            words["first_groups"]
            .replace("{shown}", str(MAX_GROUPS))
            .replace("{n}", str(len(result.groups)))
        )
        note = f"{note}; {more}" if note else more
    tooltips: dict[str, str] = {}

    def draw(fig: Any) -> Drawn:
        ax = fig.add_subplot()
        for gi, g in enumerate(groups):
            color = style.colors[gi % len(style.colors)]
            ref = g.heads[0].context if g.heads else (0.0, 0.0)
            for h in g.heads[1:]:
                # From the reference head to each other head: the differences the page prints.
                ax.plot(
                    [ref[0], h.context[0]],
                    [ref[1], h.context[1]],
                    color=color,
                    linewidth=0.8,
                    alpha=0.5,
                )
            for hi, h in enumerate(g.heads):
                point = ax.scatter(
                    [h.context[0]],
                    [h.context[1]],
                    color=color,
                    marker=MARKERS[hi % len(MARKERS)],
                    s=42,
                    zorder=3,
                )
                point.set_gid(f"point_{gi}_{hi}")
        handles = []
        names = []
        from matplotlib.lines import Line2D

        for gi, g in enumerate(groups):
            handles.append(
                Line2D(
                    [],
                    [],
                    color=style.colors[gi % len(style.colors)],
                    marker="o",
                    linestyle="",
                    markersize=6,
                )
            )
            names.append(shown(g.name))
        for hi, head in enumerate(result.head_names):
            handles.append(
                Line2D(
                    [],
                    [],
                    color=SENTINEL,
                    marker=MARKERS[hi % len(MARKERS)],
                    linestyle="",
                    markersize=6,
                    fillstyle="none",
                )
            )
            names.append(shown(head))
        short = [shorten(n, LEGEND_WIDTH) for n in names]
        legend = ax.legend(handles, short, loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8)
        for i, (t, full) in enumerate(zip(legend.get_texts(), names, strict=True)):
            t.set_gid(f"legend_text_{i}")
            if short[i] != full:
                tooltips[f"legend_text_{i}"] = full
        ax.set_xlabel(x_name).set_gid("axis_x")
        ax.set_ylabel(y_name).set_gid("axis_y")
        ax.margins(0.15)
        heading_text = printable(title) if title is not None else words["chart_title"]
        if heading_text:
            ax.set_title(heading_text)
        if note:
            fig.text(0.99, 0.01, note, ha="right", va="bottom", fontsize=8).set_gid("axes_note")
        _room_for(fig, ax, legend)
        return Drawn(heading, summary, tooltips)

    margins = {"left": 0.1, "right": 0.7, "bottom": 0.15, "top": 0.92}
    return draw_svg(style, draw, margins=margins)


def _room_for(fig: Any, ax: Any, legend: Any) -> None:
    """A legend of many groups taller than the plot: the figure grows until it holds it."""
    renderer = measuring_renderer(fig)
    tall = legend.get_window_extent(renderer).height
    plot = ax.get_window_extent(renderer).height
    if tall > plot:
        fig.set_size_inches(fig.get_figwidth(), fig.get_figheight() * tall / plot * 1.05)
