"""One chain drawing for every layout whose readers stand in columns (targets, questions): the
same rows read with the same weights give the same weights box whichever layout reads them, and
the box's ranking and "N others" total follow the weights (checked against a plain computation)."""

from __future__ import annotations

import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingResult
from mkdocs_selfattn.render.figure_text import ALL_ITEMS
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.mermaid import DEFAULT_TEXT, mermaid_diagrams
from mkdocs_selfattn.render.mermaid_nodes import TOP_LIMIT, weight_items

_WEIGHT_NODE = re.compile(r'w0\["([^"]*)"\]')


def _normalised(values: list[float]) -> tuple[float, ...]:
    total = math.fsum(values)
    return tuple(v / total for v in values)


def _target_document(tokens: list[str], weights: tuple[float, ...]) -> ReadingResult:
    lines = tuple(Line(t, "r", i, (), (1.0,)) for i, t in enumerate(tokens))
    head = HeadResult("T", "score", False, (0.0,) * len(tokens), weights, (0.5,), (0.1,))
    group = GroupResult("T", lines, (0.4,), (head,), ((0.0,),))
    return ReadingResult(
        "s", "targets", len(tokens), "D", len(tokens), (), (("v", ("v",)),), 1.0, (group,)
    )


def _question_reading(tokens: list[str], weights: tuple[float, ...]) -> ReadingResult:
    lines = tuple(Line(t, "", i, (), (1.0,)) for i, t in enumerate(tokens))
    head = HeadResult("Q", "score", False, weights, weights, (0.5,), (0.1,))
    group = GroupResult("", lines, (0.4,), (head,), ((0.0,),))
    return ReadingResult(
        "s", "questions", len(tokens), None, len(tokens), (), (("v", ("v",)),), 1.0, (group,)
    )


def _weights_box(source: str) -> str:
    found = _WEIGHT_NODE.search(source)
    assert found, source
    return found.group(1)


weights_lists = st.lists(
    st.sampled_from([0.0, 0.125, 0.25, 0.5, 1.0, 3.0]), min_size=1, max_size=60
).filter(lambda v: sum(v) > 0)


@settings(max_examples=60, deadline=None)
@given(raw=weights_lists, top=st.integers(1, 25), fmt=st.sampled_from([None, ".1%", ".3f"]))
def test_a_target_and_a_question_with_the_same_weights_draw_the_same_weights_box(
    raw: list[float], top: int, fmt: str | None
) -> None:
    weights = _normalised(raw)
    tokens = [f"L{i:02d}" for i in range(len(weights))]
    target = mermaid_diagrams(
        _target_document(tokens, weights), Labels(), top=top, number_format=fmt
    )
    question = mermaid_diagrams(
        _question_reading(tokens, weights), Labels(), top=top, number_format=fmt
    )
    assert _weights_box(target[0]) == _weights_box(question[0])


@settings(max_examples=80, deadline=None)
@given(raw=weights_lists, top=st.integers(1, 25))
def test_weight_items_rank_the_heaviest_first_and_sum_the_others(
    raw: list[float], top: int
) -> None:
    weights = _normalised(raw)
    items = weight_items(lambda i: f"L{i}", weights, top, DEFAULT_TEXT, ".6f")
    shown = min(top, TOP_LIMIT, len(weights))
    ranked = sorted(range(len(weights)), key=lambda i: (-weights[i], i))[:shown]
    assert [item[0].split()[0] for item in items[:shown]] == [f"L{i}" for i in ranked]
    if len(weights) > ALL_ITEMS:
        rest = [i for i in range(len(weights)) if i not in set(ranked)]
        (last,) = items[shown:]
        assert last[0] == f"{len(rest)} others {sum(weights[i] for i in rest):.6f}"
    else:
        assert len(items) == shown
