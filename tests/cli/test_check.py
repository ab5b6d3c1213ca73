"""``mkdocs-selfattn check``: the pages a build would build, the build's own messages, no site,
no charts, and exit 1 on any problem. Every run is a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sites import COURSE_SCRIPT, REPO, Site, line_of, new_site, seed_block

pytestmark = pytest.mark.slow


def run_check(
    site: Site, *args: str, python: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(REPO)
    command = [sys.executable, *python, "-m", "mkdocs_selfattn", "check"]
    return subprocess.run(
        [*command, "-f", str(site.config_file), *args],
        cwd=site.root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=180,
        check=False,
    )


def build_warnings(site: Site) -> list[str]:
    """The WARNING lines of a real, non-strict ``mkdocs build``, without the level prefix."""
    done = site.run(strict=False)
    assert done.returncode == 0, done.stderr
    return [
        line.removeprefix("WARNING -  ")
        for line in done.stderr.splitlines()
        if line.startswith("WARNING -  ")
    ]


GOOD_PAGE = (
    "# Good\n\n"
    + seed_block(show="[output, table, compare, csv, mermaid, chart]")
    + "\n“它” gives 绝缘帽 `{selfattn} memo weight 그것 절연캡`.\n"
)


def test_a_good_site_passes_writes_no_site_and_draws_no_chart(tmp_path: Path) -> None:
    site = new_site(tmp_path / "good", {"index.md": GOOD_PAGE})
    done = run_check(site, python=("-X", "importtime"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "mkdocs-selfattn check: 1 page, 1 block, 1 inline value: no problems\n"
    assert not site.site_dir.exists()
    # Results were computed and cached, no chart was drawn: of matplotlib only the font manager
    # (the glyph check reads the fonts' character maps), never a figure, axes or pyplot.
    assert sorted(p.name for p in site.cache_dir.iterdir()) == ["result"]
    imported = [line.split("|")[-1].strip() for line in done.stderr.splitlines()]
    assert "numpy" in imported
    assert "matplotlib.font_manager" in imported
    drawing = (
        "matplotlib.figure",
        "matplotlib.axes",
        "matplotlib.pyplot",
        "matplotlib.backends.backend",
    )
    assert not [name for name in imported if name.startswith(drawing)]


BROKEN_CONFIG_TAIL = """\
exclude_docs: |
  excluded.md
not_in_nav: |
  hidden.md
nav:
  - index.md
  - other.md
