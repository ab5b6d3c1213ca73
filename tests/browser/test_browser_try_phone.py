"""The try view at a phone's width and a desktop's, in both palettes, on the demo chapters in every
language (issue 24): the view fits its column (no sideways scroll of the page or of the view),
every touch target is at least 44 x 44 CSS px, and the live chart follows the built figures' rules
(text >= 14 SVG units and >= 11 CSS px, a left-aligned title clear of the edge, every text in
view and clear of other text and of the bars, colour roles with fills >= 3:1 against the page,
the top weight told by words as well as colour, shortened labels with their full text in a
<title>). A planted control proves each measurement can fail.

The demo chapters show no try view, so the site is a copy of the repository's course with one
``try`` block appended to each chapter page (targets, questions and heads, in zh, ko and en).
Screenshots of each view go to test-artifacts/try-phone/.
"""

from __future__ import annotations

import functools
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, Site, _QuietHandler, _Server, mkdocs_build, site_tab

from mkdocs_selfattn.render.try_view import view_words

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHAPTERS = "course/part-05/chapter-13"
LAYOUTS = {
    "questions": ("p5-13-1-attention", "manual"),
    "targets": ("p5-13-2-self-attention", "memo"),
    "heads": ("p5-13-3-qkv-multihead", "heads"),
}
LANGUAGES = {"zh": "", "ko": "ko/", "en": "en/"}


