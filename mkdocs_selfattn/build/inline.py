"""Inline values: one number or token from an example, in the page's prose.

`` `{selfattn} ID QUANTITY ARGS [:FORMAT]` `` is read here and answered from the one table of
quantities (:mod:`inline_quantities`) in the words of the example's layout (its ``inline`` form
in build/layouts.py). A quantity no layout has, or arguments no layout takes, is refused before
the example is known.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mkdocs_selfattn.blocks.markdown_scan import INLINE_PREFIX, inline_spans
from mkdocs_selfattn.build.inline_quantities import QUANTITIES as QUANTITIES
from mkdocs_selfattn.build.inline_quantities import answer
from mkdocs_selfattn.build.layouts import LAYOUTS, layout_of
from mkdocs_selfattn.core.hidden_text import first_hidden, what_is_wrong
from mkdocs_selfattn.errors import (
    BlockError,
    UseOfFailedExampleError,
    closest,
    did_you_mean,
    listing,
)
from mkdocs_selfattn.render.format_spec import number_spec_problem

if TYPE_CHECKING:
    from mkdocs_selfattn.build.example import Example


@dataclass(frozen=True)
class InlineValue:
    """`` `{selfattn} ID QUANTITY ARGS [:FORMAT]` `` found on a page line (1-based)."""

    line: int
    start: int
    end: int
    example_id: str
    quantity: str
    args: tuple[str, ...]
    spec: str | None


def find_inline_values(text: str) -> list[InlineValue | BlockError]:
    """Every inline value of a page outside code, or the error of one that is miswritten."""
    return [_parse_inline(*span) for span in inline_spans(text)]


def _parse_inline(line: int, start: int, end: int, content: str) -> InlineValue | BlockError:
    body = content[len(INLINE_PREFIX) :].strip()
    at = first_hidden(content)
    if at is not None:
        # Names and formats alike: the value's own text must read as it is written.
        return BlockError(f"inline value {what_is_wrong(content, at)}", line=line)
    try:
        words = shlex.split(body)
    except ValueError as exc:
        return BlockError(f"inline value `{content}`: {exc}; close the quotes", line=line)
    spec = None
    if len(words) > 2 and words[-1].startswith(":"):
        spec = words.pop()[1:]
        problem = number_spec_problem(spec)
        if problem is not None:
            return BlockError(f"inline value `{content}`: ':{spec}' {problem}", line=line)
    if len(words) < 2:
        return BlockError(
            f"inline value `{content}` needs an example id and a quantity, "
            "e.g. `{selfattn} memo weight TARGET CANDIDATE`",
            line=line,
        )
    example_id, quantity, args = words[0], words[1], tuple(words[2:])
    forms = [layout.inline for layout in LAYOUTS.values()]
    known = list(dict.fromkeys(name for form in forms for name in form.quantities))
    if quantity not in known:
        match = closest(quantity, known)
        hint = f"did you mean '{match}'?" if match else f"one of {', '.join(known)}"
        return BlockError(
            f"inline value `{content}`: unknown quantity '{quantity}'; {hint}", line=line
        )
    # Before the example is known, any layout's form will do (a GROUP may come first); its own
    # layout's form is checked exactly when the value is answered.
    offering = [form for form in forms if quantity in form.quantities]
    fits = [form.arity(quantity) for form in offering]
    if not any(low <= len(args) <= high for low, high in fits):
        usages = [f"{form.usage(quantity)} ({form.layout})" for form in offering]
        return BlockError(
            f"inline value `{content}`: write it as "
            + " or ".join(f"`{{selfattn}} {example_id} {u}`" for u in usages)
            + " (quote tokens that contain spaces)",
            line=line,
        )
    return InlineValue(line, start, end, example_id, quantity, args, spec)


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
    if example is None and item.example_id in (failed or {}):
        line = (failed or {})[item.example_id]
        raise UseOfFailedExampleError(
            f"{where}: the example of line {line} failed; fix that block first",
            example_id=item.example_id,
            line=item.line,
        )
    if example is None:
        failed_ids = sorted(set(failed or {}) - set(examples))
        ids = [*sorted(examples), *(f"{i} (failed)" for i in failed_ids)]
        known = listing(ids) or "none"
        hint = did_you_mean(item.example_id, [*examples, *(failed or {})])
        if unread:
            hint += (
                f" (the block of line {unread[-1]} could not be read: fix it first if it "
                f"defines '{item.example_id}')"
            )
        raise BlockError(
            f"{where}: no example with id '{item.example_id}' on this page{hint}; ids: {known}",
            line=item.line,
        )
    forms = [layout.inline for layout in LAYOUTS.values()]
    form = layout_of(example.result).inline
    return answer(form, forms, where, item.line, item.spec, example, item.quantity, item.args)
