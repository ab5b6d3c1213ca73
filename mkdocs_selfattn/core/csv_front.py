"""The one way every layout reads a CSV's rows: the stdlib reader of :mod:`csv_small` for a small
file, Arrow's multi-threaded reader for a big one (or one the small reader is not sure of), the
same parts either way, and one located message (the caller's ``problem``, the slow exact reader of
:mod:`csv_diagnose`) for anything wrong.

A layout says what it reads as a :class:`ReadPlan`: which text columns it groups by (dictionary
encoded), which must never be empty, which hold numbers (each block of them one matrix, filled in
place), which hold whole numbers, and whether it keeps every cell as written (a printout that
shows ``3.00`` where the file says so). The table each layout builds from the parts is its own
(:mod:`csv_read`, :mod:`reading_table`); the reading is this module's alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from mkdocs_selfattn.core import csv_size, csv_small
from mkdocs_selfattn.core.arrays import PARALLEL_ROWS, CodeArray, FloatArray, IntArray, run_now
from mkdocs_selfattn.core.arrow_extra import arrow_missing, needs_arrow
from mkdocs_selfattn.core.csv_arrow import arrow_read, copy_floats, int_column
from mkdocs_selfattn.core.csv_encode import encode
from mkdocs_selfattn.core.table_cells import ArrowCells, Cells, ListCells
from mkdocs_selfattn.errors import DataError

Encoded = dict[str, tuple[tuple[str, ...], CodeArray]]


@dataclass(frozen=True)
class ReadPlan:
    """What one layout reads of a file (every name a column of its header)."""

    keys: tuple[str, ...]
    """Text columns grouped by, so dictionary-encoded (first-appearance codes), in the order
    their encoding starts (on a big file the slowest, rarely in runs, should come first)."""
    identity: tuple[str, ...]
    """Text columns that must never be empty: they name a row, a document or a group."""
    blocks: tuple[tuple[str, ...], ...]
    """Numeric columns, finite floats; each block is one (rows × columns) matrix."""
    integers: tuple[str, ...] = ()
    """Columns of whole numbers (positions)."""
    cells: bool = False
    """Keep every column as text too (:class:`~table_cells.Cells`); the numbers are then parsed
    from that same text, so a printout's cell and the computed number are one reading."""

    @property
    def numeric(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for block in self.blocks for name in block))


class Parts(NamedTuple):
    """A file as either reader gives it, checked: every identity cell set, every number finite,
    every integer whole, at least one row."""

    n_rows: int
    encoded: Encoded
    blocks: tuple[FloatArray, ...]
    integers: dict[str, IntArray]
    cells: Cells | None


Problem = Callable[[], DataError]
"""The first problem in the file as a located error (only ever called when there is one)."""


def read_parts(
    data: bytes, header: Sequence[str], plan: ReadPlan, source: str, problem: Problem
) -> Parts:
    """The file's :class:`Parts`, or raise one precise :class:`DataError`."""
    parts = _read_small(data, header, plan, problem) if csv_size.fits(data) else None
    if parts is None:
        if arrow_missing():
            raise needs_arrow(data, source, problem)
        parts = _read_arrow(data, header, plan, source, problem)
    if parts is None:
        raise problem()
    return parts


def _read_small(
    data: bytes, header: Sequence[str], plan: ReadPlan, problem: Problem
) -> Parts | None:
    """The stdlib reader's parts, or None when Arrow must read the file (see :mod:`csv_small`):
    any number it is not sure of makes Arrow read it, and name the error if there is one. An
    empty identity cell is not a doubt but a mistake: the caller's ``problem`` names it."""
    cells = csv_small.read_columns(data, len(header))
    if cells is None:
        return None
    column = dict(zip(header, cells, strict=True))
    n_rows = len(cells[0])
    blocks = tuple(np.empty((n_rows, len(block)), dtype=np.float64) for block in plan.blocks)
    for block, matrix in zip(plan.blocks, blocks, strict=True):
        for j, name in enumerate(block):
            values = csv_small.floats(column[name])
            if values is None:
                return None
            matrix[:, j] = values
    integers: dict[str, IntArray] = {}
    for name in plan.integers:
        whole = csv_small.integers(column[name])
        if whole is None:
            return None
        integers[name] = whole
    encoded = {name: csv_small.encode(column[name]) for name in plan.keys}
    if any("" in column[name] for name in plan.identity):
        raise problem()
    return Parts(n_rows, encoded, blocks, integers, ListCells(column) if plan.cells else None)


