"""Extreme but finite input: the true result or a clear error, never inf or nan on a page.

The reference (tests/core/test_attention.py) computes like the chapter's script and, where a float
operation of the script would overflow although the true value is finite, takes the exact value
with fractions. On ordinary input the two are the same arithmetic, so the core still has to agree
with the script to the last bit there (test_attention.py checks that).
"""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path

import pytest
from figure_fixtures import compute_document
from hypothesis import example, given
from hypothesis import strategies as st
from sites import new_site, visible_text
from test_attention import (
    HYPOTHESIS,
    Member,
    csv_bytes,
    reference_baseline,
    reference_target,
    tokens,
)

from mkdocs_selfattn.core.attention import compute
from mkdocs_selfattn.core.csv_read import parse_table
from mkdocs_selfattn.errors import DataError

BIG = 1.7976931348623157e308

huge = st.one_of(
    st.sampled_from([BIG, -BIG, 1e308, -1e308, 1.5e308, 0.0, 1.0, -1.0]),
    st.floats(-BIG, BIG, allow_nan=False),
    st.floats(-10, 10, allow_nan=False),
)
temperatures = st.one_of(
    st.sampled_from([1.0, 2.0, 1e300, 1e308, BIG, 1e-300, 0.5]),
    st.floats(1e-300, BIG, allow_nan=False, allow_infinity=False),
)


@st.composite
def extreme_group(draw: st.DrawFn) -> list[Member]:
    size = draw(st.integers(1, 6))
    names = draw(st.lists(tokens, min_size=size, max_size=size, unique=True))
    return [(n, draw(huge), [draw(huge), draw(huge)]) for n in names]


def _check_against_reference(groups: list[list[Member]], temperature: float) -> None:
    data = csv_bytes([("m", f"t{i}", g) for i, g in enumerate(groups)])
    table = parse_table(data, source="x.csv")
    rows = list(csv.DictReader(io.StringIO(data.decode())))
    baseline = reference_baseline(rows, ("v0", "v1"))
    expected = {}
    for i in range(len(groups)):
        group = [r for r in rows if r["target_token"] == f"t{i}"]
        expected[f"t{i}"] = reference_target(group, ("v0", "v1"), baseline, temperature)
    overflowing = any(not math.isfinite(v) for e in expected.values() for v in e.shift)
    if overflowing:
        # A shift beyond the float range has no true value to show: the example must fail.
        with pytest.raises(DataError, match=r"beyond the largest float .*scale that column down"):
            compute_document(table, "m", temperature=temperature)
        return
    result = compute_document(table, "m", temperature=temperature)
    assert all(math.isfinite(v) for v in result.baseline)
    for j, value in enumerate(result.baseline):
        column = [vector[j] for g in groups for _, _, vector in g]
        assert min(column) <= value <= max(column)
    # Huge terms of both signs cancel: rounding is relative to the terms, not to their mean.
    terms = [abs(v) for g in groups for _, _, vector in g for v in vector]
    assert list(result.baseline) == pytest.approx(baseline, rel=1e-12, abs=max(terms) * 1e-12)
    for target in result.targets:
        reference = expected[target.target]
        weights = [c.weight for c in target.candidates]
        assert all(math.isfinite(w) for w in weights)
        assert weights == pytest.approx(reference.weights, rel=1e-12, abs=1e-300)
        assert math.fsum(weights) == pytest.approx(1.0, abs=1e-12)
        largest = max(abs(c.vector[j]) for c in target.candidates for j in (0, 1))
        for got, want in zip(target.context, reference.representation, strict=True):
            assert math.isfinite(got)
            # Sums of opposite huge terms cancel: closeness is relative to the terms.
            assert got == pytest.approx(want, rel=1e-12, abs=largest * 1e-12)
        assert all(math.isfinite(v) for v in target.shift)


