"""The SVG machinery every chart shares: matplotlib settings, glyph checks, inline-ready output.

Matplotlib is imported here only, lazily, with the Agg backend and an object-oriented Figure (no
pyplot state to leak across ``mkdocs serve`` rebuilds). Text and axes are drawn in a sentinel colour
that is swapped for ``currentColor`` afterwards, so a chart inherits the text colour of
mkdocs-material's light or dark palette instead of baking one in. The figure modules
(``chart.py``, ``chart_context.py``, ``chart_space.py``) only say what to draw.

Every chart is two drawings made in one job: the wide one (matplotlib, the book's 760 × 430 units)
and a phone one, 360 units wide, written as SVG by hand (:mod:`chart_narrow`) with the text widths
the wide figure's fonts measure. The stylesheet shows one; both carry the accessible name and
description, in the page's language when a figure language draws the chart's words.
"""

from __future__ import annotations

import gc
import hashlib
import html
import re
import unicodedata
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from io import StringIO
from typing import Any

from mkdocs_selfattn.render.chart_fonts import ChartFont, chart_fonts
from mkdocs_selfattn.render.defaults import DEFAULT_COLORS
from mkdocs_selfattn.render.font_registry import css_font_family, face_of, registered_families
from mkdocs_selfattn.render.labels import Labels

CHART_FORMAT = 10
"""Bump when the drawing changes, so cached charts from older code are not reused."""

SENTINEL = "#010203"

WIDE = (760.0, 430.0)
"""The book's one-concept figure, in SVG units (points: matplotlib writes 72 units an inch)."""

NARROW_WIDTH = 360.0
"""The phone drawing's width in SVG units: in a 343 px column a 12-unit text is 11.4 px."""

INSET = 18.0
"""Units of air between any text and the drawing's edge (the book's own figures keep 18)."""

TITLE_X = INSET + 2.0
"""Where a title starts: past the inset, as a capital's ink (T, V, W) may start left of its
pen position and the book measures the 18 units to the ink."""

TITLE_SIZE = 18.0
LABEL_SIZE = 14.0
"""Font sizes of the wide drawing, in SVG units: titles, and every label, value and legend."""

NARROW_TITLE_SIZE = 15.0
NARROW_SIZE = 12.5
"""Font sizes of the narrow drawing (at least 12 units, 11 CSS px in a 343 px column)."""


@dataclass(frozen=True)
class ChartStyle:
    width: float = WIDE[0] / 72
    height: float = WIDE[1] / 72
    colors: tuple[str, ...] = DEFAULT_COLORS
    fonts: tuple[ChartFont, ...] = field(default_factory=chart_fonts)
    """The font files text is measured with, in fallback order (see :mod:`chart_fonts`)."""


@dataclass
class ChartOutput:
    svg: str
    """The wide drawing (``svg.selfattn-chart-wide``)."""
    missing_glyphs: list[str] = field(default_factory=list)
    narrow: str = ""
    """The phone drawing (``svg.selfattn-chart-narrow``), drawn in the same job."""

    @property
    def both(self) -> str:
        """Both drawings, as a chart box holds them (the stylesheet shows one)."""
        return self.svg + self.narrow


@dataclass
class Drawn:
    """What a figure function tells the SVG writer beyond the drawing itself."""

    heading: str
    """The accessible name (the title, or the view's ``chart_name`` filled in)."""
    summary: str
    """The accessible description: every number the chart shows."""
    tooltips: dict[str, str] = field(default_factory=dict)
    """Artist id → full text, for labels the figure had to shorten (an SVG ``<title>``)."""
    dense: bool = False
    """Texts were fitted closely (turned upright)."""
    narrow: Callable[[Callable[[str, float], float]], tuple[str, float]] | None = None
    """The phone drawing's body and height, given a text measure (text, size → width in units);
    drawn while the wide figure's fonts are set up, and finished like it."""
    heading_page: str | None = None
    summary_page: str | None = None
    """The accessible name and description in the page's language, when it differs from the
    figure's (see ``figure_language``)."""


Draw = Callable[[Any], Drawn]


def printable(text: str) -> str:
    """Control characters (tabs, CR, newlines in a quoted CSV field) drawn as spaces: no font
    has glyphs for them, and a chart label is one line."""
    return "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text)


def chart_words(defaults: Mapping[str, str], text: Mapping[str, str] | None) -> dict[str, str]:
    return {k: printable(v) for k, v in {**defaults, **(text or {})}.items()}


class PrintableLabels(Labels):
    def __init__(self, inner: Labels) -> None:
        super().__init__(inner.display, inner.repeated, inner.ambiguous)

    def __call__(self, token: str, index: int | None = None) -> str:
        return printable(super().__call__(token, index))


