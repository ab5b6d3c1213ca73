"""Every figure the plugin draws, audited in Chromium against the book's figure rules (issue 24).

Pages: the demo's chapter pages (P5-13.1, P5-13.2, P5-13.3) in zh, ko and en, and a probe site
built here with 5 targets, 5 questions and 4 heads under long Korean and English labels with
``_``, every figure view its layout allows. Each page is opened at 1280 and 375 px, light and
dark (the palettes follow ``prefers-color-scheme``), measured once (one ``page.evaluate``,
figure_rules.MEASURE) and judged by every rule in figure_rules.CHECKS, one test per rule so a
failure names the page, width, scheme, rule, figure and the measured number.

A control page of planted faults (two texts on each other, a text across another bar, a line
across a label, a text past the edge, a fill that vanishes into the page, a point hidden under
another, tiny text, a title on the right, a label broken mid-word, a drawing wider than the
column, a mermaid diagram four boxes wide, a Korean word too long for its box) must make the same
checks fail: the audit can fail.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from conftest import REPO, Site, mkdocs_build, offline_context
from figure_rules import CHECKS, MEASURE, WAIT_FOR_MERMAID, authored_mermaid, mermaid_count

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHAPTERS = ("p5-13-1-attention", "p5-13-2-self-attention", "p5-13-3-qkv-multihead")
LANGUAGES = ("zh", "ko", "en")
WIDTHS = (1280, 375)
SCHEMES = {"light": "default", "dark": "slate"}


@dataclass(frozen=True)
class AuditPage:
    site: str  # "repo" or "probe"
    url: str
    source: str = ""  # the page's markdown, from the repository's root (demo pages)


PAGES: dict[str, AuditPage] = {
    f"{stem[:7]}-{language}": AuditPage(
        "repo",
        ("" if language == "zh" else f"{language}/") + f"course/part-05/chapter-13/{stem}/",
        f"docs/course/part-05/chapter-13/{stem}{'' if language == 'zh' else '.' + language}.md",
    )
    for stem in CHAPTERS
    for language in LANGUAGES
}
PAGES |= {
    f"probe-{name}": AuditPage("probe", f"{name}/") for name in ("targets", "questions", "heads")
}
CONTROL = AuditPage("probe", "control/")

# -- the probe site ------------------------------------------------------------------------------

PROBE_YML = """\
site_name: selfattn figure audit probe
theme:
  name: material
  language: ko
  font: false
  palette:
    - media: "(prefers-color-scheme: light)"
      scheme: default
      toggle: {icon: material/weather-night, name: dark}
    - media: "(prefers-color-scheme: dark)"
      scheme: slate
      toggle: {icon: material/weather-sunny, name: light}
markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
plugins:
  - search
  - selfattn:
      cache_dir: ""
nav:
  - targets.md
  - questions.md
  - heads.md
  - control.md
