"""The new chapters P5-13.1 and P5-13.3 in Chromium, in zh, ko and en, light and dark, and on a
375 px phone: charts and mermaid figures drawn with real glyphs of the page's script (a CJK font
the machine has, never the missing-glyph box), readable in both palettes, and no page wider than
the phone.

The site is the repository's own (tests/conftest.py's course_site, built once with --strict).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from chapter_pages import CHAPTERS, LANGUAGES, definition, url
from conftest import Site, offline_context
from test_browser_chapter import (
    CJK_FONT,
    READ_COLORS,
    READ_MERMAID_COLORS,
    WAIT_FOR_MERMAID,
    contrast,
    over,
    page_background,
    parse_color,
    platform_fonts,
    switch_palette,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGES = [(stem, language) for stem in CHAPTERS for language in LANGUAGES]
PAGE_IDS = [f"{stem[:7]}-{language}" for stem, language in PAGES]
CHARTS = {"p5-13-1-attention": 3, "p5-13-3-qkv-multihead": 4}
MERMAIDS: dict[tuple[str, str], int] = {}
"""Mermaid figures of each page, counted in its built HTML by ``base``: the plugin draws a view
as one diagram per row of at most three boxes (issue 24), so the count follows the data."""
SCRIPT = {"zh": "[\u4e00-\u9fff]", "ko": "[\uac00-\ud7a3]"}
FIGURE_LANGUAGE = "en"
"""mkdocs.yml's figure_language: the plugin's charts and diagrams draw English on every page (the
book's rule); the page's language is in their captions and in the authors' own diagrams."""
"""The page's script: Han ideographs on zh, Hangul syllables on ko (en is checked for Latin)."""

# Draw every character of the given script in each element with the element's own font stack,
# and U+0378 (unassigned, so no font has it): a missing glyph is the same notdef box for every
# character; a real glyph has its own shape and ink.
GLYPHS = """
([elements, pattern]) => {
  const wanted = new RegExp(pattern);
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (ch, family) => {
    ctx.clearRect(0, 0, 64, 64);
    ctx.font = `48px ${family}`;
    ctx.textBaseline = "top";
    ctx.fillText(ch, 4, 4);
    const data = ctx.getImageData(0, 0, 64, 64).data;
    let bits = "", ink = 0;
    for (let i = 3; i < data.length; i += 4) {
      const on = data[i] > 127;
      bits += on ? 1 : 0;
      ink += on;
    }
    return { bits, ink };
  };
  return elements.map((el) => {
    const family = getComputedStyle(el).fontFamily;
    const notdef = draw("\\u0378", family).bits;
    const chars = [...new Set([...el.textContent].filter((c) => wanted.test(c)))];
    return {
      text: el.textContent.slice(0, 60),
      family,
      glyphs: chars.map((c) => {
        const g = draw(c, family);
        return { c, ink: g.ink, box: g.bits === notdef, bits: g.bits };
      }),
    };
  });
}
"""

MERMAID_TEXT = """
() => [...document.querySelectorAll("article div.mermaid")].map((host) => {
  const svg = host.shadowRoot.querySelector("svg");
  return { text: svg.textContent, error: /Syntax error|Parse error/i.test(svg.textContent) };
})
"""

CHART_TEXT_PX = """
(svg) => {
  const box = svg.viewBox.baseVal;
  const scale = box && box.width ? svg.getBoundingClientRect().width / box.width : 1;
  return [...svg.querySelectorAll("text")]
    .map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * scale])
    .filter(([s, px]) => s.trim() && px < 7);
}
"""
"""A chart's words drawn under 7 px on screen, once the chart is fitted to the column."""

MERMAID_TEXT_PX = """
() => [...document.querySelectorAll("article div.mermaid")].map((host) => {
  const svg = host.shadowRoot.querySelector("svg");
  const box = svg.viewBox.baseVal;
  const scale = box && box.width ? svg.getBoundingClientRect().width / box.width : 1;
  const label = svg.querySelector(".nodeLabel");
  return (label ? parseFloat(getComputedStyle(label).fontSize) : 16) * scale;
})
"""
"""The on-screen size of each mermaid figure's node text, once fitted to the column."""

MERMAID_LABELS = """
() => [...document.querySelectorAll("article div.mermaid")].flatMap((host) =>
  [...host.shadowRoot.querySelectorAll(".nodeLabel, .nodeLabel *, text, tspan")].filter(
    (e) => [...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())))
"""


def _labels(stem: str, language: str) -> list[str]:
    """Labels this language's figures must show: questions (P5-13.1), scenarios (P5-13.3)."""
    example = definition(stem, CHAPTERS[stem][1], language)
    keys = example.get("queries") or {}
    if not keys:
        keys = {"balanced_heads": 0, "decision_vs_condition_split": 0}
    return [str(example["display"].get(key, key)) for key in keys]


FIGURE_FIT = """
() => [...document.querySelectorAll("article svg.selfattn-chart, article div.mermaid")]
  .filter((e) => e.checkVisibility()).map((e) => {
  let box = e;
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const scrolls = ["auto", "scroll"].includes(getComputedStyle(a).overflowX);
    if (scrolls && a.scrollWidth > a.clientWidth) {
      box = a;
      break;
    }
  }
  const r = box.getBoundingClientRect();
  return { chart: e.tagName.toLowerCase() === "svg", width: e.getBoundingClientRect().width,
           scrolls: box !== e, left: r.left, right: r.right };
})
"""
"""Each figure's own box, or the sideways-scrolling box that holds it: where it ends on screen."""

MARK_MERMAID_LABEL = """
(pattern) => {
  const wanted = new RegExp(pattern);
  for (const host of document.querySelectorAll("article div.mermaid")) {
    for (const el of host.shadowRoot.querySelectorAll(".nodeLabel, .nodeLabel *")) {
      if ([...el.childNodes].some((c) => c.nodeType === 3 && wanted.test(c.textContent))) {
        el.setAttribute("data-cjk-probe-mermaid", "1");
        return;
      }
    }
  }
}
"""


def shadow_platform_fonts(page: Any, attribute: str) -> list[dict[str, Any]]:
    """The fonts Chromium drew the element carrying ``attribute`` with, inside a shadow root
    (DevTools' DOM pierced, since CSS selectors cannot cross into mermaid's shadow roots)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
        stack, node_id = [root], None
        while stack and node_id is None:
            node = stack.pop()
            if attribute in node.get("attributes", [])[::2]:
                node_id = node["nodeId"]
            stack += node.get("children", []) + node.get("shadowRoots", [])
        assert node_id is not None, f"no element with {attribute}"
        return list(cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node_id})["fonts"])
    finally:
        cdp.detach()


@pytest.fixture(scope="module")
def base(repo_site: Site, serve: Callable[[Site], str]) -> str:
    for stem, language in PAGES:
        page = (repo_site.root / url(stem, language) / "index.html").read_text(encoding="utf-8")
        MERMAIDS[stem, language] = page.count('<pre class="mermaid">')
    return serve(repo_site)


def _open(open_reader: Callable[..., Any], base: str, stem: str, language: str) -> Any:
    reader = open_reader(base + url(stem, language))
    reader.page.wait_for_function(WAIT_FOR_MERMAID, arg=MERMAIDS[stem, language], timeout=30_000)
    return reader


def _check_glyphs(page: Any, handles: Any, language: str, where: str) -> None:
    if language == "en":
        return
    probes = page.evaluate(GLYPHS, [handles, SCRIPT[language]])
    drawn = [p for p in probes if p["glyphs"]]
    assert drawn, f"{where}: no text in the page's script"
    for probe in drawn:
        for glyph in probe["glyphs"]:
            what = f"{where}: {glyph['c']!r} of {probe['text']!r} (fonts {probe['family']})"
            assert glyph["ink"] > 0, f"{what} draws nothing"
            assert not glyph["box"], f"{what} is the missing-glyph box"
        if len(probe["glyphs"]) > 1:
            assert len({g["bits"] for g in probe["glyphs"]}) > 1, f"{where}: identical boxes"


@pytest.mark.parametrize(("stem", "language"), PAGES, ids=PAGE_IDS)
@pytest.mark.parametrize("scheme", ["default", "slate"], ids=["light", "dark"])
def test_charts_and_mermaid_render_with_real_glyphs_and_contrast(
    base: str, open_reader: Callable[..., Any], stem: str, language: str, scheme: str
) -> None:
    reader = _open(open_reader, base, stem, language)
    page = reader.page
    switch_palette(reader, scheme)
    figure = language if FIGURE_LANGUAGE == "page" else FIGURE_LANGUAGE
    labels = _labels(stem, figure)

    # Mermaid: every figure rendered, no syntax error, this language's labels in the plugin's one.
    figures = page.evaluate(MERMAID_TEXT)
    assert len(figures) == MERMAIDS[stem, language], figures
    assert not any(f["error"] for f in figures), figures
    plugin_figure = " ".join(f["text"] for f in figures)
    # Box text is set in lines: a label broken at its spaces reads without them in textContent.
    for label in labels[:1]:
        assert re.sub(r"\s+", "", label) in re.sub(r"\s+", "", plugin_figure), (
            f"{label!r} is not in the mermaid figures"
        )
    if language != "en":
        assert re.search(SCRIPT[language], plugin_figure)
    _check_glyphs(page, page.evaluate_handle(MERMAID_LABELS), language, f"{language} mermaid")
    if language != "en":
        # The font Chromium really drew a mermaid label with is a CJK font of this machine.
        page.evaluate(MARK_MERMAID_LABEL, SCRIPT[language])
        fonts = shadow_platform_fonts(page, "data-cjk-probe-mermaid")
        assert any(re.search(CJK_FONT, f["familyName"]) for f in fonts), fonts
    problems: list[str] = []
    sizes = page.evaluate(MERMAID_TEXT_PX)
    problems += [f"mermaid {n + 1}: text {px:.1f} px < 7" for n, px in enumerate(sizes) if px < 7]

    low = problems
    for node in page.evaluate(READ_MERMAID_COLORS):
        background = page_background(node["backgrounds"])
        r, g, b, a = parse_color(node["fill"])
        fill = over((r, g, b, a * node["fillOpacity"]), background)
        ratio = contrast(over(parse_color(node["text"]), fill), fill)
        if ratio < 4.5:
            low.append(f"mermaid node {node['node']!r}: {ratio:.2f}")

    # Charts: visible, labelled in the page's language with real glyphs of a CJK font.
    charts = page.locator("article svg.selfattn-chart:visible")  # one drawing of each chart
    assert charts.count() == CHARTS[stem]
    words = " ".join(page.locator("article svg.selfattn-chart:visible text").all_text_contents())
    assert any(label in words for label in labels), (labels, words[:300])
    if figure != language:
        assert not re.search(SCRIPT[language], words), words[:300]
        captions = page.locator("article figure.selfattn-figure > figcaption").all_text_contents()
        assert captions, "no caption"
        assert all(re.search(SCRIPT[language], c) for c in captions), captions
    for n in range(charts.count()):
        chart = charts.nth(n)
        chart.scroll_into_view_if_needed()
        assert chart.is_visible()
        box = chart.bounding_box()
        assert box is not None
        assert box["width"] > 300, box
        assert box["height"] > 100, box
        # Scaled into the column, its words stay legible: no label under 7 px on screen.
        small = page.evaluate(CHART_TEXT_PX, chart.element_handle())
        if small:
            problems.append(f"chart {n + 1}: labels under 7 px: {small[:5]}")
        texts = chart.locator("text")
        _check_glyphs(
            page,
            [texts.nth(i).element_handle() for i in range(texts.count())],
            figure,
            f"{figure} chart {n + 1}",
        )
        colors = page.evaluate(READ_COLORS, chart.element_handle())
        assert colors["scheme"] == scheme
        background = page_background(colors["backgrounds"])
        for item in colors["items"]:
            r, g, b, a = parse_color(item["color"])
            ratio = contrast(over((r, g, b, a * item["alpha"]), background), background)
            need = 4.5 if item["kind"] == "text" else 3.0
            if ratio < need:
                low.append(f"chart {n + 1} {item['kind']} {item['what']!r}: {ratio:.2f} < {need}")
    assert not problems, f"{scheme}: unreadable:\n" + "\n".join(problems)

    if figure != "en":
        # The font Chromium really drew a chart label with is a CJK font of this machine.
        page.evaluate(
            "(p) => { const r = new RegExp(p); const t = [...document.querySelectorAll("
            "'article svg.selfattn-chart text')].find((e) => r.test(e.textContent));"
            " t.setAttribute('data-cjk-probe', '1'); }",
            SCRIPT[figure],
        )
        fonts = platform_fonts(page, "[data-cjk-probe]")
        assert any(re.search(CJK_FONT, f["familyName"]) for f in fonts), fonts
    assert not reader.errors, reader.errors


@pytest.fixture
def phone(browser: Any) -> Iterator[Callable[[str], Any]]:
    """phone(url) -> a 375 px wide page, network closed but for 127.0.0.1."""
    contexts: list[Any] = []

    def open_page(address: str) -> Any:
        context = offline_context(browser, width=375)
        contexts.append(context)
        page = context.new_page()
        page.goto(address, wait_until="load")
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.mark.parametrize(("stem", "language"), PAGES, ids=PAGE_IDS)
def test_no_horizontal_overflow_at_375_px(
    base: str, phone: Callable[[str], Any], artifacts: Path, stem: str, language: str
) -> None:
    page = phone(base + url(stem, language))
    page.wait_for_function(WAIT_FOR_MERMAID, arg=MERMAIDS[stem, language], timeout=30_000)
    sizes = page.evaluate(
        "() => ({ page: document.documentElement.scrollWidth, body: document.body.scrollWidth,"
        " window: window.innerWidth })"
    )
    assert sizes["window"] == 375
    assert sizes["page"] <= sizes["window"], sizes
    assert sizes["body"] <= sizes["window"], sizes
    # Every figure fits the phone, scaled down or inside a box that scrolls sideways (a chart
    # kept wide enough to read), so the page itself never does.
    figures = page.evaluate(FIGURE_FIT)
    assert len([f for f in figures if f["chart"]]) == CHARTS[stem], figures
    outside = [f for f in figures if f["right"] > sizes["window"] + 1]
    assert not outside, outside
    if language == "zh":
        page.screenshot(path=str(artifacts / f"{stem}-phone.png"), full_page=True)


@pytest.mark.parametrize(("stem", "language"), PAGES, ids=PAGE_IDS)
def test_chart_words_stay_legible_at_375_px(
    base: str, phone: Callable[[str], Any], stem: str, language: str
) -> None:
    """On a phone a chart is either drawn wide enough to read (its box scrolls sideways) or
    scaled down into the column; scaled down, its words must still be 7 px or more."""
    page = phone(base + url(stem, language))
    page.wait_for_function(WAIT_FOR_MERMAID, arg=MERMAIDS[stem, language], timeout=30_000)
    charts = page.locator("article svg.selfattn-chart:visible")  # the phone drawing
    assert charts.count() == CHARTS[stem]
    small = {
        n + 1: found[:3]
        for n in range(charts.count())
        if (found := page.evaluate(CHART_TEXT_PX, charts.nth(n).element_handle()))
    }
    assert not small, f"chart words under 7 px at 375 px (chart: first three): {small}"
