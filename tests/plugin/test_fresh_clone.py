"""A fresh clone runs the tests that read course material (issue 26): the repository's files
alone, copied to a folder with nothing beside it (no ``../shared``), are enough."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sites import REPO

pytestmark = pytest.mark.slow

# The tests that read the course's data and printouts (the CSVs, the seed printout, the course
# data README's printouts).
READERS = [
    "tests/core/test_course_examples.py",
    "tests/cli/test_cli.py::test_seed_printout_in_process",
]


def _clone(target: Path) -> Path:
    """The repository's files as a clone has them (tracked, or new and not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    clone = target / "book-plugin"
    for name in filter(None, (item.decode() for item in listed)):
        source = REPO / name
        if source.is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name)
    return clone


def test_the_course_tests_pass_in_a_clone_with_nothing_beside_it(tmp_path: Path) -> None:
    clone = _clone(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book-plugin"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(clone)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *READERS],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
