"""Grouped bars with their values written on them, laid out so that nothing overlaps.

Every bar chart (``chart``, ``context_chart``, ``separation_chart``) is one of these: categories
along the x axis, one bar per series in each, the value above (or, when negative, below) each bar.
After drawing, the texts are measured in the figure itself: value labels or category names that
would touch are turned upright, the figure widens if even upright they would touch, the y range
grows to hold upright labels, the margins grow to hold upright names, and a legend that would
cover a bar or a value moves above the plot. A chart whose texts already stand apart is drawn
exactly as before these rules existed.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mkdocs_selfattn.render.chart_svg import SENTINEL, ChartStyle, measuring_renderer

GAP = 1.0
"""Points of air kept between two texts."""

UPRIGHT_GAP = 2.5
"""Points of air between two upright texts: browsers box a text by its line height (about
1.2 em), wider than the glyphs matplotlib measures, and upright that height lies across."""


@dataclass(frozen=True)
class Series:
    label: str
    values: tuple[float, ...]
    """One value per category."""
    texts: tuple[str, ...]
    """The value as the chart writes it, per category."""


@dataclass(frozen=True)
class Bars:
    categories: tuple[str, ...]
    """Names under the bars, already shortened."""
    series: tuple[Series, ...]
    axis_x: str
    axis_y: str
    heading: str
    legend: bool = True
    weights: bool = True
    """A weight chart: the y range is [0, 1] at most. Otherwise it holds every value, signed."""
    muted: frozenset[int] = field(default_factory=frozenset)
    """Categories drawn hatched: a reference (the baseline) or a summary ("N others")."""
    shortened: frozenset[int] = field(default_factory=frozenset)
    """Series whose legend label was shortened: its text gets the id ``series_N``, for the
    tooltip with the full label."""


def draw_bars(fig: Any, bars: Bars, style: ChartStyle) -> bool:
    """Bars, their values, the category names and the two axis titles, as plain artists.

    The axes' own machinery is switched off: every bar carries its value, so the chart needs no
    y ticks, and drawing the x axis by hand (a baseline and one text per category) instead of
    through ticks, tick labels and annotations made a chart about 40 % cheaper to draw.

    Returns whether the texts had to be fitted (turned upright, or the figure widened): such a
    chart is dense, and must not be shown much smaller than drawn (see :func:`chart_svg.draw_svg`).
    """
    from matplotlib.transforms import blended_transform_factory, offset_copy

    ax = fig.add_subplot()
    # Matplotlib updates the data limits with every bar it adds (walking the rectangle's path,
    # most of what ``ax.bar`` costs); the limits are set by hand below, so these go unread.
    ax._update_patch_limits = _unread_limits
    ax.set_axis_off()
    n_series = max(len(bars.series), 1)
    width = 0.8 / n_series
    positions = range(len(bars.categories))
    values = [v for s in bars.series for v in s.values]
    ax.set_xlim(-0.65, max(len(bars.categories), 1) - 0.35)
    ax.set_ylim(*_y_range(values, bars.weights))

    def points(transform: Any, x: float = 0, y: float = 0) -> Any:
        return offset_copy(transform, fig=fig, x=x, y=y, units="points")

    above_bar = points(ax.transData, y=2)
    below_bar = points(ax.transData, y=-2)
    value_texts: list[Any] = []
    patches: list[Any] = []
    for s, series in enumerate(bars.series):
        xs = [p - 0.4 + width * (s + 0.5) for p in positions]
        heights = list(series.values)
        drawn = ax.bar(
            xs,
            heights,
            width=width * 0.92,
            color=style.colors[s % len(style.colors)],
            label=series.label,
        )
        patches += list(drawn)
        for p, (x, h) in enumerate(zip(xs, heights, strict=True)):
            if p in bars.muted:
                drawn[p].set_hatch("///")
                drawn[p].set_alpha(0.55)
            up = h >= 0
            text = ax.text(
                x,
                h,
                series.texts[p],
                ha="center",
                va="bottom" if up else "top",
                fontsize=8,
                transform=above_bar if up else below_bar,
            )
            text.set_gid(f"value_{s}_{p}")
            value_texts.append(text)

    # The x axis: a baseline, each category's name under its group of bars, the axis title.
    # Each in a named group (matplotlib writes an artist's gid as its SVG id), so that tools
    # and tests can tell values, categories and axis titles apart.
    ax.axhline(0, color=SENTINEL, linewidth=0.8).set_gid("baseline")
    on_baseline = blended_transform_factory(ax.transData, ax.transAxes)
    under = points(on_baseline, y=-4)
    names = []
    for p, label in zip(positions, bars.categories, strict=True):
        name = ax.text(p, 0, label, ha="center", va="top", transform=under)
        name.set_gid(f"candidate_{p}")
        names.append(name)
    below_names = points(ax.transAxes, y=-20)
    axis_x = ax.text(0.5, 0, bars.axis_x, ha="center", va="top", transform=below_names)
    axis_x.set_gid("axis_candidate")
    left_of = points(ax.transAxes, x=-4)
    axis_y = ax.text(0, 0.5, bars.axis_y, rotation=90, ha="right", va="center", transform=left_of)
    axis_y.set_gid("axis_weight")
    if bars.heading:
        ax.set_title(bars.heading)
    legend = ax.legend(title=None, loc="upper right", fontsize=8) if bars.legend else None
    dense = _fit(fig, ax, value_texts, names, axis_x, patches, legend, bars)
    shown = ax.get_legend()
    if shown is not None:
        for s, text in enumerate(shown.get_texts()):
            if s in bars.shortened:
                text.set_gid(f"series_{s}")
    return dense


def _unread_limits(patch: Any) -> None:
    pass


def _y_range(values: Sequence[float], weights: bool) -> tuple[float, float]:
    if weights:
        top = max(values, default=1.0)
        return 0, min(1.0, top * 1.18) if top > 0 else 1.0
    hi = max([0.0, *values])
    lo = min([0.0, *values])
    if hi == lo:
        return 0.0, 1.0
    pad = (hi - lo) * 0.18
    return (lo - pad if lo < 0 else 0.0), (hi + pad if hi > 0 else 0.0)


def boxes(texts: Sequence[Any], renderer: Any) -> list[Any]:
    return [t.get_window_extent(renderer) for t in texts if t.get_text()]


def overlapping(found: Sequence[Any], gap: float = 0.0) -> bool:
    """Whether any two boxes (display units) come closer than ``gap``."""
    ordered = sorted(found, key=lambda b: b.x0)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.x0 >= a.x1 + gap:
                break
            if a.y0 < b.y1 + gap and b.y0 < a.y1 + gap:
                return True
    return False


def _touches(a: Any, others: Sequence[Any]) -> bool:
    return any(a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1 for b in others)


def _fit(
    fig: Any,
    ax: Any,
    values: list[Any],
    names: list[Any],
    axis_x: Any,
    patches: list[Any],
    legend: Any,
    bars: Bars,
) -> bool:
    # One renderer for every step: a text's metrics do not depend on the figure's size, and a
    # text measured again (moved, not changed) is answered from the renderer's cache.
    renderer = measuring_renderer(fig)
    gap = GAP * fig.dpi / 72
    value_boxes = boxes(values, renderer)
    name_boxes = boxes(names, renderer)
    upright_values = overlapping(value_boxes, gap)
    upright_names = overlapping(name_boxes, gap)
    if upright_values:
        for text in values:
            text.set_rotation(90)
            text.set_fontsize(7)
    if upright_names:
        for text in names:
            text.set_rotation(90)
    if upright_values or upright_names:
        # Upright texts side by side need one text height (plus air) per bar, or a wider figure.
        upright = UPRIGHT_GAP * fig.dpi / 72
        groups = [
            (values, upright if upright_values else gap),
            (names, upright if upright_names else gap),
        ]
        for _ in range(4):
            measured = [(boxes(g, renderer), air) for g, air in groups]
            crowded = [(found, air) for found, air in measured if overlapping(found, air)]
            if not crowded:
                name_boxes = measured[1][0]
                break
            fig.set_size_inches(fig.get_figwidth() * _spread(crowded), fig.get_figheight())
        else:
            name_boxes = boxes(names, renderer)
    # Boxes are measured again only after the figure changed: a chart that fits is measured once.
    # The axis title sits under the names, not beside a two-line one.
    title_top = axis_x.get_window_extent(renderer).y1
    if upright_names or any(b.y0 < title_top for b in name_boxes):
        _room_below(fig, ax, name_boxes, axis_x, renderer)
    if upright_values:
        value_boxes = _room_above(ax, values, renderer)
    if legend is not None:
        if upright_names and not upright_values:  # moved since measured: the figure changed
            value_boxes = boxes(values, renderer)
        covered = value_boxes + [p.get_window_extent(renderer) for p in patches]
        if _touches(legend.get_window_extent(renderer), covered):
            _legend_above(fig, ax, legend, bars, renderer)
    return upright_values or upright_names


def _spread(groups: Sequence[tuple[list[Any], float]]) -> float:
    """How much wider the figure must be for the crowded texts (their boxes) to stand apart (each
    group with its own air between texts)."""
    need = 1.05
    for group, gap in groups:
        found = sorted(group, key=lambda b: (b.x0 + b.x1) / 2)
        for a, b in itertools.pairwise(found):
            step = (b.x0 + b.x1) / 2 - (a.x0 + a.x1) / 2
            want = (a.width + b.width) / 2 + gap
            if step > 0 and want > step:
                need = max(need, want / step * 1.05)
    return need


def _room_below(fig: Any, ax: Any, name_boxes: list[Any], axis_x: Any, renderer: Any) -> None:
    """Upright names (their boxes) hang lower: the axis title moves under them and the figure
    grows to hold both, the plot keeping its height."""
    from matplotlib.transforms import offset_copy

    bottom_px = ax.get_window_extent(renderer).y0
    deepest = min(b.y0 for b in name_boxes)
    drop_pt = (bottom_px - deepest) * 72 / fig.dpi + 4
    axis_x.set_transform(offset_copy(ax.transAxes, fig=fig, y=-drop_pt, units="points"))
    title_pt = axis_x.get_window_extent(renderer).height * 72 / fig.dpi
    need_in = (drop_pt + title_pt + 6) / 72
    _grow(fig, bottom=need_in)


def _grow(fig: Any, *, bottom: float | None = None, top: float | None = None) -> None:
    """Give the margin ``bottom`` or ``top`` inches, growing the figure so the plot keeps its
    size."""
    sub = fig.subplotpars
    height = fig.get_figheight()
    plot = (sub.top - sub.bottom) * height
    low = sub.bottom * height if bottom is None else max(bottom, sub.bottom * height)
    high = (1 - sub.top) * height if top is None else max(top, (1 - sub.top) * height)
    total = low + plot + high
    fig.set_size_inches(fig.get_figwidth(), total)
    fig.subplots_adjust(bottom=low / total, top=(low + plot) / total)


def _room_above(ax: Any, values: list[Any], renderer: Any) -> list[Any]:
    """Upright values are tall: raise the y range until the tallest stays inside the plot.
    Returns the values' boxes where they now stand."""
    for _ in range(3):
        frame = ax.get_window_extent(renderer)
        found = boxes(values, renderer)
        over = max((b.y1 for b in found), default=frame.y1) - frame.y1
        under = frame.y0 - min((b.y0 for b in found), default=frame.y0)
        if over <= 0 and under <= 0:
            return found
        lo, hi = ax.get_ylim()
        per_px = (hi - lo) / frame.height
        ax.set_ylim(lo - max(under, 0) * per_px * 1.1, hi + max(over, 0) * per_px * 1.1)
    return boxes(values, renderer)


def _legend_above(fig: Any, ax: Any, legend: Any, bars: Bars, renderer: Any) -> None:
    """The legend as a row (or, if a row is too wide, a column) over the plot, the title over it."""
    legend.remove()
    handles, labels = ax.get_legend_handles_labels()
    frame = ax.get_window_extent(renderer)
    for ncols in (len(labels), 1):
        legend = ax.legend(
            handles,
            labels,
            loc="lower left",
            bbox_to_anchor=(0, 1.0),
            ncols=ncols,
            fontsize=8,
            borderaxespad=0.2,
        )
        if legend.get_window_extent(renderer).width <= frame.width:
            break
    legend_pt = legend.get_window_extent(renderer).height * 72 / fig.dpi
    title_pt = 0.0
    if bars.heading:
        ax.set_title(bars.heading, pad=legend_pt + 6)
        title_pt = ax.title.get_window_extent(renderer).height * 72 / fig.dpi
    _grow(fig, top=(legend_pt + title_pt + 14) / 72)
