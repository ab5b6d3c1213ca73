"""When charts are drawn and results computed: the queue, the worker pool's futures, take-back.

The pipeline is plain and synchronous; when the adapter has a worker pool it gives the pipeline a
:class:`Scheduler`, which the pipeline hands work to (results sent ahead, charts to draw) and
which returns :class:`PendingHtml` for charts still being drawn. Adapters collect those when the
page is written. This is the only module that talks to the pool.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, wait
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs_selfattn.workers import WorkerPool

Drawn = tuple[str, list[str]]
"""A chart's SVG and the characters its fonts could not draw."""

Submit = Callable[..., "Future[Any]"]
"""``submit(fn, *args)`` of a worker pool."""

TAKE_BACK_AT = 8
"""Queued charts at which the build process starts drawing too: about as many charts as the
time matplotlib takes to import here, so that the import pays for itself."""

_POLL_S = 0.05


class ChartJob:
    """One chart to draw: queued in the build process, then sent to a worker, or drawn here.

    Charts wait in the scheduler's own queue and only a few are handed to the pool at a time
    (see :meth:`Scheduler.pump`), so a chart can be taken back by removing it from the queue:
    never by cancelling a future the pool holds, which on Python 3.11 breaks the pool's
    bookkeeping if a worker later dies (CPython gh-107219).
    """

    def __init__(self, remote: tuple[Callable[..., Drawn], tuple[Any, ...]]) -> None:
        self.remote = remote
        """The function and arguments a worker runs."""
        self.local: Callable[[], Drawn] | None = None
        """The same chart drawn here, from the result the page loaded (set by the page)."""
        self.future: Future[Drawn] | None = None
        self.here: Future[Drawn] | None = None

    def sent(self) -> bool:
        return self.future is not None

    def done(self) -> bool:
        return self.here is not None or (self.future is not None and self.future.done())

    def draw_here(self) -> None:
        """Draw in this process; a failure is kept and reported when the page collects it."""
        assert self.local is not None
        here: Future[Drawn] = Future()
        try:
            here.set_result(self.local())
        except Exception as exc:
            here.set_exception(exc)
        self.here = here

    def outcome(self) -> Future[Drawn]:
        if self.here is not None:
            return self.here
        assert self.future is not None
        return self.future


class PendingHtml:
    """HTML still being drawn (a chart in a worker); ``resolve`` waits for it, and meanwhile
    helps draw (see :meth:`Scheduler.help_draw`)."""

    def __init__(
        self,
        job: ChartJob,
        finish: Callable[[str, list[str]], str],
        scheduler: Scheduler | None = None,
        warnings: list[str] | None = None,
    ) -> None:
        self.job = job
        self._finish = finish
        self._scheduler = scheduler
        self.line: int | None = None
        """Page line of the block, set by the page expander for messages."""
        self.warnings: list[str] = [] if warnings is None else warnings
        """Problems ``finish`` found once the chart was drawn (missing glyphs), for the page."""

    def resolve(self) -> str:
        job = self.job
        scheduler = self._scheduler
        while not job.done():
            if scheduler is not None:
                scheduler.pump()
            if not job.sent() and job.local is not None:
                if scheduler is not None:
                    scheduler.unqueue(job)
                job.draw_here()  # still in our queue: no worker has it, so draw it now
            elif scheduler is not None and scheduler.help_draw(job):
                continue
            elif job.future is not None:
                wait([job.future], timeout=_POLL_S)  # short, so the queue keeps moving
            else:
                break
        if job.here is None and job.local is not None and job.outcome().exception():
            # The worker failed (or the pool broke): draw here, so that a real problem with
            # this chart is reported as itself, and a lost worker costs time, not the chart.
            job.draw_here()
        svg, missing = job.outcome().result()
        return self._finish(svg, missing)


