"""``inspect``, ``new``, ``--version`` and copyable ``--format markdown``, as real processes; the
block ``inspect`` prints and the course ``new`` writes are built with ``mkdocs build --strict``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sites import REPO, Completed, new_site

from mkdocs_selfattn import __version__

pytestmark = pytest.mark.slow

TROPHY = REPO / "docs" / "plugin" / "data" / "trophy.csv"
KOREAN = REPO / "docs" / "plugin" / "data" / "korean.csv"


def cli(*args: str, cwd: Path) -> Completed:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env |= {"PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs_selfattn", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=180,
        check=False,
    )
    return Completed(done.returncode, done.stdout, done.stderr)


def test_version(tmp_path: Path) -> None:
    done = cli("--version", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, f"mkdocs-selfattn {__version__}\n")


# ---------------------------------------------------------------------------------------------
# inspect

TROPHY_INSPECTED = """\
data/trophy.csv: 20 rows, 2 documents
columns: document_id (document), target_token (target), candidate_token (candidate), \
candidate_role (role), object (vector), container (vector), size (vector), score (score)

document trophy_big (10 rows)
  target it: trophy, fit, suitcase, it, big
  target fit: trophy, fit, suitcase, it, big

document trophy_small (10 rows)
  target it: trophy, fit, suitcase, it, small
  target fit: trophy, fit, suitcase, it, small

A block for the first document (csv: the path from the page to this file):

```selfattn
id: trophy_big
csv: data/trophy.csv
document: trophy_big
targets: [it, fit]
show: [output, table, chart]
```

