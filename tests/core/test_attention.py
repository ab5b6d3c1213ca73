"""The softmax core against the chapter's plain-Python arithmetic, and its invariants.

The reference below is written the way the chapter's script computes one example: ``exp`` on
score differences, Python's left-to-right ``sum()``, the first maximum wins. Its ``exp`` is
``exp_scalar``, the plain-Python twin of the core's portable exp (the chapter's scripts use
``math.exp``, which differs from it by an ulp now and then), so the core must agree with the
reference to the last bit on any machine: the weights and representations are compared with
``==`` besides the tolerances the tests always had.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from figure_fixtures import compute_document
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.core.attention import AttentionResults, compute
from mkdocs_selfattn.core.csv_read import parse_table, read_table
from mkdocs_selfattn.core.portable_exp import exp_scalar
from mkdocs_selfattn.core.results import DocumentResult, TargetResult
from mkdocs_selfattn.core.table import Table
from mkdocs_selfattn.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
COURSE = ROOT / "docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"
INDEXED = ROOT / "data/edge/index_columns_repeated_tokens.csv"
HEADER = (
    "document_id,target_token,candidate_token,candidate_role,"
    "evidence_pack,evidence_cap,evidence_action,score"
)


# ---------------------------------------------------------------------------------------------
# The chapter's way, in plain Python.


@dataclass(frozen=True)
class Reference:
    weights: list[float]
    representation: list[float]
    shift: list[float]
    top: str


def target_of(result: DocumentResult, token: str) -> TargetResult:
    return next(item for item in result.targets if item.target == token)


def reference_baseline(rows: Sequence[dict[str, str]], columns: Sequence[str]) -> list[float]:
    first: dict[str, list[float]] = {}
    for row in rows:
        first.setdefault(row["candidate_token"], [float(row[c]) for c in columns])
    return [
        unbounded_sum([v[j] for v in first.values()], [1.0] * len(first), divide=len(first))
        for j in range(len(columns))
    ]


def unbounded_sum(values: Sequence[float], weights: Sequence[float], divide: int = 1) -> float:
    """Python's left-to-right ``sum(w * v) / divide``; where a running sum overflows (vectors
    near ±1.8e308, whose mean is finite), the exact value, correctly rounded."""
    plain = sum(w * v for w, v in zip(weights, values, strict=True)) / divide
    if math.isfinite(plain):
        return plain
    exact = sum(
        (Fraction(w) * Fraction(v) for w, v in zip(weights, values, strict=True)), Fraction(0)
    )
    # A mean lies between the smallest and largest value (float weights may add up to a hair
    # over 1, which could carry the exact sum past the largest float).
    return float(min(max(exact / divide, Fraction(min(values))), Fraction(max(values))))


def scaled_difference(score: float, largest: float, temperature: float) -> float:
    """(score - largest) / temperature as the chapter's script computes it; where the
    difference alone overflows, the exact quotient (a large temperature brings it back)."""
    difference = score - largest
    if math.isinf(difference):
        exact = (Fraction(score) - Fraction(largest)) / Fraction(temperature)
        return float(exact) if abs(exact) < 2**1023 else -math.inf
    return difference if temperature == 1.0 else difference / temperature


def reference_target(
    rows: Sequence[dict[str, str]],
    columns: Sequence[str],
    baseline: Sequence[float],
    temperature: float = 1.0,
) -> Reference:
    scores = [float(r["score"]) for r in rows]
    largest = max(scores)
    exps = [exp_scalar(scaled_difference(s, largest, temperature)) for s in scores]
    total = sum(exps)
    weights = [e / total for e in exps]
    vectors = [[float(r[c]) for c in columns] for r in rows]
    representation = [unbounded_sum([v[j] for v in vectors], weights) for j in range(len(columns))]
    shift = [r - b for r, b in zip(representation, baseline, strict=True)]
    top = rows[max(range(len(weights)), key=weights.__getitem__)]["candidate_token"]
    return Reference(weights, representation, shift, top)


def course_rows() -> list[dict[str, str]]:
    with open(COURSE, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


VECTORS = ("evidence_pack", "evidence_cap", "evidence_action")


# ---------------------------------------------------------------------------------------------
# Course data, exact.


@pytest.fixture(scope="module")
def course() -> Table:
    return read_table(str(COURSE))


@pytest.mark.parametrize("temperature", [1.0, 0.5, 3.0])
@pytest.mark.parametrize("document", ["memo_cap_missing", "memo_pressure_hold", "memo_flow_alarm"])
def test_course_matches_the_plain_python_reference(
    course: Table, document: str, temperature: float
) -> None:
    rows = [r for r in course_rows() if r["document_id"] == document]
    baseline = reference_baseline(rows, VECTORS)
    result = compute_document(course, document, temperature=temperature)
    assert list(result.baseline) == pytest.approx(baseline, rel=1e-15, abs=0.0)
    targets = list(dict.fromkeys(r["target_token"] for r in rows))
    assert [t.target for t in result.targets] == targets
    for target in result.targets:
        group = [r for r in rows if r["target_token"] == target.target]
        expected = reference_target(group, VECTORS, baseline, temperature)
        assert [c.token for c in target.candidates] == [r["candidate_token"] for r in group]
        assert [c.weight for c in target.candidates] == pytest.approx(
            expected.weights, rel=1e-15, abs=0.0
        )
        assert list(target.context) == pytest.approx(expected.representation, rel=1e-15, abs=0.0)
        assert [c.weight for c in target.candidates] == expected.weights
        assert list(target.context) == expected.representation
        assert list(target.shift) == pytest.approx(expected.shift, abs=1e-15)
        assert target.top == expected.top


def test_course_numbers_as_the_chapter_prints_them(course: Table) -> None:
    result = compute_document(
        course, "memo_cap_missing", groups={"cap_plus_not_applied": ["절연캡", "씌우지"]}
    )
    assert result.csv_rows == 36
    assert result.document_rows == 12
    assert [round(v, 3) for v in result.baseline] == [0.383, 0.475, 0.417]
    it = target_of(result, "그것")
    assert [round(c.weight, 3) for c in it.candidates] == [0.048, 0.079, 0.43, 0.214, 0.087, 0.143]
    assert [round(v, 3) for v in it.context] == [0.203, 0.691, 0.436]
    assert [round(v, 3) for v in it.shift] == [-0.18, 0.216, 0.019]
    assert it.top == "절연캡"
    assert [(name, round(w, 3)) for name, w in it.groups] == [("cap_plus_not_applied", 0.644)]
    action = target_of(result, "씌우지")
    assert [round(c.weight, 3) for c in action.candidates] == [
        0.067,
        0.246,
        0.367,
        0.182,
        0.055,
        0.082,
    ]
    assert [round(v, 3) for v in action.shift] == [-0.056, 0.123, -0.007]
    assert dict(action.groups)["cap_plus_not_applied"] == pytest.approx(0.55, abs=5e-4)


def test_group_weight_is_summed_left_to_right(course: Table) -> None:
    result = compute_document(course, "memo_cap_missing", groups={"g": ["위험", "절연캡", "분리"]})
    target = target_of(result, "그것")
    weights = {c.token: c.weight for c in target.candidates}
    # CSV order (분리, 절연캡, 위험), not the order the group lists them in.
    assert dict(target.groups)["g"] == 0 + weights["분리"] + weights["절연캡"] + weights["위험"]


def test_compute_numbers_groups_by_first_appearance(course: Table) -> None:
    results = compute(course)
    assert results.n_groups == 6
    assert [course.documents[d] for d in results.group_document] == [
        "memo_cap_missing",
        "memo_cap_missing",
        "memo_pressure_hold",
        "memo_pressure_hold",
        "memo_flow_alarm",
        "memo_flow_alarm",
    ]
    assert [course.groups[t] for t in results.group_target] == [
        "그것",
        "씌우지",
        "그것",
        "재기동",
        "그것",
        "해제",
    ]
    assert results.sizes.tolist() == [6] * 6
    assert results.order.tolist() == list(range(36))
    assert results.group_target_index is None


# ---------------------------------------------------------------------------------------------
# Requests the data cannot answer.


def test_unknown_document_lists_the_documents(course: Table) -> None:
    with pytest.raises(DataError) as caught:
        compute_document(course, "memo_missing")
    assert str(caught.value) == (
        f"{COURSE}: document 'memo_missing' not found (did you mean 'memo_cap_missing'?); "
        "the file has "
        "'memo_cap_missing', 'memo_pressure_hold', 'memo_flow_alarm'"
    )


def test_unknown_target_lists_the_documents_targets(course: Table) -> None:
    with pytest.raises(DataError) as caught:
        compute_document(course, "memo_cap_missing", targets=["그것", "재기동"])
    assert str(caught.value) == (
        f"{COURSE}: target(s) '재기동' not found in document 'memo_cap_missing'; "
        "its targets are '그것', '씌우지'"
    )


def test_empty_target_list(course: Table) -> None:
    with pytest.raises(DataError, match="the list of targets is empty"):
        compute_document(course, "memo_cap_missing", targets=[])


def test_group_naming_a_missing_candidate(course: Table) -> None:
    with pytest.raises(DataError) as caught:
        compute_document(course, "memo_cap_missing", groups={"cap": ["절연캡", "펌프"]})
    message = str(caught.value)
    assert message.startswith(
        f"{COURSE}: group 'cap' names '펌프', which is not a candidate of document "
        "'memo_cap_missing'; its candidates are "
    )
    for token in ("배터리팩", "분리", "절연캡", "씌우지", "그것", "위험"):
        assert repr(token) in message


def test_long_listings_are_cut(course: Table) -> None:
    lines = [HEADER] + [f"d{i},t,c,r,0,0,0,1" for i in range(25)]
    table = parse_table("\n".join(lines).encode(), source="many.csv")
    with pytest.raises(DataError, match=r"'d11' … and 13 more$"):
        compute_document(table, "nope")


# ---------------------------------------------------------------------------------------------
# Temperature.


@pytest.mark.parametrize("temperature", [0.0, -1.0, float("nan"), float("inf"), -float("inf")])
def test_bad_temperature_is_refused(course: Table, temperature: float) -> None:
    with pytest.raises(DataError, match="temperature must be a number greater than 0"):
        compute(course, temperature)
    with pytest.raises(DataError, match="temperature must be a number greater than 0"):
        compute_document(course, "memo_cap_missing", temperature=temperature)


def test_temperature_two_equals_halved_scores(course: Table) -> None:
    hot = compute(course, 2.0)
    halved = compute(replace(course, values=course.values / 2))
    # Halving is exact in binary, so (s - max) / 2 and s/2 - max/2 are the same numbers.
    assert np.array_equal(hot.weights, halved.weights)
    assert np.array_equal(hot.context, halved.context)
    assert hot.temperature == 2.0
    assert not np.array_equal(hot.weights, compute(course).weights)


def test_tiny_and_huge_temperatures(course: Table) -> None:
    sharp = compute(course, 1e-300)
    assert np.isfinite(sharp.weights).all()
    # All weight on the top candidate: a one-hot softmax.
    assert sorted(set(sharp.weights.tolist())) == [0.0, 1.0]
    flat = compute(course, 1e300)
    assert flat.weights == pytest.approx(np.full(36, 1 / 6), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Ties, layout, index columns.


def test_ties_go_to_the_first_candidate_in_csv_order() -> None:
    lines = [
        HEADER,
        "m,t,a,r,0,0,0,1.0",
        "m,t,b,r,0,0,0,2.5",
        "m,t,c,r,0,0,0,2.5",
        "m,u,c,r,0,0,0,0.0",
        "m,u,b,r,0,0,0,0.0",
        "m,u,a,r,0,0,0,0.0",
    ]
    result = compute_document(parse_table("\n".join(lines).encode(), source="tie.csv"), "m")
    assert target_of(result, "t").top == "b"
    assert target_of(result, "u").top == "c"
    assert [c.weight for c in target_of(result, "u").candidates] == [1 / 3] * 3


def interleave(data: str) -> str:
    """The same rows, dealt round-robin across groups: no group's rows stay together."""
    header, *rows = data.strip("\n").split("\n")
    groups: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        document, target = row.split(",")[:2]
        groups.setdefault((document, target), []).append(row)
    dealt = []
    for i in range(max(len(g) for g in groups.values())):
        dealt += [g[i] for g in groups.values() if i < len(g)]
    return "\n".join([header, *dealt]) + "\n"


