"""The figures of every layout: goldens of the new charts and mermaid graphs, and the rules that
keep a figure readable at any size, measured in the drawn figure.

Goldens live in tests/golden/figures/; rewrite them after an intended change with

    python -m pytest tests/render/test_figures.py --update-goldens

The SVG goldens depend on the installed matplotlib and the chart fonts' packages, not on the
machine's fonts.
"""

from __future__ import annotations

import difflib
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from figure_fixtures import SVG, document, render_mermaid, texts_by_id
from reading_fixtures import heads_reading, manual_reading, questions_reading, report_reading

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.chart import MAX_BARS, render_chart
from mkdocs_selfattn.render.chart_context import (
    figure_problem,
    render_context_chart,
    render_separation_chart,
)
from mkdocs_selfattn.render.chart_space import render_context_space
from mkdocs_selfattn.render.labels import Labels

GOLDEN = Path(__file__).parents[1] / "golden" / "figures"

MANUAL_DISPLAY = {
    "What is the pressure-release holding time?": "泄压后要保持多久？",
    "What is the coolant-flow criterion?": "冷却水流量的标准是什么？",
    "What are the restart approval conditions?": "重新启动需要满足哪些条件？",
}
HEADS_DISPLAY = {
    "정지결정": "停机决定",
    "압력이상": "压力异常",
    "복귀조건": "恢复条件",
    "balanced_heads": "两个 head 均衡",
    "decision_vs_condition_split": "决定与条件分工",
    "condition_heavy_both_heads": "两个 head 都偏向条件",
    "single_head": "单 head",
    "head1": "head 1",
    "head2": "head 2",
}


def check_golden(name: str, actual: str, update: bool) -> None:
    path = GOLDEN / name
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual.encode("utf-8"))
        return
    assert path.exists(), f"{path} is missing; run pytest with --update-goldens to create it"
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), name, "rendered", lineterm=""
        )
        pytest.fail("\n".join(list(diff)[:60]))


@pytest.fixture(scope="module")
def manual() -> tuple[ReadingResult, Labels]:
    result = manual_reading()
    return result, Labels(MANUAL_DISPLAY).for_result(result)


@pytest.fixture(scope="module")
def report() -> tuple[ReadingResult, Labels]:
    result = report_reading()
    return result, Labels(HEADS_DISPLAY).for_result(result)


# ---------------------------------------------------------------------------------------------
# Goldens: the drafts' figures, byte for byte, and the same bytes twice


FIGURES: dict[str, tuple[str, Callable[..., Any], dict[str, Any]]] = {
    "chart_question.svg": (
        "manual",
        render_chart,
        {
            "query": "score_pressure_hold",
            "text": {"axis_weight": "attention 权重", "axis_candidate": "手册行"},
            "title": "问“泄压后要保持多久”时，每一行分到的权重",
        },
    ),
    "context_chart.svg": (
        "manual",
        render_context_chart,
        {
            "text": {
                "axis_context": "上下文（evidence_signal 的加权和）",
                "baseline": "一视同仁的 baseline",
            }
        },
    ),
    "separation_chart.svg": (
        "report",
        render_separation_chart,
        {"text": {"axis_separation": "head 1 与 head 2 的距离", "axis_group": "场景"}},
    ),
    "context_space.svg": (
        "report",
        render_context_space,
        {"text": {"axis_x": "decision_axis", "axis_y": "evidence_condition_axis"}},
    ),
    "chart_heads.svg": ("report", render_chart, {}),
    # Each figure view in each layout that has it: the other layout's context and separation.
    "context_chart_heads.svg": ("report", render_context_chart, {}),
    "separation_chart_questions.svg": ("manual", render_separation_chart, {}),
}


