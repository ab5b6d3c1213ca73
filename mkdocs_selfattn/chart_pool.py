"""Charts drawn in worker processes while MkDocs goes on rendering pages.

Matplotlib is the expensive part of a cold build (its import, then ~0.1 s a figure). A worker on
the other core draws charts while the main process renders markdown; the plugin collects each
chart just before the page is written. Workers are started with "spawn", never "fork", because
`mkdocs serve` runs threads that a fork would copy mid-flight.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

ChartJob = tuple[Any, ...]


def default_workers() -> int:
    """One fewer than the cores (at least 1, at most 4), so MkDocs keeps a core to itself:
    measured on 2 cores, a second worker made cold builds slower, not faster."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


def _warm_up() -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import font_manager

    font_manager.fontManager.get_font_names()


def _render(*job: Any) -> tuple[str, list[str]]:
    from mkdocs_selfattn.example import render_chart_job

    return render_chart_job(*job)


class ChartPool:
    """A lazily started process pool; ``submit`` falls back to drawing here if the pool breaks."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None

    def submit(self, *job: Any) -> Future[tuple[str, list[str]]]:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_up,
            )
        try:
            return self._executor.submit(_render, *job)
        except (BrokenProcessPool, RuntimeError):
            self.shutdown()
            done: Future[tuple[str, list[str]]] = Future()
            done.set_result(_render(*job))
            return done

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
