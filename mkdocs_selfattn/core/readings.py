"""What a ``queries:`` or ``heads:`` example shows: plain, numpy-free records (their cache and JSON
form is :mod:`record_form`'s, as every result record's), the counterpart of
:mod:`mkdocs_selfattn.core.results` for the layouts where one *group* of rows is read by several
heads or questions.

The engine's model is the same for every layout: a group of candidate rows (a document's target in
the targets layout, the whole file or a document of questions, one scenario of a report read by
heads) is read by one or more heads, each with weights from a score column through the softmax or
given as a weight column; contexts, baselines, shifts, top lines, named groups, differences from
the reference head and separations follow from the weights. The targets layout's records stay
:class:`~results.DocumentResult` (its pages are byte-identical to what they were); these records
carry the other two layouts.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from mkdocs_selfattn.core.record_form import to_plain

Layout = Literal["questions", "heads"]


@dataclass(frozen=True)
class ReadingKind:
    """What tells one reading layout from the other, as data: every module that words, groups
    or computes a reading asks its kind instead of comparing layout names, so a further way of
    reading groups of rows is one more entry of :data:`READING_KINDS`."""

    layout: Layout
    block_key: str
    """The block key that names the readers (``queries:``, ``heads:``)."""
    given: bool
    """The readers' columns are weights as given; otherwise scores through the softmax."""
    reader: str
    """What one reader is called in messages ("question", "head")."""
    group: str
    """What one group of rows is called in messages."""
    always_grouped: bool
    """Every group is named wherever it is shown (a heads file's scenarios), even when the file
    has one; otherwise a single group is the whole example and goes unnamed."""


READING_KINDS: Mapping[Layout, ReadingKind] = {
    "questions": ReadingKind(
        "questions",
        "queries",
        given=False,
        reader="question",
        group="group",
        always_grouped=False,
    ),
    "heads": ReadingKind(
        "heads",
        "heads",
        given=True,
        reader="head",
        group="group (scenario)",
        always_grouped=True,
    ),
}


@dataclass(frozen=True)
class Line:
    """One candidate row of a group, in CSV order."""

    token: str
    """The candidate column's cell (questions: a manual's line id; heads: a token fragment)."""
    role: str
    """The role column's cell, "" when the file has no role column."""
    row: int
    """Data row in the file, 0 = the first row after the header (for messages and links)."""
    cells: tuple[str, ...]
    """Every cell of the row as written, aligned with :attr:`ReadingResult.columns`."""
    vector: tuple[float, ...]
    """The row's vector projected onto the example's axes, in axis order."""


@dataclass(frozen=True)
class HeadResult:
    """One reader of a group: a question (scores through the softmax) or a given-weight head."""

    name: str
    """The query's label or the head's name, as the block writes it."""
    column: str
    """The score column (softmax) or the weight column (given)."""
    given: bool
    values: tuple[float, ...]
    """The column's numbers per line: scores before the temperature, or weights as given."""
    weights: tuple[float, ...]
    """Per line: the softmax of ``values / temperature``, or the given (normalised) weights."""
    context: tuple[float, ...]
    """Σ weight · vector per axis, summed left to right."""
    shift: tuple[float, ...]
    """context − the group's baseline."""
    groups: tuple[tuple[str, float], ...] = ()
    """The block's named candidate groups and their summed weights (left to right)."""
    difference: tuple[float, ...] = ()
    """context − the reference head's context (heads layout; zeros for the reference itself,
    empty for the questions layout)."""

    def top(self, k: int) -> tuple[int, ...]:
        """Line indices of the ``k`` largest weights; on a tie the earlier line comes first (the
        chapters' stable sort)."""
        return tuple(
            heapq.nsmallest(k, range(len(self.weights)), key=lambda i: (-self.weights[i], i))
        )


@dataclass(frozen=True)
class GroupResult:
    """A group of rows and every head that reads it."""

    name: str
    """The group column's cell (a heads layout's scenario); the document, or "", without one."""
    lines: tuple[Line, ...]
    baseline: tuple[float, ...]
    """Plain mean of the lines' vectors per axis (every line weighted alike)."""
    heads: tuple[HeadResult, ...]
    separations: tuple[tuple[float, ...], ...]
    """Euclidean distance between every pair of head contexts (``[i][j]``, head order)."""

    def head(self, name: str) -> HeadResult:
        for head in self.heads:
            if head.name == name or head.column == name:
                return head
        raise KeyError(name)

    def separation(self, first: str, second: str) -> float:
        names = [h.name for h in self.heads]
        columns = [h.column for h in self.heads]

        def where(name: str) -> int:
            return names.index(name) if name in names else columns.index(name)

        return self.separations[where(first)][where(second)]


@dataclass(frozen=True)
class ReadingResult:
    """A whole ``queries:`` or ``heads:`` example: its groups in CSV order."""

    source: str
    layout: Layout
    csv_rows: int
    document: str | None
    """The ``document:`` the block chose; None when it reads the whole file."""
    document_rows: int
    """Rows of that document (the whole file's rows without ``document:``)."""
    columns: tuple[str, ...]
    """The CSV header, which :attr:`Line.cells` follow."""
    axes: tuple[tuple[str, tuple[str, ...]], ...]
    """Axis name → the vector columns it sums, in order (default: one axis per vector column)."""
    temperature: float
    groups: tuple[GroupResult, ...]
    warnings: tuple[str, ...] = ()

    @property
    def kind(self) -> ReadingKind:
        return READING_KINDS[self.layout]

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.axes)

    @property
    def head_names(self) -> tuple[str, ...]:
        return tuple(h.name for h in self.groups[0].heads) if self.groups else ()

    # What every result record answers alike (DocumentResult has the same methods).

    def to_dict(self) -> dict[str, Any]:
        return to_plain(self)

    def section_sizes(self) -> list[int]:
        """Values per section (a group: its lines × its readers), for the try view's limit."""
        return [len(group.lines) * len(group.heads) for group in self.groups]

    def first_sections(self, sections: int) -> ReadingResult:
        return replace(self, groups=self.groups[:sections])

    def shown_names(self) -> set[str]:
        """Every name the example shows: line tokens, the group (scenario) names, the
        questions' labels and the heads' names, and the named candidate groups. A question or
        head is also reachable by its column, which is not shown, so it does not count here."""
        found: set[str] = set()
        for group in self.groups:
            if group.name:
                found.add(group.name)
            found.update(line.token for line in group.lines)
            for head in group.heads:
                found.add(head.name)
                found.update(name for name, _ in head.groups)
        return found

    def repeated_tokens(self) -> frozenset[str]:
        """None: a line is named by its row, never by ``token@N``."""
        return frozenset()


def separation(first: tuple[float, ...], second: tuple[float, ...]) -> float:
    """Euclidean distance as the chapter's script takes it: a left-to-right sum of squares."""
    return math.sqrt(sum((a - b) * (a - b) for a, b in zip(first, second, strict=True)))
