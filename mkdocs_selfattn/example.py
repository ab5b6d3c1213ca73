"""The example pipeline: a block's spec → files → results (cached) → the views it asks for.

Adapters hand in a :class:`Resolver` (how paths on this page map to files) and get back pieces of
markdown and HTML; nothing here knows about MkDocs.
"""

from __future__ import annotations

import contextlib
import csv
import io
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from mkdocs_selfattn import __version__
from mkdocs_selfattn.block_errors import (
    MERMAID_FENCE_MISSING,
    error_html,
    mismatch,
    read_bytes,
    read_text,
    with_label_hint,
)
from mkdocs_selfattn.cache import Cache, code_fingerprint, content_key, matplotlib_version
from mkdocs_selfattn.errors import BlockError, DataError, ScriptError
from mkdocs_selfattn.jobs import (
    ChartRequest,
    ComputeRequest,
    compute,
    compute_payload,
    draw_chart,
    render_chart_job,
)
from mkdocs_selfattn.languages import localized_script
from mkdocs_selfattn.render.chart import CHART_FORMAT, ChartStyle
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.mermaid import mermaid_html, render_mermaid
from mkdocs_selfattn.render.printout import render_printout
from mkdocs_selfattn.render.tables import (
    Table,
    compare_table,
    csv_table,
    target_tables,
    to_html,
)
from mkdocs_selfattn.render.words import CHART, MERMAID, TABLE, page_word, words
from mkdocs_selfattn.results import DocumentResult, result_from_dict, result_payload
from mkdocs_selfattn.spec import ExampleSpec, ViewOptions


@dataclass(frozen=True)
class ResolvedFile:
    """A file a block names: where it is, how messages show it, and its link from the page."""

    path: Path
    display: str
    link: str | None = None


class Resolver(Protocol):
    """Path policy of one page; raises :class:`~mkdocs_selfattn.errors.BlockError` on refusal."""

    project_root: Path

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile: ...


@dataclass(frozen=True)
class Settings:
    """Site-wide choices that change what views look like (all part of cache keys)."""

    number_format: str | None = None
    chart: ChartStyle = field(default_factory=ChartStyle)
    run_scripts: bool = True
    script_timeout: float = 30.0
    draw_charts: bool = True
    """Off for ``mkdocs-selfattn check``: chart views are still checked, but nothing is drawn."""
    mermaid_fence: bool = True
    """Whether the site renders ``mermaid`` fences (MkDocs: a superfences custom fence)."""
    mixed_candidates: bool = False
    """Allow targets of one document to re-read different candidates (else a warning)."""
    mermaid: tuple[str, str] | None = ("pre", "mermaid")
    """How the site's superfences writes a mermaid fence, (element, class), so the view can be
    that HTML (kept out of the search index); None: a site formatter of its own, so a fence."""


@dataclass(frozen=True)
class Example:
    """A computed example, ready to show in any view and to answer inline values."""

    spec: ExampleSpec
    csv: ResolvedFile
    csv_bytes: bytes
    result: DocumentResult
    labels: Labels
    printout: str
    script: ResolvedFile | None
    script_text: str | None
    script_output: str | None
    key: str


Drawn = tuple[str, list[str]]
"""A chart's SVG and the characters its fonts could not draw."""


class ChartJob:
    """One chart to draw: queued in the build process, then sent to a worker, or drawn here.

    Charts wait in the pipeline's own queue and only a few are handed to the pool at a time
    (see :meth:`Pipeline.pump`), so a chart can be taken back by removing it from the queue:
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
    helps draw (see :meth:`Pipeline.help_draw`)."""

    def __init__(
        self,
        job: ChartJob,
        finish: Callable[[str, list[str]], str],
        pipeline: Pipeline | None = None,
    ) -> None:
        self.job = job
        self._finish = finish
        self._pipeline = pipeline
        self.line: int | None = None
        """Page line of the block, set by the page expander for messages."""

    def resolve(self) -> str:
        job = self.job
        while not job.done():
            if self._pipeline is not None:
                self._pipeline.pump()
            if not job.sent() and job.local is not None:
                if self._pipeline is not None:
                    self._pipeline.unqueue(job)
                job.draw_here()  # still in our queue: no worker has it, so draw it now
            elif self._pipeline is not None and self._pipeline.help_draw(job):
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


_POLL_S = 0.05


Piece = tuple[str, "str | PendingHtml"]
"""("md", markdown), ("html", raw HTML that must bypass markdown) or ("late", raw HTML that
bypasses markdown and the search index: tables, figures and charts, which are numbers (charts may
still be drawing). The plugin puts "late" pieces in after search has indexed the page, which
keeps the index to the prose and the printout and saves parsing every table cell for it."""


