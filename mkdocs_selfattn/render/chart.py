"""The weight bar chart as inline SVG: text kept as text, colours that follow the page's palette.

Matplotlib is imported here only, lazily, with the Agg backend and an object-oriented Figure (no
pyplot state to leak across ``mkdocs serve`` rebuilds). Text and axes are drawn in a sentinel colour
that is swapped for ``currentColor`` afterwards, so the chart inherits the text colour of
mkdocs-material's light or dark palette instead of baking one in.
"""

from __future__ import annotations

import hashlib
import html
import re
import unicodedata
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from io import StringIO
from typing import Any

from mkdocs_selfattn.render.defaults import DEFAULT_COLORS, DEFAULT_FONTS
from mkdocs_selfattn.render.labels import Labels, format_value
from mkdocs_selfattn.results import DocumentResult

DEFAULT_TEXT: Mapping[str, str] = {
    "chart_title": "",
    "axis_weight": "attention weight",
    "axis_candidate": "candidate token",
    "chart_name": "attention weights of {targets}",
}
"""``chart_name``: the accessible name of a chart without a title (``{targets}``: their labels)."""

CHART_FORMAT = 7
"""Bump when the drawing changes, so cached charts from older code are not reused."""

_SENTINEL = "#010203"


@dataclass(frozen=True)
class ChartStyle:
    width: float = 7.0
    height: float = 3.6
    colors: tuple[str, ...] = DEFAULT_COLORS
    fonts: tuple[str, ...] = DEFAULT_FONTS


@dataclass
class ChartOutput:
    svg: str
    missing_glyphs: list[str] = field(default_factory=list)


