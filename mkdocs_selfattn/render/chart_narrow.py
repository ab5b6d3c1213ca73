"""The phone drawing of a bar chart: not the wide one shrunk, but horizontal bars in a 360-unit
column, each category's name on its own line above its bars, every value at its bar's end, the
title and the legend on top; as tall as the data needs.

Written as SVG directly (a few rectangles and texts, measured with the chart fonts while the wide
figure's fonts are set up): no second matplotlib figure and no second ``savefig`` per chart.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from mkdocs_selfattn.render.chart_bars import Bars, draw_bars, series_style
from mkdocs_selfattn.render.chart_svg import (
    NARROW_SIZE,
    NARROW_TITLE_SIZE,
    NARROW_WIDTH,
    SENTINEL,
    TITLE_X,
    ChartOutput,
    ChartStyle,
    Drawn,
    draw_svg,
    fmt,
)
from mkdocs_selfattn.render.defaults import ROLE_GUIDE, role_color
from mkdocs_selfattn.render.figure_text import Measure, wrap

PAD = 12.0
"""Units of air at the narrow drawing's edges."""

BAR = 13.0
"""A bar's thickness; one series' row is :data:`ROW` units."""
ROW = 18.0
LINE = 1.25
"""Line height, in font sizes."""

PATTERNS = {
    "//": '<path d="M0 6L6 0" stroke="currentColor" stroke-width="1"/>',
    "\\\\": '<path d="M0 0L6 6" stroke="currentColor" stroke-width="1"/>',
    "xx": '<path d="M0 0L6 6M0 6L6 0" stroke="currentColor" stroke-width="0.8"/>',
    "--": '<path d="M0 3H6" stroke="currentColor" stroke-width="1"/>',
    "||": '<path d="M3 0V6" stroke="currentColor" stroke-width="1"/>',
    "++": '<path d="M3 0V6M0 3H6" stroke="currentColor" stroke-width="0.8"/>',
    "///": '<path d="M0 6L6 0" stroke="currentColor" stroke-width="1.2"/>',
}
"""The wide drawing's hatches as SVG patterns (6 × 6 units, in the text colour)."""


def text_el(
    x: float,
    y: float,
    lines: Sequence[str],
    size: float,
    *,
    anchor: str = "start",
    gid: str | None = None,
    tooltip: str | None = None,
) -> str:
    """A text of one or more lines, ``y`` its first baseline."""
    ident = f' id="{gid}"' if gid else ""
    tip = f"<title>{html.escape(tooltip)}</title>" if tooltip else ""
    spans = "".join(
        f'<tspan x="{fmt(x)}" y="{fmt(y + i * size * LINE)}">{html.escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return (
        f'<text{ident} font-size="{fmt(size)}" text-anchor="{anchor}" fill="currentColor">'
        f"{tip}{spans}</text>"
    )


def pattern_defs(style: ChartStyle, hatches: Sequence[str]) -> str:
    out = []
    for hatch in dict.fromkeys(h for h in hatches if h):
        name = "hatch" + str(list(PATTERNS).index(hatch))
        out.append(
            f'<pattern id="{name}" width="6" height="6" patternUnits="userSpaceOnUse">'
            f"{PATTERNS[hatch]}</pattern>"
        )
    return f"<defs>{''.join(out)}</defs>" if out else ""


def swatch(x: float, y: float, w: float, h: float, color: str, hatch: str) -> str:
    rect = f'<rect x="{fmt(x)}" y="{fmt(y)}" width="{fmt(w)}" height="{fmt(h)}" fill="{color}"/>'
    if not hatch:
        return rect
    name = "hatch" + str(list(PATTERNS).index(hatch))
    return rect + (
        f'<rect x="{fmt(x)}" y="{fmt(y)}" width="{fmt(w)}" height="{fmt(h)}" fill="url(#{name})"/>'
    )


def heading_and_legend(
    heading: str, entries: Sequence[tuple[str, str, str]], measure: Measure
) -> tuple[list[str], float]:
    """The title (up to three lines) and the legend (entries flowing in rows) on top: their
    SVG and the height they take. ``entries``: (label, fill, hatch)."""
    parts: list[str] = []
    y = PAD
    room = NARROW_WIDTH - 2 * PAD
    if heading:
        lines = wrap(heading, NARROW_WIDTH - 2 * TITLE_X, NARROW_TITLE_SIZE, measure, lines=3)
        top = y + NARROW_TITLE_SIZE
        parts.append(text_el(TITLE_X, top, lines, NARROW_TITLE_SIZE, gid="heading"))
        y += NARROW_TITLE_SIZE * LINE * len(lines) + 6
    x = PAD
    row_h = NARROW_SIZE * LINE + 2
    for i, (label, color, hatch) in enumerate(entries):
        short = wrap(label, room - 20, NARROW_SIZE, measure, lines=1)[0]
        w = 18 + measure(short, NARROW_SIZE)
        if x > PAD and x + w > NARROW_WIDTH - PAD:
            x = PAD
            y += row_h
        parts.append(swatch(x, y + 2, 13, 13, color, hatch))
        tip = label if short != label else None
        parts.append(
            text_el(x + 18, y + NARROW_SIZE, [short], NARROW_SIZE, gid=f"legend_{i}", tooltip=tip)
        )
        x += w + 14
    if entries:
        y += row_h + 6
    return parts, y