def test_non_contiguous_groups_give_the_same_results(course: Table) -> None:
    text = COURSE.read_text(encoding="utf-8")
    mixed = parse_table(interleave(text).encode(), source=str(COURSE))
    assert mixed.group_codes[:3].tolist() != [0, 0, 0]  # really interleaved
    for document in course.documents:
        expected = compute_document(course, document, groups={"g": ["그것"]})
        assert compute_document(mixed, document, groups={"g": ["그것"]}) == expected
    results = compute(mixed)
    assert results.n_groups == 6
    assert results.sizes.tolist() == [6] * 6
    assert not np.array_equal(results.order, np.arange(36))
    # Inside a group, rows keep CSV order.
    for g in range(results.n_groups):
        rows = results.order[results.starts[g] : results.starts[g] + results.sizes[g]]
        assert np.all(np.diff(rows) > 0)


def test_groups_of_different_sizes() -> None:
    lines = [HEADER]
    for token, size in (("a", 3), ("b", 1), ("c", 5), ("d", 3)):
        lines += [f"m,{token},k{i},r,{i},0,{size},{i * 0.5 - size}" for i in range(size)]
    table = parse_table("\n".join(lines).encode(), source="sizes.csv")
    result = compute_document(table, "m")
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    baseline = reference_baseline(rows, VECTORS)
    for target in result.targets:
        group = [r for r in rows if r["target_token"] == target.target]
        expected = reference_target(group, VECTORS, baseline)
        assert [c.weight for c in target.candidates] == pytest.approx(
            expected.weights, rel=1e-15, abs=0.0
        )
        assert list(target.context) == pytest.approx(expected.representation, rel=1e-15, abs=0.0)
        assert [c.weight for c in target.candidates] == expected.weights
        assert list(target.context) == expected.representation
        assert target.top == expected.top