def _project(root: Path) -> Path:
    """The course's chapters, assets and scripts, its mkdocs.yml without the plugin's own docs,
    and a ``try`` block at the end of every chapter page."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    for part in ("course", "assets", "examples"):
        shutil.copytree(REPO / "docs" / part, docs / part)
    for index in (REPO / "docs").glob("index*.md"):
        # The home pages link the plugin's docs, which this copy leaves out.
        text = re.sub(r"\]\(plugin/[^)]*\)", "](index.md)", index.read_text(encoding="utf-8"))
        (docs / index.name).write_text(text, encoding="utf-8")
    yml = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    yml = yml.replace("  - selfattn\n", '  - selfattn:\n      cache_dir: ""\n')
    yml = re.sub(r"  - Plugin documentation:\n(      - .*\n)+", "", yml)
    (root / "mkdocs.yml").write_text(yml, encoding="utf-8")
    for stem, use in LAYOUTS.values():
        for page in (docs / CHAPTERS).glob(f"{stem}*.md"):
            block = f"\n\n## try\n\n```selfattn\nuse: {use}\nshow: [try]\n```\n"
            page.write_text(page.read_text(encoding="utf-8") + block, encoding="utf-8")
    return root / "mkdocs.yml"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    config = _project(tmp_path_factory.mktemp("try-phone-project"))
    root = tmp_path_factory.mktemp("try-phone-site")
    log = mkdocs_build(config, root)
    site = Site("try-phone", root, log)
    server = _Server(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site.root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture
def tab(browser: Any, served: str) -> Iterator[Callable[..., Any]]:
    """tab(language, layout, width, scheme) -> the chapter page with its try view ready."""
    contexts: list[Any] = []
    blocked: list[str] = []

    def open_tab(language: str, layout: str, width: int, scheme: str = "light") -> Any:
        stem = LAYOUTS[layout][0]
        page = site_tab(
            browser,
            served,
            f"{LANGUAGES[language]}{CHAPTERS}/{stem}/",
            contexts=contexts,
            blocked=blocked,
            width=width,
            color_scheme=scheme,
            service_workers="block",
        )
        page.wait_for_selector(".selfattn-try-ui [data-q=context]")
        # The palette's final colours, not a frame of Material's colour transitions.
        page.add_style_tag(content="*, *::before { transition: none !important; }")
        return page

    yield open_tab
    for context in contexts:
        context.close()
    assert blocked == [], f"requests beyond the site: {blocked}"


MEASURE = (Path(__file__).parent / "try_phone_measure.js").read_text(encoding="utf-8")


def _check(page: Any, report: dict[str, Any], width: int, top_word: str, heads: int = 1) -> None:
    assert report["page"][0] <= width, report["page"]
    assert report["overflow"] == []
    assert report["small"] == []
    assert report["chart"], "no live chart"
    for chart in report["chart"]:
        # Drawn at the width it is shown: one SVG unit is one CSS px.
        assert abs(chart["px"] - 1) < 0.02, chart
        assert min(chart["sizes"]) >= 14, chart["sizes"]
        assert chart["displayed"] >= 11, chart
        size, anchor, x, text = chart["title"]
        assert size >= (18 if width >= 480 else 16), chart["title"]
        assert anchor == "start", chart["title"]
        assert 4 <= x <= 24, chart["title"]  # left-aligned, clear of the edge
        assert text
        assert chart["outside"] == []
        # The top weight (of each head) in words as well as in the emphasis colour.
        assert len(chart["tops"]) == heads, chart["tops"]
        assert all(top.endswith(" · " + top_word) for top in chart["tops"]), chart["tops"]
        assert len(chart["fills"]) == (2 if chart["bars"] > 1 else 1), chart["fills"]
    low = [c for c in report["contrast"] if c[2] < (4.5 if c[0] == "text" else 3)]
    assert low == []
    assert report["overlap"] == []
    for shown, full in report["shortened"]:  # a wrapped title's lines join without spaces
        assert full, shown
        assert re.sub(r"\s", "", full).startswith(re.sub(r"\s", "", shown[:-1])), full
    assert page.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_view_fits_and_reads(
    tab: Callable[..., Any], artifacts: Path, language: str, layout: str, width: int, scheme: str
) -> None:
    page = tab(language, layout, width, scheme)
    report = page.evaluate(MEASURE)
    assert report["scheme"] == ("slate" if scheme == "dark" else "default")
    # Korean lines break at spaces only, never inside a word.
    word_break = page.evaluate(
        "() => getComputedStyle(document.querySelector('.selfattn-try-caption')).wordBreak"
    )
    assert word_break == ("keep-all" if language == "ko" else "normal")
    heads = 3 if layout == "heads" else 1  # given weights: one bar per head, each named
    _check(page, report, width, view_words(language, {})["top"], heads)
    shots = artifacts / "try-phone"
    shots.mkdir(exist_ok=True)
    page.add_style_tag(content=".md-header { display: none !important; }")
    page.locator(".selfattn-try-group").first.screenshot(
        path=shots / f"{language}-{layout}-{width}-{scheme}.png"
    )


def test_an_edit_and_a_narrower_window_keep_the_rules(tab: Callable[..., Any]) -> None:
    """An edited score marks its bar's label (" *", green: the input-change role) and the chart
    and tables follow the column when the window narrows (the chart is redrawn, tables stack)."""
    page = tab("en", "targets", 1280)
    assert page.locator(".selfattn-try-stacked").count() == 0
    box = page.locator('.selfattn-try [data-q=input][data-g="0"][data-i="0"]')
    box.fill("9")
    chart = page.locator(".selfattn-try-chart").first
    edited = chart.locator(".selfattn-try-baredited")
    assert edited.count() == 1
    assert (edited.text_content() or "").endswith(" *")
    page.set_viewport_size({"width": 375, "height": 900})
    page.wait_for_function(
        "() => Math.abs(document.querySelector('.selfattn-try-chart').viewBox.baseVal.width -"
        " document.querySelector('.selfattn-try-chart').getBoundingClientRect().width) < 1"
    )
    assert page.locator(".selfattn-try-stacked").count() > 0
    report = page.evaluate(MEASURE)
    _check(page, report, 375, view_words("en", {})["top"])
    # Every cell of a stacked table is named by its column, as text (no markup from the CSV).
    named = page.evaluate(
        "() => Array.from(document.querySelectorAll('.selfattn-try-stacked td'))"
        ".filter(td => !td.hasAttribute('colspan') && td.textContent !== '')"
        ".every(td => td.getAttribute('data-col'))"
    )
    assert named


PLANT = """
() => {
  const root = document.querySelector('.selfattn-try');
  const wide = document.createElement('div');
  wide.style.width = '2000px';
  wide.textContent = 'wide';
  root.querySelector('.selfattn-try-ui').appendChild(wide);
  const button = document.createElement('button');
  button.style.cssText = 'min-height: 0; min-width: 0; padding: 0; font-size: 10px';
  button.textContent = 'x';
  root.querySelector('.selfattn-try-bar').appendChild(button);
  const svg = root.querySelector('.selfattn-try-chart');
  const labels = svg.querySelectorAll('.selfattn-try-barlabel');
  labels[1].setAttribute('y', labels[0].getAttribute('y'));
  labels[1].setAttribute('x', labels[0].getAttribute('x'));
  labels[0].setAttribute('font-size', '9');
  svg.querySelector('.selfattn-try-charttitle').setAttribute('text-anchor', 'middle');
  svg.querySelector('rect').style.fill = '#eeeeee';
}
"""


def test_the_checks_can_fail(tab: Callable[..., Any]) -> None:
    """A planted wide block, a small button, overlapping and small labels, a centred title and a
    faint bar: each measurement reports its plant."""
    page = tab("en", "targets", 375)
    page.evaluate(PLANT)
    report = page.evaluate(MEASURE)
    assert report["page"][0] > 375 or report["overflow"]
    assert any(item[0] == "DIV" for item in report["overflow"])
    assert any(item[0] == "BUTTON" for item in report["small"])
    chart = report["chart"][0]
    assert min(chart["sizes"]) == 9
    assert chart["title"][1] == "middle"
    assert report["overlap"]
    assert any(c[0] == "rect" and c[2] < 3 for c in report["contrast"])
    with pytest.raises(AssertionError):
        _check(page, report, 375, view_words("en", {})["top"])


HOSTILE = """
() => {
  const root = document.querySelector('.selfattn-try');
  const data = JSON.parse(root.getAttribute('data-selfattn-data'));
  const bad = '<img src=x onerror="window.__pwned=1">_' + 'a_very_long_label_'.repeat(4);
  data.groups[0].label = bad;
  data.groups[0].rows.forEach(row => { row.label = bad; });
  data.columns = data.columns.map(() => '<b onmouseover="window.__pwned=1">x</b>');
  const copy = document.createElement('div');
  copy.className = 'selfattn-try';
  copy.setAttribute('data-selfattn-try', '');
  copy.setAttribute('data-selfattn-data', JSON.stringify(data));
  root.after(copy);
  window.selfattnTry.scan();
  return new Promise(r => setTimeout(() => r({
    markup: copy.querySelectorAll('img, b').length,
    pwned: window.__pwned === 1,
    chart: Array.from(copy.querySelectorAll('.selfattn-try-chart title')).map(t => t.textContent),
    cols: Array.from(copy.querySelectorAll('td[data-col]')).map(td => td.getAttribute('data-col')),
  }), 200));
}
"""


def test_csv_text_stays_text(tab: Callable[..., Any]) -> None:
    """Labels and column names that look like markup are drawn as text (textContent and
    attributes only), in the chart's <title>s and the stacked tables' column names alike; the
    long label is shortened in the chart with its full text in a <title>."""
    page = tab("en", "targets", 375)
    got = page.evaluate(HOSTILE)
    assert got["markup"] == 0
    assert not got["pwned"]
    assert any(t.startswith('<img src=x onerror="window.__pwned=1">') for t in got["chart"])
    assert any(c.startswith("<b onmouseover=") for c in got["cols"])
    report = page.evaluate(MEASURE)
    _check(page, report, 375, view_words("en", {})["top"])


def test_a_refusal_on_a_phone(tab: Callable[..., Any]) -> None:
    """Given weights that no longer sum to 1: the refusal and its rescale button fit the phone's
    column and the button is a 44 px target; the chart steps aside (no numbers, no bars)."""
    page = tab("ko", "heads", 375, "dark")
    page.locator('.selfattn-try [data-q=input][data-g="0"][data-h="1"][data-i="0"]').fill("0.9")
    refusal = page.locator(".selfattn-try-refused").first
    refusal.wait_for()
    assert page.locator(".selfattn-try-rescale").first.is_visible()
    report = page.evaluate(MEASURE)
    assert report["page"][0] <= 375
    assert report["overflow"] == []
    assert report["small"] == []
    assert report["chart"] == []  # hidden while the build would refuse the file
    page.locator(".selfattn-try-rescale").first.click()
    page.wait_for_selector(".selfattn-try-chart", state="visible")
    _check(page, page.evaluate(MEASURE), 375, view_words("ko", {})["top"], heads=3)
