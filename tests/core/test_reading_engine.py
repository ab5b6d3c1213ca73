"""The questions and heads layouts against the plain-Python reference, bit for bit.

Every case goes through the path a page takes (an example spec → ``jobs.compute``), and is held to
``tests/reading_fixtures.py``, whose records are built by ``tests/reference_layouts.py`` the way the
chapters' scripts compute: same exp, same left-to-right sums, the stable sort. Records are
compared with ``==``, so one differing bit anywhere fails.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reading_fixtures import (
    AXES,
    HEADS,
    HEADS_CSV,
    MANUAL_CSV,
    MANUAL_QUERIES,
    heads_reading,
    manual_reading,
    questions_reading,
    report_reading,
)
from reference_layouts import GivenWeightError

from mkdocs_selfattn.blocks.spec import ExampleSpec
from mkdocs_selfattn.build.jobs import ComputeRequest, compute
from mkdocs_selfattn.core.readings import ReadingResult, separation
from mkdocs_selfattn.errors import DataError

HYPOTHESIS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def spec(**fields: object) -> ExampleSpec:
    frozen = {
        k: MappingProxyType(dict(v)) if isinstance(v, Mapping) else v for k, v in fields.items()
    }
    frozen.setdefault("document", None)
    return ExampleSpec(id="x", csv="x.csv", line=1, **frozen)  # type: ignore[arg-type]


def run(text: str, source: str, **fields: object) -> ReadingResult:
    result = compute(ComputeRequest.of("k", spec(**fields), text.encode("utf-8"), source))
    assert isinstance(result, ReadingResult)
    return result


def manual(text: str, **extra: object) -> ReadingResult:
    return run(
        text,
        "manual.csv",
        queries=MANUAL_QUERIES,
        columns={"candidate": "line_id", "role": "section"},
        vectors=("evidence_signal",),
        **extra,
    )


def report(text: str, document: str = "ops_pressure_return", **extra: object) -> ReadingResult:
    return run(
        text,
        "heads.csv",
        document=document,
        heads=HEADS,
        axes={name: tuple(cols) for name, cols in AXES.items()},
        columns={
            "document": "report_id",
            "group": "scenario",
            "candidate": "token",
            "role": "relation_role",
        },
        **extra,
    )


def test_the_course_files_match_the_reference_records() -> None:
    assert manual(MANUAL_CSV.read_text(encoding="utf-8")) == manual_reading()
    assert report(HEADS_CSV.read_text(encoding="utf-8")) == report_reading()


def test_every_report_of_the_course_file_matches() -> None:
    text = HEADS_CSV.read_text(encoding="utf-8")
    reports = dict.fromkeys(row["report_id"] for row in csv.DictReader(io.StringIO(text)))
    assert len(reports) == 4
    for name in reports:
        assert report(text, name) == heads_reading(text, document=name), name


@pytest.mark.parametrize("shuffled", [False, True], ids=["grouped", "interleaved"])
def test_worker_threads_change_no_bit_of_a_reading(
    shuffled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one engine runs a large table's baselines and half its groups on worker threads,
    for every layout: forced onto threads, a reading is the reference's to the last bit (rows
    interleaved take the gathering path, listed together the reshaping one)."""
    import random

    from mkdocs_selfattn.core import attention

    header, *rows = HEADS_CSV.read_text(encoding="utf-8").rstrip("\n").split("\n")
    if shuffled:
        random.Random(7).shuffle(rows)
    text = "\n".join([header, *rows]) + "\n"
    monkeypatch.setattr(attention, "PARALLEL_ROWS", 1)
    assert report(text) == heads_reading(text, document="ops_pressure_return")
    assert manual(MANUAL_CSV.read_text(encoding="utf-8")) == manual_reading()
    assert report(text, normalise=True) == report(text)  # the file's weights already sum to 1