def test_index_columns_separate_repeated_tokens() -> None:
    table = read_table(str(INDEXED))
    result = compute_document(table, "memo")
    assert [(t.target, t.target_index) for t in result.targets] == [("그것", 2), ("그것", 5)]
    first, second = result.targets
    assert [c.index for c in first.candidates] == [0, 1, 2, 5]
    # Four distinct candidates by (token, position), so 그것@2 and 그것@5 both count.
    assert list(result.baseline) == pytest.approx([(0.9 + 0.8 + 0.3 + 0.5) / 4, 1.1 / 4])
    assert (first.top, first.top_index) == ("그것", 2)
    assert (second.top, second.top_index) == ("그것", 2)
    assert second.candidates[2].role == "earlier_reference"


# ---------------------------------------------------------------------------------------------
# Properties.

HYPOTHESIS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
tokens = st.text(alphabet="가나다라마바사아자차카타파하", min_size=1, max_size=3)
finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
moderate = st.floats(min_value=-50, max_value=50, allow_nan=False)
vector_values = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False)


Member = tuple[str, float, list[float]]


def csv_bytes(groups: Sequence[tuple[str, str, Sequence[Member]]]) -> bytes:
    """One CSV from (document, target, [(candidate, score, vector)]) groups, floats by repr."""
    lines = ["document_id,target_token,candidate_token,candidate_role,v0,v1,score"]
    for document, target, members in groups:
        for token, score, vector in members:
            lines.append(f"{document},{target},{token},r,{vector[0]!r},{vector[1]!r},{score!r}")
    return ("\n".join(lines) + "\n").encode()


