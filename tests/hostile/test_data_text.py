"""CSV text is data: hostile tokens, roles, labels and document ids show literally, inject nothing.

One site holds a page per token. Each page's CSV uses the token as document id, target, candidate
and role; its first block shows every view, its second shows the token as a display label (from
YAML), and inline values print it. The site is built once (non-strict, chart workers on, as CI runs
it); each (token, check) pair is then its own test case.

Checks read the HTML with :mod:`html.parser`:

- ``markup``: no element or event attribute came from data (no ``<img>``, ``<script>``, ``on*``);
- ``structure``: the page has exactly the elements of the same page built with a plain token
  (``<br>`` aside, which a line break in a token legitimately adds; chart internals aside);
- ``tables``: every table keeps its shape (rows × columns) and shows the token in its cells;
- ``printout``: the ``output`` view prints the token;
- ``mermaid``: every flowchart line is a well-quoted node or a known statement, labels decode to
  the token, and no ``%%{`` directive reaches mermaid;
- ``chart``: the SVG's ``<text>`` shows the token (axis labels, legend, title);
- ``inline``: the inline value prints the token;
- ``clean``: the page built without any error or warning (but a missing chart glyph).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

import pytest

from mkdocs_selfattn.render.figure_text import fold, shorten
from mkdocs_selfattn.render.mermaid_nodes import NODE_WIDTH

from .support import (
    Build,
    ErrorCase,
    Node,
    Project,
    block,
    check_error_case,
    good_block,
    injected_markup,
    normalize,
    partial_files,
    problems,
    read_mermaid,
    slot_token,
    yaml_str,
)

TOKENS: dict[str, str] = {
    "plain": "plain-token",
    "img-onerror": "<img src=x onerror=alert(1)>",
    "script-tag": '<script>alert("pwned")</script>',
    "pipe": "a|b",
    "quote-bracket-arrow": '"]-->',
    "backticks": "`x` ``y`` ```z",
    "newline-in-field": "line one\nline two",
    "cr-and-tab": "tab\there\rcr",
    "rtl": "שלום مرحبا evil",  # direction controls are refused: tests/hostile/test_text_safety.py
    "emoji": "🤖👩‍💻🏳️‍🌈",
    "markdown": "**bold** _it_ [l](javascript:alert(1)) :smile: <!-- c -->",
    "entities": "&amp; &lt;b&gt; #60; <br/>",
    "mermaid-directive": "%%{init: {'theme':'forest'}}%%",
    "csv-quotes-commas": 'comma, "quoted" field',
    "dollar-signs": "cost $5 and $6",
    "mathtext-unbalanced": "$\\frac{$",
    "slot-placeholder": "{slot}",
}
"""Name → token; ``{slot}`` becomes the plugin's placeholder for the page's first stored HTML."""

CHECKS = ("markup", "structure", "tables", "printout", "mermaid", "chart", "inline", "clean")
OTHER = "other-token"
HELPER = "helper"
"""The second target; its top candidate is the token, so ``top helper`` prints the token."""


def token_for(name: str) -> str:
    return TOKENS[name].replace("{slot}", slot_token(f"tok-{name}.md", 0))


def csv_text(token: str) -> str:
    rows = [
        ["document_id", "target_token", "candidate_token", "candidate_role", "v1", "v2", "score"],
        [token, token, token, token, "0.1", "0.2", "2.0"],
        [token, token, HELPER, "role-helper", "0.3", "0.4", "1.0"],
        [token, token, OTHER, "role-other", "0.5", "0.6", "0.5"],
        [token, HELPER, token, token, "0.1", "0.2", "3.0"],
        [token, HELPER, HELPER, "role-helper", "0.3", "0.4", "1.0"],
        [token, HELPER, OTHER, "role-other", "0.5", "0.6", "0.5"],
        ["another-document", "t", "c", "r", "1", "1", "1"],
    ]
    out = io.StringIO()
    # The default CRLF terminator makes the writer quote fields holding a CR or LF.
    csv.writer(out).writerows(rows)
    return out.getvalue()


def page_text(name: str, token: str) -> str:
    quoted = yaml_str(token)
    return (
        f"# Token {name}\n\n"
        "```selfattn\n"
        "id: ex\n"
        f"csv: data/tok-{name}.csv\n"
        f"document: {quoted}\n"
        f"title: {quoted}\n"
        "show: [output, table, compare, csv, mermaid, chart]\n"
        "```\n\n"
        f"INLINE-TOP:`{{selfattn}} ex top {HELPER}`:END\n\n"
        "```selfattn\n"
        "id: labelled\n"
        f"csv: data/tok-{name}.csv\n"
        f"document: {quoted}\n"
        f"display: {{{OTHER}: {quoted}}}\n"
        f"text: {{target: {quoted}}}\n"
        "show: [table, mermaid, chart]\n"
        "```\n\n"
        f"INLINE-LABEL:`{{selfattn}} labelled top {HELPER}`:END\n"
    )


@pytest.fixture(scope="module")
def token_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    project = Project(tmp_path_factory.mktemp("tokens"), {"cache_dir": ".cache/selfattn"})
    project.configure()
    project.page("index.md", "# Tokens\n\nOne page per hostile token.\n")
    for name in TOKENS:
        token = token_for(name)
        project.write(f"docs/data/tok-{name}.csv", csv_text(token))
        project.page(f"tok-{name}.md", page_text(name, token))
    build = project.build(strict=False)
    assert build.returncode == 0, build.describe()
    return build


# ---------------------------------------------------------------------------------------------
# Checks; each returns the broken promises it found


def check_markup(build: Build, page: str, token: str) -> list[str]:
    return injected_markup(build.article(page), build.tree(page))


def _profile(article: Node) -> Counter[str]:
    counts: Counter[str] = Counter()
    for node in article.iter():
        if node.tag == "br" or any(a.tag == "svg" for a in node.ancestors()):
            continue
        # How many diagrams a mermaid view draws depends on how wide its boxes are (three in a
        # row at most): check_mermaid reads those.
        if "mermaid" in node.classes or any("mermaid" in a.classes for a in node.ancestors()):
            continue
        counts[node.tag + ("." + ".".join(sorted(node.classes)) if node.classes else "")] += 1
    return counts


def check_structure(build: Build, page: str, token: str) -> list[str]:
    got, want = _profile(build.article(page)), _profile(build.article("tok-plain.md"))
    if got == want:
        return []
    extra, missing = got - want, want - got
    return [
        f"elements differ from the plain-token page: extra {dict(extra)}, missing {dict(missing)}"
    ]


def _cells(table: Node) -> list[list[str]]:
    return [[normalize(cell.text()) for cell in row] for row in table.cells()]


def check_tables(build: Build, page: str, token: str) -> list[str]:
    want = normalize(token)
    tables = [_cells(t) for t in build.article(page).find_all("table")]
    shapes = [(len(rows), {len(r) for r in rows}) for rows in tables]
    expected = [(7, {6}), (7, {6}), (4, {3}), (7, {7}), (7, {6}), (7, {6})]
    if shapes != expected:
        return [f"table shapes (rows, {{cells per row}}) are {shapes}, expected {expected}"]
    failures: list[str] = []
    first, _, compare, rows, labelled, _ = tables
    if first[1][:2] != [want, want]:
        failures.append(f"weights table: candidate/role cells are {first[1][:2]}")
    if compare[0][1] != want or compare[1][0] != want:
        failures.append(f"compare table: header {compare[0]}, first row {compare[1]}")
    if rows[1][:4] != [want] * 4:
        failures.append(f"csv table: first row is {rows[1]}")
    label_cells = [r[0] for r in labelled[1:]]
    if f"{want} ({OTHER})" not in label_cells:
        failures.append(f"labelled table: candidate cells are {label_cells}")
    return failures


def check_printout(build: Build, page: str, token: str) -> list[str]:
    want = normalize(token)
    codes = [normalize(c.text()) for c in build.article(page).find_all("code")]
    printouts = [c for c in codes if c.startswith("csv_rows = ")]
    if len(printouts) != 1:
        return [f"expected one printout, found {len(printouts)}"]
    text = printouts[0]
    failures = []
    for line in (f"target_token = {want}", f"{want} weight = ", f"top_token = {want}"):
        if line not in text:
            failures.append(f"printout lacks {line!r}")
    return failures


def check_mermaid(build: Build, page: str, token: str) -> list[str]:
    want = normalize(token)
    sources = [p.text() for p in build.article(page).find_all("pre", cls="mermaid")]
    # Two blocks; a block whose boxes are too wide for three in a row draws several diagrams.
    if len(sources) < 2:
        return [f"expected two mermaid diagrams or more, found {len(sources)}"]
    failures: list[str] = []
    for n, source in enumerate(sources):
        diagram = read_mermaid(source)
        failures += [f"diagram {n}: broken line {line!r}" for line in diagram.broken_lines]
        labels = [normalize(label) for label in diagram.labels]
        # A token wider than a node holds is shown shortened, by the figures' own rule.
        short = normalize(shorten(token, NODE_WIDTH))
        if n == 0 and not any(want in label or short in label for label in labels):
            failures.append(f"diagram {n}: no label shows the token; labels: {labels}")
        if "%%{" in source:
            failures.append(f"diagram {n}: a '%%{{' directive reaches mermaid")
    return failures


def check_chart(build: Build, page: str, token: str) -> list[str]:
    want = normalize(token)
    charts = [s for s in build.article(page).find_all("svg") if "selfattn-chart" in s.classes]
    if len(charts) != 4:  # two charts, each a wide and a narrow drawing
        return [f"expected two charts (four drawings), found {len(charts)} drawings"]
    failures: list[str] = []
    for n, chart in enumerate(charts):
        texts = [t.text() for t in chart.find_all("text")]
        shown = normalize("\n".join(texts))
        # A long token is folded and shortened under its bar, in full in the label's <title>.
        folded = normalize(fold(token))
        tooltips = [normalize(t.text()) for t in chart.find_all("title")]
        if want not in shown and not (folded in shown and want in tooltips):
            failures.append(f"chart {n}: no <text> shows the token; texts: {texts[:12]}")
        # matplotlib splits mathtext into <tspan>s; the narrow drawing's tspans are its line breaks
        mathtext = "selfattn-chart-narrow" not in chart.classes
        if (
            mathtext
            and chart.find_all("tspan")
            and any(
                want not in normalize(t.text())
                for t in chart.find_all("text")
                if t.find_all("tspan")
            )
        ):
            failures.append(f"chart {n}: the token was typeset as math (<tspan> pieces)")
    title = normalize(charts[0].find_all("title")[0].text()) if charts[0].find_all("title") else ""
    if title != want:
        failures.append(f"chart 0: <title> is {title!r}")
    return failures


def check_inline(build: Build, page: str, token: str) -> list[str]:
    want = normalize(token)
    text = normalize(build.article(page).text())
    failures = []
    for marker in ("INLINE-TOP", "INLINE-LABEL"):
        if f"{marker}:{want}:END" not in text:
            start = text.find(marker)
            failures.append(f"inline value reads {text[start : start + 80]!r}")
    return failures


GLYPHS = "the chart font has no glyph for "


def _missing_glyph_warning(message: str) -> bool:
    """The one warning a token may cause: a visible character no installed font can draw.

    (The bundled chart fonts have no emoji; the SVG keeps the text, so browsers still show it.) A
    warning about whitespace or control characters is not one of these: no font draws a tab.
    """
    advice = "; add a font file that has them to the 'chart_fonts' option"
    if not message.startswith(GLYPHS) or advice not in message:
        return False
    glyphs = message[len(GLYPHS) : message.index(advice)][::2]  # joined with single spaces
    return all(g.isprintable() and not g.isspace() for g in glyphs)


def check_clean(build: Build, page: str, token: str) -> list[str]:
    failures = [
        f"log: {p.page}:{p.line}: {p.message[:300]!r}"
        for p in problems(build.log)
        if p.page == f"docs/{page}" and not _missing_glyph_warning(p.message)
    ]
    errors = build.article(page).find_all(cls="selfattn-error")
    failures += [f"error shown on the page: {normalize(e.text())[:300]}" for e in errors]
    return failures


CHECK = {
    "markup": check_markup,
    "structure": check_structure,
    "tables": check_tables,
    "printout": check_printout,
    "mermaid": check_mermaid,
    "chart": check_chart,
    "inline": check_inline,
    "clean": check_clean,
}


@pytest.mark.slow
@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("name", list(TOKENS))
def test_token_is_data(token_site: Build, name: str, check: str) -> None:
    page = f"tok-{name}.md"
    assert Path(token_site.html_path(page)).exists(), f"{page} was not built"
    failures = CHECK[check](token_site, page, token_for(name))
    assert not failures, f"token {token_for(name)!r}:\n- " + "\n- ".join(failures)


@pytest.mark.slow
def test_token_site_leaves_no_partial_files(token_site: Build) -> None:
    assert not partial_files(token_site.project, token_site.site)


# ---------------------------------------------------------------------------------------------
# Hostile text inside error messages: shown escaped, in the admonition and the log

IMG = "<img src=x onerror=alert(1)>"
BAD_SCORE_CSV = (
    f'document_id,target_token,candidate_token,candidate_role,v1,score\nd,t,c,r,0.5,"{IMG}"\n'
)

ERROR_CASES = [
    ErrorCase(
        "hostile-target-in-message",
        block(
            # The message points at the key the CSV cannot answer.
            "csv: /data/good.csv\ndocument: memo_cap_missing\n"
            f"targets: [{yaml_str(IMG)}]  #HERE\nshow: [table]",
        )
        + "\nInline: `{selfattn} after top '"
        + IMG
        + "'`\n",
        r"target\(s\) '<img src=x onerror=alert\(1\)>' not found in document",
    ),
    ErrorCase(
        "hostile-use-in-message",
        block(f"use: {yaml_str('<script>alert(1)</script>')}", info="selfattn #HERE"),
        r"'use: <script>alert\(1\)</script>' names no example",
    ),
    ErrorCase(
        "hostile-cell-in-data-error",
        good_block("h", csv="data/h.csv", document="d", targets="[t]").replace(
            "```selfattn", "```selfattn #HERE", 1
        ),
        r"docs/data/h\.csv:2: column 'score': '<img src=x onerror=alert\(1\)>' is not a number",
        files={"docs/data/h.csv": BAD_SCORE_CSV},
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", ERROR_CASES, ids=[c.id for c in ERROR_CASES])
def test_hostile_text_in_error_message(tmp_path: Path, case: ErrorCase) -> None:
    check_error_case(tmp_path, case)


# ---------------------------------------------------------------------------------------------
# Charts drawn in the build process itself (chart_workers: 0) see the same tokens


@pytest.mark.slow
@pytest.mark.parametrize("name", ["dollar-signs", "mathtext-unbalanced", "backticks"])
def test_token_in_an_in_process_chart(tmp_path: Path, name: str) -> None:
    """No worker to catch a failure: the token must still be drawn literally, the build go on."""
    token = token_for(name)
    project = Project(tmp_path, {"cache_dir": ".cache/selfattn", "chart_workers": 0})
    project.configure()
    project.page("index.md", "# Home\n")
    project.write(f"docs/data/tok-{name}.csv", csv_text(token))
    project.page(f"tok-{name}.md", page_text(name, token))
    build = project.build(strict=False)
    assert build.returncode == 0, build.describe()
    assert build.html_path("index.md").exists()
    failures = check_chart(build, f"tok-{name}.md", token)
    failures += check_clean(build, f"tok-{name}.md", token)
    assert not failures, f"token {token!r}:\n- " + "\n- ".join(failures)
