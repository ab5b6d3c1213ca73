"""CSV bytes → a validated, columnar table of candidate rows.

A small file (a course's) is read by the stdlib reader of :mod:`csv_small`, which never imports
pyarrow; a big one, or any file that reader is not sure of, by pyarrow's multi-threaded reader
(:mod:`csv_arrow`; on a million rows the stdlib reader is the bottleneck). Both give the same
table. Whenever something is wrong, :mod:`mkdocs_selfattn.core.csv_diagnose` reads the file again
to name the first bad line; that slow reader only ever runs on the error path.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import NamedTuple

import numpy as np

from mkdocs_selfattn.core import csv_size, csv_small
from mkdocs_selfattn.core.arrow_extra import arrow_missing, needs_arrow
from mkdocs_selfattn.core.candidate_table import (
    PARALLEL_ROWS,
    CandidateTable,
    CodeArray,
    FloatArray,
    IntArray,
    run_now,
)
from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_arrow import arrow_read, copy_floats, int_column, parse_with_arrow
from mkdocs_selfattn.core.csv_diagnose import BOM, diagnose, without_bom
from mkdocs_selfattn.core.csv_encode import encode
from mkdocs_selfattn.core.csv_hidden import refuse_hidden_names
from mkdocs_selfattn.core.hidden_text import describe, first_hidden
from mkdocs_selfattn.core.input_files import read_input
from mkdocs_selfattn.errors import DataError, did_you_mean_each, listing

BLANK = re.compile(rb"(?:\xef\xbb\xbf)?\s*")

__all__ = [
    "BLANK",
    "all_finite",
    "arrow_read",
    "parse_table",
    "read_header",
    "read_table",
    "refuse_foreign",
]
"""``arrow_read`` is re-exported for the benchmarks, which read files the way this module does."""


def read_table(
    path: str,
    *,
    columns: ColumnMap | None = None,
    vectors: Sequence[str] | None = None,
    display_path: str | None = None,
) -> CandidateTable:
    """Read and validate a CSV file; ``display_path`` is how messages name it."""
    name = display_path or path
    try:
        data = read_input(path)
    except FileNotFoundError:
        raise DataError(name, "file not found; check the path") from None
    except IsADirectoryError:
        raise DataError(name, "is a folder, not a CSV file") from None
    except OSError as exc:
        raise DataError(name, f"cannot be read ({exc.strerror or exc})") from None
    return parse_table(data, source=name, columns=columns, vectors=vectors)


def parse_table(
    data: bytes,
    *,
    source: str,
    columns: ColumnMap | None = None,
    vectors: Sequence[str] | None = None,
) -> CandidateTable:
    """Validate CSV bytes into a :class:`CandidateTable` or raise one precise :class:`DataError`."""
    cols = columns or ColumnMap()
    # No copies of the data on the good path: a 60 MB file copied once more costs as much as
    # the whole numeric core (bytes.strip() and slicing off a BOM both copy). Arrow skips the
    # header row, BOM included; only the error path strips the BOM, for the stdlib reader.
    if BLANK.fullmatch(data):
        raise DataError(source, "the file is empty; it needs a header line and data rows", line=1)
    header = read_header(data, source)
    vector_columns = _vector_columns(header, cols, vectors, source)
    has_index = _index_columns_present(header, cols, source)

    if csv_size.fits(data):
        small = _read_small(data, header, cols, vector_columns, has_index)
        if small is not None:
            return _validated(small, source, cols, vector_columns, data, header, has_index)
    if arrow_missing():
        body = without_bom(data)
        raise needs_arrow(
            data, source, partial(diagnose, body, header, cols, vector_columns, has_index, source)
        )
    arrow = parse_with_arrow(data, header, cols, vector_columns, has_index, source)
    n_rows = arrow.num_rows
    if n_rows == 0:
        raise DataError(source, "the file has a header but no data rows", line=2)

    # On a large file the text columns are hashed on worker threads (Arrow releases the GIL)
    # while this thread copies the numbers: after parsing, encoding is the largest cost left.
    # A small file is done faster than threads start.
    # Candidates and roles first: they rarely come in runs, so they take longest (see _encode).
    text_names = list(dict.fromkeys([cols.candidate, cols.role, cols.document, cols.target]))
    with ThreadPoolExecutor(max_workers=min(len(text_names), os.cpu_count() or 1)) as pool:
        submit = pool.submit if n_rows >= PARALLEL_ROWS else run_now
        pending = {name: submit(encode, arrow.column(name)) for name in text_names}
        scores = np.empty(n_rows, dtype=np.float64)
        vector_values = np.empty((n_rows, len(vector_columns)), dtype=np.float64)
        numbers_ok = copy_floats(arrow.column(cols.score), scores)
        for j, name in enumerate(vector_columns):
            numbers_ok = copy_floats(arrow.column(name), vector_values[:, j]) and numbers_ok
        numbers_ok = numbers_ok and all_finite(scores) and all_finite(vector_values)
        encoded = {name: future.result() for name, future in pending.items()}
    if not numbers_ok:
        raise diagnose(without_bom(data), header, cols, vector_columns, has_index, source)
    target_index = candidate_index = None
    if has_index:
        target_index = int_column(arrow, cols.target_index)
        candidate_index = int_column(arrow, cols.candidate_index)
    parsed = _Parsed(encoded, scores, vector_values, target_index, candidate_index)
    return _validated(parsed, source, cols, vector_columns, data, header, has_index)


class _Parsed(NamedTuple):
    """What either reader gives: encoded text columns, numbers (finite), index columns (None if
    a cell was not an integer)."""

    encoded: dict[str, tuple[tuple[str, ...], CodeArray]]
    scores: FloatArray
    vectors: FloatArray
    target_index: IntArray | None
    candidate_index: IntArray | None


def _read_small(
    data: bytes, header: list[str], cols: ColumnMap, vectors: tuple[str, ...], has_index: bool
) -> _Parsed | None:
    """The stdlib reader's :class:`_Parsed`, or None when Arrow must read the file (see
    :mod:`csv_small`): the same arrays, codes and values as Arrow's path gives."""
    cells = csv_small.read_columns(data, len(header))
    if cells is None:
        return None
    column = dict(zip(header, cells, strict=True))
    scores = csv_small.floats(column[cols.score])
    if scores is None:
        return None
    vector_values = np.empty((len(scores), len(vectors)), dtype=np.float64)
    for j, name in enumerate(vectors):
        values = csv_small.floats(column[name])
        if values is None:
            return None
        vector_values[:, j] = values
    target_index = candidate_index = None
    if has_index:
        target_index = csv_small.integers(column[cols.target_index])
        candidate_index = csv_small.integers(column[cols.candidate_index])
        if target_index is None or candidate_index is None:
            return None
    text_names = dict.fromkeys([cols.candidate, cols.role, cols.document, cols.target])
    encoded = {name: csv_small.encode(column[name]) for name in text_names}
    return _Parsed(encoded, scores, vector_values, target_index, candidate_index)


