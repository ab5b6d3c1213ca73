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
from mkdocs_selfattn.build.inline_quantities import InlineForm
from mkdocs_selfattn.build.view_text import number_format, table_text
from mkdocs_selfattn.core.readings import READING_KINDS, ReadingKind, ReadingResult

if TYPE_CHECKING:
    from mkdocs_selfattn.blocks.spec import ViewOptions
    from mkdocs_selfattn.build.example import Example, ViewContext
    from mkdocs_selfattn.render.labels import Labels
    from mkdocs_selfattn.render.tables import Table


Tables = Callable[["ViewContext", "Example", "ViewOptions"], "list[Table]"]
RunText = Callable[["Example", str], str]
"""(example, ``markdown`` or ``text``) → what ``mkdocs-selfattn run`` prints."""
TryWords = Callable[["str | None", "dict[str, str]"], "dict[str, str]"]
"""(page language, the block's ``text:`` and glossary) → the try view's words."""


@dataclass(frozen=True)
class Layout:
    """One layout's views above the core (its engine is :data:`~engines.ENGINES`')."""

    name: str
    tables: Tables
    compare: Tables
    try_words: TryWords
    """The try view's words: the view's own, and those of a layout's readers."""
    run_text: RunText
    """``mkdocs-selfattn run --format markdown|text``: tables, or the printout."""
    inline: InlineForm
    """Its inline values: the quantities it offers and their words (:mod:`inline_quantities`)."""

    @property
    def kind(self) -> ReadingKind:
        """How the layout reads its groups (what a block's ``query:`` names in it:
        ``kind.reader``, unless its readers are tokens)."""
        return READING_KINDS[self.inline.layout]


def layout_of(result: Result) -> Layout:
    return LAYOUTS[result.layout]


def _table_inputs(
    pipeline: ViewContext, example: Example, view: ViewOptions
) -> tuple[ReadingResult, Labels, str | None, dict[str, str]]:
    """What every layout's tables are built from: the result, labels, format and words."""
    result = example.result
    words = table_text(pipeline, view, result.layout)
    return result, example.labels, number_format(pipeline, view), words


# -- targets ---------------------------------------------------------------------------------------


def _target_tables(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.layout_tables import target_tables

    return target_tables(*_table_inputs(pipeline, example, view))


def _target_compare(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.layout_tables import compare_table

    return [compare_table(*_table_inputs(pipeline, example, view))]


# -- questions and heads (readings) ----------------------------------------------------------------


def _question_tables(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.layout_tables import question_tables

    return question_tables(*_table_inputs(pipeline, example, view), view.top)


def _question_compare(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.layout_tables import question_compare

    return question_compare(*_table_inputs(pipeline, example, view), view.top)


def _head_tables(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.layout_tables import head_tables

    return head_tables(*_table_inputs(pipeline, example, view), view.top)


def _head_compare(pipeline: ViewContext, example: Example, view: ViewOptions) -> list[Table]:
    from mkdocs_selfattn.render.layout_tables import head_compare

    return head_compare(*_table_inputs(pipeline, example, view))


def try_data_of(
    example: Example,
    result: ReadingResult,
    view: ViewOptions,
    number_format: str | None,
    text: dict[str, str],
) -> dict[str, Any]:
    """The try view's data for a result (the example's, or the part the view keeps), every
    layout's: its kind says how its sections are made."""
    from mkdocs_selfattn.render.try_data import try_data

    return try_data(
        result,
        example.labels,
        example.csv_bytes,
        source=example.csv.display,
        columns=example.spec.columns,
        groups=example.spec.groups,
        number_format=number_format,
        words=layout_of(result).try_words(view.language, text),
        csv_href=example.csv.link,
        csv_name=example.csv.path.name,
        top=view.top,
        normalise=example.spec.normalise,
    )


def _view_words(language: str | None, text: dict[str, str]) -> dict[str, str]:
    from mkdocs_selfattn.render.try_view import view_words

    return view_words(language, text)


def _reading_words(language: str | None, text: dict[str, str]) -> dict[str, str]:
    from mkdocs_selfattn.render.try_view import reading_words

    return reading_words(language, text)


def _run_text(tables: Callable[[ReadingResult, Labels], list[Table]]) -> RunText:
    """``run --format text`` prints the example's printout (its template's, as a page shows
    it); ``--format markdown`` these tables, with the example's own labels (its ``display:``,
    ``token@N`` where a token stands at several positions)."""

    def run_text(example: Example, fmt: str) -> str:
        if fmt == "text":
            return example.printout
        from mkdocs_selfattn.render.escape import md_escape
        from mkdocs_selfattn.render.tables import to_markdown

        return to_markdown(tables(example.result, example.labels), md_escape) + "\n"

    return run_text


def _target_all(result: ReadingResult, labels: Labels) -> list[Table]:
    from mkdocs_selfattn.render.layout_tables import compare_table, target_tables

    return [*target_tables(result, labels), compare_table(result, labels)]


def _question_all(result: ReadingResult, labels: Labels) -> list[Table]:
    from mkdocs_selfattn.render.layout_tables import question_compare, question_tables

    return [*question_tables(result, labels), *question_compare(result, labels)]


def _head_all(result: ReadingResult, labels: Labels) -> list[Table]:
    from mkdocs_selfattn.render.layout_tables import head_compare, head_tables

    return [*head_tables(result, labels), *head_compare(result, labels)]


LAYOUTS: dict[str, Layout] = {
    "targets": Layout(
        name="targets",
        tables=_target_tables,
        compare=_target_compare,
        try_words=_view_words,
        run_text=_run_text(_target_all),
        inline=InlineForm(
            "targets",
            quantities=(
                "weight",
                "score",
                "top",
                "rank",
                "group",
                "group_size",
                "context",
                "representation",
                "shift",
                "baseline",
                "axes",
                "csv_rows",
                "document_rows",
            ),
            reader="TARGET",
            line="CANDIDATE",
            axis="COLUMN",
            line_noun="candidate",
            axis_nouns=("a vector column", "columns"),
        ),
    ),
    "questions": Layout(
        name="questions",
        tables=_question_tables,
        compare=_question_compare,
        try_words=_reading_words,
        run_text=_run_text(_question_all),
        inline=InlineForm(
            "questions",
            quantities=(
                "csv_rows",
                "document_rows",
                "axes",
                "baseline",
                "baseline_weight",
                "context",
                "shift",
                "weight",
                "score",
                "top",
                "rank",
                "group",
                "group_size",
                "vector",
                "cell",
                "tokens",
            ),
            reader="QUESTION",
            line="LINE",
            axis="AXIS",
            line_noun="line",
            axis_nouns=("an axis", "axes"),
        ),
    ),
    "heads": Layout(
        name="heads",
        tables=_head_tables,
        compare=_head_compare,
        try_words=_reading_words,
        run_text=_run_text(_head_all),
        inline=InlineForm(
            "heads",
            quantities=(
                "csv_rows",
                "document_rows",
                "axes",
                "baseline",
                "tokens",
                "vector",
                "cell",
                "weight",
                "top",
                "rank",
                "context",
                "shift",
                "difference",
                "separation",
                "group",
                "group_size",
            ),
            reader="HEAD",
            line="TOKEN",
            axis="AXIS",
            line_noun="line",
            axis_nouns=("an axis", "axes"),
        ),
    ),
}
