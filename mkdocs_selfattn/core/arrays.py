"""The array types every core module shares, and the switch to worker threads: below the table
types so that every reader of a CSV and the engine can use them without importing each other."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
CodeArray = npt.NDArray[np.int32]
"""Dictionary codes: int32 like Arrow's own indices, half the memory of int64 for a column that
has a code per row. Arithmetic on codes must widen to int64 first (see row_keys.group_keys)."""

PARALLEL_ROWS = 100_000
"""From this many rows on, independent steps run on worker threads; below, threads cost more
than they save (numpy and Arrow release the GIL only for work worth the hand-over)."""

_T = TypeVar("_T")


def run_now(fn: Callable[..., _T], *args: Any) -> Future[_T]:
    """``pool.submit``'s signature, run in this thread: the small-table stand-in for a pool."""
    future: Future[_T] = Future()
    future.set_result(fn(*args))
    return future
