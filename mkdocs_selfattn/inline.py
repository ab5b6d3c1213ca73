"""Inline values: one number or token from an example, in the page's prose.

Tokens may be written as in the CSV or as their display label; a token that occurs at several
positions is written ``token@position``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from mkdocs_selfattn.blocks import InlineValue
from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.example import Example
from mkdocs_selfattn.render.escape import md_text
from mkdocs_selfattn.render.labels import Labels, format_value, py_list

T = TypeVar("T")
_POSITION = re.compile(r"^(?P<token>.+)@(?P<index>-?\d+)$")


def inline_value(
    item: InlineValue, examples: dict[str, Example], failed: dict[str, int] | None = None
) -> str:
    """The markdown text of one inline value; raises :class:`BlockError` naming the page line."""
    example = examples.get(item.example_id)
    where = f"inline value '{item.example_id} {item.quantity}'"

    def fail(message: str) -> BlockError:
        return BlockError(f"{where}: {message}", line=item.line)

    if example is None and item.example_id in (failed or {}):
        line = (failed or {})[item.example_id]
        raise fail(f"the example of line {line} failed; fix that block first")
    if example is None:
        known = ", ".join(sorted(examples)) or "none"
        raise fail(f"no example with id '{item.example_id}' on this page; ids: {known}")
    result, labels = example.result, example.labels
    q, args, spec = item.quantity, item.args, item.spec

    def number(value: float) -> str:
        try:
            return format_value(value, spec)
        except (ValueError, TypeError) as exc:
            raise fail(f"format ':{spec}' does not apply to {value!r} ({exc})") from None

    def target(text: str):  # type: ignore[no-untyped-def]
        found = _pick(result.targets, text, labels, lambda t: (t.target, t.target_index))
        if not found:
            shown = ", ".join(labels.raw(t.target, t.target_index) for t in result.targets)
            raise fail(f"target '{text}' is not shown by this example; targets: {shown}")
        _single(found, text, fail, lambda t: t.target_index)
        return found[0]

    def column(name: str) -> int:
        if name in result.vector_columns:
            return result.vector_columns.index(name)
        raise fail(f"'{name}' is not a vector column; columns: {', '.join(result.vector_columns)}")

    if q in ("weight", "score"):
        tgt = target(args[0])
        matches = _pick(tgt.candidates, args[1], labels, lambda c: (c.token, c.index))
        if not matches:
            names = ", ".join(labels.raw(c.token, c.index) for c in tgt.candidates)
            raise fail(
                f"'{args[1]}' is not a candidate of target '{tgt.target}'; candidates: {names}"
            )
        _single(matches, args[1], fail, lambda c: c.index)
        return number(sum(c.weight for c in matches) if q == "weight" else matches[0].score)
    if q == "top":
        if spec is not None:
            raise fail("'top' is a token, so a :FORMAT does not apply")
        tgt = target(args[0])
        return md_text(labels(tgt.top, tgt.top_index))
    if q == "group":
        groups = dict(target(args[0]).groups)
        if args[1] not in groups:
            raise fail(f"no group '{args[1]}'; groups: {', '.join(groups) or 'none'}")
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


def _pick(
    items: Sequence[T], text: str, labels: Labels, key: Callable[[T], tuple[str, int | None]]
) -> list[T]:
    """Items whose token (or display label) is ``text``, or ``token@position`` exactly."""
    match = _POSITION.match(text)
    wanted, position = (match["token"], int(match["index"])) if match else (text, None)
    picked = []
    for item in items:
        token, index = key(item)
        names = (token, labels.display.get(token, token))
        if text in names or (position is not None and wanted in names and index == position):
            picked.append(item)
    return picked


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
