"""The views' work grows with the data, not with its square (issue 25: ``compare`` took 86 s at
20k candidates, ``chart`` 42.7 s at 50k).

No clock: every read of a candidate's fields and every comparison of two tokens is counted (a
subclass of the result records that counts attribute reads, a ``str`` subclass that counts its
comparisons), at n and 4n candidates. Linear work reads about 4x as often, quadratic
work 16x; the bound (6x) leaves room for constant overheads and cannot flake.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from figure_fixtures import render_mermaid

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingResult
from mkdocs_selfattn.render.chart import chart_words
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.layout_renderers import RENDERERS
from mkdocs_selfattn.render.layout_tables import (
    compare_table,
    question_compare,
    question_tables,
    target_tables,
)

READS = [0]
GROWTH_BOUND = 6.0


def _count(self: object, name: str) -> Any:
    if not name.startswith("__"):
        READS[0] += 1
    return object.__getattribute__(self, name)


class Token(str):
    """A token whose comparisons count: a list searched for it compares it with every item."""

    def __eq__(self, other: object) -> bool:
        READS[0] += 1
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        READS[0] += 1
        return str.__ne__(self, other)

    __hash__ = str.__hash__


@dataclass(frozen=True)
class CountedLine(Line):
    __getattribute__ = _count


def _targets(n: int) -> ReadingResult:
    """Two targets re-reading the same n candidates."""
    weights = tuple(1.0 / n for _ in range(n))
    groups = []
    for t in ("it", "fit"):
        lines = tuple(CountedLine(Token(f"c{k}"), "r", k, (), (0.5, 0.25)) for k in range(n))
        values = tuple(float(k % 7) for k in range(n))
        head = HeadResult(
            t, "score", False, values, weights, (0.5, 0.25), (0.0, 0.0), (("g", 0.5),)
        )
        groups.append(GroupResult(t, lines, (0.5, 0.25), (head,), ((0.0,),)))
    axes = (("a", ("a",)), ("b", ("b",)))
    return ReadingResult("x.csv", "targets", 2 * n, "d", 2 * n, (), axes, 1.0, tuple(groups))


def _questions(n: int) -> ReadingResult:
    """One group of n lines read by two questions."""
    lines = tuple(CountedLine(Token(f"l{k}"), "r", k, (f"l{k}",), (0.5,)) for k in range(n))
    weights = tuple(1.0 / n for _ in range(n))
    heads = tuple(
        HeadResult(q, q, False, weights, weights, (0.5,), (0.0,), (), ()) for q in ("q1", "q2")
    )
    group = GroupResult("", lines, (0.5,), heads, ((0.0, 0.0), (0.0, 0.0)))
    return ReadingResult("x.csv", "questions", n, None, n, ("id",), (("a", ("a",)),), 1.0, (group,))


def _reads(build: Callable[[int], Any], view: Callable[[Any], object], n: int) -> int:
    result = build(n)
    READS[0] = 0
    view(result)
    return READS[0]


VIEWS: dict[str, tuple[Callable[[int], Any], Callable[[Any], object]]] = {
    "compare": (_targets, lambda r: compare_table(r, Labels())),
    "chart": (_targets, lambda r: RENDERERS[r.layout].weights(r, Labels(), None)),
    "chart (check)": (_targets, lambda r: chart_words(Labels(), r)),
    "table": (_targets, lambda r: target_tables(r, Labels())),
    "mermaid": (_targets, lambda r: render_mermaid(r, Labels())),
    "questions compare": (_questions, lambda r: question_compare(r, Labels())),
    "questions table": (_questions, lambda r: question_tables(r, Labels())),
    "questions chart": (_questions, lambda r: RENDERERS[r.layout].weights(r, Labels(), None)),
    "questions mermaid": (_questions, lambda r: render_mermaid(r, Labels())),
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_work_grows_linearly_with_the_candidates(name: str) -> None:
    build, view = VIEWS[name]
    small = _reads(build, view, 500)
    large = _reads(build, view, 2000)
    assert small > 0
    assert large <= GROWTH_BOUND * small, f"{name}: {small} reads at 500, {large} at 2000"
