"""What drawing a chart leaves behind in the process: charts are drawn with the cyclic garbage
collector paused and measured with one renderer kept for the whole process (see
``render/chart_svg.py``); neither may outlive the chart as state a build would notice.

That the bytes are those of the code before these shortcuts is the goldens' job
(tests/render/test_figures.py, tests/render/test_views_golden.py).
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from figure_fixtures import document

from mkdocs_selfattn.render.chart import render_chart
from mkdocs_selfattn.render.chart_svg import ChartStyle, Drawn, draw_svg, measuring_renderer
from mkdocs_selfattn.render.labels import Labels


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_back_on_after_a_chart_and_after_a_failed_one(collector_on: None) -> None:
    render_chart(document(["it"], ["a", "b"]), Labels())
    assert gc.isenabled()

    def failing(fig: Any) -> Drawn:
        fig.add_subplot()
        raise RuntimeError("drawing failed")

    with pytest.raises(RuntimeError, match="drawing failed"):
        draw_svg(ChartStyle(), failing)
    assert gc.isenabled()


def test_a_collector_switched_off_stays_off(collector_on: None) -> None:
    gc.disable()
    render_chart(document(["it"], ["a", "b"]), Labels())
    assert not gc.isenabled()


def test_a_drawn_figure_is_freed_and_the_kept_renderer_holds_no_figure(collector_on: None) -> None:
    figures: list[weakref.ref[Any]] = []
    renderers = []

    def draw(fig: Any) -> Drawn:
        figures.append(weakref.ref(fig))
        ax = fig.add_subplot()
        text = ax.text(0.5, 0.5, "measured")
        text.get_window_extent(measuring_renderer(fig))
        renderers.append(measuring_renderer(fig))
        return Drawn("a chart", "one text")

    first = draw_svg(ChartStyle(), draw)
    second = draw_svg(ChartStyle(), draw)
    assert second.svg == first.svg  # measured with a warm renderer: the same bytes
    assert renderers[0] is renderers[1]
    gc.collect()
    assert [ref() for ref in figures] == [None, None]
