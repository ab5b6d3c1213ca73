"""The layout registry: each layout an example can have, bound to everything that differs by
layout above the core. Views, jobs, the pipeline and the CLI look an example's layout up here
(``LAYOUTS[result.layout]``) instead of branching on it, so a new layout is one entry (and its
engine and renderers), not an edit in every view.

An entry says what a block's ``query:`` names, and how it fills the views whose content depends
on the layout: the tables, the comparison, the try view's data, the CLI's text and the inline
values. Renderers are imported when an entry is used, so that a warm build, which computes
nothing, still imports neither numpy nor matplotlib.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mkdocs_selfattn.build.engines import Result
from mkdocs_selfattn.build.inline_readings import reading_value
from mkdocs_selfattn.build.inline_targets import target_value
from mkdocs_selfattn.build.view_text import number_format, table_text
from mkdocs_selfattn.core.readings import READING_KINDS, ReadingKind, ReadingResult
from mkdocs_selfattn.core.results import document_of

if TYPE_CHECKING:
    from mkdocs_selfattn.blocks.spec import ViewOptions
    from mkdocs_selfattn.build.example import Example, ViewContext
    from mkdocs_selfattn.render.labels import Labels
    from mkdocs_selfattn.render.tables import Table


Tables = Callable[["ViewContext", "Example", "ViewOptions"], "list[Table]"]
TryData = Callable[
    ["Example", Any, "ViewOptions", "str | None", "dict[str, str]"], "dict[str, Any]"
]


@dataclass(frozen=True)
class Layout:
    """One layout's views above the core (its engine is :data:`~engines.ENGINES`')."""

    name: str
    kind: ReadingKind | None
    """How a reading layout reads its groups (what a block's ``query:`` names in it:
    ``kind.reader``); None: the layout is not a reading and has no ``query:``."""
    tables: Tables
    compare: Tables
    try_data: TryData
    """The try view's data for a result (the example's, or the part the view keeps)."""
    run_text: Callable[[Any, Example, Labels, str], str]
    """``mkdocs-selfattn run --format markdown|text``: tables, or the printout."""
    inline: Callable[[str, int, str | None, Example, str, tuple[str, ...]], str]
    """An inline value's text: (where, line, format, example, quantity, arguments)."""


def layout_of(result: Result) -> Layout:
    return LAYOUTS[result.layout]


# -- targets ---------------------------------------------------------------------------------------


def _target_tables(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.tables import target_tables

    result = document_of(example.result)
    words = table_text(pipeline, view, result.layout)
    return target_tables(result, example.labels, number_format(pipeline, view), words)


def _target_compare(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.tables import compare_table

    result = document_of(example.result)
    words = table_text(pipeline, view, result.layout)
    return [compare_table(result, example.labels, number_format(pipeline, view), words)]


def _target_try(
    example: Example,
    result: Any,
    view: ViewOptions,
    number_format: str | None,
    text: dict[str, str],
) -> dict[str, Any]:
    from mkdocs_selfattn.render import try_view

    return try_view.try_data(
        document_of(result),
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


def _target_run_text(result: Any, example: Example, labels: Labels, fmt: str) -> str:
    from mkdocs_selfattn.render.escape import md_escape
    from mkdocs_selfattn.render.printout import render_printout
    from mkdocs_selfattn.render.tables import render_compare, render_tables

    if fmt == "text":
        return render_printout(result, labels)
    document = document_of(result)
    tables = render_tables(document, labels, escape=md_escape)
    return tables + "\n\n" + render_compare(document, labels, escape=md_escape) + "\n"


# -- questions and heads (readings) ----------------------------------------------------------------


def _reading(
    pipeline: ViewContext, example: Example, view: ViewOptions
) -> tuple[ReadingResult, Labels, str | None, dict[str, str]]:
    """What every table of a reading is built from: the result, labels, format and words."""
    result = example.result
    words = table_text(pipeline, view, result.layout)
    return result, example.labels, number_format(pipeline, view), words


def _question_tables(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.reading_tables import question_tables

    return question_tables(*_reading(pipeline, example, view), view.top)


def _question_compare(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.reading_tables import question_compare

    return question_compare(*_reading(pipeline, example, view), view.top)


def _head_tables(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.reading_tables import head_tables

    return head_tables(*_reading(pipeline, example, view), view.top)


def _head_compare(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.reading_tables import head_compare

    return head_compare(*_reading(pipeline, example, view))


def _reading_try(
    example: Example,
    result: Any,
    view: ViewOptions,
    number_format: str | None,
    text: dict[str, str],
) -> dict[str, Any]:
    from mkdocs_selfattn.render import try_readings

    return try_readings.reading_try_data(
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


def _question_run_text(result: Any, example: Example, labels: Labels, fmt: str) -> str:
    from mkdocs_selfattn.render.reading_tables import question_compare, question_tables

    return _reading_run_text(example, fmt, question_tables, question_compare)


def _head_run_text(result: Any, example: Example, labels: Labels, fmt: str) -> str:
    from mkdocs_selfattn.render.reading_tables import head_compare, head_tables

    return _reading_run_text(example, fmt, head_tables, head_compare)


def _reading_run_text(
    example: Example,
    fmt: str,
    tables: Callable[[ReadingResult, Labels], list[Table]],
    compare: Callable[[ReadingResult, Labels], list[Table]],
) -> str:
    """The printout (the template's, as a page shows it) or the tables of a reading (the
    example's own labels: its ``display:``)."""
    if fmt == "text":
        return example.printout
    from mkdocs_selfattn.render.escape import md_escape
    from mkdocs_selfattn.render.tables import to_markdown

    result = example.result
    found = [*tables(result, example.labels), *compare(result, example.labels)]
    return to_markdown(found, md_escape) + "\n"


LAYOUTS: dict[str, Layout] = {
    "targets": Layout(
        name="targets",
        kind=None,
        tables=_target_tables,
        compare=_target_compare,
        try_data=_target_try,
        run_text=_target_run_text,
        inline=target_value,
    ),
    "questions": Layout(
        name="questions",
        kind=READING_KINDS["questions"],
        tables=_question_tables,
        compare=_question_compare,
        try_data=_reading_try,
        run_text=_question_run_text,
        inline=reading_value,
    ),
    "heads": Layout(
        name="heads",
        kind=READING_KINDS["heads"],
        tables=_head_tables,
        compare=_head_compare,
        try_data=_reading_try,
        run_text=_head_run_text,
        inline=reading_value,
    ),
}