@st.composite
def one_group(draw: st.DrawFn, scores: st.SearchStrategy[float] = finite) -> list[Member]:
    size = draw(st.integers(1, 12))
    names = draw(st.lists(tokens, min_size=size, max_size=size, unique=True))
    return [(n, draw(scores), [draw(vector_values), draw(vector_values)]) for n in names]


def group_weights(results: AttentionResults) -> list[list[float]]:
    out = []
    for g in range(results.n_groups):
        rows = results.order[results.starts[g] : results.starts[g] + results.sizes[g]]
        out.append(results.weights[rows].tolist())
    return out


@HYPOTHESIS
@given(st.lists(one_group(), min_size=1, max_size=5))
def test_weights_sum_to_one_per_group(groups: list[list[Member]]) -> None:
    table = parse_table(csv_bytes([("m", f"t{i}", g) for i, g in enumerate(groups)]), source="p")
    results = compute(table)
    assert np.isfinite(results.weights).all()
    assert np.isfinite(results.context).all()
    for weights in group_weights(results):
        assert math.fsum(weights) == pytest.approx(1.0, abs=1e-12)
        assert min(weights) >= 0.0


@HYPOTHESIS
@given(
    one_group(st.integers(-(2**20), 2**20).map(lambda k: k / 64)),
    st.integers(-(2**20), 2**20).map(lambda k: k / 64),
)
def test_adding_a_constant_to_scores_changes_nothing(group: list[Member], constant: float) -> None:
    # Multiples of 1/64 below 2**21 add and subtract exactly, so the results must be identical.
    shifted = [(n, s + constant, v) for n, s, v in group]
    before = compute_document(parse_table(csv_bytes([("m", "t", group)]), source="p"), "m")
    after = compute_document(parse_table(csv_bytes([("m", "t", shifted)]), source="p"), "m")
    assert [c.weight for c in after.targets[0].candidates] == [
        c.weight for c in before.targets[0].candidates
    ]
    assert after.targets[0].context == before.targets[0].context
    assert after.targets[0].top == before.targets[0].top


