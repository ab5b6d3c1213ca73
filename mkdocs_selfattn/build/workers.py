"""Worker processes that compute and draw while MkDocs goes on rendering pages.

Matplotlib is the expensive part of a cold build (its import, then tens of milliseconds a
figure), and numpy with pyarrow cost a few hundred milliseconds to import even for one small
CSV. A worker on the other core does that work while the build process reads and renders
markdown; the plugin collects each result when its page needs it.

For a one-off build on Linux, while the build process has a single thread, workers are forked:
they start at once with everything already imported, which saved about 0.25 s of startup on each
worker, and a first result came that much sooner. Otherwise they are spawned as fresh
interpreters: under `mkdocs serve` the live-reload server has threads (a fork would copy them
mid-flight) and a listening socket (a forked worker would hold it), and other systems do not fork
safely.

A worker ends with the build however the build ends, even by SIGKILL (a CI cancellation): on
Linux the kernel sends it SIGKILL when the build process dies (``PR_SET_PDEATHSIG``), and
everywhere a thread in the worker checks every half second that its parent is still the build.
Its stdout and stderr go to ``/dev/null`` at once, so that ``mkdocs build | tee log`` sees the end
of its input when the build ends, not when the last worker does.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")


def default_workers() -> int:
    """One fewer than the cores (at least 1, at most 4), so MkDocs keeps a core to itself:
    measured on 2 cores, a second worker made cold builds slower, not faster."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


def start_method(fork_ok: bool) -> str:
    """Fork only where it is safe: when asked, on Linux, and with no other thread running."""
    single = threading.active_count() == 1
    return "fork" if fork_ok and sys.platform == "linux" and single else "spawn"


PARENT_CHECK_SECONDS = 0.5
PR_SET_PDEATHSIG = 1


def _start_worker(parent: int) -> None:
    """The pool's initializer: first in every worker, before any job."""
    _quiet_output()
    _exit_quickly()
    _die_with_parent(signal.SIGKILL)
    if os.getppid() != parent:  # the build died before the line above took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _quiet_output() -> None:
    """Point fds 1 and 2 away from the build's stdout and stderr (a pipe to ``tee``, say):
    a worker that outlived the build by a moment would otherwise hold the pipe open. Errors
    travel back with the jobs' results, so nothing a reader needs is lost."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)


def _die_with_parent(signal_number: int) -> None:
    """Ask Linux to send ``signal_number`` to this process when its parent dies.

    The kernel ties this to the *thread* that started the process, not to the whole parent: the
    signal comes when that thread ends. So a pool starts workers only from the thread that
    created it (see ``WorkerPool.submit``): the build's own thread, the main thread under both
    ``build`` and ``serve``.
    """
    if sys.platform != "linux":
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal_number, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl (another libc): the parent watch remains
        pass


def _watch_parent(parent: int) -> None:
    """End this worker once its parent is no longer the build (it was adopted by another)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def _exit_quickly() -> None:
    """End a worker without the interpreter's teardown once it has sent its last result.

    With numpy, pyarrow and matplotlib loaded, a normal exit took 0.17-0.21 s, and the build
    waits for its workers to exit; this makes it about 0.01 s. A worker holds nothing that needs
    cleaning up: every result has been sent through the pipe before the pool tells it to stop.
    """
    import atexit

    atexit.register(os._exit, 0)