"""

TARGETS = (
    "재기동_승인_조건_확인_대상",
    "pressure_release_holding_time_check",
    "냉각수_유량_기준_초과_여부",
    "decision_vs_condition_split_marker",
    "복귀조건_점검_담당자_서명",
)
CANDIDATES = (
    "배터리팩_분리_작업_기록",
    "insulation_cap_not_applied_yet",
    "절연캡",
    "씌우지",
    "operator_shift_handover_note",
    "위험_경고_표지_부착_완료",
)


def _targets_csv() -> str:
    rows = [
        "document_id,target_token,candidate_token,candidate_role,evidence_pack,evidence_cap,score"
    ]
    for t, target in enumerate(TARGETS):
        for c, candidate in enumerate(CANDIDATES):
            score = round(0.2 + ((t * 7 + c * 3) % 11) / 4, 2)
            rows.append(
                f"probe_doc,{target},{candidate},role_{c},{(c % 3) / 2:.2f},{c % 4 / 3:.2f},{score}"
            )
    return "\n".join(rows) + "\n"


QUESTIONS = {
    "재기동_승인_조건은_무엇인가?": "score_q1",
    "What_is_the_pressure_release_holding_time?": "score_q2",
    "냉각수_유량_기준_초과_시_조치는?": "score_q3",
    "Who_signs_the_return_condition_checklist?": "score_q4",
    "압력_이상_경보_후_복귀_절차는?": "score_q5",
}


def _questions_csv() -> str:
    rows = ["line_id,section,evidence_a,evidence_b," + ",".join(QUESTIONS.values())]
    for n in range(1, 13):
        scores = ",".join(f"{((n * (q + 2)) % 7) / 2:.1f}" for q in range(5))
        rows.append(f"L{n:02d},section_{(n - 1) // 4},{n % 5 / 2:.1f},{(12 - n) % 4:.1f},{scores}")
    return "\n".join(rows) + "\n"


HEADS = {
    "single_head_reference": "w_ref",
    "head_one_decision": "w_one",
    "head_two_condition": "w_two",
    "head_three_condition_copy": "w_three",
}
SCENARIOS = (
    "balanced_heads_all_alike",
    "decision_vs_condition_split",
    "condition_heavy_both_heads",
)
TOKENS = ("정지결정_기록", "압력이상_경보", "복귀조건_확인", "operator_signature")


def _heads_csv() -> str:
    rows = [
        "report_id,scenario,token,relation_role,decision_axis,evidence_axis,"
        + ",".join(HEADS.values())
    ]
    weights = {  # per scenario, per head: weights of the four tokens (each head sums to 1)
        # every head alike: four points at one place
        SCENARIOS[0]: [(0.25, 0.25, 0.25, 0.25)] * 4,
        SCENARIOS[1]: [
            (0.25, 0.25, 0.25, 0.25),
            (0.7, 0.1, 0.1, 0.1),
            (0.1, 0.1, 0.7, 0.1),
            (0.1, 0.1, 0.7, 0.1),
        ],
        SCENARIOS[2]: [
            (0.4, 0.2, 0.2, 0.2),
            (0.1, 0.2, 0.6, 0.1),
            (0.1, 0.1, 0.7, 0.1),
            (0.1, 0.1, 0.7, 0.1),
        ],
    }
    vectors = ((1.0, 0.0), (0.0, 2.0), (3.0, 1.0), (0.5, 0.5))
    for scenario in SCENARIOS:
        for k, token in enumerate(TOKENS):
            ws = ",".join(f"{weights[scenario][h][k]}" for h in range(4))
            rows.append(
                f"probe_report,{scenario},{token},role_{k},{vectors[k][0]},{vectors[k][1]},{ws}"
            )
    return "\n".join(rows) + "\n"


def _yaml_map(mapping: dict[str, str]) -> str:
    return "{" + ", ".join(f'"{k}": {v}' for k, v in mapping.items()) + "}"


PROBE_PAGES = {
    "targets.md": f"""\
# 다섯 target (5 targets)

```selfattn
id: probe_targets
csv: targets.csv
document: probe_doc
targets: [{", ".join(TARGETS)}]
title: 다섯 target 이 후보를 다시 읽는 가중치 (attention weights of five long targets)
show: [chart, mermaid]
```
""",
    "questions.md": f"""\
# 다섯 질문 (5 questions)

```selfattn
id: probe_questions
csv: questions.csv
columns: {{candidate: line_id, role: section}}
vectors: [evidence_a, evidence_b]
queries: {_yaml_map(QUESTIONS)}
show: [chart, context_chart, separation_chart, context_space, mermaid]
```
""",
    "heads.md": f"""\
# 네 head (4 heads)