@HYPOTHESIS
@given(one_group(moderate), st.floats(-1e6, 1e6, allow_nan=False))
def test_adding_any_constant_changes_weights_by_rounding_only(
    group: list[Member], constant: float
) -> None:
    shifted = [(n, s + constant, v) for n, s, v in group]
    before = compute_document(parse_table(csv_bytes([("m", "t", group)]), source="p"), "m")
    after = compute_document(parse_table(csv_bytes([("m", "t", shifted)]), source="p"), "m")
    assert [c.weight for c in after.targets[0].candidates] == pytest.approx(
        [c.weight for c in before.targets[0].candidates], rel=1e-6, abs=1e-9
    )


@HYPOTHESIS
@given(one_group(), st.randoms(use_true_random=False))
def test_permuting_candidates_permutes_weights(group: list[Member], rng: object) -> None:
    permuted = list(group)
    rng.shuffle(permuted)  # type: ignore[attr-defined]
    before = compute_document(parse_table(csv_bytes([("m", "t", group)]), source="p"), "m")
    after = compute_document(parse_table(csv_bytes([("m", "t", permuted)]), source="p"), "m")
    weight_before = {c.token: c.weight for c in before.targets[0].candidates}
    weight_after = {c.token: c.weight for c in after.targets[0].candidates}
    assert set(weight_after) == set(weight_before)
    for token, weight in weight_before.items():
        # Only the order of the summation changes: a few ulps at most.
        assert weight_after[token] == pytest.approx(weight, rel=1e-13, abs=1e-300)
    # The top is the first candidate with the largest weight (scores 0 and 1e-307 both weigh
    # exactly 1/2, so the top follows the order then).
    assert weight_after[after.targets[0].top] == max(weight_after.values())
    assert after.targets[0].top == next(
        c.token for c in after.targets[0].candidates if c.weight == max(weight_after.values())
    )


