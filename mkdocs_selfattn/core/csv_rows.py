"""A file's rows as written, for what shows them rather than computes with them: the ``csv``
view and a template's ``c.cells``.

They are read by the computation's own readers (:mod:`csv_small`'s stdlib reader when its strict
grammar holds, Arrow's otherwise) and header (:mod:`csv_header`), so a row a page shows is the
row the numbers came from, whatever the file's quoting or line endings. The stdlib rows come one
at a time, so a view of a document's first rows stops reading where they end; numpy and pyarrow
are imported only for a file the stdlib reader is not sure of, which the computation read with
Arrow too.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from itertools import islice
from typing import Any, NamedTuple

from mkdocs_selfattn.core import csv_small
from mkdocs_selfattn.core.csv_header import read_header
from mkdocs_selfattn.errors import DataError

_BATCH = 4096
"""Rows turned into Python strings at a time on Arrow's path."""


class Rows(NamedTuple):
    header: list[str]
    """The header as every layout reads it (names stripped)."""
    rows: Iterator[tuple[str, ...]]
    """The chosen rows' cells, in file order, as written."""


def rows_where(data: bytes, source: str, column: str | None, value: str | None) -> Rows:
    """The rows whose ``column`` cell is ``value`` (every row when ``column`` is None).

    ``column`` must be in the header: the example that asks has been computed from this file.
    """
    header = read_header(data, source)
    lines = csv_small.data_rows(data)
    if lines is None:
        return Rows(header, _arrow_rows(data, header, source, column, value))
    return Rows(header, _stdlib_rows(lines, data, header, source, column, value))


def _stdlib_rows(
    lines: Iterator[list[str]],
    data: bytes,
    header: list[str],
    source: str,
    column: str | None,
    value: str | None,
) -> Iterator[tuple[str, ...]]:
    """The stdlib reader's rows; past a row it cannot read (a field beyond the ``csv`` module's
    size limit, which sends the computation to Arrow too), Arrow's rows from that row on."""
    at = None if column is None else header.index(column)
    read = 0
    try:
        for row in lines:
            read += 1
            if at is None or row[at] == value:
                yield tuple(row)
    except csv.Error:
        rest = _arrow_rows(data, header, source, None, None)
        for cells in islice(rest, read, None):
            if at is None or cells[at] == value:
                yield cells


def _arrow_rows(
    data: bytes, header: list[str], source: str, column: str | None, value: str | None
) -> Iterator[tuple[str, ...]]:
    from mkdocs_selfattn.core.arrow_extra import arrow_missing, needs_arrow

    if arrow_missing():
        raise needs_arrow(data, source, lambda: DataError(source, "the file is not valid CSV"))
    import pyarrow as pa
    import pyarrow.compute as pc

    from mkdocs_selfattn.core.csv_front import ReadPlan, arrow_table

    try:
        table = arrow_table(data, header, ReadPlan(keys=(), identity=(), blocks=(), cells=True))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        raise DataError(source, "the file is not valid CSV") from None
    if column is not None:
        table = table.filter(pc.equal(table.column(column), value))
    return _batches(table)


def _batches(table: Any) -> Iterator[tuple[str, ...]]:
    for batch in table.to_batches(max_chunksize=_BATCH):
        columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
        yield from zip(*columns, strict=True)