def render_chart(
    result: DocumentResult,
    labels: Labels,
    *,
    style: ChartStyle | None = None,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
    title: str | None = None,
) -> ChartOutput:
    """Grouped bars, one series per target; returns SVG text and any glyphs no font could draw."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    style = style or ChartStyle()
    words = {k: _printable(v) for k, v in {**DEFAULT_TEXT, **(text or {})}.items()}
    labels = _PrintableLabels(labels)
    title = None if title is None else _printable(title)
    candidates: list[tuple[str, int | None]] = []
    for target in result.targets:
        for cand in target.candidates:
            if (cand.token, cand.index) not in candidates:
                candidates.append((cand.token, cand.index))
    rc: Any = {
        "svg.fonttype": "none",
        # CSV text is data: "$5 and $6" must not become mathtext, nor "$\\frac{$" an error.
        "text.parse_math": False,
        "svg.hashsalt": "mkdocs-selfattn",
        # Explicit families, not "sans-serif": only an explicit list gets per-glyph fallback,
        # so Latin text keeps DejaVu Sans while CJK falls through to a CJK font.
        "font.family": installed_families(style.fonts),
        "font.size": 10,
        "axes.edgecolor": _SENTINEL,
        "axes.labelcolor": _SENTINEL,
        "xtick.color": _SENTINEL,
        "ytick.color": _SENTINEL,
        "text.color": _SENTINEL,
        "axes.titlecolor": _SENTINEL,
        "legend.labelcolor": _SENTINEL,
        "legend.frameon": False,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "figure.facecolor": "none",
        "axes.facecolor": "none",
        "savefig.facecolor": "none",
        "savefig.edgecolor": "none",
    }
    with warnings.catch_warnings(record=True) as caught, rc_context(rc):
        warnings.simplefilter("always")
        fig = Figure(figsize=(style.width, style.height))
        fig.subplots_adjust(left=0.09, right=0.99, bottom=0.17, top=0.93)
        try:
            _draw(fig, result, labels, candidates, style, number_format, words, title)
            buffer = StringIO()
            fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
        finally:
            fig.clear()
    # Matplotlib names the glyph by code point ("Glyph 74029 (\\N{…}) missing from font(s)").
    missing = sorted(
        {chr(int(n)) for w in caught for n in re.findall(r"Glyph (\d+) \(", str(w.message))}
    )
    key = hashlib.sha256(buffer.getvalue().encode("utf-8")).hexdigest()[:10]
    svg = _finish_svg(buffer.getvalue(), result, labels, key, title, words["chart_name"])
    return ChartOutput(svg, missing)


def chart_words(
    labels: Labels,
    result: DocumentResult,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
    title: str | None = None,
) -> list[str]:
    """Every text the chart would draw, found without matplotlib: ``check`` validates a chart
    view this way (labels, number format, axis words) and skips the drawing itself."""
    words = {k: _printable(v) for k, v in {**DEFAULT_TEXT, **(text or {})}.items()}
    shown = _PrintableLabels(labels)
    out = [words["axis_candidate"], words["axis_weight"]]
    out.append(_printable(title) if title is not None else words["chart_title"])
    for target in result.targets:
        out.append(shown(target.target, target.target_index))
        for cand in target.candidates:
            out += [shown(cand.token, cand.index), format_value(cand.weight, number_format)]
    return out


def _printable(text: str) -> str:
    """Control characters (tabs, CR, newlines in a quoted CSV field) drawn as spaces: no font
    has glyphs for them, and a chart label is one line."""
    return "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text)


class _PrintableLabels(Labels):
    def __init__(self, inner: Labels) -> None:
        super().__init__(inner.display, inner.repeated, inner.ambiguous)

    def __call__(self, token: str, index: int | None = None) -> str:
        return _printable(super().__call__(token, index))


def installed_families(families: Sequence[str]) -> list[str]:
    """The families matplotlib can find, in order (unknown names would only log noise)."""
    from matplotlib import font_manager

    known = {f.name for f in font_manager.fontManager.ttflist}
    found = [f for f in families if f in known]
    # Every extra family is another font lookup for every piece of text (most of a chart's cost),
    # and the first CJK family already covers Chinese, Japanese and Korean: keep two at most.
    return found[:2] or ["DejaVu Sans"]


def _draw(
    fig: Any,
    result: DocumentResult,
    labels: Labels,
    candidates: Sequence[tuple[str, int | None]],
    style: ChartStyle,
    number_format: str | None,
    words: Mapping[str, str],
    title: str | None,
) -> None:
    """Bars, their values, the candidate names and the two axis titles, as plain artists.

    The axes' own machinery is switched off: every bar carries its value, so the chart needs no
    y ticks, and drawing the x axis by hand (a baseline and one text per candidate) instead of
    through ticks, tick labels and annotations made a chart about 40 % cheaper to draw.
    """
    from matplotlib.transforms import blended_transform_factory, offset_copy

    ax = fig.add_subplot()
    ax.set_axis_off()
    n_series = max(len(result.targets), 1)
    width = 0.8 / n_series
    positions = range(len(candidates))
    top = max((c.weight for t in result.targets for c in t.candidates), default=1.0)
    ax.set_xlim(-0.65, max(len(candidates), 1) - 0.35)
    ax.set_ylim(0, min(1.0, top * 1.18) if top > 0 else 1.0)

    def points(transform: Any, x: float = 0, y: float = 0) -> Any:
        return offset_copy(transform, fig=fig, x=x, y=y, units="points")

    above_bar = points(ax.transData, y=2)
    for s, target in enumerate(result.targets):
        weights = dict.fromkeys(candidates, 0.0)
        for cand in target.candidates:
            weights[(cand.token, cand.index)] += cand.weight
        xs = [p - 0.4 + width * (s + 0.5) for p in positions]
        heights = [weights[c] for c in candidates]
        ax.bar(
            xs,
            heights,
            width=width * 0.92,
            color=style.colors[s % len(style.colors)],
            label=labels(target.target, target.target_index),
        )
        for p, (x, h) in enumerate(zip(xs, heights, strict=True)):
            value = format_value(h, number_format)
            ax.text(x, h, value, ha="center", va="bottom", fontsize=8, transform=above_bar).set_gid(
                f"value_{s}_{p}"
            )

    # The x axis: a baseline, each candidate's name under its group of bars, the axis title.
    # Each in a named group (matplotlib writes an artist's gid as its SVG id), so that tools
    # and tests can tell values, candidates and axis titles apart.
    ax.axhline(0, color=_SENTINEL, linewidth=0.8).set_gid("baseline")
    on_baseline = blended_transform_factory(ax.transData, ax.transAxes)
    under = points(on_baseline, y=-4)
    for p, (tok, idx) in zip(positions, candidates, strict=True):
        name = ax.text(p, 0, labels(tok, idx), ha="center", va="top", transform=under)
        name.set_gid(f"candidate_{p}")
    below_names = points(ax.transAxes, y=-20)
    axis_x = ax.text(0.5, 0, words["axis_candidate"], ha="center", va="top", transform=below_names)
    axis_x.set_gid("axis_candidate")
    left_of = points(ax.transAxes, x=-4)
    axis_y = ax.text(
        0, 0.5, words["axis_weight"], rotation=90, ha="right", va="center", transform=left_of
    )
    axis_y.set_gid("axis_weight")
    heading = title if title is not None else words["chart_title"]
    if heading:
        ax.set_title(heading)
    if result.targets:
        ax.legend(title=None, loc="upper right", fontsize=8)


_XML_PROLOG = re.compile(r"^.*?(<svg\b)", re.S)
_SIZE_ATTRS = re.compile(r'(<svg\b[^>]*?)\s(width|height)="[^"]*"')
_IDS = re.compile(r'\bid="([^"]+)"')


def _finish_svg(
    svg: str, result: DocumentResult, labels: Labels, key: str, title: str | None, name: str
) -> str:
    """Inline-ready SVG: no prolog, unique ids, theme colours, an accessible title and summary."""
    svg = _XML_PROLOG.sub(r"\1", svg, count=1)
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, count=1, flags=re.S)
    # Matplotlib's global "*{…}" rule would restyle every SVG on the page once inlined.
    svg = svg.replace('<style type="text/css">*{', '<style type="text/css">.selfattn-chart *{')
    for _ in range(2):
        svg = _SIZE_ATTRS.sub(r"\1", svg, count=1)
    prefix = f"sa{key}-"
    ids = set(_IDS.findall(svg))
    for ident in sorted(ids, key=len, reverse=True):
        svg = svg.replace(f'id="{ident}"', f'id="{prefix}{ident}"')
        svg = svg.replace(f"url(#{ident})", f"url(#{prefix}{ident})")
        svg = svg.replace(f'href="#{ident}"', f'href="#{prefix}{ident}"')
    # A reader without the build machine's fonts still gets a sans-serif face, not the default.
    svg = re.sub(r"(font-family: [^;\"]*?)(?=[;\"])", r"\1, sans-serif", svg)
    svg = svg.replace(_SENTINEL, "currentColor")
    targets = ", ".join(labels(t.target, t.target_index) for t in result.targets)
    heading = title or name.replace("{targets}", targets)
    summary = "; ".join(
        f"{labels(t.target, t.target_index)}: "
        + ", ".join(
            f"{labels(c.token, c.index)} {format_value(c.weight, None)}" for c in t.candidates
        )
        for t in result.targets
    )
    accessible = (
        f'<title id="{prefix}title">{html.escape(heading)}</title>'
        f'<desc id="{prefix}desc">{html.escape(summary)}</desc>'
    )
    svg = re.sub(
        r"<svg\b([^>]*)>",
        lambda m: (
            f'<svg{m.group(1)} class="selfattn-chart" role="img" '
            f'aria-labelledby="{prefix}title {prefix}desc">' + accessible
        ),
        svg,
        count=1,
    )
    return svg.strip() + "\n"
