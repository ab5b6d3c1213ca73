"""The README's "Minimal setup", copied into an empty folder exactly as it stands, builds with
``--strict``, and its command line runs there."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from html_tree import parse_html
from sites import REPO

pytestmark = pytest.mark.slow

# "`path`:" or "`path`, some words … :" then a blank line and a fenced block.
_FILE_BLOCK = re.compile(
    r"^`(?P<path>[\w./-]+)`(?:[^`]|`[^`\n]*`)*?:\n\n(?P<fence>`{3,})\w*\n(?P<body>.*?)\n(?P=fence)$",
    re.M | re.S,
)


def minimal_setup() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("## Minimal setup")
    return text[start : text.index("\n## ", start + 1)]


def env() -> dict[str, str]:
    values = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return values | {"PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("readme")
    files = {m["path"]: m["body"] for m in _FILE_BLOCK.finditer(minimal_setup())}
    assert sorted(files) == ["docs/data/trophy.csv", "docs/index.md", "mkdocs.yml"]
    for relative, body in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body + "\n", encoding="utf-8")
    return folder


def test_the_minimal_setup_builds_strict(course: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=course,
        capture_output=True,
        text=True,
        env=env(),
        check=False,
    )
    assert built.returncode == 0, built.stderr
    [article] = parse_html((course / "site" / "index.html").read_text("utf-8")).find_all("article")
    text = article.text()
    assert "selfattn error" not in text
    assert "“it” gives trophy a weight of 0.473; together with big that is 70.8%." in " ".join(
        text.split()
    )
    assert len(article.find_all("svg", cls="selfattn-chart-wide")) == 1  # the chart


def test_the_command_line_example_runs_there(course: Path) -> None:
    section = minimal_setup()
    command = re.search(r"```bash\n(.*?)\n```", section, re.S)
    assert command is not None
    words = shlex.split(command[1].replace("\\\n", " "))
    assert words[0] == "mkdocs-selfattn"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs_selfattn", *words[1:]],
        cwd=course,
        capture_output=True,
        text=True,
        env=env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "object_and_size_weight = 0.708" in done.stdout.splitlines()


def _readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    fence = re.search(r"```bash\n(.*?)\n```", text, re.S)
    assert fence is not None
    return fence[1].splitlines()


def test_the_first_command_needs_no_system_package(tmp_path: Path) -> None:
    """Charts bring their own fonts (from PyPI): serving the demo needs pip alone, and the
    Debian packages script installs nothing unless asked for the browser tests' packages."""
    serve, tests = _readme_commands()
    assert serve == "python3 -m pip install -e '.[demo]' && mkdocs serve"
    # The demo site's only plugin beyond the base install comes with the extra the command names.
    assert "i18n" in (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert (
        '"mkdocs-static-i18n'
        in (REPO / "pyproject.toml").read_text(encoding="utf-8").split("demo = [")[1].split("]")[0]
    )
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert tests.startswith("bash .ci/system-packages browser && ")
    assert tests.removeprefix("bash .ci/system-packages browser && ") in ci.splitlines()
    stubs = tmp_path / "bin"
    stubs.mkdir()
    for name in ("apt-get", "sudo"):
        stub = stubs / name
        stub.write_text(f'#!/bin/sh\necho {name} >> "{tmp_path}/called"\n', encoding="utf-8")
        stub.chmod(0o755)
    done = subprocess.run(
        ["bash", str(REPO / ".ci" / "system-packages")],
        env={"PATH": f"{stubs}{os.pathsep}{os.environ['PATH']}"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "called").exists()
