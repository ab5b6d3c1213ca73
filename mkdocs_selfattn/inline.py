"""Inline values: one number or token from an example, in the page's prose.

Tokens may be written as in the CSV or as their display label; a token that occurs at several
positions is written ``token@position``. A CSV token always wins over a label, and a label that
several tokens share is refused: an inline value must never mean two tokens at once.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from mkdocs_selfattn.blocks import InlineValue
from mkdocs_selfattn.errors import BlockError, UseOfFailedExampleError
from mkdocs_selfattn.pipeline import Example
from mkdocs_selfattn.render.escape import md_text
from mkdocs_selfattn.render.labels import Labels, format_value, py_list
from mkdocs_selfattn.results import CandidateResult, TargetResult

T = TypeVar("T")
_POSITION = re.compile(r"^(?P<token>.+)@(?P<index>-?\d+)$")


def inline_value(
    item: InlineValue,
    examples: dict[str, Example],
    failed: dict[str, int] | None = None,
    unread: Sequence[int] = (),
) -> str:
    """The markdown text of one inline value; raises :class:`BlockError` naming the page line.

    ``failed`` holds the ids of examples whose block failed (with its line) and ``unread`` the
    lines of blocks too broken to have an id: a missing id may be one of those.
    """
    example = examples.get(item.example_id)
    where = f"inline value '{item.example_id} {item.quantity}'"

    def fail(message: str) -> BlockError:
        return BlockError(f"{where}: {message}", line=item.line)

    if example is None and item.example_id in (failed or {}):
        line = (failed or {})[item.example_id]
        raise UseOfFailedExampleError(
            f"{where}: the example of line {line} failed; fix that block first",
            example_id=item.example_id,
            line=item.line,
        )
    if example is None:
        known = ", ".join(sorted(examples)) or "none"
        hint = did_you_mean(item.example_id, [*examples, *(failed or {})])
        if unread:
            hint += (
                f" (the block of line {unread[-1]} could not be read: fix it first if it "
                f"defines '{item.example_id}')"
            )
        raise fail(f"no example with id '{item.example_id}' on this page{hint}; ids: {known}")
    result, labels = example.result, example.labels
    q, args, spec = item.quantity, item.args, item.spec

    def number(value: float) -> str:
        try:
            return format_value(value, spec)
        except (ValueError, TypeError) as exc:
            raise fail(f"format ':{spec}' does not apply to {value!r} ({exc})") from None

    def target(text: str) -> TargetResult:
        found = _pick(result.targets, text, labels, _target_key, fail, "target")
        if not found:
            names = [labels.raw(t.target, t.target_index) for t in result.targets]
            hint = did_you_mean(text, _names(result.targets, labels, _target_key))
            raise fail(
                f"target '{text}' is not shown by this example{hint}; targets: {', '.join(names)}"
            )
        _single(found, text, fail, lambda t: t.target_index)
        return found[0]

    def column(name: str) -> int:
        if name in result.vector_columns:
            return result.vector_columns.index(name)
        hint = did_you_mean(name, result.vector_columns)
        raise fail(
            f"'{name}' is not a vector column{hint}; columns: {', '.join(result.vector_columns)}"
        )

    if q in ("weight", "score"):
        tgt = target(args[0])
        matches = _pick(tgt.candidates, args[1], labels, _candidate_key, fail, "candidate")
        if not matches:
            names = ", ".join(labels.raw(c.token, c.index) for c in tgt.candidates)
            hint = did_you_mean(args[1], _names(tgt.candidates, labels, _candidate_key))
            raise fail(
                f"'{args[1]}' is not a candidate of target '{tgt.target}'{hint}; "
                f"candidates: {names}"
            )
        _single(matches, args[1], fail, lambda c: c.index)
        return number(matches[0].weight if q == "weight" else matches[0].score)
    if q == "top":
        if spec is not None:
            raise fail("'top' is a token, so a :FORMAT does not apply")
        tgt = target(args[0])
        return md_text(labels(tgt.top, tgt.top_index))
    if q == "group":
        groups = dict(target(args[0]).groups)
        if args[1] not in groups:
            hint = did_you_mean(args[1], list(groups))
            raise fail(f"no group '{args[1]}'{hint}; groups: {', '.join(groups) or 'none'}")
        return number(groups[args[1]])
    if q in ("representation", "shift", "baseline"):
        if q == "baseline":
            vector, rest = result.baseline, args
        else:
            tgt = target(args[0])
            vector, rest = (tgt.representation if q == "representation" else tgt.shift), args[1:]
        if rest:
            return number(vector[column(rest[0])])
        if spec is None:
            return md_text(py_list(vector))
        return md_text("[" + ", ".join(number(v) for v in vector) + "]")
    count = result.csv_rows if q == "csv_rows" else result.document_rows
    return str(count) if spec is None else number(count)


def _target_key(target: TargetResult) -> tuple[str, int | None]:
    return target.target, target.target_index


def _candidate_key(candidate: CandidateResult) -> tuple[str, int | None]:
    return candidate.token, candidate.index


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
            listed = ", ".join(f"'{token}'" for token in tokens)
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


def did_you_mean(text: str, options: Sequence[str]) -> str:
    """``; did you mean 'x'?`` for the closest of ``options``, or nothing."""
    close = difflib.get_close_matches(text, list(dict.fromkeys(options)), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def _single(
    found: Sequence[T],
    text: str,
    fail: Callable[[str], BlockError],
    index: Callable[[T], int | None],
) -> None:
    positions = sorted({i for i in map(index, found) if i is not None})
    if len(positions) > 1:
        options = ", ".join(f"{text}@{p}" for p in positions)
        raise fail(f"'{text}' occurs at several positions; write one of {options}")
