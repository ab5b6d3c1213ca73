"""Two printouts compared line by line and number by number: where a pasted printout went stale.

A printout pasted by hand under its script and what the script prints today share their words and
differ, if at all, in their numbers. Comparing the words first (each number replaced by a mark)
tells a stale printout (same words, other numbers) from one that is not this script's printout at
all, so only the first is ever reported number by number.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

NUMBER = re.compile(
    r"(?<![\w.])[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?!\w|\.\d)"
    r"|(?<![\w.])-?(?:nan|inf)(?!\w)"
)
"""A number as Python prints one (``0.43``, ``-0.18``, ``1e-05``, ``nan``); digits inside a
word (``L10``, ``head1_context``) are part of the word."""

_MARK = "\x00"


@dataclass(frozen=True)
class NumberChange:
    """The ``position``-th number (1-based) of printout line ``line`` (0-based) differs."""

    line: int
    position: int
    old: str
    new: str


@dataclass(frozen=True)
class WordChange:
    """Line ``line`` (0-based) differs in more than its numbers (None: the printout ended)."""

    line: int
    old: str | None
    new: str | None


def printout_lines(text: str) -> list[str]:
    """The lines as a reader compares them: trailing spaces and trailing blank lines dropped
    (a pasted printout loses the script's last empty ``print()``)."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def words(line: str) -> str:
    """The line with every number replaced by one mark."""
    return NUMBER.sub(_MARK, line)


def compare(old: str, new: str) -> WordChange | list[NumberChange]:
    """The first line whose words differ, or else every number that changed (as values:
    ``0.430`` and ``0.43`` are the same number)."""
    before, after = printout_lines(old), printout_lines(new)
    for index in range(max(len(before), len(after))):
        a = before[index] if index < len(before) else None
        b = after[index] if index < len(after) else None
        if a is None or b is None or words(a) != words(b):
            return WordChange(index, a, b)
    changes = []
    for index, (a, b) in enumerate(zip(before, after, strict=True)):
        pairs = zip(NUMBER.findall(a), NUMBER.findall(b), strict=True)
        for position, (x, y) in enumerate(pairs, start=1):
            if not same_number(x, y):
                changes.append(NumberChange(index, position, x, y))
    return changes


def same_number(a: str, b: str) -> bool:
    x, y = float(a), float(b)
    return x == y or (math.isnan(x) and math.isnan(y))
