"""The views a block can ``show``: a registry from each name to the function that renders it.

A view function takes the pipeline (settings, cache, scheduler), the loaded example, the block's
view options and line, and the :class:`~mkdocs_selfattn.pipeline.Rendered` it adds warnings to;
it returns one piece. A new view is one function and one entry in :data:`VIEWS`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from mkdocs_selfattn import __version__
from mkdocs_selfattn.block_errors import MERMAID_FENCE_MISSING, error_html
from mkdocs_selfattn.cache import code_fingerprint, content_key, matplotlib_version
from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.jobs import render_chart_job
from mkdocs_selfattn.readings import ReadingResult
from mkdocs_selfattn.render.chart import CHART_FORMAT, ChartStyle
from mkdocs_selfattn.render.mermaid import mermaid_html, render_mermaid
from mkdocs_selfattn.render.reading_tables import (
    head_compare,
    head_tables,
    question_compare,
    question_tables,
    reading_csv,
)
from mkdocs_selfattn.render.tables import Table, compare_table, csv_table, target_tables, to_html
from mkdocs_selfattn.render.words import CHART, MERMAID, TABLE, page_word, words
from mkdocs_selfattn.spec import ViewOptions

if TYPE_CHECKING:
    from mkdocs_selfattn.pipeline import Example, Piece, Pipeline, Rendered
    from mkdocs_selfattn.results import DocumentResult
    from mkdocs_selfattn.spec import ExampleSpec

View = Callable[["Pipeline", "Example", ViewOptions, int, "Rendered"], "Piece"]


def _targets(example: Example, name: str, line: int) -> DocumentResult:
    """The example's targets result, for the views that draw only that layout so far."""
    from mkdocs_selfattn.results import DocumentResult

    if not isinstance(example.result, DocumentResult):
        raise BlockError(
            f"the '{name}' view does not show a 'queries:' or 'heads:' example yet", line=line
        )
    return example.result


def _number_format(pipeline: Pipeline, view: ViewOptions) -> str | None:
    return view.number_format or pipeline.settings.number_format


def output_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    if example.script_output is not None:
        return ("md", fence("text", example.script_output))
    printout = fence("text", example.printout)
    if example.script is not None:
        return ("md", printout + "\n\n" + page_word("scripts_off", view.language))
    return ("md", printout)


def table_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    number_format = _number_format(pipeline, view)
    result, words = example.result, _text(TABLE, view)
    if isinstance(result, ReadingResult):
        layout = question_tables if result.layout == "questions" else head_tables
        return ("late", to_html(layout(result, example.labels, number_format, words, view.top)))
    tables = target_tables(result, example.labels, number_format, words)
    return ("late", to_html(tables))


def compare_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    number_format = _number_format(pipeline, view)
    result, words = example.result, _text(TABLE, view)
    if isinstance(result, ReadingResult) and result.layout == "questions":
        tables = question_compare(result, example.labels, number_format, words, view.top)
        return ("late", to_html(tables))
    if isinstance(result, ReadingResult):
        return ("late", to_html(head_compare(result, example.labels, number_format, words)))
    table = compare_table(result, example.labels, number_format, words)
    return ("late", to_html([table]))


def csv_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    result = example.result
    if isinstance(result, ReadingResult):
        words = _text(TABLE, view)
        table = reading_csv(result, example.csv.link, example.csv.path.name, words)
        return ("late", to_html([table]))
    return ("late", to_html([_csv_rows(example)]))


def _csv_rows(example: Example) -> Table:
    text = example.csv_bytes.decode("utf-8-sig")
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader)
    document = example.result.document
    if document is None:  # a questions or heads example of the whole file
        rows = [r for r in reader if r]
        return csv_table(header, rows, example.csv.link, example.csv.path.name)
    column = dict(example.spec.columns).get("document", "document_id")
    position = [h.strip() for h in header].index(column)
    rows = [r for r in reader if r and r[position] == document]
    return csv_table(header, rows, example.csv.link, example.csv.path.name)


def mermaid_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    settings = pipeline.settings
    if not settings.mermaid_fence:
        out.shared_warnings.append(MERMAID_FENCE_MISSING)
        return ("html", error_html(MERMAID_FENCE_MISSING, language=view.language))
    source = render_mermaid(
        example.result,
        example.labels,
        top=view.top,
        number_format=_number_format(pipeline, view),
        text=_text(MERMAID, view),
    )
    if settings.mermaid is None:
        return ("md", fence("mermaid", source))
    # As superfences writes the fence, but late: no figure source in search.
    return ("late", mermaid_html(source, *settings.mermaid))


def chart_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    """Every candidate's weight: per target, or per question/head (``query:`` picks one)."""
    return _figure(pipeline, example, view, line, out, "chart")


def context_chart_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    """Each question's (or head's) context beside the uniform baseline."""
    return _figure(pipeline, example, view, line, out, "context_chart")


def separation_chart_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    """How far two heads' contexts are apart, per group (scenario)."""
    return _figure(pipeline, example, view, line, out, "separation_chart")


def context_space_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    """Every head's context as a point on the first two context axes."""
    return _figure(pipeline, example, view, line, out, "context_space")


