"""One ``exp`` for the core, the test references and the browser: fdlibm's ``e_exp.c``.

numpy picks a SIMD ``exp`` by CPU and the browser has its own, so the same softmax could differ
in the last bit between two CI machines, or between the build and the page's ``try`` view. This
is fdlibm's algorithm (the one V8 ports for ``Math.exp``) written with IEEE-754 double ``+ - × ÷``,
comparisons and exact scaling by powers of two only, so every float64 implementation of it
gives the same bits: ``exp_array`` (numpy, for the core), ``exp_scalar`` (plain Python, for
references) and ``portableExp`` in ``assets/try/selfattn-try.js``. Error below 1 ulp.

Outline: x = k·ln2 + r with |r| ≤ ln2/2 (ln2 split into ``LN2_HI``, whose multiples by k are
exact, and ``LN2_LO``); exp(r) from a degree-5 Remez polynomial in r²; then exp(x) = 2^k·exp(r).
Like V8's port, exp(1) returns ``math.e``, where fdlibm's steps would give the next double up.
"""

from __future__ import annotations

import math

import numpy as np

from mkdocs_selfattn.core.arrays import FloatArray, IntArray

OVERFLOW = 7.09782712893383973096e02
"""Largest x whose exp is finite."""
UNDERFLOW = -7.45133219101941108420e02
"""Smallest x whose exp is not 0."""
LN2_HI = 6.93147180369123816490e-01
LN2_LO = 1.90821492927058770002e-10
INV_LN2 = 1.44269504088896338700e00
P1 = 1.66666666666666019037e-01
P2 = -2.77777777770155933842e-03
P3 = 6.61375632143793436117e-05
P4 = -1.65339022054652515390e-06
P5 = 4.13813679705723846039e-08
TWO_M1000 = 2.0**-1000
# fdlibm compares the high 32 bits of |x|; these are the same tests on the whole double.
CHECK_RANGE = 709.7822265625  # high word 0x40862E42
REDUCE = 0.3465735912322998  # high word 0x3FD62E43: |x| above 0.5·ln2 (a hair)
ONE_STEP = 1.0397205352783203  # high word 0x3FF0A2B2: |x| below 1.5·ln2, k is ±1
TINY = 2.0**-28  # high word 0x3E300000: exp(x) rounds to 1 + x
# Within these, k stays within -1021 … 1023: the result is a normal double, 2**k one factor.
NORMAL_LOW = -708.0
NORMAL_HIGH = 709.0


def exp_scalar(x: float) -> float:
    """fdlibm's ``__ieee754_exp`` line for line (and V8's exp(1) = e), on one Python float."""
    if x != x:
        return x + x
    size = abs(x)
    if size >= CHECK_RANGE:
        if size == math.inf:
            return x if x > 0 else 0.0
        if x > OVERFLOW:
            return math.inf
        if x < UNDERFLOW:
            return 0.0
    if size > REDUCE:
        if size < ONE_STEP:
            if x == 1.0:
                return math.e
            if x > 0:
                hi, lo, k = x - LN2_HI, LN2_LO, 1
            else:
                hi, lo, k = x + LN2_HI, -LN2_LO, -1
        else:
            k = int(INV_LN2 * x + (0.5 if x > 0 else -0.5))  # int() truncates, as C's cast
            t = float(k)
            hi = x - t * LN2_HI
            lo = t * LN2_LO
        r = hi - lo
    elif size < TINY:
        return 1.0 + x
    else:
        k, r, hi, lo = 0, x, x, 0.0
    t = r * r
    c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))))
    if k == 0:
        return 1.0 - ((r * c) / (c - 2.0) - r)
    y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
    if k >= -1021:
        return math.ldexp(y, k)
    return math.ldexp(y, k + 1000) * TWO_M1000


def _powers_of_two(n: IntArray) -> FloatArray:
    """2**n, exactly, for integers n in the normal range (-1022 … 1023), from the bits."""
    bits = (n + 1023).astype(np.uint64) << np.uint64(52)
    powers: FloatArray = bits.view(np.float64)
    return powers


