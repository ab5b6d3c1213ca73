"""The mermaid diagrams of every layout, read back as graphs: at most three boxes side by side,
top-down, no diagram wider than a phone shows at 11 px, and every line break of a box placed by
the plugin at a space, after ``_`` or between two items, never inside a word, an id or an item.

The probes are the chapter's examples and the ones issue 24 names: five targets, five questions,
four heads, in English, Korean and Chinese labels."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from figure_fixtures import document
from reading_fixtures import (
    HEADS,
    HEADS_CSV,
    MANUAL_CSV,
    heads_reading,
    manual_reading,
    questions_reading,
    report_reading,
)

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.mermaid import mermaid_diagrams
from mkdocs_selfattn.render.mermaid_nodes import (
    BUDGET_EM,
    GAP_EM,
    MAX_SIDE,
    PAD_EM,
    balanced,
    em,
    wrap_items,
    wrap_words,
)
from mkdocs_selfattn.render.words import MERMAID

_NODE = re.compile(r'^  (?:(?P<src>\w+) (?P<link>-->|-\.-) )?(?P<id>\w+)\["(?P<label>[^"]*)"\]$')
_EDGE = re.compile(r"^  (?P<src>\w+) (?P<link>-->|-\.-) (?P<id>\w+)$")
_ENTITY = re.compile(r"#(\d+);")

FIVE_TARGETS = ["그것", "씌우지", "절연캡", "분리", "위험"]
MEMO = ["배터리팩", "분리", "절연캡", "씌우지", "그것", "위험"]
FIVE_QUESTIONS = {
    "What is the pressure-release holding time?": "score_pressure_hold",
    "What is the coolant-flow criterion?": "score_flow_limit",
    "What are the restart approval conditions?": "score_restart_permission",
    "압력 유지 시간을 다시 묻기": "score_pressure_hold",
    "复核冷却水流量": "score_flow_limit",
}
KO = {"복귀조건": "복귀조건", "decision_vs_condition_split": "결정과 조건 분담"}


@dataclass
class Graph:
    """One emitted diagram: its boxes (decoded lines), edges and settings lines."""

    source: str
    boxes: dict[str, list[str]]
    edges: list[tuple[str, str]]

    def ranks(self) -> dict[str, int]:
        """Each box's rank as dagre lays a top-down chart: the longest path from a root."""
        rank = {n: 0 for n in self.boxes}
        for _ in self.boxes:
            for a, b in self.edges:
                rank[b] = max(rank[b], rank[a] + 1)
        return rank

    def rows(self) -> list[list[str]]:
        ranks = self.ranks()
        out: dict[int, list[str]] = {}
        for node, r in ranks.items():
            out.setdefault(r, []).append(node)
        return [out[r] for r in sorted(out)]


def read(source: str) -> Graph:
    boxes: dict[str, list[str]] = {}
    edges: list[tuple[str, str]] = []
    for line in source.splitlines():
        node, edge = _NODE.match(line), _EDGE.match(line)
        if node:
            parts = node["label"].split("<br/>")
            boxes[node["id"]] = [_ENTITY.sub(lambda m: chr(int(m[1])), p) for p in parts]
            if node["src"]:
                edges.append((node["src"], node["id"]))
        elif edge:
            edges.append((edge["src"], edge["id"]))
    return Graph(source, boxes, edges)


def _targets(labels: Labels) -> tuple[ReadingResult, Labels]:
    return document(FIVE_TARGETS, MEMO), labels


def _questions(labels: Labels) -> tuple[ReadingResult, Labels]:
    return questions_reading(MANUAL_CSV.read_text(encoding="utf-8"), FIVE_QUESTIONS), labels


def _heads(labels: Labels) -> tuple[ReadingResult, Labels]:
    four = {**HEADS, "head3": "single_weight"}
    return heads_reading(HEADS_CSV.read_text(encoding="utf-8"), heads=four), labels


PROBES: dict[str, Callable[[], tuple[ReadingResult, Labels]]] = {
    "chapter-targets": lambda: (document(["그것", "씌우지"], MEMO), Labels()),
    "chapter-questions": lambda: (manual_reading(), Labels()),
    "chapter-heads": lambda: (report_reading(), Labels(KO)),
    "five-targets": lambda: _targets(Labels()),
    "five-questions": lambda: _questions(Labels()),
    "four-heads": lambda: _heads(Labels(KO)),
}
LANGUAGES = ["en", "ko", "zh"]


def _graphs(probe: str, language: str) -> tuple[list[Graph], ReadingResult]:
    result, labels = PROBES[probe]()
    sources = mermaid_diagrams(result, labels, text=MERMAID[language])
    return [read(s) for s in sources], result


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("probe", list(PROBES))
def test_no_row_holds_more_than_three_boxes(probe: str, language: str) -> None:
    graphs, _ = _graphs(probe, language)
    assert graphs
    for n, graph in enumerate(graphs):
        assert graph.source.startswith("---\nconfig:\n"), "the diagram's own settings come first"
        assert "\nflowchart TD\n" in graph.source, f"diagram {n} is not top-down"
        for row in graph.rows():
            boxes = [b for b in row if b != "s"] or row
            assert len(boxes) <= MAX_SIDE, f"diagram {n}: {len(boxes)} boxes side by side: {row}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("probe", list(PROBES))
