"""The example pipeline: a block's spec → files → results (cached) → the views it asks for.

Plain and synchronous: :meth:`Pipeline.load` turns a spec into an :class:`Example`, and
:meth:`Pipeline.render` turns an example and a view into pieces of markdown and HTML, both
returning their warnings. Adapters hand in a :class:`Resolver` (how paths on this page map to
files); nothing here knows about MkDocs. With a :class:`~mkdocs_selfattn.build.scheduler.Scheduler`,
results the look-ahead sent to a worker are taken from it and charts are drawn there.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from mkdocs_selfattn.blocks.languages import localized_file, localized_script
from mkdocs_selfattn.blocks.spec import NUMBER_KEYS, ExampleSpec, ViewOptions
from mkdocs_selfattn.build.block_errors import mismatch, read_bytes, read_text, with_label_hint
from mkdocs_selfattn.build.cache import Cache, code_fingerprint, content_key
from mkdocs_selfattn.build.engines import Result
from mkdocs_selfattn.build.example import Example, Rendered, ResolvedFile, Resolver
from mkdocs_selfattn.build.jobs import (
    ChartRequest,
    ComputeRequest,
    compute,
    compute_payload,
    draw_chart,
    payload_of,
)
from mkdocs_selfattn.build.layouts import layout_of
from mkdocs_selfattn.build.scheduler import Scheduler
from mkdocs_selfattn.build.settings import Settings
from mkdocs_selfattn.build.views import VIEWS, cached_chart, figure_names, plan_figure
from mkdocs_selfattn.core.record_form import from_plain
from mkdocs_selfattn.errors import BlockError, DataError, ScriptError, did_you_mean
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.printout import render_printout
from mkdocs_selfattn.version import __version__


class Pipeline:
    """Shared by every page of a build; the cache makes repeated work free."""

    def __init__(
        self, settings: Settings, cache: Cache, scheduler: Scheduler | None = None
    ) -> None:
        self.settings = settings
        self.cache = cache
        self.scheduler = scheduler

    def prefetch(self, spec: ExampleSpec, charts: list[ViewOptions], resolver: Resolver) -> None:
        """Send what the cache cannot answer for this example to the scheduler's workers: its
        result now, and the charts its ``charts`` views will draw when the scheduler starts."""
        scheduler = self.scheduler
        if scheduler is None:
            return
        csv_file = resolver.resolve(spec.csv, "csv", spec.line_of("csv"))
        csv_bytes = read_bytes(csv_file, "csv")
        key = result_key(spec, csv_bytes)
        request = ComputeRequest.of(key, spec, csv_bytes, csv_file.display)
        if (
            not scheduler.has_result(key)
            and cached_result(self.cache.peek("result", key), spec.layout) is None
        ):
            scheduler.send_result(key, compute_payload, request)
        for view in charts:
            number_format = view.number_format or self.settings.number_format
            for name in figure_names(view):
                plan = plan_figure(key, spec, self.settings, view, name)
                ckey = plan.key
                if (
                    not plan.ahead
                    or scheduler.has_chart(ckey)
                    or cached_chart(self.cache.peek("chart", ckey)) is not None
                ):
                    continue
                # The worker takes the figure's labels from its spec (the figure's language).
                compute = ComputeRequest.of(key, plan.spec, csv_bytes, csv_file.display)
                chart = ChartRequest(
                    compute=compute,
                    style=self.settings.chart,
                    number_format=number_format,
                    text=tuple(plan.view.text.items()),
                    title=plan.view.title,
                    view=name,
                    query=view.query,
                )
                scheduler.chart_ahead(ckey, draw_chart, chart)

    def load(self, spec: ExampleSpec, resolver: Resolver, language: str | None = None) -> Example:
        """``language``: the page's, for a localised CSV or script (see :func:`localized_file`)."""
        csv_file = localized_file(spec.csv, "csv", spec.line_of("csv"), resolver, language)
        csv_bytes = read_bytes(csv_file, "csv")
        script_file = script_text = None
        if spec.script is not None:
            script_file = localized_script(spec, resolver, language)
            script_text = read_text(script_file, "script")
            if script_file.path.suffix != ".py":
                # Run, any other file would print its own lines in a traceback, and the
                # message would publish them (a `.env` on a page).
                raise DataError(
                    script_file.display,
                    "is not a Python file (.py); 'script' names the example program",
                    key="script",
                )
        key = result_key(spec, csv_bytes)
        result = cached_result(self.cache.get("result", key), spec.layout)
        if result is None:
            payload = None if self.scheduler is None else self.scheduler.take_result(key)
            result = None if payload is None else cached_result(payload, spec.layout)
            if result is None:
                try:
                    result = compute(ComputeRequest.of(key, spec, csv_bytes, csv_file.display))
                except DataError as exc:
                    raise with_label_hint(exc, spec) from None
                payload = payload_of(result)
            self.cache.put("result", key, payload)
        labels = Labels(dict(spec.display)).for_result(result)
        line = None if spec.template is None else spec.line_of("template")
        printout = render_printout(
            result,
            labels.as_written(),
            spec.template,
            line=line,
            top=spec.top,
            csv_bytes=csv_bytes,
            columns=spec.columns,
        )
        script_output = None
        if script_file is not None and script_text is not None and self.settings.scripts:
            script_output = self._script_output(
                script_file, script_text, csv_bytes, resolver, language
            )
            if script_output != printout:
                message, diff = mismatch(script_file.display, printout, script_output)
                raise ScriptError(message, diff=diff)
        warned = not (spec.mixed_candidates or self.settings.mixed_candidates)
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
            shared_warnings=tuple(result.warnings) if warned else (),
        )

    def _script_output(
        self,
        script: ResolvedFile,
        text: str,
        csv_bytes: bytes,
        resolver: Resolver,
        language: str | None = None,
    ) -> str:
        from mkdocs_selfattn.build.scripts import run_script

        # The script's place in the project, not on this machine: a cache folder restored into
        # a fresh clone elsewhere (CI) still answers (the script runs from the project folder).
        where = os.path.relpath(script.path, resolver.project_root).replace(os.sep, "/")
        key = content_key("script", text, csv_bytes, where, language)
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

    def render(
        self, example: Example, view: ViewOptions, line: int, into: Rendered | None = None
    ) -> Rendered:
        """The pieces of every view the block shows, in its order (see :data:`views.VIEWS`);
        ``into`` keeps the warnings of the views before one that raises."""
        out = Rendered() if into is None else into
        if view.query is not None:
            check_query(example, view.query, line)
        for name in view.show:
            show = VIEWS.get(name)
            if show is not None:
                out.pieces.append(show(self, example, view, line, out))
        return out


