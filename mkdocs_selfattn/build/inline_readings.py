"""Inline values of the questions and heads layouts: every quantity their
printouts show, one row of :data:`READING_QUANTITIES` each, beside :data:`inline.QUANTITIES`
(the targets layout).

Questions are named by their label, their score column or their display label; heads by name,
weight column or label; groups (scenarios) by the CSV value or label; lines and tokens by the CSV
text, the display label or ``token@ROW`` (data row, 0 = the first after the header) when a token
occurs twice in a group. A questions example with several groups takes the GROUP first; a heads
example always does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mkdocs_selfattn.build.inline_answer import Answer
from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingResult
from mkdocs_selfattn.errors import did_you_mean, listing
from mkdocs_selfattn.render.escape import md_text
from mkdocs_selfattn.render.labels import Labels

if TYPE_CHECKING:
    from mkdocs_selfattn.build.example import Example

_POSITION = re.compile(r"^(?P<token>.+)@(?P<row>\d+)$")


class Reading(Answer):
    """One inline value of a reading example being answered."""

    def __init__(self, where: str, line: int, spec: str | None, example: Example) -> None:
        super().__init__(where, line, spec)
        self.result = example.result
        self.labels: Labels = example.labels
        self.named_groups = dict(example.spec.groups)

    def text(self, value: str) -> str:
        if self.spec is not None:
            raise self.fail("this quantity is text, so a :FORMAT does not apply")
        return md_text(value)

    def vector(self, values: Sequence[float], axis: Sequence[str]) -> str:
        """One axis when asked for (or when there is only one), else the list."""
        if axis:
            return self.number(values[self.axis(axis[0])])
        if len(values) == 1:
            return self.number(values[0])
        return md_text("[" + ", ".join(self.number(v) for v in values) + "]")

    def axis(self, name: str) -> int:
        names = list(self.result.axis_names)
        if name in names:
            return names.index(name)
        hint = did_you_mean(name, names)
        raise self.fail(f"'{name}' is not an axis{hint}; axes: {listing(names)}")

    def group(self, name: str) -> GroupResult:
        groups = self.result.groups
        found = [g for g in groups if g.name == name] or [
            g for g in groups if self.labels.display.get(g.name) == name
        ]
        if len(found) == 1:
            return found[0]
        shown = [g.name for g in groups]
        if found:
            several = listing(shown, quote=True)
            raise self.fail(f"'{name}' is the label of several groups; write one of {several}")
        hint = did_you_mean(name, [*shown, *(self.labels(g) for g in shown)])
        what = self.result.kind.group
        raise self.fail(f"no {what} '{name}'{hint}; groups: {listing(shown)}")

    def head(self, group: GroupResult, name: str) -> HeadResult:
        heads = group.heads
        found = [h for h in heads if name in (h.name, h.column)] or [
            h for h in heads if self.labels.display.get(h.name) == name
        ]
        if found:
            return found[0]
        what = self.result.kind.reader
        names = [h.name for h in heads]
        options = [*names, *(h.column for h in heads), *(self.labels(n) for n in names)]
        listed = listing(names, quote=True)
        raise self.fail(f"no {what} '{name}'{did_you_mean(name, options)}; {what}s: {listed}")

    def at(self, group: GroupResult, text: str) -> int:
        """The index of the line ``text`` names in ``group``."""
        lines = group.lines
        match = _POSITION.match(text)
        exact = [i for i, line in enumerate(lines) if line.token == text]
        if not exact and match:
            row = int(match["row"])
            exact = [i for i, ln in enumerate(lines) if _named(ln, match["token"], self.labels)]
            exact = [i for i in exact if lines[i].row == row]
        if not exact:
            labelled = [
                i for i, ln in enumerate(lines) if self.labels.display.get(ln.token) == text
            ]
            tokens = list(dict.fromkeys(lines[i].token for i in labelled))
            if len(tokens) > 1:
                listed = listing(tokens, quote=True)
                raise self.fail(f"'{text}' is the label of several lines ({listed}); write one")
            exact = labelled
        if len(exact) > 1:
            options = listing([f"{lines[i].token}@{lines[i].row}" for i in exact])
            raise self.fail(
                f"'{text}' occurs on several lines of the group; write one of {options}"
            )
        if exact:
            return exact[0]
        names = [*(ln.token for ln in lines), *(self.labels(ln.token) for ln in lines)]
        hint = did_you_mean(text, names)
        shown = listing(list(dict.fromkeys(ln.token for ln in lines)))
        where = f" of group '{group.name}'" if group.name else ""
        raise self.fail(f"no line '{text}'{where}{hint}; lines: {shown}")


def _named(line: Line, name: str, labels: Labels) -> bool:
    return name in (line.token, labels.display.get(line.token))


Evaluate = Callable[[Reading, GroupResult, tuple[str, ...]], str]


@dataclass(frozen=True)
class ReadingQuantity:
    """A quantity of a reading layout: its arguments after the group, usage and computation."""

    arity: tuple[int, int]
    usage: str
    evaluate: Evaluate
    scoped: bool = True
    """Takes a group: always in the heads layout, with several groups in the questions one."""


def _count(field: str) -> Evaluate:
    def evaluate(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
        count: int = getattr(ask.result, field)
        return str(count) if ask.spec is None else ask.number(count)

    return evaluate


def _head_vector(field: str) -> Evaluate:
    def evaluate(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
        head = ask.head(g, args[0])
        values: tuple[float, ...] = getattr(head, field)
        if field == "difference" and not values:
            raise ask.fail("'difference' is a heads-layout quantity (a head minus the reference)")
        return ask.vector(values, args[1:])

    return evaluate


def _line_number(field: str) -> Evaluate:
    def evaluate(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
        head = ask.head(g, args[0])
        values: tuple[float, ...] = getattr(head, field)
        return ask.number(values[ask.at(g, args[1])])

    return evaluate


def _top(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    head = ask.head(g, args[0])
    rank = args[1] if len(args) > 1 else "1"
    if not rank.isdigit() or not 1 <= int(rank) <= len(g.lines):
        raise ask.fail(f"rank '{rank}' must be a whole number from 1 to {len(g.lines)}")
    line = g.lines[head.top(int(rank))[-1]]
    return ask.text(ask.labels(line.token))


def _rank(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    head = ask.head(g, args[0])
    at = ask.at(g, args[1])
    mine, weights = head.weights[at], head.weights
    rank = 1 + sum(1 for i, w in enumerate(weights) if w > mine or (w == mine and i < at))
    return str(rank) if ask.spec is None else ask.number(rank)


def _named_group(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    groups = dict(ask.head(g, args[0]).groups)
    if args[1] not in groups:
        hint = did_you_mean(args[1], list(groups))
        raise ask.fail(f"no group '{args[1]}'{hint}; groups: {listing(groups) or 'none'}")
    return ask.number(groups[args[1]])


def _group_size(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    if args[0] not in ask.named_groups:
        hint = did_you_mean(args[0], list(ask.named_groups))
        known = listing(ask.named_groups) or "none"
        raise ask.fail(f"no group '{args[0]}'{hint}; groups: {known}")
    size = len(ask.named_groups[args[0]])
    return str(size) if ask.spec is None else ask.number(size)


def _separation(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    first, second = ask.head(g, args[0]), ask.head(g, args[1])
    return ask.number(g.separation(first.name, second.name))


def _line_vector(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    return ask.vector(g.lines[ask.at(g, args[0])].vector, args[1:])


def _cell(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    columns = list(ask.result.columns)
    if args[1] not in columns:
        hint = did_you_mean(args[1], columns)
        raise ask.fail(f"no CSV column '{args[1]}'{hint}; columns: {listing(columns)}")
    return ask.text(g.lines[ask.at(g, args[0])].cells[columns.index(args[1])])


def _baseline(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    return ask.vector(g.baseline, args)


def _baseline_weight(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    return ask.number(1 / len(g.lines))


def _tokens(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    return ask.text(", ".join(ask.labels(line.token) for line in g.lines))


def _axes(ask: Reading, g: GroupResult, args: tuple[str, ...]) -> str:
    return ask.text(", ".join(ask.result.axis_names))


_Q = ReadingQuantity
QUESTION_QUANTITIES: dict[str, ReadingQuantity] = {
    "csv_rows": _Q((0, 0), "csv_rows", _count("csv_rows"), scoped=False),
    "document_rows": _Q((0, 0), "document_rows", _count("document_rows"), scoped=False),
    "axes": _Q((0, 0), "axes", _axes, scoped=False),
    "baseline": _Q((0, 1), "baseline [AXIS]", _baseline),
    "baseline_weight": _Q((0, 0), "baseline_weight", _baseline_weight),
    "context": _Q((1, 2), "context QUESTION [AXIS]", _head_vector("context")),
    "shift": _Q((1, 2), "shift QUESTION [AXIS]", _head_vector("shift")),
    "weight": _Q((2, 2), "weight QUESTION LINE", _line_number("weights")),
    "score": _Q((2, 2), "score QUESTION LINE", _line_number("values")),
    "top": _Q((1, 2), "top QUESTION [RANK]", _top),
    "rank": _Q((2, 2), "rank QUESTION LINE", _rank),
    "group": _Q((2, 2), "group QUESTION NAME", _named_group),
    "group_size": _Q((1, 1), "group_size NAME", _group_size, scoped=False),
    "vector": _Q((1, 2), "vector LINE [AXIS]", _line_vector),
    "cell": _Q((2, 2), "cell LINE COLUMN", _cell),
    "tokens": _Q((0, 0), "tokens", _tokens),
}
HEAD_QUANTITIES: dict[str, ReadingQuantity] = {
    "csv_rows": QUESTION_QUANTITIES["csv_rows"],
    "document_rows": QUESTION_QUANTITIES["document_rows"],
    "axes": QUESTION_QUANTITIES["axes"],
    "baseline": _Q((0, 1), "baseline GROUP [AXIS]", _baseline),
    "tokens": _Q((0, 0), "tokens GROUP", _tokens),
    "vector": _Q((1, 2), "vector GROUP TOKEN [AXIS]", _line_vector),
    "cell": _Q((2, 2), "cell GROUP TOKEN COLUMN", _cell),
    "weight": _Q((2, 2), "weight GROUP HEAD TOKEN", _line_number("weights")),
    "top": _Q((1, 2), "top GROUP HEAD [RANK]", _top),
    "rank": _Q((2, 2), "rank GROUP HEAD TOKEN", _rank),
    "context": _Q((1, 2), "context GROUP HEAD [AXIS]", _head_vector("context")),
    "shift": _Q((1, 2), "shift GROUP HEAD [AXIS]", _head_vector("shift")),
    "difference": _Q((1, 2), "difference GROUP HEAD [AXIS]", _head_vector("difference")),
    "separation": _Q((2, 2), "separation GROUP HEAD HEAD", _separation),
    "group": _Q((2, 2), "group GROUP HEAD NAME", _named_group),
    "group_size": QUESTION_QUANTITIES["group_size"],
}
READING_QUANTITIES: dict[str, dict[str, ReadingQuantity]] = {
    "questions": QUESTION_QUANTITIES,
    "heads": HEAD_QUANTITIES,
}


READING_NAMES = tuple(
    dict.fromkeys(name for table in READING_QUANTITIES.values() for name in table)
)


def reading_usages(name: str) -> list[str]:
    """How ``name`` is written in each reading layout that has it, for "write it as"."""
    found = [f"{t[name].usage} ({layout})" for layout, t in READING_QUANTITIES.items() if name in t]
    return list(dict.fromkeys(found))


def reading_arguments_fit(name: str, count: int) -> bool:
    """Whether ``count`` arguments can be right for ``name`` in some reading layout (a GROUP may
    come first): checked exactly once the example, and so its layout, is known."""
    tables = [t[name] for t in READING_QUANTITIES.values() if name in t]
    return any(q.arity[0] <= count <= q.arity[1] + q.scoped for q in tables)


def scoped(result: ReadingResult, quantity: ReadingQuantity) -> bool:
    """Whether this example's inline value of ``quantity`` starts with a GROUP."""
    return quantity.scoped and (result.kind.always_grouped or len(result.groups) > 1)


