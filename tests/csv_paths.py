"""Both readers on one file: the stdlib reader for small files (csv_small) and Arrow's.

``both`` parses a file twice, once with the size limit out of reach (the stdlib reader, which may
still hand the file to Arrow) and once with the limit at 0 (always Arrow), and fails unless the
tables are equal field by field, arrays bit for bit (dtype, shape and bytes: -0.0 is not 0.0
here), or the errors equal by message, line, column and key. A spy on Arrow's reader tells which
path a file took.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from mkdocs_selfattn.core import csv_front, csv_size
from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_read import parse_table
from mkdocs_selfattn.core.reading_table import parse_reading
from mkdocs_selfattn.core.table import Names, Table
from mkdocs_selfattn.core.table_cells import ArrowCells, ListCells
from mkdocs_selfattn.errors import DataError

TARGETS = ["document_id", "target_token", "candidate_token", "candidate_role", "score", "v1", "v2"]
INDEX = ["target_index", "candidate_index"]
QUESTIONS = ["line_id", "section", "text", "s1", "s2", "v1"]
HEADS = ["report_id", "scenario", "token", "relation_role", "x", "y", "z", "w1", "w2"]
NUMERIC = {"score", "v1", "v2", "s1", "s2", "x", "y", "z", "w1", "w2"}
INTEGER = set(INDEX)


def read(layout: str, data: bytes) -> Any:
    if layout in ("targets", "indexed"):
        return parse_table(data, source="t.csv", columns=ColumnMap())
    if layout == "questions":
        return parse_reading(
            data,
            source="q.csv",
            mapping={"candidate": "line_id", "role": "section"},
            readers={"hold": "s1", "flow": "s2"},
            reader_key="queries",
            vectors=["v1"],
        )
    return parse_reading(
        data,
        source="h.csv",
        mapping={
            "document": "report_id",
            "group": "scenario",
            "candidate": "token",
            "role": "relation_role",
        },
        readers={"head1": "w1", "head2": "w2"},
        reader_key="heads",
        axes={"a": ["x"], "b": ["y", "z"]},
        document=True,
        given=True,
    )


@contextmanager
def limit(value: int) -> Iterator[list[int]]:
    """The size limit set to ``value``; yields a list that counts Arrow's reads."""
    calls: list[int] = []
    saved, original = csv_size.SMALL_BYTES, csv_front.arrow_read

    def spy(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    csv_size.SMALL_BYTES, csv_front.arrow_read = value, spy
    try:
        yield calls
    finally:
        csv_size.SMALL_BYTES, csv_front.arrow_read = saved, original


def outcome(layout: str, data: bytes) -> tuple[str, Any]:
    try:
        return "table", read(layout, data)
    except DataError as error:
        return "error", (error.message, error.path, error.line, error.column, error.key)


def fields(table: Any) -> dict[str, Any]:
    """Every field in a comparable form: arrays as (dtype, shape, bytes), cells as rows."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(table):
        value = getattr(table, f.name)
        if isinstance(value, np.ndarray):
            value = (value.dtype.str, value.shape, value.tobytes())
        elif isinstance(value, ArrowCells | ListCells):
            value = (value.num_rows, table.row_cells())
        elif isinstance(value, Names):
            value = fields(value)
        out[f.name] = value
    return out


def both(layout: str, data: bytes) -> tuple[bool, Any]:
    """(whether the stdlib reader kept the file, the common outcome); fails if they differ."""
    with limit(1 << 40) as calls:
        small = outcome(layout, data)
    with limit(0):
        arrow = outcome(layout, data)
    kept = not calls
    assert small[0] == arrow[0], (small, arrow)
    if small[0] == "error":
        assert small[1] == arrow[1]
    else:
        assert fields(small[1]) == fields(arrow[1])
        if isinstance(small[1], Table) and small[1].cells is not None:
            assert isinstance(small[1].cells, ListCells if kept else ArrowCells)
            assert isinstance(arrow[1].cells, ArrowCells)
            for name in small[1].header:
                assert small[1].text(name) == arrow[1].text(name)
            rows = np.array([0, small[1].n_rows - 1], dtype=np.int64)
            assert fields(small[1].subset(np.isin(np.arange(small[1].n_rows), rows))) == fields(
                arrow[1].subset(np.isin(np.arange(arrow[1].n_rows), rows))
            )
    return kept, small[1]
