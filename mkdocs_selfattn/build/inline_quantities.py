"""Inline values of every layout: one table of quantities (:data:`QUANTITIES`), read through the
words and naming rules of the example's layout (an :class:`InlineForm`, its part of the layout
registry in ``build/layouts.py``).

A quantity is its arguments (as kinds: a reader, a line, an optional axis …) and how it is
computed from the one record family. A layout's form says which quantities it offers, what its
readers, lines and axes are called in usages and messages, whether a GROUP comes first, and
how a reader is named: a target is a token (at a position), a question or head a name.

A line is named by its CSV token or display label; a token on several lines is written
``token@N``, where N is the line's position when the file has position (index) columns and
otherwise its data row (0 = the first after the header). A CSV token always wins over a label,
and a label that several tokens share is refused: an inline value never means two things.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Literal, TypeVar

from mkdocs_selfattn.core.readings import (
    READING_KINDS,
    GroupResult,
    HeadResult,
    Layout,
    ReadingKind,
    ReadingResult,
)
from mkdocs_selfattn.errors import BlockError, did_you_mean, listing
from mkdocs_selfattn.render.escape import md_text
from mkdocs_selfattn.render.labels import Labels, format_value

if TYPE_CHECKING:
    from mkdocs_selfattn.build.example import Example

T = TypeVar("T")
_NUMBERED = re.compile(r"^(?P<token>.+)@(?P<number>-?\d+)$")


class Arg(Enum):
    """What one argument of a quantity names; its word in a usage comes from the form."""

    READER = "reader"
    LINE = "line"
    AXIS = "axis"
    NAME = "NAME"
    RANK = "RANK"
    COLUMN = "COLUMN"


@dataclass(frozen=True)
class InlineForm:
    """How one layout's inline values are written and named."""

    layout: Layout
    """The layout whose values these are."""
    quantities: tuple[str, ...]
    """The quantities it offers, in the order a message lists them."""
    reader: str
    """A reader in usages (``TARGET``, ``QUESTION``, ``HEAD``)."""
    line: str
    """A line in usages (``CANDIDATE``, ``LINE``, ``TOKEN``)."""
    axis: str
    """An axis in usages (``COLUMN``, ``AXIS``)."""
    line_noun: str
    """A line in messages ("candidate", "line")."""
    axis_nouns: tuple[str, str]
    """An axis in messages, and the list's name ("a vector column", "columns")."""

    @property
    def kind(self) -> ReadingKind:
        """The layout's kind: how its readers are named (a target is a token at a position; a
        question or head a name, a column or a label), what a reader is called in messages,
        whether groups are always named and whether vectors print as lists."""
        return READING_KINDS[self.layout]

    @property
    def grouping(self) -> Literal["never", "several", "always"]:
        """When a GROUP comes first: never where each group is a reader (targets share one
        document), always where groups are always named (heads' scenarios), else when the file
        has several groups (questions)."""
        if self.kind.readers_are_tokens:
            return "never"
        return "always" if self.kind.always_grouped else "several"

    def usage(self, name: str, grouped: bool | None = None) -> str:
        """How ``name`` is written in this layout; ``grouped``: with a GROUP first (None: as
        the layout writes it whatever the file)."""
        quantity = QUANTITIES[name]
        if grouped is None:
            grouped = self.grouping == "always"
        words = [name, *(["GROUP"] if grouped and quantity.scoped else [])]
        named = {Arg.READER: self.reader, Arg.LINE: self.line, Arg.AXIS: self.axis}
        for arg, optional in quantity.args:
            word = named.get(arg, arg.value)
            words.append(f"[{word}]" if optional else word)
        return " ".join(words)

    def arity(self, name: str, grouped: bool | None = None) -> tuple[int, int]:
        """The fewest and most arguments of ``name``, a GROUP included; ``grouped`` None: the
        example is not known yet, so a GROUP may or may not come first wherever the layout can
        take one (a value that fits no layout is refused early; one that fits some is told
        exactly what its own layout needs, or that its layout lacks the quantity)."""
        quantity = QUANTITIES[name]
        low = sum(1 for _, optional in quantity.args if not optional)
        high = len(quantity.args)
        if not quantity.scoped:
            return low, high
        if grouped is None:
            return low, high + (self.grouping != "never")
        return low + grouped, high + grouped

    def takes_group(self, name: str, result: ReadingResult) -> bool:
        """Whether this example's value of ``name`` starts with a GROUP."""
        several = self.grouping == "several" and len(result.groups) > 1
        return QUANTITIES[name].scoped and (self.grouping == "always" or several)


