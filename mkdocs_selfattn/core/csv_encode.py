"""Dictionary encoding of Arrow text columns into first-appearance codes, fast on long runs."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from mkdocs_selfattn.core.arrays import CodeArray, IntArray


def encode(column: Any) -> tuple[tuple[str, ...], CodeArray]:
    """Dictionary-encode; codes are numbered by first appearance, which the core relies on.

    Document and target columns come in long runs of one value (a course lists a document's rows
    together). For those, comparing neighbours and hashing only the first value of each run is
    two to three times cheaper than hashing every row; a value's first row always starts a run,
    so the numbering is the same. Whether a column is run-heavy is judged on its first rows.
    """
    n = len(column)
    sample = column.slice(0, min(n, _RUN_SAMPLE))
    if n > 1 and np.count_nonzero(_run_changes(sample)) * _RUN_RATIO <= len(sample):
        changed = _run_changes(column)
        values, head_codes = _hash_encode(_take_rows(column, np.flatnonzero(changed)))
        # Row i belongs to run cumsum(changed)[i] - 1; look its code up in place.
        codes = np.empty(n, dtype=np.int32)
        np.cumsum(changed, out=codes)
        codes -= 1
        np.take(head_codes, codes, out=codes, mode="wrap")  # "wrap": no bounds-check buffer
        return values, codes
    return _hash_encode(column)


_RUN_SAMPLE = 1 << 14
_RUN_RATIO = 8
"""Encode by runs when the sample's runs average at least this many rows."""


def _take_rows(column: Any, rows: IntArray) -> Any:
    """``column.take(rows)`` chunk by chunk (``rows`` ascending): Arrow's own take on a chunked
    column first concatenates every chunk, copying all the strings just to pick a few."""
    import pyarrow as pa

    pieces = []
    start = 0
    for chunk in column.chunks:
        stop = start + len(chunk)
        lo, hi = np.searchsorted(rows, [start, stop])
        if hi > lo:
            pieces.append(chunk.take(pa.array(rows[lo:hi] - start)))
        start = stop
    return pa.chunked_array(pieces, type=column.type)


def _run_changes(column: Any) -> npt.NDArray[np.bool_]:
    """True where a value differs from the one before it (and at 0)."""
    import pyarrow.compute as pc

    n = len(column)
    changed = np.empty(n, dtype=bool)
    changed[0] = True
    differs = pc.not_equal(column.slice(1), column.slice(0, n - 1))
    start = 1
    for chunk in getattr(differs, "chunks", [differs]):
        stop = start + len(chunk)
        changed[start:stop] = chunk.to_numpy(zero_copy_only=False)
        start = stop
    return changed


def _hash_encode(column: Any) -> tuple[tuple[str, ...], CodeArray]:
    """Arrow's hash encoding, on the chunked column directly: one hash table is shared across
    chunks (so every chunk carries the same, final dictionary), and a million strings are not
    concatenated first."""
    encoded = column.dictionary_encode()
    chunks = encoded.chunks
    codes = np.empty(len(column), dtype=np.int32)
    start = 0
    for chunk in chunks:
        stop = start + len(chunk)
        codes[start:stop] = chunk.indices.to_numpy(zero_copy_only=False)
        start = stop
    # Codes are consistent across chunks; the longest dictionary (in practice every chunk holds
    # the final one) has every value.
    dictionary = max((chunk.dictionary for chunk in chunks), key=len, default=None)
    values = () if dictionary is None else tuple(str(v) for v in dictionary.to_pylist())
    return values, codes
