"""CSV bytes → the validated table of a ``queries:`` or ``heads:`` example (as csv_read: the stdlib
reader of :mod:`csv_small` for a small file, Arrow's for a big one, the same table either way).

The file is read once with every column as text, so each line keeps its cells exactly as
written (a printout shows ``3.00`` where the file says so) while the score, weight and vector
columns are converted to numbers from those same strings. As in :mod:`csv_read`, the slow stdlib
reader runs only when something is wrong, to name the first bad line, column and cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mkdocs_selfattn.core.arrays import CodeArray, FloatArray
from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_diagnose import diagnose_rows, row_line, without_bom
from mkdocs_selfattn.core.csv_front import ReadPlan, all_finite, read_parts
from mkdocs_selfattn.core.csv_header import BLANK, read_header
from mkdocs_selfattn.core.csv_hidden import refuse_hidden_names
from mkdocs_selfattn.core.csv_read import refuse_foreign, refuse_repeated
from mkdocs_selfattn.core.table import Table, TableColumns
from mkdocs_selfattn.errors import DataError, did_you_mean_each, listing

DEFAULT_COLUMNS: dict[str, str] = {
    role: getattr(ColumnMap, role) for role in ("document", "candidate", "role")
}
"""Column names of the roles a block does not map: :class:`ColumnMap`'s, every layout's; ``group``
has none: without it, a document (or the whole file) is one group."""


def reading_columns(
    header: Sequence[str],
    mapping: Mapping[str, str],
    readers: Mapping[str, str],
    reader_key: str,
    vectors: Sequence[str] | None,
    axes: Mapping[str, Sequence[str]] | None,
    document: bool,
    source: str,
) -> TableColumns:
    """The roles resolved against the header; every named column must exist (did-you-mean)."""
    names = {**DEFAULT_COLUMNS, **mapping}
    read = {c for c in readers.values()}
    # The role column is optional here: its default name is taken only when the file has it and
    # no reader reads it (a file may well score by a column of that name).
    defaulted = names["role"] in header and names["role"] not in read
    role = names["role"] if "role" in mapping or defaulted else None
    chosen = TableColumns(
        candidate=names["candidate"],
        role=role,
        document=names["document"] if document else None,
        group=mapping.get("group"),
        readers=tuple(readers.items()),
        axes=(),
    )
    text = [c for c in (chosen.candidate, chosen.role, chosen.document, chosen.group) if c]
    named = [*(c for _, c in chosen.readers), *(vectors or ())]
    refuse_foreign(
        header, [*text, *named, *(c for cols in (axes or {}).values() for c in cols)], source
    )
    _require(header, text, source, "columns", "(map other names with 'columns:')")
    _require(header, [c for _, c in chosen.readers], source, reader_key, "")
    roles = {
        column: role
        for role, column in (
            ("group", chosen.group),
            ("document", chosen.document),
            ("role", chosen.role),
            ("candidate", chosen.candidate),
        )
        if column
    }
    shared = [(name, c) for name, c in chosen.readers if c in roles]
    if shared:
        name, column = shared[0]
        raise DataError(
            source,
            f"{name!r} reads column {column!r}, which is the {roles[column]} column (text); "
            "name a column of numbers",
            line=1,
            key=reader_key,
        )
    if axes is not None:
        picked = tuple((name, tuple(cols)) for name, cols in axes.items())
        _require(header, [c for _, cols in picked for c in cols], source, "axes", "")
        key = "axes"
    elif vectors is not None:
        refuse_repeated(vectors, source, "vectors")
        picked = tuple((name, (name,)) for name in vectors)
        _require(header, [c for c, _ in picked], source, "vectors", "")
        key = "vectors"
    else:
        reserved = {*text, *DEFAULT_COLUMNS.values(), *(c for _, c in chosen.readers)}
        picked = tuple((h, (h,)) for h in header if h not in reserved)
        key = "vectors"
    if not picked:
        raise DataError(
            source,
            "no vector columns: list the columns each line contributes in 'vectors:' or 'axes:'",
            line=1,
            key=key,
        )
    textual = [c for _, cols in picked for c in cols if c in text]
    if textual:
        raise DataError(
            source,
            f"column {textual[0]!r} names a line, document or group (text), so it cannot be a "
            "vector column; list numeric columns only",
            line=1,
            key=key,
        )
    return TableColumns(
        chosen.candidate, chosen.role, chosen.document, chosen.group, chosen.readers, picked
    )


def _require(header: Sequence[str], wanted: Sequence[str], source: str, key: str, how: str) -> None:
    missing = list(dict.fromkeys(c for c in wanted if c not in header))
    if missing:
        raise DataError(
            source,
            f"column(s) {', '.join(repr(m) for m in missing)} not in the header"
            f"{did_you_mean_each(missing, header)}; the header has {listing(header)}"
            + (f" {how}" if how else ""),
            line=1,
            key=key,
        )


def parse_reading(
    data: bytes,
    *,
    source: str,
    mapping: Mapping[str, str],
    readers: Mapping[str, str],
    reader_key: str,
    vectors: Sequence[str] | None = None,
    axes: Mapping[str, Sequence[str]] | None = None,
    document: bool = False,
    given: bool = False,
) -> Table:
    """Validate CSV bytes into a :class:`Table` or raise one precise :class:`DataError`.

    ``given``: the readers' columns are given weights, which must also be ≥ 0.
    """
    if BLANK.fullmatch(data):
        raise DataError(source, "the file is empty; it needs a header line and data rows", line=1)
    header = read_header(data, source)
    cols = reading_columns(header, mapping, readers, reader_key, vectors, axes, document, source)

    def problem() -> DataError:
        error = diagnose_rows(without_bom(data), header, cols.identity, cols.numeric, (), source)
        defaulted = {c for _, members in cols.axes for c in members} - {c for _, c in cols.readers}
        if vectors is None and axes is None and error.column in defaulted:
            # The column was a vector only because no list said otherwise.
            return DataError(
                source,
                f"{error.message} (without 'vectors:' or 'axes:', every column besides "
                "the named ones is a vector column: list the vector columns)",
                line=error.line,
                column=error.column,
                key="vectors",
            )
        return error

    parts = read_parts(data, header, reading_plan(cols), source, problem)
    n_rows, encoded, cells = parts.n_rows, parts.encoded, parts.cells
    assert cells is not None  # the plan keeps the cells
    (numbers,) = parts.blocks
    at = {name: j for j, name in enumerate(cols.numeric)}
    values = np.empty((n_rows, len(cols.readers)), dtype=np.float64)
    for j, (_, column) in enumerate(cols.readers):
        values[:, j] = numbers[:, at[column]]
    vectors_out = np.empty((n_rows, len(cols.axes)), dtype=np.float64)
    for j, (_, members) in enumerate(cols.axes):
        total = numbers[:, at[members[0]]] + 0.0  # Python's sum() starts from 0: -0.0 becomes 0.0
        with np.errstate(over="ignore"):
            for name in members[1:]:
                total += numbers[:, at[name]]
        vectors_out[:, j] = total
    if len(cols.axes) and not all_finite(vectors_out):
        _refuse_axis_overflow(vectors_out, cols.axes, data, source)
    table = Table(
        source=source,
        header=tuple(header),
        columns=cols,
        documents=("",) if cols.document is None else encoded[cols.document][0],
        document_codes=_codes(encoded, cols.document, n_rows),
        groups=("",) if cols.group is None else encoded[cols.group][0],
        group_codes=_codes(encoded, cols.group, n_rows),
        values=values,
        vectors=vectors_out,
        cells=cells,
        data=data,
        row_numbers=np.arange(n_rows, dtype=np.int64),
    )
    plain = [c for c in (cols.candidate, cols.role) if c is not None and c not in encoded]
    refuse_hidden_names(source, data, encoded, cells, plain)
    if given:
        _check_given(table)
    return table


def _refuse_axis_overflow(
    vectors: FloatArray, axes: Sequence[tuple[str, tuple[str, ...]]], data: bytes, source: str
) -> None:
    """An axis whose columns' finite cells, added left to right as every sum of the core and of a
    chapter's script is, leave the float range on the way: the first such row."""
    row, j = (int(i) for i in np.argwhere(~np.isfinite(vectors))[0])
    name, members = axes[j]
    raise DataError(
        source,
        f"axis {name!r} adds {', '.join(map(repr, members))} left to right (as a script's sum() "
        "does) past the float range (about ±1.8e308); scale those columns down",
        line=row_line(data, row),
        key="axes",
    )