def test_named_groups_sum_their_lines_weights() -> None:
    groups = {"pressure_lines": ["L04", "L05", "L10"], "one": ["L40"]}
    text = MANUAL_CSV.read_text(encoding="utf-8")
    got = manual(text, groups={k: tuple(v) for k, v in groups.items()})
    assert got == questions_reading(text, groups=groups)
    head = got.groups[0].head("score_pressure_hold")
    assert dict(head.groups)["one"] == head.weights[-1]


# ---------------------------------------------------------------------------------------------
# Generated files: any numbers, written in any of the ways a CSV may write them.

CELL_STYLES = (repr, lambda x: f"{x:.2f}", lambda x: f"{x:.3e}", lambda x: f"{x:.6g}")
numbers = st.floats(min_value=-50, max_value=50, allow_nan=False, allow_infinity=False)
small = st.sampled_from([0.0, 1.0, 2.9, 3.0, -1.5])  # many ties


def _cell(value: float, style: int) -> str:
    return CELL_STYLES[style](value)


@st.composite
def manual_files(draw: st.DrawFn) -> str:
    n = draw(st.integers(min_value=1, max_value=9))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["line_id", "section", "text", "evidence_signal", *MANUAL_QUERIES.values()])
    for i in range(n):
        cells = [draw(st.one_of(numbers, small)) for _ in range(4)]
        styles = [draw(st.integers(0, len(CELL_STYLES) - 1)) for _ in range(4)]
        writer.writerow(
            [
                f"L{i:02d}",
                draw(st.sampled_from(["pressure", "flow", "restart"])),
                "a line, with a comma",
                *(_cell(v, s) for v, s in zip(cells, styles, strict=True)),
            ]
        )
    return out.getvalue()


@HYPOTHESIS
@given(manual_files())
@example(
    "line_id,section,text,evidence_signal,score_pressure_hold,score_flow_limit,"
    "score_restart_permission\nL01,p,x,3.00,1,1,-2\n"
)
@example(
    "line_id,section,text,evidence_signal,score_pressure_hold,score_flow_limit,"
    "score_restart_permission\nL01,p,x,3.00,1,1,-2\nL02,p,y,3,1,1.0,-2.00\n"
)
def test_questions_agree_with_the_reference(text: str) -> None:
    got = manual(text)
    assert got == questions_reading(text)
    for head in got.groups[0].heads:
        # A stable top: on equal weights the earlier line first.
        top = head.top(3)
        assert (
            list(top)
            == sorted(range(len(head.weights)), key=lambda i: head.weights[i], reverse=True)[:3]
        )
    # Cells stay as written: "3.00" is printed as "3.00", computed as 3.0.
    rows = list(csv.reader(io.StringIO(text)))[1:]
    assert [line.cells for line in got.groups[0].lines] == [tuple(r) for r in rows]


def _split(total: float, parts: int, draw: st.DrawFn) -> list[float]:
    cuts = sorted(draw(st.floats(0, 1)) for _ in range(parts - 1))
    edges = [0.0, *cuts, 1.0]
    return [(b - a) * total for a, b in itertools.pairwise(edges)]


@st.composite
def head_files(draw: st.DrawFn) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "report_id",
            "scenario",
            "token",
            "relation_role",
            "decision_axis",
            "evidence_axis",
            "condition_axis",
            "single_weight",
            "head1_weight",
            "head2_weight",
        ]
    )
    for report_id in ("ops_pressure_return", "other"):
        for scenario in draw(
            st.lists(st.sampled_from("abcd"), min_size=1, max_size=3, unique=True)
        ):
            tokens = draw(st.integers(1, 4))
            weights = [_split(1.0, tokens, draw) for _ in range(3)]
            for t in range(tokens):
                vector = [draw(st.one_of(numbers, small)) for _ in range(3)]
                style = draw(st.integers(0, 1))  # exact: weights must still sum to 1
                writer.writerow(
                    [
                        report_id,
                        scenario,
                        f"tok{t}",
                        "role",
                        *(_cell(v, style) for v in vector),
                        *(repr(w[t]) for w in weights),
                    ]
                )
    return out.getvalue()