class Ask:
    """One inline value being answered: where it is, its ``:FORMAT``, its example and form."""

    def __init__(
        self, where: str, line: int, spec: str | None, example: Example, form: InlineForm
    ) -> None:
        self.where, self.line, self.spec, self.form = where, line, spec, form
        self.example = example
        self.result: ReadingResult = example.result
        self.labels: Labels = example.labels

    def fail(self, message: str) -> BlockError:
        return BlockError(f"{self.where}: {message}", line=self.line)

    def number(self, value: float) -> str:
        try:
            return format_value(value, self.spec)
        except (ValueError, TypeError) as exc:
            raise self.fail(f"format ':{self.spec}' does not apply to {value!r} ({exc})") from None

    def text(self, value: str) -> str:
        if self.spec is not None:
            raise self.fail("this quantity is text, so a :FORMAT does not apply")
        return md_text(value)

    def vector(self, values: Sequence[float], axis: Sequence[str]) -> str:
        """One axis when asked for, else the list (one number for one axis, unless the layout
        prints lists always)."""
        if axis:
            return self.number(values[self.axis(axis[0])])
        if len(values) == 1 and not self.form.kind.lists:
            return self.number(values[0])
        return md_text("[" + ", ".join(self.number(v) for v in values) + "]")

    def axis(self, name: str) -> int:
        names = list(self.result.axis_names)
        if name in names:
            return names.index(name)
        hint = did_you_mean(name, names)
        one, many = self.form.axis_nouns
        raise self.fail(f"'{name}' is not {one}{hint}; {many}: {listing(names)}")

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
        what = self.form.kind.group
        raise self.fail(f"no {what} '{name}'{hint}; groups: {listing(shown)}")

    def reader(self, group: GroupResult, text: str) -> tuple[GroupResult, HeadResult]:
        """The reader ``text`` names, and the group it reads."""
        if self.form.kind.readers_are_tokens:
            target = self._target(text)
            (head,) = target.heads
            return target, head
        return group, self._head(group, text)

    def _target(self, text: str) -> GroupResult:
        groups, labels, noun = self.result.groups, self.labels, self.form.kind.reader

        def key(g: GroupResult) -> tuple[str, int | None]:
            return g.name, g.index

        found = self._pick(groups, text, key, noun)
        if not found:
            names = [labels.raw(g.name, g.index) for g in groups]
            hint = did_you_mean(text, self._names(groups, key))
            raise self.fail(
                f"{noun} '{text}' is not shown by this example{hint}; {noun}s: {listing(names)}"
            )
        self._single(found, text, key)
        return found[0]

    def _head(self, group: GroupResult, name: str) -> HeadResult:
        heads, noun = group.heads, self.form.kind.reader
        found = [h for h in heads if name in (h.name, h.column)]
        if not found:
            found = [h for h in heads if self.labels.display.get(h.name) == name]
            if len(found) > 1:
                listed = listing([h.name for h in found], quote=True)
                raise self.fail(
                    f"'{name}' is the label of several {noun}s ({listed}); write the name to "
                    "say which"
                )
        if found:
            return found[0]
        names = [h.name for h in heads]
        options = [*names, *(h.column for h in heads), *(self.labels(n) for n in names)]
        listed = listing(names, quote=True)
        raise self.fail(f"no {noun} '{name}'{did_you_mean(name, options)}; {noun}s: {listed}")

    def at(self, group: GroupResult, text: str) -> int:
        """The index of the line ``text`` names in ``group``."""
        lines = group.lines

        def key(i: int) -> tuple[str, int]:
            line = lines[i]
            return line.token, line.row if line.index is None else line.index

        rows = range(len(lines))
        found = self._pick(rows, text, key, self.form.line_noun)
        if found:
            self._single(found, text, key)
            return found[0]
        names = listing(list(dict.fromkeys(self.labels.raw(ln.token, ln.index) for ln in lines)))
        hint = did_you_mean(text, self._names(rows, key))
        noun = self.form.line_noun
        if self.form.kind.readers_are_tokens:
            raise self.fail(
                f"'{text}' is not a {noun} of {self.form.kind.reader} '{group.name}'{hint}; "
                f"{noun}s: {names}"
            )
        where = f" of group '{group.name}'" if group.name else ""
        raise self.fail(f"no {noun} '{text}'{where}{hint}; {noun}s: {names}")

    def _pick(
        self,
        items: Sequence[T],
        text: str,
        key: Callable[[T], tuple[str, int | None]],
        noun: str,
    ) -> list[T]:
        """Items that ``text`` names: ``token@N`` or a name, a CSV token before a label. A name
        that is no token but the label of several tokens is refused, listing them."""
        match = _NUMBERED.match(text)
        wanted, number = (match["token"], int(match["number"])) if match else (text, None)

        def at(item: T) -> bool:
            return number is None or key(item)[1] == number

        names = [text] if number is None else [text, wanted]
        for name in names:
            exact = [item for item in items if key(item)[0] == name and (name == text or at(item))]
            if exact:
                return exact
        display = self.labels.display
        for name in names:
            labelled = [
                item
                for item in items
                if display.get(key(item)[0]) == name and (name == text or at(item))
            ]
            tokens = list(dict.fromkeys(key(item)[0] for item in labelled))
            if len(tokens) > 1:
                listed = listing(tokens, quote=True)
                raise self.fail(
                    f"'{name}' is the label of several {noun}s ({listed}); write the CSV token "
                    "to say which"
                )
            if labelled:
                return labelled
        return []

    def _names(self, items: Sequence[T], key: Callable[[T], tuple[str, int | None]]) -> list[str]:
        """Every name an item answers to, tokens and labels, for "did you mean"."""
        names: list[str] = []
        for item in items:
            token = key(item)[0]
            names += [token, self.labels.display.get(token, token)]
        return list(dict.fromkeys(names))

    def _single(
        self, found: Sequence[T], text: str, key: Callable[[T], tuple[str, int | None]]
    ) -> None:
        numbers = sorted({n for n in (key(item)[1] for item in found) if n is not None})
        if len(numbers) > 1:
            options = listing([f"{text}@{n}" for n in numbers])
            raise self.fail(f"'{text}' occurs more than once; write one of {options}")


