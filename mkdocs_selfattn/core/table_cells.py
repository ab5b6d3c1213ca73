"""A reading's cells as written: one interface over an Arrow table (a big file) or plain lists.

A small file is read by the stdlib reader, which yields lists already; a big one stays an Arrow
table, and only the columns and rows a result shows are ever turned into Python strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np

from mkdocs_selfattn.core.arrays import IntArray
from mkdocs_selfattn.core.hidden_text import SUSPECT, SUSPECT_RE2


class Cells(Protocol):
    """Every column of a reading's file as text, by column name."""

    @property
    def num_rows(self) -> int: ...

    def texts(self, column: str) -> list[str]:
        """One column's cells, every row."""
        ...

    def cell(self, column: str, row: int) -> str: ...

    def take(self, rows: IntArray) -> Cells:
        """The rows ``rows`` (ascending positions), in that order."""
        ...

    def may_hide(self, column: str) -> bool:
        """Whether a cell of ``column`` may hold a hidden character (see :mod:`hidden_text`)."""
        ...

    def suspects(self, column: str) -> list[tuple[int, str]]:
        """(row, cell) of each cell that may hold a hidden character, in row order."""
        ...


class ArrowCells:
    """The Arrow table of a big file's text columns."""

    def __init__(self, table: Any) -> None:
        self.table = table

    @property
    def num_rows(self) -> int:
        return int(self.table.num_rows)

    def texts(self, column: str) -> list[str]:
        found: list[str] = self.table.column(column).to_pylist()
        return found

    def cell(self, column: str, row: int) -> str:
        return str(self.table.column(column)[row].as_py())

    def take(self, rows: IntArray) -> ArrowCells:
        import pyarrow as pa

        return ArrowCells(self.table.take(pa.array(rows)))

    def may_hide(self, column: str) -> bool:
        """One search over the column's bytes as a single value: searching cell by cell (or
        chunk by chunk, each call compiling the expression again) costs Arrow several times
        more, and a clean column is the rule."""
        import pyarrow as pa
        import pyarrow.compute as pc

        cells = self.table.column(column).combine_chunks()
        if not len(cells):
            return False
        width = np.int64 if pa.types.is_large_string(cells.type) else np.int32
        offsets = np.frombuffer(
            cells.buffers()[1],
            dtype=width,
            count=len(cells) + 1,
            offset=cells.offset * np.dtype(width).itemsize,
        )
        span = pa.py_buffer(np.array([offsets[0], offsets[-1]], dtype=np.int64).tobytes())
        whole = pa.LargeStringArray.from_buffers(1, span, cells.buffers()[2])
        return bool(pc.any(pc.match_substring_regex(whole, SUSPECT_RE2)).as_py())

    def suspects(self, column: str) -> list[tuple[int, str]]:
        import pyarrow.compute as pc

        if not self.may_hide(column):
            return []
        found = pc.match_substring_regex(self.table.column(column), SUSPECT_RE2)
        rows = np.flatnonzero(found.to_numpy(zero_copy_only=False))
        return [(int(r), self.cell(column, int(r))) for r in rows]


class ListCells:
    """A small file's columns as the stdlib reader gave them."""

    def __init__(self, columns: Mapping[str, list[str]]) -> None:
        self.columns = dict(columns)
        self._rows = len(next(iter(self.columns.values()), []))

    @property
    def num_rows(self) -> int:
        return self._rows

    def texts(self, column: str) -> list[str]:
        return list(self.columns[column])

    def cell(self, column: str, row: int) -> str:
        return self.columns[column][row]

    def take(self, rows: IntArray) -> ListCells:
        picked = np.asarray(rows, dtype=np.int64).tolist()
        return ListCells({name: [cells[i] for i in picked] for name, cells in self.columns.items()})

    def may_hide(self, column: str) -> bool:
        return SUSPECT.search("\n".join(self.columns[column])) is not None

    def suspects(self, column: str) -> list[tuple[int, str]]:
        cells = self.columns[column]
        if not self.may_hide(column):
            return []
        return [(row, cell) for row, cell in enumerate(cells) if SUSPECT.search(cell)]
