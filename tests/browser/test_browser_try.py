"""The try view in Chromium: every number it shows after an edit is the core's number for the
edited CSV, formatted as the other views format it; reset, download, instant navigation, both
palettes, a phone's width; and the timings the issue asks to report.

Measurements (input event → updated page, the script's size) go to test-artifacts/try-metrics.json.
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import json
import math
import random
import statistics
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import COURSE_CSV, Site, _QuietHandler, _Server, mkdocs_build, site_tab

from mkdocs_selfattn.core.csv_read import parse_table
from mkdocs_selfattn.core.document_results import compute_targets
from mkdocs_selfattn.core.portable_exp import OVERFLOW, UNDERFLOW, exp_scalar
from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.core.results import DocumentResult, document_of
from mkdocs_selfattn.render.labels import Labels, format_value, py_round
from mkdocs_selfattn.render.try_view import view_words

pytestmark = [pytest.mark.browser, pytest.mark.slow]

JS = Path(__file__).resolve().parents[2] / "mkdocs_selfattn/assets/try/selfattn-try.js"
DISPLAY = {"배터리팩": "电池包", "분리": "分离", "절연캡": "绝缘帽", "씌우지": "未套上"}
DISPLAY |= {"그것": "它", "위험": "风险"}
GROUPS = {"cap_plus_not_applied": ["절연캡", "씌우지"]}


class Example:
    """One block of the test site, and the core's numbers for any version of its CSV."""

    def __init__(self, csv_bytes: bytes, document: str, targets: list[str], **kw: Any) -> None:
        self.csv_bytes = csv_bytes
        self.document = document
        self.targets = targets
        self.display: dict[str, str] = kw.get("display", {})
        self.groups: dict[str, list[str]] = kw.get("groups", {})
        self.number_format: str | None = kw.get("number_format")
        text = csv_bytes.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text, newline="")))
        self.header, self.rows = rows[0], rows[1:]
        self.score_col = self.header.index("score")
        # (group, candidate) -> data row, as the view numbers them
        self.row_of: dict[tuple[int, int], int] = {}
        for g, target in enumerate(targets):
            mine = [r for r, row in enumerate(self.rows) if row[0] == document and row[1] == target]
            for i, r in enumerate(mine):
                self.row_of[(g, i)] = r

    def edited(self, scores: dict[tuple[int, int], str]) -> bytes:
        rows = [list(r) for r in self.rows]
        for key, value in scores.items():
            rows[self.row_of[key]][self.score_col] = value
        out = io.StringIO(newline="")
        csv.writer(out, lineterminator="\n").writerows([self.header, *rows])
        return out.getvalue().encode()

    def result(self, csv_bytes: bytes, temperature: float) -> ReadingResult:
        table = parse_table(csv_bytes, source="edited.csv")
        return compute_targets(
            table,
            self.document,
            targets=self.targets,
            groups=self.groups,
            temperature=temperature,
        )

    def expected(
        self, record: ReadingResult, result: DocumentResult | None = None
    ) -> dict[str, str]:
        """What the page must show, keyed as the view's data-q cells are: the record's numbers,
        or ``result``'s (the same example read back from elsewhere) with the record's labels."""
        labels = Labels(self.display).for_result(record)
        result = document_of(record) if result is None else result
        words = view_words("zh", {})
        out: dict[str, str] = {}
        for g, target in enumerate(result.targets):
            for i, cand in enumerate(target.candidates):
                out[f"weight/{g}/0/{i}"] = format_value(cand.weight, self.number_format)
            for a, v in enumerate(target.context):
                out[f"context/{g}/0/{a}"] = py_round(v)
            for a, v in enumerate(target.shift):
                out[f"shift/{g}/0/{a}"] = py_round(v)
            for a, v in enumerate(result.baseline):
                out[f"baseline/{g}/0/{a}"] = py_round(v)
            parts = [f"{words['top']}: {labels(target.top, target.top_index)}"]
            parts += [
                f"{labels(n)}: {format_value(w, self.number_format)}" for n, w in target.groups
            ]
            out[f"summary/{g}"] = " · " + " · ".join(parts)
        return out

    def full_precision(self, record: ReadingResult) -> dict[str, float]:
        out: dict[str, float] = {}
        for g, target in enumerate(document_of(record).targets):
            for i, cand in enumerate(target.candidates):
                out[f"weight/{g}/0/{i}"] = cand.weight
            for a, v in enumerate(target.context):
                out[f"context/{g}/0/{a}"] = v
        return out


