"""pyarrow is an optional extra (issue 26): with it made unimportable (a meta-path blocker in a
sitecustomize on PYTHONPATH), a book of small files builds --strict, and a file only pyarrow
reads gets one located message naming the extra; a typo in a small file is still its typo."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from course_requests import BLOCKS
from sites import COURSE_CSV, REPO, new_site, seed_block

from mkdocs_selfattn.core import csv_size
from mkdocs_selfattn.core.arrow_extra import EXTRA

pytestmark = pytest.mark.slow

BLOCKER = '''\
import sys


class _NoArrow:
    """pyarrow as on a machine that installed mkdocs-selfattn without its [arrow] extra."""

    def find_spec(self, name, path=None, target=None):
        if name == "pyarrow" or name.startswith("pyarrow."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NoArrow())
'''


def _env(tmp_path: Path) -> dict[str, str]:
    blocker = tmp_path / "no-arrow"
    blocker.mkdir(exist_ok=True)
    (blocker / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return env | {"PYTHONPATH": f"{blocker}{os.pathsep}{REPO}", "NO_MKDOCS_2_WARNING": "1"}


def _build(root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _big(data: bytes) -> bytes:
    """The course file with renamed copies of its rows (new documents) past the small limit."""
    head, _, body = data.partition(b"\n")
    lines = body.splitlines(keepends=True)
    copies = csv_size.SMALL_BYTES // len(body) + 1
    more = b"".join(
        line.replace(b",", b"_%d," % k, 1) for k in range(1, copies + 1) for line in lines
    )
    return head + b"\n" + body + more


def test_the_blocker_hides_pyarrow(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import pyarrow"],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "No module named 'pyarrow'" in done.stderr


def test_a_book_of_small_files_builds_without_pyarrow(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "book",
        {"index.md": "# Memo\n\n" + seed_block(show="[output, table, mermaid, chart]")},
        plugin_options={"cache_dir": ""},
    )
    done = _build(site.root, _env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "电池包" in site.html()


def test_a_big_file_names_the_extra_once_at_its_block(tmp_path: Path) -> None:
    page = "# Big\n\n" + seed_block(csv="big.csv", show="[table]")
    site = new_site(tmp_path / "book", {"index.md": page}, plugin_options={"cache_dir": ""})
    (site.docs / "big.csv").write_bytes(_big(COURSE_CSV.read_bytes()))
    done = _build(site.root, _env(tmp_path))
    assert done.returncode == 1
    named = [line for line in done.stderr.splitlines() if EXTRA in line]
    assert len(named) == 1, done.stderr
    [message] = named
    assert message.startswith("WARNING -  docs/index.md:3: selfattn: ")
    assert "big.csv" in message
    assert f"pip install '{EXTRA}'" in message
    assert "Traceback" not in done.stderr


CHILD = r"""
import sys
sys.path.insert(0, {tests!r})
import course_requests
from mkdocs_selfattn.build import jobs
from mkdocs_selfattn.core.csv_read import parse_table
from mkdocs_selfattn.errors import DataError


def message(request):
    try:
        jobs.compute_payload(request)
    except DataError as error:
        return str(error)
    return "computed"


big = {big!r}
for layout, request in course_requests.requests().items():
    small = request.data
    if big:
        head, _, body = small.partition(b"\n")
        copies = 512 * 1024 // len(body) + 1
        lines = body.splitlines(keepends=True)
        more = b"".join(line.replace(b",", b"_%d," % k, 1)
                        for k in range(1, copies + 1) for line in lines)
        data = head + b"\n" + body + more
    else:  # a lone CR ends every line: valid CSV the small-file reader leaves to Arrow
        data = small.replace(b"\r\n", b"\n").replace(b"\n", b"\r")
    print(layout, message(type(request)(request.key, request.spec, small, request.source)))
    print(layout, message(type(request)(request.key, request.spec, data, request.source)))
typo = (course_requests.ASSETS / course_requests.BLOCKS["targets"][0]).read_bytes()
head, _, body = typo.partition(b"\n")
first, _, rest = body.partition(b"\n")
first = first.rsplit(b",", 1)[0] + b",2.3x"
try:
    parse_table(head + b"\n" + first + b"\n" + rest, source="memo.csv")
except DataError as error:
    print("typo", error)
print("pyarrow loaded:", "pyarrow" in sys.modules)
"""


@pytest.mark.parametrize("big", [True, False], ids=["big", "lone-cr"])
def test_every_layout_without_pyarrow(tmp_path: Path, big: bool) -> None:
    tests = str(Path(__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(tests=tests, big=big)],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for layout in ("targets", "questions", "heads"):
        small, needs = [line.split(" ", 1)[1] for line in lines if line.startswith(layout)]
        assert small == "computed"
        assert needs.endswith(f"read by pyarrow, which is not installed: pip install '{EXTRA}'")
        assert needs.startswith(f"{BLOCKS[layout][0]}: "), needs  # the file, once
    [typo] = [line for line in lines if line.startswith("typo")]
    assert typo.startswith("typo memo.csv:2: column 'score': '2.3x' is not a number"), typo
    assert EXTRA not in typo
    assert lines[-1] == "pyarrow loaded: False"