def usage(result: ReadingResult, name: str) -> str:
    quantity = READING_QUANTITIES[result.layout][name]
    if scoped(result, quantity) and not result.kind.always_grouped:
        head, _, rest = quantity.usage.partition(" ")
        return f"{head} GROUP {rest}".rstrip()
    return quantity.usage


def reading_value(
    where: str, line: int, spec: str | None, example: Example, name: str, args: tuple[str, ...]
) -> str:
    """The markdown text of the inline value ``name args`` of a reading example."""
    ask = Reading(where, line, spec, example)
    result = ask.result
    quantities = READING_QUANTITIES[result.layout]
    if name not in quantities:
        raise ask.fail(
            f"'{name}' is not a quantity of the {result.layout} layout; "
            f"quantities: {', '.join(quantities)}"
        )
    quantity = quantities[name]
    takes_group = scoped(result, quantity)
    low, high = quantity.arity
    if not low + takes_group <= len(args) <= high + takes_group:
        raise ask.fail(f"write it as `{{selfattn}} {example.spec.id} {usage(result, name)}`")
    if takes_group:
        group, args = ask.group(args[0]), args[1:]
    elif result.groups:
        group = result.groups[0]
    else:
        raise ask.fail("the example has no rows to read")
    return quantity.evaluate(ask, group, args)