Submit = Callable[..., "Future[Any]"]
"""``submit(fn, *args)`` of a worker pool."""

TAKE_BACK_AT = 8
"""Queued charts at which the build process starts drawing too: about as many charts as the
time matplotlib takes to import here, so that the import pays for itself."""


class Pipeline:
    """Shared by every page of a build; the cache makes repeated work free."""

    def __init__(
        self,
        settings: Settings,
        cache: Cache,
        submit: Submit | None = None,
        in_flight: int = 2,
    ) -> None:
        self.settings = settings
        self.cache = cache
        self._submit = submit
        self.warnings: list[str] = []
        """Problems found while rendering that do not stop the block (e.g. missing glyphs)."""
        self.shared_warnings: list[str] = []
        """Like ``warnings``, but about a file or the site rather than the block (a CSV's
        uneven targets, the missing mermaid fence): adapters log each once per build."""
        self._charts: dict[str, ChartRequest] = {}
        self._result_futures: dict[str, Future[dict[str, Any]]] = {}
        self._chart_jobs: dict[str, ChartJob] = {}
        """Charts sent ahead by the look-ahead, by chart key, until a page claims them."""
        self._queue: deque[ChartJob] = deque()
        self._in_flight: list[ChartJob] = []
        self._flight = max(1, in_flight)
        self._helping = False

    # -- prefetching ----------------------------------------------------------------------------

    def prefetch(self, spec: ExampleSpec, charts: list[ViewOptions], resolver: Resolver) -> None:
        """Send what the cache cannot answer for this example to the worker: its result now,
        and the charts its ``charts`` views will draw when :meth:`start_prefetch` is called."""
        if self._submit is None:
            return
        csv_file = resolver.resolve(spec.csv, "csv", spec.line_of("csv"))
        csv_bytes = read_bytes(csv_file, "csv")
        key = result_key(spec, csv_bytes)
        request = ComputeRequest.of(key, spec, csv_bytes, csv_file.display)
        if (
            key not in self._result_futures
            and _cached_result(self.cache.peek("result", key)) is None
        ):
            # Sent at once: the first page that needs a result may come soon, and the worker
            # still has to start up and import numpy.
            self._result_futures[key] = self._submit(compute_payload, request)
        for view in charts:
            number_format = view.number_format or self.settings.number_format
            ckey = chart_key(key, spec, self.settings.chart, number_format, view)
            if ckey in self._charts or _cached_chart(self.cache.peek("chart", ckey)) is not None:
                continue
            self._charts[ckey] = ChartRequest(
                compute=request,
                display=tuple(spec.display.items()),
                style=self.settings.chart,
                number_format=number_format,
                text=tuple(chart_text(view).items()),
                title=view.title,
            )

    def start_prefetch(self) -> tuple[int, int]:
        """Queue the charts, after every computation (pages wait for those at once, and
        collect charts only when they are written). Returns how many results and charts are
        on their way."""
        if self._submit is not None:
            for key, chart in self._charts.items():
                job = ChartJob((draw_chart, (chart,)))
                self._chart_jobs[key] = job
                self._queue.append(job)
            self.pump()
        self._charts.clear()
        return len(self._result_futures), len(self._chart_jobs)

    def pump(self) -> None:
        """Keep a few charts with the pool (``in_flight``: enough that a worker never waits
        for the next one), and the rest here, where they can still be taken back."""
        if self._submit is None:
            return
        self._in_flight = [job for job in self._in_flight if not job.done()]
        while self._queue and len(self._in_flight) < self._flight:
            job = self._queue.popleft()
            fn, args = job.remote
            job.future = self._submit(fn, *args)
            self._in_flight.append(job)

    def unclaimed(self) -> tuple[int, int]:
        """Results and charts sent ahead that no page has taken (yet)."""
        return len(self._result_futures), len(self._chart_jobs)

    def unqueue(self, job: ChartJob) -> None:
        with contextlib.suppress(ValueError):
            self._queue.remove(job)

    def _prefetched_result(self, key: str) -> dict[str, Any] | None:
        future = self._result_futures.pop(key, None)
        if future is None:
            return None
        try:
            payload = future.result()
        except Exception:  # any failure: computed again here, where errors are reported
            return None
        return payload if _cached_result(payload) is not None else None

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

    # -- loading ------------------------------------------------------------------------------

    def load(self, spec: ExampleSpec, resolver: Resolver, language: str | None = None) -> Example:
        """``language``: the page's, for a localised script (see :func:`localized_script`)."""
        csv_file = resolver.resolve(spec.csv, "csv", spec.line_of("csv"))
        csv_bytes = read_bytes(csv_file, "csv")
        script_file = script_text = None
        if spec.script is not None:
            script_file = localized_script(spec, resolver, language)
            script_text = read_text(script_file, "script")
        key = result_key(spec, csv_bytes)
        result = _cached_result(self.cache.get("result", key))
        if result is None:
            payload = self._prefetched_result(key)
            if payload is not None:
                result = result_from_dict(payload)
            else:
                try:
                    result = compute(ComputeRequest.of(key, spec, csv_bytes, csv_file.display))
                except DataError as exc:
                    raise with_label_hint(exc, spec) from None
                payload = result_payload(result)
            self.cache.put("result", key, payload)
        labels = Labels(dict(spec.display)).for_result(result)
        printout = render_printout(result, labels.as_written())
        script_output = None
        if script_file is not None and script_text is not None and self.settings.run_scripts:
            script_output = self._script_output(
                script_file, script_text, csv_bytes, resolver, language
            )
            if script_output != printout:
                message, diff = mismatch(script_file.display, printout, script_output)
                raise ScriptError(message, diff=diff)
        if not (spec.mixed_candidates or self.settings.mixed_candidates):
            self.shared_warnings += result.warnings
        return Example(
            spec=spec,
            csv=csv_file,
            csv_bytes=csv_bytes,
            result=result,
            labels=labels,
            printout=printout,
            script=script_file,
            script_text=script_text,
            script_output=script_output,
            key=key,
        )

    def _script_output(
        self,
        script: ResolvedFile,
        text: str,
        csv_bytes: bytes,
        resolver: Resolver,
        language: str | None = None,
    ) -> str:
        from mkdocs_selfattn.scripts import run_script

        root = str(resolver.project_root)
        key = content_key("script", text, csv_bytes, str(script.path), root, language)
        cached = self.cache.get("script", key)
        if isinstance(cached, str):
            return cached
        run = run_script(
            script.path,
            cwd=resolver.project_root,
            timeout=self.settings.script_timeout,
            display=script.display,
            language=language,
        )
        self.cache.put("script", key, run.stdout)
        return run.stdout

    # -- views --------------------------------------------------------------------------------

    def views(self, example: Example, view: ViewOptions, line: int) -> list[Piece]:
        number_format = view.number_format or self.settings.number_format
        pieces: list[Piece] = []
        for name in view.show:
            if name == "output":
                pieces.append(("md", self._output(example, view.language)))
            elif name == "table":
                tables = target_tables(
                    example.result, example.labels, number_format, _text(TABLE, view)
                )
                pieces.append(("late", to_html(tables)))
            elif name == "compare":
                table = compare_table(
                    example.result, example.labels, number_format, _text(TABLE, view)
                )
                pieces.append(("late", to_html([table])))
            elif name == "csv":
                pieces.append(("late", to_html([self._csv_rows(example)])))
            elif name == "mermaid" and not self.settings.mermaid_fence:
                pieces.append(("html", error_html(MERMAID_FENCE_MISSING, language=view.language)))
                self.shared_warnings.append(MERMAID_FENCE_MISSING)
            elif name == "mermaid":
                source = render_mermaid(
                    example.result,
                    example.labels,
                    top=view.top,
                    number_format=number_format,
                    text=_text(MERMAID, view),
                )
                if self.settings.mermaid is None:
                    pieces.append(("md", _fence("mermaid", source)))
                else:
                    # As superfences writes the fence, but late: no figure source in search.
                    pieces.append(("late", mermaid_html(source, *self.settings.mermaid)))
            elif name == "chart":
                pieces.append(("late", self._chart(example, view, number_format)))
            elif name == "code":
                pieces.append(("md", self._code(example, line)))
            elif name == "try":  # issue 15: the in-page experiment (render/try_view.py)
                pieces.append(("late", _try_html(example, view, number_format, line)))
        return pieces

    def _output(self, example: Example, language: str | None) -> str:
        if example.script_output is not None:
            return _fence("text", example.script_output)
        fence = _fence("text", example.printout)
        if example.script is not None:
            return fence + "\n\n" + page_word("scripts_off", language)
        return fence

    def _code(self, example: Example, line: int) -> str:
        if example.script is None or example.script_text is None:
            raise BlockError(
                f"the 'code' view shows the example script, and example "
                f"'{example.spec.id}' has no 'script:'",
                line=line,
            )
        title = example.script.path.name.replace('"', "'")
        return _fence("python", example.script_text, f'title="{title}"')

    def _csv_rows(self, example: Example) -> Table:
        text = example.csv_bytes.decode("utf-8-sig")
        reader = csv.reader(io.StringIO(text, newline=""))
        header = next(reader)
        column = dict(example.spec.columns).get("document", "document_id")
        position = [h.strip() for h in header].index(column)
        rows = [r for r in reader if r and r[position] == example.result.document]
        return csv_table(header, rows, example.csv.link, example.csv.path.name)

    def _chart(
        self, example: Example, view: ViewOptions, number_format: str | None
    ) -> str | PendingHtml:
        if not self.settings.draw_charts:
            from mkdocs_selfattn.render.chart import chart_words

            chart_words(example.labels, example.result, number_format, view.text, view.title)
            return '<div class="selfattn-chart-box"></div>'
        style = self.settings.chart
        key = chart_key(example.key, example.spec, style, number_format, view)
        cached = _cached_chart(self.cache.get("chart", key))
        if cached is not None:
            return self._finish_chart(None, *cached)
        args = (example.result, example.labels, style, number_format, chart_text(view), view.title)

        def finish(svg: str, missing: list[str]) -> str:
            return self._finish_chart(key, svg, missing)

        job = self._chart_jobs.pop(key, None)
        if job is None and self._submit is None:
            return finish(*render_chart_job(*args))
        if job is None:
            job = ChartJob((render_chart_job, args))
            self._queue.append(job)
        job.local = lambda: render_chart_job(*args)
        self.pump()
        return PendingHtml(job, finish, self)

    def _finish_chart(self, key: str | None, svg: str, missing: list[str]) -> str:
        if key is not None:
            self.cache.put("chart", key, {"svg": svg, "missing": missing})
        if missing:
            self.warnings.append(
                "the chart font has no glyph for "
                + " ".join(missing)
                + "; install a CJK font (Debian: fonts-noto-cjk) or list one in 'chart_fonts'"
            )
        return f'<div class="selfattn-chart-box">{svg}</div>'


