"""The try view of the questions (P5-13.1) and heads (P5-13.3) layouts in Chromium: after every
edit through the page's own controls, every number it shows is the build's number for the edited
CSV (the pipeline run in this process), unrounded ones bit for bit; a CSV the build would refuse
shows the reason instead of numbers. Reset, the download (recomputed with the CLI) and the
published results; thousands of lines. The reader's side (navigation, palettes, phone, no
JavaScript, timings) is in test_browser_try_readings_page.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from try_reading_cases import (
    Case,
)
from try_reading_page import (
    METRICS,
    READ,
    WORDS,
    Edits,
    box,
    check,
    download_runs,
    published_results,
    temperature,
)

from mkdocs_selfattn.render.labels import py_round

pytestmark = [pytest.mark.browser, pytest.mark.slow]
pytest_plugins = ["try_reading_site"]


def test_questions_edits_match_the_core(
    tab: Callable[..., Any], cases: dict[str, Case], tmp_path: Path
) -> None:
    case = cases["manual"]
    page = tab("manual/")
    published_results(page, case)
    edits: Edits = {}
    t = 1.0
    check(page, case, edits, t)
    # Fixed edits: typing, a tie with the top line, a negative score, a large one, temperature.
    for key, value in [((0, 0, 9), "3.5"), ((0, 0, 4), "3.5"), ((1, 0, 12), "-2.25")]:
        box(page, *key).fill("")
        box(page, *key).press_sequentially(value)
        edits[key] = value
        check(page, case, edits, t)
    box(page, 2, 0, 39).fill("40")
    edits[(2, 0, 39)] = "40"
    check(page, case, edits, t)
    for key in ["ArrowRight", "ArrowUp", "ArrowLeft", "PageUp", "Home"]:
        box(page, 1, 0, 3, "slider").press(key)
        edits[(1, 0, 3)] = box(page, 1, 0, 3).input_value()
        check(page, case, edits, t)
    temperature(page).fill("0.5")
    t = 0.5
    check(page, case, edits, t)
    rng = random.Random(131)
    for _ in range(110):
        kind, s, i = rng.random(), rng.randrange(3), rng.randrange(40)
        if kind < 0.55:
            value = repr(round(rng.uniform(-3, 4), rng.choice([0, 1, 2, 3])))
            box(page, s, 0, i).fill(value)
            edits[(s, 0, i)] = value
        elif kind < 0.85:
            box(page, s, 0, i, "slider").press(rng.choice(["ArrowRight", "ArrowLeft", "ArrowDown"]))
            edits[(s, 0, i)] = box(page, s, 0, i).input_value()
        else:
            t = round(rng.uniform(0.1, 3), rng.choice([1, 2]))
            temperature(page).fill(repr(t))
        check(page, case, edits, t)
    METRICS["manual_random_edits"] = 110
    download_runs(page, case, edits, t, tmp_path)
    page.locator(".selfattn-try-reset").first.click()
    check(page, case, {}, 1.0)
    assert page.errors == []


def test_questions_split_by_a_group_column(
    tab: Callable[..., Any], cases: dict[str, Case], tmp_path: Path
) -> None:
    """Two questions over each section of the manual: one page section per (section, question),
    weights as percentages (number_format), the top 2 lines."""
    case = cases["split"]
    page = tab("split/")
    assert page.locator(".selfattn-try-group").count() == 14
    assert page.locator(".selfattn-try-table th", has_text=WORDS["role"]).count() == 0  # none
    edits: Edits = {}
    check(page, case, edits, 1.0)
    rng = random.Random(1331)
    for _ in range(40):
        s = rng.randrange(14)
        i = rng.randrange(page.locator(f'[data-q=input][data-g="{s}"]').count())
        value = repr(round(rng.uniform(-3, 4), 2))
        box(page, s, 0, i).fill(value)
        edits[(s, 0, i)] = value
        check(page, case, edits, 1.0)
    download_runs(page, case, edits, 1.0, tmp_path)


def test_heads_edits_follow_the_sum_rule(
    tab: Callable[..., Any], cases: dict[str, Case], tmp_path: Path
) -> None:
    """Without ``normalise``, a head whose weights no longer sum to 1 is refused, as the build
    refuses it: moving weight from one token to another makes the numbers come back."""
    case = cases["heads"]
    page = tab("heads/")
    assert page.locator(".selfattn-try-reset").inner_text() == "重来"  # the block's text:
    assert page.locator(".selfattn-try-table tfoot th").first.inner_text() == "总和"
    assert temperature(page).count() == 0  # no softmax, no temperature
    published_results(page, case)
    edits: Edits = {}
    check(page, case, edits)
    box(page, 0, 1, 0).fill("0.5")
    edits[(0, 1, 0)] = "0.5"
    assert not check(page, case, edits)  # 0.5 + 0.3 + 0.25: refused
    assert "1.05" in page.locator("[data-q=refused]").first.inner_text()
    box(page, 0, 1, 2).fill("")
    box(page, 0, 1, 2).press_sequentially("0.2")
    edits[(0, 1, 2)] = "0.2"
    assert check(page, case, edits)
    box(page, 2, 2, 1).fill("-0.1")
    edits[(2, 2, 1)] = "-0.1"
    assert not check(page, case, edits)
    box(page, 2, 2, 1).fill("0.2")
    edits[(2, 2, 1)] = "0.2"
    assert check(page, case, edits)
    # At the tolerance: the page draws the line where the build draws it, bit for bit.
    outcomes = []
    for value in ["0.3000000009", "0.300000001", "0.3000000011", "0.2999999991", "0.2999999989"]:
        box(page, 1, 0, 2).fill(value)
        edits[(1, 0, 2)] = value
        outcomes.append(check(page, case, edits))
    assert True in outcomes
    assert False in outcomes
    box(page, 1, 0, 2).fill("0.3")
    edits[(1, 0, 2)] = "0.3"
    rng = random.Random(133)
    accepted = refused = 0
    for _ in range(60):
        s, h = rng.randrange(3), rng.randrange(3)
        i, j = rng.sample(range(3), 2)
        now = [float(box(page, s, h, k).input_value()) for k in range(3)]
        step = round(rng.uniform(0.01, 0.3), 2)
        if rng.random() < 0.3:  # the slider, by keyboard: one step off the sum, then back
            box(page, s, h, i, "slider").press("ArrowRight")
            edits[(s, h, i)] = box(page, s, h, i).input_value()
            ok = check(page, case, edits)
            box(page, s, h, i, "slider").press("ArrowLeft")
            edits[(s, h, i)] = box(page, s, h, i).input_value()
        else:  # move weight from one token to another, typing both
            if now[i] - step < 0:
                step = now[i]
            edits[(s, h, i)] = repr(round(now[i] - step, 10))
            box(page, s, h, i).fill(edits[(s, h, i)])
            ok = check(page, case, edits)
            edits[(s, h, j)] = repr(round(now[j] + step, 10))
            box(page, s, h, j).fill(edits[(s, h, j)])
        accepted += ok
        refused += not ok
        ok = check(page, case, edits)
        accepted += ok
        refused += not ok
        if not ok:  # the page offers to rescale; its numbers are the build's for the result
            page.locator(".selfattn-try-rescale:visible").first.click()
            for k in range(3):
                for hh in range(3):
                    for ss in range(3):
                        edits[(ss, hh, k)] = box(page, ss, hh, k).input_value()
            assert check(page, case, edits)
    METRICS["heads_random_edits"] = accepted + refused
    METRICS["heads_refused_states"] = refused
    assert accepted >= 40
    assert refused >= 20
    download_runs(page, case, edits, None, tmp_path)
    page.locator(".selfattn-try-reset").first.click()
    check(page, case, {})


def test_heads_normalised_edits(
    tab: Callable[..., Any], cases: dict[str, Case], tmp_path: Path
) -> None:
    case = cases["norm"]
    page = tab("norm/")
    edits: Edits = {}
    check(page, case, edits)
    # Nothing to divide by: the build refuses a head whose weights are all 0, even normalised.
    for i in range(3):
        box(page, 1, 2, i).fill("0")
        edits[(1, 2, i)] = "0"
        assert check(page, case, edits) == (i < 2)
    assert page.locator(".selfattn-try-rescale:visible").count() == 0
    for i in range(3):
        box(page, 1, 2, i).fill("0.5")
        edits[(1, 2, i)] = "0.5"
        assert check(page, case, edits)
    rng = random.Random(1313)
    for _ in range(110):
        s, h, i = rng.randrange(3), rng.randrange(3), rng.randrange(3)
        if rng.random() < 0.7:
            value = repr(round(rng.uniform(0.01, 2), rng.choice([1, 2, 3])))
            box(page, s, h, i).fill(value)
            edits[(s, h, i)] = value
        else:
            box(page, s, h, i, "slider").press(rng.choice(["ArrowRight", "ArrowLeft"]))
            edits[(s, h, i)] = box(page, s, h, i).input_value()
        assert check(page, case, edits)
    METRICS["norm_random_edits"] = 110
    download_runs(page, case, edits, None, tmp_path)


def test_thousands_of_lines_page_through(tab: Callable[..., Any], cases: dict[str, Case]) -> None:
    """3,000 lines: the chart shows the 30 largest weights and sums the rest, the table draws
    100 lines at a time; an edit on a later page recomputes every line."""
    case = cases["big3000"]
    page = tab("big3000/")
    check(page, case, {}, 1.0)
    chart = page.locator(".selfattn-try-chart").first
    assert chart.locator("rect").count() == 30
    # Drawn at the width it is shown (one SVG unit per CSS px): 14 px labels.
    shown_width = chart.bounding_box()["width"]
    assert abs(chart.evaluate("svg => svg.viewBox.baseVal.width") - shown_width) < 1
    assert (
        chart.evaluate(
            "svg => Math.min(...Array.from(svg.querySelectorAll('text'),"
            " t => parseFloat(getComputedStyle(t).fontSize)))"
        )
        >= 14
    )
    assert (chart.locator("text").last.text_content() or "").startswith("+ 2970 · ")
    pager = page.locator(".selfattn-try-pager").nth(1)
    assert pager.locator("span").inner_text() == "1–100 / 3000"
    pager.get_by_role("button", name=WORDS["next_rows"]).click()
    assert pager.locator("span").inner_text() == "101–200 / 3000"
    edits = {(1, 0, 150): "9"}
    box(page, 1, 0, 150).fill("9")
    # Section 1 now draws lines 100-199; section 0 still its first page.
    example, _ = case.core(edits, 1.0)
    shown = page.evaluate(READ)
    assert sum(k.startswith("weight/1/") for k in shown) == 100
    assert shown["weight/1/0/150"] == py_round(example.result.groups[0].heads[1].weights[150])
    assert shown["summary/1"].startswith(" · " + WORDS["top"] + ": L00150")
    assert page.errors == []
