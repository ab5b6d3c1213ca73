"""What a printout template sees: every computed quantity and every raw CSV cell of an example,
as records the author reads with dots (``q.context``, ``line.cells.line_id``).

One set of variables and records serves every layout, read from the one record family: groups
of lines, each read by one or more heads (:func:`variables`). A layout's registry entry
(``render/layout_renderers.RENDERERS``) adds the names its chapter's templates were written with
(:mod:`template_targets`: ``targets``, ``t.candidates``, ``c.score`` …; a questions file of one
group: ``queries``, ``lines``), as aliases of these records.

Records are built lazily: a file of a million lines read by three questions must cost nothing
for a template that prints the top three. Lists stay Python lists, so ``{{ x }}`` prints exactly
what the chapter's ``print(x)`` would; with a single axis, contexts, baselines, shifts,
differences and vectors are plain numbers (the questions printout's ``context = 4.685``), unless
the layout prints lists always (targets).

docs/plugin/templates.md documents every name below; keep the two in step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from typing import Any, Protocol, TypeVar, overload

from mkdocs_selfattn.core.csv_header import read_header
from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingResult
from mkdocs_selfattn.errors import did_you_mean, listing
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.template_env import Cells, Described, Named, Numbers, spend

T = TypeVar("T")


class Lazy(Sequence[T]):
    """A list whose items are made when read (``q.lines`` of a million-line file)."""

    counts_itself = True

    def __init__(self, count: int, make: Callable[[int], T]) -> None:
        self._count = count
        self._make = make

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self._make(i) for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self._make(index)

    def __iter__(self) -> Iterator[T]:
        for i in range(self._count):
            spend()
            yield self._make(i)

    def __repr__(self) -> str:
        return f"<{self._count} items>"


def axes_value(values: Sequence[float], single: bool) -> Any:
    """One number for a one-axis example, else a list (how the scripts print it)."""
    return values[0] if single and len(values) == 1 else list(values)


class RowCells(Protocol):
    """Where a line's CSV cells come from when its record does not keep them (a target's
    candidates: read from the file when a template first asks)."""

    def cells(self, group: GroupResult, line: Line) -> Cells: ...


class Shared:
    """What every record of one example needs: its labels, header and the layout's ways."""

    def __init__(
        self,
        result: ReadingResult,
        labels: Labels,
        top: int,
        *,
        rows: RowCells | None = None,
        kinds: tuple[str, str] | None = None,
    ) -> None:
        self.labels = labels
        self.columns = result.columns
        self.single = len(result.axes) == 1 and not result.kind.lists
        self.top = top
        self.rows = rows
        self.kinds = kinds
        """What a reader and its line are called in messages, when not a question's or head's."""

    def cells(self, group: GroupResult, line: Line) -> Cells:
        if self.rows is not None:
            return self.rows.cells(group, line)
        return Cells(zip(self.columns, line.cells, strict=False))


class LineVars(Described):
    """A candidate row of a group, with every head's weight (``g.lines``)."""

    kind = "line"
    fields: tuple[str, ...] = (
        "token",
        "index",
        "display",
        "role",
        "row",
        "cells",
        "vector",
        "weights",
        "values",
    )

    def __init__(self, line: Line, group: GroupResult, at: int, shared: Shared) -> None:
        self._line, self._group, self._at, self._shared = line, group, at, shared
        self.token = line.token
        self.index = line.index
        self.role = line.role
        self.row = line.row
        self.vector = axes_value(line.vector, shared.single)

    @cached_property
    def display(self) -> str:
        """The label, with ``@position`` when the token occurs at several positions."""
        return self._shared.labels(self.token, self.index)

    @cached_property
    def cells(self) -> Cells:
        return self._shared.cells(self._group, self._line)

    @cached_property
    def weights(self) -> Named:
        return Named((h.name, h.weights[self._at]) for h in self._group.heads)

    @cached_property
    def values(self) -> Named:
        return Named((h.name, h.values[self._at]) for h in self._group.heads)


