"""Inline values of the targets layout: every quantity it answers, as one row of
:data:`QUANTITIES` (how many arguments, how it is written, how it is computed). Tokens may be
written as in the CSV or as their display label; a token that occurs at several positions is
written ``token@position``. A CSV token always wins over a label, and a label that several tokens
share is refused: an inline value must never mean two tokens at once. The other layouts' are in
:mod:`inline_readings`; :mod:`inline` reads the values and asks the example's layout."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from mkdocs_selfattn.build.inline_answer import Answer
from mkdocs_selfattn.core.readings import GroupResult, HeadResult
from mkdocs_selfattn.core.results import target_head, top_line
from mkdocs_selfattn.errors import BlockError, did_you_mean, listing
from mkdocs_selfattn.render.escape import md_text
from mkdocs_selfattn.render.labels import Labels, py_list

if TYPE_CHECKING:
    from mkdocs_selfattn.build.example import Example

T = TypeVar("T")
_POSITION = re.compile(r"^(?P<token>.+)@(?P<index>-?\d+)$")


class _Ask(Answer):
    """One inline value of a targets example being answered: its result and labels."""

    def __init__(self, where: str, line: int, spec: str | None, example: Example) -> None:
        super().__init__(where, line, spec)
        self.result = example.result
        self.labels: Labels = example.labels

    def target(self, text: str) -> GroupResult:
        """The target (a group, at one position) ``text`` names."""
        groups, labels = self.result.groups, self.labels
        found = _pick(groups, text, labels, _target_key, self.fail, "target")
        if not found:
            names = [labels.raw(g.name, g.index) for g in groups]
            hint = did_you_mean(text, _names(groups, labels, _target_key))
            raise self.fail(
                f"target '{text}' is not shown by this example{hint}; targets: {listing(names)}"
            )
        _single(found, text, self.fail, lambda g: g.index)
        return found[0]

    def column(self, name: str) -> int:
        columns = self.result.axis_names
        if name in columns:
            return columns.index(name)
        hint = did_you_mean(name, columns)
        raise self.fail(f"'{name}' is not a vector column{hint}; columns: {listing(columns)}")


def _candidate_number(
    column: Callable[[HeadResult], tuple[float, ...]],
) -> Callable[[_Ask, tuple[str, ...]], str]:
    """A number of one candidate of one target: ``column`` picks it from the target's head."""

    def evaluate(ask: _Ask, args: tuple[str, ...]) -> str:
        tgt = ask.target(args[0])
        labels, lines = ask.labels, tgt.lines

        def key(i: int) -> tuple[str, int | None]:
            return lines[i].token, lines[i].index

        rows = range(len(lines))
        matches = _pick(rows, args[1], labels, key, ask.fail, "candidate")
        if not matches:
            names = listing([labels.raw(line.token, line.index) for line in lines])
            hint = did_you_mean(args[1], _names(rows, labels, key))
            raise ask.fail(
                f"'{args[1]}' is not a candidate of target '{tgt.name}'{hint}; candidates: {names}"
            )
        _single(matches, args[1], ask.fail, lambda i: lines[i].index)
        return ask.number(column(target_head(tgt))[matches[0]])

    return evaluate


def _top(ask: _Ask, args: tuple[str, ...]) -> str:
    if ask.spec is not None:
        raise ask.fail("'top' is a token, so a :FORMAT does not apply")
    best = top_line(ask.target(args[0]))
    return md_text(ask.labels(best.token, best.index))


def _group(ask: _Ask, args: tuple[str, ...]) -> str:
    groups = dict(target_head(ask.target(args[0])).groups)
    if args[1] not in groups:
        hint = did_you_mean(args[1], list(groups))
        raise ask.fail(f"no group '{args[1]}'{hint}; groups: {listing(groups) or 'none'}")
    return ask.number(groups[args[1]])


def _vector(field: str) -> Callable[[_Ask, tuple[str, ...]], str]:
    def evaluate(ask: _Ask, args: tuple[str, ...]) -> str:
        vector: tuple[float, ...]
        if field == "baseline":
            groups = ask.result.groups
            vector, rest = (groups[0].baseline if groups else ()), args
        else:
            vector, rest = getattr(target_head(ask.target(args[0])), field), args[1:]
        if rest:
            return ask.number(vector[ask.column(rest[0])])
        if ask.spec is None:
            return md_text(py_list(vector))
        return md_text("[" + ", ".join(ask.number(v) for v in vector) + "]")

    return evaluate