def _try_html(example: Example, view: ViewOptions, number_format: str | None, line: int) -> str:
    from mkdocs_selfattn.render import try_view

    try_view.check_format(number_format, line)
    data = try_view.try_data(
        example.result,
        example.labels,
        example.csv_bytes,
        source=example.csv.display,
        columns=example.spec.columns,
        vectors=example.spec.vectors,
        groups=example.spec.groups,
        number_format=number_format,
        text=view.text,
        language=view.language,
        csv_href=example.csv.link,
        csv_name=example.csv.path.name,
    )
    return try_view.render_try(data, example.result, example.spec.id)


def result_key(spec: ExampleSpec, csv_bytes: bytes) -> str:
    """Everything that decides an example's numbers (display names and views do not)."""
    return content_key(
        "result",
        __version__,
        code_fingerprint(),
        csv_bytes,
        spec.document,
        spec.targets,
        spec.vectors,
        dict(spec.columns),
        {k: list(v) for k, v in spec.groups.items()},
        spec.temperature,
    )


def chart_key(
    example_key: str,
    spec: ExampleSpec,
    style: ChartStyle,
    number_format: str | None,
    view: ViewOptions,
) -> str:
    return content_key(
        "chart",
        __version__,
        code_fingerprint(),
        CHART_FORMAT,
        example_key,
        dict(spec.display),
        style.width,
        style.height,
        list(style.colors),
        list(style.fonts),
        number_format,
        chart_text(view),
        view.title,
        matplotlib_version(),
    )