@HYPOTHESIS
@given(head_files())
def test_heads_agree_with_the_reference(text: str) -> None:
    try:
        expected = heads_reading(text)
    except GivenWeightError:
        with pytest.raises(DataError, match="sum to"):
            report(text)
        return
    assert report(text) == expected


# ---------------------------------------------------------------------------------------------
# Given weights at the sum tolerance.

HEAD_HEADER = "report_id,scenario,token,relation_role,decision_axis,evidence_axis,condition_axis,"
ONE_HEAD = {"single_head": "single_weight"}


def _weights_file(weights: Sequence[float]) -> str:
    rows = [f"r,s,t{i},x,1.0,{i}.5,-2,{w!r}" for i, w in enumerate(weights)]
    return HEAD_HEADER + "single_weight\n" + "\n".join(rows) + "\n"


def _one_head(text: str, **extra: object) -> ReadingResult:
    return run(
        text,
        "w.csv",
        document="r",
        heads=ONE_HEAD,
        axes={"a": ("decision_axis",), "b": ("evidence_axis", "condition_axis")},
        columns={
            "document": "report_id",
            "group": "scenario",
            "candidate": "token",
            "role": "relation_role",
        },
        **extra,
    )


def _reference(text: str, normalise: bool = False) -> ReadingResult | None:
    from reference_layouts import given_weights

    rows = list(csv.DictReader(io.StringIO(text)))
    try:
        given_weights(rows, "single_weight", "s", "single_head", normalise)
    except GivenWeightError:
        return None
    return (
        heads_reading(
            text,
            document="r",
            heads=ONE_HEAD,
            axes={"a": ["decision_axis"], "b": ["evidence_axis", "condition_axis"]},
            source="w.csv",
        )
        if not normalise
        else None
    )


@pytest.mark.parametrize("off", [0.0, 1e-9, -1e-9, 0.9e-9, -0.9e-9, 1.2e-9, -1.2e-9, 1e-6, -0.2])
def test_given_weights_pass_within_1e_9_of_one_and_fail_beyond(off: float) -> None:
    weights = [0.25, 0.5, 0.25 + off]
    text = _weights_file(weights)
    expected = _reference(text)
    if abs(sum(weights) - 1.0) <= 1e-9:
        assert expected is not None
        assert _one_head(text) == expected
        assert _one_head(text).groups[0].heads[0].weights == tuple(weights)
    else:
        assert expected is None
        with pytest.raises(DataError) as caught:
            _one_head(text)
        message = str(caught.value)
        assert "group 's', head 'single_head'" in message
        assert f"sum to {sum(weights)!r}" in message
        assert "normalise: true" in message
        assert caught.value.line == 2
        assert caught.value.key == "heads"


def test_normalise_divides_by_the_sum_as_the_reference_does() -> None:
    from reference_layouts import given_weights

    weights = [2.0, 5.0, 3.0]
    text = _weights_file(weights)
    got = _one_head(text, normalise=True).groups[0].heads[0]
    rows = list(csv.DictReader(io.StringIO(text)))
    expected = given_weights(rows, "single_weight", "s", "single_head", normalise=True)
    assert got.weights == tuple(expected)
    assert got.values == tuple(weights)  # the column as written
    # Within the tolerance nothing is divided, normalise or not.
    near = [0.25, 0.5, 0.25 + 5e-10]
    assert _one_head(_weights_file(near), normalise=True).groups[0].heads[0].weights == tuple(near)


def test_normalise_cannot_save_an_all_zero_head() -> None:
    with pytest.raises(DataError, match=r"sum to 0\.0.*at least one weight above 0"):
        _one_head(_weights_file([0.0, 0.0]), normalise=True)


def test_a_negative_given_weight_names_its_line_column_and_cell() -> None:
    text = _weights_file([0.5, 0.75, -0.25])
    with pytest.raises(DataError) as caught:
        _one_head(text)
    error = caught.value
    assert (error.line, error.column) == (4, "single_weight")
    assert "'-0.25'" in error.message
    assert "≥ 0" in error.message
    assert str(error).startswith("w.csv:4: column 'single_weight': ")