@HYPOTHESIS
@given(st.lists(extreme_group(), min_size=1, max_size=3), temperatures)
# Scores of opposite signs near the float limit with a temperature that brings them back: the
# difference overflows, the quotient does not (the old core gave weights 1 and 0 here).
@example([[("가", 1e308, [0.0, 0.0]), ("나", -1e308, [1.0, 1.0])]], 1e308)
@example([[("가", BIG, [0.0, 0.0]), ("나", -BIG, [1.0, 1.0])]], BIG)
# Vectors near the limit: their mean is finite, their running sum is not.
@example([[("가", 0.0, [BIG, -BIG]), ("나", 0.0, [BIG, -BIG])]], 1.0)
@example([[("가", 0.0, [1e308, 1.0]), ("나", 0.0, [1e308, 2.0]), ("다", 0.0, [1e308, 3.0])]], 1.0)
# Huge terms of both signs whose running sum overflows and whose mean is 0.
@example([[("가", 1.0, [BIG, -1e308]), ("나", 1.0, [BIG, -BIG]), ("다", 1.0, [BIG, 1e308])]], 1.0)
# A mean whose scaled sum rounds an ulp above the largest value: held to the values' range.
@example(
    [
        [
            ("가", 0.0, [1.7976931348623147e308, 0.0]),
            ("나", 0.0, [1.7976931348623145e308, 0.0]),
            ("다", 0.0, [1.7976931348623147e308, 0.0]),
        ]
    ],
    1.0,
)
# A shift of two finite means that lies beyond the float range.
@example([[("가", 0.0, [BIG, 0.0])], [("나", 0.0, [-BIG, 0.0]), ("다", 0.0, [-BIG, 0.0])]], 1.0)
def test_extreme_values_give_the_true_result_or_a_clear_error(
    groups: list[list[Member]], temperature: float
) -> None:
    _check_against_reference(groups, temperature)


def test_large_temperature_gives_the_true_softmax() -> None:
    table = parse_table(
        csv_bytes([("m", "t", [("a", 1e308, [0, 0]), ("b", -1e308, [0, 0])])]), source="p"
    )
    [target] = compute_document(table, "m", temperature=1e308).targets
    # (1e308 - -1e308) / 1e308 = 2: the weights are softmax(1, -1), not 1 and 0.
    assert [c.weight for c in target.candidates] == pytest.approx(
        [1 / (1 + math.exp(-2)), 1 / (1 + math.exp(2))], rel=1e-15
    )


def test_means_of_vectors_near_the_limit_stay_finite() -> None:
    members = [("a", 0.0, [BIG, -1e308]), ("b", 0.0, [BIG, -1e308])]
    results = compute(parse_table(csv_bytes([("m", "t", members)]), source="p"))
    assert results.baseline.tolist() == [[BIG, -1e308]]
    assert results.context.tolist() == [[BIG, -1e308]]
    assert results.shift.tolist() == [[0.0, 0.0]]


def test_a_shift_beyond_the_float_range_names_where() -> None:
    groups = [
        ("m", "t", [("a", 0.0, [BIG, 0.0])]),
        ("m", "u", [("b", 0.0, [-BIG, 0.0]), ("c", 0.0, [-BIG, 0.0])]),
    ]
    with pytest.raises(DataError) as caught:
        compute(parse_table(csv_bytes(groups), source="shift.csv"))
    message = str(caught.value)
    assert message.startswith("shift.csv: the shift of target 't' in document 'm'")
    assert "vector column 'v0'" in message
    assert "scale that column down" in message


@pytest.mark.slow
def test_a_page_of_extreme_values_shows_true_numbers(tmp_path: Path) -> None:
    data = (
        "document_id,target_token,candidate_token,candidate_role,v0,v1,score\n"
        f"m,t,a,r,{BIG!r},-1e308,1e308\n"
        f"m,t,b,r,{BIG!r},-1e308,-1e308\n"
    )
    page = (
        "# Extremes\n\n```selfattn\nid: x\ncsv: huge.csv\ndocument: m\ntemperature: 1.0e+308\n"
        "show: [output, table, compare, mermaid, chart]\n```\n\n"
        "A=⟨`{selfattn} x weight t a`⟩ B=⟨`{selfattn} x weight t b`⟩ "
        "R=⟨`{selfattn} x representation t`⟩ S=⟨`{selfattn} x shift t`⟩\n"
    )
    site = new_site(tmp_path / "project", {"index.md": page}, course_csv=False)
    site.write("docs/huge.csv", data)
    log = site.build(strict=True)
    assert log.selfattn() == []
    text = visible_text(site.article())
    assert "A=⟨0.881⟩ B=⟨0.119⟩" in text  # softmax(1, -1), not 1 and 0
    # A weighted mean of equal values, to rounding (the weights add up to 1 within an ulp).
    [r0, r1] = re.findall(r"R=⟨\[([^,]+), ([^\]]+)\]⟩", text)[0]
    assert float(r0) == pytest.approx(BIG, rel=1e-15)
    assert float(r1) == -1e308
    [s0] = re.findall(r"S=⟨\[([^,]+), 0\.0\]⟩", text)
    assert abs(float(s0)) <= BIG * 1e-15
    assert not re.search(r"\b(?:inf|nan)\b", text, re.IGNORECASE)