def result_key(spec: ExampleSpec, csv_bytes: bytes) -> str:
    """Everything that decides an example's numbers: the keys marked so in :data:`spec.KEYS`
    (display names and views are not)."""
    fields = (getattr(spec, name) for name in NUMBER_KEYS)
    return content_key(
        "result",
        __version__,
        code_fingerprint(),
        csv_bytes,
        *(dict(value) if isinstance(value, Mapping) else value for value in fields),
    )


def check_query(example: Example, query: str, line: int) -> None:
    """``query:`` must name one of the example's questions or heads (label or column)."""
    layout = layout_of(example.result)
    if layout.kind.readers_are_tokens:
        raise BlockError(
            "'query': chooses one question or head of a 'queries:' or 'heads:' example; "
            f"example '{example.spec.id}' has {layout.name}",
            line=line,
        )
    result = example.result
    heads = result.groups[0].heads if result.groups else ()
    names = [h.name for h in heads] + [h.column for h in heads]
    if query not in names:
        what = layout.kind.reader
        raise BlockError(
            f"'query': {query!r} is not a {what} of example '{example.spec.id}'"
            f"{did_you_mean(query, names)}; its {what}s are "
            + ", ".join(f"{h.name!r} ({h.column})" for h in heads),
            line=line,
        )


def cached_result(payload: object, layout: str) -> Result | None:
    """A cache entry can pass its checksum and still have the wrong shape (written by another
    version, or by hand): anything unreadable, or a record of another layout than the block's,
    is a miss."""
    if not isinstance(payload, dict):
        return None
    try:
        result = from_plain(Result, payload)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
        return None
    return result if result.layout == layout else None
