"""Messages in real builds: one per mistake per page, a broken file once per build, the whole
script diff on the page and under ``--verbose``, and the mermaid fence only where it is used.

Exact texts of single messages: tests/build/test_messages.py.
"""

from __future__ import annotations

import difflib
import html
import subprocess
import sys
from pathlib import Path

import pytest
from sites import (
    COURSE_CSV,
    COURSE_CSV_REL,
    COURSE_SCRIPT,
    SEED_PRINTOUT,
    Completed,
    Site,
    block,
    line_of,
    new_site,
    seed_block,
)

from mkdocs_selfattn.build.block_errors import MERMAID_FENCE_MISSING

pytestmark = pytest.mark.slow

CSV_IN_DOCS = COURSE_CSV_REL.removeprefix("docs/")
COURSE_LINES = COURSE_CSV.read_text(encoding="utf-8").split("\n")


def _bad_cell_csv() -> str:
    lines = list(COURSE_LINES)
    lines[3] = lines[3].rsplit(",", 1)[0] + ",high"
    return "\n".join(lines)


def _duplicate_row_csv() -> str:
    lines = list(COURSE_LINES)
    return "\n".join([*lines[:4], lines[2], *lines[4:]])  # line 3 again, as line 5


def _uneven_csv() -> str:
    return "\n".join(line for n, line in enumerate(COURSE_LINES, start=1) if n != 13)


TYPO_PAGE = (
    "# Typo\n\n"
    + seed_block().replace("display:", "dispaly:")
    + "\n"
    + block("use: memo\nshow: [table]")
    + "\nWeights `{selfattn} memo weight 그것 절연캡` and `{selfattn} memo top 그것`.\n\n"
    + block("use: memo\nshow: [compare]")
    + "\nRows: `{selfattn} memo csv_rows`.\n"
)
BAD1_PAGE = (
    "# Bad one\n\n"
    + seed_block(csv="data/bad.csv", example_id="one")
    + "\nTop `{selfattn} one top 그것`.\n\n"
    + seed_block(csv="data/bad.csv", example_id="two")
    + "\n"
    + block("use: two\nshow: [table]")
)
BAD2_PAGE = (
    "# Bad two\n\n"
    + seed_block(csv="data/bad.csv", example_id="three")
    + ("\nTop `{selfattn} three top 그것`.\n")
)
DUP_PAGE = "# Dup\n\n" + seed_block(csv="data/dup.csv", example_id="dup")
SCRIPT_PAGE = (
    "# Script\n\n"
    + seed_block(example_id="scripted", extra="script: examples/bad_script.py")
    + "\n"
    + block("use: scripted\nshow: [table]")
)


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> tuple[Site, Completed]:
    pages = {
        "typo.md": TYPO_PAGE,
        "bad1.md": BAD1_PAGE,
        "bad2.md": BAD2_PAGE,
        "dup.md": DUP_PAGE,
        "script.md": SCRIPT_PAGE,
        "script2.md": SCRIPT_PAGE,  # the same failure again: marked there, logged once
        # Read first with the option, so the second block gets the result (and its warning)
        # from the cache.
        "mixed.md": "# Mixed\n\n"
        + seed_block(csv="data/uneven.csv", example_id="mixed", extra="mixed_candidates: true"),
        "uneven.md": "# Uneven\n\n" + seed_block(csv="data/uneven.csv", example_id="uneven"),
    }
    site = new_site(tmp_path_factory.mktemp("messages") / "project", pages)
    site.write("docs/data/bad.csv", _bad_cell_csv())
    site.write("docs/data/dup.csv", _duplicate_row_csv())
    site.write("docs/data/uneven.csv", _uneven_csv())
    script = COURSE_SCRIPT.read_text(encoding="utf-8")
    assert "return round(x, 3)" in script
    site.write("docs/examples/bad_script.py", script.replace("round(x, 3)", "round(x, 2)"))
    return site, site.run("--verbose", strict=False)


def _warnings(result: Completed) -> list[str]:
    return [
        line.removeprefix("WARNING").lstrip(" -")
        for line in result.stderr.splitlines()
        if line.startswith("WARNING") and "selfattn:" in line
    ]