_MEASURING: dict[tuple[object, ...], Any] = {}


def measuring_renderer(fig: Any) -> Any:
    """A renderer to measure a figure's texts with while laying it out (the SVG is written
    later, by its own backend, with the same font metrics).

    One for the whole process per dpi and font setting: matplotlib caches text metrics per
    renderer, and a text's metrics depend on nothing else (not the figure's size), while the same
    words (axis titles, values) recur in every chart and in every fitting step of one."""
    import matplotlib
    from matplotlib.backends.backend_agg import RendererAgg

    rc = matplotlib.rcParams
    key = (fig.dpi, rc["text.hinting"], rc["text.hinting_factor"], rc["text.kerning_factor"])
    renderer = _MEASURING.get(key)
    if renderer is None:
        agg: Any = RendererAgg  # untyped in matplotlib's stubs
        renderer = _MEASURING[key] = agg(1, 1, fig.dpi)
    return renderer


def _rc(style: ChartStyle) -> Any:
    return {
        "svg.fonttype": "none",
        # CSV text is data: "$5 and $6" must not become mathtext, nor "$\\frac{$" an error.
        "text.parse_math": False,
        "svg.hashsalt": "mkdocs-selfattn",
        # Explicit families, not "sans-serif": only an explicit list gets per-glyph fallback,
        # so Latin text keeps DejaVu Sans while CJK falls through to the CJK font. Only the
        # chart fonts' own files, whatever else the machine has (see font_registry).
        "font.family": registered_families(style.fonts),
        "font.size": LABEL_SIZE,
        "axes.titlesize": TITLE_SIZE,
        "legend.fontsize": LABEL_SIZE,
        "axes.edgecolor": SENTINEL,
        "axes.labelcolor": SENTINEL,
        "xtick.color": SENTINEL,
        "ytick.color": SENTINEL,
        "text.color": SENTINEL,
        "hatch.color": SENTINEL,
        "axes.titlecolor": SENTINEL,
        "legend.labelcolor": SENTINEL,
        "legend.frameon": False,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "figure.facecolor": "none",
        "axes.facecolor": "none",
        "savefig.facecolor": "none",
        "savefig.edgecolor": "none",
    }


def draw_svg(
    style: ChartStyle, draw: Draw, *, margins: Mapping[str, float] | None = None
) -> ChartOutput:
    """Run ``draw`` on a fresh figure of the style's size; returns the finished SVG and any
    glyphs no font could draw."""
    with _collector_paused():
        raw, drawn, caught, narrow = _figure_svg(style, draw, margins)
    # Matplotlib names the glyph by code point ("Glyph 74029 (\\N{…}) missing from font(s)").
    missing = sorted({chr(int(n)) for w in caught for n in re.findall(r"Glyph (\d+) \(", w)})
    key = hashlib.sha256(raw.encode("utf-8")).hexdigest()[:10]
    svg = finish_svg(raw, key, drawn)
    phone = ""
    if narrow is not None:
        body, height = narrow
        phone = narrow_svg(body, height, key, drawn, style)
    return ChartOutput(svg, missing, phone)


def _figure_svg(
    style: ChartStyle, draw: Draw, margins: Mapping[str, float] | None
) -> tuple[str, Drawn, list[str], tuple[str, float] | None]:
    """Matplotlib's SVG of the drawn figure, what ``draw`` said, the warnings, and the phone
    drawing (its body and height) measured with the same fonts. The figure is garbage once this
    returns (see :func:`_collector_paused`)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    with warnings.catch_warnings(record=True) as caught, rc_context(_rc(style)):
        warnings.simplefilter("always")
        fig = Figure(figsize=(style.width, style.height))
        fig.subplots_adjust(
            **(margins or {"left": 0.09, "right": 0.99, "bottom": 0.17, "top": 0.93})
        )
        drawn = draw(fig)
        buffer = StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
        narrow = None if drawn.narrow is None else drawn.narrow(text_measure(fig))
    svg = css_font_family(buffer.getvalue(), style.fonts)
    return svg, drawn, [str(w.message) for w in caught], narrow


def text_measure(fig: Any) -> Callable[[str, float], float]:
    """Width in SVG units of a one-line text at a size, with the chart fonts (and their
    per-glyph fallback) as the figure draws it."""
    import matplotlib
    from matplotlib.font_manager import FontProperties

    renderer = measuring_renderer(fig)
    props: dict[float, Any] = {}
    scale = 72 / fig.dpi
    family = tuple(matplotlib.rcParams["font.family"])

    def measure(text: str, size: float) -> float:
        if not text:
            return 0.0
        key = (text, size, family, fig.dpi)
        known = _WIDTHS.get(key)
        if known is not None:
            return known
        prop = props.get(size)
        if prop is None:
            prop = props[size] = FontProperties(size=size)
        w, _, _ = renderer.get_text_width_height_descent(text, prop, ismath=False)
        if len(_WIDTHS) > WIDTHS_KEPT:
            _WIDTHS.clear()
        width = _WIDTHS[key] = float(w * scale)
        return width

    return measure


_WIDTHS: dict[tuple[object, ...], float] = {}
"""Measured text widths, for the whole process: a text's width depends only on itself, its size
and the fonts, and the same words (axis names, values, labels) recur in every chart and in every
fitting step of one."""

WIDTHS_KEPT = 50_000


def font_family_css(style: ChartStyle) -> str:
    """The ``font-family`` the wide drawing's texts get, for the hand-written narrow one."""
    real = ", ".join(dict.fromkeys(repr(face_of(font)[1]) for font in style.fonts))
    return f"{real}, sans-serif"


