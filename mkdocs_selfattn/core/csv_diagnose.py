"""Exact, located CSV errors: the slow stdlib reader, run only once something is wrong.

pyarrow's own errors are terse and count rows rather than lines, so the file is read again with
the stdlib ``csv`` module, which knows physical line numbers, and the first problem is reported
with its line and column. It also turns a data row number back into its line for messages.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from mkdocs_selfattn.errors import DataError

if TYPE_CHECKING:
    from mkdocs_selfattn.core.column_map import ColumnMap

BOM = b"\xef\xbb\xbf"


def without_bom(data: bytes) -> bytes:
    return data[len(BOM) :] if data.startswith(BOM) else data


def _line_of_offset(data: bytes, offset: int) -> tuple[int, int]:
    """(line, byte in that line), both from 1, of ``offset``, counting lines as csv does."""
    before = data[:offset]
    line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
    line_start = max(before.rfind(b"\n"), before.rfind(b"\r")) + 1
    return line, offset - line_start + 1


def diagnose(
    data: bytes,
    header: list[str],
    cols: ColumnMap,
    vector_columns: Iterable[str],
    has_index: bool,
    source: str,
) -> DataError:
    """The first problem in the file as a located error (the slow, exact reader)."""
    integers = list(cols.index_columns) if has_index else []
    return diagnose_rows(
        data, header, cols.text_columns, [cols.score, *vector_columns], integers, source
    )


def diagnose_rows(
    data: bytes,
    header: list[str],
    text_columns: Iterable[str],
    numeric: Iterable[str],
    integers: Iterable[str],
    source: str,
) -> DataError:
    """:func:`diagnose` for any columns: ``text_columns`` must not be empty, ``numeric`` must hold
    finite numbers, ``integers`` whole numbers (each layout names its own)."""
    text_columns, numeric, integers = list(text_columns), list(numeric), list(integers)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _line_of_offset(data, exc.start)
        return DataError(
            source,
            f"byte {column} of this line is not UTF-8 (0x{data[exc.start]:02x}); "
            "save the file as UTF-8",
            line=line,
        )
    positions = {name: i for i, name in enumerate(header)}
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    previous_end = 0
    try:
        for record in reader:
            start = previous_end + 1
            previous_end = reader.line_num
            if start == 1 or not record:
                continue
            if len(record) != len(header):
                return DataError(
                    source,
                    f"this row has {len(record)} fields but the header has {len(header)}; "
                    "check for a missing or extra comma (quote values that contain commas)",
                    line=start,
                )
            for name in text_columns:
                if record[positions[name]] == "":
                    return DataError(
                        source, "the value is empty; every row needs it", line=start, column=name
                    )
            for name in numeric:
                problem = _float_problem(record[positions[name]])
                if problem:
                    return DataError(source, problem, line=start, column=name)
            for name in integers:
                problem = _int_problem(record[positions[name]])
                if problem:
                    return DataError(source, problem, line=start, column=name)
    except csv.Error as exc:
        return DataError(
            source, f"malformed CSV ({exc}); check the quotes on this line", line=reader.line_num
        )
    return DataError(source, "the file could not be parsed as CSV; check its quoting and commas")


# What Arrow's converters accept, no more: Python's float() and int() also take "1_000", "+3",
# full-width digits and Unicode spaces, which Arrow refuses. Were the diagnosis that lenient, a
# value Arrow rejected would pass here and the user would get an error with no line number.
_ARROW_BLANKS = " \t"
_FLOAT = re.compile(
    r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)",
    re.IGNORECASE,
)
_INT = re.compile(r"-?[0-9]+")


def _float_problem(raw: str) -> str | None:
    value = raw.strip(_ARROW_BLANKS)
    if value == "":
        return "the value is empty; write a number"
    if not _FLOAT.fullmatch(value):
        return f"{value!r} is not a number; write a decimal number such as 1.25"
    if not math.isfinite(float(value)):
        return f"{value!r} is not a finite number; write a real value"
    return None


def _int_problem(raw: str) -> str | None:
    value = raw.strip(_ARROW_BLANKS)
    if value == "":
        return "the value is empty; write a token position such as 3"
    if not _INT.fullmatch(value):
        return f"{value!r} is not a whole number; write a token position such as 3"
    # Compare lengths before int(): Python refuses to convert more than 4,300 digits.
    if len(value.lstrip("+-")) > 19 or not -(2**63) <= int(value) < 2**63:
        shown = repr(value) if len(value) <= 24 else f"{value[:24]!r}…"
        return f"{shown} is too large for a token position"
    return None


def row_line(data: bytes, row_number: int) -> int:
    """Physical line where data row ``row_number`` (0-based) starts, honouring quoted newlines."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if b'"' not in data:
        return _count_nonblank_lines(data, row_number)
    reader = csv.reader(io.StringIO(data.decode("utf-8", "replace"), newline=""))
    previous_end = 0
    seen = -1
    for record in reader:
        start = previous_end + 1
        previous_end = reader.line_num
        if not record:
            continue
        if seen == row_number:
            return start
        seen += 1
    return previous_end


def _count_nonblank_lines(data: bytes, row_number: int) -> int:
    # splitlines() breaks at LF, CRLF and a lone CR, the three endings Arrow and csv accept.
    lines = data.splitlines()
    seen = -1
    for line_number, line in enumerate(lines, start=1):
        if not line:
            continue
        if seen == row_number:
            return line_number
        seen += 1
    return len(lines) + 1
