"""One reader table for every layout whose readers have a table each (a target, a question): the
same rows read with the same scores and weights give the same table, caption included, whichever
layout reads them."""

from __future__ import annotations

import math

from figure_fixtures import engine_record
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingResult
from mkdocs_selfattn.core.results import CandidateResult, DocumentResult, TargetResult
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.layout_tables import question_tables, target_tables
from mkdocs_selfattn.render.tables import to_html, to_markdown

WORDS = {"target": "reader", "question": "reader", "representation": "context"}

rows_strategy = st.lists(
    st.tuples(
        st.sampled_from(["key", "value", ""]),
        st.floats(-5, 5, allow_nan=False),
        st.sampled_from([0.0, 0.125, 0.25, 1.0, 2.0]),
        st.floats(-3, 3, allow_nan=False),
    ),
    min_size=1,
    max_size=30,
).filter(lambda rows: sum(r[2] for r in rows) > 0)


@settings(max_examples=60, deadline=None)
@given(
    rows=rows_strategy,
    groups=st.lists(st.floats(0, 1, allow_nan=False), max_size=2),
    fmt=st.sampled_from([None, ".1%", ".4f"]),
)
def test_a_target_and_a_question_over_the_same_rows_have_the_same_table(
    rows: list[tuple[str, float, float, float]], groups: list[float], fmt: str | None
) -> None:
    total = math.fsum(r[2] for r in rows)
    weights = [r[2] / total for r in rows]
    tokens = [f"L{i:02d}" for i in range(len(rows))]
    best = min(range(len(rows)), key=lambda i: (-weights[i], i))
    named = tuple((f"part{n}", g) for n, g in enumerate(groups))
    context, shift, baseline = (0.5,), (0.25,), (0.25,)
    cands = tuple(
        CandidateResult(tokens[i], None, role, score, weights[i], (vec,))
        for i, (role, score, _, vec) in enumerate(rows)
    )
    target = TargetResult("Q", None, cands, context, shift, tokens[best], None, named)
    document = DocumentResult("s", len(rows), "D", len(rows), ("v",), 1.0, baseline, (target,))
    lines = tuple(Line(tokens[i], r[0], i, (), (r[3],)) for i, r in enumerate(rows))
    head = HeadResult(
        "Q", "score", False, tuple(r[1] for r in rows), tuple(weights), context, shift, named
    )
    group = GroupResult("", lines, baseline, (head,), ((0.0,),))
    reading = ReadingResult(
        "s", "questions", len(rows), None, len(rows), (), (("v", ("v",)),), 1.0, (group,)
    )
    as_target = target_tables(engine_record(document), Labels(), fmt, WORDS)
    as_question = question_tables(reading, Labels(), fmt, WORDS)
    assert to_markdown(as_target) == to_markdown(as_question)
    assert to_html(as_target) == to_html(as_question)
