"""Real MkDocs builds of small temporary sites (see tests/sites.py).

In-process builds (``Site.build``) check what pages contain and what was logged; subprocess builds
(``Site.run``) check the exit code and stderr of ``mkdocs build --strict`` exactly as CI sees them.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from mkdocs.exceptions import Abort
from sites import (
    COURSE_CSV,
    COURSE_CSV_REL,
    SEED_DISPLAY,
    SEED_PRINTOUT,
    Node,
    Site,
    block,
    line_of,
    new_site,
    seed_block,
    table_rows,
    visible_text,
)

import mkdocs_selfattn.build.pipeline as pipeline_module
import mkdocs_selfattn.build.scripts as scripts_module

pytestmark = pytest.mark.slow

SEED = SEED_PRINTOUT.read_text(encoding="utf-8")
COURSE_CSV_IN_DOCS = "assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"


def _no_leftovers(site: Site) -> None:
    """No placeholder token left anywhere in the built site (pages, search index, sitemap)."""
    for path in site.site_dir.rglob("*"):
        if path.suffix in (".html", ".json", ".xml") and path.is_file():
            text = path.read_text(encoding="utf-8")
            assert "SELFATTNSLOT" not in text, f"placeholder left in {path}"


def _tables_with_header(node: Node, first: str) -> list[list[list[str]]]:
    found = []
    for table in node.find_all("table"):
        rows = table_rows(table)
        if rows and rows[0] and rows[0][0] == first:
            found.append(rows)
    return found


def _target_tables(node: Node) -> list[list[list[str]]]:
    return [t for t in _tables_with_header(node, "candidate token") if "role" in t[0]]


def _code_texts(node: Node) -> list[str]:
    return [pre.text() for pre in node.find_all("pre")]


def _shows_printout(node: Node, printout: str = SEED) -> bool:
    """A code block holding exactly ``printout`` (a fence drops its trailing blank line)."""
    return any(text.rstrip("\n") == printout.rstrip("\n") for text in _code_texts(node))


# ---------------------------------------------------------------------------------------------
# Every view on a real page


@pytest.fixture(scope="module")
def all_views_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    site = new_site(tmp_path_factory.mktemp("views") / "project", course_script=True)
    site.page(
        "index.md",
        "# All views\n\nIntro.\n\n"
        + seed_block(
            show="[output, table, compare, csv, mermaid, chart, code]",
            extra="script: examples/self_attention_memo.py",
        )
        + "\nThe end.\n",
    )
    site.build()  # not strict: a stray warning fails only test_all_views_build_cleanly
    return site


def test_all_views_build_cleanly(all_views_site: Site) -> None:
    assert all_views_site.messages == []


def test_output_view_shows_the_scripts_real_output(all_views_site: Site) -> None:
    article = all_views_site.article()
    assert _shows_printout(article)
    assert "not run" not in visible_text(article)


def test_table_view(all_views_site: Site) -> None:
    tables = _target_tables(all_views_site.article())
    assert len(tables) == 2
    first = tables[0]
    assert first[0][:4] == ["candidate token", "role", "score", "weight"]
    assert first[0][4:] == ["evidence_pack", "evidence_cap", "evidence_action"]
    assert first[3] == ["绝缘帽 (절연캡)", "missing_object", "2.4", "0.43", "0.1", "0.95", "0.2"]
    assert first[-3][0] == "new representation"
    assert first[-3][-3:] == ["0.203", "0.691", "0.436"]


def test_compare_view(all_views_site: Site) -> None:
    tables = _tables_with_header(all_views_site.article(), "candidate token")
    [compare] = [t for t in tables if len(t[0]) == 3]
    assert compare[0] == ["candidate token", "它 (그것)", "未套上 (씌우지)"]
    assert ["绝缘帽 (절연캡)", "0.43 ▲", "0.367 ▲"] in compare
    assert ["cap_plus_not_applied", "0.644", "0.55"] in compare


def test_csv_view_and_its_download_link(all_views_site: Site) -> None:
    article = all_views_site.article()
    [rows] = _tables_with_header(article, "document_id")
    assert len(rows) == 13
    assert rows[1][:4] == ["memo_cap_missing", "그것", "배터리팩", "equipment"]
    links = [a for a in article.find_all("a") if "download" in a.attrs]
    assert len(links) == 1
    target = (all_views_site.html_path("index.md").parent / links[0].attrs["href"]).resolve()
    assert target.is_file()
    assert target.read_bytes() == COURSE_CSV.read_bytes()


def test_mermaid_view(all_views_site: Site) -> None:
    [diagram] = all_views_site.article().find_all("pre", "mermaid")
    source = diagram.text()
    assert source.startswith("---\nconfig:\n")  # the diagram's own settings (front matter)
    assert "\nflowchart TD\n" in source
    assert 'w0["re-reads most<br/>绝缘帽 0.43<br/>未套上 0.214<br/>风险 0.143"]' in source
    # The bundled mermaid and the plugin's stylesheet are in the site and on the page.
    site = all_views_site
    assert (site.site_dir / "assets/javascripts/selfattn/mermaid.min.js").is_file()
    assert (site.site_dir / "assets/stylesheets/selfattn.css").is_file()
    page = site.html()
    assert "assets/javascripts/selfattn/mermaid.min.js" in page
    assert "assets/stylesheets/selfattn.css" in page


def test_chart_view(all_views_site: Site) -> None:
    [box] = all_views_site.article().find_all("div", "selfattn-chart-box")
    wide, narrow = (s for s in box.find_all("svg") if "selfattn-chart" in s.classes)
    assert "selfattn-chart-wide" in wide.classes
    assert "selfattn-chart-narrow" in narrow.classes
    for svg in (wide, narrow):
        texts = [visible_text(t) for t in svg.find_all("text")]
        assert "绝缘帽" in texts
        assert svg.find("title").text() == "attention weights of 它, 未套上"


def test_code_view(all_views_site: Site) -> None:
    script = (all_views_site.docs / "examples" / "self_attention_memo.py").read_text("utf-8")
    article = all_views_site.article()
    assert any(text.strip() == script.strip() for text in _code_texts(article))
    assert "self_attention_memo.py" in visible_text(article)


def test_views_in_block_order_and_nothing_left_over(all_views_site: Site) -> None:
    nodes = list(all_views_site.article().iter())

    def first(predicate: Any) -> int:
        return next(n for n, node in enumerate(nodes) if predicate(node))

    order = [
        first(lambda n: n.tag == "pre" and "csv_rows = 36" in n.text()),
        first(lambda n: n.tag == "table" and table_rows(n)[0][:2] == ["candidate token", "role"]),
        first(lambda n: n.tag == "table" and "▲" in n.text()),
        first(lambda n: n.tag == "table" and table_rows(n)[0][0] == "document_id"),
        first(lambda n: n.tag == "pre" and "mermaid" in n.classes),
        first(lambda n: "selfattn-chart-box" in n.classes),
        first(lambda n: n.tag == "pre" and "def stable_softmax" in n.text()),
    ]
    assert order == sorted(order)
    text = all_views_site.html()
    assert "```selfattn" not in text
    assert "selfattn-error" not in text
    _no_leftovers(all_views_site)


# ---------------------------------------------------------------------------------------------
# Blocks nested in admonitions, content tabs and lists; use:


NESTED_PAGE = (
    "# Nested\n\n" + seed_block(show="[output]") + '\n!!! note "In an admonition"\n\n'
    "    Before the block.\n\n"
    + block("use: memo\nshow: [table]", indent="    ")
    + '\n=== "Tab one"\n\n'
    + block("use: memo\nshow: [compare, mermaid]", indent="    ")
    + '\n=== "Tab two"\n\n'
    + seed_block(
        csv="../docs/" + COURSE_CSV_IN_DOCS, example_id="tabbed", show="[csv, chart]", indent="    "
    )
    + "\n- A list item\n\n"
    + block("use: memo\nshow: [output]", indent="    ")
    + "\n- Another item\n\n"
    "How a block is written:\n\n"
    "````markdown\n"
    "```selfattn\n"
    "csv: not-there.csv\n"
    "document: nothing\n"
    "```\n"
    "````\n\n"
    "END-OF-PAGE\n"
)


@pytest.fixture(scope="module")
def nested_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    site = new_site(tmp_path_factory.mktemp("nested") / "project", {"index.md": NESTED_PAGE})
    site.build()
    return site


def test_nested_blocks_build_cleanly(nested_site: Site) -> None:
    assert nested_site.messages == []


def test_block_in_an_admonition(nested_site: Site) -> None:
    [admonition] = nested_site.article().find_all("div", "admonition")
    assert len(_target_tables(admonition)) == 2
    assert "Before the block." in visible_text(admonition)


def test_blocks_in_content_tabs(nested_site: Site) -> None:
    tab_one, tab_two = nested_site.article().find_all("div", "tabbed-block")
    [compare] = _tables_with_header(tab_one, "candidate token")
    assert compare[0] == ["candidate token", "它 (그것)", "未套上 (씌우지)"]
    assert tab_one.find("pre", "mermaid").text().startswith("---\nconfig:\n")
    # A full example defined inside a tab, its CSV path relative to the page.
    assert len(_tables_with_header(tab_two, "document_id")) == 1
    assert tab_two.find("div", "selfattn-chart-box").find("svg")


def test_block_in_a_list_item(nested_site: Site) -> None:
    items = nested_site.article().find_all("li")
    [item] = [li for li in items if "A list item" in visible_text(li)]
    assert _shows_printout(item)


def test_block_inside_an_outer_fence_is_shown_literally(nested_site: Site) -> None:
    texts = _code_texts(nested_site.article())
    assert "```selfattn\ncsv: not-there.csv\ndocument: nothing\n```\n" in texts
    _no_leftovers(nested_site)


USE_PAGE = (
    "# Use\n\n"
    + seed_block(show="[output]")
    + "\nLater the same example again, with other view options:\n\n"
    + block("use: memo\nshow: [mermaid]\ntop: 1\nnumber_format: .1%\ntext: {weights: 最关注}")
    + "\n"
    + block("use: memo\nshow: [compare]")
)


def test_use_shows_an_earlier_example_with_its_own_view_options(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", {"index.md": USE_PAGE})
    log = site.build(strict=True)
    assert log.selfattn() == []
    article = site.article()
    source = article.find("pre", "mermaid").text()
    assert 'w0["最关注<br/>绝缘帽 43.0%"]' in source
    assert 'w1["最关注<br/>绝缘帽 36.7%"]' in source
    assert len(_tables_with_header(article, "candidate token")) == 1
    # Computed once: the use: blocks do not recompute the example.
    assert log.plugin.pipeline.cache.kind_misses["result"] == 1


def test_use_errors(tmp_path: Path) -> None:
    page = "# Use errors\n\n" + block("use: memo\nshow: [table]") + "\n" + seed_block()
    other = "# Other page\n\n" + block("use: memo\nshow: [table]")
    site = new_site(tmp_path / "project", {"index.md": page, "other.md": other})
    log = site.build()
    before, elsewhere = log.selfattn()
    # Used above its definition: says where the definition is.
    assert before.startswith("docs/index.md:3: selfattn: 'use: memo'")
    assert f"line {line_of(page, 'id: memo') - 1}" in before
    # Ids belong to their page.
    assert elsewhere.startswith("docs/other.md:3: selfattn: 'use: memo'")
    # The error block is visible, the good one renders.
    assert len(site.article().find_all("div", "selfattn-error")) == 1
    assert _shows_printout(site.article())


def test_duplicate_id(tmp_path: Path) -> None:
    page = "# Twice\n\n" + seed_block() + "\n" + seed_block(show="[compare]")
    site = new_site(tmp_path / "project", {"index.md": page})
    log = site.build()
    [message] = log.selfattn()
    assert message.startswith(f"docs/index.md:{line_of(page, 'id: memo', 2)}: selfattn: ")
    assert "'memo'" in message
    assert "already" in message


def test_use_before_a_duplicated_id_names_the_first_definition(tmp_path: Path) -> None:
    page = (
        "# Use first\n\n"
        + block("use: memo\nshow: [table]")
        + "\n"
        + seed_block()
        + "\n"
        + seed_block(show="[compare]")
    )
    site = new_site(tmp_path / "project", {"index.md": page})
    log = site.build()
    first_definition = line_of(page, "id: memo") - 1
    [use_message] = [m for m in log.selfattn() if "'use: memo'" in m]
    assert f"(line {first_definition})" in use_message, use_message


# ---------------------------------------------------------------------------------------------
# Inline values


def _inline_page() -> str:
    lines = ["# Inline values", "", seed_block(show="[table]"), "", "Weights by token:", ""]
    for target in ("그것", "씌우지"):
        for token in SEED_DISPLAY:
            lines.append(f"- ⟨W {target} {token}=`{{selfattn}} memo weight {target} {token}`⟩")
            lines.append(f"- ⟨S {target} {token}=`{{selfattn}} memo score {target} {token}`⟩")
    lines += [
        "",
        "In a paragraph, by display label: ⟨WL=`{selfattn} memo weight 它 绝缘帽`⟩, "
        "as a percentage ⟨WP=`{selfattn} memo weight 그것 절연캡 :.1%`⟩.",
        "",
        "- ⟨TOP=`{selfattn} memo top 그것`⟩",
        "- ⟨GROUP=`{selfattn} memo group 씌우지 cap_plus_not_applied`⟩",
        "",
        "| quantity | value |",
        "| --- | --- |",
        "| rows | ⟨ROWS=`{selfattn} memo csv_rows`⟩ |",
        "| document rows | ⟨DOCROWS=`{selfattn} memo document_rows`⟩ |",
        "| baseline | ⟨BASE=`{selfattn} memo baseline`⟩ |",
        "",
        '!!! note "In an admonition"',
        "",
        "    ⟨REP=`{selfattn} memo representation 그것`⟩ and "
        "⟨SHIFT=`{selfattn} memo shift 씌우지`⟩ and "
        "⟨REPCAP=`{selfattn} memo representation 그것 evidence_cap`⟩.",
        "",
        "```text",
        "⟨CODE=`{selfattn} memo weight 그것 절연캡`⟩",
        "```",
        "",
        "~~~",
        "⟨TILDE=`{selfattn} memo csv_rows`⟩",
        "~~~",
        "",
        '!!! example "Code in an admonition"',
        "",
        "    ```markdown",
        "    ⟨ADMCODE=`{selfattn} memo csv_rows`⟩",
        "    ```",
        "",
        "Syntax shown literally: ⟨LIT=`` `{selfattn} memo top 그것` ``⟩.",
        "",
    ]
    return "\n".join(lines)


INDENTED_CODE_PAGE = (
    "# Indented code\n\n" + seed_block(show="[output]") + "\nAn indented code block:\n\n"
    "    ⟨INDENTED=`{selfattn} memo csv_rows`⟩\n\n"
    "After.\n"
)


@pytest.fixture(scope="module")
def inline_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    site = new_site(
        tmp_path_factory.mktemp("inline") / "project",
        {"index.md": _inline_page(), "indented.md": INDENTED_CODE_PAGE},
    )
    site.build()
    return site


def test_inline_values_build_cleanly(inline_site: Site) -> None:
    assert inline_site.messages == []


def _marked(node: Node, tag: str) -> dict[str, tuple[str, Node]]:
    """``⟨NAME=value⟩`` markers found in elements ``tag`` → (value, element)."""
    found: dict[str, tuple[str, Node]] = {}
    for element in node.find_all(tag):
        for name, value in re.findall(r"⟨([^=⟩]+)=([^⟩]*)⟩", element.text()):
            found.setdefault(name, (value, element))
    return found


def test_inline_values_equal_the_table_numbers(inline_site: Site) -> None:
    article = inline_site.article()
    values = _marked(article, "li")
    tables = _target_tables(article)
    assert len(tables) == 2
    for target, table in zip(("그것", "씌우지"), tables, strict=True):
        for token, label in SEED_DISPLAY.items():
            [row] = [r for r in table if r[0] == f"{label} ({token})"]
            assert values[f"W {target} {token}"][0] == row[3]
            assert values[f"S {target} {token}"][0] == row[2]
    assert values["TOP"][0] == "绝缘帽"
    assert values["GROUP"][0] == "0.55"


def test_inline_values_in_paragraph_table_and_admonition(inline_site: Site) -> None:
    article = inline_site.article()
    paragraph = _marked(article, "p")
    assert paragraph["WL"][0] == "0.43"
    assert paragraph["WP"][0] == "43.0%"
    cells = _marked(article, "td")
    assert cells["ROWS"][0] == "36"
    assert cells["DOCROWS"][0] == "12"
    tables = _target_tables(article)
    baseline = next(r for r in tables[0] if r[0] == "baseline")[-3:]
    assert cells["BASE"][0] == "[" + ", ".join(baseline) + "]"
    rep, where = paragraph["REP"]
    assert where.inside("div", cls="admonition")
    representation = next(r for r in tables[0] if r[0] == "new representation")[-3:]
    assert rep == "[" + ", ".join(representation) + "]"
    shift = next(r for r in tables[1] if r[0] == "shift")[-3:]
    assert paragraph["SHIFT"][0] == "[" + ", ".join(shift) + "]"
    assert paragraph["REPCAP"][0] == representation[1]


def test_inline_values_are_not_replaced_in_code(inline_site: Site) -> None:
    article = inline_site.article()
    code = "\n".join(_code_texts(article))
    assert "⟨CODE=`{selfattn} memo weight 그것 절연캡`⟩" in code
    assert "⟨TILDE=`{selfattn} memo csv_rows`⟩" in code
    assert "⟨ADMCODE=`{selfattn} memo csv_rows`⟩" in code
    literal = [c.text() for c in article.find_all("code")]
    assert "`{selfattn} memo top 그것`" in literal
    _no_leftovers(inline_site)


def test_inline_value_in_an_indented_code_block_is_not_replaced(inline_site: Site) -> None:
    code = "\n".join(_code_texts(inline_site.article("indented.md")))
    assert "⟨INDENTED=`{selfattn} memo csv_rows`⟩" in code, code


# ---------------------------------------------------------------------------------------------
# --strict fails, with the located message, for each kind of failure


def _prose(*blocks: str) -> str:
    return "# Failing page\n\nSome prose first.\n\n" + "\n".join(blocks) + "\nAfter.\n"


def _case_unknown_key(site: Site) -> tuple[str, list[int], list[str]]:
    page = _prose(block(f"csv: {COURSE_CSV_IN_DOCS}\ndocumnet: memo_cap_missing"))
    return page, [line_of(page, "documnet")], ["unknown key 'documnet'; did you mean 'document'?"]


def _case_bad_csv_line(site: Site) -> tuple[str, list[int], list[str]]:
    lines = COURSE_CSV.read_text(encoding="utf-8").split("\n")
    lines[6] = lines[6].rsplit(",", 1)[0] + ",abc"  # file line 7
    site.write("docs/assets/broken.csv", "\n".join(lines))
    page = _prose(block("csv: assets/broken.csv\ndocument: memo_cap_missing"))
    fence = line_of(page, "```selfattn")
    return (
        page,
        [fence, fence + 1],
        ["docs/assets/broken.csv:7", "'score'", "'abc' is not a number"],
    )


def _case_unknown_document(site: Site) -> tuple[str, list[int], list[str]]:
    page = _prose(block(f"csv: {COURSE_CSV_IN_DOCS}\ndocument: memo_nope"))
    fence = line_of(page, "```selfattn")
    return page, [fence, fence + 2], ["'memo_nope' not found", "memo_cap_missing"]


def _case_unknown_use(site: Site) -> tuple[str, list[int], list[str]]:
    page = _prose(seed_block(show="[output]"), block("use: memo_typo\nshow: [table]"))
    fence = line_of(page, "use: memo_typo") - 1
    return page, [fence, fence + 1], ["'use: memo_typo'", "memo"]


def _case_escape_dotdot(site: Site) -> tuple[str, list[int], list[str]]:
    page = _prose(block("csv: ../../etc/passwd\ndocument: root"))
    return page, [line_of(page, "csv:")], ["../../etc/passwd", "outside the project"]


def _case_escape_symlink(site: Site) -> tuple[str, list[int], list[str]]:
    outside = site.root.parent / "outside"
    outside.mkdir(exist_ok=True)
    shutil.copyfile(COURSE_CSV, outside / "secret.csv")
    link = site.docs / "assets" / "linked.csv"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside / "secret.csv")
    page = _prose(block("csv: assets/linked.csv\ndocument: memo_cap_missing"))
    return page, [line_of(page, "csv:")], ["assets/linked.csv", "outside the project"]


def _case_escape_script(site: Site) -> tuple[str, list[int], list[str]]:
    page = _prose(seed_block(show="[output]", extra="script: ../../outside.py"))
    return page, [line_of(page, "script:")], ["../../outside.py", "outside the project"]


def _case_escape_home(site: Site) -> tuple[str, list[int], list[str]]:
    page = _prose(block("csv: ~/x\ndocument: memo_cap_missing"))
    return page, [line_of(page, "csv:")], ["~/x", "home"]


MISMATCH_SCRIPT = """\
from pathlib import Path

