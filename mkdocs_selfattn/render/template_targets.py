"""Template records of the targets layout: the document's targets and candidates as the
printout reads them, and each candidate's CSV cells as written (``c.cells.evidence_cap``).

The records keep lists always, as the targets printout has always printed them. The cells are read
from the CSV only when a template asks for one: the default template never does, so a page
without a template pays nothing for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_rows import rows_where
from mkdocs_selfattn.core.results import CandidateResult, DocumentResult, TargetResult
from mkdocs_selfattn.errors import DataError
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.template_env import Cells, Described, Named

_Key = tuple[str, int | None, str, int | None]


class TargetRows:
    """The document's rows by (target, its index, candidate, its index), read when first asked."""

    def __init__(self, data: bytes | None, columns: Mapping[str, str], document: str) -> None:
        self._data, self._columns, self._document = data, columns, document

    @cached_property
    def _rows(self) -> dict[_Key, Cells]:
        if self._data is None:
            raise ValueError("c.cells needs the example's CSV, which this printout was not given")
        try:
            names = ColumnMap.from_mapping(self._columns, source="")
        except DataError:
            names = ColumnMap()
        found = rows_where(self._data, "", names.document, self._document)
        header = found.header
        rows: dict[_Key, Cells] = {}
        for cells in found.rows:
            row = Cells(zip(header, cells, strict=False))
            key = (
                row.get(names.target, ""),
                _index(row.get(names.target_index)),
                row.get(names.candidate, ""),
                _index(row.get(names.candidate_index)),
            )
            rows.setdefault(key, row)
        return rows

    def cells(self, target: TargetResult, cand: CandidateResult) -> Cells:
        key = (target.target, target.target_index, cand.token, cand.index)
        found = self._rows.get(key)
        if found is None:
            raise ValueError(f"no CSV row of target '{target.target}', candidate '{cand.token}'")
        return found


def _index(text: str | None) -> int | None:
    """A position cell as the core reads it (``3`` and ``3.0`` alike), None without one."""
    if text is None or not text.strip():
        return None
    try:
        return int(text)
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            return None
        return int(number) if number.is_integer() else None


class CandidateVars(Described):
    kind = "candidate"
    fields = ("token", "index", "display", "role", "score", "weight", "vector", "cells")

    def __init__(
        self, cand: CandidateResult, target: TargetResult, labels: Labels, rows: TargetRows
    ) -> None:
        self._cand, self._target, self._rows = cand, target, rows
        self.token = cand.token
        self.index = cand.index
        self.display = labels(cand.token, cand.index)
        self.role = cand.role
        self.score = cand.score
        self.weight = cand.weight
        self.vector = list(cand.vector)

    @cached_property
    def cells(self) -> Cells:
        return self._rows.cells(self._target, self._cand)


class TargetVars(Described):
    kind = "target"
    fields = (
        "token",
        "index",
        "display",
        "candidates",
        "context",
        "representation",
        "shift",
        "top",
        "groups",
    )

    def __init__(self, target: TargetResult, labels: Labels, rows: TargetRows) -> None:
        self.token = target.target
        self.index = target.target_index
        self.display = labels(target.target, target.target_index)
        self.candidates = [CandidateVars(c, target, labels, rows) for c in target.candidates]
        self.context = list(target.context)
        self.representation = self.context  # the name documented first, kept working
        self.shift = list(target.shift)
        self.groups = Named(target.groups)
        top = [c for c in self.candidates if (c.token, c.index) == (target.top, target.top_index)]
        bare = CandidateResult(target.top, target.top_index, "", 0.0, 0.0, ())
        self.top = top[0] if top else CandidateVars(bare, target, labels, rows)


def target_variables(
    result: DocumentResult,
    labels: Labels,
    csv_bytes: bytes | None = None,
    columns: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The targets layout: a document's targets in CSV order."""
    rows = TargetRows(csv_bytes, columns or {}, result.document)
    return {
        "layout": "targets",
        "source": result.source,
        "csv_rows": result.csv_rows,
        "document": result.document,
        "document_rows": result.document_rows,
        "vector_columns": list(result.vector_columns),
        "baseline": list(result.baseline),
        "temperature": result.temperature,
        "targets": [TargetVars(t, labels, rows) for t in result.targets],
    }
