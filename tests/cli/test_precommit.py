"""The pre-commit hook, run by the real ``pre-commit`` on a temporary git repository.

The course repository names this checkout as its hook repository at its current commit, so the
hook tested is the committed one (``.pre-commit-hooks.yaml`` and the code at ``HEAD``).
pre-commit builds its own virtualenv and pip-installs the package into it (about half a minute,
once per test run), exactly as a user's machine does.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from sites import REPO

pytestmark = pytest.mark.slow


def git(repo: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=600,
        check=False,
    )


def test_the_hook_passes_a_good_course_and_stops_a_broken_commit(tmp_path: Path) -> None:
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHONPATH"))}
    env |= {
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "NO_MKDOCS_2_WARNING": "1",
    }
    course = tmp_path / "course"
    new = subprocess.run(
        [os.environ.get("PYTHON", "python3"), "-m", "mkdocs_selfattn", "new", str(course)],
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert new.returncode == 0, new.stderr
    (course / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {REPO}\n    rev: {head}\n    hooks:\n      - id: selfattn-check\n",
        encoding="utf-8",
    )
    assert git(course, "init", "-q", env=env).returncode == 0
    install = subprocess.run(
        ["pre-commit", "install"], cwd=course, capture_output=True, text=True, env=env, check=False
    )
    assert install.returncode == 0, install.stdout + install.stderr

    git(course, "add", "-A", env=env)
    good = git(course, "commit", "-m", "starter", env=env)
    assert good.returncode == 0, good.stdout + good.stderr
    # The hook's report reaches the terminal on stderr, below git's own lines.
    assert re.search(r"^mkdocs-selfattn check\.+Passed$", good.stderr, re.M), good.stderr

    # A file the hook does not look at: the check is skipped.
    (course / "notes.txt").write_text("todo\n", encoding="utf-8")
    git(course, "add", "notes.txt", env=env)
    skipped = git(course, "commit", "-m", "notes", env=env)
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr
    assert re.search(
        r"^mkdocs-selfattn check\.+\(no files to check\)Skipped$", skipped.stderr, re.M
    ), skipped.stderr

    chapter = course / "docs" / "chapter-1.md"
    text = chapter.read_text(encoding="utf-8")
    chapter.write_text(text.replace("document: trophy_small", "document: trophy_smal"), "utf-8")
    git(course, "add", "-A", env=env)
    broken = git(course, "commit", "-m", "typo", env=env)
    assert broken.returncode == 1
    assert re.search(r"^mkdocs-selfattn check\.+Failed$", broken.stderr, re.M), broken.stderr
    lines = text.split("\n")
    fence = lines.index("id: small")  # 1-based, the fence is the line above the id
    key = lines.index("document: trophy_small") + 1
    assert any(
        f"docs/chapter-1.md:{n}: selfattn: docs/data/trophy.csv: document 'trophy_smal' "
        "not found" in broken.stderr
        for n in (fence, key)
    ), broken.stderr
    assert git(course, "log", "--format=%s", env=env).stdout.split() == ["notes", "starter"]
