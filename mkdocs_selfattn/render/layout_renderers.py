"""Each layout as the renderers show it: its default printout and template variables, its mermaid
graph, its weight chart's series, its JSON view and the figures it can draw. The renderers' part
of the layout registry (``build/layouts.py`` holds the pipeline's, ``build/engines.py`` the
computation's, ``blocks/spec_layout.py`` the block keys', ``core/readings.READING_KINDS`` what
tells the layouts apart): printout, mermaid and chart look a result's layout up here instead of
telling the layouts apart, so a further layout is one more entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.core.results import document_of
from mkdocs_selfattn.render.chart_weights import Weights, reading_weights, target_weights
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.mermaid_figures import Chains, Figure, heads_figure
from mkdocs_selfattn.render.printout_templates import (
    HEADS_TEMPLATE,
    QUESTIONS_TEMPLATE,
    TARGETS_TEMPLATE,
)
from mkdocs_selfattn.render.template_targets import target_variables
from mkdocs_selfattn.render.template_vars import reading_variables

Variables = Callable[[Any, Labels, int, "bytes | None", "Mapping[str, str] | None"], dict[str, Any]]
"""(result, labels, the block's ``top:``, the CSV's bytes, the block's ``columns:``) → the
names a printout template can use."""


@dataclass(frozen=True)
class LayoutRenderers:
    template: str
    """The default printout (``template:`` replaces it)."""
    variables: Variables
    mermaid: Figure
    """Its mermaid figure (:mod:`mermaid_figures`), with the words it is drawn with."""
    weights: Callable[[Any, Labels, str | None], Weights]
    """(result, labels, query) → the ``chart`` view's series over candidates."""
    plain: Callable[[Any], dict[str, Any]]
    """result → its JSON view (``run --format json`` and the file beside a page)."""
    figures: frozenset[str] = frozenset()
    """The figure views it draws besides ``chart`` (:mod:`figure_query` draws them)."""


def _targets_variables(
    result: ReadingResult,
    labels: Labels,
    top: int,
    csv_bytes: bytes | None,
    columns: Mapping[str, str] | None,
) -> dict[str, Any]:
    return target_variables(result, labels, csv_bytes, columns, top)


def _targets_plain(result: ReadingResult) -> dict[str, Any]:
    """The targets' JSON keeps the document → targets → candidates form readers of it know."""
    return document_of(result).to_dict()


def _reading_plain(result: ReadingResult) -> dict[str, Any]:
    return result.to_dict()


def _reading_variables(
    result: ReadingResult,
    labels: Labels,
    top: int,
    csv_bytes: bytes | None,
    columns: Mapping[str, str] | None,
) -> dict[str, Any]:
    return reading_variables(result, labels, top)


def _reading(template: str, mermaid: Figure) -> LayoutRenderers:
    """A reading layout: groups of lines read by questions or heads."""
    return LayoutRenderers(
        template=template,
        variables=_reading_variables,
        mermaid=mermaid,
        weights=reading_weights,
        plain=_reading_plain,
        figures=frozenset({"context_chart", "separation_chart", "context_space"}),
    )


RENDERERS: Mapping[str, LayoutRenderers] = {
    "targets": LayoutRenderers(
        template=TARGETS_TEMPLATE,
        variables=_targets_variables,
        mermaid=Chains(
            reader="target",
            result="representation",
            ids=("t", "w", "r"),
            title="acc_targets",
        ),
        weights=target_weights,
        plain=_targets_plain,
    ),
    "questions": _reading(
        QUESTIONS_TEMPLATE,
        Chains(reader="query", result="context", ids=("q", "w", "c"), title="acc_questions"),
    ),
    "heads": _reading(HEADS_TEMPLATE, heads_figure),
}