def _big_csv(n: int) -> bytes:
    rng = random.Random(200)
    lines = ["document_id,target_token,candidate_token,candidate_role,v1,v2,v3,score"]
    for k in range(n):
        vec = ",".join(str(round(rng.uniform(-1, 1), 2)) for _ in range(3))
        lines.append(f"big,t,c{k:03d},r{k % 7},{vec},{round(rng.uniform(-3, 3), 2)}")
    return ("\n".join(lines) + "\n").encode()


MEMO = Example(
    COURSE_CSV.read_bytes(), "memo_cap_missing", ["그것", "씌우지"], display=DISPLAY, groups=GROUPS
)
BIG = Example(_big_csv(200), "big", ["t"])
PERCENT = Example(COURSE_CSV.read_bytes(), "memo_cap_missing", ["그것"], number_format=".1%")

YML = """\
site_name: try fixture
site_url: http://127.0.0.1:PORT/
theme:
  name: material
  language: zh
  font: false
  features: [navigation.instant]
  palette:
    - scheme: default
      toggle: {icon: material/weather-night, name: dark}
    - scheme: slate
      toggle: {icon: material/weather-sunny, name: light}
markdown_extensions:
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
plugins:
  - selfattn:
      cache_dir: ""
nav: [memo.md, other.md, big.md, percent.md]
"""

MEMO_MD = """\
# 备忘录

```selfattn
id: memo
csv: memo.csv
document: memo_cap_missing
targets: [그것, 씌우지]
display: {배터리팩: 电池包, 분리: 分离, 절연캡: 绝缘帽, 씌우지: 未套上, 그것: 它, 위험: 风险}
groups: {cap_plus_not_applied: [절연캡, 씌우지]}
show: [table, try]
```

[另一页](other.md)
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    """The site, built for the address it is served at: Material's instant navigation only
    takes over links it finds in sitemap.xml, whose URLs keep site_url's port."""
    server = _Server(("127.0.0.1", 0), _QuietHandler)
    port = server.server_address[1]
    site = _build(tmp_path_factory, port)
    server.RequestHandlerClass = functools.partial(_QuietHandler, directory=str(site.root))  # type: ignore[assignment]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield site, f"http://127.0.0.1:{port}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


def _build(tmp_path_factory: pytest.TempPathFactory, port: int) -> Site:
    project = tmp_path_factory.mktemp("try-project")
    docs = project / "docs"
    docs.mkdir()
    (docs / "memo.csv").write_bytes(MEMO.csv_bytes)
    (docs / "big.csv").write_bytes(BIG.csv_bytes)
    (docs / "memo.md").write_text(MEMO_MD, encoding="utf-8")
    (docs / "other.md").write_text("# 另一页\n\n[回到备忘录](memo.md)\n", encoding="utf-8")
    (docs / "big.md").write_text(
        "# big\n\n```selfattn\ncsv: big.csv\ndocument: big\nshow: [try]\n```\n", encoding="utf-8"
    )
    (docs / "percent.md").write_text(
        "# percent\n\n```selfattn\ncsv: memo.csv\ndocument: memo_cap_missing\n"
        "targets: [그것]\nnumber_format: '.1%'\ntext: {score: logit, reset: 重来}\n"
        "show: [try]\n```\n",
        encoding="utf-8",
    )
    (project / "mkdocs.yml").write_text(YML.replace("PORT", str(port)), encoding="utf-8")
    root = tmp_path_factory.mktemp("try-site")
    log = mkdocs_build(project / "mkdocs.yml", root)
    return Site("try", root, log)