extreme = st.one_of(
    st.sampled_from([1e300, -1e300, 1000.0, -1000.0, 1e308, -1e308, 0.0]),
    st.floats(-1e300, 1e300, allow_nan=False),
    st.floats(-1000, 1000, allow_nan=False),
)


@HYPOTHESIS
@given(one_group(extreme))
@example([("가", 1e300, [1.0, 0.0]), ("나", -1e300, [0.0, 1.0]), ("다", 1e300, [0.5, 0.5])])
@example([("가", -1000.0, [1.0, 0.0]), ("나", 1000.0, [0.0, 1.0]), ("다", 999.0, [0.5, 0.5])])
# The difference of these two overflows to -inf: exp(-inf) is 0, and no warning may escape.
@example([("가", 1.7976931348623157e308, [1.0, 0.0]), ("나", -1.7976931348623157e308, [0, 1])])
def test_extreme_scores_stay_finite_and_match_math(
    group: list[Member],
) -> None:
    result = compute_document(parse_table(csv_bytes([("m", "t", group)]), source="p"), "m")
    weights = [c.weight for c in result.targets[0].candidates]
    scores = [s for _, s, _ in group]
    largest = max(scores)
    exps = [math.exp(s - largest) for s in scores]  # differences: never above 0, never overflow
    expected = [e / sum(exps) for e in exps]
    assert all(math.isfinite(w) for w in weights)
    assert weights == pytest.approx(expected, rel=1e-13, abs=1e-300)
    assert all(math.isfinite(v) for v in result.targets[0].context)


@HYPOTHESIS
@given(finite, vector_values, vector_values)
def test_a_single_candidate_gets_weight_one(score: float, x: float, y: float) -> None:
    table = parse_table(csv_bytes([("m", "t", [("가", score, [x, y])])]), source="p")
    target = compute_document(table, "m").targets[0]
    assert target.candidates[0].weight == 1.0
    assert target.context == (x, y)
    assert target.top == "가"


documents = st.lists(
    st.tuples(st.lists(one_group(moderate), min_size=1, max_size=3)), min_size=1, max_size=4
)


@HYPOTHESIS
@given(documents, st.booleans())
def test_whole_file_equals_each_document_alone(
    docs: list[tuple[list[list[Member]]]], mix: bool
) -> None:
    groups = [
        (f"doc{d}", f"t{g}", members)
        for d, (targets,) in enumerate(docs)
        for g, members in enumerate(targets)
    ]
    text = csv_bytes(groups).decode()
    table = parse_table((interleave(text) if mix else text).encode(), source="p")
    whole = compute(table)
    for d, document in enumerate(table.documents):
        alone = compute_document(table, document)
        assert isinstance(alone, DocumentResult)
        assert alone.baseline == tuple(whole.baseline[d].tolist())
        mine = [g for g in range(whole.n_groups) if whole.group_document[g] == d]
        assert [t.target for t in alone.targets] == [
            table.groups[whole.group_target[g]] for g in mine
        ]
        for target, g in zip(alone.targets, mine, strict=True):
            rows = whole.order[whole.starts[g] : whole.starts[g] + whole.sizes[g]]
            # A group's numbers depend on its own rows only: equal, not merely close.
            assert [c.weight for c in target.candidates] == whole.weights[rows].tolist()
            assert target.context == tuple(whole.context[g].tolist())
            assert target.shift == tuple(whole.shift[g].tolist())
            assert target.top == table.encoded.token(int(whole.top_row[g]))


