"""``mkdocs-selfattn migrate``, as real processes, on pages written the way the book's chapters
were published: the example script in a code block, then its printout pasted in the next.

The pages are in ``tests/migrate_pages/`` (the P5-13.2 page carries the seed chapter's script
and printout verbatim; the P5-13.1 and P5-13.3 pages the course's scripts and their printouts);
the CSVs are the published copies under ``docs/assets/``. After ``--write`` every migrated page
is built with ``mkdocs build --strict`` and must show the numbers that were pasted.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest
from sites import REPO, Completed, Site, new_site
from test_commands import cli

pytestmark = pytest.mark.slow

PAGES = REPO / "tests" / "migrate_pages"
CSV_FOLDER = "docs/assets/part-05/chapter-13"
SEED = "self-attention-seed.md"
LAYOUT_PAGES = {
    SEED: "targets",
    "attention-manual.md": "questions",
    "multihead-heads.md": "heads",
}


def project(root: Path, *pages: str) -> Site:
    """A site with the chapter's three CSVs where its scripts read them, and ``pages``."""
    site = new_site(root, course_csv=False)
    (root / CSV_FOLDER).mkdir(parents=True)
    for csv_file in (REPO / CSV_FOLDER).glob("*.csv"):
        shutil.copyfile(csv_file, root / CSV_FOLDER / csv_file.name)
    for name in pages:
        shutil.copyfile(PAGES / name, site.docs / name)
    return site


def migrate(site: Site, *args: str) -> Completed:
    return cli("migrate", *args, cwd=site.root)


def migrate_unchanged(site: Site, page: str, returncode: int) -> list[str]:
    """``--write`` that must leave ``page`` byte for byte and write no script: its messages."""
    before = (site.docs / page).read_bytes()
    done = migrate(site, "--write", f"docs/{page}")
    assert done.returncode == returncode, done.stdout + done.stderr
    assert (site.docs / page).read_bytes() == before
    assert not (site.docs / "examples").exists()
    return done.stdout.strip().split("\n")


def fenced(text: str, language: str) -> list[str]:
    """The bodies of the page's ``language`` fences."""
    pattern = rf"^```{language}[^\n]*\n(.*?)^```$"
    return re.findall(pattern, text, flags=re.MULTILINE | re.DOTALL)


def page_text(site: Site, page: str) -> str:
    """The built page's article as plain text (tags dropped, entities decoded)."""
    article = site.html(page).split("<article", 1)[1].split("</article>", 1)[0]
    return html.unescape(re.sub(r"<[^>]+>", "", article))


@pytest.mark.parametrize(("page", "layout"), LAYOUT_PAGES.items())
def test_a_published_page_becomes_a_block_that_builds_with_the_same_numbers(
    tmp_path: Path, page: str, layout: str
) -> None:
    site = project(tmp_path, page)
    before = (site.docs / page).read_bytes()
    [script] = fenced(before.decode(), "python")
    [pasted] = fenced(before.decode(), "text")

    proposed = migrate(site, f"docs/{page}")
    assert proposed.returncode == 0, proposed.stdout + proposed.stderr
    assert f"{layout} example, script kept as docs/examples/" in proposed.stdout
    assert (site.docs / page).read_bytes() == before  # no --write: nothing written
    assert not (site.docs / "examples").exists()

    done = migrate(site, "--write", f"docs/{page}")
    assert done.returncode == 0, done.stdout + done.stderr
    after = (site.docs / page).read_text(encoding="utf-8")
    assert not fenced(after, "python")
    assert not fenced(after, "text")
    blocks = fenced(after, "selfattn")
    assert blocks[0] in proposed.stdout  # what was proposed is what was written
    [kept] = (site.docs / "examples").glob("*.py")
    assert kept.read_text(encoding="utf-8") == script
    assert f"script: /examples/{kept.name}" in blocks[0]

    built = site.run()
    assert built.returncode == 0, built.stderr
    shown = page_text(site, page.removesuffix(".md") + "/index.md")
    for line in pasted.strip("\n").split("\n"):
        assert line.rstrip() in shown


def test_prose_between_script_and_printout_stays_between_two_blocks(tmp_path: Path) -> None:
    site = project(tmp_path, SEED)
    original = (site.docs / SEED).read_text(encoding="utf-8")
    prose = next(line for line in original.split("\n") if line.startswith("在输出里"))
    assert migrate(site, "--write", f"docs/{SEED}").returncode == 0
    after = (site.docs / SEED).read_text(encoding="utf-8")
    defining, shown = fenced(after, "selfattn")
    assert "show: [code]" in defining
    assert shown == "use: self-attention-seed\nshow: [output]\n"
    assert after.index(defining) < after.index(prose) < after.index(shown)
    # Everything outside the two fences is as it was.
    head, tail = original.split("```python", 1)[0], original.rsplit("```", 1)[1]
    assert after.startswith(head)
    assert after.endswith(tail)


