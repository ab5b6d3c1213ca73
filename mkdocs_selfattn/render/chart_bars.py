"""Grouped bars with their values written on them, laid out so that nothing overlaps, on the
book's fixed 760 × 430 figure.

Every bar chart (``chart``, ``context_chart``, ``separation_chart``) is one of these: categories
along the x axis, one bar per series in each, the value above (or, when negative, below) each bar;
the title left-aligned at the inset, the legend a row under it. Texts are measured with the chart
fonts: names that would touch stand upright (one or two lines, broken only where a label may
break, shortened with their full text as tooltip), values that would touch stand upright, and
the y range grows to hold them. The figure never grows: the charts cap their bars instead
(:data:`chart.MAX_BARS`). The phone drawing of the same bars is :mod:`chart_narrow`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mkdocs_selfattn.render.chart_svg import (
    INSET,
    LABEL_SIZE,
    TITLE_SIZE,
    TITLE_X,
    ChartStyle,
    measuring_renderer,
    text_measure,
)
from mkdocs_selfattn.render.defaults import ROLE_GUIDE, role_color, series_colors
from mkdocs_selfattn.render.figure_text import shortened, wrap

GAP = 1.0
"""Points of air kept between two texts."""


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
    role: int | None = None
    """The colour role of a one-series chart whose bars mean one thing (a change: red)."""
    full: tuple[str, ...] = ()
    """The categories' full names, for the narrow drawing (which has room for more)."""


HATCHES = ("", "//", "\\\\", "xx", "--", "||", "++")
"""A pattern per series, so that series differ by more than their fill (the first is plain)."""

MUTED_HATCH = "///"
"""The pattern of a reference or summary bar (the baseline, "N others"), on the guide grey."""


def series_style(style: ChartStyle, s: int, role: int | None = None) -> tuple[str, str]:
    """Fill and hatch of series ``s`` (a chart of one role gets that role's colour)."""
    if role is not None:
        return role_color(style.colors, role), ""
    colors = series_colors(style.colors)
    return colors[s % len(colors)], HATCHES[s % len(HATCHES)]


def draw_bars(fig: Any, bars: Bars, style: ChartStyle) -> bool:
    """Bars, their values, the category names, the two axis titles, the title and the legend,
    as plain artists, on a figure of fixed size (the book's 760 × 430 units).

    The axes' own machinery is switched off: every bar carries its value, so the chart needs no
    y ticks, and drawing the x axis by hand (a baseline and one text per category) instead of
    through ticks, tick labels and annotations made a chart about 40 % cheaper to draw.

    The title is left-aligned at the inset, the legend a row under it, over the plot: both stay
    in view and clear of every bar. Returns whether the values or names had to stand upright.
    """
    from matplotlib.transforms import blended_transform_factory, offset_copy

    measure = text_measure(fig)
    width_u = fig.get_figwidth() * 72
    height_u = fig.get_figheight() * 72
    top = INSET
    if bars.heading:
        title = fig.text(
            TITLE_X / width_u,
            1 - INSET / height_u,
            fit_line(bars.heading, width_u - 2 * TITLE_X, TITLE_SIZE, measure),
            ha="left",
            va="top",
            fontsize=TITLE_SIZE,
        )
        title.set_gid("heading")
        top += TITLE_SIZE * 1.2 + 8
    left = INSET + LABEL_SIZE * 1.25 + 6
    right = INSET
    plot_w = width_u - left - right
    n_series = max(len(bars.series), 1)
    n_cat = max(len(bars.categories), 1)
    slot = plot_w / (n_cat + 0.3)
    names = list(bars.categories)
    widest = max((measure(line, LABEL_SIZE) for n in names for line in n.split("\n")), default=0)
    upright_names = widest + 2 * GAP > slot
    if upright_names:
        # Upright, a name may still take two lines when the slot is wide enough for them.
        two = slot >= 2 * LABEL_SIZE * 1.2 + 2 * GAP
        names = [_upright_name(n, measure, 2 if two else 1) for n in bars.full or names]
        names_h = (
            max((measure(line, LABEL_SIZE) for n in names for line in n.split("\n")), default=0) + 4
        )
    else:
        lines = max((n.count("\n") + 1 for n in names), default=1)
        names_h = lines * LABEL_SIZE * 1.2 + 4
    bottom = INSET + LABEL_SIZE * 1.2 + 6 + names_h
    legend_h = 0.0
    ax = fig.add_axes((left / width_u, bottom / height_u, plot_w / width_u, 0.5))
    # Matplotlib updates the data limits with every bar it adds (walking the rectangle's path,
    # most of what ``ax.bar`` costs); the limits are set by hand below, so these go unread.
    ax._update_patch_limits = _unread_limits
    ax.set_axis_off()
    bar_w = 0.86 / n_series
    positions = range(len(bars.categories))
    values = [v for s in bars.series for v in s.values]
    ax.set_xlim(-0.65, max(len(bars.categories), 1) - 0.35)
    ax.set_ylim(*_y_range(values, bars.weights))

    def points(transform: Any, x: float = 0, y: float = 0) -> Any:
        return offset_copy(transform, fig=fig, x=x, y=y, units="points")

    above_bar = points(ax.transData, y=3)
    below_bar = points(ax.transData, y=-3)
    value_texts: list[Any] = []
    patches: list[Any] = []
    guide = role_color(style.colors, ROLE_GUIDE)
    for s, series in enumerate(bars.series):
        color, hatch = series_style(style, s, bars.role)
        xs = [p - 0.43 + bar_w * (s + 0.5) for p in positions]
        heights = list(series.values)
        drawn = ax.bar(
            xs,
            heights,
            width=bar_w * 0.8,
            color=color,
            hatch=hatch or None,
            linewidth=0,
            label=series.label,
        )
        patches += list(drawn)
        for p, (x, h) in enumerate(zip(xs, heights, strict=True)):
            if p in bars.muted:
                drawn[p].set_facecolor(guide)
                drawn[p].set_hatch(MUTED_HATCH)
            up = h >= 0
            text = ax.text(
                x,
                h,
                series.texts[p],
                ha="center",
                va="bottom" if up else "top",
                fontsize=LABEL_SIZE,
                transform=above_bar if up else below_bar,
            )
            text.set_gid(f"value_{s}_{p}")
            value_texts.append(text)
    ax.axhline(0, color=guide, linewidth=1.0).set_gid("baseline")
    on_baseline = blended_transform_factory(ax.transData, ax.transAxes)
    under = points(on_baseline, y=-5)
    name_texts = []
    for p, label in zip(positions, names, strict=True):
        name = ax.text(
            p,
            0,
            label,
            ha="center",
            va="top",
            rotation=90 if upright_names else 0,
            transform=under,
        )
        name.set_gid(f"candidate_{p}")
        name_texts.append(name)
    axis_x = fig.text(
        left / width_u + plot_w / width_u / 2,
        INSET / height_u,
        fit_line(bars.axis_x, plot_w, LABEL_SIZE, measure),
        ha="center",
        va="bottom",
        fontsize=LABEL_SIZE,
    )
    axis_x.set_gid("axis_candidate")
    if bars.legend:
        legend_h = _legend_top(fig, bars, style, top, width_u, height_u)
        top += legend_h + 6
    plot_h = height_u - top - bottom
    ax.set_position((left / width_u, bottom / height_u, plot_w / width_u, plot_h / height_u))
    axis_y = fig.text(
        INSET / width_u,
        (bottom + plot_h / 2) / height_u,
        fit_line(bars.axis_y, plot_h, LABEL_SIZE, measure),
        rotation=90,
        ha="left",
        va="center",
        fontsize=LABEL_SIZE,
    )
    axis_y.set_gid("axis_weight")
    upright_values = _fit_values(fig, ax, value_texts, patches)
    return upright_values or upright_names


