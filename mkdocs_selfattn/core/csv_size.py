"""Which reader a CSV file gets, by its size alone (no numpy here: the plugin asks it too)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

SMALL_BYTES = 512 * 1024
"""Files shorter than this many bytes are read by the stdlib reader (csv_small), longer ones by
Arrow's. Measured by ``bench/bench_small.py`` (course files repeated to larger sizes, whole
``jobs.compute``): the stdlib path costs ≈ 20-30 ms of CPU a megabyte more than warm Arrow, and
importing pyarrow.csv + compute costs 50-100 ms of CPU (and ≈ 36 MB), so for one file the two
paths cross at ≈ 2-4 MB. A course pays Arrow's import once but the stdlib's excess once a file,
so the limit sits several times below one file's crossing: at 512 KB one file's excess is
≈ 10-15 ms, a fifth to an eighth of the import, and its cells as Python strings stay a few MB.
Tests set it (0: always Arrow) to force a path."""


def fits(data: bytes) -> bool:
    """Whether ``data`` is small enough to be worth the stdlib reader (it may still refuse it)."""
    return len(data) < SMALL_BYTES


def any_big(paths: Iterable[Path]) -> bool:
    """Whether a file among ``paths`` is too big for the stdlib reader (so a worker may import Arrow
    ahead of the first edit); a file that cannot be read is not."""
    for path in paths:
        try:
            if path.stat().st_size >= SMALL_BYTES:
                return True
        except OSError:
            continue
    return False