@st.composite
def document_groups(draw: st.DrawFn) -> list[tuple[str, str, list[Member]]]:
    """Groups of one or more documents; sometimes every target re-reads the same candidates
    (the course layout), sometimes targets see different, overlapping candidates whose vectors
    differ, so only the first occurrence of each may count."""
    out = []
    for d in range(draw(st.integers(1, 3))):
        first = draw(one_group(moderate))
        same = draw(st.booleans())
        for t in range(draw(st.integers(1, 4))):
            if t == 0:
                members = first
            elif same:
                members = [(n, draw(moderate), v) for n, _, v in first]
            else:
                members = draw(one_group(moderate))
            out.append((f"doc{d}", f"t{t}", members))
    return out


@HYPOTHESIS
@given(document_groups(), st.booleans())
def test_baseline_is_the_mean_of_each_documents_first_occurrences(
    groups: list[tuple[str, str, list[Member]]], mix: bool
) -> None:
    text = csv_bytes(groups).decode()
    if mix:
        text = interleave(text)
    table = parse_table(text.encode(), source="p")
    rows = list(csv.DictReader(io.StringIO(text)))
    for document in table.documents:
        mine = [r for r in rows if r["document_id"] == document]
        expected = reference_baseline(mine, ("v0", "v1"))
        assert list(compute_document(table, document).baseline) == pytest.approx(
            expected, rel=1e-15, abs=0.0
        )


def test_baseline_with_a_candidate_named_twice_in_the_first_group() -> None:
    lines = [
        HEADER,
        "m,t,a,r,1,0,0,1",
        "m,t,a,r,3,0,0,1",  # the same token again: only its first vector counts
        "m,u,a,r,5,0,0,1",
        "m,u,a,r,7,0,0,1",
    ]
    result = compute_document(parse_table("\n".join(lines).encode(), source="twice.csv"), "m")
    assert result.baseline == (1.0, 0.0, 0.0)


def test_baseline_when_targets_see_different_candidates() -> None:
    lines = [
        HEADER,
        "m,t,a,r,1,0,0,1",
        "m,t,b,r,2,0,0,1",
        "m,u,c,r,6,0,0,1",
        "m,u,a,r,9,0,0,1",
    ]
    result = compute_document(parse_table("\n".join(lines).encode(), source="diff.csv"), "m")
    assert result.baseline == (3.0, 0.0, 0.0)  # a=1 (first), b=2, c=6


def test_large_table_path_gives_the_same_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    # Large tables encode text columns and compute baselines on worker threads; force that path
    # on the course file and on an interleaved copy, and compare with the plain path.
    import mkdocs_selfattn.core.attention as attention_module
    import mkdocs_selfattn.core.csv_front as front_module
    from mkdocs_selfattn.core import csv_size

    text = COURSE.read_text(encoding="utf-8")
    for data in (text, interleave(text)):
        plain = parse_table(data.encode(), source="c")
        expected = [compute_document(plain, d) for d in plain.documents]
        expected_all = compute(plain)
        with monkeypatch.context() as patch:
            patch.setattr(front_module, "PARALLEL_ROWS", 1)
            patch.setattr(csv_size, "SMALL_BYTES", 0)  # Arrow's reader, whose encoding is threaded
            patch.setattr(attention_module, "PARALLEL_ROWS", 1)
            threaded = parse_table(data.encode(), source="c")
            for name in ("document_codes", "group_codes"):
                assert np.array_equal(getattr(threaded, name), getattr(plain, name))
            for name in ("candidate_codes", "role_codes"):
                assert np.array_equal(getattr(threaded.encoded, name), getattr(plain.encoded, name))
            assert threaded.encoded.candidates == plain.encoded.candidates
            assert [compute_document(threaded, d) for d in threaded.documents] == expected
            results = compute(threaded)
        assert np.array_equal(results.weights, expected_all.weights)
        assert np.array_equal(results.baseline, expected_all.baseline)
        assert np.array_equal(results.shift, expected_all.shift)
        assert np.array_equal(results.top_row, expected_all.top_row)