def _read_arrow(
    data: bytes, header: Sequence[str], plan: ReadPlan, source: str, problem: Problem
) -> Parts | None:
    """Arrow's parts; None when a cell is wrong (the caller then names it)."""
    import pyarrow as pa

    try:
        table = arrow_table(data, header, plan)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        raise problem() from None
    n_rows = table.num_rows
    if n_rows == 0:
        raise DataError(source, "the file has a header but no data rows", line=2)
    blocks = tuple(np.empty((n_rows, len(block)), dtype=np.float64) for block in plan.blocks)
    # On a large file the text columns are hashed (and, read as text, the numbers parsed) on
    # worker threads while this thread copies: Arrow releases the GIL. A small file is done
    # faster than threads start.
    # Text read: each number column is parsed and copied into its matrix column by one job, so
    # at most one parsed column per worker is alive beside the matrices.
    workers = 2 if plan.cells else len(plan.keys)
    with ThreadPoolExecutor(max_workers=max(1, min(workers, os.cpu_count() or 1))) as pool:
        submit = pool.submit if n_rows >= PARALLEL_ROWS else run_now
        coded = {name: submit(encode, table.column(name)) for name in plan.keys}
        copied: list[Future[bool]] = []
        for block, matrix in zip(plan.blocks, blocks, strict=True):
            for j, name in enumerate(block):
                if plan.cells:
                    copied.append(submit(_parse_into, table.column(name), matrix[:, j]))
                else:
                    copied.append(run_now(copy_floats, table.column(name), matrix[:, j]))
        ok = all([future.result() for future in copied])
        ok = ok and all(all_finite(matrix) for matrix in blocks)
        encoded = {name: future.result() for name, future in coded.items()}
    integers = {name: int_column(table, name) for name in plan.integers}
    if not ok or any(v is None for v in integers.values()):
        return None
    if _any_empty(table, encoded, plan.identity):
        return None
    return Parts(
        n_rows,
        encoded,
        blocks,
        {name: v for name, v in integers.items() if v is not None},
        ArrowCells(table) if plan.cells else None,
    )


def arrow_table(data: bytes, header: Sequence[str], plan: ReadPlan) -> Any:
    """Arrow's reading of the file for ``plan`` (every column as text when it keeps the cells,
    else the columns it reads, typed); raises Arrow's own errors. The benchmarks' parse-only
    measurement calls it, so it can never drift from what the build reads."""
    import pyarrow as pa

    names = list(header)
    if plan.cells:
        return arrow_read(data, names, {h: pa.string() for h in names}, names)
    types: dict[str, Any] = {name: pa.string() for name in (*plan.keys, *plan.identity)}
    types |= {name: pa.float64() for name in plan.numeric}
    types |= {name: pa.int64() for name in plan.integers}
    return arrow_read(data, names, types, list(types))


def _parse_into(column: Any, out: FloatArray) -> bool:
    """A text column parsed into ``out``; False if a cell is not a number."""
    cast = _cast_floats(column)
    return cast is not None and copy_floats(cast, out)


def _cast_floats(column: Any) -> Any:
    """A text column cast to float64 as Arrow's CSV reader parses it (which also allows spaces
    and tabs around a number), or None if a cell is not a number."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        return pc.cast(column, pa.float64())
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        try:
            return pc.cast(pc.utf8_trim(column, " \t"), pa.float64())
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            return None


def _any_empty(table: Any, encoded: Encoded, identity: Sequence[str]) -> bool:
    """Whether a cell that names a row, document or group is empty: an encoded column's
    distinct values tell at once; another column is searched by Arrow."""
    import pyarrow.compute as pc

    for name in identity:
        if name in encoded:
            if "" in encoded[name][0]:
                return True
        elif pc.any(pc.equal(table.column(name), "")).as_py():
            return True
    return False


def all_finite(values: FloatArray) -> bool:
    # The sum is finite exactly when no value is inf or nan, unless finite values overflow it;
    # only then is the exact element-wise test (a full boolean array) needed.
    with np.errstate(all="ignore"):
        total = values.sum()
    return bool(np.isfinite(total) or np.isfinite(values).all())
