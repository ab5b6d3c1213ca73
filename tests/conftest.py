"""Shared pytest configuration. Several people add to this file: keep each section separate."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

# The tests mirror the package's folders, and a few test modules share helpers across them
# (``from test_reading_engine import spec``): every folder is importable, whatever pytest collects
# first.
for _folder in ("core", "blocks", "render", "build", "plugin", "cli", "browser"):
    if str(Path(__file__).parent / _folder) not in sys.path:
        sys.path.insert(0, str(Path(__file__).parent / _folder))

# =============================================================================================
# Golden files (tests/golden/views/*; used by tests/render/test_views_golden.py)
#
#   python -m pytest tests/render/test_views_golden.py --update-goldens
#
# rewrites the golden files from the current renderers instead of comparing against them.
# Review the diff (git diff tests/golden) before committing.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite tests/golden/views/* from the current renderers instead of comparing",
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    """True when the run was started with --update-goldens."""
    return bool(request.config.getoption("--update-goldens"))


# ============================================================================== end of goldens


# =============================================================================================
# The repository's own site (mkdocs.yml at the root: the trilingual course and the plugin docs),
# built once per session with --strict into a temporary folder. Used by
# tests/plugin/test_course_chapters.py and, through its repo_site fixture, by tests/browser/.


@dataclass
class CourseSite:
    root: Path  # the built site
    log: str  # stdout + stderr of the build


@pytest.fixture(scope="session")
def course_site(tmp_path_factory: pytest.TempPathFactory) -> CourseSite:
    repo = Path(__file__).resolve().parents[1]
    root = tmp_path_factory.mktemp("course-site")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env |= {"NO_MKDOCS_2_WARNING": "1", "PYTHONWARNINGS": "ignore"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "mkdocs.yml", "-d", str(root)],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    log = done.stdout + done.stderr
    assert done.returncode == 0, f"mkdocs build --strict of {repo / 'mkdocs.yml'} failed:\n{log}"
    return CourseSite(root, log)


# ========================================================================= end of course site


@pytest.fixture(scope="session")
def examples() -> dict[str, object]:
    """The course's example of each layout, loaded by the pipeline the plugin uses:
    ``{layout: (pipeline, example)}``."""
    from course_requests import ASSETS, BLOCKS, requests

    from mkdocs_selfattn.build.cache import Cache
    from mkdocs_selfattn.build.pipeline import Pipeline
    from mkdocs_selfattn.build.settings import Settings
    from mkdocs_selfattn.cli.run import _CommandLineFiles

    pipeline = Pipeline(Settings(scripts=False, mermaid=None), Cache(None))
    loaded = {}
    for name, request in requests().items():
        spec = replace(request.spec, csv=str(ASSETS / BLOCKS[name][0]))
        loaded[name] = (pipeline, pipeline.load(spec, _CommandLineFiles()))
    return loaded