def test_one_candidate_gets_the_whole_weight() -> None:
    text = (
        "line_id,section,text,evidence_signal,score_pressure_hold,score_flow_limit,"
        "score_restart_permission\nL01,p,x,-7.25,1e300,-1e300,0\n"
    )
    got = manual(text)
    assert got == questions_reading(text)
    assert all(h.weights == (1.0,) and h.context == (-7.25,) for h in got.groups[0].heads)


# ---------------------------------------------------------------------------------------------
# One engine: the layouts are cases of each other.


def test_questions_split_by_document_and_group_read_each_group_alone() -> None:
    text = HEADS_CSV.read_text(encoding="utf-8")
    queries = {"by single": "single_weight", "by head2": "head2_weight"}
    got = run(
        text,
        "heads.csv",
        document="shift_alarm_hold",
        queries=queries,
        vectors=("decision_axis", "condition_axis"),
        columns={"document": "report_id", "group": "scenario", "candidate": "token"},
    )
    header, *rows = text.split("\n")
    assert got.document_rows == 9
    assert [g.name for g in got.groups] == [
        "balanced_heads",
        "decision_vs_condition_split",
        "condition_heavy_both_heads",
    ]
    for group in got.groups:
        members = [r for r in rows if r.startswith(f"shift_alarm_hold,{group.name},")]
        alone = questions_reading(
            "\n".join([header, *members]) + "\n",
            queries=queries,
            value="decision_axis",
            candidate="token",
            role=None,
        )
        # The same softmax over the group's own rows (weights bit for bit) …
        assert [h.weights for h in group.heads] == [h.weights for h in alone.groups[0].heads]
        assert [h.values for h in group.heads] == [h.values for h in alone.groups[0].heads]
        # … and the first axis's context as the single-value reference computes it.
        assert [h.context[0] for h in group.heads] == [h.context[0] for h in alone.groups[0].heads]


def test_the_targets_layout_is_the_questions_layout_grouped_by_target() -> None:
    from figure_fixtures import compute_document

    from mkdocs_selfattn.core.csv_read import parse_table

    course = MANUAL_CSV.parent / "self-attention-safety-memo-candidates.csv"
    vectors = ("evidence_pack", "evidence_cap", "evidence_action")
    targets = compute_document(
        parse_table(course.read_bytes(), source="c.csv", vectors=vectors),
        "memo_cap_missing",
        temperature=0.7,
    )
    reading = run(
        course.read_text(encoding="utf-8"),
        "c.csv",
        document="memo_cap_missing",
        queries={"score": "score"},
        vectors=vectors,
        temperature=0.7,
        columns={"group": "target_token"},
    )
    assert [g.name for g in reading.groups] == [t.target for t in targets.targets]
    for group, target in zip(reading.groups, targets.targets, strict=True):
        (head,) = group.heads
        assert head.weights == tuple(c.weight for c in target.candidates)
        assert head.context == target.context
        assert group.head("score").top(1) == (
            [c.token for c in target.candidates].index(target.top),
        )


