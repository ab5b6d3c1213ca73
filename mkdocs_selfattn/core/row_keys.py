"""Integer keys for rows: one int64 per combination of columns, and first-appearance numbering.

Grouping, baselines and the data checks all reduce "rows that share these values" to an integer
key per row, so a million rows are grouped by numpy and Arrow, never by a Python loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mkdocs_selfattn.core.arrays import IntArray

AnyInts = npt.NDArray[np.integer[Any]]


@dataclass(frozen=True, eq=False)
class RowGroups:
    """Which group each row of a table reads in: its document, its group's name and, with index
    columns, its position. Every layout's table is segmented through this one view (a target,
    a question's scenario, a head's document), so the engine needs no layout's table type."""

    document_codes: AnyInts
    group_codes: AnyInts
    n_group_names: int
    group_index: AnyInts | None
    row_numbers: IntArray
    """Each row's position in the file (0 = first data row)."""

    @property
    def n_rows(self) -> int:
        return int(self.group_codes.shape[0])


def group_keys(groups: RowGroups, rows: IntArray | None = None) -> IntArray:
    """One int64 per row (or per row of ``rows``), equal exactly when the rows share a group."""

    def pick(values: AnyInts) -> AnyInts:
        return values if rows is None else values[rows]

    # int64 before multiplying: codes are int32 and the product may not fit.
    keys: IntArray = np.multiply(
        pick(groups.document_codes), max(groups.n_group_names, 1), dtype=np.int64
    )
    keys += pick(groups.group_codes)
    if groups.group_index is not None:
        keys = combine(keys, pick(groups.group_index))
    return keys


def combine(left: AnyInts, right: AnyInts) -> IntArray:
    """One int64 key per (left, right) pair (``left`` ≥ 0), never overflowing."""
    if not left.size:
        return left.astype(np.int64)
    low, high = int(right.min()), int(right.max())
    width = high - low + 1
    if (int(left.max()) + 1) * width < 2**62:
        keys: IntArray = np.multiply(left, width, dtype=np.int64)
        keys += right - low
        return keys
    # Positions spread too far apart for arithmetic: number the distinct values first.
    left_codes = first_appearance_codes(left)
    right_codes = first_appearance_codes(right)
    width = int(right_codes.max()) + 1
    return left_codes * width + right_codes


SORTED_KEYS = 1 << 16
"""Up to this many keys are numbered by a sort, above by Arrow's hash: a sort of a course's few
hundred keys takes microseconds, importing pyarrow for them ≈ 50 ms (see csv_small)."""


def first_appearance_codes(keys: AnyInts) -> IntArray:
    """Dense codes 0..k-1 numbered by first appearance (Arrow's hash encoding keeps that order)."""
    if keys.shape[0] <= SORTED_KEYS:
        return _sorted_codes(keys)
    try:
        import pyarrow as pa
    except ImportError:  # an optional extra (arrow_extra.py): numpy's way, slower on many keys
        return _sorted_codes(keys)
    encoded = pa.array(keys).dictionary_encode()
    return np.asarray(encoded.indices.to_numpy(zero_copy_only=False), dtype=np.int64)


def _sorted_codes(keys: AnyInts) -> IntArray:
    # return_index gives each distinct key's first row (a stable sort); rank those rows.
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    rank = np.empty(first.shape[0], dtype=np.int64)
    rank[np.argsort(first)] = np.arange(first.shape[0], dtype=np.int64)
    codes: IntArray = rank[inverse.reshape(-1)]
    return codes


def first_occurrences(keys: IntArray) -> npt.NDArray[np.bool_]:
    """Mask of the rows where a key is seen for the first time."""
    codes = first_appearance_codes(keys)
    is_first = np.empty(codes.shape[0], dtype=bool)
    if codes.shape[0]:
        # First-appearance codes grow by one exactly at each new key.
        running_max = np.maximum.accumulate(codes)
        is_first[0] = True
        np.greater(codes[1:], running_max[:-1], out=is_first[1:])
    return is_first


def all_distinct(keys: AnyInts) -> bool:
    """Whether no key repeats. A sort, not ``np.unique``: numpy 2's hash-based unique takes a
    hundred times longer on a few hundred thousand keys, and only the yes/no is needed."""
    ordered = np.sort(keys)
    return bool((ordered[1:] != ordered[:-1]).all())


def distinct_sizes(sizes: IntArray) -> list[int]:
    """The distinct group sizes, ascending (``np.unique(sizes)``, by counting: sizes are small
    non-negative numbers)."""
    return [int(s) for s in np.flatnonzero(np.bincount(sizes)).tolist()]
