"""Paths that try to leave the project: refused with a clear error, and nothing of the target leaks.

``/etc/passwd`` stands for any file outside the project: its first line must appear in no built
file, no cache file and no log line. A leading ``/`` in a block path means "the docs folder", so
``/etc/passwd`` must be a not-found error about ``docs/etc/passwd``, never the real file.

The symlinks live in the project but outside ``docs/``: MkDocs itself copies every file under
``docs/`` (following symlinks) into the site, so a symlink there would leak through MkDocs whatever
the plugin does.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from .support import Build, ErrorCase, Project, block, check_error_case, published_copies

PASSWD = Path("/etc/passwd")
PASSWD_LINE = PASSWD.read_text(encoding="utf-8").splitlines()[0]
"""e.g. ``root:x:0:0:root:/root:/bin/bash``: proof that the real file was read."""
PASSWD_HEAD = PASSWD_LINE.split(":")[0] + ":" + PASSWD_LINE.split(":")[1] + ":0:"
ENVIRON_PATH = "PATH=" + os.environ.get("PATH", "/usr/bin")
SECRET = "SECRET_TOKEN=hunter2-do-not-publish"

DOC = "document: memo_cap_missing\n"
OUTSIDE = r"resolves outside the project folder"


def symlink(relative: str, target: str) -> Callable[[Project], None]:
    """A setup step: ``relative`` (in the project) becomes a symlink to ``target``."""

    def make(project: Project) -> None:
        link = project.root / relative
        link.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, link)

    return make


def chain(*steps: Callable[[Project], None]) -> Callable[[Project], None]:
    def run(project: Project) -> None:
        for step in steps:
            step(project)

    return run


LEAKS = (PASSWD_HEAD, PASSWD_LINE)


def _not_published(relative: str) -> Callable[[Project, Build, list[str]], None]:
    """A file whose block failed must not be copied into the site (it is not a CSV at all)."""

    def check(project: Project, build: Build, failures: list[str]) -> None:
        sites = [project.root / "site", project.root / "site-strict"]
        copies = published_copies(sites, project.root / relative)
        failures += [f"{relative} was published as {copy}" for copy in copies]

    return check


CASES = [
    # -- csv: ------------------------------------------------------------------------------
    ErrorCase(
        "csv-parent-traversal",
        block("csv: " + "../" * 12 + "etc/passwd  #HERE\n" + DOC),
        OUTSIDE,
        forbidden=LEAKS,
    ),
    ErrorCase(
        "csv-leading-slash-then-climb",
        block("csv: /" + "../" * 12 + "etc/passwd  #HERE\n" + DOC),
        OUTSIDE,
        forbidden=LEAKS,
    ),
    ErrorCase(
        "csv-absolute-is-docs-relative",
        block("csv: /etc/passwd  #HERE\n" + DOC),
        r"docs/etc/passwd: file not found",
        at=None,
        forbidden=LEAKS,
    ),
    ErrorCase(
        "csv-absolute-proc-environ",
        block("csv: /proc/self/environ  #HERE\n" + DOC),
        r"docs/proc/self/environ: file not found",
        at=None,
        forbidden=(ENVIRON_PATH,),
    ),
    ErrorCase(
        "csv-symlink-to-passwd",
        block("csv: ../data/link.csv  #HERE\n" + DOC),
        OUTSIDE,
        setup=symlink("data/link.csv", str(PASSWD)),
        forbidden=LEAKS,
    ),
    ErrorCase(
        "csv-relative-symlink-out",
        block("csv: ../data/rel.csv  #HERE\n" + DOC),
        OUTSIDE,
        setup=symlink("data/rel.csv", "../" * 16 + "etc/passwd"),
        forbidden=LEAKS,
    ),
    ErrorCase(
        "csv-symlinked-folder",
        block("csv: ../data/etc/passwd  #HERE\n" + DOC),
        OUTSIDE,
        setup=symlink("data/etc", "/etc"),
        forbidden=LEAKS,
    ),
    ErrorCase(
        "csv-symlink-chain",
        block("csv: ../data/a.csv  #HERE\n" + DOC),
        OUTSIDE,
        setup=chain(symlink("data/a.csv", "b.csv"), symlink("data/b.csv", str(PASSWD))),
        forbidden=LEAKS,
    ),
    ErrorCase(
        "csv-symlink-to-dev-zero",
        block("csv: ../data/zero.csv  #HERE\n" + DOC),
        OUTSIDE,
        setup=symlink("data/zero.csv", "/dev/zero"),
        max_seconds=90,
    ),
    ErrorCase(
        "csv-symlink-to-environ",
        block("csv: ../data/env.csv  #HERE\n" + DOC),
        OUTSIDE,
        setup=symlink("data/env.csv", "/proc/self/environ"),
        forbidden=(ENVIRON_PATH,),
    ),
    ErrorCase(
        "csv-symlink-loop",
        block("csv: ../data/loop.csv  #HERE\n" + DOC),
        r"data/loop\.csv: cannot be read",
        at=None,
        setup=symlink("data/loop.csv", "loop.csv"),
    ),
    ErrorCase(
        "csv-outside-docs-not-found",
        block("csv: ../data/missing.csv  #HERE\n" + DOC + "show: [csv]"),
        r"data/missing\.csv: file not found",
        at=None,
    ),
    ErrorCase(
        "csv-home-relative",
        block("csv: ~/.bashrc  #HERE\n" + DOC),
        r"'csv': home-relative paths \(~/\.bashrc\) are not allowed",
    ),
    ErrorCase(
        "csv-home-of-user",
        block("csv: ~root/.profile  #HERE\n" + DOC),
        r"'csv': home-relative paths .* are not allowed",
    ),
    ErrorCase(
        "csv-backslashes",
        block("csv: ..\\..\\..\\etc\\passwd  #HERE\n" + DOC),
        r"'csv': write the path with forward slashes",
        forbidden=LEAKS,
    ),
    ErrorCase(
        "csv-drive-letter",
        block("csv: C:/Windows/win.ini  #HERE\n" + DOC),
        r"'csv': ",
    ),
    ErrorCase(
        "csv-nul-character",
        block('csv: "data/good.csv\\0.txt"  #HERE\n' + DOC),
        r"'csv': 'data/good\.csv<U\+0000>\.txt' holds U\+0000, a control character",
    ),
    ErrorCase(
        "csv-empty-path",
        block('csv: "  "  #HERE\n' + DOC),
        r"'csv': the path is empty",
    ),
    ErrorCase(
        "csv-is-a-folder",
        block("csv: data  #HERE\n" + DOC),
        r"data: is a folder, not a file",
        at=None,
    ),
    ErrorCase(
        "csv-refused-file-outside-docs-not-published",
        block("csv: ../.env  #HERE\n" + DOC + "show: [csv]"),
        r"\.env",
        at=None,
        files={".env": SECRET + "\n"},
        extra_check=_not_published(".env"),
    ),
    # -- script: ---------------------------------------------------------------------------
    ErrorCase(
        "script-parent-traversal",
        block(
            "csv: /data/good.csv\n" + DOC + "script: " + "../" * 12 + "etc/passwd  #HERE\n"
            "show: [code, output]"
        ),
        r"'script': .*" + OUTSIDE,
        forbidden=LEAKS,
    ),
    ErrorCase(
        "script-absolute-is-docs-relative",
        block("csv: /data/good.csv\n" + DOC + "script: /etc/passwd  #HERE\nshow: [code]"),
        r"docs/etc/passwd: file not found",
        at=None,
        forbidden=LEAKS,
    ),
    ErrorCase(
        "script-symlink-to-passwd",
        block("csv: /data/good.csv\n" + DOC + "script: ../tools/ex.py  #HERE\nshow: [code]"),
        r"'script': .*" + OUTSIDE,
        setup=symlink("tools/ex.py", str(PASSWD)),
        forbidden=LEAKS,
    ),
    ErrorCase(
        "script-home-relative",
        block("csv: /data/good.csv\n" + DOC + "script: ~/ex.py  #HERE\nshow: [code]"),
        r"'script': home-relative paths",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_path_is_refused(tmp_path: Path, case: ErrorCase) -> None:
    check_error_case(tmp_path, case)