def test_huge_numbers_stay_finite_or_are_refused_with_the_group() -> None:
    huge = _weights_file([0.5, 0.5]).replace(",1.0,", ",1.7e308,")
    got = _one_head(huge)
    assert got.groups[0].heads[0].context[0] == 1.7e308
    text = (
        "line_id,section,text,evidence_signal,score_pressure_hold,score_flow_limit,"
        "score_restart_permission\nL01,p,x,1.7e308,1e308,-1e308,0\nL02,p,y,1.5e308,-1e308,1e308,0\n"
    )
    got, naive = manual(text), questions_reading(text)
    assert [h.weights for h in got.groups[0].heads] == [h.weights for h in naive.groups[0].heads]
    assert [h.context for h in got.groups[0].heads] == [h.context for h in naive.groups[0].heads]
    # The plain sum overflows (the reference says inf): the core takes the mean scaled.
    assert naive.groups[0].baseline == (math.inf,)
    assert got.groups[0].baseline == (1.6e308,)
    far = HEAD_HEADER + "w1,w2\nr,s,t0,x,1e200,0,0,1,0\nr,s,t1,x,-1e200,0,0,0,1\n"
    apart = run(
        far,
        "w.csv",
        document="r",
        heads={"a": "w1", "b": "w2"},
        axes={"d": ("decision_axis",)},
        columns={"document": "report_id", "group": "scenario", "candidate": "token"},
    )
    assert apart.groups[0].separation("a", "b") == 2e200  # its square is past the range
    two_heads = HEAD_HEADER + "w1,w2\nr,s,t0,x,1.7e308,0,0,1,0\nr,s,t1,x,-1.7e308,0,0,0,1\n"
    with pytest.raises(DataError, match="group 's' is beyond the largest float"):
        run(
            two_heads,
            "w.csv",
            document="r",
            heads={"a": "w1", "b": "w2"},
            axes={"d": ("decision_axis",)},
            columns={"document": "report_id", "group": "scenario", "candidate": "token"},
        )


def test_an_axis_summing_past_the_largest_float_is_refused_at_its_row() -> None:
    """Each cell is finite, their sum is not: one message naming the axis and the row, not an
    infinite vector (or a numpy warning)."""
    text = HEAD_HEADER + "w1\nr,s,t0,x,1,2,3,1\nr,s,t1,x,8e294,1.7976931348622359e308,0,0\n"
    with pytest.raises(DataError) as caught:
        run(
            text,
            "w.csv",
            document="r",
            heads={"a": "w1"},
            axes={"d": ("decision_axis", "evidence_axis")},
            columns={"document": "report_id", "group": "scenario", "candidate": "token"},
        )
    error = caught.value
    assert (error.line, error.key) == (3, "axes")
    assert "axis 'd' adds 'decision_axis', 'evidence_axis' left to right" in str(error)
    assert "past the float range (about ±1.8e308)" in str(error)


AXIS_FILE = HEAD_HEADER + "w1\nr,s,t0,x,1,1,1,1\nr,s,t1,x,{},{},{},0\n"


@pytest.mark.parametrize(
    ("cells", "order", "refused"),
    [
        (("-1e308", "-1e308", "0"), ("decision_axis", "evidence_axis"), True),  # below the range
        (("1e308", "1e308", "-1e308"), ("decision_axis", "evidence_axis", "condition_axis"), True),
        (("1e308", "1e308", "-1e308"), ("decision_axis", "condition_axis", "evidence_axis"), False),
        (("1e308", "1e308", "0"), ("decision_axis",), False),
    ],
)
def test_an_axis_is_added_left_to_right_as_a_script_adds_it(
    cells: tuple[str, str, str], order: tuple[str, ...], refused: bool
) -> None:
    """The axis is the script's ``sum()`` of its columns in their order: where that running sum
    leaves the float range the example is refused (a script would print inf); the same cells in
    an order whose every partial sum is finite are computed."""
    text = AXIS_FILE.format(*cells)
    columns = {"document": "report_id", "group": "scenario", "candidate": "token"}
    ask = {"document": "r", "heads": {"a": "w1"}, "axes": {"d": order}, "columns": columns}
    if refused:
        with pytest.raises(DataError, match="past the float range"):
            run(text, "w.csv", **ask)
        return
    result = run(text, "w.csv", **ask)
    expected = sum(
        float(cells[["decision_axis", "evidence_axis", "condition_axis"].index(c)]) for c in order
    )
    assert result.groups[0].lines[1].vector == (expected,)


