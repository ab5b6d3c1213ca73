"""The portable exp: numpy's and plain Python's agree bit for bit, and both are a faithful exp.

The core, the references and the browser's ``try`` view must get the same bits from the same
input (the browser's copy is held to ``exp_scalar`` in tests/browser/test_browser_try.py), so
the vector version is compared with the scalar one as bit patterns, NaN and -0.0 included.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.core.portable_exp import (
    CHECK_RANGE,
    NORMAL_HIGH,
    NORMAL_LOW,
    ONE_STEP,
    OVERFLOW,
    REDUCE,
    TINY,
    UNDERFLOW,
    exp_array,
    exp_scalar,
)

BOUNDS = [OVERFLOW, UNDERFLOW, CHECK_RANGE, -CHECK_RANGE, REDUCE, -REDUCE, ONE_STEP, -ONE_STEP]
BOUNDS += [TINY, -TINY, 0.5 * math.log(2), 1.5 * math.log(2), -0.5 * math.log(2)]
# Where k crosses -1021 (below it the result may be subnormal) and 1023 → 1024.
BOUNDS += [-1021.5 * math.log(2), -1020.5 * math.log(2), 1023.5 * math.log(2)]
SPECIAL = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 5e-324, -5e-324, 1e308, -1e308]


def bits(value: float) -> bytes:
    return struct.pack("<d", value)


def neighbours(values: list[float], steps: int = 3) -> list[float]:
    """Each value and the doubles just below and above it."""
    out = []
    for value in values:
        below = above = value
        for _ in range(steps):
            below, above = math.nextafter(below, -math.inf), math.nextafter(above, math.inf)
            out += [below, above]
        out.append(value)
    return out


def assert_same_bits(xs: list[float]) -> None:
    vector = exp_array(np.array(xs, dtype=np.float64)).tolist()
    wrong = [(x, v, exp_scalar(x)) for x, v in zip(xs, vector, strict=True)]
    wrong = [(x, v, s) for x, v, s in wrong if bits(v) != bits(s)]
    assert wrong == []


def libm_exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def ulps_apart(got: float, want: float) -> float:
    if got == want:
        return 0.0
    return abs(got - want) / math.ulp(want)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=60))
@example(neighbours(BOUNDS) + SPECIAL)
def test_vector_equals_scalar_on_any_double(xs: list[float]) -> None:
    assert_same_bits(xs)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.floats(min_value=-746.0, max_value=711.0), min_size=1, max_size=60)
    | st.lists(st.floats(min_value=-745.2, max_value=-708.0), min_size=1, max_size=60)
    | st.lists(st.floats(min_value=-1.1, max_value=1.1), min_size=1, max_size=60)
)
def test_vector_equals_scalar_over_the_whole_range(xs: list[float]) -> None:
    """Every branch: tiny, k = 0, k = ±1, general k, subnormal results, the thresholds."""
    assert_same_bits(xs)


def test_vector_equals_scalar_on_a_dense_sweep() -> None:
    rng = np.random.default_rng(15)
    xs = np.concatenate(
        [
            rng.uniform(-746, 711, 40_000),
            rng.uniform(-745.2, -708, 10_000),  # results in the subnormal range
            rng.uniform(-40, 0, 20_000),  # what softmax differences look like
            rng.uniform(-1e-8, 1e-8, 2_000),
            np.linspace(-745.2, 709.8, 20_001),
        ]
    ).tolist()
    assert_same_bits(xs + neighbours(BOUNDS) + SPECIAL)


def test_chunks_with_normal_results_only_take_the_short_way_to_the_same_bits() -> None:
    """A chunk within NORMAL_LOW … NORMAL_HIGH skips the special cases: tiny x and 1 included."""
    for chunk in (
        [1.0, -1.0, 0.0, -0.0, 1e-9, -1e-9, 2.0**-28, -(2.0**-28), -3.0, 0.3],
        neighbours([NORMAL_LOW, NORMAL_HIGH]),
        [NORMAL_LOW, NORMAL_HIGH, -0.5 * math.log(2), 0.5 * math.log(2), 1.5 * math.log(2)],
    ):
        inside = [x for x in chunk if NORMAL_LOW <= x <= NORMAL_HIGH]
        assert_same_bits(inside)
        assert_same_bits(chunk)


def test_out_may_be_the_input_and_any_shape() -> None:
    """The core passes its score-difference matrix as both; chunks must not see their output."""
    xs = np.random.default_rng(3).uniform(-50, 1, (300, 61))  # several chunks, odd row length
    expected = np.array([exp_scalar(x) for x in xs.ravel().tolist()]).reshape(xs.shape)
    same = exp_array(xs, out=xs)
    assert same is xs
    assert xs.tobytes() == expected.tobytes()
    strided = np.empty((61, 300)).T  # not C-contiguous: filled through a copy
    assert exp_array(np.full((300, 61), -1.0), out=strided) is strided
    assert np.all(strided == exp_scalar(-1.0))


def test_special_values_are_libms() -> None:
    for x in [*SPECIAL, OVERFLOW, math.nextafter(OVERFLOW, math.inf), UNDERFLOW, -1000.0]:
        got, want = exp_scalar(x), libm_exp(x)
        assert (math.isnan(got) and math.isnan(want)) or bits(got) == bits(want), x
    assert math.isfinite(exp_scalar(OVERFLOW))
    assert exp_scalar(math.nextafter(OVERFLOW, math.inf)) == math.inf
    assert exp_scalar(UNDERFLOW) == 5e-324
    assert exp_scalar(math.nextafter(UNDERFLOW, -math.inf)) == 0.0
    assert exp_scalar(0.0) == exp_scalar(-0.0) == 1.0
    assert exp_scalar(1.0) == math.e


@pytest.mark.parametrize(("low", "high"), [(-745.2, 709.8), (-40.0, 0.0), (-745.2, -708.0)])
def test_within_one_ulp_of_libm_and_mostly_equal(low: float, high: float) -> None:
    rng = np.random.default_rng(int(-low))
    xs = rng.uniform(low, high, 30_000)
    got = exp_array(xs).tolist()
    apart = [ulps_apart(g, libm_exp(x)) for g, x in zip(got, xs.tolist(), strict=True)]
    assert max(apart) <= 1.0
    assert sum(a == 0 for a in apart) / len(apart) > 0.85
