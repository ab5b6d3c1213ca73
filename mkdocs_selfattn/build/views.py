"""The views a block can ``show``: a registry from each name to the function that renders it.

A view function takes the pipeline (settings, cache, scheduler), the loaded example, the block's
view options and line, and the :class:`~mkdocs_selfattn.build.example.Rendered` it adds warnings
to; it returns one piece. A new view is one function and one entry in :data:`VIEWS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import islice
from typing import TYPE_CHECKING

from mkdocs_selfattn.blocks.languages import localize_spec
from mkdocs_selfattn.blocks.spec import ViewOptions
from mkdocs_selfattn.build.block_errors import MERMAID_FENCE_MISSING, error_html
from mkdocs_selfattn.build.captions import figure_html, last_figure

# The pipeline imports the figures' cache helpers from here, with the views.
from mkdocs_selfattn.build.figure_views import (
    cached_chart as cached_chart,
)
from mkdocs_selfattn.build.figure_views import (
    chart_key as chart_key,
)
from mkdocs_selfattn.build.figure_views import (
    chart_text as chart_text,
)
from mkdocs_selfattn.build.figure_views import (
    chart_view,
    context_chart_view,
    context_space_view,
    figure_labels,
    figure_language,
    in_language,
    separation_chart_view,
)
from mkdocs_selfattn.build.figure_views import (
    figure_names as figure_names,
)
from mkdocs_selfattn.build.figure_views import (
    plan_figure as plan_figure,
)
from mkdocs_selfattn.build.layouts import layout_of, try_data_of
from mkdocs_selfattn.build.view_text import number_format as format_of
from mkdocs_selfattn.build.view_text import table_text, view_text
from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_rows import rows_where
from mkdocs_selfattn.core.hidden_text import visible
from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.render.mermaid import mermaid_diagrams, mermaid_html
from mkdocs_selfattn.render.tables import csv_rows_table, to_html
from mkdocs_selfattn.render.words import (
    MERMAID,
    glossary_words,
    page_word,
)

if TYPE_CHECKING:
    from mkdocs_selfattn.build.example import Example, Piece, Rendered, ViewContext
    from mkdocs_selfattn.render.tables import Table

CSV_ROWS = 50
"""Rows the csv view shows; a file's long document is a download, not a page."""

View = Callable[["ViewContext", "Example", ViewOptions, int, "Rendered"], "Piece"]


def output_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    if example.script_output is not None:
        return ("md", fence("text", example.script_output))
    printout = fence("text", example.printout)
    if example.script is not None:
        return ("md", printout + "\n\n" + page_word("scripts_off", view.language))
    return ("md", printout)


def table_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    return ("late", to_html(layout_of(example.result).tables(pipeline, example, view)))


def compare_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    return ("late", to_html(layout_of(example.result).compare(pipeline, example, view)))


def csv_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    result = example.result
    column = None
    if result.document is not None:
        column = dict(example.spec.columns).get("document", ColumnMap.document)
    table = csv_rows(
        example.csv_bytes,
        example.csv.display,
        column,
        result.document,
        result.document_rows,
        (example.csv.link, example.csv.path.name),
        table_text(pipeline, view, result.layout),
    )
    return ("late", to_html([table]))


def csv_rows(
    data: bytes,
    source: str,
    column: str | None,
    document: str | None,
    count: int,
    link: tuple[str | None, str],
    words: Mapping[str, str],
) -> Table:
    """The csv view of every layout: the ``count`` rows an example reads as the file has them
    (its ``document``'s, or the whole file's when ``column`` is None), the first
    :data:`CSV_ROWS` and a row counting the rest, with a download ``link`` (href, file name).
    Columns the example does not read may hold free text: hidden characters show as
    ``<U+202E>`` (names refuse them)."""
    found = rows_where(data, source, column, document)
    shown = [tuple(map(visible, row)) for row in islice(found.rows, CSV_ROWS)]
    return csv_rows_table(found.header, shown, count, *link, words)


def mermaid_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    settings = pipeline.settings
    if not settings.mermaid_fence:
        out.shared_warnings.append(MERMAID_FENCE_MISSING)
        return ("html", error_html(MERMAID_FENCE_MISSING, language=view.language))
    layout = example.result.layout
    page_text = view_text(pipeline, MERMAID, view, layout)
    language = figure_language(settings, view)
    drawn, spec, other = view, example.spec, False
    if language != view.language:
        drawn, spec = in_language(view, language), localize_spec(example.spec, language)
        other = True
    sources = mermaid_diagrams(
        example.result,
        figure_labels(example, spec),
        top=view.top,
        number_format=format_of(pipeline, view),
        text=view_text(pipeline, MERMAID, drawn, layout) if other else page_text,
        page_text=page_text if other else None,
        page_labels=example.labels if other else None,
    )
    if settings.mermaid is None:
        piece = "\n\n".join(fence("mermaid", source) for source in sources)
        if view.figcaption is not None and last_figure(view) == "mermaid":
            piece += f'\n\n<p class="selfattn-caption">{view.figcaption}</p>'
        return ("md", piece)
    # As superfences writes the fence, but late: no figure source in search.
    html = "\n".join(mermaid_html(source, *settings.mermaid) for source in sources)
    return ("late", figure_html(html, view, "mermaid"))


def code_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
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
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    """The in-page experiment (issue 15; render/try_data.py, render/try_view.py)."""
    from mkdocs_selfattn.render import try_limit
    from mkdocs_selfattn.render import try_view as render_try
    from mkdocs_selfattn.render.jsonout import render_json

    number_format = format_of(pipeline, view)
    render_try.check_format(number_format, line)
    # The site's glossary reaches the try view as words under the block's own.
    glossary = glossary_words(pipeline.settings.glossary, view.language)
    text = {**glossary, **view.text}
    result = example.result
    found = try_limit.fit(result, pipeline.settings.try_values)
    notice = ""
    if found.cut:
        out.warnings.append(try_limit.limit_warning(found))
        notice = try_limit.notice_html(found, render_try.view_words(view.language, text))
        if not found.sections:
            return ("late", f'<div class="selfattn-try-notice">{notice}</div>')
        result = try_limit.first_sections(result, found.sections)
    data = try_data_of(example, result, view, number_format, text)
    html = render_try.render_try(
        data, render_json(result), example.spec.id, notice, pipeline.settings.chart.colors
    )
    return ("late", html)


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
