"""Where each CSV field lies in the file's text, so an edited file differs only in edited cells.

The try view's download rewrites score cells in the original text instead of writing the table
anew: quoting, line endings, column order and every other row stay byte for byte as the author
saved them. That only works if records and fields are cut exactly where the build's readers cut
them, so the grammar below is the one both readers share (Python's ``csv`` module, non-strict,
and Arrow's reader, which agree on every file the build accepts): a quote opens a quoted field
only as the field's first character; inside, ``""`` is a quote and line breaks are text; after
the closing quote the rest of the field is plain text; elsewhere a ``"`` is an ordinary
character (``12" valve``). Records end in LF, CRLF or a lone CR; empty lines are skipped, as
Arrow skips them, so record k is data row k - 1 of the core (record 0 is the header).

Offsets handed to the browser are in UTF-16 code units, the unit of JavaScript string indices.
Records are found with one regular expression over the file, and fields are split only in the
records the view needs, so the work grows with the file's lines, not with lines × cells.
"""

from __future__ import annotations

import re
from bisect import bisect_left

Span = tuple[int, int]

_FIELD = r'(?:"(?:[^"]|"")*+(?:"[^,\r\n]*+)?|[^,\r\n]*+)'
_FIELDS = re.compile(_FIELD)
_RECORDS = re.compile(r"(" + _FIELD + r"(?:," + _FIELD + r")*+)(?:\r\n|\r|\n)?")
_QUOTED = re.compile(r'"((?:[^"]|"")*+)(?:"(.*))?', re.DOTALL)
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class CsvText:
    """A CSV file's text, cut into records once; each record's fields on demand."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.records: list[Span] = [
            match.span(1) for match in _RECORDS.finditer(text) if match.end(1) > match.start(1)
        ]
        """Each non-empty record's [start, end) in code points (its line break excluded)."""
        # Characters beyond the BMP take two UTF-16 units: their places convert offsets.
        self._astral = [] if text.isascii() else [m.start() for m in _ASTRAL.finditer(text)]

    def fields(self, record: int) -> list[Span]:
        """The record's fields as [start, end) code-point offsets, quotes included."""
        start, end = self.records[record]
        out: list[Span] = []
        at = start
        while True:
            match = _FIELDS.match(self.text, at, end)
            assert match is not None  # the pattern matches the empty string
            out.append((at, match.end()))
            at = match.end()
            if at >= end:
                return out
            at += 1  # the comma

    def utf16(self, offset: int) -> int:
        """A code-point offset as a UTF-16 (JavaScript) offset."""
        return offset + bisect_left(self._astral, offset) if self._astral else offset


def unquote(raw: str) -> str:
    """A field's value from its text: a leading quoted part undone, the rest as written."""
    if not raw.startswith('"'):
        return raw
    match = _QUOTED.fullmatch(raw)
    assert match is not None  # every text that starts with a quote matches
    return match.group(1).replace('""', '"') + (match.group(2) or "")


def field_spans(text: str) -> list[list[Span]]:
    """Each non-empty record's fields as UTF-16 [start, end) offsets (quotes included)."""
    cut = CsvText(text)
    return [
        [(cut.utf16(a), cut.utf16(b)) for a, b in cut.fields(k)] for k in range(len(cut.records))
    ]


def utf16_slice(text: str, span: Span) -> str:
    """The text of ``span`` (UTF-16 offsets) of ``text``: how tests and checks read a cell back."""
    data = text.encode("utf-16-le")
    return data[2 * span[0] : 2 * span[1]].decode("utf-16-le")
