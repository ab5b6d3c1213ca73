"""Where each CSV field lies in the file's text, so an edited file differs only in edited cells.

The try view's download rewrites score cells in the original text instead of writing the table
anew: quoting, line endings, column order and every other row stay byte for byte as the author
saved them. Offsets are in UTF-16 code units, the unit of JavaScript string indices.
"""

from __future__ import annotations

Span = tuple[int, int]


def field_spans(text: str) -> list[list[Span]]:
    """Each non-empty record's fields as [start, end) offsets (quotes included), in file order.

    Empty lines are skipped, as the Arrow reader the core uses skips them, so record k is data
    row k - 1 of the core (record 0 is the header). Lines end in LF, CRLF or a lone CR.
    """
    records: list[list[Span]] = []
    fields: list[Span] = []
    start = unit = 0
    quoted = False
    line_empty = True
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        width = 2 if ord(ch) > 0xFFFF else 1
        if quoted:
            if ch == '"':
                if i + 1 < n and text[i + 1] == '"':
                    i, unit = i + 2, unit + 2
                    continue
                quoted = False
        elif ch == '"':
            quoted = True
            line_empty = False
        elif ch == ",":
            fields.append((start, unit))
            start = unit + 1
            line_empty = False
        elif ch in "\r\n":
            if not line_empty or fields:
                fields.append((start, unit))
                records.append(fields)
            fields = []
            step = 2 if ch == "\r" and i + 1 < n and text[i + 1] == "\n" else 1
            i, unit = i + step, unit + step
            start = unit
            line_empty = True
            continue
        else:
            line_empty = False
        i, unit = i + 1, unit + width
    if not line_empty or fields:
        fields.append((start, unit))
        records.append(fields)
    return records


def utf16_slice(text: str, span: Span) -> str:
    """The text of ``span`` (UTF-16 offsets) of ``text``: how tests and checks read a cell back."""
    data = text.encode("utf-16-le")
    return data[2 * span[0] : 2 * span[1]].decode("utf-16-le")