@pytest.mark.parametrize("name", FIGURES)
def test_figure_goldens(
    name: str,
    manual: tuple[ReadingResult, Labels],
    report: tuple[ReadingResult, Labels],
    update_goldens: bool,
) -> None:
    which, render, options = FIGURES[name]
    result, labels = manual if which == "manual" else report
    first = render(result, labels, **options)
    assert first.missing_glyphs == []
    assert render(result, labels, **options).both == first.both
    # Both drawings, as a chart box holds them: the wide one, then the phone one.
    check_golden(name, first.both, update_goldens)
    for svg in (first.svg, first.narrow):
        # Themeable: text, axes and hatching follow the page's colour; no fixed black.
        assert "currentColor" in svg
        assert "#010203" not in svg
        assert "#000000" not in svg
    ids = re.findall(r'\bid="([^"]+)"', first.both)
    assert len(ids) == len(set(ids))  # unique on the page with both drawings in it


def test_question_chart_shows_every_line_of_one_question(
    manual: tuple[ReadingResult, Labels],
) -> None:
    result, labels = manual
    svg = render_chart(result, labels, query="score_pressure_hold").svg
    texts = texts_by_id(svg)
    # 40 lines are more than the book's figure holds (32 bars): the top 20 and "20 others".
    names = [texts[f"candidate_{i}"] for i in range(21)]
    assert names[:3] == ["L10", "L05", "L07"]
    assert names[20] == "20 others"
    assert "candidate_21" not in texts
    assert texts["value_0_0"] == "0.092"  # L10, the top line
    assert "value_1_0" not in texts  # one series: the question asked, named by the legend
    assert texts["legend_text_0"] == "泄压后要保持多久？"
    assert "泄压后要保持多久？" in (ET.fromstring(svg).find(f"{SVG}title").text or "")  # type: ignore[union-attr]
    # By column or by label, the same chart.
    by_label = render_chart(result, labels, query="What is the pressure-release holding time?")
    assert by_label.svg == svg


def test_context_chart_puts_the_baseline_first(manual: tuple[ReadingResult, Labels]) -> None:
    result, labels = manual
    texts = texts_by_id(render_context_chart(result, labels).svg)
    assert texts["candidate_0"] == "uniform baseline"
    assert [texts[f"value_0_{i}"] for i in range(4)] == ["6.88", "4.685", "9.922", "6.449"]


def test_separation_chart_compares_the_last_two_heads_or_the_query(
    report: tuple[ReadingResult, Labels],
) -> None:
    result, labels = report
    texts = texts_by_id(render_separation_chart(result, labels).svg)
    assert [texts[f"value_0_{i}"] for i in range(3)] == ["0.335", "1.14", "0.25"]
    assert texts["candidate_1"] == "决定与条件分工"
    chosen = texts_by_id(render_separation_chart(result, labels, query="head2").svg)
    expected = [round(g.separation("single_head", "head2"), 3) for g in result.groups]
    assert [float(chosen[f"value_0_{i}"]) for i in range(3)] == expected


def test_context_space_draws_every_head_of_every_group(
    report: tuple[ReadingResult, Labels],
) -> None:
    result, labels = report
    svg = render_context_space(result, labels).svg
    ids = re.findall(r'id="sa[0-9a-f]+-(point_\d+_\d+)"', svg)
    assert sorted(ids) == sorted(f"point_{g}_{h}" for g in range(3) for h in range(3))
    texts = texts_by_id(svg)
    assert texts["axis_x"] == "decision_axis"
    assert texts["axis_y"] == "evidence_condition_axis"
    assert "axes_note" not in texts
    assert "单 head (1.3, 0.9)" in svg  # the description lists every point


def test_context_space_with_three_axes_says_which_two_it_shows(update_goldens: bool) -> None:
    three = {
        "decision_axis": ["decision_axis"],
        **{a: [a] for a in ("evidence_axis", "condition_axis")},
    }
    result = heads_reading(_heads_text(), axes=three)
    out = render_context_space(result, Labels(HEADS_DISPLAY))
    svg = out.svg
    check_golden("context_space_three_axes.svg", out.both, update_goldens)
    texts = texts_by_id(svg)
    assert texts["axes_note"] == "axes decision_axis and evidence_axis of 3"
    assert texts["axis_y"] == "evidence_axis"