def _stale_seed(site: Site) -> tuple[Path, dict[int, tuple[str, str]]]:
    """The seed page with two pasted numbers edited; {page line: (pasted, true)}."""
    path = site.docs / SEED
    lines = path.read_text(encoding="utf-8").split("\n")
    edits = {
        "绝缘帽 weight = 0.43 ": ("0.43", "0.41"),
        "cap_plus_not_applied_weight = 0.55": ("0.55", "0.56"),
    }
    stale: dict[int, tuple[str, str]] = {}
    for number, line in enumerate(lines, start=1):
        for needle, (true, wrong) in edits.items():
            if line.startswith(needle):
                lines[number - 1] = line.replace(true, wrong, 1)
                stale[number] = (wrong, true)
    path.write_text("\n".join(lines), encoding="utf-8")
    assert len(stale) == 2
    return path, stale


def test_stale_pasted_numbers_are_each_named_with_their_line(tmp_path: Path) -> None:
    site = project(tmp_path, SEED)
    path, stale = _stale_seed(site)
    before = path.read_bytes()
    done = migrate(site, f"docs/{SEED}")
    assert done.returncode == 1
    reported = [line for line in done.stdout.split("\n") if "stale number:" in line]
    assert reported == [
        f"docs/{SEED}:{line}: stale number: the pasted printout says {wrong}, the script "
        f"prints {true} (1st number of the line)"
        for line, (wrong, true) in stale.items()
    ]
    assert path.read_bytes() == before

    written = migrate(site, "--write", f"docs/{SEED}")
    assert written.returncode == 1  # the page had stale numbers; they are gone now
    assert site.run().returncode == 0
    shown = page_text(site, "self-attention-seed/index.md")
    assert "绝缘帽 weight = 0.43 " in shown
    assert "cap_plus_not_applied_weight = 0.55\n" in shown
    assert "weight = 0.41 " not in shown
    assert "weight = 0.56" not in shown


def test_a_script_that_disagrees_with_the_core_is_reported_and_not_migrated(
    tmp_path: Path,
) -> None:
    site = project(tmp_path, SEED)
    path = site.docs / SEED
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"weight =", round(weight, 3)', '"weight =", round(weight, 2)'))
    messages = migrate_unchanged(site, SEED, 1)
    # 12 weights, of which 0.43 prints the same at 2 places: one message per number.
    assert len(messages) == 11
    assert all("where the core computes" in m for m in messages)
    assert f"docs/{SEED}:" in messages[0]
    assert "the script prints 0.05 where the core computes 0.048" in messages[0]


@pytest.mark.parametrize(
    ("page", "why"),
    [
        ("no-pairs.md", "left as it is: no python code block that reads a CSV"),
        ("not-attention.md", "left as it is: its printout is not one the plugin computes"),
        ("not-its-printout.md", "left as it is: the text block at line"),
    ],
)
def test_pages_it_must_leave_alone_stay_byte_identical(tmp_path: Path, page: str, why: str) -> None:
    site = project(tmp_path, page)
    [message] = migrate_unchanged(site, page, 0)
    assert message.startswith(f"docs/{page}")
    assert why in message


def test_a_failing_script_is_an_input_error_naming_its_line(tmp_path: Path) -> None:
    site = project(tmp_path, SEED)
    path = site.docs / SEED
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("import math\n", "import math\nraise SystemExit('no CSV')\n"))
    [message] = migrate_unchanged(site, SEED, 2)
    line = text.split("\n").index('```python linenums="1"') + 1
    assert message.startswith(f"docs/{SEED}:{line}: script of this code block exited")
    assert "no CSV" in message


def test_a_page_that_cannot_be_written_stays_whole(tmp_path: Path) -> None:
    site = project(tmp_path, SEED)
    (site.docs / "examples").write_text("a file where the scripts folder goes")
    before = (site.docs / SEED).read_bytes()
    done = migrate(site, "--write", f"docs/{SEED}")
    assert done.returncode == 2
    assert f"docs/{SEED} is unchanged" in done.stdout
    assert (site.docs / SEED).read_bytes() == before


def test_windows_line_endings_are_kept(tmp_path: Path) -> None:
    site = project(tmp_path, "multihead-heads.md")
    path = site.docs / "multihead-heads.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert migrate(site, "--write", "docs/multihead-heads.md").returncode == 0
    data = path.read_bytes()
    assert b"```selfattn\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["docs/missing.md"], "docs/missing.md: cannot read the page"),
        (["--timeout", "0", "docs/x.md"], "greater than 0"),
        ([], "the following arguments are required: PAGE"),
    ],
)
def test_usage_and_input_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    site = project(tmp_path)
    done = migrate(site, *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_a_page_that_is_not_utf8_is_an_input_error(tmp_path: Path) -> None:
    site = project(tmp_path)
    (site.docs / "latin.md").write_bytes("# Title\n\nCaf\xe9\n".encode("latin-1"))
    done = migrate(site, "docs/latin.md")
    assert done.returncode == 2
    assert done.stderr == (
        "mkdocs-selfattn: error: docs/latin.md:3: not UTF-8; save the page as UTF-8\n"
    )
