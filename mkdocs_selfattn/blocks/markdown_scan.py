"""Where things are in a page's markdown: ``selfattn`` fences, code spans and code lines.

Only positions: fences (also inside blockquotes, behind ``>`` markers), single-backtick code
spans, and the lines of fenced and indented code, where no inline value may be. It reads no
files and parses no YAML, so the plugin, the extension, the commands and tests all share it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

FENCE_NAME = "selfattn"
INLINE_PREFIX = "{selfattn}"

# The indent may hold blockquote markers ("> ", "> > "), so blocks in blockquotes are found too.
_FENCE_OPEN = re.compile(
    r"^(?P<indent>[ \t]*(?:>[ \t]?)*[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*)$"
)
_BACKTICKS = re.compile(r"`+")


@dataclass(frozen=True)
class RawBlock:
    """A ``selfattn`` fence as found: page lines are 1-based, ``body`` is dedented."""

    start: int
    end: int
    indent: str
    """What precedes the fence on its line: spaces, and ``>`` markers inside a blockquote."""
    body: str

    @property
    def blank(self) -> str:
        """An empty line at the block's depth: ``>`` keeps a blockquote going, spaces do not
        matter."""
        return self.indent.rstrip()


def outer_fences(lines: list[str]) -> Iterator[tuple[int, int, re.Match[str]]]:
    """Outermost fenced code blocks as (opening line, closing line, opening match), 0-based;
    an unclosed fence runs to the end. Fences inside a fence are its text, never blocks."""
    i = 0
    while i < len(lines):
        match = _FENCE_OPEN.match(lines[i])
        if not match or (match["fence"][0] == "`" and "`" in match["info"]):
            i += 1
            continue
        close = _find_close(lines, i + 1, match["fence"], quoted=">" in match["indent"])
        yield i, close, match
        i = close + 1


def find_blocks(text: str) -> list[RawBlock]:
    """Every ``selfattn`` fence not nested inside another fence (so docs can show the syntax)."""
    lines = text.split("\n")
    blocks: list[RawBlock] = []
    for i, close, match in outer_fences(lines):
        info = match["info"].strip()
        name = info.split(None, 1)[0] if info else ""
        if name.lstrip("{.").rstrip("}") == FENCE_NAME:
            indent = match["indent"]
            body = "\n".join(fence_dedent(line, indent) for line in lines[i + 1 : close])
            blocks.append(RawBlock(i + 1, min(close, len(lines) - 1) + 1, indent, body))
    return blocks


def _find_close(lines: list[str], start: int, fence: str, *, quoted: bool = False) -> int:
    lead = "[ \t>]*" if quoted else "[ \t]*"
    pattern = re.compile(rf"^{lead}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
    for j in range(start, len(lines)):
        if pattern.match(lines[j]):
            return j
    return len(lines)


def fence_dedent(line: str, indent: str) -> str:
    """A line of a fence as its author wrote it, without the indent or quote markers that put
    the fence inside a list item or a blockquote (``migrate`` reads pasted printouts so too)."""
    if line.startswith(indent):
        return line[len(indent) :]
    depth = indent.count(">")
    if depth:
        # A quoted line written with other spacing (">" alone for an empty line, say).
        return re.sub(rf"^[ \t]*(?:>[ \t]?){{0,{depth}}}", "", line)
    return line.lstrip(" \t")


def fenced_line_numbers(text: str) -> set[int]:
    """0-based numbers of lines in code, fences included: no inline values there.

    Fenced code anywhere, and top-level indented code (four spaces after a paragraph break);
    indented lines under a list item, admonition or content tab are their content, not code.
    """
    lines = text.split("\n")
    inside: set[int] = set()
    for i, close, _ in outer_fences(lines):
        inside.update(range(i, min(close, len(lines) - 1) + 1))
    inside |= _indented_code(lines, inside)
    return inside


# List items, admonitions, details, content tabs, blockquotes and footnote definitions.
_CONTAINER = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|!!!|\?\?\?|===|>|\[\^[^\]]+\]:)")


def _indented_code(lines: list[str], fenced: set[int]) -> set[int]:
    code: set[int] = set()
    in_container = False
    previous_blank = True
    in_code = False
    for n, line in enumerate(lines):
        if n in fenced:
            previous_blank, in_code = False, False
            continue
        if not line.strip():
            previous_blank = True
            continue
        indented = line.startswith("    ") or line.startswith("\t")
        if not indented:
            in_container = bool(_CONTAINER.match(line))
            in_code = False
        elif in_code or (previous_blank and not in_container):
            in_code = True
            code.add(n)
        previous_blank = False
    return code


def inline_spans(text: str) -> Iterator[tuple[int, int, int, str]]:
    """(page line from 1, start, end, content) of every single-backtick code span starting with
    ``{selfattn}`` outside code; offsets are into ``text``.

    Spans are matched like CommonMark does (a run of n backticks closes at the next run of n), so
    ``` `` `{selfattn} …` `` ``` shows the syntax literally.
    """
    skip = fenced_line_numbers(text)
    offset = 0
    for number, line in enumerate(text.split("\n")):
        if number not in skip and INLINE_PREFIX in line:
            for start, end, content in _code_spans(line):
                if content.startswith(INLINE_PREFIX):
                    yield number + 1, offset + start, offset + end, content
        offset += len(line) + 1


def _code_spans(line: str) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    runs = list(_BACKTICKS.finditer(line))
    i = 0
    while i < len(runs):
        opener = runs[i]
        if opener.start() > 0 and line[opener.start() - 1] == "\\":
            i += 1
            continue
        for j in range(i + 1, len(runs)):
            if len(runs[j].group()) == len(opener.group()):
                if len(opener.group()) == 1:
                    spans.append(
                        (opener.start(), runs[j].end(), line[opener.end() : runs[j].start()])
                    )
                i = j
                break
        i += 1
    return spans