def test_what_a_figure_cannot_show_is_one_message(manual: tuple[ReadingResult, Labels]) -> None:
    result, _ = manual
    message = figure_problem(result, "context_space")
    assert message is not None
    assert "one (evidence_signal)" in message
    assert "two 'axes:'" in message
    one_head = questions_reading(_manual_text(), queries={"only": "score_flow_limit"})
    message = figure_problem(one_head, "separation_chart")
    assert message is not None
    assert "has one (only)" in message
    assert figure_problem(document(["a"], ["x"]), "context_chart") is not None


def _manual_text() -> str:
    from reading_fixtures import MANUAL_CSV

    return MANUAL_CSV.read_text(encoding="utf-8")


def _heads_text() -> str:
    from reading_fixtures import HEADS_CSV

    return HEADS_CSV.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# Mermaid


def test_mermaid_goldens(
    manual: tuple[ReadingResult, Labels], report: tuple[ReadingResult, Labels], update_goldens: bool
) -> None:
    questions = render_mermaid(
        *manual,
        text={"query": "问题", "candidates": "手册行", "weights": "最看重", "context": "上下文"},
    )
    heads = render_mermaid(*report, text={"group": "场景", "separation": "两个 head 的距离"})
    check_golden("mermaid_questions.txt", questions, update_goldens)
    check_golden("mermaid_heads.txt", heads, update_goldens)
    assert 'q0["问题:<br/>泄压后要保持多久？"]' in questions
    assert "L10 0.092<br/>L05 0.076<br/>L07 0.068" in questions
    assert "上下文<br/>4.685<br/>shift -2.195" in questions
    assert "两个 head 的距离<br/>head 1 – head 2: 1.14" in heads


def test_mermaid_escapes_and_shortens_csv_text() -> None:
    rows = ["line_id,section,evidence_signal,score_a"]
    rows.append('"x""] --> evil[""<b>",a,1.0,2.0')
    rows.append("y" * 80 + ",b,2.0,1.0")
    result = questions_reading("\n".join(rows) + "\n", queries={"q": "score_a"}, role=None)
    source = render_mermaid(result, Labels())
    assert "<b>" not in source
    for line in source.splitlines():
        # Every label is one quoted string: no quote inside it.
        if '["' in line:
            inner = line.split('["', 1)[1].rsplit('"]', 1)[0]
            assert '"' not in inner, line
    assert "y" * 80 not in source
    assert "…" in source


# ---------------------------------------------------------------------------------------------
# Readable at every size, measured in the figure as it is saved


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The window extent of every named text of the next chart, taken just before it is saved."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.legend import Legend
    from matplotlib.patches import Rectangle
    from matplotlib.text import Text

    found: dict[str, Any] = {}
    save = Figure.savefig

    def spy(fig: Any, *args: Any, **kwargs: Any) -> Any:
        renderer = FigureCanvasAgg(fig).get_renderer()
        found.clear()
        for text in fig.findobj(Text):
            if text.get_gid() and text.get_text():
                found[text.get_gid()] = text.get_window_extent(renderer)
        for n, legend in enumerate(fig.findobj(Legend)):
            found[f"legend_{n}"] = legend.get_window_extent(renderer)
        bars = [p for p in fig.findobj(Rectangle) if p.get_height() and p.get_width() < 1]
        found["bars"] = [p.get_window_extent(renderer) for p in bars]
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", spy)
    return found


def _shown(series: int, candidates: int) -> int:
    """Bars per series: every candidate while the chart has room (40, and at most 32 bars in
    all), else the top ones and one "N others"."""
    per_series = MAX_BARS // series
    if candidates <= min(40, per_series):
        return candidates
    return min(20, per_series - 1) + 1


def _overlaps(a: Any, b: Any) -> bool:
    return bool(a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1)