Evaluate = Callable[[Ask, GroupResult, tuple[str, ...]], str]


@dataclass(frozen=True)
class Quantity:
    """What an inline value may ask for: its arguments (kind, optional?) and its computation."""

    args: tuple[tuple[Arg, bool], ...]
    evaluate: Evaluate
    scoped: bool = True
    """Read in one group: after a GROUP where the layout's grouping asks for one, else in the
    reader's group (a target's), else in the example's first group."""


def _count(field: str) -> Evaluate:
    def evaluate(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
        count: int = getattr(ask.result, field)
        return str(count) if ask.spec is None else ask.number(count)

    return evaluate


def _head_vector(field: str) -> Evaluate:
    def evaluate(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
        _, head = ask.reader(g, args[0])
        values: tuple[float, ...] = getattr(head, field)
        if field == "difference" and not values:
            raise ask.fail("'difference' is a heads-layout quantity (a head minus the reference)")
        return ask.vector(values, args[1:])

    return evaluate


def _line_number(field: str) -> Evaluate:
    def evaluate(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
        g, head = ask.reader(g, args[0])
        values: tuple[float, ...] = getattr(head, field)
        return ask.number(values[ask.at(g, args[1])])

    return evaluate


def _top(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    g, head = ask.reader(g, args[0])
    rank = args[1] if len(args) > 1 else "1"
    if not rank.isdigit() or not 1 <= int(rank) <= len(g.lines):
        raise ask.fail(f"rank '{rank}' must be a whole number from 1 to {len(g.lines)}")
    line = g.lines[head.top(int(rank))[-1]]
    return ask.text(ask.labels(line.token, line.index))


def _rank(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    g, head = ask.reader(g, args[0])
    at = ask.at(g, args[1])
    mine, weights = head.weights[at], head.weights
    rank = 1 + sum(1 for i, w in enumerate(weights) if w > mine or (w == mine and i < at))
    return str(rank) if ask.spec is None else ask.number(rank)


def _named_group(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    groups = dict(ask.reader(g, args[0])[1].groups)
    if args[1] not in groups:
        hint = did_you_mean(args[1], list(groups))
        raise ask.fail(f"no group '{args[1]}'{hint}; groups: {listing(groups) or 'none'}")
    return ask.number(groups[args[1]])


def _group_size(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    named = dict(ask.example.spec.groups)
    if args[0] not in named:
        hint = did_you_mean(args[0], list(named))
        raise ask.fail(f"no group '{args[0]}'{hint}; groups: {listing(named) or 'none'}")
    size = len(named[args[0]])
    return str(size) if ask.spec is None else ask.number(size)


def _separation(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    (_, first), (_, second) = ask.reader(g, args[0]), ask.reader(g, args[1])
    return ask.number(g.separation(first.name, second.name))


def _line_vector(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    return ask.vector(g.lines[ask.at(g, args[0])].vector, args[1:])


def _cell(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    columns = list(ask.result.columns)
    if args[1] not in columns:
        hint = did_you_mean(args[1], columns)
        raise ask.fail(f"no CSV column '{args[1]}'{hint}; columns: {listing(columns)}")
    return ask.text(g.lines[ask.at(g, args[0])].cells[columns.index(args[1])])


def _baseline(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    return ask.vector(g.baseline, args)


def _baseline_weight(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    return ask.number(1 / len(g.lines))


def _tokens(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    return ask.text(", ".join(ask.labels(line.token, line.index) for line in g.lines))


def _axes(ask: Ask, g: GroupResult, args: tuple[str, ...]) -> str:
    return ask.text(", ".join(ask.result.axis_names))


_R, _L, _X = (Arg.READER, False), (Arg.LINE, False), (Arg.AXIS, True)
QUANTITIES: dict[str, Quantity] = {
    "csv_rows": Quantity((), _count("csv_rows"), scoped=False),
    "document_rows": Quantity((), _count("document_rows"), scoped=False),
    "axes": Quantity((), _axes, scoped=False),
    "baseline": Quantity((_X,), _baseline),
    "baseline_weight": Quantity((), _baseline_weight),
    "tokens": Quantity((), _tokens),
    "vector": Quantity((_L, _X), _line_vector),
    "cell": Quantity((_L, (Arg.COLUMN, False)), _cell),
    "weight": Quantity((_R, _L), _line_number("weights")),
    "score": Quantity((_R, _L), _line_number("values")),
    "top": Quantity((_R, (Arg.RANK, True)), _top),
    "rank": Quantity((_R, _L), _rank),
    "group": Quantity((_R, (Arg.NAME, False)), _named_group),
    "group_size": Quantity(((Arg.NAME, False),), _group_size, scoped=False),
    "context": Quantity((_R, _X), _head_vector("context")),
    # The targets' first name of `context` (documented, kept working).
    "representation": Quantity((_R, _X), _head_vector("context")),
    "shift": Quantity((_R, _X), _head_vector("shift")),
    "difference": Quantity((_R, _X), _head_vector("difference")),
    "separation": Quantity((_R, _R), _separation),
}
"""Every quantity an inline value can ask for; a layout's :class:`InlineForm` offers some."""


def answer(
    form: InlineForm,
    forms: Sequence[InlineForm],
    where: str,
    line: int,
    spec: str | None,
    example: Example,
    name: str,
    args: tuple[str, ...],
) -> str:
    """The markdown text of the inline value ``name args`` of an example of ``form``'s layout
    (``forms``: every layout's, to say which has a quantity this one lacks)."""
    ask = Ask(where, line, spec, example, form)
    if name not in form.quantities:
        others = [f.layout for f in forms if name in f.quantities]
        theirs = f" but of the {' and '.join(others)} layout" if others else ""
        theirs += "s" if len(others) > 1 else ""
        raise ask.fail(
            f"'{name}' is not a quantity of the {form.layout} layout{theirs}; "
            f"quantities: {', '.join(form.quantities)}"
        )
    result = ask.result
    grouped = form.takes_group(name, result)
    low, high = form.arity(name, grouped)
    if not low <= len(args) <= high:
        raise ask.fail(f"write it as `{{selfattn}} {example.spec.id} {form.usage(name, grouped)}`")
    if grouped:
        group, args = ask.group(args[0]), args[1:]
    elif result.groups:
        group = result.groups[0]
    else:
        raise ask.fail("the example has no rows to read")
    return QUANTITIES[name].evaluate(ask, group, args)
