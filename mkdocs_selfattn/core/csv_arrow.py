"""Arrow's side of reading a CSV: its multi-threaded reader, for files too big for csv_small.

pyarrow is imported only inside these functions, so a course of small files never loads it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from mkdocs_selfattn.core.candidate_table import (
    PARALLEL_ROWS,
    CodeArray,
    FloatArray,
    IntArray,
    run_now,
)
from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_diagnose import diagnose, without_bom
from mkdocs_selfattn.core.csv_encode import encode
from mkdocs_selfattn.core.table_cells import ArrowCells, Cells
from mkdocs_selfattn.errors import DataError


def parse_with_arrow(
    data: bytes,
    header: list[str],
    cols: ColumnMap,
    vector_columns: tuple[str, ...],
    has_index: bool,
    source: str,
) -> Any:
    import pyarrow as pa

    types: dict[str, Any] = {name: pa.string() for name in cols.text_columns}
    types[cols.score] = pa.float64()
    for name in vector_columns:
        types[name] = pa.float64()
    if has_index:
        types[cols.target_index] = pa.int64()
        types[cols.candidate_index] = pa.int64()
    wanted = list(dict.fromkeys([*cols.text_columns, cols.score, *vector_columns]))
    if has_index:
        wanted += list(cols.index_columns)
    try:
        return arrow_read(data, header, types, wanted)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        raise diagnose(without_bom(data), header, cols, vector_columns, has_index, source) from None


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


Encoded = dict[str, tuple[tuple[str, ...], CodeArray]]
ReadingParts = tuple[Cells, dict[str, FloatArray] | None, Encoded, bool]
"""A reading's file as either reader gives it: its cells, its numeric columns (None if a cell is
not a number), its dictionary-encoded key columns, whether a line, document or group is empty."""


def read_reading(
    data: bytes,
    header: Sequence[str],
    numeric: Sequence[str],
    identity: Sequence[str],
    keys: Sequence[str],
    problem: Callable[[], DataError],
) -> ReadingParts:
    """Arrow's reading of a questions or heads file, every column as text; an unreadable file
    raises ``problem()``."""
    import pyarrow as pa

    try:
        cells = arrow_read(data, list(header), {h: pa.string() for h in header}, list(header))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        raise problem() from None
    if cells.num_rows == 0:
        return ArrowCells(cells), {}, {}, False
    # On a large file the columns are converted on worker threads (Arrow releases the GIL).
    with ThreadPoolExecutor(max_workers=2) as pool:
        submit = pool.submit if cells.num_rows >= PARALLEL_ROWS else run_now
        pending = {name: submit(_floats, cells.column(name)) for name in numeric}
        coded = {name: submit(encode, cells.column(name)) for name in keys}
        empty = _any_empty(cells, identity)
        parsed = {name: future.result() for name, future in pending.items()}
        encoded = {name: future.result() for name, future in coded.items()}
    numbers = {name: v for name, v in parsed.items() if v is not None}
    return ArrowCells(cells), numbers if len(numbers) == len(parsed) else None, encoded, empty


def _any_empty(cells: Any, columns: Sequence[str]) -> bool:
    """Whether a cell that names a line, document or group is empty."""
    import pyarrow.compute as pc

    return any(pc.any(pc.equal(cells.column(name), "")).as_py() for name in columns)


def _floats(column: Any) -> FloatArray | None:
    """A text column as numbers, None if a cell is not one. Arrow's cast parses as its CSV
    reader does, except that the reader also allows spaces and tabs around a number."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        cast = pc.cast(column, pa.float64())
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        try:
            cast = pc.cast(pc.utf8_trim(column, " \t"), pa.float64())
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            return None
    out = np.empty(len(cast), dtype=np.float64)
    return out if copy_floats(cast, out) else None