def _assert_apart(found: dict[str, Any], prefix: str) -> int:
    boxes = [(k, v) for k, v in found.items() if k.startswith(prefix)]
    for i, (ka, a) in enumerate(boxes):
        for kb, b in boxes[i + 1 :]:
            assert not _overlaps(a, b), f"{ka} overlaps {kb}"
    return len(boxes)


@pytest.mark.parametrize(
    ("targets", "candidates"),
    [(3, 6), (3, 12), (5, 8), (4, 40), (8, 30)],
)
def test_value_labels_never_overlap_at_three_or_more_targets(
    measured: dict[str, Any], targets: int, candidates: int
) -> None:
    result = document(
        [f"target{t}" for t in range(targets)], [f"c{i:02d}" for i in range(candidates)]
    )
    render_chart(result, Labels())
    shown = _shown(targets, candidates)
    assert _assert_apart(measured, "value_") == targets * shown
    assert _assert_apart(measured, "candidate_") == shown
    values = [v for k, v in measured.items() if k.startswith("value_")]
    names = [v for k, v in measured.items() if k.startswith("candidate_")]
    for name in names:
        assert not any(_overlaps(name, v) for v in values)
    legend = measured["legend_0"]
    assert not any(_overlaps(legend, v) for v in values + measured["bars"])
    assert not any(_overlaps(measured["axis_candidate"], n) for n in names)


def test_value_labels_never_overlap_for_three_heads_and_all_questions(
    measured: dict[str, Any],
    manual: tuple[ReadingResult, Labels],
    report: tuple[ReadingResult, Labels],
) -> None:
    render_chart(*report)
    assert _assert_apart(measured, "value_") == 27
    assert _assert_apart(measured, "candidate_") == 9
    render_chart(*manual)  # three questions × 40 lines: the top 9 and "31 others"
    assert _assert_apart(measured, "value_") == 3 * 10
    assert _assert_apart(measured, "candidate_") == 10


def test_the_seed_chart_is_drawn_as_before(measured: dict[str, Any]) -> None:
    """Two targets × six candidates fit: horizontal values (the P5-13.2 golden keeps its bytes,
    tests/render/test_views_golden.py), and the rule measured holds there too."""
    result = document(["a", "b"], [f"c{i}" for i in range(6)])
    render_chart(result, Labels())
    assert _assert_apart(measured, "value_") == 12


# ---------------------------------------------------------------------------------------------
# A group of thousands


def _big_manual(lines: int) -> ReadingResult:
    rows = ["line_id,section,text,evidence_signal,score_a,score_b"]
    for i in range(lines):
        rows.append(
            f"manual_line_with_a_long_identifier_{i:05d},s{i % 7},text {i},"
            f"{(i % 13) / 2},{((i * 37) % 101) / 10},{((i * 17) % 89) / 9}"
        )
    return questions_reading(
        "\n".join(rows) + "\n",
        queries={"first": "score_a", "second": "score_b"},
    )


@pytest.fixture(scope="module")
def big() -> ReadingResult:
    return _big_manual(5000)


def test_a_chart_of_5000_lines_shows_the_top_ones_and_sums_the_rest(
    big: ReadingResult, measured: dict[str, Any]
) -> None:
    svg = render_chart(big, Labels(), query="score_a").svg
    texts = texts_by_id(svg)
    names = [texts[k] for k in sorted(texts) if k.startswith("candidate_")]
    assert len(names) == 21
    assert texts["candidate_20"] == "4980 others"
    head = big.groups[0].head("score_a")
    top = head.top(20)
    rest = sum(w for i, w in enumerate(head.weights) if i not in set(top))
    assert texts["value_0_20"] == repr(round(rest, 3))
    assert [texts[f"value_0_{p}"] for p in range(20)] == [
        repr(round(head.weights[i], 3)) for i in top
    ]
    # Long tokens are shortened, the full text is the label's tooltip.
    first = big.groups[0].lines[top[0]].token
    assert len(texts["candidate_0"]) < len(first)
    # Upright at 14 units, a name has 120 units: its head, "…" and the last four digits.
    assert texts["candidate_0"].endswith(first[-4:])
    assert f"<title>{first}</title>" in svg
    assert len(svg) < 200_000
    _assert_apart(measured, "candidate_")


