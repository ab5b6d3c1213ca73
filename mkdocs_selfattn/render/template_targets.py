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
from mkdocs_selfattn.core.readings import GroupResult, Line, ReadingResult
from mkdocs_selfattn.core.results import target_head, top_line
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

    def cells(self, target: GroupResult, cand: Line) -> Cells:
        key = (target.name, target.index, cand.token, cand.index)
        found = self._rows.get(key)
        if found is None:
            raise ValueError(f"no CSV row of target '{target.name}', candidate '{cand.token}'")
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
        self,
        cand: Line,
        numbers: tuple[float, float],
        target: GroupResult,
        labels: Labels,
        rows: TargetRows,
    ) -> None:
        self._cand, self._target, self._rows = cand, target, rows
        self.token = cand.token
        self.index = cand.index
        self.display = labels(cand.token, cand.index)
        self.role = cand.role
        self.score, self.weight = numbers
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

    def __init__(self, target: GroupResult, labels: Labels, rows: TargetRows) -> None:
        head = target_head(target)
        self.token = target.name
        self.index = target.index
        self.display = labels(target.name, target.index)
        numbers = zip(head.values, head.weights, strict=True)
        self.candidates = [
            CandidateVars(line, pair, target, labels, rows)
            for line, pair in zip(target.lines, numbers, strict=True)
        ]
        self.context = list(head.context)
        self.representation = self.context  # the name documented first, kept working
        self.shift = list(head.shift)
        self.groups = Named(head.groups)
        best = top_line(target)
        # The first candidate row of the top token (and position), as the printout names it.
        self.top = next(
            c for c in self.candidates if (c.token, c.index) == (best.token, best.index)
        )


def target_variables(
    result: ReadingResult,
    labels: Labels,
    csv_bytes: bytes | None = None,
    columns: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The targets layout: a document's targets in CSV order."""
    document = result.document or ""  # a targets example always names its document
    rows = TargetRows(csv_bytes, columns or {}, document)
    groups = result.groups
    return {
        "layout": "targets",
        "source": result.source,
        "csv_rows": result.csv_rows,
        "document": document,
        "document_rows": result.document_rows,
        "vector_columns": list(result.axis_names),
        "baseline": list(groups[0].baseline) if groups else [],
        "temperature": result.temperature,
        "targets": [TargetVars(g, labels, rows) for g in groups],
    }