@pytest.fixture
def tab(browser: Any, served: tuple[Site, str]) -> Iterator[Callable[..., Any]]:
    """tab(url, width=1280) -> a page on the served site with the network beyond it closed."""
    base = served[1]
    contexts: list[Any] = []
    blocked: list[str] = []

    def open_tab(url: str, width: int = 1280, **options: Any) -> Any:
        page = site_tab(
            browser,
            base,
            url,
            contexts=contexts,
            blocked=blocked,
            width=width,
            accept_downloads=True,
            **options,
        )
        return page

    yield open_tab
    for context in contexts:
        context.close()
    assert blocked == [], f"requests beyond the site: {blocked}"


READ = """
() => Object.fromEntries(Array.from(document.querySelectorAll(
  '.selfattn-try [data-q]:not([data-q=input]):not([data-q=slider])')).map(el => {
    const d = el.dataset;
    const key = d.q === 'summary' ? `summary/${d.g}` : `${d.q}/${d.g}/${d.h}/${d.i ?? d.a}`;
    return [key, el.textContent];
}))
"""
READ_FULL = """
() => Object.fromEntries(Array.from(document.querySelectorAll(
  '.selfattn-try [data-v]')).map(el => {
    const d = el.dataset;
    return [`${d.q}/${d.g}/${d.h}/${d.i ?? d.a}`, Number(d.v)];
}))
"""


def _ready(page: Any) -> None:
    page.wait_for_selector(".selfattn-try-ui [data-q=weight]")


def _check(page: Any, example: Example, scores: dict[tuple[int, int], str], t: float) -> None:
    """Every displayed number equals the core's, and so does every unrounded value, bit for bit:
    the page's exp is the core's portable exp, not the browser's Math.exp."""
    result = example.result(example.edited(scores), t)
    shown = page.evaluate(READ)
    assert shown == example.expected(result)
    full = page.evaluate(READ_FULL)
    core = example.full_precision(result)
    key = f"{example.document}_full_precision_values_compared"
    METRICS[key] = METRICS.get(key, 0) + len(core)
    differing = {
        k: (full.get(k), v) for k, v in core.items() if k not in full or _bits(full[k]) != _bits(v)
    }
    assert differing == {}


def _bits(value: float) -> bytes:
    return struct.pack("<d", float(value))


def _score_input(page: Any, g: int, i: int) -> Any:
    return page.locator(f'.selfattn-try [data-q=input][data-g="{g}"][data-i="{i}"]').first


def _slider(page: Any, g: int, i: int) -> Any:
    return page.locator(f'.selfattn-try [data-q=slider][data-g="{g}"][data-i="{i}"]').first


def _temperature(page: Any) -> Any:
    return page.locator(".selfattn-try-bar input[type=number]").first


METRICS: dict[str, Any] = {}