def test_mermaid_of_5000_lines_has_no_giant_node(big: ReadingResult) -> None:
    source = render_mermaid(big, Labels())
    assert max(len(line) for line in source.splitlines()) < 1500
    assert "4980 others" in source
    assert "others 0." in source  # the weights node sums what it does not list
    assert len(source) < 6000


def test_a_target_with_5000_candidates_in_the_targets_layout() -> None:
    result = document(["it", "that", "this"], [f"candidate_{i:04d}" for i in range(5000)])
    svg = render_chart(result, Labels()).svg
    texts = texts_by_id(svg)
    assert texts["candidate_9"] == "4991 others"  # three series: 9 bars each, and the rest
    source = render_mermaid(result, Labels())
    assert "4980 others" in source
    assert max(len(line) for line in source.splitlines()) < 1500


@pytest.mark.parametrize("figure", [render_context_chart, render_separation_chart])
def test_two_line_names_keep_the_axis_title_below_them(
    measured: dict[str, Any],
    manual: tuple[ReadingResult, Labels],
    report: tuple[ReadingResult, Labels],
    figure: Callable[..., Any],
) -> None:
    for result, labels in (manual, report):
        figure(result, labels, text={"axis_group": "场景"})
        names = [v for k, v in measured.items() if k.startswith("candidate_")]
        _assert_apart(measured, "candidate_")
        _assert_apart(measured, "value_")
        if "axis_candidate" in measured:  # under every name, not beside a two-line one
            assert all(measured["axis_candidate"].y1 <= n.y0 for n in names)


def test_negative_contexts_keep_their_values_off_the_names(measured: dict[str, Any]) -> None:
    rows = ["line_id,evidence_signal,score_a,score_b,score_c"]
    rows += [f"L{i},{-3.5 * (i % 4) - 1},{i % 5},{(i * 3) % 7},{(i * 5) % 3}" for i in range(12)]
    queries = {"first question": "score_a", "second": "score_b", "third": "score_c"}
    result = questions_reading("\n".join(rows) + "\n", queries=queries, role=None)
    svg = render_context_chart(result, Labels()).svg
    assert texts_by_id(svg)["value_0_1"].startswith("-")
    names = [v for k, v in measured.items() if k.startswith("candidate_")]
    values = [v for k, v in measured.items() if k.startswith("value_")]
    assert not any(_overlaps(n, v) for n in names for v in values)
    _assert_apart(measured, "value_")


def test_a_long_question_is_shortened_in_the_legend_with_its_full_text_as_tooltip() -> None:
    question = "What does the operator have to confirm, in writing, before the restart? " * 3
    result = questions_reading(
        _manual_text(), queries={question: "score_flow_limit", "b": "score_pressure_hold"}
    )
    svg = render_chart(result, Labels()).svg
    texts = texts_by_id(svg)
    assert "…" in texts["series_0"]
    assert len(texts["series_0"]) < 50
    assert f"<title>{question}</title>" in svg
    assert "series_1" not in texts  # "b" fits: no id, no tooltip


def test_context_space_of_many_groups_keeps_its_legend_inside(measured: dict[str, Any]) -> None:
    """Twelve groups and eight heads: a legend of twenty entries, taller than the plot."""
    heads = [f"w{h}" for h in range(8)]
    rows = ["report_id,scenario,token,relation_role,a,b," + ",".join(heads)]
    for g in range(12):
        rows += [
            f"r,scenario_{g:02d},x,p,{g / 10},1.0," + ",".join(["0.5"] * 8),
            f"r,scenario_{g:02d},y,p,1.0,{g / 7}," + ",".join(["0.5"] * 8),
        ]
    result = heads_reading(
        "\n".join(rows) + "\n",
        document="r",
        heads={f"head_{h}": h for h in heads},
        axes={"a": ["a"], "b": ["b"]},
    )
    svg = render_context_space(result, Labels()).svg
    root = ET.fromstring(svg)
    assert root.get("viewBox") == "0 0 760 430"  # the book's size: the legend takes columns
    legend = measured["legend_0"]
    assert legend.y1 <= 430 * 100 / 72  # display units of the drawn figure (dpi 100)
    assert legend.y0 >= 0
    assert len(re.findall(r'id="sa[0-9a-f]+-point_', svg)) == 96


