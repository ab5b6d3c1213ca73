"""A mistake is one message, and ``check`` fails wherever ``mkdocs build --strict`` fails because
of the plugin: includes (pymdownx.snippets), missing chart glyphs, mkdocs-static-i18n's repeated
passes (fallback pages, a default language built twice), shared ``from:`` files. Every build and
check here is a real subprocess; the sites are small and written from scratch."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sites import REPO

pytestmark = pytest.mark.slow

TROPHY = """\
document_id,target_token,candidate_token,candidate_role,object,container,size,score
trophy_big,it,trophy,object,0.9,0.1,0.5,2.3
trophy_big,it,fit,verb,0.2,0.6,0.4,0.4
trophy_big,it,suitcase,container,0.2,0.9,0.5,1.1
trophy_big,it,it,current_token,0.3,0.3,0.3,0.5
trophy_big,it,big,size,0.1,0.1,0.95,1.6
"""
BLOCK = "```selfattn\nid: big\ncsv: data/trophy.csv\ndocument: trophy_big\nshow: [{show}]\n```\n"
FENCE = "  - pymdownx.superfences\n"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(REPO)
    env["NO_MKDOCS_2_WARNING"] = "1"
    return env


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def build(root: Path, *, strict: bool = False) -> tuple[int, list[str]]:
    """Exit code and the selfattn WARNING lines of a real ``mkdocs build``."""
    command = [sys.executable, "-m", "mkdocs", "build", *(["--strict"] if strict else [])]
    done = subprocess.run(
        command, cwd=root, capture_output=True, text=True, env=_env(), timeout=300, check=False
    )
    lines = [
        line.removeprefix("WARNING -  ")
        for line in done.stderr.splitlines()
        if line.startswith("WARNING -  ") and ": selfattn: " in line
    ]
    return done.returncode, lines


def check(root: Path) -> tuple[int, list[str]]:
    """Exit code and the output lines of ``mkdocs-selfattn check``."""
    command = [sys.executable, "-m", "mkdocs_selfattn", "check"]
    done = subprocess.run(
        command, cwd=root, capture_output=True, text=True, env=_env(), timeout=300, check=False
    )
    return done.returncode, done.stdout.splitlines()


def config(extensions: str = FENCE, plugins: str = "  - search\n  - selfattn\n") -> str:
    return (
        "site_name: S\ntheme: {name: material}\nmarkdown_extensions:\n"
        + extensions
        + "plugins:\n"
        + plugins
    )


SNIPPETS = FENCE + "  - pymdownx.snippets:\n      base_path: [snips]\n"
LEFTOVER = (
    "docs/snip.md:3: selfattn: this selfattn block was inserted after the plugin ran (by "
    "pymdownx.snippets or another extension), so it was never computed; put the block in the "
    "page itself (includes may bring the text around it)"
)


def test_a_block_from_a_snippet_fails_check_as_it_fails_the_build_with_one_message(
    tmp_path: Path,
) -> None:
    root = write(
        tmp_path,
        {
            "mkdocs.yml": config(SNIPPETS),
            "snips/s.md": BLOCK.format(show="table").replace("id: big", "id: s"),
            "docs/data/trophy.csv": TROPHY,
            "docs/snip.md": '# sn\n\n--8<-- "s.md"\n\n`{selfattn} s weight it trophy`\n',
        },
    )
    code, lines = build(root, strict=True)
    assert code == 1
    assert lines == [LEFTOVER]  # the inline value adds no "no example with id 's'"
    code, out = check(root)
    assert code == 1
    assert out == [LEFTOVER, "mkdocs-selfattn check: 1 page, 0 blocks, 1 inline value: 1 problem"]


def test_a_missing_chart_glyph_fails_check_with_the_builds_message(tmp_path: Path) -> None:
    block = BLOCK.format(show="chart").replace("show:", 'display: {trophy: "\U00013000cup"}\nshow:')
    root = write(
        tmp_path,
        {
            "mkdocs.yml": config(),
            "docs/data/trophy.csv": TROPHY,
            "docs/index.md": "# G\n\n" + block,
        },
    )
    message = (
        "docs/index.md:3: selfattn: the chart font has no glyph for \U00013000; add a font file "
        "that has them to the 'chart_fonts' option (a .ttf, .otf or .ttc path, relative to the "
        "folder of mkdocs.yml)"
    )
    code, lines = build(root, strict=True)
    assert (code, lines) == (1, [message])
    code, out = check(root)
    assert (code, out[:-1]) == (1, [message])


def test_no_system_font_is_advised_for_cjk_text() -> None:
    """The chart fonts ignore the machine's fonts: a system package would not help. With the
    bundled CJK font installed, the advice is the option that adds a font file."""
    from mkdocs_selfattn.render.glyphs import glyph_message

    for missing in (["你"], ["你", "\U00013000"]):
        message = glyph_message(missing)
        assert message.endswith(
            "; add a font file that has them to the 'chart_fonts' option "
            "(a .ttf, .otf or .ttc path, relative to the folder of mkdocs.yml)"
        )
        assert "apt" not in message
        assert "Debian" not in message


I18N_SUFFIX = """\
  - i18n:
      docs_structure: suffix
      languages:
        - {locale: zh, name: 中文, default: true, build: true}
        - {locale: en, name: English, build: true}
        - {locale: ko, name: 한국어, build: true}