def reading_plan(cols: TableColumns) -> ReadPlan:
    """What a questions or heads example reads: every cell as written, the document and group
    encoded (the line ids are not: hashing a million distinct ids would cost more than the whole
    computation), the names never empty, and the reader and vector columns as one matrix."""
    return ReadPlan(
        keys=tuple(dict.fromkeys(c for c in (cols.document, cols.group) if c is not None)),
        identity=cols.identity,
        blocks=(cols.numeric,),
        cells=True,
    )


def _codes(encoded: Mapping[str, tuple[Any, CodeArray]], column: str | None, n: int) -> CodeArray:
    if column is None:
        return np.zeros(n, dtype=np.int32)
    return encoded[column][1]


def _check_given(table: Table) -> None:
    """A given weight is a share of attention: negative makes no sense (checked per cell; the
    sums are checked per group and head by the engine)."""
    negative = np.flatnonzero((table.values < 0).any(axis=1))
    if not negative.size:
        return
    row = int(negative[0])
    j = int(np.flatnonzero(table.values[row] < 0)[0])
    name, column = table.columns.readers[j]
    cell = table.written.cell(column, row)
    raise DataError(
        table.source,
        f"head {name!r} has the weight {cell!r}; a given weight must be ≥ 0 (and the weights "
        "of each group sum to 1)",
        line=table.line_of(row),
        column=column,
    )
