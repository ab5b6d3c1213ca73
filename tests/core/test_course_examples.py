"""P5-13.1 and P5-13.3 groundwork: the published CSVs, the example scripts and the reference.

The course data's README (a copy in ``tests/golden/course-data/``, so a fresh clone runs these
tests; ``.ci/check-course-data`` compares it and the CSVs with the lead's ``../shared`` when that
folder is there) shows what each chapter's script prints; the scripts must print exactly that,
and the same text must come out of ``tests/reference_layouts.py`` for any data of the same shape,
so the engine can later be held to the reference instead of to one file.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reference_layouts import (
    GivenWeightError,
    format_heads,
    format_questions,
    given_weights,
    head_layout,
    question_layout,
)

ROOT = Path(__file__).resolve().parents[2]
COURSE_README = ROOT / "tests" / "golden" / "course-data" / "README.md"
ASSETS = Path("docs/assets/part-05/chapter-13")
MANUAL = "attention-operating-manual-candidates.csv"
REPORTS = "qkv-multihead-report-scenarios.csv"
MANUAL_SCRIPT = Path("docs/examples/attention_manual_lines.py")
HEADS_SCRIPT = Path("docs/examples/multihead_report_scenarios.py")

QUERIES = {
    "What is the pressure-release holding time?": "score_pressure_hold",
    "What is the coolant-flow criterion?": "score_flow_limit",
    "What are the restart approval conditions?": "score_restart_permission",
}
HEADS = {"single_head": "single_weight", "head1": "head1_weight", "head2": "head2_weight"}
AXES = {
    "decision_axis": ["decision_axis"],
    "evidence_condition_axis": ["evidence_axis", "condition_axis"],
}
FOCUS = "ops_pressure_return"


def read_rows(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def manual_rows() -> list[dict[str, str]]:
    return read_rows((ROOT / ASSETS / MANUAL).read_bytes())


def report_rows() -> list[dict[str, str]]:
    return read_rows((ROOT / ASSETS / REPORTS).read_bytes())


def expected_manual(rows: Sequence[dict[str, str]]) -> str:
    return format_questions(question_layout(rows, QUERIES, "evidence_signal"), rows)


def expected_heads(rows: Sequence[dict[str, str]]) -> str:
    focus = [row for row in rows if row["report_id"] == FOCUS]
    return format_heads(head_layout(focus, HEADS, AXES), len(rows), len(focus))


def readme_blocks() -> list[str]:
    text = COURSE_README.read_text(encoding="utf-8")
    return re.findall(r"^```text\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def run(script: Path, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / script)],
        cwd=cwd,
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    return done.stdout.decode("utf-8")


# ------------------------------------------------------------------------ the published data


def test_reference_gives_the_numbers_the_readme_names() -> None:
    rows = manual_rows()
    questions = question_layout(rows, QUERIES, "evidence_signal")["questions"].values()
    assert [round(q["context"], 3) for q in questions] == [4.685, 9.922, 6.449]
    tops = [[rows[i]["line_id"] for i in q["top"]] for q in questions]
    assert tops == [["L10", "L05", "L07"], ["L13", "L18", "L14"], ["L25", "L26", "L30"]]
    groups = head_layout([r for r in report_rows() if r["report_id"] == FOCUS], HEADS, AXES)
    separations = [g["separations"]["head1", "head2"] for g in groups["groups"].values()]
    assert [round(s, 3) for s in separations] == [0.335, 1.14, 0.25]
    assert list(groups["groups"]) == [
        "balanced_heads",
        "decision_vs_condition_split",
        "condition_heavy_both_heads",
    ]


def test_reference_printouts_start_with_the_readme_blocks() -> None:
    questions_block, heads_block = readme_blocks()
    assert expected_manual(manual_rows()).startswith(questions_block + "\n")
    assert expected_heads(report_rows()).startswith(heads_block)


# ----------------------------------------------------------------------------- the scripts


@pytest.fixture(scope="module")
def script_outputs() -> dict[str, str]:
    return {MANUAL: run(MANUAL_SCRIPT, ROOT), REPORTS: run(HEADS_SCRIPT, ROOT)}


@pytest.mark.slow
def test_manual_script_prints_the_reference(script_outputs: dict[str, str]) -> None:
    out = script_outputs[MANUAL]
    assert out == expected_manual(manual_rows())
    assert out.startswith(readme_blocks()[0] + "\nquestion = What is the coolant-flow")
    assert out.count("\n\n") == len(QUERIES)
    assert out.endswith("signal = 6.6\n\n")


@pytest.mark.slow
def test_heads_script_prints_the_reference(script_outputs: dict[str, str]) -> None:
    out = script_outputs[REPORTS]
    assert out == expected_heads(report_rows())
    assert out.startswith(readme_blocks()[1] + "[decision_vs_condition_split]\n")
    assert "head1_context       = [1.2, 0.85]\n" in out
    assert out.endswith("head_separation = 0.25\n\n")


def csv_text(header: Sequence[str], rows: Sequence[Sequence[str]], bom: bool) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n" if bom else "\n")
    writer.writerow(header)
    writer.writerows(rows)
    return ("\ufeff" if bom else "").encode() + buffer.getvalue().encode("utf-8")


def run_on(script: Path, name: str, data: bytes) -> str:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / ASSETS).mkdir(parents=True)
        (Path(folder) / ASSETS / name).write_bytes(data)
        return run(script, Path(folder))


# Cells as an author may write them: "3.00", "-0.5", "7".
decimal_cells = st.builds(
    lambda n, style: style.format(n / 4),
    st.integers(-48, 48),
    st.sampled_from(["{:.2f}", "{:g}", "{}", "{:.1f}"]),
)
line_text = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), min_size=1, max_size=12
)


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(
    lines=st.lists(
        st.tuples(line_text, decimal_cells, decimal_cells, decimal_cells, decimal_cells),
        min_size=1,
        max_size=9,
    ),
    bom=st.booleans(),
)
def test_manual_script_on_other_data(
    lines: list[tuple[str, str, str, str, str]], bom: bool
) -> None:
    header = ["line_id", "section", "text", "evidence_signal", *QUERIES.values()]
    table = [[f"M{n}", f"s{n % 3}", text, *cells] for n, (text, *cells) in enumerate(lines)]
    data = csv_text(header, table, bom)
    assert run_on(MANUAL_SCRIPT, MANUAL, data) == expected_manual(read_rows(data))


def head_weights(draw: st.DrawFn, size: int) -> list[str]:
    counts = draw(st.lists(st.integers(0, 9), min_size=size, max_size=size))
    assume(sum(counts) > 0)
    return [f"{c / sum(counts):.17g}" for c in counts]


@st.composite
def report_tables(draw: st.DrawFn) -> list[list[str]]:
    table: list[list[str]] = []
    reports = [FOCUS, *draw(st.lists(st.sampled_from(["r_x", "r_y"]), max_size=2))]
    for report in reports:
        for s in range(draw(st.integers(1, 4))):
            size = draw(st.integers(1, 4))
            columns = [head_weights(draw, size) for _ in HEADS]
            for t in range(size):
                axes = [draw(decimal_cells) for _ in range(3)]
                weights = [column[t] for column in columns]
                table.append([report, f"sc{s}", f"토큰{t}", "role", *axes, *weights])
    return table


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(table=report_tables(), bom=st.booleans())
def test_heads_script_on_other_data(table: list[list[str]], bom: bool) -> None:
    header = ["report_id", "scenario", "token", "relation_role"]
    header += ["decision_axis", "evidence_axis", "condition_axis", *HEADS.values()]
    data = csv_text(header, table, bom)
    assert run_on(HEADS_SCRIPT, REPORTS, data) == expected_heads(read_rows(data))


# ---------------------------------------------- the reference against a direct computation


def exact(cell: str) -> Fraction:
    return Fraction(cell)


@given(
    lines=st.lists(st.tuples(decimal_cells, decimal_cells, decimal_cells), min_size=1, max_size=12),
    k=st.integers(1, 5),
)
def test_questions_agree_with_a_direct_computation(
    lines: list[tuple[str, str, str]], k: int
) -> None:
    rows = [{"v": v, "a": a, "b": b} for v, a, b in lines]
    results = question_layout(rows, {"A": "a", "B": "b"}, "v", k)
    values = [exact(v) for v, _, _ in lines]
    baseline = float(sum(values) / len(values))
    assert results["baseline"] == pytest.approx(baseline, rel=1e-12, abs=1e-12)
    for label, position in (("A", 1), ("B", 2)):
        scores = [exact(line[position]) for line in lines]
        powers = [math.exp(float(s)) for s in scores]  # scores are small: no max to subtract
        weights = [p / math.fsum(powers) for p in powers]
        context = math.fsum(w * float(v) for w, v in zip(weights, values, strict=True))
        got = results["questions"][label]
        assert got["weights"] == pytest.approx(weights, rel=1e-12, abs=1e-300)
        assert got["context"] == pytest.approx(context, rel=1e-9, abs=1e-9)
        assert got["shift"] == pytest.approx(context - baseline, rel=1e-9, abs=1e-9)
        by_score = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        assert got["top"] == by_score[:k]


def test_ties_keep_csv_order_and_cells_parse_as_numbers() -> None:
    written = [{"v": "3.00", "s": "1.50"}, {"v": "-2", "s": "1.5"}, {"v": "4", "s": "+1.5"}]
    plain = [{"v": "3", "s": "1.5"}, {"v": "-2.0", "s": "1.5"}, {"v": "4.0", "s": "1.5"}]
    a = question_layout(written, {"q": "s"}, "v", 2)
    assert a == question_layout(plain, {"q": "s"}, "v", 2)
    assert a["questions"]["q"]["top"] == [0, 1]
    assert a["questions"]["q"]["weights"] == [1 / 3, 1 / 3, 1 / 3]
    out = format_questions(a, [{**r, "line_id": "L", "section": "x"} for r in written], "v")
    assert "L x weight = 0.333 signal = 3.00\n" in out


@pytest.mark.parametrize("cell", ["3.00", "-7.5", "0"])
def test_one_candidate_takes_all_the_weight(cell: str) -> None:
    results = question_layout([{"v": cell, "s": "-40"}], {"q": "s"}, "v")
    assert results["questions"]["q"] == {
        "score_column": "s",
        "weights": [1.0],
        "context": float(cell),
        "shift": 0.0,
        "top": [0],
    }


@given(table=report_tables())
def test_heads_agree_with_exact_arithmetic(table: list[list[str]]) -> None:
    header = ["report_id", "scenario", "token", "role", "d", "e", "c", "w0", "w1", "w2"]
    rows = [dict(zip(header, row, strict=True)) for row in table if row[0] == FOCUS]
    heads = {"h0": "w0", "h1": "w1", "h2": "w2"}
    axes = {"d": ["d"], "ec": ["e", "c"]}
    results = head_layout(rows, heads, axes)
    assert list(results["groups"]) == list(dict.fromkeys(row["scenario"] for row in rows))
    for key, group in results["groups"].items():
        members = [row for row in rows if row["scenario"] == key]
        vectors = [[exact(r["d"]), exact(r["e"]) + exact(r["c"])] for r in members]
        contexts = {}
        for name, column in heads.items():
            weights = [Fraction(float(r[column])) for r in members]
            exact_context = [
                sum(w * v[a] for w, v in zip(weights, vectors, strict=True)) for a in range(2)
            ]
            contexts[name] = [float(x) for x in exact_context]
            assert group["contexts"][name] == pytest.approx(contexts[name], rel=1e-9, abs=1e-12)
        for name in ("h1", "h2"):
            difference = [x - y for x, y in zip(contexts[name], contexts["h0"], strict=True)]
            assert group["differences"][name] == pytest.approx(difference, abs=1e-9)
        for a, b in (("h0", "h1"), ("h0", "h2"), ("h1", "h2")):
            distance = math.dist(contexts[a], contexts[b])
            assert group["separations"][a, b] == pytest.approx(distance, abs=1e-9)


def one_head(cells: Sequence[str], normalise: bool = False) -> list[float]:
    return given_weights([{"w": cell} for cell in cells], "w", "sc1", "head1", normalise)


@given(
    parts=st.lists(st.integers(1, 1000), min_size=1, max_size=5),
    delta=st.floats(-3e-9, 3e-9),
)
def test_given_weights_at_the_sum_tolerance(parts: list[int], delta: float) -> None:
    cells = [repr(p / sum(parts)) for p in parts]
    cells[-1] = repr(float(cells[-1]) + delta)
    total = sum(Fraction(float(cell)) for cell in cells)
    off = abs(total - 1)
    assume(abs(off - Fraction(1, 10**9)) > Fraction(1, 10**13))  # the float sum is not exact
    assume(all(float(cell) >= 0 for cell in cells))
    if off <= Fraction(1, 10**9):
        assert one_head(cells) == [float(cell) for cell in cells]
    else:
        with pytest.raises(GivenWeightError) as caught:
            one_head(cells)
        message = str(caught.value)
        assert "'sc1'" in message
        assert "'head1'" in message
        assert repr(sum(float(cell) for cell in cells)) in message
        normalised = one_head(cells, normalise=True)
        assert math.fsum(normalised) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("cells", "normalise", "says"),
    [
        (["0.5", "nan"], True, "'nan'"),
        (["1.5", "-0.5"], True, "'-0.5'"),
        (["inf", "0"], True, "'inf'"),
        (["0.5", "half"], True, "not a number"),
        (["0.25", "0.25"], False, "sum to 0.5"),
        (["0", "0"], True, "sum to 0.0"),
    ],
)
def test_unusable_given_weights_are_refused_by_name(
    cells: list[str], normalise: bool, says: str
) -> None:
    with pytest.raises(GivenWeightError, match=re.escape(says)) as caught:
        one_head(cells, normalise)
    assert str(caught.value).startswith("group 'sc1', head 'head1': ")
