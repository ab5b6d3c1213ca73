"""Real builds of the questions and heads layouts with the course scripts and the drafts' blocks:
the ``output`` view is the script's real output and must equal the template filled from the core;
``table``, ``compare`` and ``csv`` render; every inline value of the drafts resolves."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
from reading_fixtures import HEADS_CSV, MANUAL_CSV
from sites import Site, line_of, new_site, table_rows, visible_text

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
DRAFTS = REPO / "tests" / "drafts"
ASSETS = "docs/assets/part-05/chapter-13"
SCRIPTS = ("attention_manual_lines.py", "multihead_report_scenarios.py")
VIEWS = {"manual": "[code, output, table, compare, csv]", "heads": "[output, table, compare, csv]"}

sys.path.insert(0, str(DRAFTS))
from inline_values import evaluate  # noqa: E402


def _blocks(name: str) -> list[str]:
    """The draft's defining blocks, shown with the views this work provides."""
    text = (DRAFTS / name).read_text(encoding="utf-8")
    found = []
    for body in re.findall(r"```selfattn\n(.*?)```", text, re.S):
        if not body.startswith("id: "):
            continue
        example = body.split("\n", 1)[0][4:]
        show = VIEWS.get(example, "[]")
        body = re.sub(r"^show: .*$", f"show: {show}", body, flags=re.M)
        body = re.sub(r"^text: .*$", "", body, flags=re.M)
        found.append("```selfattn\n" + body + "```\n")
    return found


def _prose(name: str) -> list[str]:
    """The draft's lines holding inline values (outside tables), as the chapter has them."""
    text = (DRAFTS / name).read_text(encoding="utf-8")
    return [
        line.strip()
        for line in text.splitlines()
        if "`{selfattn} " in line and not line.lstrip().startswith("|")
    ]


def _project(root: Path) -> Site:
    site = new_site(root, course_csv=False)
    for source in (MANUAL_CSV, HEADS_CSV):
        target = site.root / ASSETS / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    for script in SCRIPTS:
        target = site.docs / "examples" / script
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / "docs" / "examples" / script, target)
    return site


@pytest.fixture(scope="module")
def chapters(tmp_path_factory: pytest.TempPathFactory) -> Site:
    site = _project(tmp_path_factory.mktemp("chapters"))
    for page, draft in (
        ("manual.md", "p5-13-1-attention.md"),
        ("heads.md", "p5-13-3-qkv-multihead.md"),
    ):
        body = "\n".join(_blocks(draft)) + "\n" + "\n\n".join(f"- {p}" for p in _prose(draft))
        site.page(page, f"# {draft}\n\n{body}\n")
    done = site.run()
    assert done.returncode == 0, done.stderr
    return site


def _script_output(script: str) -> str:
    import subprocess

    done = subprocess.run(
        [sys.executable, str(REPO / "docs" / "examples" / script)],
        cwd=REPO,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode("utf-8")


@pytest.mark.parametrize(("page", "script"), [("manual.md", SCRIPTS[0]), ("heads.md", SCRIPTS[1])])
def test_output_view_is_the_scripts_output(chapters: Site, page: str, script: str) -> None:
    article = chapters.article(page)
    outputs = [code.text() for code in article.find_all("code") if "csv_rows = " in code.text()]
    assert outputs, page
    assert outputs[0].strip() == _script_output(script).strip()


def test_tables_of_both_layouts(chapters: Site) -> None:
    manual = [table_rows(t) for t in chapters.article("manual.md").find_all("table")]
    # three question tables (40 lines + context/baseline/shift), the compare, the csv
    assert [len(t) for t in manual] == [44, 44, 44, 1 + 40 + 3 + 1, 41]
    # the questions layout reads lines: its own word
    assert manual[0][0] == ["line", "role", "score", "weight", "evidence_signal"]
    assert manual[3][-1] == ["context", "", "4.685", "9.922", "6.449"]
    heads = [table_rows(t) for t in chapters.article("heads.md").find_all("table")]
    # per scenario the tokens table and the separations, then the compare, then the csv
    assert [len(t) for t in heads] == [9, 4, 9, 4, 9, 4, 4, 10]
    assert heads[1][2][-1] == "0.335"
    assert heads[6][2][-1] == "1.14"


@pytest.mark.parametrize(
    ("page", "draft"),
    [("manual.md", "p5-13-1-attention.md"), ("heads.md", "p5-13-3-qkv-multihead.md")],
)
def test_every_inline_value_of_the_drafts_builds(chapters: Site, page: str, draft: str) -> None:
    text = visible_text(chapters.article(page))
    for _, line in evaluate(DRAFTS / draft):
        words = re.sub(r"[`*]", "", line.strip().removeprefix("- ")).split()
        assert " ".join(words) in text, line


def test_a_script_that_prints_other_numbers_fails_the_build(tmp_path: Path) -> None:
    site = _project(tmp_path)
    script = site.docs / "examples" / SCRIPTS[1]
    script.write_text(
        script.read_text(encoding="utf-8").replace("round(x, 3)", "round(x, 2)"), encoding="utf-8"
    )
    [heads] = [b for b in _blocks("p5-13-3-qkv-multihead.md") if "id: heads\n" in b]
    site.page("index.md", "# H\n\n" + heads)
    done = site.run()
    assert done.returncode == 1
    assert "differs from the numbers computed from the CSV" in done.stderr, done.stderr
    assert "-head_separation = 0.335" in done.stderr or "head_separation" in done.stderr


def test_a_broken_template_is_one_message_at_its_template_line(tmp_path: Path) -> None:
    site = _project(tmp_path)
    [manual] = [b for b in _blocks("p5-13-1-attention.md") if "id: manual\n" in b]
    manual = manual.replace("{{ q.context | r3 }}", "{{ q.contxt | r3 }}")
    manual = re.sub(r"^script: .*\n", "", manual, flags=re.M).replace("[code, ", "[")
    page = "# M\n\n" + manual
    site.page("index.md", page)
    done = site.run()
    assert done.returncode == 1
    line = line_of(page, "template: |")
    expected = (
        f"docs/index.md:{line}: selfattn: template line 5 `context = {{{{ q.contxt | r3 }}}}`: "
        "a question has no 'contxt' (did you mean 'context'?)"
    )
    assert expected in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    from test_check import run_check

    checked = run_check(site)
    assert checked.returncode == 1
    assert f"docs/index.md:{line}: selfattn: template line 5 `context" in checked.stdout
