"""Invisible and direction-changing characters: which ones a name may not hold, and how free text
shows them.

A right-to-left override (U+202E) in a CSV token reverses what follows it on the page (the
printout showed ``783.0 = thgiew`` for 0.387), and a zero-width space or a byte order mark inside
the file makes ``trophy`` and ``trophy``+ZWSP two names that look the same (a document lost two
rows, and the page showed a wrong number). So:

- a name (a CSV header, a key cell: document, target, candidate, role, group, line; a block's
  YAML text) holding one is refused, with the code point, the place and what to fix;
- a free-text cell that is only displayed shows it as ``<U+202E>``.

Hidden are the control characters but tab, line feed and carriage return (``Cc``), the format
characters (``Cf``: direction marks, embeddings, overrides and isolates, zero-width space, word
joiner, byte order mark, soft hyphen…), the line and paragraph separators (``Zl``, ``Zp``), the
combining grapheme joiner and the Hangul fillers, which draw nothing. Emoji and scripts need a
few invisible characters between visible ones, so those are allowed there only: the zero-width
joiner and non-joiner between two visible non-ASCII characters, a variation selector after a
visible non-ASCII character or a keycap base (``0-9#*``), emoji tag characters after a black flag.
Two names of one column that differ only by those are refused too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

_ALWAYS = (
    (0x00, 0x08),
    (0x0B, 0x0C),
    (0x0E, 0x1F),
    (0x7F, 0x9F),
    (0xAD, 0xAD),
    (0x034F, 0x034F),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180E, 0x180E),
    (0x200B, 0x200B),
    (0x200E, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0x3164, 0x3164),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
)
"""Code points that are hidden wherever they stand (``tests/test_hidden_text.py`` checks that every
``Cc``, ``Cf``, ``Zl`` and ``Zp`` character of the running Python is here or among the joiners)."""

_JOINERS = ((0x200C, 0x200D),)
_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
_TAGS = ((0xE0020, 0xE007F),)
_BLACK_FLAG = "\U0001f3f4"
_KEYCAP_BASES = frozenset("0123456789#*")


def _python_class(ranges: Iterable[tuple[int, int]]) -> str:
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )


def _re2_class(ranges: Iterable[tuple[int, int]]) -> str:
    return "".join(f"\\x{{{a:x}}}" if a == b else f"\\x{{{a:x}}}-\\x{{{b:x}}}" for a, b in ranges)


_ALL = (*_ALWAYS, *_JOINERS, *_SELECTORS, *_TAGS)
ALWAYS = re.compile(f"[{_python_class(_ALWAYS)}]")
SUSPECT = re.compile(f"[{_python_class(_ALL)}]")
"""Any character that may be hidden: a text without one is clean (the fast test)."""
SUSPECT_RE2 = f"[{_re2_class(_ALL)}]"
"""The same class for Arrow's regular expressions (RE2 syntax)."""
_CONTEXTUAL = re.compile(f"[{_python_class((*_JOINERS, *_SELECTORS, *_TAGS))}]")


def _within(char: str, ranges: Iterable[tuple[int, int]]) -> bool:
    return any(a <= ord(char) <= b for a, b in ranges)


def _drawn(char: str) -> bool:
    """A visible non-ASCII character (what a joiner or selector may follow)."""
    return ord(char) > 0x7F and not char.isspace() and not _within(char, _ALL)


def _allowed_here(text: str, i: int) -> bool:
    """Whether the joiner, selector or tag at ``text[i]`` modifies a visible character."""
    char, before = text[i], text[i - 1] if i else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if _within(char, _JOINERS):
        previous_ok = bool(before) and (_drawn(before) or _within(before, _SELECTORS))
        return previous_ok and bool(after) and _drawn(after)
    if _within(char, _SELECTORS):
        return bool(before) and (_drawn(before) or before in _KEYCAP_BASES)
    return before == _BLACK_FLAG or (bool(before) and _within(before, _TAGS))


def hidden_at(text: str) -> list[int]:
    """Positions of the hidden characters of ``text`` (empty for almost every text, fast)."""
    if SUSPECT.search(text) is None:
        return []
    return [
        m.start()
        for m in SUSPECT.finditer(text)
        if ALWAYS.match(m.group()) or not _allowed_here(text, m.start())
    ]


def first_hidden(text: str) -> int | None:
    """Where the first hidden character of ``text`` is, or None."""
    found = hidden_at(text)
    return found[0] if found else None


def code_point(char: str) -> str:
    """``U+202E``."""
    return f"U+{ord(char):04X}"


def visible(text: str) -> str:
    """``text`` with each hidden character written as ``<U+202E>`` (most texts: unchanged)."""
    at = hidden_at(text)
    if not at:
        return text
    parts: list[str] = []
    start = 0
    for i in at:
        parts += [text[start:i], f"<{code_point(text[i])}>"]
        start = i + 1
    return "".join([*parts, text[start:]])


def spelled(text: str) -> str:
    """``text`` with every possibly hidden character written out, the allowed joiners too (to
    show how two names that look the same differ)."""
    return SUSPECT.sub(lambda m: f"<{code_point(m.group())}>", text)


def visible_all(texts: Sequence[str]) -> list[str]:
    """:func:`visible` on a column of cells: one search over the whole column when it is clean."""
    if SUSPECT.search("\n".join(texts)) is None:
        return list(texts)
    return [visible(t) for t in texts]


def what_is_wrong(text: str, index: int) -> str:
    """Why ``text[index]`` is refused, and what to do: the message's middle part, quoting the
    text with the character made visible (so the message itself cannot be reversed)."""
    cut = text if len(text) <= 80 else text[: max(index + 20, 60)] + "…"
    return f"{visible(cut)!r} holds {describe(text[index])}; delete it (retype the name)"


def describe(char: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE), which changes the direction…``."""
    name = unicodedata.name(char, "")
    label = f"{code_point(char)} ({name})" if name else code_point(char)
    if char == "\ufeff":
        effect = "a byte order mark inside the file, invisible on the page"
    elif char in _DIRECTION_MARKS or unicodedata.bidirectional(char) in _DIRECTION_CLASSES:
        effect = "which changes the direction of the text after it on the page"
    elif unicodedata.category(char) == "Cc":
        effect = "a control character"
    else:
        effect = "an invisible character: the page would show the name without it"
    return f"{label}, {effect}"


_DIRECTION_CLASSES = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
_DIRECTION_MARKS = frozenset({"\u200e", "\u200f", "\u061c"})
"""The embeddings, overrides and isolates, and the three marks (whose bidi classes are letters')."""


def skeleton(text: str) -> str:
    """``text`` without the joiners, selectors and tags allowed between visible characters: two
    names with one skeleton look the same on the page."""
    return _CONTEXTUAL.sub("", text)


def look_alike(values: Sequence[str]) -> tuple[int, int] | None:
    """Indices ``(first, second)`` of two values that look the same, or None."""
    if SUSPECT.search("\n".join(values)) is None:
        return None
    seen: dict[str, int] = {}
    for i, value in enumerate(values):
        key = skeleton(value)
        if key in seen:
            return seen[key], i
        seen[key] = i
    return None