CHUNK = 8192
"""Elements per pass: the dozens of temporaries stay in the CPU cache (4× faster than whole)."""


def exp_array(x: FloatArray, out: FloatArray | None = None) -> FloatArray:
    """``exp_scalar`` on every element, into ``out`` (which may be ``x`` itself) or a new array.

    The array is worked through in chunks of ``CHUNK`` elements; each chunk is read whole
    before its results are written, so ``out`` may alias ``x``.
    """
    x = np.asarray(x, dtype=np.float64)
    fits = out is not None and out.shape == x.shape and out.flags.c_contiguous
    result = out if fits and out is not None else np.empty(x.shape, dtype=np.float64)
    flat_in, flat_out = x.reshape(-1), result.reshape(-1)
    for start in range(0, flat_in.shape[0], CHUNK):
        _exp_chunk(flat_in[start : start + CHUNK], flat_out[start : start + CHUNK])
    if out is None or out is result:
        return result
    np.copyto(out, result)
    return out


def _exp_chunk(x: FloatArray, out: FloatArray) -> None:
    """``exp_scalar`` on every element, with the same operations in the same order.

    All branches are computed for every element and the right one picked per element (numpy's
    elementwise ufuncs neither reorder nor fuse operations). A chunk whose elements all give a
    normal, finite result (the usual softmax differences) skips the subnormal and special cases.
    """
    with np.errstate(all="ignore"):
        if x.min() >= NORMAL_LOW and x.max() <= NORMAL_HIGH:  # NaN fails both
            y, k = _unscaled(x)
            y *= _powers_of_two(k)
            _small_cases(x, y)
            np.copyto(out, y)  # only now: out may be x
            return
        in_range = (x >= UNDERFLOW) & (x <= OVERFLOW)
        safe = np.where(in_range, x, 0.0)
        y, k = _unscaled(safe)
        deep = k < -1021
        # Below 2**-1021 the result may be subnormal: scale exactly to a normal number first,
        # so the one rounding happens in the final multiplication, as in fdlibm. Above 2**1023
        # (k = 1024) 2**k is no double: scale in two exact steps.
        scale = np.where(deep, k + 1000, k)
        half = scale >> 1
        y = y * _powers_of_two(half) * _powers_of_two(scale - half)
        y = np.where(deep, y * TWO_M1000, y)
        _small_cases(safe, y)
        special = np.where(x > OVERFLOW, math.inf, np.where(x < UNDERFLOW, 0.0, x + x))
        np.copyto(out, np.where(in_range, y, special))


def _unscaled(x: FloatArray) -> tuple[FloatArray, IntArray]:
    """exp(r) and k, with x = k·ln2 + r, for finite x within the thresholds.

    Two fdlibm branches are folded into this general one because they give the same bits: with
    |x| below 1.5·ln2, k is ±1, and then ``x - k·LN2_HI`` and ``k·LN2_LO`` are exactly fdlibm's
    ``x ∓ LN2_HI`` and ``±LN2_LO``; with k = 0 (lo = 0, hi = r = x), ``0 - (r·c)/(2 - c)``
    equals fdlibm's ``(r·c)/(c - 2)`` bit for bit, as negation is exact and rounding symmetric.
    """
    k = np.trunc(INV_LN2 * x + np.copysign(0.5, x))
    k = np.where(np.abs(x) > REDUCE, k, 0.0)
    hi = x - k * LN2_HI
    lo = k * LN2_LO
    r = hi - lo
    t = r * r
    c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))))
    y: FloatArray = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
    return y, k.astype(np.int64)


def _small_cases(x: FloatArray, y: FloatArray) -> None:
    """fdlibm's early returns that the general steps would round differently: tiny x, and 1."""
    np.copyto(y, 1.0 + x, where=np.abs(x) < TINY)
    np.copyto(y, math.e, where=x == 1.0)
