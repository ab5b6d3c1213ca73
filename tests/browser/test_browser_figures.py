"""The figures' texts measured where readers see them: Chromium lays out each chart's SVG with
the fonts it has, and no two value labels or candidate names may touch there either (the
renderer's own measurement is in tests/render/test_figures.py)."""

from __future__ import annotations

from typing import Any

import pytest
from figure_fixtures import document
from reading_fixtures import manual_reading, report_reading

from mkdocs_selfattn.render.chart import render_chart
from mkdocs_selfattn.render.chart_context import render_context_chart
from mkdocs_selfattn.render.labels import Labels

pytestmark = pytest.mark.browser

BOXES = """
(prefix) => Array.from(document.querySelectorAll('g[id]'))
  .filter(g => g.id.split('-').slice(1).join('-').startsWith(prefix))
  .map(g => { const r = g.getBoundingClientRect();
              return [g.id, r.left, r.top, r.right, r.bottom]; })
  .filter(b => b[3] > b[1] && b[4] > b[2])
"""


def _outputs() -> dict[str, Any]:
    manual = manual_reading()
    return {
        "three targets": render_chart(
            document(["it", "that", "this"], [f"c{i}" for i in range(10)]), Labels()
        ),
        "five targets, 5000 candidates": render_chart(
            document([f"t{i}" for i in range(5)], [f"cand_{i:04d}" for i in range(5000)]),
            Labels(),
        ),
        "three questions": render_chart(manual, Labels()),
        "three heads": render_chart(report_reading(), Labels()),
        "contexts": render_context_chart(manual, Labels()),
    }


def _charts() -> dict[str, str]:
    return {name: out.svg for name, out in _outputs().items()}


def _touching(boxes: list[list[Any]]) -> list[tuple[str, str]]:
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]:
                found.append((a[0], b[0]))
    return found


@pytest.mark.parametrize("width", [700, 1400])
def test_no_two_labels_touch_in_chromium(browser: Any, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.route("**/*", lambda route: route.abort())  # an inline page needs no network
    try:
        page = context.new_page()
        for name, svg in _charts().items():
            page.set_content(f"<!doctype html><meta charset=utf-8><body style='margin:0'>{svg}")
            for prefix in ("value_", "candidate_"):
                boxes = page.evaluate(BOXES, prefix)
                assert boxes, (name, prefix)
                assert _touching(boxes) == [], (name, prefix, width)
    finally:
        context.close()


def test_no_two_labels_touch_in_the_phone_drawing(browser: Any) -> None:
    """The narrow drawing in a 343 px column (a 375 px phone): no value or name touches another,
    and no text is under 11 px."""
    context = browser.new_context(viewport={"width": 375, "height": 900})
    context.route("**/*", lambda route: route.abort())
    try:
        page = context.new_page()
        for name, out in _outputs().items():
            page.set_content(
                "<!doctype html><meta charset=utf-8><body style='margin:0'>"
                f"<div style='width:343px'>{out.narrow.replace('<svg ', '<svg width=343 ', 1)}"
                "</div>"
            )
            for prefix in ("value_", "candidate_"):
                boxes = page.evaluate(BOXES.replace("g[id]", "[id]"), prefix)
                assert boxes, (name, prefix)
                assert _touching(boxes) == [], (name, prefix)
            smallest = page.evaluate(
                "() => Math.min(...[...document.querySelectorAll('text')].map("
                "(t) => t.getBoundingClientRect().height))"
            )
            assert smallest >= 11, name
    finally:
        context.close()
