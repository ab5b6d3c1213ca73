"""The one validated table every layout's CSV front end produces and the engine computes on.

A table is groups of candidate rows read by one or more readers: each data row has a document
and a group (a targets file's target, a questions file's scenario; without a group column a
document, or the whole file, is one group), one value per reader (a score column for the softmax
or a column of given weights) and a vector. Text columns that group rows are dictionary-encoded
(``*_codes`` index into the tuple of distinct values in first-appearance order), so grouping a
million rows stays a numpy operation; row numbers travel with every subset so messages can still
name the file's lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from mkdocs_selfattn.core.arrays import CodeArray, FloatArray, IntArray
from mkdocs_selfattn.core.hidden_text import visible_all
from mkdocs_selfattn.core.table_cells import Cells
from mkdocs_selfattn.errors import DataError


@dataclass(frozen=True)
class TableColumns:
    """Which CSV columns play which part: the same roles in every layout."""

    candidate: str
    role: str | None
    document: str | None
    group: str | None
    """A targets file's target column, a reading's group column (None: a document is one)."""
    readers: tuple[tuple[str, str], ...]
    """(label or head name, score or weight column), in the block's order; a targets file has
    one, its score column, which each target's softmax reads."""
    axes: tuple[tuple[str, tuple[str, ...]], ...]
    """(axis name, the columns it sums), in order."""

    @property
    def numeric(self) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys([*(c for _, c in self.readers), *(c for _, a in self.axes for c in a)])
        )

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.axes)

    def free_text(self, header: Sequence[str]) -> set[str]:
        """Columns that name nothing and hold no number: only displayed (so never refused)."""
        return set(header) - {*self.numeric, *self.identity, *(c for c in [self.role] if c)}

    @property
    def identity(self) -> tuple[str, ...]:
        """Text columns that must never be empty: they name a line, a document or a group."""
        return tuple(c for c in (self.candidate, self.document, self.group) if c is not None)


@dataclass(frozen=True, eq=False)
class Names:
    """The candidate and role of every row, dictionary-encoded, and the positions of a file with
    index columns: what a layout that compares candidates across groups (a document's distinct
    candidates make its baseline) reads as codes rather than as text."""

    candidates: tuple[str, ...]
    candidate_codes: CodeArray
    roles: tuple[str, ...]
    role_codes: CodeArray
    candidate_index: IntArray | None = None

    def take(self, rows: IntArray) -> Names:
        return replace(
            self,
            candidate_codes=self.candidate_codes[rows],
            role_codes=self.role_codes[rows],
            candidate_index=None if self.candidate_index is None else self.candidate_index[rows],
        )

    def token(self, row: int) -> str:
        return self.candidates[int(self.candidate_codes[row])]


@dataclass(frozen=True, eq=False)
class Table:
    """One CSV file, validated: every value finite, every named column present."""

    source: str
    columns: TableColumns
    documents: tuple[str, ...]
    document_codes: CodeArray
    groups: tuple[str, ...]
    group_codes: CodeArray
    values: FloatArray
    """(rows × readers): each reader's column."""
    vectors: FloatArray
    """(rows × axes): each axis the left-to-right sum of its columns."""
    data: bytes | None = None
    """The file's bytes (shared, not copied), to turn row numbers into lines for messages."""
    row_numbers: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Row position in the file (0 = first data row), kept through subsetting for messages."""
    header: tuple[str, ...] = ()
    group_index: IntArray | None = None
    """Each row's group position, where index columns tell a token's occurrences apart."""
    names: Names | None = None
    """Encoded candidates and roles, for a layout that reads them as codes."""
    cells: Cells | None = None
    """Every column as written (Arrow's table for a big file, lists for a small one), for a
    layout whose printout shows the cells as the file has them."""

    @property
    def n_rows(self) -> int:
        return int(self.values.shape[0])

    def line_of(self, row: int) -> int:
        """Physical line of the file where table row ``row`` (an index into this table) starts."""
        number = int(self.row_numbers[row])
        if self.data is None:
            return number + 2
        from mkdocs_selfattn.core.csv_diagnose import row_line

        return row_line(self.data, number)

    def subset(self, mask: npt.NDArray[np.bool_]) -> Table:
        """Rows where ``mask`` holds; category tuples are kept so codes stay valid."""
        rows = np.flatnonzero(mask)
        return replace(
            self,
            document_codes=self.document_codes[rows],
            group_codes=self.group_codes[rows],
            values=self.values[rows],
            vectors=self.vectors[rows],
            row_numbers=self.row_numbers[rows],
            group_index=None if self.group_index is None else self.group_index[rows],
            names=None if self.names is None else self.names.take(rows),
            cells=None if self.cells is None else self.cells.take(rows),
        )

    @property
    def encoded(self) -> Names:
        """The encoded candidates and roles; only a layout whose front end encodes them has them."""
        if self.names is None:
            raise DataError(
                self.source,
                "this table was read for a questions or heads example; a targets example needs "
                "the table csv_read.parse_table reads",
            )
        return self.names

    @property
    def written(self) -> Cells:
        """The cells as written; only a layout that asks its front end to keep them has them."""
        if self.cells is None:
            raise DataError(
                self.source,
                "this table was read for a targets example; a questions or heads example needs "
                "the table reading_table.parse_reading reads",
            )
        return self.cells

    def row_cells(self) -> list[tuple[str, ...]]:
        """Every row's cells as written, aligned with :attr:`header`; a hidden character in a
        free-text cell (names refuse them) shows as ``<U+202E>``."""
        cells = self.written
        free = self.columns.free_text(self.header)
        columns = [
            visible_all(cells.texts(name))
            if name in free and cells.may_hide(name)
            else cells.texts(name)
            for name in self.header
        ]
        return list(zip(*columns, strict=True))

    def text(self, column: str | None) -> list[str]:
        """A text column's cells as written ("" for every row without the column), for a table
        that keeps its cells. A questions or heads table's candidate and role columns are read
        only here, for the rows a result shows: the engine groups by document and group only,
        and hashing a million distinct line ids would cost more than the whole computation."""
        if column is None:
            return [""] * self.n_rows
        return self.written.texts(column)
