"""The example pipeline: a block's spec → files → results (cached) → the views it asks for.

Adapters hand in a :class:`Resolver` (how paths on this page map to files) and get back pieces of
markdown and HTML; nothing here knows about MkDocs.
"""

from __future__ import annotations

import csv
import difflib
import io
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from mkdocs_selfattn import __version__
from mkdocs_selfattn.blocks import ExampleSpec, ViewOptions
from mkdocs_selfattn.cache import Cache, content_key
from mkdocs_selfattn.errors import BlockError, DataError, ScriptError
from mkdocs_selfattn.render.chart import CHART_FORMAT, ChartStyle
from mkdocs_selfattn.render.escape import html_text
from mkdocs_selfattn.render.jsonout import result_from_dict, result_to_dict
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.mermaid import render_mermaid
from mkdocs_selfattn.render.printout import render_printout
from mkdocs_selfattn.render.tables import (
    Table,
    compare_table,
    csv_table,
    target_tables,
    to_html,
)
from mkdocs_selfattn.results import DocumentResult


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


class PendingHtml:
    """HTML still being drawn elsewhere (a chart in a worker); ``resolve`` waits for it."""

    def __init__(
        self, future: Future[tuple[str, list[str]]], finish: Callable[[str, list[str]], str]
    ) -> None:
        self._future = future
        self._finish = finish
        self.line: int | None = None
        """Page line of the block, set by the page expander for messages."""

    def done(self) -> bool:
        return self._future.done()

    def resolve(self) -> str:
        svg, missing = self._future.result()
        return self._finish(svg, missing)


Piece = tuple[str, "str | PendingHtml"]
"""("md", markdown), ("html", raw HTML that must bypass markdown) or ("chart", raw HTML that
may still be drawing and need not be searchable)."""


class Pipeline:
    """Shared by every page of a build; the cache makes repeated work free."""

    def __init__(
        self,
        settings: Settings,
        cache: Cache,
        chart_submit: Callable[..., Future[tuple[str, list[str]]]] | None = None,
    ) -> None:
        self.settings = settings
        self.cache = cache
        self._chart_submit = chart_submit
        self.warnings: list[str] = []
        """Problems found while rendering that do not stop the block (e.g. missing glyphs)."""

    # -- loading ------------------------------------------------------------------------------

    def load(self, spec: ExampleSpec, resolver: Resolver) -> Example:
        csv_file = resolver.resolve(spec.csv, "csv", spec.line_of("csv"))
        csv_bytes = _read_bytes(csv_file)
        script_file = script_text = None
        if spec.script is not None:
            script_file = resolver.resolve(spec.script, "script", spec.line_of("script"))
            script_text = _read_text(script_file)
        key = content_key(
            "result",
            __version__,
            csv_bytes,
            spec.document,
            spec.targets,
            spec.vectors,
            dict(spec.columns),
            {k: list(v) for k, v in spec.groups.items()},
            spec.temperature,
        )
        result = _cached_result(self.cache.get("result", key))
        if result is None:
            result = _compute(spec, csv_file, csv_bytes)
            self.cache.put("result", key, {**result_to_dict(result), "source": result.source})
        labels = Labels(dict(spec.display)).for_result(result)
        printout = render_printout(result, labels)
        script_output = None
        if script_file is not None and script_text is not None and self.settings.run_scripts:
            script_output = self._script_output(script_file, script_text, csv_bytes, resolver)
            if script_output != printout:
                raise ScriptError(_mismatch(script_file.display, printout, script_output))
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
        self, script: ResolvedFile, text: str, csv_bytes: bytes, resolver: Resolver
    ) -> str:
        from mkdocs_selfattn.scripts import run_script

        key = content_key("script", text, csv_bytes, str(script.path), str(resolver.project_root))
        cached = self.cache.get("script", key)
        if isinstance(cached, str):
            return cached
        run = run_script(
            script.path,
            cwd=resolver.project_root,
            timeout=self.settings.script_timeout,
            display=script.display,
        )
        self.cache.put("script", key, run.stdout)
        return run.stdout

    # -- views --------------------------------------------------------------------------------

    def views(self, example: Example, view: ViewOptions, line: int) -> list[Piece]:
        number_format = view.number_format or self.settings.number_format
        pieces: list[Piece] = []
        for name in view.show:
            if name == "output":
                pieces.append(("md", self._output(example)))
            elif name == "table":
                tables = target_tables(example.result, example.labels, number_format, view.text)
                pieces.append(("html", to_html(tables)))
            elif name == "compare":
                table = compare_table(example.result, example.labels, number_format, view.text)
                pieces.append(("html", to_html([table])))
            elif name == "csv":
                pieces.append(("html", to_html([self._csv_rows(example)])))
            elif name == "mermaid":
                source = render_mermaid(
                    example.result,
                    example.labels,
                    top=view.top,
                    number_format=number_format,
                    text=view.text,
                )
                pieces.append(("md", _fence("mermaid", source)))
            elif name == "chart":
                pieces.append(("chart", self._chart(example, view, number_format)))
            elif name == "code":
                pieces.append(("md", self._code(example, line)))
        return pieces

    def _output(self, example: Example) -> str:
        if example.script_output is not None:
            return _fence("text", example.script_output)
        fence = _fence("text", example.printout)
        if example.script is not None:
            return (
                fence + "\n\n*The example script was not run for this build "
                "(scripts are switched off); this is the core's printout.*"
            )
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
        style = self.settings.chart
        key = content_key(
            "chart",
            __version__,
            CHART_FORMAT,
            example.key,
            dict(example.spec.display),
            style.width,
            style.height,
            list(style.colors),
            list(style.fonts),
            number_format,
            dict(view.text),
            view.title,
            _matplotlib_version(),
        )
        cached = self.cache.get("chart", key)
        if isinstance(cached, dict) and isinstance(cached.get("svg"), str):
            return self._finish_chart(None, str(cached["svg"]), list(cached.get("missing", [])))
        job = (example.result, example.labels, style, number_format, dict(view.text), view.title)
        if self._chart_submit is None:
            svg, missing = render_chart_job(*job)
            return self._finish_chart(key, svg, missing)
        future = self._chart_submit(*job)
        return PendingHtml(future, lambda svg, missing: self._finish_chart(key, svg, missing))

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


