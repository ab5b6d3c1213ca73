"""What keeps a figure readable whatever the data: short labels and a bounded number of items.

Shared by the charts and the mermaid graphs, so a token reads the same in both and a target with
thousands of candidates is summarised the same way in both (the top ones, then one "N others"
item carrying the rest's summed weight).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

LABEL_WIDTH = 18
"""Widest label a figure draws, in columns (a CJK character is two): longer ones are shortened
with "…", the full text kept in the chart's ``<title>`` tooltip."""

ALL_ITEMS = 40
"""Up to this many candidates a figure shows them all (a 40-line manual); beyond it, the top
:data:`TOP_ITEMS` and one summary item."""

TOP_ITEMS = 20

T = TypeVar("T")

Measure = Callable[[str, float], float]
"""A text's width at a font size, in SVG units (the chart fonts' metrics)."""


def width(text: str) -> int:
    """Display columns: wide and full-width characters (CJK) count two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def shorten(text: str, limit: int = LABEL_WIDTH) -> str:
    """``text`` if it fits ``limit`` columns, else its head, "…" and its tail within them: the
    tail is kept because tokens of one file often differ only at the end (``line_0001``)."""
    if width(text) <= limit:
        return text
    room = limit - 1
    head = _fit(text, room - room // 3)
    tail = _fit(text[::-1], room - width(head))[::-1]
    return head.rstrip() + "…" + tail.lstrip()


def fold(text: str, limit: int = LABEL_WIDTH) -> str:
    """A label under a bar: one line if it fits ``limit`` columns, else two, broken only where a
    reader expects it (after a space or a ``_``, nearest the middle), the second shortened if even
    two are too few; a label with no such place is shortened on one line. Never mid-word: the
    full text is the label's tooltip."""
    if width(text) <= limit:
        return text
    cuts = break_points(text)
    fitting = [i for i in cuts if width(text[:i].rstrip()) <= limit]
    whole = [i for i in fitting if width(text[i:]) <= limit]
    if whole:
        cut = min(whole, key=lambda i: abs(width(text[:i]) - width(text) / 2))
    elif fitting:
        cut = max(fitting)
    else:
        return shorten(text, limit)
    return text[:cut].rstrip() + "\n" + shorten(text[cut:].lstrip(), limit)


def break_points(text: str) -> list[int]:
    """Where a label may break: after a space, a ``_``, a ``·`` or a ``/`` (the index the next
    line starts at), never at either end."""
    return [
        i + 1
        for i, ch in enumerate(text[:-1])
        if i > 0 and (ch in "_·/" or (ch == " " and text[i + 1] not in "·/"))
    ]


def wrap(text: str, room: float, size: float, measure: Measure, lines: int = 2) -> list[str]:
    """``text`` in at most ``lines`` lines of ``room`` units, broken only after a space, ``_``,
    ``·`` or ``/``; what still does not fit is shortened with "…" (the tooltip has it whole)."""
    out: list[str] = []
    rest = text.replace("\n", " ")
    while rest and len(out) < lines - 1 and measure(rest, size) > room:
        cuts = [i for i in break_points(rest) if measure(rest[:i].rstrip(), size) <= room]
        if not cuts:
            break
        out.append(rest[: cuts[-1]].rstrip())
        rest = rest[cuts[-1] :].lstrip()
    out.append(shortened(rest, room, size, measure))
    return out


def shortened(text: str, room: float, size: float, measure: Measure) -> str:
    """``text`` if it fits ``room`` units, else shortened in the middle until it does (the first
    try from the columns its measured width allows, so a long text is measured a few times)."""
    full = measure(text, size)
    if full <= room:
        return text
    columns = width(text)
    for limit in range(min(columns - 1, int(columns * room / full) + 1), 3, -1):
        short = shorten(text, limit)
        if measure(short, size) <= room:
            return short
    return shorten(text, 4)


def _fit(text: str, limit: int) -> str:
    out, used = [], 0
    for ch in text:
        used += width(ch)
        if used > limit:
            break
        out.append(ch)
    return "".join(out)


@dataclass(frozen=True)
class Kept:
    """The items a figure shows, in order, and how many it summarised."""

    items: tuple[int, ...]
    """Indices into the full sequence."""
    others: tuple[int, ...]
    """Indices folded into the summary item (empty: no summary item)."""


def keep_top(
    count: int, weight: Callable[[int], float], *, show_all: int = ALL_ITEMS, top: int = TOP_ITEMS
) -> Kept:
    """Every index in order when there are few; else the ``top`` heaviest (stable: on a tie the
    earlier one), in rank order, and the rest as "others"."""
    if count <= show_all:
        return Kept(tuple(range(count)), ())
    ranked = sorted(range(count), key=lambda i: (-weight(i), i))
    chosen = ranked[:top]
    rest = set(range(count)) - set(chosen)
    return Kept(tuple(chosen), tuple(sorted(rest)))


def summed(values: Sequence[float], indices: Sequence[int]) -> float:
    """Left-to-right sum, as the chapters' scripts add weights."""
    total = 0.0
    for i in indices:
        total += values[i]
    return total