text = Path("expected-printout.txt").read_text(encoding="utf-8")
print(text.replace("csv_rows = 36", "csv_rows = 99"), end="")
"""


def _script_case(site: Site, script: str) -> tuple[str, list[int]]:
    site.write("docs/examples/example.py", script)
    shutil.copyfile(SEED_PRINTOUT, site.root / "expected-printout.txt")
    page = _prose(seed_block(show="[output]", extra="script: examples/example.py"))
    fence = line_of(page, "```selfattn")
    return page, [fence, line_of(page, "script:")]


def _case_script_mismatch(site: Site) -> tuple[str, list[int], list[str]]:
    page, lines = _script_case(site, MISMATCH_SCRIPT)
    return page, lines, ["docs/examples/example.py", "-csv_rows = 36", "+csv_rows = 99"]


def _case_script_exit(site: Site) -> tuple[str, list[int], list[str]]:
    script = "import sys\nprint('partial')\nsys.stderr.write('ValueError: boom-marker\\n')\n"
    page, lines = _script_case(site, script + "sys.exit(3)\n")
    return page, lines, ["docs/examples/example.py", "status 3", "boom-marker"]


def _case_script_timeout(site: Site) -> tuple[str, list[int], list[str]]:
    site.configure(script_timeout=1)
    page, lines = _script_case(site, "import time\ntime.sleep(60)\n")
    return page, lines, ["docs/examples/example.py", "did not finish within 1 s"]


STRICT_CASES = {
    "unknown_key": _case_unknown_key,
    "bad_csv_line": _case_bad_csv_line,
    "unknown_document": _case_unknown_document,
    "unknown_use_id": _case_unknown_use,
    "path_escape_dotdot": _case_escape_dotdot,
    "path_escape_symlink": _case_escape_symlink,
    "path_escape_home": _case_escape_home,
    "path_escape_script": _case_escape_script,
    "script_mismatch": _case_script_mismatch,
    "script_nonzero_exit": _case_script_exit,
    "script_timeout": _case_script_timeout,
}


@pytest.mark.parametrize("case", list(STRICT_CASES))
def test_strict_build_fails_with_a_located_message(tmp_path: Path, case: str) -> None:
    site = new_site(tmp_path / "project")
    page, lines, words = STRICT_CASES[case](site)
    site.page("index.md", page)
    site.page("fine.md", "# Fine\n\nNothing to see.\n")
    started = time.monotonic()
    result = site.run()
    assert time.monotonic() - started < 90
    assert result.returncode != 0, result.stderr
    located = [
        line
        for line in result.stderr.splitlines()
        if re.search(r"docs/index\.md:\d+: selfattn: ", line)
    ]
    assert len(located) == 1, f"expected the failure logged once:\n{result.stderr}"
    match = re.search(r"docs/index\.md:(\d+):", located[0])
    assert match is not None
    assert int(match.group(1)) in lines, located[0]
    for word in words:
        assert word in located[0], f"{word!r} missing from: {located[0]}"
    assert "Traceback" not in result.stderr


def test_script_mismatch_diff_is_short(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project")
    site.write(
        "docs/examples/example.py",
        "for n in range(200):\n    print(f'line {n} weight = {n / 7}')\n",
    )
    site.page("index.md", _prose(seed_block(show="[output]", extra="script: examples/example.py")))
    log = site.build()
    [message] = log.selfattn()
    assert "differs" in message
    assert "more diff lines" in message
    assert len(message) < 2000, len(message)
    assert "\n" not in message  # one log line


# ---------------------------------------------------------------------------------------------
# Without --strict: the error is shown on the page, everything else still renders


def test_non_strict_build_shows_the_error_and_renders_the_rest(tmp_path: Path) -> None:
    page = (
        "# Mixed\n\n"
        + seed_block(show="[table]")
        + "\n"
        + block(f"csv: {COURSE_CSV_IN_DOCS}\ndocument: memo_nope\nshow: [table]")
        + "\nBetween the blocks.\n\n"
        + block("use: memo\nshow: [compare]")
        + "\nAn inline value with a bad id: `{selfattn} nope csv_rows`, and a good one: "
        "⟨ROWS=`{selfattn} memo csv_rows`⟩.\n"
    )
    other = "# Other\n\n" + seed_block(show="[output]")
    site = new_site(tmp_path / "project", {"index.md": page, "other.md": other})
    log = site.build(strict=False)

    bad_line = line_of(page, "document: memo_nope")  # the key the CSV cannot answer
    messages = log.selfattn()
    assert len(messages) == 2, messages
    assert messages[0].startswith(f"docs/index.md:{bad_line}: selfattn: ")
    assert "'memo_nope' not found" in messages[0]
    inline_line = line_of(page, "{selfattn} nope")
    assert messages[1].startswith(f"docs/index.md:{inline_line}: selfattn: ")
    assert "nope" in messages[1]

    article = site.article()
    [error] = article.find_all("div", "selfattn-error")
    assert "admonition" in error.classes
    assert "'memo_nope' not found" in visible_text(error)
    assert len(_target_tables(article)) == 2  # the good block before the broken one
    assert len(_tables_with_header(article, "candidate token")) == 3  # … and the use: after it
    assert "Between the blocks." in visible_text(article)
    [inline_error] = article.find_all("span", "selfattn-error")
    assert "nope" in inline_error.attrs.get("title", "")
    assert _marked(article, "p")["ROWS"][0] == "36"
    assert _shows_printout(site.article("other.md"))
    _no_leftovers(site)


def test_use_of_a_failed_example_does_not_claim_it_is_undefined(tmp_path: Path) -> None:
    """One broken definition: its own message is logged once, and what depends on it does not
    mislead with "no example defined above" while the example is defined right above."""
    page = (
        "# Cascade\n\n"
        + block(f"id: memo\ncsv: {COURSE_CSV_IN_DOCS}\ndocument: memo_nope")
        + "\n"
        + block("use: memo\nshow: [table]")
        + "\nValue: `{selfattn} memo csv_rows`.\n"
    )
    site = new_site(tmp_path / "project", {"index.md": page})
    log = site.build()
    messages = log.selfattn()
    assert sum("'memo_nope' not found" in m for m in messages) == 1, messages
    for message in messages:
        assert "no example defined above" not in message, message
        assert "no example with id 'memo'" not in message, message


# ---------------------------------------------------------------------------------------------
# scripts: false


def test_scripts_off_shows_the_core_printout_and_a_note(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", plugin_options={"scripts": False})
    site.write("docs/examples/example.py", "import sys\nsys.exit('this must not run')\n")
    site.page(
        "index.md",
        "# Scripts off\n\n"
        + seed_block(show="[output, code]", extra="script: examples/example.py"),
    )
    log = site.build(strict=True)
    assert log.selfattn() == []
    article = site.article()
    codes = _code_texts(article)
    assert _shows_printout(article)
    assert any("this must not run" in c for c in codes)  # the code view still shows the script
    assert "not run" in visible_text(article)


# ---------------------------------------------------------------------------------------------
# Start-up checks


# The mermaid fence: tests/plugin/test_messages_build.py (required only by blocks that show
# mermaid).


@pytest.mark.parametrize(
    ("cache_dir", "where"),
    [("docs/.selfattn-cache", "docs_dir"), ("docs", "docs_dir"), ("site/cache", "site_dir")],
)
def test_cache_dir_inside_docs_or_site_is_refused(
    tmp_path: Path, cache_dir: str, where: str
) -> None:
    site = new_site(
        tmp_path / "project", {"index.md": "# T\n"}, plugin_options={"cache_dir": cache_dir}
    )
    with pytest.raises(Abort):
        site.build()
    joined = "\n".join(site.messages)
    assert "cache_dir" in joined
    assert where in joined


def test_empty_cache_dir_means_memory_only(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "project",
        {"index.md": "# T\n\n" + seed_block()},
        plugin_options={"cache_dir": ""},
    )
    site.build(strict=True)
    assert _shows_printout(site.article())
    assert not (site.root / ".cache").exists()


# ---------------------------------------------------------------------------------------------
# Cache in real builds


# Cache and reproducibility builds are not strict, so that an unrelated warning (say, about a
# chart font) fails the tests about warnings, not these.
CACHED_PAGE = (
    "# Cached\n\n"
    + seed_block(show="[output, table, chart]", extra="script: examples/self_attention_memo.py")
    + "\nValue ⟨W=`{selfattn} memo weight 그것 절연캡`⟩.\n"
)


def _forbid_recomputing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make computing results and running scripts fail loudly (charts: see the miss counts)."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("recomputed although the cache holds the answer")

    monkeypatch.setattr(pipeline_module, "compute", refuse)
    monkeypatch.setattr(scripts_module, "run_script", refuse)


def test_second_build_uses_the_disk_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = new_site(tmp_path / "project", {"index.md": CACHED_PAGE}, course_script=True)
    first = site.build()
    cache = first.plugin.pipeline.cache
    assert cache.misses >= 3  # result, script, chart
    assert list(site.cache_dir.rglob("*.json"))
    before = site.page_bytes()

    _forbid_recomputing(monkeypatch)
    second = site.build()
    assert second.plugin.pipeline.cache.misses == 0
    assert second.plugin.pipeline.cache.hits >= 1  # the page memo answers for the whole page
    assert site.page_bytes() == before


def test_corrupt_cache_files_are_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = new_site(tmp_path / "project", {"index.md": CACHED_PAGE}, course_script=True)
    site.build()
    before = site.page_bytes()
    files = [p for p in site.cache_dir.rglob("*") if p.is_file()]
    assert files
    for path in files:
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])

    rebuilt = site.build()
    assert rebuilt.plugin.pipeline.cache.misses >= 3
    assert not [m for m in rebuilt.selfattn() if "cache" in m]
    assert site.page_bytes() == before

    # The damaged entries were replaced by good ones.
    _forbid_recomputing(monkeypatch)
    third = site.build()
    assert third.plugin.pipeline.cache.misses == 0
    assert site.page_bytes() == before


def test_changed_csv_is_not_served_from_the_cache(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", {"index.md": CACHED_PAGE}, course_script=True)
    site.build()
    csv_path = site.root / COURSE_CSV_REL
    text = csv_path.read_text(encoding="utf-8")
    row = "memo_cap_missing,그것,절연캡,missing_object,0.1,0.95,0.2,"
    assert row + "2.4\n" in text
    csv_path.write_text(text.replace(row + "2.4\n", row + "0.4\n"), encoding="utf-8")
    # The course script now prints other numbers too, so the strict build still passes.
    site.build()
    assert _marked(site.article(), "p")["W"][0] != "0.43"


# ---------------------------------------------------------------------------------------------
# Reproducible output


REPRO_PAGES = {
    "index.md": "# Home\n\n"
    + seed_block(show="[output, table, compare, csv, mermaid, chart]")
    + "\n⟨W=`{selfattn} memo weight 그것 절연캡`⟩\n",
    "data/outside.md": "# Outside docs\n\n"
    + seed_block(csv="../../data/memo.csv", show="[csv, compare]"),
}


def _repro_site(root: Path) -> Site:
    site = new_site(root, REPRO_PAGES)
    (root / "data").mkdir()
    shutil.copyfile(COURSE_CSV, root / "data" / "memo.csv")
    return site


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    site = _repro_site(tmp_path / "project")
    site.build()
    cold = site.page_bytes()
    site.build()  # warm cache
    assert site.page_bytes() == cold
    shutil.rmtree(site.cache_dir)
    site.build()  # cold again
    assert site.page_bytes() == cold
    assert len(cold) >= 2


def test_the_same_sources_in_another_folder_build_identical_pages(tmp_path: Path) -> None:
    first = _repro_site(tmp_path / "checkout-one" / "project")
    first.build()
    second = _repro_site(tmp_path / "checkout-two" / "elsewhere")
    second.build()
    one, two = first.page_bytes(), second.page_bytes()
    assert one.keys() == two.keys()
    different = [name for name in one if one[name] != two[name]]
    assert different == [], f"pages differ between checkouts: {different}"


def test_charts_drawn_in_workers_equal_charts_drawn_in_process(tmp_path: Path) -> None:
    pages = {"index.md": "# Chart\n\n" + seed_block(show="[chart]")}
    pooled = new_site(tmp_path / "pooled" / "project", pages, plugin_options={"chart_workers": 1})
    pooled.build()
    inline = new_site(tmp_path / "inline" / "project", pages, plugin_options={"chart_workers": 0})
    inline.build()
    assert pooled.article().find("svg")
    assert pooled.page_bytes() == inline.page_bytes()


# ---------------------------------------------------------------------------------------------
# Paths


def test_csv_outside_docs_dir_is_published_and_linked(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "project",
        {
            "index.md": "# Home\n\n" + seed_block(csv="../data/memo.csv", show="[csv, output]"),
            "deep/er/page.md": "# Deep\n\n"
            + seed_block(csv="../../../data/memo.csv", show="[csv]"),
            "slash.md": "# Slash\n\n" + seed_block(csv="/" + COURSE_CSV_IN_DOCS, show="[csv]"),
        },
    )
    (site.root / "data").mkdir()
    shutil.copyfile(COURSE_CSV, site.root / "data" / "memo.csv")
    log = site.build(strict=True)
    assert log.selfattn() == []
    for page in ("index.md", "deep/er/page.md", "slash.md"):
        article = site.article(page)
        [link] = [a for a in article.find_all("a") if "download" in a.attrs]
        href = link.attrs["href"]
        assert not href.startswith(("/", "file:")), href
        target = (site.html_path(page).parent / href).resolve()
        assert site.site_dir.resolve() in target.parents, f"{page}: {href} leaves the site"
        assert target.is_file(), f"{page}: {href} is not in the built site"
        assert target.read_bytes() == COURSE_CSV.read_bytes()
    assert _shows_printout(site.article())


def test_symlink_inside_the_project_is_allowed(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project")
    (site.root / "data").mkdir()
    shutil.copyfile(COURSE_CSV, site.root / "data" / "memo.csv")
    os.symlink(site.root / "data" / "memo.csv", site.docs / "memo-link.csv")
    site.page("index.md", "# T\n\n" + seed_block(csv="memo-link.csv"))
    log = site.build(strict=True)
    assert log.selfattn() == []
    assert _shows_printout(site.article())
