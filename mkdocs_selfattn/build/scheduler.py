"""When charts are drawn and results computed: the worker pool's futures, for one build.

The pipeline is plain and synchronous; when the adapter has a worker pool it gives the pipeline a
:class:`Scheduler`, which the pipeline hands work to (results sent ahead, charts to draw) and
which returns :class:`PendingHtml` for charts still being drawn. Adapters collect those when the
page is written. This is the only module that talks to the pool.

Every chart goes to the pool as soon as it is known, and the build process never draws one while
the pool works: drawing here too (taking charts back from a queue) made a cold build's wall time
a little shorter on two idle cores, but imported matplotlib a second time, which cost more CPU
time and memory than the charts it drew, and needed a queue of its own in front of the pool.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs_selfattn.build.workers import WorkerPool

Drawn = tuple[str, list[str]]
"""A chart's SVG and the characters its fonts could not draw."""

Submit = Callable[..., "Future[Any]"]
"""``submit(fn, *args)`` of a worker pool."""

Remote = tuple[Callable[..., Drawn], tuple[Any, ...]]
"""The function and arguments a worker runs to draw a chart."""


class ChartJob:
    """One chart of the build: sent to the pool, or drawn here if the pool fails it."""

    def __init__(self, remote: Remote) -> None:
        self.remote = remote
        self.local: Callable[[], Drawn] | None = None
        """The same chart drawn here, from the result the page loaded (set by the page)."""
        self.future: Future[Drawn] | None = None
        self.here: Future[Drawn] | None = None

    def send(self, submit: Submit) -> None:
        if self.future is None:
            fn, args = self.remote
            self.future = submit(fn, *args)

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
        failed = self.future is not None and self.future.exception() is not None  # waits
        if self.here is None and failed and self.local is not None:
            # The worker failed (or the pool broke): draw here, so that a real problem with
            # this chart is reported as itself, and a lost worker costs time, not the chart.
            self.draw_here()
        if self.here is None and self.future is None:
            self.draw_here()
        return self.here if self.here is not None else _sent(self.future)


def _sent(future: Future[Drawn] | None) -> Future[Drawn]:
    assert future is not None
    return future


class PendingHtml:
    """HTML still being drawn (a chart in a worker); ``resolve`` waits for it."""

    def __init__(
        self,
        job: ChartJob,
        finish: Callable[[str, list[str]], str],
        warnings: list[str] | None = None,
    ) -> None:
        self.job = job
        self._finish = finish
        self.line: int | None = None
        """Page line of the block, set by the page expander for messages."""
        self.warnings: list[str] = [] if warnings is None else warnings
        """Problems ``finish`` found once the chart was drawn (missing glyphs), for the page."""

    def resolve(self) -> str:
        svg, missing = self.job.outcome().result()
        return self._finish(svg, missing)


class Scheduler:
    """Work sent ahead to a pool, and every chart of one build by its key."""

    def __init__(self, submit: Submit) -> None:
        self._submit = submit
        self._result_futures: dict[str, Future[dict[str, Any]]] = {}
        self._charts: dict[str, ChartJob] = {}
        """Every chart of this build by chart key: a chart two pages show is drawn once."""
        self._ahead: list[ChartJob] = []
        """Charts the look-ahead found, sent by :meth:`start` after every computation."""
        self._claimed: set[str] = set()

    @classmethod
    def for_pool(cls, pool: WorkerPool) -> Scheduler:
        return cls(pool.submit)

    # -- sent ahead by the look-ahead -------------------------------------------------------------

    def has_result(self, key: str) -> bool:
        return key in self._result_futures

    def send_result(self, key: str, fn: Callable[..., dict[str, Any]], *args: Any) -> None:
        """Sent at once: the first page that needs a result may come soon, and the worker
        still has to start up and import numpy."""
        self._result_futures[key] = self._submit(fn, *args)

    def has_chart(self, key: str) -> bool:
        return key in self._charts

    def chart_ahead(self, key: str, fn: Callable[..., Drawn], *args: Any) -> None:
        job = ChartJob((fn, args))
        self._charts[key] = job
        self._ahead.append(job)

    def start(self) -> tuple[int, int]:
        """Send the charts, after every computation (pages wait for those at once, and collect
        charts only when they are written). Returns how many results and charts are on their
        way."""
        for job in self._ahead:
            job.send(self._submit)
        self._ahead.clear()
        return len(self._result_futures), len(self._charts)

    def unclaimed(self) -> tuple[int, int]:
        """Results and charts sent ahead that no page has taken."""
        return len(self._result_futures), len(set(self._charts) - self._claimed)

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
        remote: Remote,
        local: Callable[[], Drawn],
        finish: Callable[[str, list[str]], str],
        warnings: list[str],
    ) -> PendingHtml:
        """The page's chart: the one this build already has under ``key`` (sent ahead, or
        another page's), else sent now."""
        job = self._charts.get(key)
        if job is None:
            job = self._charts[key] = ChartJob(remote)
        if job.local is None:
            job.local = local
        job.send(self._submit)
        self._claimed.add(key)
        return PendingHtml(job, finish, warnings)
