"""Every layout's tables, in the table model of :mod:`mkdocs_selfattn.render.tables` (same
writers, same escaping). A layout's registry entry (``build/layouts.py``) names its tables:

- :class:`ReaderTables`, for layouts whose readers each read the rows on their own (targets,
  questions): one table per reader, in the layout's words;
- :func:`head_tables`, for heads that read one scenario together;
- the comparisons: :func:`compare_table` (candidates × targets of a document),
  :func:`question_compare` (lines × questions of a group), :func:`head_compare` (scenarios ×
  heads).

A group of more than :data:`LONG_GROUP` lines shows each head's ``top`` lines and one summary
row of the rest (their count and summed weight): a table of a million lines is no table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, ReadingResult
from mkdocs_selfattn.core.results import target_head, top_line, weights_by_candidate
from mkdocs_selfattn.render.labels import Labels, format_value, py_round
from mkdocs_selfattn.render.tables import (
    DEFAULT_TEXT,
    Cell,
    ReaderRow,
    Span,
    Table,
    named_totals,
    other_rows,
    plain,
    reader_table,
    token_cell,
)

READING_TEXT: Mapping[str, str] = {
    "question": "question",
    "context": "context",
    "difference": "difference",
    "separation": "head separation",
    "group": "group",
    "others": "… {n} other lines",
    "vector": "vector",
}
"""The words these tables add to the targets tables' (``render/words.py`` has them per language;
kept apart so the targets layout's views, the try view's data included, stay as they were)."""

LONG_GROUP = 50
"""Groups with more lines than this show the top lines and a summary row (views' ``top:``)."""

Row = tuple[Cell, ...]


def _words(text: Mapping[str, str] | None) -> dict[str, str]:
    return {**DEFAULT_TEXT, **READING_TEXT, **(text or {})}


def _tops(group: GroupResult, top: int) -> tuple[list[tuple[int, ...]], list[int] | None]:
    """Each head's best line, and the line indices a long group shows (each head's ``top``
    lines, CSV order; None: every line), from one ranking per head."""
    if len(group.lines) <= LONG_GROUP:
        return [h.top(1) for h in group.heads], None
    ranked = [h.top(max(top, 1)) for h in group.heads]
    return [r[:1] for r in ranked], sorted({i for r in ranked for i in r[:top]})


def _rest(head: HeadResult, shown: Iterable[int]) -> float:
    """The weight of the lines not shown, summed left to right."""
    skip = set(shown)
    return sum(w for i, w in enumerate(head.weights) if i not in skip)


def _vector(values: Sequence[float]) -> list[Cell]:
    return [plain(py_round(v)) for v in values]


def _caption(
    result: ReadingResult, group: GroupResult, labels: Labels, words: Mapping[str, str]
) -> list[Span]:
    if not group.name or (len(result.groups) == 1 and not result.kind.always_grouped):
        return []
    return [Span(words["group"] + " ", "strong"), *token_cell(labels, group.name, None, "strong")]


# ------------------------------------------------------------------- a table per reader


@dataclass(frozen=True)
class ReaderTables:
    """One table per reader, for a layout whose readers each read the rows on their own: the
    rows with role, score, weight (the top one bold) and vector, then the reader's result,
    the baseline and the shift. ``number_format`` applies to weights only: scores and vectors
    keep the printout style, since a percentage format would make them wrong."""

    reader: str
    """The word (a key of the tables' text) before a reader's name in its caption."""
    result: str
    """The word of the result row (a target's "new representation", a question's "context")."""
    group_caption: bool
    """The caption names the group first (the reader is not the group, as a target is)."""
    long_groups: bool
    """A group of more than :data:`LONG_GROUP` rows shows its top rows and a summary row."""

    def __call__(
        self,
        result: ReadingResult,
        labels: Labels,
        number_format: str | None = None,
        text: Mapping[str, str] | None = None,
        top: int = 3,
    ) -> list[Table]:
        words = _words(text)
        return [
            self._table(result, group, head, labels, number_format, words, top)
            for group in result.groups
            for head in group.heads
        ]

    def _table(
        self,
        result: ReadingResult,
        group: GroupResult,
        head: HeadResult,
        labels: Labels,
        number_format: str | None,
        words: Mapping[str, str],
        top: int,
    ) -> Table:
        lines = group.lines
        long = self.long_groups and len(lines) > LONG_GROUP
        ranked = head.top(max(top, 1) if long else 1)
        best = ranked[:1]
        caption = _caption(result, group, labels, words) if self.group_caption else []
        caption += [Span(" · " if caption else ""), Span(words[self.reader] + " ", "strong")]
        caption += [*token_cell(labels, head.name, group.index, "strong")]
        if best:
            first = lines[best[0]]
            caption += [Span(f" · {words['top']}: "), *token_cell(labels, first.token, first.index)]
        order = list(ranked[:top]) if long else range(len(lines))
        return reader_table(
            caption,
            named_totals(head.groups, labels, number_format),
            result.axis_names,
            (
                ReaderRow(
                    token_cell(labels, lines[i].token, lines[i].index),
                    lines[i].role,
                    head.values[i],
                    head.weights[i],
                    (i,) == best,
                    lines[i].vector,
                )
                for i in order
            ),
            ((self.result, head.context), ("baseline", group.baseline), ("shift", head.shift)),
            words,
            number_format,
            (len(lines) - len(order), _rest(head, order)) if long else None,
        )


target_tables = ReaderTables("target", "representation", group_caption=False, long_groups=False)
"""A targets document: one table per target, every candidate listed."""
question_tables = ReaderTables("question", "context", group_caption=True, long_groups=True)
"""Per question: its group's lines (a long group's top lines and the rest summed)."""


# ------------------------------------------------------------------------------- comparisons


def compare_table(
    result: ReadingResult,
    labels: Labels,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
) -> Table:
    """Candidates × targets; each target's top weight in bold so the shift of focus shows."""
    words = {**DEFAULT_TEXT, **(text or {})}
    order, sums = weights_by_candidate(result)
    targets = result.groups
    header = (
        plain(words["candidate"]),
        *(token_cell(labels, g.name, g.index) for g in targets),
    )
    tops = [(line.token, line.index) for line in map(top_line, targets)]
    rows: list[tuple[Cell, ...]] = []
    for key in order:
        row: list[Cell] = [token_cell(labels, *key)]
        for top, summed in zip(tops, sums, strict=True):
            if key not in summed:
                row.append(plain("–"))
                continue
            value = format_value(summed[key], number_format)
            if key == top:
                row.append((Span(value, "strong"), Span(" ▲")))
            else:
                row.append(plain(value))
        rows.append(tuple(row))
    named = [dict(target_head(g).groups) for g in targets]
    for name in named[0] if named else []:
        weights = (plain(format_value(totals[name], number_format)) for totals in named)
        rows.append(((Span(labels(name), "em"),), *weights))
    return Table(None, header, ("l", *("r" for _ in targets)), tuple(rows))


def question_compare(
    result: ReadingResult,
    labels: Labels,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
    top: int = 3,
) -> list[Table]:
    """Lines down, questions across (one table per group): each question's top weight bold, then
    the named groups' totals and the contexts."""
    words = _words(text)
    tables = []
    for group in result.groups:
        caption = _caption(result, group, labels, words)
        tables.append(_compare(group, labels, number_format, words, top, caption))
    return tables


def _compare(
    group: GroupResult,
    labels: Labels,
    number_format: str | None,
    words: Mapping[str, str],
    top: int,
    caption: list[Span],
) -> Table:
    heads = group.heads
    header = (
        plain(words["candidate"]),
        plain(words["role"]),
        *(token_cell(labels, h.name) for h in heads),
    )
    best, shown = _tops(group, top)
    order = range(len(group.lines)) if shown is None else shown
    rows: list[Row] = []
    for i in order:
        line = group.lines[i]
        row: list[Cell] = [token_cell(labels, line.token), plain(line.role)]
        for head, first in zip(heads, best, strict=True):
            value = format_value(head.weights[i], number_format)
            row.append((Span(value, "strong"), Span(" ▲")) if (i,) == first else plain(value))
        rows.append(tuple(row))
    if shown is not None:
        rest = (plain(format_value(_rest(h, shown), number_format)) for h in heads)
        rows.append((other_rows(words, len(group.lines) - len(shown)), plain(""), *rest))
    for name in [n for n, _ in heads[0].groups] if heads else []:
        totals = (plain(format_value(dict(h.groups)[name], number_format)) for h in heads)
        rows.append(((Span(labels(name), "em"),), plain(""), *totals))
    contexts = (plain(_listed(h.context)) for h in heads)
    rows.append(((Span(words["context"], "em"),), plain(""), *contexts))
    align = ("l", "l", *("r" for _ in heads))
    return Table(tuple(caption) or None, header, align, tuple(rows))


def _listed(values: Sequence[float]) -> str:
    return py_round(values[0]) if len(values) == 1 else "[" + ", ".join(map(py_round, values)) + "]"


# ------------------------------------------------------------------------------------- heads


def head_tables(
    result: ReadingResult,
    labels: Labels,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
    top: int = 3,
) -> list[Table]:
    """Per group (scenario): the tokens with each head's given weight and the projected vector,
    then each head's context and difference from the reference, then the separations."""
    words = _words(text)
    tables: list[Table] = []
    for group in result.groups:
        tables.append(_head_table(result, group, labels, number_format, words, top))
        tables.append(_separations(group, labels, words))
    return tables


def _head_table(
    result: ReadingResult,
    group: GroupResult,
    labels: Labels,
    number_format: str | None,
    words: Mapping[str, str],
    top: int,
) -> Table:
    heads, axes = group.heads, result.axis_names
    header = (
        plain(words["candidate"]),
        plain(words["role"]),
        *((Span(words["weight"] + " · "), *token_cell(labels, h.name)) for h in heads),
        *(plain(f"{words['vector']} · {a}") for a in axes),
    )
    best, shown = _tops(group, top)
    order = range(len(group.lines)) if shown is None else shown
    rows: list[Row] = []
    for i in order:
        line = group.lines[i]
        weights = (
            (Span(format_value(h.weights[i], number_format), "strong" if (i,) == b else ""),)
            for h, b in zip(heads, best, strict=True)
        )
        rows.append(
            (token_cell(labels, line.token), plain(line.role), *weights, *_vector(line.vector))
        )
    blank = plain("")
    if shown is not None:
        rest = (plain(format_value(_rest(h, shown), number_format)) for h in heads)
        count = len(group.lines) - len(shown)
        rows.append((other_rows(words, count), blank, *rest, *(blank for _ in axes)))
    for key, pick in (("context", "context"), ("difference", "difference")):
        for n, head in enumerate(heads):
            if key == "difference" and n == 0:
                continue
            label, name = (Span(words[key], "em"),), token_cell(labels, head.name)
            values: tuple[float, ...] = getattr(head, pick)
            rows.append((label, name, *(blank for _ in heads), *_vector(values)))
    align = ("l", "l", *("r" for _ in heads), *("r" for _ in axes))
    caption = _caption(result, group, labels, words)
    return Table(tuple(caption) or None, header, align, tuple(rows))


def _separations(group: GroupResult, labels: Labels, words: Mapping[str, str]) -> Table:
    heads = group.heads
    header = (plain(words["separation"]), *(token_cell(labels, h.name) for h in heads))
    rows = tuple(
        (token_cell(labels, h.name), *(plain(py_round(d)) for d in group.separations[n]))
        for n, h in enumerate(heads)
    )
    return Table(None, header, ("l", *("r" for _ in heads)), rows)


def head_compare(
    result: ReadingResult,
    labels: Labels,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
) -> list[Table]:
    """Groups (scenarios) down: each head's context, then the separation of every pair."""
    words = _words(text)
    heads = result.groups[0].heads if result.groups else ()
    pairs = [(a, b) for a in range(len(heads)) for b in range(a + 1, len(heads))]
    header = (
        plain(words["group"]),
        *((Span(words["context"] + " · "), *token_cell(labels, h.name)) for h in heads),
        *(
            (
                Span(words["separation"] + " · "),
                *token_cell(labels, heads[a].name),
                Span(" ↔ "),
                *token_cell(labels, heads[b].name),
            )
            for a, b in pairs
        ),
    )
    rows = tuple(
        (
            token_cell(labels, group.name),
            *(plain(_listed(h.context)) for h in group.heads),
            *(plain(py_round(group.separations[a][b])) for a, b in pairs),
        )
        for group in result.groups
    )
    align = ("l", *("r" for _ in heads), *("r" for _ in pairs))
    return [Table(None, header, align, rows)]
