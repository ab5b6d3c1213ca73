"""What every mermaid graph of the plugin shares: the diagram's size budget, the classes of its
boxes, how a box's text is broken into lines, and how many chains stand side by side.

Mermaid's own wrapping breaks a label wherever its box reaches ``flowchart.wrappingWidth``, inside
a Korean word or an id (``씌 / 우지``, ``L04 · / L05``). Each diagram therefore sets that width
beyond any line the plugin writes, and the plugin breaks every line itself: at spaces, after
``_``, or between the items of a list, never inside an item. Below both graph builders, so
neither imports the other."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from mkdocs_selfattn.render.escape import mermaid_label
from mkdocs_selfattn.render.figure_text import ALL_ITEMS, keep_top, summed
from mkdocs_selfattn.render.labels import format_value

NODE_WIDTH = 32
"""Widest token a node shows, in columns (a CJK character is two); longer ones end in "…"."""

TOP_LIMIT = 20
"""Most lines a weights node lists, whatever ``top:`` asks."""

MAX_SIDE = 3
"""Most boxes side by side in one row of a diagram (the book's rule for its figures)."""

BUDGET_EM = 28.0
"""Widest diagram, in ems of its 16 px text: 448 px (464 px with the diagram's margins). Under
Material's 688 px column at 1280 px the diagram shows at full size; in a phone's 343 px column
it shrinks to at least 343/464 of it, so its text stays above 11 px (16 × 343 / 464 = 11.8)."""

PAD_EM = 1.75
"""A box's padding and border, both sides together (``flowchart.padding`` of 8 px; measured in
Chromium, a box is about 28 px wider than its text)."""

GAP_EM = 1.5
"""Space between two boxes of a row (``flowchart.nodeSpacing`` of 24 px)."""

ITEM_SEP = " · "

FRONT_MATTER = (
    "---\n"
    "config:\n"
    "  flowchart:\n"
    "    wrappingWidth: 640\n"
    "    padding: 8\n"
    "    nodeSpacing: 24\n"
    "    rankSpacing: 32\n"
    "---"
)
"""Per-diagram settings (mermaid resets them after each diagram, so a page's other diagrams keep
the site's): no wrapping by mermaid, and the box padding and spacing the budget counts on."""

# Translucent fills and no text colour: Material's mermaid theme colours the labels for the light
# or dark palette, so a fixed light fill would leave pale text on a pale box in dark mode.
CLASSES = (
    "  classDef input fill:#64748b1f,stroke:#64748b\n"
    "  classDef target fill:#0891b21f,stroke:#0891b2\n"
    "  classDef weight fill:#2563eb1f,stroke:#2563eb\n"
    "  classDef result fill:#16a34a1f,stroke:#16a34a"
)

Part = str | tuple[str, ...]
"""A piece of a box's text, unescaped: words (broken at spaces and after ``_``) or a list of
items (joined by " · ", broken only between items)."""


def em(text: str) -> float:
    """The width of ``text`` in ems of a sans-serif font, generously estimated: a little wide is a
    narrower row, a little narrow would be a shrunken diagram."""
    total = 0.0
    for ch in text:
        if unicodedata.east_asian_width(ch) in "WF":
            total += 1.0
        elif ch.isdigit():
            total += 0.64
        elif ch in " .,:;·'|!il":
            total += 0.34
        elif ch.isupper():
            total += 0.74
        elif ch.isalpha():
            total += 0.62 if ch.isascii() else 0.7
        else:
            total += 0.66
    return total


def _pieces(text: str) -> list[str]:
    """``text`` cut after each space and each ``_``: the places a line may end."""
    out, start = [], 0
    for i, ch in enumerate(text):
        if ch in " _":
            out.append(text[start : i + 1])
            start = i + 1
    if start < len(text):
        out.append(text[start:])
    return out


def _fill(pieces: Sequence[str], room: float) -> list[str]:
    lines: list[str] = []
    line = ""
    for piece in pieces:
        if line and em((line + piece).rstrip()) > room:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines


def wrap_words(text: str, room: float) -> list[str]:
    """``text`` in lines of at most ``room`` ems, broken at spaces and after ``_`` only."""
    return _fill(_pieces(text), room) or [""]


def wrap_items(items: Sequence[str], room: float) -> list[str]:
    """Items joined by " · ", a line of at most ``room`` ems, broken only between two items."""
    lines: list[str] = []
    line = ""
    for item in items:
        joined = line + ITEM_SEP + item if line else item
        if line and em(joined) > room:
            lines.append(line)
            line = item
        else:
            line = joined
    if line:
        lines.append(line)
    return lines


def fit(parts: Sequence[Part], room: float) -> list[str]:
    """A box's lines, unescaped, each within ``room`` ems unless one word or item is wider."""
    lines: list[str] = []
    for part in parts:
        lines += wrap_items(part, room) if isinstance(part, tuple) else wrap_words(part, room)
    return lines


def room_for(side: int) -> float:
    """The text width of each box when ``side`` boxes stand in a row."""
    return (BUDGET_EM - (side - 1) * GAP_EM) / side - PAD_EM


def side_by_side(chains: Sequence[Sequence[Sequence[Part]]]) -> int:
    """How many chains (a column of boxes each) stand side by side: the most, up to
    :data:`MAX_SIDE`, whose every row of boxes, each fitted to its share of the budget, is
    within the budget (a box a little wider than its share may stand beside narrower ones)."""
    for side in range(min(MAX_SIDE, len(chains)), 1, -1):
        room = room_for(side)
        widths = [[box_em(box, room) for box in chain] for chain in chains]
        if all(
            sum(widths[n][rank] for n in row) + (len(row) - 1) * GAP_EM <= BUDGET_EM
            for row in balanced(len(chains), side)
            for rank in range(min(len(widths[n]) for n in row))
        ):
            return side
    return 1


def box_em(parts: Sequence[Part], room: float) -> float:
    """A box's width in ems, its text fitted to ``room``, padding included."""
    return max((em(line) for line in fit(parts, room)), default=0.0) + PAD_EM


def balanced(count: int, side: int, *, fuller_last: bool = False) -> list[range]:
    """``count`` chains in as few rows of at most ``side`` as possible, the rows as even as can
    be (five are 3 + 2, four are 2 + 2), so the last row is never a lone box if it need not be.
    ``fuller_last`` puts the larger rows last (three heads in rows of two: 1 + 2, so the two
    heads a separation compares stand together)."""
    if count <= 0:
        return []
    rows = -(-count // side)
    base, extra = divmod(count, rows)
    sizes = [base + (1 if r < extra else 0) for r in range(rows)]
    if fuller_last:
        sizes.reverse()
    out, start = [], 0
    for size in sizes:
        out.append(range(start, start + size))
        start += size
    return out


def others(words: Mapping[str, str], n: int) -> str:
    """The summary item of a long list, unescaped."""
    return words["others"].replace("{n}", str(n))


def described(
    page: Mapping[str, str], index: int, count: int, what: str, names: Sequence[str]
) -> str:
    """The accessible description of one diagram of ``count``: which part, and what it shows."""
    shown = f"{what}: {', '.join(names)}" if names else ""
    if count < 2:
        return shown
    part = page["acc_part"].replace("{i}", str(index + 1)).replace("{n}", str(count))
    return f"{part}; {shown}" if shown else part


def acc_text(text: str) -> str:
    """Text for an ``accTitle:``/``accDescr:`` line: one line, no markup."""
    out = []
    for ch in text:
        if ch in "\r\n\t\f\v\u2028\u2029":
            out.append(" ")
        elif ch == "<":
            out.append("‹")
        elif ch == ">":
            out.append("›")
        elif ch in "{}":
            out.append("(" if ch == "{" else ")")
        else:
            out.append(ch)
    return "".join(out).replace("%%", "% %").strip()


@dataclass
class Diagram:
    """One ``flowchart TD`` being written: its lines and the boxes of each class."""

    title: str = ""
    description: str = ""
    lines: list[str] = field(default_factory=list)
    classes: dict[str, list[str]] = field(
        default_factory=lambda: {"input": [], "target": [], "weight": [], "result": []}
    )

    def node(self, ident: str, kind: str, parts: Sequence[Part], room: float) -> str:
        """``ident["line<br/>line"]``, its lines fitted to ``room`` and escaped."""
        self.classes[kind].append(ident)
        return f"{ident}{label(*fit(parts, room))}"

    def source(self) -> str:
        out = [FRONT_MATTER, "flowchart TD"]
        if self.title:
            out.append(f"  accTitle: {acc_text(self.title)}")
        if self.description:
            out.append(f"  accDescr: {acc_text(self.description)}")
        out += [*self.lines, CLASSES]
        for kind, idents in self.classes.items():
            if idents:
                out.append(f"  class {','.join(idents)} {kind}")
        return "\n".join(out) + "\n"


def label(*lines: str) -> str:
    """A node's text: lines, escaped, one under the other."""
    return '["' + "<br/>".join(mermaid_label(line) for line in lines) + '"]'


def weight_items(
    name: Callable[[int], str],
    weights: Sequence[float],
    top: int,
    words: Mapping[str, str],
    number_format: str | None,
) -> list[Part]:
    """A reader's heaviest rows as a weights box lists them, one item each so a line never
    breaks inside an item; past :data:`ALL_ITEMS` rows, what the listed rows leave to all the
    others together. On a tie the earlier row comes first (the chapters' stable sort)."""
    picked = sorted(range(len(weights)), key=lambda i: (-weights[i], i))[: min(top, TOP_LIMIT)]
    out: list[Part] = [(f"{name(i)} {format_value(weights[i], number_format)}",) for i in picked]
    if len(weights) > ALL_ITEMS:
        listed = set(picked)
        rest = [i for i in range(len(weights)) if i not in listed]
        total = format_value(summed(weights, rest), number_format)
        out.append((f"{others(words, len(rest))} {total}",))
    return out


def member_items(
    count: int,
    name: Callable[[int], str],
    weight: Callable[[int], float],
    words: Mapping[str, str],
) -> tuple[str, ...]:
    """The rows an input box lists: all of a few, else the heaviest and "N others"."""
    kept = keep_top(count, weight)
    listed = [name(i) for i in kept.items]
    if kept.others:
        listed.append(others(words, len(kept.others)))
    return tuple(listed)


@dataclass(frozen=True)
class Chain:
    """One reader drawn as a column under the input: its box, its weights, its result."""

    reader: list[Part]
    weights: list[Part]
    result: list[Part]
    said: str
    """The reader's name as the page's accessible description says it."""


Inputs = Callable[["Diagram", bool, float], list[str]]
"""(diagram, first of the diagrams?, the input row's room) → the input boxes' lines; the last
box they draw is the one every chain hangs from."""


def chain_diagrams(
    chains: Sequence[Chain],
    *,
    inputs: Inputs,
    source: str,
    ids: tuple[str, str, str],
    title: str,
    page: Mapping[str, str],
    what: str,
) -> list[str]:
    """Readers as chains (reader → weights → result) under the input boxes, at most
    :data:`MAX_SIDE` side by side and as many diagrams as that takes: the figure every layout
    that reads rows with separate readers draws (a targets document, a group of questions)."""
    boxes = [[chain.reader, chain.weights, chain.result] for chain in chains]
    side = side_by_side(boxes)
    room, wide = room_for(side), room_for(1)
    rows = balanced(len(chains), side) or [range(0)]
    reader, weights, result = ids
    out = []
    for r, row in enumerate(rows):
        diagram = Diagram(title=title)
        shown = [chains[n].said for n in row]
        diagram.description = described(page, r, len(rows), what, shown)
        diagram.lines += inputs(diagram, r == 0, wide)
        for n in row:
            chain = chains[n]
            diagram.lines += [
                f"  {source} --> {diagram.node(f'{reader}{n}', 'target', chain.reader, room)}",
                f"  {reader}{n} --> {diagram.node(f'{weights}{n}', 'weight', chain.weights, room)}",
                f"  {weights}{n} --> {diagram.node(f'{result}{n}', 'result', chain.result, room)}",
            ]
        out.append(diagram.source())
    return out