def _count(field: str) -> Callable[[_Ask, tuple[str, ...]], str]:
    def evaluate(ask: _Ask, args: tuple[str, ...]) -> str:
        count: int = getattr(ask.result, field)
        return str(count) if ask.spec is None else ask.number(count)

    return evaluate


@dataclass(frozen=True)
class Quantity:
    """What an inline value may ask for: its arguments, how it is written, how it is computed."""

    arity: tuple[int, int]
    usage: str
    evaluate: Callable[[_Ask, tuple[str, ...]], str]


QUANTITIES: dict[str, Quantity] = {
    "weight": Quantity(
        (2, 2), "weight TARGET CANDIDATE", _candidate_number(lambda head: head.weights)
    ),
    "score": Quantity(
        (2, 2), "score TARGET CANDIDATE", _candidate_number(lambda head: head.values)
    ),
    "top": Quantity((1, 1), "top TARGET", _top),
    "group": Quantity((2, 2), "group TARGET NAME", _group),
    "context": Quantity((1, 2), "context TARGET [COLUMN]", _vector("context")),
    # The same quantity under the name the targets layout gave it first (documented).
    "representation": Quantity((1, 2), "representation TARGET [COLUMN]", _vector("context")),
    "shift": Quantity((1, 2), "shift TARGET [COLUMN]", _vector("shift")),
    "baseline": Quantity((0, 1), "baseline [COLUMN]", _vector("baseline")),
    "csv_rows": Quantity((0, 0), "csv_rows", _count("csv_rows")),
    "document_rows": Quantity((0, 0), "document_rows", _count("document_rows")),
}


def target_value(
    where: str, line: int, spec: str | None, example: Example, name: str, args: tuple[str, ...]
) -> str:
    """The markdown text of the inline value ``name args`` of a targets example."""
    if name not in QUANTITIES:
        raise BlockError(
            f"{where}: '{name}' is a quantity of the questions and heads layouts; "
            f"example '{example.spec.id}' has targets: {', '.join(QUANTITIES)}",
            line=line,
        )
    quantity = QUANTITIES[name]
    if not quantity.arity[0] <= len(args) <= quantity.arity[1]:
        raise BlockError(
            f"{where}: write it as `{{selfattn}} {example.spec.id} {quantity.usage}`", line=line
        )
    return quantity.evaluate(_Ask(where, line, spec, example), args)


def _target_key(target: GroupResult) -> tuple[str, int | None]:
    return target.name, target.index


def _pick(
    items: Sequence[T],
    text: str,
    labels: Labels,
    key: Callable[[T], tuple[str, int | None]],
    fail: Callable[[str], BlockError],
    what: str,
) -> list[T]:
    """Items that ``text`` names: ``token@position`` or a name, a CSV token before a label.

    A name that is no token but the label of several tokens is an error listing them (in CSV
    order), never their sum.
    """
    match = _POSITION.match(text)
    wanted, position = (match["token"], int(match["index"])) if match else (text, None)

    def at(item: T) -> bool:
        return position is None or key(item)[1] == position

    names = [text] if position is None else [text, wanted]
    for name in names:
        exact = [item for item in items if key(item)[0] == name and (name == text or at(item))]
        if exact:
            return exact
    for name in names:
        labelled = [
            item
            for item in items
            if labels.display.get(key(item)[0]) == name and (name == text or at(item))
        ]
        tokens = list(dict.fromkeys(key(item)[0] for item in labelled))
        if len(tokens) > 1:
            listed = listing(tokens, quote=True)
            raise fail(
                f"'{name}' is the label of several {what}s ({listed}); write the CSV token "
                "to say which"
            )
        if labelled:
            return labelled
    return []


def _names(
    items: Sequence[T], labels: Labels, key: Callable[[T], tuple[str, int | None]]
) -> list[str]:
    """Every name an item answers to, tokens and labels, for "did you mean"."""
    names: list[str] = []
    for item in items:
        token = key(item)[0]
        names += [token, labels.display.get(token, token)]
    return list(dict.fromkeys(names))


def _single(
    found: Sequence[T],
    text: str,
    fail: Callable[[str], BlockError],
    index: Callable[[T], int | None],
) -> None:
    positions = sorted({i for i in map(index, found) if i is not None})
    if len(positions) > 1:
        options = listing([f"{text}@{p}" for p in positions])
        raise fail(f"'{text}' occurs at several positions; write one of {options}")