@pytest.mark.parametrize("dims", [1, 2, 3, 5])
@pytest.mark.parametrize("size", [1, 2, 9, 40])
def test_sums_run_left_to_right_like_python(dims: int, size: int) -> None:
    # numpy's own sum() adds pairwise and rounds differently from Python's sum(); the core must
    # add in CSV order, so that its numbers are the chapter script's to the last bit.
    rng = np.random.default_rng(dims * 100 + size)
    groups = []
    for g in range(30):
        members = [
            (f"c{i}", float(rng.normal(0, 3)), [float(v) for v in rng.normal(0, 1, dims)])
            for i in range(size)
        ]
        groups.append(("m", f"t{g}", members))
    names = [f"v{j}" for j in range(dims)]
    lines = [f"document_id,target_token,candidate_token,candidate_role,{','.join(names)},score"]
    for _, target, members in groups:
        for token, score, vector in members:
            lines.append(f"m,{target},{token},r,{','.join(map(repr, vector))},{score!r}")
    table = parse_table("\n".join(lines).encode(), source="sums.csv")
    results = compute(table)
    for g, (_, _, members) in enumerate(groups):
        weights = results.weights[results.starts[g] : results.starts[g] + size].tolist()
        # Python's sum() of the core's own weights: only the order of additions is under test.
        expected = [
            sum(w * vector[j] for w, (_, _, vector) in zip(weights, members, strict=True))
            for j in range(dims)
        ]
        assert results.context[g].tolist() == expected
        scores = [score for _, score, _ in members]
        exps = [exp_scalar(s - max(scores)) for s in scores]  # the core's exp, on any machine
        total = sum(exps)
        assert weights == [e / total for e in exps]


def test_many_documents_and_targets_do_not_overflow_keys() -> None:
    # Codes are int32. With 80,000 documents and 80,000 targets, (document 53687, target 7296)
    # and (document 0, target 0) get the same key if document × 80,000 + target wraps around
    # in 32 bits (53687 × 80000 + 7296 = 2**32 × 1000); so do their (document, candidate) keys.
    n = 80_000
    lines = [HEADER] + [f"d{i},t{i},c{i},r,{i},0,0,{i % 7}" for i in range(n)]
    lines.append("d53687,t7296,c7296,r,-1,0,0,5")
    table = parse_table("\n".join(lines).encode(), source="wide.csv")
    assert (table.document_codes[-1], table.group_codes[-1]) == (53687, 7296)
    results = compute(table)
    assert results.n_groups == n + 1
    assert np.array_equal(results.weights, np.ones(n + 1))
    expected = np.arange(n, dtype=np.float64)
    expected[53687] = (53687 - 1) / 2  # its two distinct candidates, c53687 and c7296
    assert np.array_equal(results.baseline[:, 0], expected)


@HYPOTHESIS
@given(st.randoms(use_true_random=False), st.integers(1, 4))
def test_the_shown_targets_are_the_whole_documents_own_in_any_file_order(
    rng: object, chunk: int
) -> None:
    """A page showing some targets gets exactly those targets' groups of the whole document,
    in the order it lists them, however the file interleaves its rows and however many groups
    are turned into records at a time."""
    import random

    from mkdocs_selfattn.core import document_results
    from mkdocs_selfattn.core.document_results import compute_targets

    assert isinstance(rng, random.Random)
    header, *rows = COURSE.read_text(encoding="utf-8").rstrip("\n").split("\n")
    rng.shuffle(rows)
    table = parse_table(("\n".join([header, *rows]) + "\n").encode(), source="m.csv")
    document = table.documents[0]
    whole = compute_targets(table, document, check=False)
    names = list(dict.fromkeys(group.name for group in whole.groups))
    wanted = rng.sample(names, rng.randint(1, len(names)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(document_results, "CHUNK_GROUPS", chunk)
        some = compute_targets(table, document, targets=wanted, check=False)
    assert some.groups == tuple(g for name in wanted for g in whole.groups if g.name == name)