def test_edits_match_the_core_and_the_downloaded_csv_runs(
    tab: Callable[..., Any], tmp_path: Path
) -> None:
    page = tab("memo/")
    _ready(page)
    scores: dict[tuple[int, int], str] = {}
    t = 1.0
    _check(page, MEMO, scores, t)  # the initial state: the core's own numbers
    # Fixed edits: typing, a tie, a negative, a large value, the temperature.
    for (g, i), value in [((0, 0), "2.4"), ((0, 1), "-3.25"), ((1, 2), "40"), ((1, 0), "1e-3")]:
        box = _score_input(page, g, i)
        box.fill("")
        box.press_sequentially(value)
        scores[(g, i)] = value
        _check(page, MEMO, scores, t)
    for key in ["ArrowRight", "ArrowRight", "ArrowUp", "ArrowLeft", "PageUp", "End"]:
        _slider(page, 0, 3).press(key)
        scores[(0, 3)] = _score_input(page, 0, 3).input_value()
        _check(page, MEMO, scores, t)
    _temperature(page).fill("0.5")
    t = 0.5
    _check(page, MEMO, scores, t)

    rng = random.Random(15)
    edits = 0
    for _ in range(120):
        kind = rng.random()
        g, i = rng.randrange(2), rng.randrange(6)
        if kind < 0.55:
            value = repr(round(rng.uniform(-6, 6), rng.choice([0, 1, 2, 3, 6])))
            _score_input(page, g, i).fill(value)
            scores[(g, i)] = value
        elif kind < 0.85:
            _slider(page, g, i).press(rng.choice(["ArrowRight", "ArrowLeft", "ArrowUp", "Home"]))
            scores[(g, i)] = _score_input(page, g, i).input_value()
        else:
            t = round(rng.uniform(0.05, 4), rng.choice([1, 2, 3]))
            _temperature(page).fill(repr(t))
        _check(page, MEMO, scores, t)
        edits += 1
    METRICS["memo_random_edits"] = edits

    with page.expect_download() as info:
        page.locator(".selfattn-try-download").first.click()
    path = tmp_path / "edited.csv"
    info.value.save_as(path)
    downloaded = path.read_bytes()
    # Same file but the edited cells: every other byte of every row as the author saved it.
    original = MEMO.csv_bytes.decode().split("\n")
    lines = downloaded.decode().split("\n")
    assert len(lines) == len(original)
    edited_rows = {MEMO.row_of[k] + 1 for k in scores}
    for n, (a, b) in enumerate(zip(original, lines, strict=True)):
        if n not in edited_rows:
            assert a == b
            continue
        before, after = a.split(","), b.split(",")
        key = next(k for k, r in MEMO.row_of.items() if r + 1 == n)
        assert float(after[MEMO.score_col]) == float(scores[key])
        del before[MEMO.score_col], after[MEMO.score_col]
        assert before == after
    cli = subprocess.run(
        [sys.executable, "-m", "mkdocs_selfattn", "run", str(path), "--document", MEMO.document]
        + [arg for target in MEMO.targets for arg in ("--target", target)]
        + ["--group", "cap_plus_not_applied=절연캡,씌우지", "--temperature", repr(t)]
        + ["--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    from mkdocs_selfattn.core.record_form import from_plain

    from_cli = from_plain(DocumentResult, json.loads(cli.stdout))
    record = MEMO.result(MEMO.edited(scores), t)
    assert page.evaluate(READ) == MEMO.expected(record, from_cli)
    assert from_cli.targets == document_of(record).targets

    page.locator(".selfattn-try-reset").first.click()
    _check(page, MEMO, {}, 1.0)
    assert _score_input(page, 0, 0).input_value() == "0.2"
    assert _temperature(page).input_value() == "1"
    assert page.errors == []


def test_number_format_percent(tab: Callable[..., Any]) -> None:
    page = tab("percent/")
    _ready(page)
    # The block's text: replaces the view's own words.
    assert "logit" in page.locator(".selfattn-try-table th").all_inner_texts()
    assert page.locator(".selfattn-try-reset").inner_text() == "重来"
    scores: dict[tuple[int, int], str] = {}
    _check(page, PERCENT, scores, 1.0)
    rng = random.Random(3)
    for _ in range(20):
        i = rng.randrange(6)
        value = repr(round(rng.uniform(-4, 4), 2))
        _score_input(page, 0, i).fill(value)
        scores[(0, i)] = value
        _check(page, PERCENT, scores, 1.0)


def test_instant_navigation_reinitialises(tab: Callable[..., Any]) -> None:
    page = tab("memo/")
    _ready(page)
    page.wait_for_load_state("networkidle")  # instant navigation starts once it has the sitemap
    page.evaluate("() => { window.__sameDocument = true; }")
    page.get_by_role("article").get_by_role("link", name="另一页").click()
    page.wait_for_url("**/other/")
    page.wait_for_selector("article h1:text('另一页')")
    assert page.locator(".selfattn-try").count() == 0
    page.get_by_role("article").get_by_role("link", name="回到备忘录").click()
    page.wait_for_url("**/memo/")
    _ready(page)
    # The page was swapped in, not loaded: navigation.instant was at work.
    assert page.evaluate("() => window.__sameDocument") is True
    assert page.locator(".selfattn-try-ui").count() == 1
    _score_input(page, 0, 2).fill("-1")
    _check(page, MEMO, {(0, 2): "-1"}, 1.0)
    assert page.errors == []


CONTRAST = """
() => {
  const rgb = s => {
    const m = s.match(/[\\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const lum = c => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const background = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] === 1) break;
    }
    let out = [255, 255, 255];
    for (const c of layers.reverse()) out = out.map((v, k) => c[k] * c[3] + v * (1 - c[3]));
    return out; };
  const worst = [];
  for (const el of document.querySelectorAll('.selfattn-try-ui *')) {
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    const isInput = el.tagName === 'INPUT' && el.type === 'number';
    if (!own && !isInput) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || el.closest('.selfattn-try-sr')) continue;
    const svgText = el instanceof SVGElement;
    let fg = rgb(svgText ? style.fill : style.color);
    const bg = background(svgText ? el.closest('svg').parentElement : el);
    fg = fg.map((v, k) => k < 3 ? v * fg[3] + bg[k] * (1 - fg[3]) : 1);
    const a = lum(fg), b = lum(bg);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    worst.push([ratio, el.tagName, el.textContent.slice(0, 20)]);
  }
  worst.sort((x, y) => x[0] - y[0]);
  return worst.slice(0, 3);
}
"""


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_both_palettes_have_readable_text(tab: Callable[..., Any], scheme: str) -> None:
    page = tab("memo/")
    _ready(page)
    # The palette's final colours, not a frame of Material's colour transitions.
    page.add_style_tag(content="*, *::before { transition: none !important; }")
    page.evaluate(f"() => document.body.setAttribute('data-md-color-scheme', '{scheme}')")
    worst = page.evaluate(CONTRAST)
    METRICS[f"min_contrast_{scheme}"] = round(worst[0][0], 2)
    assert worst[0][0] >= 4.5, worst


def test_phone_width_and_keyboard(tab: Callable[..., Any]) -> None:
    page = tab("memo/", width=375)
    _ready(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    # Keyboard only: tab to the first score box, type, tab to its slider, arrow.
    _temperature(page).focus()
    for _ in range(3):  # temperature → reset → download → first score box
        page.keyboard.press("Tab")
    focused = page.evaluate("() => document.activeElement.dataset.q")
    assert focused == "input"
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.q") == "slider"
    page.keyboard.press("ArrowRight")
    value = _score_input(page, 0, 0).input_value()
    _check(page, MEMO, {(0, 0): value}, 1.0)
    # Every control has a name a screen reader announces.
    names = page.evaluate(
        "() => Array.from(document.querySelectorAll('.selfattn-try input')).map(e =>"
        " (e.labels && e.labels.length ? e.labels[0].textContent : e.getAttribute('aria-label')))"
    )
    assert all(names)
    assert len(names) == 1 + 2 * 12
    assert page.locator(".selfattn-try [aria-live=polite]").count() == 2
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375


def test_without_javascript_the_note_shows(tab: Callable[..., Any]) -> None:
    page = tab("memo/", java_script_enabled=False)
    note = page.locator(".selfattn-try-nojs")
    assert note.is_visible()
    assert note.inner_text() == view_words("zh", {})["nojs"]
    assert page.locator("table").count() >= 2  # the static table view is there
    assert page.locator("a.selfattn-try-json").get_attribute("href")


TIME_INPUT = """
async ([selector, values]) => {
  const box = document.querySelector(selector);
  const frame = [], handler = [];
  for (const v of values) {
    const t0 = performance.now();
    box.value = v;
    box.dispatchEvent(new Event('input', {bubbles: true}));
    handler.push(performance.now() - t0);  // the view updates the DOM inside the handler
    await new Promise(r => requestAnimationFrame(() => r()));
    frame.push(performance.now() - t0);
  }
  return [frame, handler];
}
"""


def test_measure_update_time_and_script_size(tab: Callable[..., Any], artifacts: Path) -> None:
    values = [repr(round(0.1 * k - 2, 1)) for k in range(41)]
    for name, url, n in [("6", "memo/", 6), ("200", "big/", 200)]:
        page = tab(url)
        _ready(page)
        selector = '.selfattn-try [data-q=input][data-g="0"][data-i="1"]'
        frame, handler = page.evaluate(TIME_INPUT, [selector, values])
        METRICS[f"input_to_frame_ms_{name}_candidates_median"] = round(statistics.median(frame), 2)
        METRICS[f"input_to_frame_ms_{name}_candidates_max"] = round(max(frame), 2)
        METRICS[f"handler_ms_{name}_candidates_median"] = round(statistics.median(handler), 3)
        example = MEMO if n == 6 else BIG
        _check(page, example, {(0, 1): values[-1]}, 1.0)
        # The chart shows at most 30 bars and sums the rest on one line.
        assert page.locator(".selfattn-try-chart").first.locator("rect").count() == min(n, 30)
        if n > 30:
            rest = page.locator(".selfattn-try-chart > text").last.text_content() or ""
            assert rest.startswith(f"+ {n - 30} · ")
    data = JS.read_bytes()
    METRICS["script_bytes"] = len(data)
    METRICS["script_gzip_bytes"] = len(gzip.compress(data, 9))
    METRICS["stylesheet_bytes"] = len(JS.with_suffix(".css").read_bytes())
    (artifacts / "try-metrics.json").write_text(json.dumps(METRICS, indent=2) + "\n")
    print(json.dumps(METRICS, indent=2))
    assert METRICS["script_bytes"] > 0


def _formats(values: list[float]) -> dict[str, list[str]]:
    return {
        "round": [py_round(v) for v in values],
        ".3f": [format(v, ".3f") for v in values],
        ".1%": [format(v, ".1%") for v in values],
        ".0f": [format(v, ".0f") for v in values],
    }


def test_number_formatting_is_pythons(tab: Callable[..., Any]) -> None:
    """Ties (k/16, x.5), signs, zeros and large values, as repr(round(x, 3)) and format()."""
    page = tab("memo/")
    _ready(page)
    rng = random.Random(7)
    values = [k / 16 for k in range(-40, 41)] + [k + 0.5 for k in range(-5, 6)]
    values += [0.0, -0.0, -0.0001, 0.0005, 1e-7, 123456789.0, 1e15 + 0.3, 1e16, 3e20, -2.5e17]
    values += [0.00125, 0.01875, 0.9995, 1.0005, 2.675, 1.0]
    values += [rng.uniform(-10, 10) for _ in range(300)] + [rng.random() for _ in range(300)]
    shown = page.evaluate(
        """(values) => ({
            round: values.map(v => window.selfattnTry.formatRound(v)),
            '.3f': values.map(v => window.selfattnTry.formatValue(v, '.3f')),
            '.1%': values.map(v => window.selfattnTry.formatValue(v, '.1%')),
            '.0f': values.map(v => window.selfattnTry.formatValue(v, '.0f')),
        })""",
        values,
    )
    expected = _formats(values)  # Playwright passes -0.0 through as -0
    for name, got in shown.items():
        wrong = [(v, g, e) for v, g, e in zip(values, got, expected[name], strict=True) if g != e]
        assert wrong == [], name


def test_exp_is_the_cores_bit_for_bit(tab: Callable[..., Any]) -> None:
    """The page's exp against ``exp_scalar`` (which the core's numpy exp equals bit for bit):
    every branch, subnormal results, the thresholds and the special values."""
    page = tab("memo/")
    _ready(page)
    rng = random.Random(1015)
    values = [rng.uniform(-746, 711) for _ in range(4000)]
    values += [rng.uniform(-745.2, -708) for _ in range(1000)]
    values += [rng.uniform(-40, 0) for _ in range(3000)] + [
        rng.uniform(-1.1, 1.1) for _ in range(1000)
    ]
    values += [rng.uniform(-1e-8, 1e-8) for _ in range(200)]
    edges = [OVERFLOW, UNDERFLOW, 0.5 * math.log(2), 1.5 * math.log(2), 2.0**-28, 1.0]
    edges += [-1021.5 * math.log(2), 1023.5 * math.log(2)]
    for edge in edges:
        for x in (edge, -edge):
            values += [math.nextafter(x, -math.inf), x, math.nextafter(x, math.inf)]
    values += [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 1e308, -1e308]
    got = page.evaluate("(values) => values.map(v => window.selfattnTry.exp(v))", values)
    wrong = [(x, g) for x, g in zip(values, got, strict=True) if _bits(g) != _bits(exp_scalar(x))]
    assert wrong == []
    METRICS["exp_values_compared_bit_for_bit"] = len(values)


GENERIC = {
    # A P5-13.3-like group: three heads with given weights, vectors projected on two axes (the
    # second the sum of two columns), the first head the reference. No softmax, so every value
    # must agree with plain Python to the last bit.
    "named": [{"name": "decision", "members": ["a"]}],
    "top": 2,
    "axes": [{"name": "x", "columns": [0]}, {"name": "yz", "columns": [1, 2]}],
    "tolerance": 1e-9,  # the given weights' sum rule, as the core checks it
    "normalise": False,
}


def _generic_case(rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    rows = [{"token": t, "vector": [rng.uniform(-2, 2) for _ in range(3)]} for t in "abc"]
    heads = []
    for _ in range(3):
        raw = [rng.random() for _ in range(3)]
        heads.append([w / sum(raw) for w in raw])
    heads[1] = [0.5, 0.25, 0.25]  # a tie for the top-2 order (still summing to 1)
    projected = [[r["vector"][0], sum([r["vector"][1], r["vector"][2]])] for r in rows]
    contexts = [[sum(w[i] * projected[i][a] for i in range(3)) for a in range(2)] for w in heads]
    diffs = [[c[a] - contexts[0][a] for a in range(2)] for c in contexts[1:]]
    pairs = [(0, 1), (0, 2), (1, 2)]
    sep = [
        math.sqrt(
            sum(
                (contexts[x][a] - contexts[y][a]) * (contexts[x][a] - contexts[y][a])
                for a in range(2)
            )
        )
        for x, y in pairs
    ]
    tops = [sorted(range(3), key=lambda i, w=w: (-w[i], i))[:2] for w in heads]
    group = {
        "rows": rows,
        "baseline": [0.25, -0.5],
        "reference": 0,
        "heads": [{"name": f"h{k}", "mode": "given", "values": w} for k, w in enumerate(heads)],
    }
    expected = {
        "contexts": contexts,
        "shifts": [[c[0] - 0.25, c[1] + 0.5] for c in contexts],
        "differences": diffs,
        "separation": sep,
        "tops": tops,
        "named": [[w[0]] for w in heads],
    }
    return group, expected


def test_generic_engine_given_weights_axes_and_separations(tab: Callable[..., Any]) -> None:
    page = tab("memo/")
    _ready(page)
    rng = random.Random(13)
    for _ in range(50):
        group, expected = _generic_case(rng)
        out = page.evaluate(
            """([data, group]) => {
                const projected = window.selfattnTry.project(data, group);
                const values = group.heads.map(h => h.values);
                return window.selfattnTry.computeGroup(data, group, projected, values, 1, false);
            }""",
            [GENERIC, group],
        )
        assert [h["context"] for h in out["heads"]] == expected["contexts"]
        assert [h["shift"] for h in out["heads"]] == expected["shifts"]
        assert [d["values"] for d in out["differences"]] == expected["differences"]
        assert [(s["a"], s["b"]) for s in out["separations"]] == [(0, 1), (0, 2), (1, 2)]
        assert [s["value"] for s in out["separations"]] == expected["separation"]
        assert [h["top"] for h in out["heads"]] == expected["tops"]
        assert [h["named"] for h in out["heads"]] == expected["named"]
