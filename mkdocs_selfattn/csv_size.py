"""Which reader a CSV file gets, by its size alone (no numpy here: the plugin asks it too)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

SMALL_BYTES = 256 * 1024
"""Files shorter than this many bytes are read here. Measured (bench/bench_small.py) on course
like files: this reader takes ≈ 1.0 µs a byte including encoding and number conversion,
Arrow ≈ 0.03 µs a byte once imported, and its import ≈ 50-60 ms of CPU. The two paths cost the
same, import included, at ≈ 50 KB-60 KB per file parsed; a course of several such files still
pays Arrow's import only once, so the limit sits a few times above that point, where one
fallback file's parse costs about what the import would. Tests change it to force a path."""


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