class HeadLineVars(LineVars):
    """A line as one head or question reads it (``q.top``, ``q.lines``)."""

    kind = "line of a head"
    fields = (*LineVars.fields, "weight", "value", "score", "rank")

    def __init__(
        self, line: Line, group: GroupResult, at: int, shared: Shared, head: HeadResult
    ) -> None:
        super().__init__(line, group, at, shared)
        self._head = head
        if shared.kinds is not None:
            self.kind = shared.kinds[1]
        self.weight = head.weights[at]
        self.value = head.values[at]
        self.score = self.value

    @cached_property
    def rank(self) -> int:
        """1 for the largest weight; on a tie the earlier line ranks first, as in ``top``."""
        mine, at = self.weight, self._at
        weights = self._head.weights
        return 1 + sum(1 for i, w in enumerate(weights) if w > mine or (w == mine and i < at))


class HeadVars(Described):
    """A question (softmax of a score column) or a head (given weights) of one group."""

    kind = "head"
    fields = (
        "name",
        "label",
        "display",
        "column",
        "given",
        "is_reference",
        "values",
        "scores",
        "weights",
        "context",
        "shift",
        "difference",
        "groups",
        "lines",
        "ranked",
        "top",
    )

    def __init__(self, head: HeadResult, group: GroupResult, shared: Shared, first: bool):
        self._head, self._group, self._shared = head, group, shared
        self.kind = "head" if head.given else "question"
        if shared.kinds is not None:
            self.kind = shared.kinds[0]
        self.name = head.name
        self.label = head.name
        self.display = shared.labels(head.name, group.index)
        self.column = head.column
        self.given = head.given
        self.is_reference = first and head.given
        self.context = axes_value(head.context, shared.single)
        self.shift = axes_value(head.shift, shared.single)
        self.difference = axes_value(head.difference, shared.single) if head.difference else []
        self.groups = Named(head.groups)

    def _line(self, at: int) -> HeadLineVars:
        group = self._group
        return HeadLineVars(group.lines[at], group, at, self._shared, self._head)

    @cached_property
    def values(self) -> Numbers:
        return Numbers(self._head.values)

    @cached_property
    def scores(self) -> Numbers:
        return self.values

    @cached_property
    def weights(self) -> Numbers:
        return Numbers(self._head.weights)

    @cached_property
    def lines(self) -> Lazy[HeadLineVars]:
        return Lazy(len(self._group.lines), self._line)

    @cached_property
    def ranked(self) -> Lazy[HeadLineVars]:
        order = self._head.top(len(self._head.weights))
        return Lazy(len(order), lambda i: self._line(order[i]))

    @cached_property
    def top(self) -> list[HeadLineVars]:
        return [self._line(i) for i in self._head.top(self._shared.top)]


