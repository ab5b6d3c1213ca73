"""What an example shows, in every layout: plain, numpy-free records (their cache and JSON form
is :mod:`record_form`'s), so cached pages never import numpy.

The engine's model is the same for every layout: a group of candidate rows is read by one or more
heads, each with weights from a score column through the softmax or given as a weight column;
contexts, baselines, shifts, top lines, named groups, differences from the reference head and
separations follow from the weights. A targets example's group is one target (at one position,
with index columns) read by one softmax head; a questions example's group is the whole file, a
document or a scenario read by every question; a heads example's group is a scenario read by
heads with given weights. What only the targets layout asks of these records (its one reader, its
top candidate, its JSON form) is :mod:`~mkdocs_selfattn.core.results`'.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from mkdocs_selfattn.core.record_form import to_plain

Layout = Literal["targets", "questions", "heads"]


@dataclass(frozen=True)
class ReadingKind:
    """What tells one layout from another, as data: every module that words, groups, draws or
    computes a reading asks its kind instead of comparing layout names, so a further way of
    reading groups of rows is one more entry of :data:`READING_KINDS`."""

    layout: Layout
    block_key: str
    """The layout's key in a block (``blocks/spec_layout.BLOCK_LAYOUTS``): ``queries:`` and
    ``heads:`` map each reader's name to its column; ``targets:`` (optional: the default layout)
    lists which of the document's targets to show."""
    given: bool
    """The readers' columns are weights as given; otherwise scores through the softmax."""
    reader: str
    """What one reader is called in messages ("target", "question", "head")."""
    group: str
    """What one group of rows is called in messages (a target's group is the target itself)."""
    always_grouped: bool
    """Every group is named wherever it is shown, even when the file has one (a heads file's
    scenario; a target, which is its own group); otherwise a single group is the whole example
    and goes unnamed."""
    readers_are_tokens: bool = False
    """Each reader is a token of the one document, at a position, and re-reads that document's
    candidates (a target: its group is itself, read by its one head); otherwise readers are
    named by the block (a question, a head) and a block's ``query:`` can choose one."""
    lists: bool = False
    """Vectors print as lists even with one axis, as the chapter's script prints them (the
    printout, the inline values and the mermaid graph alike); otherwise one axis is a number."""


READING_KINDS: Mapping[Layout, ReadingKind] = {
    "targets": ReadingKind(
        "targets",
        "targets",
        given=False,
        reader="target",
        group="target",
        always_grouped=True,
        readers_are_tokens=True,
        lists=True,
    ),
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
    """Every cell of the row as written, aligned with :attr:`ReadingResult.columns` (none for a
    target's candidate)."""
    vector: tuple[float, ...]
    """The row's vector projected onto the example's axes, in axis order."""
    index: int | None = None
    """The candidate's position (targets with index columns): ``token@N`` tells repeated tokens
    apart."""


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
    index: int | None = None
    """The target's position (targets with index columns)."""

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
    """A whole example: its groups in CSV order (a targets example: its targets, at each of
    their positions, in the order the block lists them)."""

    source: str
    layout: Layout
    csv_rows: int
    document: str | None
    """The ``document:`` the block chose; None when it reads the whole file (never for
    targets)."""
    document_rows: int
    """Rows of that document (the whole file's rows without ``document:``)."""
    columns: tuple[str, ...]
    """The CSV header, which :attr:`Line.cells` follow (empty for targets, whose lines keep no
    cells: their views read the file's rows through :mod:`~mkdocs_selfattn.core.csv_rows`)."""
    axes: tuple[tuple[str, tuple[str, ...]], ...]
    """Axis name → the vector columns it sums, in order (default: one axis per vector column)."""
    temperature: float
    groups: tuple[GroupResult, ...]
    warnings: tuple[str, ...] = ()

    @property
    def kind(self) -> ReadingKind:
        """How this example's layout reads its groups: what views, messages and the try view
        ask instead of comparing layout names."""
        return READING_KINDS[self.layout]

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.axes)

    @property
    def head_names(self) -> tuple[str, ...]:
        return tuple(h.name for h in self.groups[0].heads) if self.groups else ()

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
        """Tokens at more than one position, which labels tell apart as ``token@N`` (only a
        targets example with index columns has positions)."""
        positions: dict[str, set[int]] = {}
        for group in self.groups:
            if group.index is not None:
                positions.setdefault(group.name, set()).add(group.index)
            for line in group.lines:
                if line.index is not None:
                    positions.setdefault(line.token, set()).add(line.index)
        return frozenset(token for token, seen in positions.items() if len(seen) > 1)


def separation(first: tuple[float, ...], second: tuple[float, ...]) -> float:
    """Euclidean distance as the chapter's script takes it: a left-to-right sum of squares."""
    return math.sqrt(sum((a - b) * (a - b) for a, b in zip(first, second, strict=True)))
