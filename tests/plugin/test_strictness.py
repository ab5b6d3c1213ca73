"""Strictness that holds: strict builds fail on the plugin's problems at any log level, and a bad
site option stops `mkdocs build` when the configuration loads, naming the option and the fix.

Real `mkdocs build` subprocesses: exit codes and stderr as CI sees them.
"""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest
from sites import Site, new_site, seed_block

from mkdocs_selfattn.errors import SelfAttnError
from mkdocs_selfattn.extension import SelfAttnExtension

pytestmark = pytest.mark.slow

BROKEN = (
    "# Broken\n\n"
    + seed_block(csv="missing.csv")
    + "\nAn inline value of nothing: `{selfattn} nowhere weight 그것 절연캡`.\n"
)


@pytest.fixture(scope="module")
def broken_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return new_site(tmp_path_factory.mktemp("strict") / "project", {"index.md": BROKEN})


def _expect_located_failure(stderr: str) -> None:
    assert "docs/index.md:5: selfattn: docs/missing.csv" in stderr  # the `csv:` key's line
    assert "docs/index.md:13: selfattn: inline value 'nowhere weight'" in stderr


@pytest.mark.parametrize("quiet", ["-q", "--quiet"])
def test_strict_and_quiet_still_fails(broken_site: Site, quiet: str) -> None:
    done = broken_site.run(quiet, strict=True)
    assert done.returncode != 0
    assert "2 problems in strict mode" in done.stderr
    _expect_located_failure(done.stderr)


def test_strict_in_the_config_and_quiet_still_fails(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", {"index.md": BROKEN})
    site.write("mkdocs.yml", site.config_file.read_text(encoding="utf-8") + "strict: true\n")
    done = site.run("-q", strict=False)
    assert done.returncode != 0
    _expect_located_failure(done.stderr)


def test_strict_without_quiet_fails_as_mkdocs_does(broken_site: Site) -> None:
    done = broken_site.run(strict=True)
    assert done.returncode != 0
    assert "Aborted with 2 warnings in strict mode!" in done.stdout + done.stderr
    _expect_located_failure(done.stderr)


def test_quiet_without_strict_passes(broken_site: Site) -> None:
    assert broken_site.run("-q", strict=False).returncode == 0


def test_strict_and_quiet_passes_a_clean_site(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", {"index.md": "# Fine\n\n" + seed_block()})
    done = site.run("-q", strict=True)
    assert done.returncode == 0, done.stderr


# ---------------------------------------------------------------------------------------------
# Site options


BAD_OPTIONS = [
    ("number_format", ".3q", "is not a Python format spec for numbers"),
    ("number_format", 3, "expected a format spec as text"),
    ("number_format", ".1000000000f", "asks for more than 100 characters or digits"),
    ("chart_width", 0, "greater than 0"),
    ("chart_width", "wide", "expected a size in inches"),
    ("chart_height", -1.5, "greater than 0"),
    ("chart_height", 1e9, "at most 100"),
    ("script_timeout", -1, "greater than 0"),
    ("script_timeout", 0, "greater than 0"),
    ("chart_workers", -1, "from 0"),
    ("chart_workers", 2.5, "whole number"),
    ("chart_workers", True, "whole number"),
    ("chart_colors", [""], "non-empty colour"),
    ("chart_colors", ["#2563eb", "#12"], "item 2: '#12' is not a hex colour"),
    ("chart_colors", "#2563eb", "expected a list of colours"),
    ("chart_colors", ["#2563eb", "bleu"], "item 2: 'bleu' is not a colour matplotlib knows"),
    ("chart_colors", [" tab:blue"], "is not a colour matplotlib knows"),
    (
        "chart_fonts",
        ["fonts/extra.ttf", " "],
        "item 2 is ' '; every item must be a font file's path",
    ),
    ("chart_fonts", ["Noto Sans CJK SC"], "item 1 is 'Noto Sans CJK SC', not a font file"),
    ("chart_fonts", "fonts/extra.ttf", "expected a list of font files"),
    (
        "chart_colors",
        [],
        "the list is empty; name at least one colour, or leave the option out for the defaults",
    ),
]


@pytest.mark.parametrize(("option", "value", "hint"), BAD_OPTIONS)
def test_bad_site_option_stops_the_build_at_load(
    tmp_path: Path, option: str, value: object, hint: str
) -> None:
    site = new_site(
        tmp_path / "project",
        {"index.md": "# T\n\n" + seed_block(show="[table, chart]")},
        plugin_options={option: value},
    )
    done = site.run(strict=False)
    assert done.returncode != 0
    assert f"Config value 'plugins': Plugin 'selfattn' option '{option}':" in done.stderr
    assert hint in done.stderr
    assert "Traceback" not in done.stderr
    assert not site.html_path("index.md").exists()


def test_good_site_options_build(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "project",
        {"index.md": "# T\n\n" + seed_block(show="[table]")},
        plugin_options={
            "number_format": ".2f",
            "chart_width": 5,
            "chart_height": 2.5,
            "script_timeout": 0.5,
            "chart_workers": 0,
            "chart_colors": ["#123", "tab:blue"],
        },
    )
    done = site.run(strict=True)
    assert done.returncode == 0, done.stderr
    assert "0.43" in site.html()


def test_the_extension_checks_the_same_options(tmp_path: Path) -> None:
    extension = SelfAttnExtension(docs_dir=str(tmp_path), chart_width=0, number_format=".3q")
    with pytest.raises(SelfAttnError) as caught:
        markdown.markdown(seed_block(csv="/x.csv"), extensions=[extension])
    message = str(caught.value)
    assert "option 'number_format': '.3q' is not a Python format spec" in message
    assert "option 'chart_width': expected a size in inches greater than 0" in message