@st.composite
def strength_files(draw: st.DrawFn) -> str:
    """Unnormalised strengths (any sum, zeros and "2.00"-style cells), one report."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["report_id", "scenario", "token", "relation_role", "decision_axis",
                     "evidence_axis", "condition_axis", *HEADS.values()])  # fmt: skip
    for scenario in draw(st.lists(st.sampled_from("xyz"), min_size=1, max_size=3, unique=True)):
        for t in range(draw(st.integers(1, 4))):
            vector = [draw(numbers) for _ in range(3)]
            strengths = [draw(st.sampled_from([0, 1, 2, 3, 0.5, 7.25])) for _ in HEADS]
            style = draw(st.integers(0, 1))
            writer.writerow(
                ["r", scenario, f"t{t}", "role", *(repr(v) for v in vector),
                 *(f"{w:.2f}" if style else repr(float(w)) for w in strengths)]
            )  # fmt: skip
    return out.getvalue()


@HYPOTHESIS
@given(strength_files())
def test_normalised_heads_agree_with_the_reference(text: str) -> None:
    from reference_layouts import head_layout

    rows = list(csv.DictReader(io.StringIO(text)))
    try:
        expected = head_layout(rows, HEADS, AXES, normalise=True)
    except GivenWeightError:
        with pytest.raises(DataError, match="at least one weight above 0"):
            report(text, "r", normalise=True)
        return
    got = report(text, "r", normalise=True)
    assert [g.name for g in got.groups] == list(expected["groups"])
    for group in got.groups:
        want = expected["groups"][group.name]
        for head in group.heads:
            assert list(head.weights) == want["weights"][head.name]
            assert list(head.context) == want["contexts"][head.name]
            assert head.values == tuple(float(row[head.column]) for row in want["rows"])
        # The records' distance is the chapter script's (a - b) * (a - b), not head_layout's
        # (a - b) ** 2, which libm's pow may round differently.
        pair = (tuple(want["contexts"]["head1"]), tuple(want["contexts"]["head2"]))
        assert group.separation("head1", "head2") == separation(*pair)


@HYPOTHESIS
@given(st.randoms(use_true_random=False))
def test_interleaved_rows_group_by_first_appearance(rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    header, *rows = HEADS_CSV.read_text(encoding="utf-8").rstrip("\n").split("\n")
    rng.shuffle(rows)  # groups split up, in any order
    text = "\n".join([header, *rows]) + "\n"
    for name in ("ops_pressure_return", "code_guard_flow"):
        assert report(text, name) == heads_reading(text, document=name)


def test_a_question_may_read_the_column_the_role_takes_by_default() -> None:
    # `candidate_role` is the role only when the block does not map one and no reader reads it.
    text = "line_id,evidence,candidate_role\nL1,1,0.5\nL2,2,1.5\n"
    result = run(
        text,
        "q.csv",
        queries={"a": "candidate_role"},
        columns={"candidate": "line_id"},
        vectors=("evidence",),
    )
    [group] = result.groups
    assert [line.role for line in group.lines] == ["", ""]
    assert group.heads[0].values == (0.5, 1.5)


@pytest.mark.parametrize(
    ("columns", "queries", "role"),
    [
        ({"candidate": "line_id", "role": "section"}, {"a": "section"}, "role"),
        ({"candidate": "line_id", "group": "score"}, {"a": "score"}, "group"),
        ({"candidate": "line_id"}, {"a": "line_id"}, "candidate"),
    ],
)
def test_a_reader_of_a_text_column_is_refused_naming_its_role(
    columns: dict[str, str], queries: dict[str, str], role: str
) -> None:
    text = "line_id,section,evidence,score\nL1,s,1,1\nL2,s,2,2\n"
    with pytest.raises(DataError) as caught:
        run(text, "q.csv", queries=queries, columns=columns, vectors=("evidence",))
    assert caught.value.key == "queries"
    assert f"which is the {role} column (text)" in str(caught.value)


def test_a_vector_listed_twice_is_refused() -> None:
    with pytest.raises(DataError) as caught:
        run(
            MANUAL_CSV.read_text(encoding="utf-8"),
            "manual.csv",
            queries=MANUAL_QUERIES,
            columns={"candidate": "line_id", "role": "section"},
            vectors=("evidence_signal", "evidence_signal"),
        )
    assert caught.value.key == "vectors"
    assert "'evidence_signal' is listed twice" in str(caught.value)