```selfattn
id: probe_heads
csv: heads.csv
columns: {{document: report_id, group: scenario, candidate: token, role: relation_role}}
document: probe_report
heads: {_yaml_map(HEADS)}
show: [chart, context_chart, separation_chart, context_space, mermaid]
```
""",
}

# Planted faults, drawn as the contract's markup (a box with a wide and a narrow drawing).
_TEXT = '<text x="{x}" y="{y}" style="font-size:{size}px;fill:currentColor{more}">{text}</text>'
_PLANTED_SVG = "".join(
    [
        '<svg class="selfattn-chart selfattn-chart-{cls}" viewBox="0 0 {w} 430" role="img"',
        ' xmlns="http://www.w3.org/2000/svg" style="width:100%;height:auto">',
        "<title>planted faults</title><desc>texts on texts, a faint bar, a hidden point</desc>",
        # a title on the right
        '<g id="pl-title">',
        _TEXT.format(x="{end}", y=40, size=20, more=";text-anchor:end", text="Planted title"),
        "</g>",
        # a bar that vanishes into the page (light and dark), and one a value label runs across
        '<g id="pl-bar_0_0"><path d="M 40 380 L 140 380 L 140 200 L 40 200 z"',
        ' style="fill: var(--md-default-fg-color--lightest)"/></g>',
        '<g id="pl-bar_0_1"><path d="M 180 380 L 280 380 L 280 150 L 180 150 z"',
        ' style="fill:#2563eb"/></g>',
        '<g id="pl-value_0_0">',
        _TEXT.format(x=150, y=160, size=16, more="", text="0.123 across the next bar"),
        "</g>",
        # two texts on each other
        '<g id="pl-label_a">',
        _TEXT.format(x=40, y=110, size=16, more="", text="overlapping label one"),
        '</g><g id="pl-label_b">',
        _TEXT.format(x=50, y=114, size=16, more="", text="overlapping label two"),
        "</g>",
        # a name broken inside a word (its full text is the group's <title>)
        '<g id="pl-candidate_9"><title>single_head_reference</title>',
        _TEXT.format(x=200, y=396, size=14, more="", text="single_head_refere"),
        _TEXT.format(x=200, y=414, size=14, more="", text="nce"),
        "</g>",
        # tiny text
        '<g id="pl-tiny">',
        _TEXT.format(x=300, y=110, size=6, more="", text="tiny text"),
        "</g>",
        # a line across a label, and a label past the drawing's right edge
        '<g id="pl-line2d_1"><path d="M 10 50 L 200 90" style="fill:none;stroke:#ef4444;',
        'stroke-width:2"/></g>',
        '<g id="pl-crossed">',
        _TEXT.format(x=20, y=75, size=14, more="", text="a line crosses this label"),
        '</g><g id="pl-outside">',
        _TEXT.format(x="{w}", y=300, size=14, more="", text="outside"),
        "</g>",
        # a point drawn exactly over another
        '<g id="pl-point_0_0"><circle cx="320" cy="300" r="6" style="fill:#ef4444"/></g>',
        '<g id="pl-point_1_0"><circle cx="320" cy="300" r="6" style="fill:#2563eb"/></g>',
        "</svg>",
    ]
)
LONG_KOREAN_WORD = "재기동승인조건확인대상" * 3

CONTROL_MD = (
    '# planted faults\n\n<div class="selfattn-chart-box">\n'
    + _PLANTED_SVG.format(cls="wide", w=760, end=740)
    + "\n"
    + _PLANTED_SVG.format(cls="narrow", w=360, end=350)
    + '\n</div>\n\n<div class="selfattn-chart-box">\n'
    + _PLANTED_SVG.format(cls="wide", w=760, end=740).replace(
        "width:100%", "width:1400px;min-width:1400px;max-width:none"
    )
    + "\n"
    + _PLANTED_SVG.format(cls="narrow", w=360, end=350).replace(
        "width:100%", "width:1400px;min-width:1400px;max-width:none"
    )
    + "\n</div>\n\n"
    + textwrap.dedent(
        f"""\
        ```mermaid
        flowchart TD
          R["four boxes side by side below"] --> A["first box"] & B["second box"]
          R --> C["third box"] & D["{LONG_KOREAN_WORD}"]
        ```
        """
    )
)

CONTROL_FAULTS = {
    "text_text_overlap": ["overlapping label one"],
    "text_mark_overlap": ["bar_0_1", "line2d_1"],
    "fill_contrast": ["bar_0_0"],
    "points_visible": ["point_0_0"],
    "text_units": ["tiny text"],
    "title_left": ["Planted title"],
    "chart_word_breaks": ["single_head_refere"],
    "fits_column": ["scrolls sideways"],
    "text_in_view": ["outside"],
    "mermaid_side_by_side": ["4 boxes side by side"],
    "mermaid_word_breaks": [LONG_KOREAN_WORD[:8]],
}
"""The rules the control page breaks on purpose, at every width and in both palettes (and at
375 px also ``phone_text_px``), and a piece of what each one must say."""


@pytest.fixture(scope="session")
def probe_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    project = tmp_path_factory.mktemp("figaudit-probe")
    docs = project / "docs"
    docs.mkdir()
    (docs / "targets.csv").write_text(_targets_csv(), encoding="utf-8")
    (docs / "questions.csv").write_text(_questions_csv(), encoding="utf-8")
    (docs / "heads.csv").write_text(_heads_csv(), encoding="utf-8")
    for name, text in PROBE_PAGES.items():
        (docs / name).write_text(text, encoding="utf-8")
    (docs / "control.md").write_text(CONTROL_MD, encoding="utf-8")
    (project / "mkdocs.yml").write_text(PROBE_YML, encoding="utf-8")
    root = tmp_path_factory.mktemp("figaudit-probe-site")
    log = mkdocs_build(project / "mkdocs.yml", root)
    errors = [line for line in log.splitlines() if "selfattn:" in line]
    assert not errors, "the probe site's blocks must build cleanly:\n" + "\n".join(errors)
    return Site("probe", root, log)


# -- measuring ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def audit(
    browser: Any, request: pytest.FixtureRequest, serve: Callable[[Site], str]
) -> Iterator[Callable[[AuditPage, int, str], dict[str, Any]]]:
    """audit(page, width, scheme) -> the page's measurement, taken once and cached for the
    module; one browser context per (width, scheme), its one tab reused from page to page."""
    cache: dict[tuple[AuditPage, int, str], dict[str, Any]] = {}
    tabs: dict[tuple[int, str], Any] = {}
    contexts: list[Any] = []
    sites: dict[str, Site] = {}

    def tab(width: int, scheme: str) -> Any:
        if (width, scheme) not in tabs:
            context = offline_context(browser, width=width, scheme=scheme, locale="ko-KR")
            contexts.append(context)
            tabs[width, scheme] = context.new_page()
        return tabs[width, scheme]

    def measure(page: AuditPage, width: int, scheme: str) -> dict[str, Any]:
        key = (page, width, scheme)
        if key not in cache:
            if page.site not in sites:
                name = "repo_site" if page.site == "repo" else "probe_site"
                sites[page.site] = request.getfixturevalue(name)
            site = sites[page.site]
            html = (site.root / page.url / "index.html").read_text(encoding="utf-8")
            browser_tab = tab(width, scheme)
            browser_tab.goto(serve(site) + page.url, wait_until="load")
            browser_tab.wait_for_function(WAIT_FOR_MERMAID, arg=mermaid_count(html), timeout=30_000)
            browser_tab.evaluate("document.fonts.ready.then(() => true)")
            found = browser_tab.evaluate(MEASURE)
            if page.source:
                markdown = (REPO / page.source).read_text(encoding="utf-8")
                for figure, own in zip(
                    found["mermaids"], authored_mermaid(html, markdown), strict=True
                ):
                    figure["author"] = own
            assert found["scheme"] == SCHEMES[scheme], (page, width, scheme, found["scheme"])
            assert found["innerWidth"] == width, (page, width, found["innerWidth"])
            cache[key] = found
        return cache[key]

    yield measure
    for context in contexts:
        context.close()


# -- the rules on every page -----------------------------------------------------------------------


@pytest.mark.parametrize("rule", list(CHECKS))
@pytest.mark.parametrize("scheme", list(SCHEMES))
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page_id", list(PAGES))
def test_figure_rule(
    audit: Callable[[AuditPage, int, str], dict[str, Any]],
    page_id: str,
    width: int,
    scheme: str,
    rule: str,
) -> None:
    measured = audit(PAGES[page_id], width, scheme)
    faults = CHECKS[rule](measured, width)
    if faults:
        pytest.fail(
            f"{page_id} at {width} px, {scheme}: rule {rule}:\n  " + "\n  ".join(faults),
            pytrace=False,
        )


def test_every_page_has_figures(audit: Callable[[AuditPage, int, str], dict[str, Any]]) -> None:
    """The audit audits something: every demo page has charts and mermaid figures, every probe
    page every view its layout allows."""
    charts_expected = {"probe-targets": 1, "probe-questions": 4, "probe-heads": 4}
    for page_id, page in PAGES.items():
        measured = audit(page, 1280, "light")
        charts, mermaids = len(measured["charts"]), len(measured["mermaids"])
        assert charts == charts_expected.get(page_id, charts) >= 1, f"{page_id}: {charts} charts"
        assert mermaids >= 1, f"{page_id}: {mermaids} mermaid figures"


# -- the control: the same checks must fail on planted faults --------------------------------------


@pytest.mark.parametrize("scheme", list(SCHEMES))
@pytest.mark.parametrize("width", WIDTHS)
def test_planted_faults_are_reported(
    audit: Callable[[AuditPage, int, str], dict[str, Any]], width: int, scheme: str
) -> None:
    measured = audit(CONTROL, width, scheme)
    planted = CONTROL_FAULTS | ({"phone_text_px": ["tiny text"]} if width < 720 else {})
    silent = {}
    for rule, pieces in planted.items():
        said = "\n".join(CHECKS[rule](measured, width))
        if missing := [piece for piece in pieces if piece not in said]:
            silent[rule] = missing
    assert not silent, f"control at {width} px, {scheme}: planted faults not reported: {silent}"
