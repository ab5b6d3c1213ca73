"""Where a hand-written chapter shows an example: a Python code block, then its pasted printout.

The book's chapters were written before the plugin: the example script in a ``python`` fence,
then what it printed, pasted into a ``text`` fence. Only positions and text are found here (no
script is run): the pair, its lines on the page and what lies between the two fences.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from mkdocs_selfattn.blocks.markdown_scan import fence_dedent, outer_fences

PYTHON = frozenset({"python", "py", "python3"})
PRINTOUT = frozenset({"", "text", "txt", "plain", "plaintext", "output"})
MAX_PROSE_LINES = 10
"""Lines of prose a chapter may put between a script and its printout ("in the output, first
…"): kept where they are, between the two blocks that replace the fences."""


@dataclass(frozen=True)
class Pair:
    """A script fence and the printout fence after it; lines are 1-based page lines."""

    code_start: int
    code_end: int
    out_start: int
    out_end: int
    indent: str
    script: str
    pasted: str
    gap: tuple[str, ...]
    """The page lines between the two fences, as written."""

    @property
    def prose_between(self) -> bool:
        """Prose sits between the two fences: it stays, between two blocks."""
        return any(line.strip() for line in self.gap)


def _language(info: str) -> str:
    name = info.strip().split(None, 1)[0] if info.strip() else ""
    return name.lstrip("{.").rstrip("}").lower()


def _gap_ok(lines: list[str]) -> bool:
    """Blank lines, or a short paragraph of prose; a heading starts another subject."""
    text = [line for line in lines if line.strip()]
    return len(text) <= MAX_PROSE_LINES and not any(
        re.match(r"^\s*(#|<|\|)", line) for line in text
    )


def find_pairs(text: str) -> list[Pair]:
    """Every script fence directly followed (blank lines or a short paragraph between) by a
    printout fence at the same indent."""
    lines = text.split("\n")
    fences = list(outer_fences(lines))
    pairs = []
    for (start, close, opening), (next_start, next_close, following) in itertools.pairwise(fences):
        if (
            _language(opening["info"]) not in PYTHON
            or _language(following["info"]) not in PRINTOUT
            or opening["indent"] != following["indent"]
            or close >= len(lines)
            or next_close >= len(lines)
            or not _gap_ok(lines[close + 1 : next_start])
        ):
            continue
        indent = opening["indent"]
        pairs.append(
            Pair(
                code_start=start + 1,
                code_end=close + 1,
                out_start=next_start + 1,
                out_end=next_close + 1,
                indent=indent,
                script="\n".join(fence_dedent(x, indent) for x in lines[start + 1 : close]) + "\n",
                pasted="\n".join(
                    fence_dedent(x, indent) for x in lines[next_start + 1 : next_close]
                ),
                gap=tuple(lines[close + 1 : next_start]),
            )
        )
    return pairs
