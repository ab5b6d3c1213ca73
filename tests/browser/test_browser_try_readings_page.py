"""The try view of the questions and heads layouts as readers meet it: after an instant
navigation, in both palettes (contrast measured), at a phone's width, without JavaScript; and the
time from an input event to the updated page (test-artifacts/try-readings-metrics.json).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_browser_try import CONTRAST, TIME_INPUT
from try_reading_cases import Case
from try_reading_page import METRICS, REFUSED, WORDS, box, check

pytestmark = [pytest.mark.browser, pytest.mark.slow]
MEASURE = (Path(__file__).parent / "try_phone_measure.js").read_text(encoding="utf-8")
pytest_plugins = ["try_reading_site"]


def test_instant_navigation_reinitialises(tab: Callable[..., Any], cases: dict[str, Case]) -> None:
    page = tab("manual/")
    page.wait_for_load_state("networkidle")  # instant navigation starts once it has the sitemap
    page.evaluate("() => { window.__sameDocument = true; }")
    page.get_by_role("article").get_by_role("link", name="另一页").click()
    page.wait_for_selector("article h1:text('另一页')")
    assert page.locator(".selfattn-try").count() == 0
    page.get_by_role("article").get_by_role("link", name="回到手册").click()
    page.wait_for_selector(".selfattn-try-ui [data-q=context]")
    assert page.evaluate("() => window.__sameDocument") is True
    assert page.locator(".selfattn-try-ui").count() == 1
    box(page, 1, 0, 2).fill("-1")
    check(page, cases["manual"], {(1, 0, 2): "-1"}, 1.0)
    # On to the heads page through the site's navigation, still without a page load.
    page.locator('.md-sidebar--primary a[href$="heads/"]').first.click()
    page.wait_for_selector(".selfattn-try-ui [data-q=sum]")
    assert page.evaluate("() => window.__sameDocument") is True
    edits = {(2, 0, 0): "0.35", (2, 0, 1): "0.35"}
    for key, value in edits.items():
        box(page, *key).fill(value)
    assert check(page, cases["heads"], edits)
    assert page.errors == []


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("url", ["manual/", "heads/"])
def test_both_palettes_have_readable_text(tab: Callable[..., Any], scheme: str, url: str) -> None:
    page = tab(url)
    page.add_style_tag(content="*, *::before { transition: none !important; }")
    page.evaluate(f"() => document.body.setAttribute('data-md-color-scheme', '{scheme}')")
    if url == "heads/":  # the refusal note must read too
        box(page, 0, 1, 0).fill("0.9")
        assert page.evaluate(REFUSED) == [True] * 3
    worst = page.evaluate(CONTRAST)
    METRICS[f"min_contrast_{url.strip('/')}_{scheme}"] = round(worst[0][0], 2)
    assert worst[0][0] >= 4.5, worst


@pytest.mark.parametrize("url", ["manual/", "heads/", "big3000/"])
def test_phone_width(tab: Callable[..., Any], cases: dict[str, Case], url: str) -> None:
    page = tab(url, width=375)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    box(page, 0, 0, 1).focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("0.35" if url == "heads/" else "2")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.q") == "slider"
    edits = {(0, 0, 1): box(page, 0, 0, 1).input_value()}
    check(page, cases[url.strip("/")], edits, 1.0 if url != "heads/" else None)
    names = page.evaluate(
        "() => Array.from(document.querySelectorAll('.selfattn-try input')).map(e =>"
        " (e.labels && e.labels.length ? e.labels[0].textContent : e.getAttribute('aria-label')))"
    )
    assert all(names)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    # Issue 24's phone rules (tests/browser/test_browser_try_phone.py), here also for 3,000 lines.
    report = page.evaluate(MEASURE)
    assert report["overflow"] == []
    assert report["small"] == []
    assert report["overlap"] == []
    assert all(min(chart["sizes"]) >= 14 for chart in report["chart"])
    assert all(chart["outside"] == [] for chart in report["chart"])


@pytest.mark.parametrize("url", ["manual/", "heads/"])
def test_without_javascript_the_note_shows(tab: Callable[..., Any], url: str) -> None:
    page = tab(url, java_script_enabled=False)
    note = page.locator(".selfattn-try-nojs")
    assert note.is_visible()
    assert note.inner_text() == WORDS["nojs"]
    assert page.locator("a.selfattn-try-json").get_attribute("href")


INIT_AGAIN = """
() => {
  const root = document.querySelector('[data-selfattn-try]');
  root.querySelector('.selfattn-try-ui').remove();
  root.removeAttribute('data-selfattn-ready');
  const t0 = performance.now();
  window.selfattnTry.scan();
  return performance.now() - t0;
}
"""


def test_measure_update_time(tab: Callable[..., Any], artifacts: Path) -> None:
    """Input event → updated DOM (in the handler) and → the next frame, per example size."""
    scores = [repr(round(0.1 * k - 2, 1)) for k in range(41)]
    for url, h, values in [
        ("manual/", 0, scores),
        ("big200/", 0, scores),
        ("big3000/", 0, scores),
        ("heads/", 1, [repr(round(0.45 + 0.001 * k, 3)) for k in range(41)]),
        ("norm/", 1, [repr(round(0.45 + 0.01 * k, 2)) for k in range(41)]),
    ]:
        page = tab(url)
        selector = f'.selfattn-try [data-q=input][data-g="0"][data-h="{h}"][data-i="1"]'
        frame, handler = page.evaluate(TIME_INPUT, [selector, values])
        name = url.strip("/")
        METRICS[f"input_to_frame_ms_{name}_median"] = round(statistics.median(frame), 2)
        METRICS[f"input_to_frame_ms_{name}_max"] = round(max(frame), 2)
        METRICS[f"handler_ms_{name}_median"] = round(statistics.median(handler), 3)
        load = page.evaluate(
            "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"
        )
        METRICS[f"dom_content_loaded_ms_{name}"] = round(load, 1)
        METRICS[f"init_ms_{name}"] = round(page.evaluate(INIT_AGAIN), 1)
    (artifacts / "try-readings-metrics.json").write_text(json.dumps(METRICS, indent=2) + "\n")
    print(json.dumps(METRICS, indent=2))