def view_query(view: ViewOptions) -> str | None:
    """The block's ``query:``: which question or head a figure shows."""
    return view.query


def _figure(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered, name: str
) -> Piece:
    """Any chart view: checked, then from the cache, a worker or drawn here."""
    from mkdocs_selfattn.render.chart_context import figure_problem

    query = view_query(view)
    problem = None if name == "chart" else figure_problem(example.result, name)
    if problem is not None:
        raise BlockError(problem, line=line)
    number_format = _number_format(pipeline, view)
    if not pipeline.settings.draw_charts:
        from mkdocs_selfattn.render.figure_query import figure_texts
        from mkdocs_selfattn.render.glyphs import glyph_message, missing_glyphs

        texts = figure_texts(
            name, example.result, example.labels, number_format, chart_text(view), view.title, query
        )
        missing = missing_glyphs(texts, pipeline.settings.chart.fonts)
        if missing:
            out.warnings.append(glyph_message(missing))
        return ("late", '<div class="selfattn-chart-box"></div>')
    style = pipeline.settings.chart
    cache = pipeline.cache
    key = chart_key(example.key, example.spec, style, number_format, view, name)
    cached = cached_chart(cache.get("chart", key))
    if cached is not None:
        return ("late", _chart_html(cached[0], cached[1], out.warnings))
    args = (
        example.result,
        example.labels,
        style,
        number_format,
        chart_text(view),
        view.title,
        name,
        query,
    )
    warnings: list[str] = []

    def finish(svg: str, missing: list[str]) -> str:
        cache.put("chart", key, {"svg": svg, "missing": missing})
        return _chart_html(svg, missing, warnings)

    if pipeline.scheduler is None:
        html = finish(*render_chart_job(*args))
        out.warnings += warnings
        return ("late", html)
    pending = pipeline.scheduler.chart(
        key, (render_chart_job, args), lambda: render_chart_job(*args), finish, warnings
    )
    return ("late", pending)


def _chart_html(svg: str, missing: list[str], warnings: list[str]) -> str:
    if missing:
        from mkdocs_selfattn.render.glyphs import glyph_message

        warnings.append(glyph_message(missing))
    return f'<div class="selfattn-chart-box">{svg}</div>'


def code_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    if example.script is None or example.script_text is None:
        raise BlockError(
            f"the 'code' view shows the example script, and example "
            f"'{example.spec.id}' has no 'script:'",
            line=line,
        )
    title = example.script.path.name.replace('"', "'")
    return ("md", fence("python", example.script_text, f'title="{title}"'))


def try_view(
    pipeline: Pipeline, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    """The in-page experiment (issue 15; render/try_view.py, render/try_readings.py)."""
    from mkdocs_selfattn.readings import ReadingResult
    from mkdocs_selfattn.render import try_view as render_try
    from mkdocs_selfattn.render.jsonout import render_json

    number_format = _number_format(pipeline, view)
    render_try.check_format(number_format, line)
    result = example.result
    if isinstance(result, ReadingResult):
        from mkdocs_selfattn.render import try_readings

        data = try_readings.reading_try_data(
            result,
            example.labels,
            example.csv_bytes,
            top=view.top,
            normalise=example.spec.normalise,
            groups=example.spec.groups,
            number_format=number_format,
            text=view.text,
            language=view.language,
            csv_href=example.csv.link,
            csv_name=example.csv.path.name,
        )
    else:
        data = render_try.try_data(
            result,
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
    return ("late", render_try.render_try(data, render_json(result), example.spec.id))


VIEWS: dict[str, View] = {
    "output": output_view,
    "table": table_view,
    "compare": compare_view,
    "csv": csv_view,
    "mermaid": mermaid_view,
    "chart": chart_view,
    "context_chart": context_chart_view,
    "separation_chart": separation_chart_view,
    "context_space": context_space_view,
    "code": code_view,
    "try": try_view,
}
"""Every view a block may ``show``, by name (the command line offers the same names)."""


def chart_key(
    example_key: str,
    spec: ExampleSpec,
    style: ChartStyle,
    number_format: str | None,
    view: ViewOptions,
    name: str | None = None,
) -> str:
    """The cache key of one figure: ``name`` is the view (a block may show several figures).

    Without ``name``, the key of the ``chart`` the pipeline draws ahead, which does not know the
    block's ``query:`` (``ChartRequest.query`` stays unset): it matches the chart of a block
    without ``query:``, never one with, so a chart drawn ahead is never shown for a query.
    """
    return content_key(
        "chart",
        name or "chart",
        None if name is None else view_query(view),
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


def cached_chart(payload: object) -> tuple[str, list[str]] | None:
    if not isinstance(payload, dict) or not isinstance(payload.get("svg"), str):
        return None
    missing = payload.get("missing", [])
    if not isinstance(missing, list) or not all(isinstance(m, str) for m in missing):
        return None
    return payload["svg"], missing


def fence(lang: str, body: str, attrs: str = "") -> str:
    longest = max((len(run) for run in _backtick_runs(body)), default=0)
    marks = "`" * max(3, longest + 1)
    head = f"{marks}{lang}" + (f" {attrs}" if attrs else "")
    return f"{head}\n{body.rstrip(chr(10))}\n{marks}"


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