class Scheduler:
    """Work sent ahead to a pool, and the charts queued for it, for one build."""

    def __init__(self, submit: Submit, in_flight: int = 2) -> None:
        self._submit = submit
        self._result_futures: dict[str, Future[dict[str, Any]]] = {}
        self._chart_jobs: dict[str, ChartJob] = {}
        """Charts sent ahead by the look-ahead, by chart key, until a page claims them."""
        self._ahead: dict[str, tuple[Callable[..., Drawn], tuple[Any, ...]]] = {}
        """Charts the look-ahead found, queued by :meth:`start` after every computation."""
        self._queue: deque[ChartJob] = deque()
        self._in_flight: list[ChartJob] = []
        self._flight = max(1, in_flight)
        self._helping = False

    @classmethod
    def for_pool(cls, pool: WorkerPool) -> Scheduler:
        # One chart drawing in each worker and one more waiting: a worker never idles, and
        # every other chart stays here, where the build process can take it back.
        return cls(pool.submit, in_flight=pool.workers + 1)

    # -- sent ahead by the look-ahead -------------------------------------------------------------

    def has_result(self, key: str) -> bool:
        return key in self._result_futures

    def send_result(self, key: str, fn: Callable[..., dict[str, Any]], *args: Any) -> None:
        """Sent at once: the first page that needs a result may come soon, and the worker
        still has to start up and import numpy."""
        self._result_futures[key] = self._submit(fn, *args)

    def has_chart(self, key: str) -> bool:
        return key in self._ahead

    def chart_ahead(self, key: str, fn: Callable[..., Drawn], *args: Any) -> None:
        self._ahead[key] = (fn, args)

    def start(self) -> tuple[int, int]:
        """Queue the charts, after every computation (pages wait for those at once, and
        collect charts only when they are written). Returns how many results and charts are
        on their way."""
        for key, remote in self._ahead.items():
            job = ChartJob(remote)
            self._chart_jobs[key] = job
            self._queue.append(job)
        self.pump()
        self._ahead.clear()
        return len(self._result_futures), len(self._chart_jobs)

    def unclaimed(self) -> tuple[int, int]:
        """Results and charts sent ahead that no page has taken (yet)."""
        return len(self._result_futures), len(self._chart_jobs)

    def take_result(self, key: str) -> dict[str, Any] | None:
        """The payload a worker computed ahead, or None (not sent, or it failed: computed
        again here, where errors are reported)."""
        future = self._result_futures.pop(key, None)
        if future is None:
            return None
        try:
            return future.result()
        except Exception:  # any failure: computed again here, where errors are reported
            return None

    # -- charts of the pages --------------------------------------------------------------------

    def chart(
        self,
        key: str,
        remote: tuple[Callable[..., Drawn], tuple[Any, ...]],
        local: Callable[[], Drawn],
        finish: Callable[[str, list[str]], str],
        warnings: list[str],
    ) -> PendingHtml:
        """The page's chart: the one sent ahead if any, else queued now; drawn here if the
        page needs it before a worker takes it."""
        job = self._chart_jobs.pop(key, None)
        if job is None:
            job = ChartJob(remote)
            self._queue.append(job)
        job.local = local
        self.pump()
        return PendingHtml(job, finish, self, warnings)

    def pump(self) -> None:
        """Keep a few charts with the pool (``in_flight``: enough that a worker never waits
        for the next one), and the rest here, where they can still be taken back."""
        self._in_flight = [job for job in self._in_flight if not job.done()]
        while self._queue and len(self._in_flight) < self._flight:
            job = self._queue.popleft()
            fn, args = job.remote
            job.future = self._submit(fn, *args)
            self._in_flight.append(job)

    def unqueue(self, job: ChartJob) -> None:
        with contextlib.suppress(ValueError):
            self._queue.remove(job)

    def help_draw(self, waiting: ChartJob) -> bool:
        """While a page waits for its chart, draw the last chart still queued here.

        The worker draws in page order and pages collect charts in page order, so the chart a
        page waits for is nearly always the one the worker is drawing: taking work from the
        front would find nothing to take. Taking it from the back lets both cores draw. It
        starts only when at least :data:`TAKE_BACK_AT` charts are queued, so that importing
        matplotlib here pays for itself. False when there is nothing to take.
        """
        self._helping = self._helping or len(self._queue) >= TAKE_BACK_AT
        if not self._helping:
            return False
        for job in reversed(self._queue):
            if job is not waiting and job.local is not None:
                self._queue.remove(job)
                job.draw_here()
                return True
        return False
