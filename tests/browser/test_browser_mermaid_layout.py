"""The plugin's mermaid diagrams as readers see them, measured in Chromium at 1280 and 375 px, in
the light and the dark palette: at most three boxes side by side, the box text as large as the
page's other diagrams on a desktop (16 px) and at least 11 px on a phone, and every diagram
within its column. Over every chapter page of the demo in every language, and over a probe site
with five targets, five questions and four heads.

Only the plugin's own diagrams are held to this (their boxes carry its classes); the authors'
hand-written diagrams are reported by the figure-rules audit.
"""

from __future__ import annotations

import csv
import io
import shutil
import textwrap
from collections.abc import Callable
from typing import Any

import pytest
from conftest import REPO, Site, mkdocs_build

CHAPTERS = [
    f"{lang}course/part-05/chapter-13/{page}/"
    for lang in ("", "ko/", "en/")
    for page in ("p5-13-1-attention", "p5-13-2-self-attention", "p5-13-3-qkv-multihead")
]
ASSETS = REPO / "docs/assets/part-05/chapter-13"
WIDTHS = [(1280, 15.5), (375, 11.0)]
"""Viewport width and the smallest text a plugin diagram may show there, in CSS px."""
SCHEMES = ["light", "dark"]

WAIT = """
() => document.querySelectorAll("article pre.mermaid").length === 0
  && [...document.querySelectorAll("article div.mermaid")].every(
       (h) => h.shadowRoot && h.shadowRoot.querySelector("svg g.node"))
"""

MEASURE = """
() => {
  const article = document.querySelector("article.md-content__inner");
  const column = article.getBoundingClientRect().width;
  return [...article.querySelectorAll("div.mermaid")].map((host) => {
    const svg = host.shadowRoot.querySelector("svg");
    const view = svg.viewBox.baseVal;
    const shown = svg.getBoundingClientRect();
    const scale = shown.width / view.width;
    const nodes = [...svg.querySelectorAll("g.node")].map((n) => {
      const b = n.getBoundingClientRect();
      const label = n.querySelector(".nodeLabel") || n;
      return {
        top: b.top, bottom: b.bottom, left: b.left, right: b.right,
        px: parseFloat(getComputedStyle(label).fontSize) * scale,
        text: label.textContent.slice(0, 40),
      };
    });
    let side = 0;
    for (const a of nodes) {
      const y = (a.top + a.bottom) / 2;
      side = Math.max(side, nodes.filter((b) => b.top < y && b.bottom > y).length);
    }
    return {
      plugin: !!svg.querySelector("g.node.input, g.node.target, g.node.weight, g.node.result"),
      column, natural: view.width, shown: shown.width, left: shown.left, right: shown.right,
      columnLeft: article.getBoundingClientRect().left,
      side, smallest: Math.min(...nodes.map((n) => n.px)),
      first: nodes.length ? nodes[0].text : "",
    };
  });
}
"""


