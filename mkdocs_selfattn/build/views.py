"""The views a block can ``show``: a registry from each name to the function that renders it.

A view function takes the pipeline (settings, cache, scheduler), the loaded example, the block's
view options and line, and the :class:`~mkdocs_selfattn.build.example.Rendered` it adds warnings
to; it returns one piece. A new view is one function and one entry in :data:`VIEWS`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
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
from mkdocs_selfattn.core.hidden_text import visible
from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.render.mermaid import mermaid_diagrams, mermaid_html
from mkdocs_selfattn.render.reading_tables import (
    head_compare,
    head_tables,
    question_compare,
    question_tables,
    reading_csv,
)
from mkdocs_selfattn.render.tables import Table, compare_table, csv_table, target_tables, to_html
from mkdocs_selfattn.render.words import (
    MERMAID,
    READING,
    TABLE,
    glossary_words,
    page_word,
    words,
)

if TYPE_CHECKING:
    from mkdocs_selfattn.build.example import Example, Piece, Rendered, ViewContext

View = Callable[["ViewContext", "Example", ViewOptions, int, "Rendered"], "Piece"]


def _number_format(pipeline: ViewContext, view: ViewOptions) -> str | None:
    return view.number_format or pipeline.settings.number_format


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
    number_format = _number_format(pipeline, view)
    result = example.result
    if isinstance(result, ReadingResult):
        layout = question_tables if result.layout == "questions" else head_tables
        words = _reading_text(pipeline, view, result.layout)
        tables = layout(result, example.labels, number_format, words, view.top)
        return ("late", to_html(tables))
    tables = target_tables(result, example.labels, number_format, _text(pipeline, TABLE, view))
    return ("late", to_html(tables))


def compare_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    number_format = _number_format(pipeline, view)
    result = example.result
    if isinstance(result, ReadingResult):
        words = _reading_text(pipeline, view, result.layout)
        if result.layout == "questions":
            tables = question_compare(result, example.labels, number_format, words, view.top)
        else:
            tables = head_compare(result, example.labels, number_format, words)
        return ("late", to_html(tables))
    table = compare_table(result, example.labels, number_format, _text(pipeline, TABLE, view))
    return ("late", to_html([table]))


def csv_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    result = example.result
    if isinstance(result, ReadingResult):
        words = _reading_text(pipeline, view, result.layout)
        table = reading_csv(result, example.csv.link, example.csv.path.name, words)
        return ("late", to_html([table]))
    return ("late", to_html([_csv_rows(example)]))


def _csv_rows(example: Example) -> Table:
    text = example.csv_bytes.decode("utf-8-sig")
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader)
    column = dict(example.spec.columns).get("document", "document_id")
    position = [h.strip() for h in header].index(column)
    # Columns the example does not read may hold free text: hidden characters show as <U+…>.
    rows = [list(map(visible, r)) for r in reader if r and r[position] == example.result.document]
    return csv_table(header, rows, example.csv.link, example.csv.path.name)


def mermaid_view(
    pipeline: ViewContext, example: Example, view: ViewOptions, line: int, out: Rendered
) -> Piece:
    settings = pipeline.settings
    if not settings.mermaid_fence:
        out.shared_warnings.append(MERMAID_FENCE_MISSING)
        return ("html", error_html(MERMAID_FENCE_MISSING, language=view.language))
    layout = _layout(example)
    page_text = _text(pipeline, MERMAID, view, layout)
    language = figure_language(settings, view)
    drawn, spec, other = view, example.spec, False
    if language != view.language:
        drawn, spec = in_language(view, language), localize_spec(example.spec, language)
        other = True
    sources = mermaid_diagrams(
        example.result,
        figure_labels(example, spec),
        top=view.top,
        number_format=_number_format(pipeline, view),
        text=_text(pipeline, MERMAID, drawn, layout) if other else page_text,
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
    """The in-page experiment (issue 15; render/try_view.py, render/try_readings.py)."""
    from mkdocs_selfattn.core.readings import ReadingResult
    from mkdocs_selfattn.render import try_limit
    from mkdocs_selfattn.render import try_view as render_try
    from mkdocs_selfattn.render.jsonout import render_json

    number_format = _number_format(pipeline, view)
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
            text=text,
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
            text=text,
            language=view.language,
            csv_href=example.csv.link,
            csv_name=example.csv.path.name,
        )
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


def _layout(example: Example) -> str:
    return example.result.layout if isinstance(example.result, ReadingResult) else "targets"


def _text(
    pipeline: ViewContext,
    catalogue: Mapping[str, Mapping[str, str]],
    view: ViewOptions,
    layout: str | None = None,
) -> dict[str, str]:
    """A view's words: the plugin's in the view's language (the layout's own, then the site's
    ``glossary``), then the block's own ``text:``."""
    glossary = pipeline.settings.glossary
    return {**words(catalogue, view.language, layout, glossary), **view.text}


def _reading_text(pipeline: ViewContext, view: ViewOptions, layout: str) -> dict[str, str]:
    """The questions and heads tables' words: the targets tables' and their own."""
    glossary = pipeline.settings.glossary
    return {
        **words(TABLE, view.language, layout, glossary),
        **words(READING, view.language, layout, glossary),
        **view.text,
    }
