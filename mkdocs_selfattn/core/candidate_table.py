"""The validated table of candidate rows that the CSV reader produces and the core computes on.

Text columns are dictionary-encoded so grouping a million rows stays a numpy operation; row
numbers travel with every subset so messages can still name the file's lines.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from mkdocs_selfattn.core.column_map import ColumnMap

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
CodeArray = npt.NDArray[np.int32]
"""Dictionary codes: int32 like Arrow's own indices, half the memory of int64 for a column that
has a code per row. Arithmetic on codes must widen to int64 first (see row_keys.group_keys)."""

PARALLEL_ROWS = 100_000
"""From this many rows on, independent steps run on worker threads; below, threads cost more
than they save (numpy and Arrow release the GIL only for work worth the hand-over)."""

_T = TypeVar("_T")


def run_now(fn: Callable[..., _T], *args: Any) -> Future[_T]:
    """``pool.submit``'s signature, run in this thread: the small-table stand-in for a pool."""
    future: Future[_T] = Future()
    future.set_result(fn(*args))
    return future


@dataclass(frozen=True, eq=False)
class CandidateTable:
    """One CSV file, validated: every score and vector value finite, every required column present.

    Text columns are dictionary-encoded (``*_codes`` index into the tuple of distinct values in
    first-appearance order) so grouping a million rows stays a numpy operation.
    """

    source: str
    columns: ColumnMap
    vector_columns: tuple[str, ...]
    documents: tuple[str, ...]
    document_codes: CodeArray
    targets: tuple[str, ...]
    target_codes: CodeArray
    candidates: tuple[str, ...]
    candidate_codes: CodeArray
    roles: tuple[str, ...]
    role_codes: CodeArray
    scores: FloatArray
    vectors: FloatArray
    target_index: IntArray | None = None
    candidate_index: IntArray | None = None
    row_numbers: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Row position in the file (0 = first data row), kept through subsetting for messages."""
    data: bytes | None = None
    """The file's bytes (shared, not copied), to turn row numbers into lines for messages."""

    def line_of(self, row: int) -> int:
        """Physical line of the file where table row ``row`` (an index into this table) starts."""
        number = int(self.row_numbers[row])
        if self.data is None:
            return number + 2
        from mkdocs_selfattn.core.csv_diagnose import row_line

        return row_line(self.data, number)

    @property
    def n_rows(self) -> int:
        return int(self.scores.shape[0])

    def subset(self, mask: npt.NDArray[np.bool_]) -> CandidateTable:
        """Rows where ``mask`` holds; category tuples are kept so codes stay valid."""
        return replace(
            self,
            document_codes=self.document_codes[mask],
            target_codes=self.target_codes[mask],
            candidate_codes=self.candidate_codes[mask],
            role_codes=self.role_codes[mask],
            scores=self.scores[mask],
            vectors=self.vectors[mask],
            target_index=None if self.target_index is None else self.target_index[mask],
            candidate_index=None if self.candidate_index is None else self.candidate_index[mask],
            row_numbers=self.row_numbers[mask],
        )