def test_each_mistake_is_one_message_per_build(broken: tuple[Site, Completed]) -> None:
    _, result = broken
    assert result.returncode == 0, result.stderr
    typo = line_of(TYPO_PAGE, "dispaly:")
    bad1 = line_of(BAD1_PAGE, "```selfattn")
    dup = line_of(DUP_PAGE, "```selfattn")
    script = line_of(SCRIPT_PAGE, "```selfattn")
    messages = _warnings(result)
    mismatch = [m for m in messages if "differs from the numbers" in m]
    assert len(mismatch) == 1, messages
    assert mismatch[0].startswith(
        f"docs/script.md:{script}: selfattn: the output of script docs/examples/bad_script.py "
        "differs from the numbers computed from the CSV: @@ -3 +3 @@ | "
    )
    assert mismatch[0].endswith(
        " more diff lines: the page and --verbose show them all); fix the script or the "
        "block's options so both agree"
    )
    assert [m for m in messages if m not in mismatch] == [
        # Pages are built in file order: bad1.md reads the broken CSV first, and alone says so.
        f"docs/bad1.md:{bad1}: selfattn: docs/data/bad.csv:4: column 'score': 'high' is not a "
        "number; write a decimal number such as 1.25",
        f"docs/bad1.md:{bad1}: selfattn: 1 more use of example 'one' on this page skipped",
        f"docs/dup.md:{dup}: selfattn: docs/data/dup.csv:5: candidate '분리' appears twice for "
        "target '그것' of document 'memo_cap_missing' (lines 3 and 5); delete one of the rows "
        "(if the token occurs at two positions, add target_index and candidate_index columns)",
        f"docs/script.md:{script}: selfattn: 1 more use of example 'scripted' on this page skipped",
        f"docs/typo.md:{typo}: selfattn: unknown key 'dispaly'; did you mean 'display'?",
        f"docs/typo.md:{typo}: selfattn: 5 more uses of example 'memo' on this page skipped",
        "docs/uneven.md:3: selfattn: docs/data/uneven.csv:8: target '씌우지' of document "
        "'memo_cap_missing' lacks '위험' compared with target '그것' (line 2); give every target "
        "the same candidates, or set 'mixed_candidates: true' if that is intended",
    ]


def test_every_dependant_is_still_marked_on_its_page(broken: tuple[Site, Completed]) -> None:
    site, _ = broken
    typo = site.html("typo.md")
    memo_line = line_of(TYPO_PAGE, "```selfattn")
    assert typo.count(f"shows the example of line {memo_line}, which failed") == 2
    assert typo.count(f"the example of line {memo_line} failed; fix that block first") == 3
    assert "no example" not in typo
    bad2 = site.html("bad2.md")
    assert bad2.count("&#x27;high&#x27; is not a number") + bad2.count("'high' is not a number")
    assert bad2.count('selfattn-error"') == 2  # the block's box and its inline value's marker


def test_a_mismatch_shows_the_whole_diff(broken: tuple[Site, Completed]) -> None:
    site, result = broken
    output = subprocess.run(
        [sys.executable, "docs/examples/bad_script.py"],
        cwd=site.root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    ).stdout
    expected = SEED_PRINTOUT.read_text(encoding="utf-8")
    diff = "\n".join(
        difflib.unified_diff(
            expected.splitlines(),
            output.splitlines(),
            "core printout",
            "script output",
            lineterm="",
        )
    )
    assert diff.count("\n+") > 10  # more than the log line shows
    line = line_of(SCRIPT_PAGE, "```selfattn")
    assert f"docs/script.md:{line}: selfattn: the whole diff:\n{diff}\n" in result.stderr
    assert site.html("script2.md").count('<details class="selfattn-diff">') == 1
    page = site.html("script.md")
    details = page.split('<details class="selfattn-diff">', 1)[1].split("</details>", 1)[0]
    assert html.unescape(details.split("<code>", 1)[1].split("</code>", 1)[0]) == diff


def test_mermaid_fence_is_needed_only_by_mermaid_views(tmp_path: Path) -> None:
    plain = "# Plain\n\n" + seed_block(show="[table, compare]")
    site = new_site(tmp_path / "project", {"index.md": plain}, mermaid_fence=False)
    clean = site.run(strict=True)
    assert clean.returncode == 0, clean.stderr
    assert "selfattn:" not in clean.stderr

    drawn = (
        "# Drawn\n\n"
        + seed_block(show="[table, mermaid]")
        + "\n"
        + block("use: memo\nshow: [mermaid]")
    )
    site.page("drawn.md", drawn)
    loose = site.run(strict=False)
    assert loose.returncode == 0, loose.stderr
    first = line_of(drawn, "```selfattn")
    assert _warnings(loose) == [f"docs/drawn.md:{first}: selfattn: {MERMAID_FENCE_MISSING}"]
    page = site.html("drawn.md")
    assert page.count("the &#x27;mermaid&#x27; view needs pymdownx.superfences") == 2
    assert site.article("drawn.md").find_all("table")  # the table view still renders
    assert site.run(strict=True).returncode != 0


def test_uneven_targets_still_render(broken: tuple[Site, Completed]) -> None:
    site, _ = broken
    for page in ("uneven.md", "mixed.md"):
        assert "selfattn-error" not in site.html(page)
        assert "focus_document_rows = 11" in site.article(page).text()
