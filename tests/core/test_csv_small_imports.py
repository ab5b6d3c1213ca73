"""In a fresh interpreter: a course of small files computes without importing pyarrow, a file
above the limit still uses it, and the workers' warm-up imports it only when a file is big."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_selfattn.core import csv_size

CHILD = r"""
import sys
sys.path.insert(0, {tests!r})
import course_requests
from mkdocs_selfattn.core import csv_size
from mkdocs_selfattn.build import jobs
from mkdocs_selfattn.build import workers
mode = {mode!r}
if mode == "warm_up":
    workers.warm_up({arrow!r})
else:
    for request in course_requests.requests().values():
        if mode == "big":
            head, _, body = request.data.partition(b"\n")
            lines = body.splitlines(keepends=True)
            copies = csv_size.SMALL_BYTES // len(body) + 1
            # Each copy's first column renamed: its documents (or lines) are new ones.
            bigger = b"".join(line.replace(b",", b"_%d," % k, 1) for k in range(1, copies + 1)
                              for line in lines)
            request = type(request)(request.key, request.spec, head + b"\n" + body + bigger,
                                    request.source)
            assert not csv_size.fits(request.data)
        payload = jobs.compute_payload(request)
        assert payload
print("pyarrow" in sys.modules, "numpy" in sys.modules)
"""


def loads_arrow(mode: str, arrow: bool = False) -> bool:

    tests = str(Path(__file__).resolve().parents[1])
    code = CHILD.format(tests=tests, mode=mode, arrow=arrow)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    pyarrow, numpy = done.stdout.split()
    assert numpy == "True"
    return pyarrow == "True"


@pytest.mark.slow
def test_a_course_computes_every_layout_without_importing_pyarrow() -> None:
    assert not loads_arrow("course")


@pytest.mark.slow
def test_a_file_above_the_limit_is_still_read_by_arrow() -> None:
    assert loads_arrow("big")


@pytest.mark.slow
def test_the_workers_warm_up_imports_pyarrow_only_for_a_big_file() -> None:
    assert not loads_arrow("warm_up", arrow=False)
    assert loads_arrow("warm_up", arrow=True)


def test_any_big_looks_at_every_used_file(tmp_path: Path) -> None:
    small, big = tmp_path / "small.csv", tmp_path / "big.csv"
    small.write_bytes(b"x" * 10)
    big.write_bytes(b"x" * csv_size.SMALL_BYTES)
    assert not csv_size.any_big([small, tmp_path / "missing.csv"])
    assert csv_size.any_big([small, big])