`{selfattn} trophy_big weight it trophy`
"""


def pasted_block(printout: str) -> str:
    return printout[printout.index("```selfattn") :]


def test_inspect_lists_the_csv_and_its_block_builds(tmp_path: Path) -> None:
    site = new_site(tmp_path / "site", course_csv=False)
    (site.docs / "data").mkdir(parents=True)
    shutil.copyfile(TROPHY, site.docs / "data" / "trophy.csv")
    done = cli("inspect", "data/trophy.csv", cwd=site.docs)
    assert done.returncode == 0, done.stderr
    assert done.stdout == TROPHY_INSPECTED
    site.page("index.md", "# Pasted\n\n" + pasted_block(done.stdout))
    built = site.run()
    assert built.returncode == 0, built.stderr
    article = site.article()
    assert len(article.find_all("table")) == 2  # one per target
    assert "0.473" in article.text()  # the inline value, computed


def test_inspect_with_mapped_columns_and_a_text_column(tmp_path: Path) -> None:
    site = new_site(tmp_path / "site", course_csv=False)
    site.docs.mkdir(exist_ok=True)
    shutil.copyfile(KOREAN, site.docs / "korean.csv")
    mapping = ["document=sentence", "target=query", "candidate=key", "role=key_role"]
    done = cli("inspect", "korean.csv", "--columns", *mapping, "score=relevance", cwd=site.docs)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == (
        "columns: sentence (document), query (target), key (candidate), key_role (role), gloss, "
        "animal (vector), container (vector), size (vector), relevance (score)"
    )
    assert "  target 그것: 고양이, 상자, 들어가지, 그것, 작았기" in lines
    assert (
        "columns: {document: sentence, target: query, candidate: key, role: key_role, "
        "score: relevance}" in lines
    )
    assert "vectors: [animal, container, size]" in lines  # gloss is text, so named apart
    site.page("index.md", "# Pasted\n\n" + pasted_block(done.stdout))
    built = site.run()
    assert built.returncode == 0, built.stderr


def test_inspect_errors_are_one_line(tmp_path: Path) -> None:
    missing = cli("inspect", "nope.csv", cwd=tmp_path)
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr == "mkdocs-selfattn: error: nope.csv: file not found; check the path\n"
    unmapped = cli("inspect", str(KOREAN), cwd=tmp_path)
    assert unmapped.returncode == 1
    assert unmapped.stderr.startswith(f"mkdocs-selfattn: error: {KOREAN}:1: missing column(s) ")
    assert unmapped.stderr.count("\n") == 1
    bad_role = cli("inspect", str(TROPHY), "--columns", "doc=x", cwd=tmp_path)
    assert bad_role.returncode == 2
    assert "--column role 'doc' is unknown" in bad_role.stderr


def test_inspect_lists_data_mistakes_and_suggests_columns(tmp_path: Path) -> None:
    header = "sentence,target_token,candidate_token,candidate_role,v,score\n"
    rows = "d,t,a,r,1,1\nd,t,b,r,2,2\nd,t,a,r,1,1\n"
    (tmp_path / "dup.csv").write_text(header + rows, encoding="utf-8")
    done = cli("inspect", "dup.csv", "--columns", "document=sentence", cwd=tmp_path)
    assert "  target t: a, b, a\n  error: dup.csv:4: candidate 'a' appears twice" in done.stdout
    typo = cli("inspect", "dup.csv", "--columns", "document=sentenc", cwd=tmp_path)
    assert typo.returncode == 1
    assert typo.stderr.startswith(
        "mkdocs-selfattn: error: dup.csv:1: missing column(s) 'sentenc' (did you mean "
        "'sentence'?); the header has sentence, "
    )


# ---------------------------------------------------------------------------------------------
# new


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Completed]:
    parent = tmp_path_factory.mktemp("starter")
    return parent / "course", cli("new", "course", cwd=parent)


def test_new_writes_a_course(starter: tuple[Path, Completed]) -> None:
    course, done = starter
    assert done.returncode == 0, done.stderr
    written = sorted(p.relative_to(course).as_posix() for p in course.rglob("*") if p.is_file())
    assert written == [
        ".gitignore",
        "docs/chapter-1.md",
        "docs/data/trophy.csv",
        "docs/examples/trophy_attention.py",
        "docs/index.md",
        "mkdocs.yml",
    ]
    assert done.stdout.splitlines()[-1] == "next: cd course && mkdocs serve"
    chapter = (course / "docs" / "chapter-1.md").read_text(encoding="utf-8")
    for view in ("output", "table", "compare", "csv", "mermaid", "chart", "code"):
        assert view in chapter
    assert "`{selfattn} big weight it trophy`" in chapter


def test_the_starter_builds_strict_and_checks_clean(starter: tuple[Path, Completed]) -> None:
    course, _ = starter
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env |= {"PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=course,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr
    page = (course / "site" / "chapter-1" / "index.html").read_text(encoding="utf-8")
    assert page.count('<div class="selfattn-chart-box"><svg') == 1
    assert '<pre class="mermaid"><code>flowchart' in page or 'class="mermaid"' in page
    checked = cli("check", cwd=course)
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout == (
        "mkdocs-selfattn check: 2 pages, 4 blocks, 5 inline values: no problems\n"
    )


def test_the_starter_script_prints_the_core_printout(starter: tuple[Path, Completed]) -> None:
    course, _ = starter
    script = subprocess.run(
        [sys.executable, "docs/examples/trophy_attention.py"],
        cwd=course,
        capture_output=True,
        text=True,
        check=True,
    )
    core = cli(
        "run", "docs/data/trophy.csv", "--document", "trophy_big", "--target", "it",
        "--target", "fit", "--group", "object_and_size=trophy,big", cwd=course,
    )  # fmt: skip
    assert core.returncode == 0, core.stderr
    assert script.stdout == core.stdout


def test_the_starter_script_reads_a_csv_with_a_bom(tmp_path: Path) -> None:
    done = cli("new", "c", cwd=tmp_path)
    assert done.returncode == 0
    data = tmp_path / "c" / "docs" / "data" / "trophy.csv"
    data.write_bytes(b"\xef\xbb\xbf" + data.read_bytes())
    checked = cli("check", cwd=tmp_path / "c")
    assert checked.returncode == 0, checked.stdout


def test_new_refuses_a_folder_with_content(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.md").write_text("mine\n", encoding="utf-8")
    done = cli("new", "full", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "mkdocs-selfattn: error: full is not empty; name a new or empty folder "
        "(nothing was written)\n"
    )
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["notes.md"]
    (tmp_path / "file").write_text("x", encoding="utf-8")
    as_file = cli("new", "file", cwd=tmp_path)
    assert as_file.returncode == 1
    assert as_file.stderr == (
        "mkdocs-selfattn: error: file is a file; name a new folder for the course\n"
    )
    (tmp_path / "empty").mkdir()
    assert cli("new", "empty", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize(
    ("make", "name", "message"),
    [
        (
            lambda root: (root / "afile").write_text("x"),
            "afile/sub",
            "cannot write the starter "
            "course at afile/sub (Not a directory); name a folder you can create",
        ),
        (
            lambda root: (root / "dangling").symlink_to(root / "nowhere"),
            "dangling",
            "dangling is a link to nothing; name a new folder for the course",
        ),
        (
            lambda root: None,
            "/proc/selfattn-new",
            "cannot write the starter course at "
            "/proc/selfattn-new (No such file or directory); name a folder you can create",
        ),
    ],
    ids=["under-a-file", "dangling-link", "unwritable"],
)
def test_new_into_a_place_it_cannot_write_is_one_message(
    tmp_path: Path, make: Callable[[Path], object], name: str, message: str
) -> None:
    make(tmp_path)
    done = cli("new", name, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"mkdocs-selfattn: error: {message}\n"


# ---------------------------------------------------------------------------------------------
# run --format markdown


def test_markdown_is_copyable_without_character_references(tmp_path: Path) -> None:
    data = tmp_path / "marks.csv"
    data.write_text(
        "document_id,target_token,candidate_token,candidate_role,x,score\n"
        "d,it,a|b,<b>role</b>,0.5,1.0\n"
        "d,it,*star*,&amp;,0.1,2.0\n",
        encoding="utf-8",
    )
    done = cli("run", str(data), "--document", "d", "--format", "markdown", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "&#" not in done.stdout
    assert "&lt;" not in done.stdout
    rows = [line for line in done.stdout.splitlines() if line.startswith("| a")]
    assert rows[0] == "| a\\|b | \\<b\\>role\\</b\\> | 1.0 | 0.269 | 0.5 |"
    assert "| \\*star\\* | \\&amp; | 2.0 | **0.731** | 0.1 |" in done.stdout
    # A CommonMark renderer (GitHub's dialect: tables) shows every mark as it is in the CSV.
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("table").render(done.stdout)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", html)
    assert cells[:5] == ["a|b", "&lt;b&gt;role&lt;/b&gt;", "1.0", "0.269", "0.5"]
    assert cells[5:7] == ["*star*", "&amp;amp;"]
