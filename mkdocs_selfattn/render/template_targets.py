"""The targets layout's template names, as aliases of every layout's records
(:mod:`template_vars`): a target is a group read by its one head (``t.candidates``, ``t.context``,
``t.top`` are that head's lines and numbers), a candidate a line of that head, and ``targets``
the example's ``groups``.

The records keep lists always, as the targets printout has always printed them. A candidate's
cells (``c.cells.evidence_cap``) are read from the CSV only when a template asks for one: the
default template never does, so a page without a template pays nothing for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_rows import rows_where
from mkdocs_selfattn.core.readings import GroupResult, Line, ReadingResult
from mkdocs_selfattn.core.results import target_head
from mkdocs_selfattn.errors import DataError
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.template_env import Cells, Named
from mkdocs_selfattn.render.template_vars import (
    GroupVars,
    HeadLineVars,
    Shared,
    axes_value,
    header_of,
    variables,
)

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


class CandidateVars(HeadLineVars):
    """A candidate of a target: a line of its one head."""

    kind = "candidate"


class TargetVars(GroupVars):
    """A target: a group read by one head, with that head's numbers under the names the
    targets printout uses."""

    kind = "target"
    fields = (
        *GroupVars.fields,
        "token",
        "index",
        "context",
        "representation",
        "shift",
        "top",
        "groups",
    )

    def __init__(self, target: GroupResult, shared: Shared) -> None:
        super().__init__(target, shared)
        head = target_head(target)
        self._target, self._head = target, head
        self.token = target.name
        self.index = target.index
        self.context = axes_value(head.context, shared.single)
        self.representation = self.context  # the name documented first, kept working
        self.shift = axes_value(head.shift, shared.single)
        self.groups = Named(head.groups)

    @cached_property
    def candidates(self) -> list[CandidateVars]:
        """A list, as it always was (the head's lines: each with its score and weight)."""
        target, head, shared = self._target, self._head, self._shared
        return [CandidateVars(line, target, i, shared, head) for i, line in enumerate(target.lines)]

    @cached_property
    def top(self) -> CandidateVars:
        """The first candidate row of the top token (and position), as the printout names it."""
        return self.candidates[self._head.top(1)[0]]


def target_variables(
    result: ReadingResult,
    labels: Labels,
    csv_bytes: bytes | None = None,
    columns: Mapping[str, str] | None = None,
    top: int = 3,
) -> dict[str, Any]:
    """Every layout's variables, and the targets layout's names: its document's targets in
    CSV order, the vector columns and the document's baseline."""
    document = result.document or ""  # a targets example always names its document
    rows = TargetRows(csv_bytes, columns or {}, document)
    shared = Shared(result, labels, top, rows=rows, kinds=("head", "candidate"))
    targets = [TargetVars(g, shared) for g in result.groups]
    out = variables(result, shared, targets, header_of(csv_bytes, result.source))
    groups = result.groups
    return out | {
        "document": document,
        "vector_columns": list(result.axis_names),
        "baseline": list(groups[0].baseline) if groups else [],
        "targets": targets,
    }