def _upright_name(name: str, measure: Any, lines: int) -> str:
    """A name standing upright: ``lines`` lines at most :data:`UPRIGHT_NAME` units long, broken
    where a label may break (shortened, the full text in its tooltip)."""
    return "\n".join(wrap(name.replace("\n", " "), UPRIGHT_NAME, LABEL_SIZE, measure, lines))


UPRIGHT_NAME = 120.0
"""Longest upright category name, in units: more would squeeze the bars."""


def fit_line(text: str, room: float, size: float, measure: Any) -> str:
    """``text`` on one line of ``room`` units: shortened in the middle when it is longer."""
    return shortened(text, room, size, measure)


def _legend_top(
    fig: Any, bars: Bars, style: ChartStyle, top: float, width_u: float, height_u: float
) -> float:
    """The legend as rows under the title, over the plot, as many entries a row as fit (its
    swatches the series' own fill and pattern, whatever their first bar is)."""
    from matplotlib.patches import Patch

    renderer = measuring_renderer(fig)
    room_label = width_u - 2 * INSET - 3 * LABEL_SIZE
    measure = text_measure(fig)
    labels = [fit_line(s.label, room_label, LABEL_SIZE, measure) for s in bars.series]
    handles = []
    for s in range(len(bars.series)):
        color, hatch = series_style(style, s, bars.role)
        handles.append(Patch(facecolor=color, hatch=hatch or None, linewidth=0))
    room = (width_u - 2 * INSET) * fig.dpi / 72
    legend = None
    for ncols in range(len(labels), 0, -1):
        if legend is not None:
            legend.remove()
        legend = fig.legend(
            handles,
            labels,
            loc="upper left",
            bbox_to_anchor=(INSET / width_u, 1 - top / height_u),
            ncols=ncols,
            fontsize=LABEL_SIZE,
            borderaxespad=0,
            borderpad=0,
            handlelength=1.6,
            handleheight=1.0,
            columnspacing=1.4,
        )
        if legend.get_window_extent(renderer).width <= room:
            break
    assert legend is not None
    for s, text in enumerate(legend.get_texts()):
        text.set_gid(f"series_{s}" if s in bars.shortened else f"legend_text_{s}")
    return float(legend.get_window_extent(renderer).height * 72 / fig.dpi)


def _fit_values(fig: Any, ax: Any, values: list[Any], patches: list[Any]) -> bool:
    """Values that would touch each other or a neighbouring bar stand upright (as wide as a
    line is high, within their bar's slot); the y range grows to hold them in the plot."""
    renderer = measuring_renderer(fig)
    gap = GAP * fig.dpi / 72
    found = boxes(values, renderer)
    bars = [p.get_window_extent(renderer) for p in patches]
    upright = overlapping(found, gap) or any(
        v.x0 < b.x1 and b.x0 < v.x1 and v.y0 < b.y1 and b.y0 < v.y1 for v in found for b in bars
    )
    if upright:
        for text in values:
            text.set_rotation(90)
    _room_above(ax, values, renderer)
    return upright


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
