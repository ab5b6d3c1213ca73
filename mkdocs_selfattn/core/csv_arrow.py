"""Arrow's side of reading a CSV: its multi-threaded reader, for files too big for csv_small.

pyarrow is imported only inside these functions, so a course of small files never loads it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mkdocs_selfattn.core.arrays import FloatArray, IntArray


def arrow_read(data: bytes, header: list[str], types: dict[str, Any], wanted: list[str]) -> Any:
    """Arrow's multi-threaded reader with the options every layout shares (the header read
    already, no nulls: an empty cell stays ""); raises Arrow's own errors for the caller to
    diagnose."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    read = pacsv.ReadOptions(column_names=header, skip_rows=1, use_threads=True)
    parse = pacsv.ParseOptions(newlines_in_values=b'"' in data)
    convert = pacsv.ConvertOptions(
        column_types=types,
        include_columns=wanted,
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    return pacsv.read_csv(
        pa.py_buffer(data), read_options=read, parse_options=parse, convert_options=convert
    )


def copy_floats(column: Any, out: FloatArray) -> bool:
    """Copy a float column chunk by chunk into ``out``; False if a value is missing.

    Writing each chunk straight into its slice of the destination (which may be a strided column
    of the vector matrix) avoids concatenating the chunks first and copying a second time.
    """
    if column.null_count:
        return False
    start = 0
    for chunk in column.chunks:
        stop = start + len(chunk)
        out[start:stop] = chunk.to_numpy(zero_copy_only=False)
        start = stop
    return True


def int_column(arrow: Any, name: str) -> IntArray | None:
    column = arrow.column(name)
    if column.null_count:
        return None
    return np.ascontiguousarray(column.to_numpy(), dtype=np.int64)