def narrow_svg(body: str, height: float, key: str, drawn: Drawn, style: ChartStyle) -> str:
    """The phone drawing: its body (texts in the chart fonts, marks) with the same accessible
    name and description as the wide one, under ids of its own."""
    prefix = f"sa{key}n-"
    body = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', body)
    body = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", body)
    family = html.escape(font_family_css(style), quote=True)
    heading = drawn.heading if drawn.heading_page is None else drawn.heading_page
    summary = drawn.summary if drawn.summary_page is None else drawn.summary_page
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {fmt(NARROW_WIDTH)} '
        f'{fmt(height)}" class="selfattn-chart selfattn-chart-narrow" role="img" '
        f'aria-labelledby="{prefix}title {prefix}desc" font-family="{family}">'
        f'<title id="{prefix}title">{html.escape(heading)}</title>'
        f'<desc id="{prefix}desc">{html.escape(summary)}</desc>'
        f"{body}</svg>\n"
    )


def fmt(value: float) -> str:
    """A coordinate as the narrow drawing writes it: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a chart is drawn.

    A figure is thousands of objects in reference cycles, alive until its SVG is written:
    collections in the middle of a chart (five or six of them) scanned them, found nothing to
    free and moved them to older generations, where they stayed, dead, until a costlier
    collection. Collected after the chart instead, they are freed by the first young collection,
    which cut the collector's share of a chart from about 3 ms to under 1."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


_XML_PROLOG = re.compile(r"^.*?(<svg\b)", re.S)
_SIZE_ATTRS = re.compile(r'(<svg\b[^>]*?)\s(width|height)="[^"]*"')
_IDS = re.compile(r'\bid="([^"]+)"')


def finish_svg(svg: str, key: str, drawn: Drawn) -> str:
    """Inline-ready SVG: no prolog, unique ids, theme colours, an accessible title and summary,
    and a ``<title>`` tooltip on every shortened label."""
    svg = _XML_PROLOG.sub(r"\1", svg, count=1)
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, count=1, flags=re.S)
    # Matplotlib's global "*{…}" rule would restyle every SVG on the page once inlined.
    svg = svg.replace('<style type="text/css">*{', '<style type="text/css">.selfattn-chart *{')
    for _ in range(2):
        svg = _SIZE_ATTRS.sub(r"\1", svg, count=1)
    for gid, full in drawn.tooltips.items():
        svg = svg.replace(f'<g id="{gid}">', f'<g id="{gid}"><title>{html.escape(full)}</title>', 1)
    prefix = f"sa{key}-"
    ids = set(_IDS.findall(svg))
    for ident in sorted(ids, key=len, reverse=True):
        svg = svg.replace(f'id="{ident}"', f'id="{prefix}{ident}"')
        svg = svg.replace(f"url(#{ident})", f"url(#{prefix}{ident})")
        svg = svg.replace(f'href="#{ident}"', f'href="#{prefix}{ident}"')
    # A reader without the chart fonts still gets a sans-serif face, not the default.
    svg = re.sub(r"(font-family: [^;\"]*?)(?=[;\"])", r"\1, sans-serif", svg)
    svg = svg.replace(SENTINEL, "currentColor")
    heading = drawn.heading if drawn.heading_page is None else drawn.heading_page
    summary = drawn.summary if drawn.summary_page is None else drawn.summary_page
    accessible = (
        f'<title id="{prefix}title">{html.escape(heading)}</title>'
        f'<desc id="{prefix}desc">{html.escape(summary)}</desc>'
    )
    svg = re.sub(
        r"<svg\b([^>]*)>",
        lambda m: (
            f'<svg{m.group(1)} class="selfattn-chart selfattn-chart-wide" role="img" '
            f'aria-labelledby="{prefix}title {prefix}desc">' + accessible
        ),
        svg,
        count=1,
    )
    return svg.strip() + "\n"