def test_csv_text_is_data_in_every_new_figure() -> None:
    rows = ["report_id,scenario,token,relation_role,a,b,w1,w2"]
    hostile = [
        "<script>alert(1)</script>",
        'say ""hi"" --> "there"',
        "$\\frac{$ & #1;",
        "tab\tand\rcr",
    ]
    for g, token in enumerate(hostile):
        rows += [
            f'r,"{token} {g}","{token}",p,0.5,1.0,0.5,0.25',
            f'r,"{token} {g}",y,p,1.0,0.2,0.5,0.75',
        ]
    result = heads_reading(
        "\n".join(rows) + "\n",
        document="r",
        heads={"<b>h1</b>": "w1", 'h"2': "w2"},
        axes={"a&x": ["a"], "<b>": ["b"]},
    )
    for render in (
        render_chart,
        render_context_chart,
        render_separation_chart,
        render_context_space,
    ):
        svg = render(result, Labels()).svg
        ET.fromstring(svg)  # well-formed: every text escaped
        assert "<script>" not in svg
        assert "<b>" not in svg
        assert "&lt;script&gt;" in svg or "&lt;b&gt;" in svg
    source = render_mermaid(result, Labels())
    assert "<script>" not in source
    for line in source.splitlines():
        if '["' in line:
            inner = line.split('["', 1)[1].rsplit('"]', 1)[0]
            assert '"' not in inner, line


def test_mermaid_of_hundreds_of_groups_draws_the_first_and_counts_the_rest() -> None:
    rows = ["report_id,scenario,token,relation_role,a,b,w1,w2"]
    for g in range(300):
        rows += [f"r,s{g:03d},x,p,0.5,1.0,0.5,0.25", f"r,s{g:03d},y,p,1.0,0.2,0.5,0.75"]
    result = heads_reading(
        "\n".join(rows) + "\n", document="r", heads={"h1": "w1", "h2": "w2"}, axes={"a": ["a"]}
    )
    source = render_mermaid(result, Labels())
    assert "group: s011" in source
    assert "group: s012" not in source
    assert 'more["288 others"]' in source
    assert len(source) < 12_000


def test_charts_of_hundreds_of_groups_show_the_first_and_say_so(measured: dict[str, Any]) -> None:
    rows = ["report_id,scenario,token,relation_role,a,b,w1,w2"]
    for g in range(300):
        rows += [f"r,s{g:03d},x,p,{g % 5},1.0,0.5,0.25", f"r,s{g:03d},y,p,1.0,0.2,0.5,0.75"]
    result = heads_reading(
        "\n".join(rows) + "\n",
        document="r",
        heads={"h1": "w1", "h2": "w2"},
        axes={"a": ["a"], "b": ["b"]},
    )
    texts = texts_by_id(render_separation_chart(result, Labels()).svg)
    assert texts["axis_candidate"] == "group (the first 32 of 300 groups)"
    assert "candidate_31" in texts
    assert "candidate_32" not in texts
    assert "candidate_60" not in texts
    _assert_apart(measured, "value_")
    texts = texts_by_id(render_context_space(result, Labels()).svg)
    assert texts["axes_note"] == "the first 12 of 300 groups"
    texts = texts_by_id(render_context_chart(result, Labels()).svg)
    assert texts["axis_candidate"] == "the first 5 of 300 groups"
    assert "candidate_14" in texts  # 5 groups × (baseline, h1, h2), two bars each
    assert "candidate_15" not in texts
