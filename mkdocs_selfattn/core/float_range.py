"""Where float range, not the math, would turn finite input into inf, and how the core avoids it.

Every quantity of the core is bounded by its inputs except the shift: weights lie in [0, 1],
representations and baselines are means of finite vectors. Yet a plain computation can overflow
on the way (a score difference, a running sum), and then a page would show ``inf`` for a finite
true value. These helpers redo only the affected entries, scaled by powers of two (exact for such
large numbers), so ordinary input keeps the plain arithmetic, and with it the chapter script's
numbers to the last bit. A shift beyond the float range has no value to show: it is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from mkdocs_selfattn.core.arrays import FloatArray, IntArray
from mkdocs_selfattn.core.table import Table
from mkdocs_selfattn.errors import DataError


def redo_overflowed_differences(
    scaled: FloatArray, scores: FloatArray, largest: FloatArray, temperature: float
) -> None:
    """Put the true (s - max) / T in ``scaled`` where s - max alone overflowed to -inf.

    With a large temperature that quotient is small (a weight near 1/n), not -inf (a weight of
    0). Halving is exact for such large numbers, so ((s/2 - max/2) / T) · 2 rounds exactly as
    (s - max) / T would with unbounded range; if that too overflows, -inf (weight 0) is right.
    """
    if not scaled.size or scaled.min() != -np.inf:
        return  # the usual case, found with one reduction (a mask and its indices cost 30x)
    rows, columns = np.nonzero(np.isneginf(scaled))
    halved = scores[rows, columns] * 0.5 - largest[rows, 0] * 0.5
    scaled[rows, columns] = halved / temperature * 2.0


def weighted_sums_in_range(
    sums: Callable[[FloatArray, FloatArray], FloatArray],
    weights: FloatArray,
    vectors: FloatArray,
) -> FloatArray:
    """``sums(weights, vectors)``, redone with halved vectors for the groups where it overflowed.

    A weighted mean lies between the group's smallest and largest value, but a running sum of
    vectors near ±1.8e308 can overflow on the way (and then inf - inf gives nan). Redone, it can
    still round an ulp past the largest float when the weights add up to a hair over 1; it is
    then held to the group's range, where the exact mean lies.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        result = sums(weights, vectors)
        broken = ~np.isfinite(result)
        if broken.any():
            groups = np.flatnonzero(broken.any(axis=1))
            redone = sums(weights[groups], vectors[groups] * 0.5) * 2.0
            low, high = vectors[groups].min(axis=1), vectors[groups].max(axis=1)
            result[groups] = np.clip(redone, low, high)
    return result


def means_in_range(
    keys: npt.NDArray[np.integer[Any]], values: FloatArray, counts: FloatArray
) -> FloatArray:
    """Per key, the mean of ``values`` (added in row order, as ``bincount`` does); for the keys
    whose plain sum overflowed, the sum is taken scaled down so that it cannot, and the mean is
    held to the key's range (rounding could carry it an ulp past the largest value)."""
    n = counts.shape[0]
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        sums = np.bincount(keys, weights=values, minlength=n)
        means: FloatArray = sums / counts
        overflowed = np.isinf(sums) | (np.isnan(sums) & (counts > 0))
        if overflowed.any():
            scale = 2.0 ** -(int(counts.max()).bit_length() + 1)
            scaled = np.bincount(keys, weights=values * scale, minlength=n)
            rows = overflowed[keys]
            low = np.full(n, np.inf)
            high = np.full(n, -np.inf)
            np.minimum.at(low, keys[rows], values[rows])
            np.maximum.at(high, keys[rows], values[rows])
            redone = scaled[overflowed] / counts[overflowed] / scale
            means[overflowed] = np.clip(redone, low[overflowed], high[overflowed])
    return means


def checked_shift(
    table: Table,
    context: FloatArray,
    baseline: FloatArray,
    first_rows: IntArray,
) -> FloatArray:
    """Context minus baseline per group; a DataError naming the group and column where
    that difference of two finite means exceeds the float range."""
    with np.errstate(over="ignore", invalid="ignore"):
        shift: FloatArray = context - baseline
    if np.isfinite(shift).all():
        return shift
    group, column = (int(i[0]) for i in np.nonzero(~np.isfinite(shift)))
    row = int(first_rows[group])
    document = table.documents[table.document_codes[row]]
    target = table.groups[table.group_codes[row]]
    raise DataError(
        table.source,
        f"the shift of target {target!r} in document {document!r} (vector column "
        f"{table.columns.axes[column][0]!r}: {float(context[group, column])!r} minus the "
        f"baseline {float(baseline[group, column])!r}) is beyond the largest float (about "
        "1.8e308); scale that column down",
    )