def _cached_chart(payload: object) -> tuple[str, list[str]] | None:
    if not isinstance(payload, dict) or not isinstance(payload.get("svg"), str):
        return None
    missing = payload.get("missing", [])
    if not isinstance(missing, list) or not all(isinstance(m, str) for m in missing):
        return None
    return payload["svg"], missing


def _cached_result(payload: object) -> DocumentResult | None:
    """A cache entry can pass its checksum and still have the wrong shape (written by another
    version, or by hand): anything unreadable is a miss."""
    if not isinstance(payload, dict):
        return None
    try:
        return result_from_dict(payload)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _fence(lang: str, body: str, attrs: str = "") -> str:
    longest = max((len(run) for run in _backtick_runs(body)), default=0)
    fence = "`" * max(3, longest + 1)
    head = f"{fence}{lang}" + (f" {attrs}" if attrs else "")
    return f"{head}\n{body.rstrip(chr(10))}\n{fence}"


def _backtick_runs(text: str) -> list[str]:
    runs: list[str] = []
    current = ""
    for ch in text:
        if ch == "`":
            current += ch
        elif current:
            runs.append(current)
            current = ""
    if current:
        runs.append(current)
    return runs


def _text(catalogue: Mapping[str, Mapping[str, str]], view: ViewOptions) -> dict[str, str]:
    """A view's words: the plugin's in the page's language, then the block's own ``text:``."""
    return {**words(catalogue, view.language), **view.text}


def chart_text(view: ViewOptions) -> dict[str, str]:
    return _text(CHART, view)