"""


def test_a_fallback_page_says_its_mistake_once_in_build_and_check(tmp_path: Path) -> None:
    page = "# P\n\n" + BLOCK.format(show="csv") + "\n`{selfattn} big weight it trophe`\n"
    root = write(
        tmp_path,
        {
            "mkdocs.yml": config(plugins="  - search\n  - selfattn\n" + I18N_SUFFIX),
            "docs/data/trophy.csv": TROPHY,
            "docs/index.md": page,  # en and ko fall back to it
        },
    )
    message = (
        "docs/index.md:10: selfattn: inline value 'big weight': 'trophe' is not a candidate of "
        "target 'it' (did you mean 'trophy'?); candidates: trophy, fit, suitcase, it, big"
    )
    assert build(root) == (0, [message])
    code, out = check(root)
    assert (code, out[:-1]) == (1, [message])


SHARED = """\
big:
  csv: ../data/trophy.csv
  document: trophy_big
  groups: {os: [trophy, bgi]}
"""
I18N_FOLDER = """\
  - i18n:
      docs_structure: folder
      languages:
        - {locale: en, name: English, build: true}
        - {locale: ko, name: 한국어, default: true, build: true}
        - {locale: zh, name: 中文, build: true}
"""


def _shared_book(root: Path, shared: str, uses: dict[str, str] | None = None) -> Path:
    files = {
        "mkdocs.yml": config(plugins="  - search\n  - selfattn\n" + I18N_FOLDER),
        "docs/data/trophy.csv": TROPHY,
        "docs/ex/shared.yml": shared,
    }
    for language in ("en", "ko", "zh"):
        use = (uses or {}).get(language, "big")
        files[f"docs/{language}/index.md"] = (
            f"# {language}\n\n```selfattn\nuse: {use}\nfrom: /ex/shared.yml\nshow: [table]\n```\n"
        )
    return write(root, files)


def test_a_mistake_in_a_shared_file_is_one_message_at_its_line_there(tmp_path: Path) -> None:
    # ko is the default language but not listed first: mkdocs-static-i18n builds it twice.
    root = _shared_book(tmp_path / "group", SHARED)
    message = (
        "docs/ko/index.md:3: selfattn: in docs/ex/shared.yml:4: docs/data/trophy.csv: group 'os' "
        "names 'bgi', which is not a candidate of document 'trophy_big' (did you mean 'big'?); "
        "its candidates are 'trophy', 'fit', 'suitcase', 'it', 'big'"
    )
    assert build(root) == (0, [message])
    code, out = check(root)
    assert (code, out[:-1]) == (1, [message])

    root = _shared_book(tmp_path / "show", SHARED.replace("bgi", "big") + "  show: [csv]\n")
    message = (
        "docs/ko/index.md:3: selfattn: in docs/ex/shared.yml:5: example 'big' sets 'show', a "
        "view key; put view keys on the page's block"
    )
    assert build(root) == (0, [message])


def test_use_of_a_shared_id_gets_a_did_you_mean(tmp_path: Path) -> None:
    root = _shared_book(tmp_path, SHARED.replace("bgi", "big"), {"en": "bgi"})
    message = (
        "docs/en/index.md:3: selfattn: 'use: bgi': docs/ex/shared.yml defines no example 'bgi' "
        "(did you mean 'big'?); it defines: big"
    )
    code, lines = build(root)
    assert (code, lines) == (0, [message])
    code, out = check(root)
    assert (code, out[:-1]) == (1, [message])


def test_an_unknown_inline_id_lists_the_failed_ones(tmp_path: Path) -> None:
    broken = TROPHY + "trophy_big,it\n"
    page = (
        "# C\n\n"
        + BLOCK.format(show="table").replace("id: big", "id: one")
        + "\n"
        + BLOCK.format(show="table").replace("id: big", "id: two").replace("document", "documnet")
        + "\n`{selfattn} onee weight it trophy`\n"
    )
    root = write(
        tmp_path,
        {"mkdocs.yml": config(), "docs/data/trophy.csv": broken, "docs/index.md": page},
    )
    _, lines = build(root)
    assert lines[-1] == (
        "docs/index.md:17: selfattn: inline value 'onee weight': no example with id 'onee' on "
        "this page (did you mean 'one'?); ids: one (failed), two (failed)"
    )


def test_a_page_in_a_language_computes_from_its_localised_csv(tmp_path: Path) -> None:
    page = "# P\n\n" + BLOCK.format(show="csv") + "\n`{selfattn} big weight it trophy :.3f`\n"
    root = write(
        tmp_path,
        {
            "mkdocs.yml": config(plugins="  - search\n  - selfattn\n" + I18N_SUFFIX),
            "docs/data/trophy.csv": TROPHY,
            "docs/data/trophy.en.csv": TROPHY.replace("0.5,2.3", "0.5,0.1"),
            "docs/index.md": page,
            "docs/index.en.md": page,
        },
    )
    assert build(root) == (0, [])
    zh = (root / "site/index.html").read_text(encoding="utf-8")
    en = (root / "site/en/index.html").read_text(encoding="utf-8")
    published = (root / "site/en/data/trophy.csv").read_text(encoding="utf-8")
    assert "0.5,0.1" in published  # what the en page links
    assert ">2.3<" in zh
    assert ">2.3<" not in en
    assert ">0.1<" in en
    assert ">0.473<" in zh
    assert ">0.473<" not in en


HEADER = "document_id,target_token,candidate_token,candidate_role,v,score\n"


def _run(csv: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mkdocs_selfattn", "run", csv.name, "--document", "d"]
    return subprocess.run(
        command, cwd=csv.parent, capture_output=True, text=True, env=_env(), timeout=120
    )


def test_run_applies_the_plugins_data_checks(tmp_path: Path) -> None:
    write(tmp_path, {"conflict.csv": HEADER + "d,t,a,r,1,1\nd,t,b,r,2,2\nd,u,a,r,5,1\n"})
    write(tmp_path, {"dup.csv": HEADER + "d,t,a,r,1,1\nd,t,b,r,2,2\nd,t,a,r,1,3\n"})
    write(tmp_path, {"uneven.csv": HEADER + "d,t,a,r,1,1\nd,t,b,r,2,2\nd,u,a,r,1,1\n"})
    done = _run(tmp_path / "conflict.csv")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "mkdocs-selfattn: error: conflict.csv:4: candidate 'a' of document 'd' has the vector "
        "[5.0] here (target 'u') but [1.0] on line 2 (target 't'); a candidate has one vector in "
        "a document (the baseline counts it once): make the rows agree\n"
    )
    done = _run(tmp_path / "dup.csv")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(
        "mkdocs-selfattn: error: dup.csv:4: candidate 'a' appears twice for target 't' of "
        "document 'd' (lines 2 and 4)"
    )
    done = _run(tmp_path / "uneven.csv")
    assert done.returncode == 0
    assert done.stdout
    assert done.stderr == (
        "mkdocs-selfattn: warning: uneven.csv:4: target 'u' of document 'd' lacks 'b' compared "
        "with target 't' (line 2); give every target the same candidates, or set "
        "'mixed_candidates: true' if that is intended\n"
    )
