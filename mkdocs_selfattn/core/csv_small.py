"""Small CSV files read by the stdlib ``csv`` module, so that a course never imports pyarrow.

numpy is imported only where cells become arrays, so a view that shows a file's rows as written
(:mod:`csv_rows`) reads them with this same reader and imports neither.

A course's files are a few kilobytes. For those, importing pyarrow (≈ 50 ms of CPU and ≈ 36 MB
of memory in the worker) costs a hundred times more than this whole parse; Arrow's
multi-threaded reader pays off only on big files (see :data:`csv_size.SMALL_BYTES`).

The two readers must give the same table or the same message, so this reader is strict: it takes
only files whose every byte it is sure both treat alike, and answers ``None`` for anything else
(the caller then reads the whole file with Arrow, whose path also names every error):

- valid UTF-8 without NUL; lines end in LF or CRLF (a lone CR is Arrow's and the stdlib's to
  disagree about), blank lines anywhere are skipped (as Arrow skips them);
- a field is either unquoted with no ``"`` at all, or entirely quoted with ``""`` for a quote
  and no line break inside (so one line is one record); no spaces around a quoted field;
- every record has exactly as many fields as the header, and there is at least one data row;
- a number matches ``[+-]?(digits[.digits?] | .digits)([eE][+-]?digits)?`` in ASCII: no
  spaces or tabs around it, no ``inf``/``nan``, no ``_``, no other digits; its value must be
  finite. Arrow's parser and Python's ``float`` both round such a decimal correctly, so the
  floats are bit-identical (the property tests compare them bit for bit). An integer (the index
  columns) is ``-?`` and at most 18 ASCII digits, which fits int64 in both.

A number cell outside that grammar may still be one Arrow accepts (`` 1.5``, ``inf``) or may be
the author's mistake: either way Arrow decides, as it did before this reader existed.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from mkdocs_selfattn.core.csv_diagnose import without_bom

if TYPE_CHECKING:
    from mkdocs_selfattn.core.arrays import CodeArray, FloatArray, IntArray

_FIELD = rb'(?>"(?:[^"\r\n\x00]|"")*+"|[^",\r\n\x00]*+)'
_RECORD = _FIELD + rb"(?:," + _FIELD + rb")*+"
_FILE = re.compile(rb"(?:" + _RECORD + rb"\r?\n)*+(?:" + _RECORD + rb")?")
"""The whole file in the grammar above; possessive, so a file that fails fails in linear time."""

_NUMBER = rb"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_NUMBERS = re.compile(r"(?:" + _NUMBER.decode() + r"\n)*")
_INTEGERS = re.compile(r"(?:-?[0-9]{1,18}\n)*")


def read_columns(data: bytes, width: int) -> list[list[str]] | None:
    """Every data row's cells, by column (``width`` of them), or None if Arrow must read it."""
    reader = _records(data)
    if reader is None:
        return None
    try:
        first = next(reader)
        rows = [row for row in reader if row]
    except csv.Error:  # not expected after the grammar check; Arrow knows then
        return None
    if len(first) != width or not rows or any(len(row) != width for row in rows):
        return None
    return [list(column) for column in zip(*rows, strict=True)]


def data_rows(data: bytes) -> Iterator[list[str]] | None:
    """The data rows one at a time, as :func:`read_columns` reads them, or None if Arrow must
    read the file: a view that shows a file's first rows stops reading there. No row is checked
    against the header's width (the computation has read the file already)."""
    reader = _records(data)
    if reader is None:
        return None
    next(reader, None)
    return (row for row in reader if row)


def _records(data: bytes) -> Iterator[list[str]] | None:
    """The stdlib reader over the whole file, header first, when the grammar above holds."""
    body = without_bom(data)
    if _FILE.fullmatch(body) is None:
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return csv.reader(io.StringIO(text, newline=""), strict=True)


def floats(cells: Sequence[str]) -> FloatArray | None:
    """The cells as finite float64, or None unless every cell is a plain decimal."""
    import numpy as np

    if _NUMBERS.fullmatch("\n".join(cells) + "\n") is None:
        return None
    out = np.fromiter(map(float, cells), dtype=np.float64, count=len(cells))
    if not np.isfinite(out).all():
        return None
    return out


def integers(cells: Sequence[str]) -> IntArray | None:
    """The cells as int64, or None unless every cell is a plain integer."""
    import numpy as np

    if _INTEGERS.fullmatch("\n".join(cells) + "\n") is None:
        return None
    return np.fromiter(map(int, cells), dtype=np.int64, count=len(cells))


def encode(cells: Sequence[str]) -> tuple[tuple[str, ...], CodeArray]:
    """First-appearance dictionary codes, as :func:`csv_encode.encode` gives for Arrow."""
    import numpy as np

    index: dict[str, int] = {}
    codes = np.fromiter(
        (index.setdefault(cell, len(index)) for cell in cells), dtype=np.int32, count=len(cells)
    )
    return tuple(index), codes
