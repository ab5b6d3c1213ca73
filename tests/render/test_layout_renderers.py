"""The renderers' part of the layout registry (render/layout_renderers.py), entry by entry: every
layout's default printout, template variables, mermaid graph, weight-chart series and figures
work on its course example through the record methods every result answers alike, so a new
entry is held to the same contract without a test file of its own."""

from __future__ import annotations

import math
from typing import Any

import pytest
from course_requests import requests

from mkdocs_selfattn.build.jobs import compute
from mkdocs_selfattn.render.figure_query import FIGURE_VIEWS
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.layout_renderers import RENDERERS
from mkdocs_selfattn.render.mermaid import mermaid_diagrams
from mkdocs_selfattn.render.printout import render_printout

REQUESTS = requests()


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    return {name: compute(request) for name, request in REQUESTS.items()}


def test_every_renderer_entry_has_a_course_example() -> None:
    assert set(RENDERERS) == set(REQUESTS)


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_the_default_printout_is_filled_from_the_variables(
    name: str, results: dict[str, Any]
) -> None:
    result = results[name]
    entry = RENDERERS[name]
    variables = entry.variables(result, Labels(), 3, None, None)
    assert variables
    printout = render_printout(result)
    assert printout.strip()
    assert "{{" not in printout
    assert "{%" not in printout
    # Fewer sections print less: the template follows the record, not a fixed text.
    if len(result.section_sizes()) > 1:
        assert len(render_printout(result.first_sections(1))) < len(printout)


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_the_mermaid_graph_names_the_example(name: str, results: dict[str, Any]) -> None:
    result = results[name]
    sources = mermaid_diagrams(result, Labels())
    assert sources
    text = "\n".join(sources)
    assert all("flowchart" in source for source in sources)
    shown = result.shown_names()
    assert any(name_ in text for name_ in shown)


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_the_weight_series_are_weights_over_the_candidates(
    name: str, results: dict[str, Any]
) -> None:
    result = results[name]
    weights = RENDERERS[name].weights(result, Labels(), None)
    assert weights.series
    assert len(weights.weights) == len(weights.series)
    for row in weights.weights:
        assert len(row) == len(weights.candidates)
        assert all(0.0 <= w <= 1.0 for w in row)
        total = math.fsum(row)
        # A series is one softmax (or given weights) per group it reads: whole groups sum to 1.
        assert total >= 1 - 1e-9
        assert math.isclose(total, round(total), abs_tol=1e-9)


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_the_figures_are_figure_views(name: str) -> None:
    assert RENDERERS[name].figures <= set(FIGURE_VIEWS) - {"chart"}