def test_every_diagram_fits_a_phone_at_11_px(probe: str, language: str) -> None:
    """The estimated width of each row of boxes stays within the budget that a 343 px column
    shows at 11 px or more (the browser test measures the drawn figures)."""
    graphs, _ = _graphs(probe, language)
    for n, graph in enumerate(graphs):
        for row in graph.rows():
            width = sum(max(em(line) for line in graph.boxes[b]) + PAD_EM for b in row)
            width += (len(row) - 1) * GAP_EM
            # A lone box may hold one item wider than the budget's share (a 32-column token).
            if len(row) > 1:
                assert width <= BUDGET_EM + 0.01, f"diagram {n} row {row}: {width:.1f} em"
    assert 16 * 343 / ((BUDGET_EM + 1) * 16) >= 11


def _words(result: ReadingResult, language: str) -> set[str]:
    """Every word a box may show, unbroken: tokens, names and the catalogue's words."""
    found: set[str] = set()
    texts: list[str] = list(MERMAID[language].values())
    for group in result.groups:
        texts += [group.name, *(h.name for h in group.heads)]
        texts += [line.token for line in group.lines]
    texts += list(KO.values())
    for text in texts:
        for word in re.split(r"[ _]", text.replace("{n}", "")):
            if len(word) > 1:
                found.add(word)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("probe", list(PROBES))
def test_no_word_id_or_item_is_broken_across_lines(probe: str, language: str) -> None:
    graphs, result = _graphs(probe, language)
    words = _words(result, language)
    broken = []
    for graph in graphs:
        for ident, lines in graph.boxes.items():
            for above, below in itertools.pairwise(lines):
                assert not above.endswith(" ·"), lines
                assert not below.startswith("·"), lines
                for word in words:
                    for cut in range(1, len(word)):
                        if above.endswith(word[:cut]) and below.startswith(word[cut:]):
                            broken.append(f"{ident}: {above!r} / {below!r} splits {word!r}")
            # A weights line is one item: the token and its weight on one line.
            for line in lines:
                assert not re.fullmatch(r"-?\d[\d.,%]*", line) or ident[0] in "rcs", (ident, lines)
    assert not broken, "\n".join(broken)


def test_the_broken_word_check_can_fail() -> None:
    """A planted mid-word break (``씌 / 우지``) is found by the same scan."""
    words = {"씌우지"}
    above, below = "절연캡 · 씌", "우지 · 그것"
    assert any(
        above.endswith(w[:cut]) and below.startswith(w[cut:])
        for w in words
        for cut in range(1, len(w))
    )


def test_long_candidate_lists_break_between_items_only() -> None:
    items = [f"L{i:02d}" for i in range(1, 41)]
    lines = wrap_items(items, 20.0)
    assert len(lines) > 1
    assert [item for line in lines for item in line.split(" · ")] == items
    assert all(em(line) <= 20.0 for line in lines)


def test_words_break_at_spaces_and_after_underscores_only() -> None:
    lines = wrap_words("decision_vs_condition_split", 8.0)
    assert len(lines) > 1
    assert "".join(lines) == "decision_vs_condition_split"
    assert all(line.endswith("_") for line in lines[:-1])
    assert wrap_words("가장 많이 다시 읽는 토큰", 6.0) == ["가장 많이", "다시 읽는", "토큰"]
    assert wrap_words("씌우지", 1.0) == ["씌우지"]  # one word wider than the room stays whole


def test_rows_are_as_even_as_can_be() -> None:
    assert [len(r) for r in balanced(5, 3)] == [3, 2]
    assert [len(r) for r in balanced(4, 3)] == [2, 2]
    assert [len(r) for r in balanced(7, 3)] == [3, 2, 2]
    assert [len(r) for r in balanced(2, 3)] == [2]
    assert [len(r) for r in balanced(3, 2, fuller_last=True)] == [1, 2]


def test_the_separation_stands_under_both_heads_it_compares() -> None:
    for probe in ("chapter-heads", "four-heads"):
        for language in LANGUAGES:
            graphs, _ = _graphs(probe, language)
            for graph in graphs:
                if "s" in graph.boxes:
                    assert len([a for a, b in graph.edges if b == "s"]) == 2, graph.source


def test_five_targets_are_two_diagrams_and_say_which_part() -> None:
    result, labels = _targets(Labels())
    sources = mermaid_diagrams(result, labels, text=MERMAID["ko"], page_text=MERMAID["en"])
    assert len(sources) >= 2
    assert "  accTitle: How the target tokens of doc re-read the candidates" in sources[0]
    assert f"  accDescr: part 1 of {len(sources)}; current token: 그것" in sources[0]
    first, second = read(sources[0]), read(sources[1])
    assert "doc" in first.boxes
    assert "doc" not in second.boxes
    assert second.boxes["cand"] == ["후보 토큰"]  # the later parts name the candidates only


def test_accessible_text_is_one_line_without_markup() -> None:
    result = document(["<b>x</b>\nevil %%{init}%%"], ["a", "b"])
    [source] = mermaid_diagrams(result, Labels())
    for line in source.splitlines():
        if line.startswith("  acc"):
            assert not set("<{") & set(line), line
            assert "%%" not in line, line