"""

SCRIPT_OFF_BY_ONE = COURSE_SCRIPT.read_text(encoding="utf-8").replace(
    'print("csv_rows =", total_rows)', 'print("csv_rows =", total_rows + 1)'
)


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """Four kinds of mistakes on pages that are built, and one on a page that is not."""
    root = tmp_path_factory.mktemp("broken")
    bad_key = seed_block(extra="targetz: [그것]", show="[table, chart]").replace(
        "targets: [그것, 씌우지]\n", ""
    )
    pages = {
        "index.md": "# Index\n\n" + bad_key + "\nValue `{selfattn} memo weight 그것 절연캡`.\n",
        "other.md": "# Other\n\n" + seed_block(csv="assets/missing.csv", show="[chart]"),
        "hidden.md": "# Hidden\n\n" + seed_block(extra="script: examples/self_attention_memo.py"),
        "excluded.md": "# Excluded\n\n" + seed_block(csv="nowhere.csv"),
    }
    site = new_site(root, pages, course_script=True)
    (root / "docs" / "examples" / COURSE_SCRIPT.name).write_text(SCRIPT_OFF_BY_ONE, "utf-8")
    with site.config_file.open("a", encoding="utf-8") as handle:
        handle.write(BROKEN_CONFIG_TAIL)
    return site


@pytest.fixture(scope="module")
def broken_text(broken: Site) -> subprocess.CompletedProcess[str]:
    return run_check(broken)


def test_problems_are_the_builds_own_messages(
    broken: Site, broken_text: subprocess.CompletedProcess[str]
) -> None:
    assert broken_text.returncode == 1
    *problems, summary = broken_text.stdout.splitlines()
    assert summary == (
        f"mkdocs-selfattn check: 3 pages, 3 blocks, 1 inline value: {len(problems)} problems"
    )
    assert problems == [w for w in build_warnings(broken) if "selfattn:" in w]


def test_each_mistake_is_named_with_page_and_line(
    broken: Site, broken_text: subprocess.CompletedProcess[str]
) -> None:
    out = broken_text.stdout
    index = (broken.docs / "index.md").read_text(encoding="utf-8")
    key_line = line_of(index, "targetz")
    assert f"docs/index.md:{key_line}: selfattn: unknown key 'targetz'" in out
    other = (broken.docs / "other.md").read_text(encoding="utf-8")
    # The block's line, or the key's where messages point at the key.
    assert any(
        f"docs/other.md:{line}: selfattn: docs/assets/missing.csv: "
        "file not found; check the path\n" in out
        for line in (line_of(other, "```selfattn"), line_of(other, "csv:"))
    )
    # not_in_nav pages are built, so checked; the script really ran and disagreed.
    assert "docs/hidden.md:" in out
    assert "the output of script docs/examples/self_attention_memo.py differs" in out
    # exclude_docs pages are not built, so not checked.
    assert "excluded.md" not in out
    assert "nowhere.csv" not in out


def test_json_lists_page_line_and_message(
    broken: Site, broken_text: subprocess.CompletedProcess[str]
) -> None:
    done = run_check(broken, "--format", "json")
    assert done.returncode == 1
    payload = json.loads(done.stdout)
    lines = broken_text.stdout.splitlines()[:-1]
    assert [p["text"] for p in payload["problems"]] == lines
    for problem in payload["problems"]:
        where = f"{problem['page']}:{problem['line']}"
        assert problem["text"] == f"{where}: selfattn: {problem['message']}"
    assert payload["summary"] == {
        "pages": 3,
        "blocks": 3,
        "inline_values": 1,
        "problems": len(lines),
    }


HOOK = '''\
from mkdocs.structure.files import File

GENERATED = """# Generated

```selfattn
id: gen
csv: assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv
document: memo_gone
```
"""


def on_files(files, config):
    files.remove(files.get_file_from_path("dropped.md"))
    files.append(File.generated(config, "generated.md", content=GENERATED))
    return files
'''


def test_the_pages_are_those_other_plugins_leave(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "hooked",
        {"index.md": GOOD_PAGE, "dropped.md": "# Dropped\n\n" + seed_block(csv="nowhere.csv")},
    )
    site.write("hooks.py", HOOK)
    with site.config_file.open("a", encoding="utf-8") as handle:
        handle.write("hooks:\n  - hooks.py\n")
    done = run_check(site)
    assert done.returncode == 1
    *problems, summary = done.stdout.splitlines()
    assert summary == "mkdocs-selfattn check: 2 pages, 2 blocks, 1 inline value: 1 problem"
    # Only the page the hook added has a problem; the page it removed is not built.
    assert problems == [w for w in build_warnings(site) if "selfattn:" in w]
    assert "document 'memo_gone' not found" in problems[0]


def test_a_site_level_problem_fails_with_its_message(tmp_path: Path) -> None:
    site = new_site(tmp_path / "cache-in-docs", {"index.md": GOOD_PAGE})
    site.configure(cache_dir="docs/cache")
    done = run_check(site)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == (
        "selfattn: cache_dir 'docs/cache' is inside docs_dir; choose a folder outside it, "
        "such as .cache/selfattn"
    )
    missing = run_check(site, "-f", "nope.yml")  # the last -f wins
    assert missing.returncode == 1
    assert missing.stdout.splitlines()[0] == "Config file 'nope.yml' does not exist."
    site.write("bad.yml", "site_name: x\ntheme: nosuch\nplugins: [selfattn]\nfoo: 1\n")
    bad = run_check(site, "-f", "bad.yml")
    assert bad.returncode == 1
    assert bad.stdout.splitlines() == [
        "Config value 'foo': Unrecognised configuration name: foo",
        "Config value 'theme': Unrecognised theme name: 'nosuch'. The available installed "
        "themes are: mkdocs, readthedocs, material",
        "mkdocs-selfattn check: 0 pages, 0 blocks, 0 inline values: 2 problems",
    ]


I18N = """\
  - i18n:
      docs_structure: suffix
      languages:
        - locale: en
          default: true
          name: English
        - locale: fr
          name: Français