def _five_targets_csv() -> str:
    """The memo's document with five target tokens, each re-reading the same six candidates."""
    rows = list(
        csv.reader(
            io.StringIO(
                (ASSETS / "self-attention-safety-memo-candidates.csv").read_text(encoding="utf-8")
            )
        )
    )
    base = [r for r in rows[1:] if r[0] == "memo_cap_missing" and r[1] == "그것"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(rows[0])
    for k, target in enumerate(["그것", "씌우지", "절연캡", "분리", "위험"]):
        for row in base:
            writer.writerow([row[0], target, *row[2:-1], f"{float(row[-1]) + 0.1 * k:.2f}"])
    return out.getvalue()


PROBE_YML = """\
site_name: selfattn mermaid probe
theme:
  name: material
  palette:
    - media: "(prefers-color-scheme: light)"
      scheme: default
      toggle: {icon: material/weather-night, name: dark}
    - media: "(prefers-color-scheme: dark)"
      scheme: slate
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
"""

PROBE_PAGES = {
    "targets": """
        csv: five.csv
        document: memo_cap_missing
        targets: [그것, 씌우지, 절연캡, 분리, 위험]
        show: [mermaid]
    """,
    "questions": """
        csv: attention-operating-manual-candidates.csv
        columns: {candidate: line_id, role: section}
        vectors: [evidence_signal]
        queries:
          "What is the pressure-release holding time?": score_pressure_hold
          "What is the coolant-flow criterion?": score_flow_limit
          "What are the restart approval conditions?": score_restart_permission
          "압력 유지 시간을 다시 묻기": score_pressure_hold
          "复核冷却水流量": score_flow_limit
        show: [mermaid]
    """,
    "heads": """
        csv: qkv-multihead-report-scenarios.csv
        columns: {document: report_id, group: scenario, candidate: token, role: relation_role}
        document: ops_pressure_return
        heads: {single_head: single_weight, head1: head1_weight, head2: head2_weight,
                head3: single_weight}
        axes: {decision_axis: [decision_axis], evidence_axis: [evidence_axis, condition_axis]}
        show: [mermaid]
    """,
}
PROBE_URLS = [f"{name}-{lang}/" for name in PROBE_PAGES for lang in ("en", "ko", "zh")]


@pytest.fixture(scope="module")
def probe_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """Five targets, five questions, four heads; each page in English, Korean and Chinese."""
    project = tmp_path_factory.mktemp("mermaid-probe")
    docs = project / "docs"
    docs.mkdir()
    for name in ("attention-operating-manual-candidates.csv", "qkv-multihead-report-scenarios.csv"):
        shutil.copyfile(ASSETS / name, docs / name)
    (docs / "five.csv").write_text(_five_targets_csv(), encoding="utf-8")
    for name, body in PROBE_PAGES.items():
        block = "```selfattn\n" + textwrap.dedent(body).strip() + "\n```\n"
        for lang in ("en", "ko", "zh"):
            page = f"---\nselfattn_language: {lang}\n---\n# {name}\n\n{block}"
            (docs / f"{name}-{lang}.md").write_text(page, encoding="utf-8")
    (project / "mkdocs.yml").write_text(PROBE_YML, encoding="utf-8")
    root = tmp_path_factory.mktemp("mermaid-probe-site")
    log = mkdocs_build(project / "mkdocs.yml", root)
    assert "WARNING" not in log, log
    return Site("mermaid-probe", root, log)


def _measure(reader: Any, url: str, width: int) -> list[dict[str, Any]]:
    page = reader.page
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url, wait_until="load")
    page.wait_for_function(WAIT, timeout=60_000)
    figures: list[dict[str, Any]] = page.evaluate(MEASURE)
    return figures


def _check(figures: list[dict[str, Any]], where: str, smallest: float) -> list[str]:
    problems = []
    for n, f in enumerate(figures):
        if not f["plugin"]:
            continue
        name = f"{where} diagram {n + 1} ({f['first']!r})"
        if f["side"] > 3:
            problems.append(f"{name}: {f['side']} boxes side by side")
        if f["smallest"] < smallest:
            problems.append(
                f"{name}: text {f['smallest']:.1f} px < {smallest} "
                f"(natural width {f['natural']:.0f}, shown {f['shown']:.0f} in {f['column']:.0f})"
            )
        if f["shown"] > f["column"] + 1:
            problems.append(f"{name}: {f['shown']:.0f} px wide in a {f['column']:.0f} px column")
    return problems


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "smallest"), WIDTHS)
def test_the_chapters_mermaid_diagrams_are_readable(
    repo_site: Site,
    serve: Callable[[Site], str],
    open_reader: Callable[..., Any],
    width: int,
    smallest: float,
    scheme: str,
) -> None:
    base = serve(repo_site)
    reader = open_reader(base + CHAPTERS[0], scheme=scheme)
    problems: list[str] = []
    seen = 0
    for url in CHAPTERS:
        figures = _measure(reader, base + url, width)
        seen += sum(f["plugin"] for f in figures)
        problems += _check(figures, f"{width}px {scheme} {url}", smallest)
    assert seen >= len(CHAPTERS), "every chapter page has at least one plugin diagram"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "smallest"), WIDTHS)
def test_five_targets_five_questions_four_heads_are_readable(
    probe_site: Site,
    serve: Callable[[Site], str],
    open_reader: Callable[..., Any],
    width: int,
    smallest: float,
    scheme: str,
) -> None:
    base = serve(probe_site)
    reader = open_reader(base + PROBE_URLS[0], scheme=scheme)
    problems: list[str] = []
    for url in PROBE_URLS:
        figures = _measure(reader, base + url, width)
        assert all(f["plugin"] for f in figures), url
        # Five targets or questions, four heads: more than three, so more than one row.
        assert len(figures) >= 2, f"{url}: {len(figures)} diagram(s)"
        problems += _check(figures, f"{width}px {scheme} {url}", smallest)
    assert not problems, "\n".join(problems)


def test_the_check_can_fail() -> None:
    """A planted diagram of four boxes in a row, at 7.7 px, is caught."""
    planted = {
        "plugin": True,
        "side": 4,
        "smallest": 7.7,
        "natural": 900.0,
        "shown": 343.0,
        "column": 343.0,
        "first": "planted",
    }
    assert len(_check([planted], "planted", 11.0)) == 2