class WorkerPool:
    """A lazily started process pool; ``submit`` runs the job here if the pool is broken."""

    def __init__(self, workers: int, *, fork_ok: bool = False) -> None:
        self.workers = workers
        self.fork_ok = fork_ok
        """Whether workers may be forked (a one-off build), see the module's docstring."""
        self._executor: ProcessPoolExecutor | None = None
        self._unavailable = False
        self._owner: int | None = None
        """The thread that created the executor: the only one that may start workers."""

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        # Imported on first use: a build answered by the cache never starts a worker.
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        if self._unavailable or self._owner not in (None, threading.get_ident()):
            # A pool starts a worker on submit, and a worker started from another thread
            # would be killed when that thread ends (see _die_with_parent).
            return _run_here(fn, *args)
        if self._executor is None:
            method = start_method(self.fork_ok)
            if method == "fork":
                # After a fork, every page of memory the build process writes is copied; a
                # garbage collection writes to every object it scans. Freezing moves the objects
                # that exist now out of the collector's sight (as the gc docs advise for fork).
                gc.freeze()
            try:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context(method),
                    initializer=_start_worker,
                    initargs=(os.getpid(),),
                )
                self._owner = threading.get_ident()
            except (OSError, ValueError):  # no semaphores here (e.g. no /dev/shm): work inline
                self._unavailable = True
                return _run_here(fn, *args)
        try:
            return self._executor.submit(fn, *args)
        except (BrokenProcessPool, RuntimeError, OSError):
            self.shutdown()
            return _run_here(fn, *args)

    def prepare(self) -> None:
        """Start the workers now, with the imports the first result needs (a build whose
        look-ahead found work: see :func:`prepare`)."""
        if not self._unavailable and self._executor is None:
            for _ in range(self.workers):
                self.submit(prepare)

    def warm_up(self, arrow: bool = False) -> None:
        """Start the workers and their imports now (``mkdocs serve``, after the first build);
        ``arrow``: a file is big enough for pyarrow's reader (see csv_small)."""
        if not self._unavailable and self._executor is None:
            for _ in range(self.workers):
                self.submit(warm_up, arrow)

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
            self._owner = None


def prepare() -> None:
    """What every first result imports, before the look-ahead has sent it: numpy and the core
    (measured: forking here, before the look-ahead imports and parses the blocks, started the
    worker's imports 15-20 ms sooner). Not matplotlib: results go first, pages wait for them."""
    import mkdocs_selfattn.build.jobs
    import mkdocs_selfattn.core.document_results
    import mkdocs_selfattn.core.reading_results  # noqa: F401


def warm_up(arrow: bool = False) -> None:
    """The imports a first job pays (numpy, matplotlib, its font list and the chart fonts, and
    pyarrow only if ``arrow``: a course of small files is read without it), done before it comes:
    under ``mkdocs serve`` the worker is a fresh interpreter, and these took 0.8-1.0 s that the
    first edit after start waited for."""
    import matplotlib

    from mkdocs_selfattn.core.arrow_extra import arrow_missing

    if arrow and not arrow_missing():  # missing: the build says so, naming the file
        import pyarrow.compute
        import pyarrow.csv  # noqa: F401

    matplotlib.use("Agg", force=False)
    from matplotlib.backends import backend_svg  # noqa: F401
    from matplotlib.figure import Figure  # noqa: F401

    from mkdocs_selfattn.render.chart_fonts import bundled_fonts
    from mkdocs_selfattn.render.font_registry import registered_families

    registered_families(bundled_fonts())


def _run_here(fn: Callable[..., T], *args: Any) -> Future[T]:
    """The job in this process, as a finished future (its failure is the job's own)."""
    done: Future[T] = Future()
    try:
        done.set_result(fn(*args))
    except Exception as exc:
        done.set_exception(exc)
    return done


def sigterm_as_interrupt() -> Callable[[], None]:
    """Make SIGTERM stop this process as Ctrl-C does; returns what puts the old handler back.

    ``mkdocs serve`` ends on Ctrl-C through its ``finally`` (the plugins' ``on_shutdown``, which
    shuts the pool down); SIGTERM (a container stop, ``kill``) ended it at once, so a spawned pool's
    semaphores were never released and multiprocessing's resource tracker printed "There appear
    to be 5 leaked semaphore objects". Only the default handler is replaced, only in the main
    thread (the only one Python delivers signals to)."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return lambda: None

    def interrupt(signal_number: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)

    def restore() -> None:
        if signal.getsignal(signal.SIGTERM) is interrupt:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)

    return restore


def pool_for(current: WorkerPool | None, chosen: int | None, fork_ok: bool) -> WorkerPool | None:
    """The pool a build should use: ``current`` if it still fits (``mkdocs serve`` keeps its
    workers across rebuilds), a new one, or none for ``chart_workers: 0``."""
    workers = default_workers() if chosen is None else chosen
    if (
        workers > 0
        and current is not None
        and (current.workers, current.fork_ok)
        == (
            workers,
            fork_ok,
        )
    ):
        return current
    if current is not None:
        current.shutdown()
    return WorkerPool(workers, fork_ok=fork_ok) if workers > 0 else None