def render_chart_job(
    result: DocumentResult,
    labels: Labels,
    style: ChartStyle,
    number_format: str | None,
    text: dict[str, str],
    title: str | None,
) -> tuple[str, list[str]]:
    from mkdocs_selfattn.render.chart import render_chart

    out = render_chart(
        result, labels, style=style, number_format=number_format, text=text, title=title
    )
    return out.svg, out.missing_glyphs


_MPL_VERSION: list[str] = []


def _matplotlib_version() -> str:
    """Read from package metadata, so a warm build never imports matplotlib."""
    if not _MPL_VERSION:
        from importlib.metadata import PackageNotFoundError, version

        try:
            _MPL_VERSION.append(version("matplotlib"))
        except PackageNotFoundError:
            _MPL_VERSION.append("none")
    return _MPL_VERSION[0]


def _compute(spec: ExampleSpec, csv_file: ResolvedFile, data: bytes) -> DocumentResult:
    from mkdocs_selfattn.attention import compute_document
    from mkdocs_selfattn.table import ColumnMap, parse_table

    columns = ColumnMap.from_mapping(dict(spec.columns), source=csv_file.display)
    table = parse_table(data, source=csv_file.display, columns=columns, vectors=spec.vectors)
    return compute_document(
        table,
        spec.document,
        targets=spec.targets,
        groups={k: list(v) for k, v in spec.groups.items()},
        temperature=spec.temperature,
    )


def _cached_result(payload: object) -> DocumentResult | None:
    """A cache entry can pass its checksum and still have the wrong shape (written by another
    version, or by hand): anything unreadable is a miss."""
    if not isinstance(payload, dict):
        return None
    try:
        return result_from_dict(payload)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _read_bytes(file: ResolvedFile) -> bytes:
    try:
        return file.path.read_bytes()
    except FileNotFoundError:
        raise DataError(file.display, "file not found; check the path") from None
    except IsADirectoryError:
        raise DataError(file.display, "is a folder, not a file") from None
    except OSError as exc:
        raise DataError(file.display, f"cannot be read ({exc.strerror or exc})") from None


def _read_text(file: ResolvedFile) -> str:
    try:
        return _read_bytes(file).decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(file.display, "is not UTF-8 text") from None


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


def _mismatch(display: str, expected: str, actual: str) -> str:
    diff = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            "core printout",
            "script output",
            lineterm="",
            n=0,
        )
    )
    shown = diff[2:12]
    more = len(diff) - 2 - len(shown)
    tail = f" (+{more} more diff lines)" if more > 0 else ""
    return (
        f"the output of script {display} differs from the numbers computed from the CSV: "
        + " | ".join(shown)
        + tail
        + "; fix the script or the block's options so both agree"
    )


def error_html(message: str) -> str:
    """The visible in-page error that replaces a broken block when the build is not strict."""
    return (
        '<div class="admonition failure selfattn-error">'
        '<p class="admonition-title">selfattn: this example could not be built</p>'
        f"<p>{html_text(message)}</p></div>"
    )
