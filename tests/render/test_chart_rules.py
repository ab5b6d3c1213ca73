"""The book's figure rules, checked on every chart view in every layout and on a probe with five
targets, five questions, four heads and long labels: both drawings in one output, the wide one
760 × 430 units with 14/18-unit text clear of the edges, the narrow one 360 units wide with text of
at least 12; no text over another text or a bar; every fill readable on light and dark pages;
coinciding points all drawn and named; labels broken only where a label may break.

The wide drawing is measured in the figure as it is saved (matplotlib's own text extents); the
narrow one, written by hand, from its SVG with the same font metrics.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from figure_fixtures import SVG, document
from reading_fixtures import heads_reading, manual_reading, questions_reading, report_reading

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.chart import render_chart
from mkdocs_selfattn.render.chart_context import render_context_chart, render_separation_chart
from mkdocs_selfattn.render.chart_space import render_context_space
from mkdocs_selfattn.render.chart_svg import ChartOutput, ChartStyle
from mkdocs_selfattn.render.defaults import DEFAULT_COLORS
from mkdocs_selfattn.render.labels import Labels

LIGHT, DARK = "#ffffff", "#1e2129"

LONG = "decision_vs_condition_split_of_the_restart_approval"


def _probe_questions() -> ReadingResult:
    rows = ["line_id,section,evidence_signal," + ",".join(f"score_{q}" for q in range(5))]
    for i in range(9):
        scores = ",".join(str(((i * 7 + q * 3) % 11) / 3) for q in range(5))
        rows.append(f"{LONG}_{i},s{i % 3},{(i % 5) / 2 - 0.6},{scores}")
    queries = {
        f"What does the operator confirm before restart number {q}?": f"score_{q}" for q in range(5)
    }
    return questions_reading("\n".join(rows) + "\n", queries=queries)


def _probe_heads() -> ReadingResult:
    heads = [f"w{h}" for h in range(4)]
    rows = ["report_id,scenario,token,relation_role,a,b," + ",".join(heads)]
    for g, scenario in enumerate(("balanced_heads", LONG, "condition_heavy_both_heads")):
        for t, token in enumerate(("정지결정", "압력이상", "복귀조건_after_the_long_wait")):
            weights = ",".join(str(((t + h + g) % 3 + 1) / 6) for h in range(4))
            rows.append(f"r,{scenario},{token},p,{t / 2 + g / 5},{1 - t / 3},{weights}")
    return heads_reading(
        "\n".join(rows) + "\n",
        document="r",
        heads={f"head_{h}_with_a_longer_name": w for h, w in enumerate(heads)},
        axes={"decision_axis": ["a"], "evidence_condition_axis": ["b"]},
    )


def _probe_targets() -> ReadingResult:
    return document([f"target_{t}_{LONG}" for t in range(5)], [f"{LONG}_{i}" for i in range(6)])


READINGS: dict[str, Callable[[], ReadingResult]] = {
    "questions": manual_reading,
    "heads": report_reading,
    "targets": lambda: document(["it", "that"], [f"c{i}" for i in range(6)]),
    "probe_questions": _probe_questions,
    "probe_heads": _probe_heads,
    "probe_targets": _probe_targets,
}

VIEWS: dict[str, Callable[..., ChartOutput]] = {
    "chart": render_chart,
    "context_chart": render_context_chart,
    "separation_chart": render_separation_chart,
    "context_space": render_context_space,
}


def _drawable(layout: str, view: str) -> bool:
    from mkdocs_selfattn.render.chart_context import figure_problem

    if view == "chart":
        return True
    if "targets" in layout:
        return False
    return figure_problem(READINGS[layout](), view) is None


CASES = [(layout, view) for layout in READINGS for view in VIEWS if _drawable(layout, view)]


@pytest.fixture(scope="module")
def results() -> dict[str, ReadingResult]:
    return {name: make() for name, make in READINGS.items()}


@pytest.fixture
def saved(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Every text of the next wide drawing (gid, size, window extent in units, the text) and its
    marks (bars and points), taken just before it is saved."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import PathCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle
    from matplotlib.text import Text

    found: dict[str, Any] = {}
    save = Figure.savefig

    def spy(fig: Any, *args: Any, **kwargs: Any) -> Any:
        renderer = FigureCanvasAgg(fig).get_renderer()
        fig.draw(renderer)  # legends place their texts when drawn
        scale = 72 / fig.dpi
        texts = []
        # Tick labels outside the view limits are artists matplotlib does not draw.
        ticks = {
            id(t.label1): t
            for ax in fig.axes
            for axis in (ax.xaxis, ax.yaxis)
            for t in axis.get_major_ticks()
        }
        drawn = {
            id(t.label1)
            for ax in fig.axes
            if ax.axison
            for axis in (ax.xaxis, ax.yaxis)
            for t in axis._update_ticks()
        }
        for text in fig.findobj(Text):
            if id(text) in ticks and id(text) not in drawn:
                continue
            if text.get_text() and text.get_visible():
                box = text.get_window_extent(renderer).transformed(_scaled(scale))
                texts.append((text.get_gid() or "", text.get_fontsize(), box, text.get_text()))
        marks = []
        for ax in fig.axes:
            for patch in ax.patches:
                if isinstance(patch, Rectangle) and patch.get_height():
                    marks.append(patch.get_window_extent(renderer).transformed(_scaled(scale)))
            for coll in ax.collections:
                if isinstance(coll, PathCollection):
                    marks.append(coll.get_window_extent(renderer).transformed(_scaled(scale)))
        found.update(
            texts=texts,
            marks=marks,
            size=(fig.get_figwidth() * 72, fig.get_figheight() * 72),
        )
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", spy)
    return found


def _scaled(scale: float) -> Any:
    from matplotlib.transforms import Affine2D

    return Affine2D().scale(scale)


def _overlap(a: Any, b: Any, air: float = 0.0) -> bool:
    return bool(a.x0 < b.x1 - air and b.x0 < a.x1 - air and a.y0 < b.y1 - air and b.y0 < a.y1 - air)


def _render(view: str, layout: str, results: dict[str, ReadingResult]) -> ChartOutput:
    result = results[layout]
    title = "The weights every head gives, scenario by scenario, in the report"
    return VIEWS[view](result, Labels().for_result(result), title=title)


@pytest.mark.parametrize(("layout", "view"), CASES)
def test_the_wide_drawing_keeps_the_books_rules(
    layout: str,
    view: str,
    results: dict[str, ReadingResult],
    saved: dict[str, Any],
) -> None:
    out = _render(view, layout, results)
    root = ET.fromstring(out.svg)
    assert root.get("viewBox") == "0 0 760 430"
    assert "selfattn-chart-wide" in (root.get("class") or "")
    assert root.find(f"{SVG}title") is not None
    assert root.find(f"{SVG}desc") is not None
    width, height = saved["size"]
    assert (round(width), round(height)) == (760, 430)
    texts = saved["texts"]
    for gid, size, box, text in texts:
        assert size >= (18 if gid == "heading" else 14), (gid, text, size)
        # Clear of the edges (display y grows upwards, as the edges do not care).
        assert box.x0 >= 17.5, (gid, text, box)
        assert box.x1 <= width - 17.5, (gid, text, box)
        assert box.y0 >= 17.5, (gid, text, box)
        assert box.y1 <= height - 17.5, (gid, text, box)
    [title] = [t for t in texts if t[0] == "heading"]
    assert 18 <= title[2].x0 <= 21  # left-aligned, its ink past the 18-unit inset
    for i, (ga, _, a, ta) in enumerate(texts):
        for gb, _, b, tb in texts[i + 1 :]:
            if ga == gb and ga:
                continue
            assert not _overlap(a, b), f"{ga} {ta!r} overlaps {gb} {tb!r}"
        if view == "context_space":
            continue  # points are checked apart from their own labels below
        for mark in saved["marks"]:
            assert not _overlap(a, mark, air=0.5), f"{ga} {ta!r} overlaps a bar"
    for size in re.findall(r"font-size: ([\d.]+)px", out.svg):
        assert float(size) >= 14


def _narrow_texts(svg: str) -> list[tuple[str, float, float, float, str, str]]:
    """(id, x, baseline y, size, anchor, text) of every line of the narrow drawing."""
    root = ET.fromstring(svg)
    out = []
    for text in root.iter(f"{SVG}text"):
        ident = (text.get("id") or "").split("-", 1)[-1]
        size = float(text.get("font-size") or 0)
        anchor = text.get("text-anchor") or "start"
        spans = list(text.iter(f"{SVG}tspan"))
        if not spans:  # the rotated y axis name
            out.append((ident, 0.0, 0.0, size, "rotated", "".join(text.itertext())))
            continue
        for span in spans:
            out.append(
                (
                    ident,
                    float(span.get("x") or 0),
                    float(span.get("y") or 0),
                    size,
                    anchor,
                    span.text or "",
                )
            )
    return out


def _measure() -> Callable[[str, float], float]:
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    from mkdocs_selfattn.render.chart_svg import _rc, text_measure

    style = ChartStyle()
    with rc_context(_rc(style)):
        measure = text_measure(Figure())

        def inside(text: str, size: float) -> float:
            with rc_context(_rc(style)):
                return measure(text, size)

    return inside


@pytest.mark.parametrize(("layout", "view"), CASES)
def test_the_narrow_drawing_is_a_phone_layout(
    layout: str, view: str, results: dict[str, ReadingResult]
) -> None:
    out = _render(view, layout, results)
    root = ET.fromstring(out.narrow)
    _, _, w, h = (float(v) for v in (root.get("viewBox") or "").split())
    assert w == 360
    assert "selfattn-chart-narrow" in (root.get("class") or "")
    assert root.get("role") == "img"
    assert root.find(f"{SVG}title") is not None
    assert root.find(f"{SVG}desc") is not None
    measure = _measure()
    boxes = []
    for ident, x, y, size, anchor, text in _narrow_texts(out.narrow):
        assert size >= 12, (ident, text)
        if anchor == "rotated":
            continue
        tw = measure(text, size)
        x0 = x - tw if anchor == "end" else x - tw / 2 if anchor == "middle" else x
        box = (x0, y - size * 0.8, x0 + tw, y + size * 0.22)
        assert box[0] >= 0, (ident, text, box)
        assert box[2] <= w, (ident, text, box)
        assert box[1] >= 0, (ident, text, box)
        assert box[3] <= h, (ident, text, box)
        boxes.append((ident, text, box))
    for i, (ia, ta, a) in enumerate(boxes):
        for ib, tb, b in boxes[i + 1 :]:
            if ia == ib and ia:
                continue
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, f"{ia} {ta!r} overlaps {ib} {tb!r}"
    if view != "context_space":
        bars = [
            (
                float(r.get("x") or 0),
                float(r.get("y") or 0),
                float(r.get("width") or 0),
                float(r.get("height") or 0),
            )
            for r in root.iter(f"{SVG}rect")
            if (r.get("fill") or "").startswith("#") and float(r.get("height") or 0) < 14
        ]
        for ident, text, (x0, y0, x1, y1) in boxes:
            for bx, by, bw, bh in bars:
                if bw < 14 and bx < 40:  # a legend swatch, beside its text
                    continue
                apart = x1 <= bx + 0.5 or bx + bw <= x0 + 0.5 or y1 <= by or by + bh <= y0
                assert apart, f"{ident} {text!r} overlaps a bar"


def _luminance(color: str) -> float:
    channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)))
    return (lb + 0.05) / (la + 0.05)


@pytest.mark.parametrize(("layout", "view"), CASES)
def test_every_fill_reads_on_light_and_dark_pages(
    layout: str, view: str, results: dict[str, ReadingResult]
) -> None:
    out = _render(view, layout, results)
    fills = set(re.findall(r"fill: (#[0-9a-f]{6})", out.svg))
    fills |= set(re.findall(r'fill="(#[0-9a-f]{6})"', out.narrow))
    fills |= set(re.findall(r'stroke="(#[0-9a-f]{6})"', out.narrow))
    assert fills
    for fill in fills:
        assert contrast(fill, LIGHT) >= 3, fill
        assert contrast(fill, DARK) >= 3, fill
    assert "#010203" not in out.both
    assert "#000000" not in out.both


def test_the_default_colours_keep_their_roles_and_contrast() -> None:
    main, change, given, guide = DEFAULT_COLORS[:4]
    for color in DEFAULT_COLORS:
        assert contrast(color, LIGHT) >= 3
        assert contrast(color, DARK) >= 3
    assert int(main[5:7], 16) > int(main[1:3], 16)  # blue
    assert int(change[1:3], 16) > int(change[3:5], 16)  # red
    assert int(given[3:5], 16) > int(given[1:3], 16)  # green
    assert len({guide[1:3], guide[3:5]}) == 2
    assert abs(int(guide[1:3], 16) - int(guide[3:5], 16)) < 16


def test_series_differ_by_more_than_their_fill(
    results: dict[str, ReadingResult],
) -> None:
    out = _render("chart", "probe_targets", results)
    patterns = re.findall(r"<pattern\b", out.svg)
    assert len(patterns) >= 4  # every series after the first has a pattern
    assert len(re.findall(r"<pattern\b", out.narrow)) >= 4


def test_red_means_change_and_is_not_a_plain_series(
    results: dict[str, ReadingResult],
) -> None:
    red = DEFAULT_COLORS[1]
    for layout in ("probe_targets", "probe_questions", "heads"):
        assert red not in _render("chart", layout, results).both
    assert red in _render("separation_chart", "heads", results).both


@pytest.mark.parametrize("layout", ["heads", "probe_heads"])
def test_coinciding_points_are_all_drawn_and_named(
    layout: str, results: dict[str, ReadingResult], saved: dict[str, Any]
) -> None:
    result = results[layout]
    assert isinstance(result, ReadingResult)
    out = render_context_space(result, Labels().for_result(result))
    n = sum(len(g.heads) for g in result.groups)
    for svg in (out.svg, out.narrow):
        assert len(set(re.findall(r'id="sa[0-9a-f]+n?-(point_\d+_\d+)"', svg))) == n
    places: dict[tuple[float, float], int] = {}
    for g in result.groups:
        for h in g.heads:
            key = (round(h.context[0], 9), round(h.context[1], 9))
            places[key] = places.get(key, 0) + 1
    shared = [k for k, v in places.items() if v > 1]
    if layout == "heads":
        assert shared  # the demo's three single heads share one point
    if shared:
        assert "at one point: " in out.svg
        assert "at one point: " in out.narrow
        # Each of them visible: markers of different sizes (larger rings under smaller ones).
        sizes = {
            round(float(s), 1) for s in re.findall(r'<path[^>]*d="M[^"]*a([\d.]+) ', out.narrow)
        }
        assert len(sizes) >= 2


def _lines_of(svg: str, prefix: str) -> dict[str, tuple[list[str], str | None]]:
    """Per text id starting with ``prefix``: its lines and its tooltip (the full text)."""
    root = ET.fromstring(svg)
    out: dict[str, tuple[list[str], str | None]] = {}
    for el in root.iter():
        ident = (el.get("id") or "").split("-", 1)[-1]
        if not ident.startswith(prefix) or el.tag not in (f"{SVG}g", f"{SVG}text"):
            continue
        title = el.find(f"{SVG}title")
        lines = [t.text or "" for t in el.iter(f"{SVG}text")] if el.tag == f"{SVG}g" else []
        lines += [s.text or "" for s in el.iter(f"{SVG}tspan")]
        out[ident] = ([x for x in lines if x], None if title is None else title.text)
    return out


@pytest.mark.parametrize(("layout", "view"), [c for c in CASES if c[1] != "context_space"])
def test_no_label_is_broken_mid_word(
    layout: str, view: str, results: dict[str, ReadingResult]
) -> None:
    out = _render(view, layout, results)
    for svg in (out.svg, out.narrow):
        for ident, (lines, full) in _lines_of(svg, "candidate_").items():
            whole = full or " ".join(lines)
            for a, b in itertools.pairwise(lines):
                if "…" in a:
                    continue
                at = whole.find(a)
                assert at >= 0, (ident, lines, whole)
                end = at + len(a)
                assert a[-1] in "_·/" or whole[end : end + 1] == " ", (ident, lines, whole)
                assert b  # nothing empty after a break


def test_decision_vs_condition_split_breaks_at_its_underscores() -> None:
    from mkdocs_selfattn.render.figure_text import fold

    assert fold("decision_vs_condition_split") == "decision_vs_\ncondition_split"
    assert "\n" not in fold("abcdefghijklmnopqrstuvwxyz")  # no break point: shortened
    assert fold("L04 · L05 · L06 · L07 · L08 · L09").split("\n")[0].endswith("·")


def test_page_words_name_and_describe_while_the_figure_keeps_its_own(
    results: dict[str, ReadingResult],
) -> None:
    result = results["heads"]
    assert isinstance(result, ReadingResult)
    labels = Labels().for_result(result)
    page = Labels({"head1": "헤드 1"}).for_result(result)
    for view, render in VIEWS.items():
        out = render(
            result,
            labels,
            text={"axis_group": "scenario"},
            page_text={"axis_group": "시나리오", "space_name": "문맥 공간"},
            page_labels=page,
        )
        for svg in (out.svg, out.narrow):
            root = ET.fromstring(svg)
            named = (root.findtext(f"{SVG}title") or "") + (root.findtext(f"{SVG}desc") or "")
            drawn = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
            assert "헤드 1" in named, view
            assert "헤드 1" not in drawn, view
            assert "head1" in drawn, view


def test_a_block_title_is_drawn_in_the_figure_language_and_named_in_the_page_one(
    results: dict[str, ReadingResult],
) -> None:
    for name in ("targets", "heads"):
        result = results[name]
        labels = Labels().for_result(result)
        for view, render in VIEWS.items():
            if name == "targets" and view != "chart":
                continue
            out = render(
                result,
                labels,
                title="Drawn title",
                page_text={"axis_group": "시나리오"},
                page_labels=labels,
                page_title="페이지 제목",
            )
            for svg in (out.svg, out.narrow):
                root = ET.fromstring(svg)
                drawn = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
                assert root.findtext(f"{SVG}title") == "페이지 제목", view
                assert "Drawn" in drawn, view
                assert "페이지" not in drawn, view


def test_the_overlap_check_can_fail(
    results: dict[str, ReadingResult],
    saved: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A planted overlap: without the rule that stands crowded values upright, the measure above
    finds values on values (so its silence elsewhere means something)."""
    from mkdocs_selfattn.render import chart_bars

    monkeypatch.setattr(chart_bars, "_fit_values", lambda *args: False)
    _render("chart", "probe_targets", results)
    values = [(t[2], t[3]) for t in saved["texts"] if t[0].startswith("value_")]
    touching = [
        (a, b)
        for i, (a, _) in enumerate(values)
        for b, _ in values[i + 1 :]
        if _overlap(a, b) or any(_overlap(a, m, air=0.5) for m in saved["marks"])
    ]
    assert touching