def _validated(
    parsed: _Parsed,
    source: str,
    cols: ColumnMap,
    vector_columns: tuple[str, ...],
    data: bytes,
    header: list[str],
    has_index: bool,
) -> CandidateTable:
    encoded = parsed.encoded
    if any("" in values for values, _ in encoded.values()) or (
        has_index and (parsed.target_index is None or parsed.candidate_index is None)
    ):
        raise diagnose(without_bom(data), header, cols, vector_columns, has_index, source)
    refuse_hidden_names(source, data, encoded)
    return CandidateTable(
        source=source,
        columns=cols,
        vector_columns=vector_columns,
        documents=encoded[cols.document][0],
        document_codes=encoded[cols.document][1],
        targets=encoded[cols.target][0],
        target_codes=encoded[cols.target][1],
        candidates=encoded[cols.candidate][0],
        candidate_codes=encoded[cols.candidate][1],
        roles=encoded[cols.role][0],
        role_codes=encoded[cols.role][1],
        scores=parsed.scores,
        vectors=parsed.vectors,
        target_index=parsed.target_index,
        candidate_index=parsed.candidate_index,
        row_numbers=np.arange(len(parsed.scores), dtype=np.int64),
        data=data,
    )


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


_read_header = read_header
_parse_with_arrow = parse_with_arrow
"""The names ``bench/bench_core.py`` reads the file by (its parse-only measurement calls the
reader's own functions, so the two can never drift apart)."""


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


def _vector_columns(
    header: list[str], cols: ColumnMap, vectors: Sequence[str] | None, source: str
) -> tuple[str, ...]:
    required = [*cols.text_columns, cols.score]
    missing = [c for c in required if c not in header]
    if missing:
        refuse_foreign(header, [*required, *(vectors or ())], source)
        raise DataError(
            source,
            f"missing column(s) {', '.join(repr(m) for m in missing)}"
            f"{did_you_mean_each(missing, header)}; the header has "
            f"{listing(header)} (map other names with the 'columns' option)",
            line=1,
        )
    if vectors is not None:
        chosen = tuple(vectors)
        unknown = [v for v in chosen if v not in header]
        if unknown:
            raise DataError(
                source,
                f"vector column(s) {', '.join(repr(u) for u in unknown)} not in the header"
                f"{did_you_mean_each(unknown, header)}; the header has {listing(header)}",
                line=1,
                key="vectors",
            )
        if not chosen:
            raise DataError(
                source, "the list of vector columns is empty; name at least one", key="vectors"
            )
        textual = [v for v in chosen if v in cols.text_columns]
        if textual:
            raise DataError(
                source,
                f"vector column(s) {', '.join(repr(t) for t in textual)} hold the document, "
                "target, candidate or role text; list numeric columns only",
                line=1,
                key="vectors",
            )
        return chosen
    reserved = {*required, *cols.index_columns}
    chosen = tuple(h for h in header if h not in reserved)
    if not chosen:
        raise DataError(
            source,
            "no vector columns: every column besides "
            f"{', '.join(required)} is a vector dimension, and there is none",
            line=1,
        )
    return chosen


def refuse_foreign(header: Sequence[str], expected: Sequence[str], source: str) -> None:
    """Refuse, without quoting it, a file whose first line names none of the ``expected``
    columns: it may not be a CSV at all (``csv: /../.env``), and a message must never publish a
    file's content. Once a header names a column the example reads, the file is that CSV, and
    messages may quote its header and cells."""
    if not any(name in header for name in expected):
        raise DataError(
            source,
            f"the first line names none of the columns this example reads "
            f"({listing(list(dict.fromkeys(expected)))}): is this the CSV file you meant? "
            "(its content is not shown: it may not be a CSV file)",
            line=1,
            key="csv",
        )


def _index_columns_present(header: list[str], cols: ColumnMap, source: str) -> bool:
    present = [c in header for c in cols.index_columns]
    if any(present) and not all(present):
        have, lack = (
            (cols.target_index, cols.candidate_index)
            if present[0]
            else (cols.candidate_index, cols.target_index)
        )
        raise DataError(
            source,
            f"column '{have}' needs its partner column '{lack}'; add it or drop both",
            line=1,
        )
    return all(present)


def all_finite(values: FloatArray) -> bool:
    # The sum is finite exactly when no value is inf or nan, unless finite values overflow it;
    # only then is the exact element-wise test (a full boolean array) needed.
    with np.errstate(all="ignore"):
        total = values.sum()
    return bool(np.isfinite(total) or np.isfinite(values).all())