"""


def test_every_language_of_mkdocs_static_i18n_is_checked(tmp_path: Path) -> None:
    english = "# Home\n\n" + seed_block(show="[chart]")
    french = "# Accueil\n\n" + seed_block(show="[chart]").replace("memo_cap_missing", "memo_x")
    untranslated = "# Only English\n\n" + seed_block(show="[tabel]")
    site = new_site(
        tmp_path / "i18n", {"index.md": english, "index.fr.md": french, "only.md": untranslated}
    )
    config = site.config_file.read_text(encoding="utf-8")
    site.write("mkdocs.yml", config.replace("  - search\n", "  - search\n" + I18N))
    done = run_check(site)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    where = [line.split(": selfattn:")[0] for line in lines[:-1]]
    # The English page stands in for the missing French one: one message, not one per language.
    assert where[0] == f"docs/only.md:{line_of(untranslated, 'show:')}"
    # The French page is only in the second pass (the block's line, or its key's).
    fr_lines = (line_of(french, "```selfattn"), line_of(french, "document:"))
    assert where[1:] in ([f"docs/index.fr.md:{n}"] for n in fr_lines)
    assert "document 'memo_x' not found" in lines[1]
    assert lines[-1].startswith("mkdocs-selfattn check: 3 pages, 3 blocks, 0 inline values")


def test_check_exits_on_every_problem_not_the_first(tmp_path: Path) -> None:
    site = new_site(tmp_path / "fail-fast", {"index.md": "# I\n\n" + seed_block(csv="a.csv")})
    site.configure(on_error="fail")
    site.page("two.md", "# Two\n\n" + seed_block(csv="b.csv"))
    done = run_check(site)
    assert done.returncode == 1
    assert done.stdout.count("file not found") == 2


# What older git-revision-date-localized did: Python's root-level logging functions, which give
# the root logger a handler (logging.basicConfig) on first use.
ROOT_LOGGING_HOOK = """\
import logging


def on_config(config):
    logging.info("the root logger, set up on first use")
    return config
"""


def test_one_message_per_problem_whatever_other_plugins_do_with_logging(tmp_path: Path) -> None:
    """Every problem came out twice: in the report on stdout, and on stderr in logging's default
    format, once a plugin had used the root logger."""
    pages = {
        "index.md": GOOD_PAGE,
        "broken.md": "# Broken\n\n" + seed_block(csv="nowhere.csv"),
        "typo.md": "# Typo\n\n`{selfattn} memo weight 그것 nobody`\n\n" + seed_block(),
    }
    site = new_site(tmp_path / "book", pages)
    site.write("hooks.py", ROOT_LOGGING_HOOK)
    with site.config_file.open("a", encoding="utf-8") as handle:
        handle.write("  - git-revision-date-localized\nhooks:\n  - hooks.py\n")
    git = ["git", "-c", "user.name=a", "-c", "user.email=a@example.org"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "book"]):
        subprocess.run([*git, *command], cwd=site.root, check=True, capture_output=True)
    done = run_check(site)
    assert done.returncode == 1
    *problems, summary = done.stdout.splitlines()
    assert summary.endswith(": 2 problems"), done.stdout
    assert "nowhere.csv" in problems[0], done.stdout
    assert "nobody" in problems[1], done.stdout
    assert done.stderr == "", done.stderr
