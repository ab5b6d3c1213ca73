"""A CSV file's first line: the column names every layout and every view of the file starts
from, read once and refused here when a name is empty, repeated or holds a hidden character.

numpy-free, so a view that shows a file's rows (:mod:`csv_rows`) reads the header as the
computation did without importing numpy.
"""

from __future__ import annotations

import csv
import io
import re

from mkdocs_selfattn.core.csv_diagnose import BOM
from mkdocs_selfattn.core.hidden_text import describe, first_hidden
from mkdocs_selfattn.errors import DataError

BLANK = re.compile(rb"(?:\xef\xbb\xbf)?\s*")
"""A file of nothing but a byte order mark and white space: empty."""


def read_header(data: bytes, source: str) -> list[str]:
    first = _first_record_text(data, source)
    try:
        header = next(csv.reader(io.StringIO(first)))
    except (csv.Error, StopIteration):
        raise DataError(source, "the header line is not valid CSV", line=1) from None
    names = [h.strip() for h in header]
    seen: dict[str, int] = {}
    for position, name in enumerate(names, start=1):
        if not name:
            raise DataError(
                source, f"header field {position} is empty; give every column a name", line=1
            )
        # Header names are the file's content, quoted only once they are known to be the
        # columns of a CSV (see _refuse_foreign): a duplicate is named by its positions.
        if name in seen:
            raise DataError(
                source,
                f"header fields {seen[name]} and {position} have the same name; rename one",
                line=1,
            )
        seen[name] = position
        at = first_hidden(name)
        if at is not None:
            raise DataError(source, _hidden_in_header(name[at], position, at), line=1)
    return names


def _hidden_in_header(char: str, position: int, at: int) -> str:
    if char == "\ufeff" and position == 1 and at == 0:
        return "the file starts with two byte order marks (U+FEFF); save it with one or none"
    return f"header field {position} holds {describe(char)}; delete it (retype the name)"


def _first_record_text(data: bytes, source: str) -> str:
    """The header's text (after a BOM); headers rarely hold quoted newlines, but allow them.

    Lines may end in LF, CRLF or a lone CR (old Mac files), as Arrow's reader allows all three.
    """
    start = len(BOM) if data.startswith(BOM) else 0
    end = _line_end(data, start)
    while data.count(b'"', start, end) % 2 == 1 and end < len(data):
        end = _line_end(data, end)
    chunk = data[start:end]
    try:
        return chunk.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(
            source,
            f"byte {exc.start + 1} of the header is not UTF-8; save the file as UTF-8",
            line=1,
        ) from None


def _line_end(data: bytes, start: int) -> int:
    """Offset just past the line ending that follows ``start`` (or the end of the data)."""
    lf = data.find(b"\n", start)
    cr = data.find(b"\r", start, len(data) if lf < 0 else lf)
    if cr >= 0 and (lf < 0 or cr < lf):
        return cr + 2 if data[cr + 1 : cr + 2] == b"\n" else cr + 1
    return len(data) if lf < 0 else lf + 1
