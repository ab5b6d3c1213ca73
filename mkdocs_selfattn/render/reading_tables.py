"""Tables of the questions and heads layouts, in the table model of
:mod:`mkdocs_selfattn.render.tables` (same writers, same escaping).

A group of more than :data:`LONG_GROUP` lines shows each head's ``top`` lines and one summary
row of the rest (their count and summed weight): a table of a million lines is no table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, ReadingResult
from mkdocs_selfattn.render.labels import Labels, format_value, py_round
from mkdocs_selfattn.render.tables import (
    DEFAULT_TEXT,
    Cell,
    ReaderRow,
    Span,
    Table,
    named_totals,
    other_rows,
    reader_table,
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


def _plain(text: str) -> Cell:
    return (Span(text),)


def _name(labels: Labels, name: str, style: str = "") -> Cell:
    """A label with its CSV text beside it when they differ (as the targets tables do)."""
    shown = labels.label(name)
    if shown == name:
        return (Span(name, style),)
    return (Span(shown, style), Span(" "), Span(f"({name})", "small"))


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
    return [_plain(py_round(v)) for v in values]


def _caption(
    result: ReadingResult, group: GroupResult, labels: Labels, words: Mapping[str, str]
) -> list[Span]:
    if not group.name or (len(result.groups) == 1 and not result.kind.always_grouped):
        return []
    return [Span(words["group"] + " ", "strong"), *_name(labels, group.name, "strong")]


# --------------------------------------------------------------------------------- questions


def question_tables(
    result: ReadingResult,
    labels: Labels,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
    top: int = 3,
) -> list[Table]:
    """Per question: every line with score, weight and value (top weight bold), then context,
    baseline and shift. ``number_format`` applies to weights only, as in the targets tables."""
    words = _words(text)
    tables = []
    for group in result.groups:
        for head in group.heads:
            tables.append(_question_table(result, group, head, labels, number_format, words, top))
    return tables


def _question_table(
    result: ReadingResult,
    group: GroupResult,
    head: HeadResult,
    labels: Labels,
    number_format: str | None,
    words: Mapping[str, str],
    top: int,
) -> Table:
    long = len(group.lines) > LONG_GROUP
    ranked = head.top(max(top, 1) if long else 1)
    best = ranked[:1]
    caption = _caption(result, group, labels, words)
    caption += [Span(" · " if caption else ""), Span(words["question"] + " ", "strong")]
    caption += [*_name(labels, head.name, "strong")]
    if best:
        caption += [Span(f" · {words['top']}: "), *_name(labels, group.lines[best[0]].token)]
    order = list(ranked[:top]) if long else range(len(group.lines))
    lines = group.lines
    return reader_table(
        caption,
        named_totals(head.groups, labels, number_format),
        result.axis_names,
        (
            ReaderRow(
                _name(labels, lines[i].token),
                lines[i].role,
                head.values[i],
                head.weights[i],
                (i,) == best,
                lines[i].vector,
            )
            for i in order
        ),
        (("context", head.context), ("baseline", group.baseline), ("shift", head.shift)),
        words,
        number_format,
        (len(lines) - len(order), _rest(head, order)) if long else None,
    )


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
        _plain(words["candidate"]),
        _plain(words["role"]),
        *(_name(labels, h.name) for h in heads),
    )
    best, shown = _tops(group, top)
    order = range(len(group.lines)) if shown is None else shown
    rows: list[Row] = []
    for i in order:
        line = group.lines[i]
        row: list[Cell] = [_name(labels, line.token), _plain(line.role)]
        for head, first in zip(heads, best, strict=True):
            value = format_value(head.weights[i], number_format)
            row.append((Span(value, "strong"), Span(" ▲")) if (i,) == first else _plain(value))
        rows.append(tuple(row))
    if shown is not None:
        rest = (_plain(format_value(_rest(h, shown), number_format)) for h in heads)
        rows.append((other_rows(words, len(group.lines) - len(shown)), _plain(""), *rest))
    for name in [n for n, _ in heads[0].groups] if heads else []:
        totals = (_plain(format_value(dict(h.groups)[name], number_format)) for h in heads)
        rows.append(((Span(labels(name), "em"),), _plain(""), *totals))
    contexts = (_plain(_listed(h.context)) for h in heads)
    rows.append(((Span(words["context"], "em"),), _plain(""), *contexts))
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
        _plain(words["candidate"]),
        _plain(words["role"]),
        *((Span(words["weight"] + " · "), *_name(labels, h.name)) for h in heads),
        *(_plain(f"{words['vector']} · {a}") for a in axes),
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
        rows.append((_name(labels, line.token), _plain(line.role), *weights, *_vector(line.vector)))
    blank = _plain("")
    if shown is not None:
        rest = (_plain(format_value(_rest(h, shown), number_format)) for h in heads)
        count = len(group.lines) - len(shown)
        rows.append((other_rows(words, count), blank, *rest, *(blank for _ in axes)))
    for key, pick in (("context", "context"), ("difference", "difference")):
        for n, head in enumerate(heads):
            if key == "difference" and n == 0:
                continue
            label, name = (Span(words[key], "em"),), _name(labels, head.name)
            values: tuple[float, ...] = getattr(head, pick)
            rows.append((label, name, *(blank for _ in heads), *_vector(values)))
    align = ("l", "l", *("r" for _ in heads), *("r" for _ in axes))
    caption = _caption(result, group, labels, words)
    return Table(tuple(caption) or None, header, align, tuple(rows))


def _separations(group: GroupResult, labels: Labels, words: Mapping[str, str]) -> Table:
    heads = group.heads
    header = (_plain(words["separation"]), *(_name(labels, h.name) for h in heads))
    rows = tuple(
        (_name(labels, h.name), *(_plain(py_round(d)) for d in group.separations[n]))
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
        _plain(words["group"]),
        *((Span(words["context"] + " · "), *_name(labels, h.name)) for h in heads),
        *(
            (
                Span(words["separation"] + " · "),
                *_name(labels, heads[a].name),
                Span(" ↔ "),
                *_name(labels, heads[b].name),
            )
            for a, b in pairs
        ),
    )
    rows = tuple(
        (
            _name(labels, group.name),
            *(_plain(_listed(h.context)) for h in group.heads),
            *(_plain(py_round(group.separations[a][b])) for a, b in pairs),
        )
        for group in result.groups
    )
    align = ("l", *("r" for _ in heads), *("r" for _ in pairs))
    return [Table(None, header, align, rows)]