class GroupVars(Described):
    """A group of lines (questions: the file or a document; heads: one scenario)."""

    kind = "group"
    fields: tuple[str, ...] = (
        "name",
        "display",
        "lines",
        "candidates",
        "baseline",
        "heads",
        "queries",
        "reference",
        "contexts",
        "shifts",
        "differences",
        "difference",
        "separation",
        "head",
    )

    def __init__(self, group: GroupResult, shared: Shared) -> None:
        self._group, self._shared = group, shared
        self.name = group.name
        self.display = shared.labels(group.name, group.index)
        self.baseline = axes_value(group.baseline, shared.single)

    # Made when read: a targets document is a group per target, most of whose printouts read
    # none of these.
    @cached_property
    def heads(self) -> list[HeadVars]:
        group, shared = self._group, self._shared
        return [HeadVars(h, group, shared, i == 0) for i, h in enumerate(group.heads)]

    @cached_property
    def queries(self) -> list[HeadVars]:
        return self.heads

    @cached_property
    def reference(self) -> HeadVars | None:
        return self.heads[0] if self.heads else None

    @cached_property
    def contexts(self) -> Named:
        return Named((h.name, h.context) for h in self.heads)

    @cached_property
    def shifts(self) -> Named:
        return Named((h.name, h.shift) for h in self.heads)

    @cached_property
    def differences(self) -> Named:
        return Named((h.name, h.difference) for h in self.heads[1:] if h.given)

    @cached_property
    def difference(self) -> list[float]:
        return [x for h in self.heads[1:] if h.given for x in _listed(h.difference)]

    @cached_property
    def lines(self) -> Lazy[LineVars]:
        group, shared = self._group, self._shared
        return Lazy(len(group.lines), lambda i: LineVars(group.lines[i], group, i, shared))

    @cached_property
    def candidates(self) -> Sequence[LineVars]:
        return self.lines

    def separation(self, first: str, second: str) -> float:
        """Euclidean distance between two heads' contexts, named by name or column."""
        try:
            return self._group.separation(first, second)
        except ValueError:
            names = [h.name for h in self.heads]
            wrong = next(n for n in (first, second) if n not in names and not self._column(n))
            hint = did_you_mean(wrong, names)
            raise ValueError(
                f"separation: no head '{wrong}' in group '{self.name}'{hint}; "
                f"heads: {listing(names)}"
            ) from None

    def head(self, name: str) -> HeadVars:
        """A head or question by its name or its column."""
        for head in self.heads:
            if name in (head.name, head.column):
                return head
        names = [h.name for h in self.heads]
        hint = did_you_mean(name, [*names, *(h.column for h in self.heads)])
        listed = listing(names)
        raise ValueError(f"head: no head '{name}' in group '{self.name}'{hint}; heads: {listed}")

    def _column(self, name: str) -> bool:
        return any(h.column == name for h in self.heads)


def _listed(value: Any) -> list[float]:
    return list(value) if isinstance(value, list) else [value]


def header_of(csv_bytes: bytes | None, source: str) -> list[str]:
    """The CSV's header as the core reads it, for a layout whose records keep no cells."""
    return read_header(csv_bytes, source) if csv_bytes else []


def variables(
    result: ReadingResult,
    shared: Shared,
    groups: Sequence[GroupVars],
    columns: Sequence[str],
    readers: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The variables of every layout (docs/plugin/templates.md): the example, its axes and its
    groups of lines, each read by its heads; ``readers``: the heads' names where every group
    has the same heads (``heads``, ``reference``)."""
    axis_columns = Named((name, list(cols)) for name, cols in result.axes)
    written = [c for _, cols in result.axes for c in cols]
    return {
        "layout": result.layout,
        "source": result.source,
        "csv_rows": result.csv_rows,
        "document": result.document,
        "document_rows": result.document_rows,
        "columns": list(columns),
        "axes": list(result.axis_names),
        "axis_columns": axis_columns,
        "value_column": written[0] if len(written) == 1 else None,
        "temperature": result.temperature,
        **(
            {}
            if readers is None
            else {"heads": list(readers), "reference": readers[0] if readers else None}
        ),
        "top": shared.top,
        "groups": list(groups),
    }


def reading_variables(result: ReadingResult, labels: Labels, top: int = 3) -> dict[str, Any]:
    """The questions and heads layouts: every layout's variables, with the names of their
    readers (the same in every group) and, for a questions example of one group, its
    ``baseline``, ``queries`` and ``lines`` at the top level, as the drafts' templates write
    them."""
    shared = Shared(result, labels, top)
    groups = [GroupVars(g, shared) for g in result.groups]
    out = variables(result, shared, groups, result.columns, result.head_names)
    if not result.kind.always_grouped and len(groups) == 1:
        out |= {
            "baseline": groups[0].baseline,
            "queries": groups[0].queries,
            "lines": groups[0].lines,
        }
    return out