def draw_bar_chart(
    style: ChartStyle,
    bars: Bars,
    heading: str,
    summary: str,
    tooltips: dict[str, str],
    page: tuple[str, str] | None,
) -> ChartOutput:
    """Every bar chart's two drawings, the wide one and the phone's, with its accessible name
    and description (``page``: those in the page's language, when it is not the figure's)."""

    def draw(fig: object) -> Drawn:
        dense = draw_bars(fig, bars, style)
        return Drawn(
            heading,
            summary,
            tooltips,
            dense,
            narrow=narrow_bars(bars, style, series_style),
            heading_page=None if page is None else page[0],
            summary_page=None if page is None else page[1],
        )

    return draw_svg(style, draw)


def narrow_bars(
    bars: Bars, style: ChartStyle, series_style: Callable[..., tuple[str, str]]
) -> Callable[[Measure], tuple[str, float]]:
    """The phone drawing of ``bars``, to be drawn with a text measure."""

    def draw(measure: Measure) -> tuple[str, float]:
        guide = role_color(style.colors, ROLE_GUIDE)
        looks = [series_style(style, s, bars.role) for s in range(len(bars.series))]
        entries = [(s.label, *looks[i]) for i, s in enumerate(bars.series)] if bars.legend else []
        parts, y = heading_and_legend(bars.heading, entries, measure)
        room = NARROW_WIDTH - 2 * PAD
        axis = f"{bars.axis_x} · {bars.axis_y}" if bars.axis_x else bars.axis_y
        axis_lines = wrap(axis, room, NARROW_SIZE, measure)
        parts.append(text_el(PAD, y + NARROW_SIZE, axis_lines, NARROW_SIZE, gid="axes"))
        y += NARROW_SIZE * LINE * len(axis_lines) + 4
        values = [v for s in bars.series for v in s.values]
        lo, hi = min([0.0, *values]), max([0.0, *values])
        texts = [t for s in bars.series for t in s.texts]
        text_w = max((measure(t, NARROW_SIZE) for t in texts), default=0) + 5
        left_room = text_w if lo < 0 else 0.0
        right_room = text_w if hi > 0 else 0.0
        span = (hi - lo) or 1.0
        scale = (room - left_room - right_room) / span
        zero = PAD + left_room + (0 - lo) * scale
        full = bars.full or tuple(c.replace("\n", " ") for c in bars.categories)
        for p, name in enumerate(full):
            lines = wrap(name, room, NARROW_SIZE, measure)
            tip = name if " ".join(lines) != name else None
            y += 4
            parts.append(
                text_el(PAD, y + NARROW_SIZE, lines, NARROW_SIZE, gid=f"candidate_{p}", tooltip=tip)
            )
            y += NARROW_SIZE * LINE * len(lines) + 1
            # The zero line beside this category's bars only, never through its name.
            parts.append(
                f'<line x1="{fmt(zero)}" x2="{fmt(zero)}" y1="{fmt(y)}" '
                f'y2="{fmt(y + ROW * len(bars.series))}" stroke="{guide}" stroke-width="1"/>'
            )
            for s, series in enumerate(bars.series):
                v = series.values[p]
                color, hatch = (guide, "///") if p in bars.muted else looks[s]
                x0 = min(zero, zero + v * scale)
                w = abs(v) * scale
                parts.append(swatch(x0, y + (ROW - BAR) / 2, max(w, 0.5), BAR, color, hatch))
                end = zero + v * scale
                tx = end + 4 if v >= 0 else end - 4
                parts.append(
                    text_el(
                        tx,
                        y + ROW / 2 + NARROW_SIZE * 0.36,
                        [series.texts[p]],
                        NARROW_SIZE,
                        anchor="start" if v >= 0 else "end",
                        gid=f"value_{s}_{p}",
                    )
                )
                y += ROW
        y += PAD
        hatches = [h for _, h in looks] + (["///"] if bars.muted else [])
        body = pattern_defs(style, hatches) + "".join(parts)
        return body.replace(SENTINEL, "currentColor"), y

    return draw
