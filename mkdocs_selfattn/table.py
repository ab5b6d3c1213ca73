"""CSV bytes → a validated, columnar table of candidate rows.

Parsing is done by pyarrow's multi-threaded CSV reader (the benchmark shows the stdlib reader is the
bottleneck). pyarrow's own errors are terse and count rows rather than lines, so whenever something
is wrong the file is read again with the stdlib ``csv`` module, which knows physical line numbers,
and the first problem is reported precisely. The slow reader only ever runs on the error path.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from mkdocs_selfattn.errors import DataError

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
CodeArray = npt.NDArray[np.int32]
"""Dictionary codes: int32 like Arrow's own indices, half the memory of int64 for a column that
has a code per row. Arithmetic on codes must widen to int64 first (see attention._group_keys)."""

_BOM = b"\xef\xbb\xbf"
_BLANK = re.compile(rb"(?:\xef\xbb\xbf)?\s*")
PARALLEL_ROWS = 100_000
"""From this many rows on, independent steps run on worker threads; below, threads cost more
than they save (numpy and Arrow release the GIL only for work worth the hand-over)."""

_T = TypeVar("_T")


def run_now(fn: Callable[..., _T], *args: Any) -> Future[_T]:
    """``pool.submit``'s signature, run in this thread: the small-table stand-in for a pool."""
    future: Future[_T] = Future()
    future.set_result(fn(*args))
    return future


@dataclass(frozen=True)
class ColumnMap:
    """Names of the CSV columns the core needs, so a course may call ``document_id`` ``memo``."""

    document: str = "document_id"
    target: str = "target_token"
    candidate: str = "candidate_token"
    role: str = "candidate_role"
    score: str = "score"
    target_index: str = "target_index"
    candidate_index: str = "candidate_index"

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, str], *, source: str) -> ColumnMap:
        """Build from user options, refusing keys the core does not know."""
        unknown = sorted(set(mapping) - set(cls.keys()))
        if unknown:
            raise DataError(
                source,
                f"unknown column role(s) {', '.join(unknown)} in the column mapping; "
                f"the roles are {', '.join(cls.keys())}",
                key="columns",
            )
        return replace(cls(), **{k: str(v) for k, v in mapping.items()})

    @property
    def text_columns(self) -> tuple[str, str, str, str]:
        return (self.document, self.target, self.candidate, self.role)

    @property
    def index_columns(self) -> tuple[str, str]:
        return (self.target_index, self.candidate_index)


@dataclass(frozen=True, eq=False)
class CandidateTable:
    """One CSV file, validated: every score and vector value finite, every required column present.

    Text columns are dictionary-encoded (``*_codes`` index into the tuple of distinct values in
    first-appearance order) so grouping a million rows stays a numpy operation.
    """

    source: str
    columns: ColumnMap
    vector_columns: tuple[str, ...]
    documents: tuple[str, ...]
    document_codes: CodeArray
    targets: tuple[str, ...]
    target_codes: CodeArray
    candidates: tuple[str, ...]
    candidate_codes: CodeArray
    roles: tuple[str, ...]
    role_codes: CodeArray
    scores: FloatArray
    vectors: FloatArray
    target_index: IntArray | None = None
    candidate_index: IntArray | None = None
    row_numbers: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Row position in the file (0 = first data row), kept through subsetting for messages."""
    data: bytes | None = None
    """The file's bytes (shared, not copied), to turn row numbers into lines for messages."""

    def line_of(self, row: int) -> int:
        """Physical line of the file where table row ``row`` (an index into this table) starts."""
        number = int(self.row_numbers[row])
        return row_line(self.data, number) if self.data is not None else number + 2

    @property
    def n_rows(self) -> int:
        return int(self.scores.shape[0])

    def subset(self, mask: npt.NDArray[np.bool_]) -> CandidateTable:
        """Rows where ``mask`` holds; category tuples are kept so codes stay valid."""
        return replace(
            self,
            document_codes=self.document_codes[mask],
            target_codes=self.target_codes[mask],
            candidate_codes=self.candidate_codes[mask],
            role_codes=self.role_codes[mask],
            scores=self.scores[mask],
            vectors=self.vectors[mask],
            target_index=None if self.target_index is None else self.target_index[mask],
            candidate_index=None if self.candidate_index is None else self.candidate_index[mask],
            row_numbers=self.row_numbers[mask],
        )


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
        with open(path, "rb") as handle:
            data = handle.read()
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
    if _BLANK.fullmatch(data):
        raise DataError(source, "the file is empty; it needs a header line and data rows", line=1)
    header = _read_header(data, source)
    vector_columns = _vector_columns(header, cols, vectors, source)
    has_index = _index_columns_present(header, cols, source)

    arrow = _parse_with_arrow(data, header, cols, vector_columns, has_index, source)
    n_rows = arrow.num_rows
    if n_rows == 0:
        raise DataError(source, "the file has a header but no data rows", line=2)

    def problem() -> DataError:
        return diagnose(_without_bom(data), header, cols, vector_columns, has_index, source)

    # On a large file the text columns are hashed on worker threads (Arrow releases the GIL)
    # while this thread copies the numbers: after parsing, encoding is the largest cost left.
    # A small file is done faster than threads start.
    # Candidates and roles first: they rarely come in runs, so they take longest (see _encode).
    text_names = list(dict.fromkeys([cols.candidate, cols.role, cols.document, cols.target]))
    with ThreadPoolExecutor(max_workers=min(len(text_names), os.cpu_count() or 1)) as pool:
        submit = pool.submit if n_rows >= PARALLEL_ROWS else run_now
        pending = {name: submit(_encode, arrow.column(name)) for name in text_names}
        scores = np.empty(n_rows, dtype=np.float64)
        vector_values = np.empty((n_rows, len(vector_columns)), dtype=np.float64)
        numbers_ok = _copy_floats(arrow.column(cols.score), scores)
        for j, name in enumerate(vector_columns):
            numbers_ok = _copy_floats(arrow.column(name), vector_values[:, j]) and numbers_ok
        numbers_ok = numbers_ok and _all_finite(scores) and _all_finite(vector_values)
        encoded = {name: future.result() for name, future in pending.items()}
    if not numbers_ok:
        raise problem()
    if any("" in values for values, _ in encoded.values()):
        raise problem()

    target_index = candidate_index = None
    if has_index:
        target_index = _int_column(arrow, cols.target_index)
        candidate_index = _int_column(arrow, cols.candidate_index)
        if target_index is None or candidate_index is None:
            raise problem()

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
        scores=scores,
        vectors=vector_values,
        target_index=target_index,
        candidate_index=candidate_index,
        row_numbers=np.arange(n_rows, dtype=np.int64),
        data=data,
    )


def _read_header(data: bytes, source: str) -> list[str]:
    first = _first_record_text(data, source)
    try:
        header = next(csv.reader(io.StringIO(first)))
    except (csv.Error, StopIteration):
        raise DataError(source, "the header line is not valid CSV", line=1) from None
    names = [h.strip() for h in header]
    seen: set[str] = set()
    for position, name in enumerate(names, start=1):
        if not name:
            raise DataError(
                source, f"header field {position} is empty; give every column a name", line=1
            )
        if name in seen:
            raise DataError(
                source, f"column '{name}' appears twice in the header; rename one", line=1
            )
        seen.add(name)
    return names


def _first_record_text(data: bytes, source: str) -> str:
    """The header's text (after a BOM); headers rarely hold quoted newlines, but allow them.

    Lines may end in LF, CRLF or a lone CR (old Mac files), as Arrow's reader allows all three.
    """
    start = len(_BOM) if data.startswith(_BOM) else 0
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


def _without_bom(data: bytes) -> bytes:
    return data[len(_BOM) :] if data.startswith(_BOM) else data


def _line_end(data: bytes, start: int) -> int:
    """Offset just past the line ending that follows ``start`` (or the end of the data)."""
    lf = data.find(b"\n", start)
    cr = data.find(b"\r", start, len(data) if lf < 0 else lf)
    if cr >= 0 and (lf < 0 or cr < lf):
        return cr + 2 if data[cr + 1 : cr + 2] == b"\n" else cr + 1
    return len(data) if lf < 0 else lf + 1


def _line_of_offset(data: bytes, offset: int) -> tuple[int, int]:
    """(line, byte in that line), both from 1, of ``offset``, counting lines as csv does."""
    before = data[:offset]
    line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
    line_start = max(before.rfind(b"\n"), before.rfind(b"\r")) + 1
    return line, offset - line_start + 1


def _vector_columns(
    header: list[str], cols: ColumnMap, vectors: Sequence[str] | None, source: str
) -> tuple[str, ...]:
    required = [*cols.text_columns, cols.score]
    missing = [c for c in required if c not in header]
    if missing:
        raise DataError(
            source,
            f"missing column(s) {', '.join(repr(m) for m in missing)}; the header has "
            f"{', '.join(header)} (map other names with the 'columns' option)",
            line=1,
        )
    if vectors is not None:
        chosen = tuple(vectors)
        unknown = [v for v in chosen if v not in header]
        if unknown:
            raise DataError(
                source,
                f"vector column(s) {', '.join(repr(u) for u in unknown)} not in the header"
                f"{_did_you_mean(unknown[0], header)}; the header has {', '.join(header)}",
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


def _did_you_mean(text: str, options: Sequence[str]) -> str:
    import difflib

    close = difflib.get_close_matches(text, list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


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


def _parse_with_arrow(
    data: bytes,
    header: list[str],
    cols: ColumnMap,
    vector_columns: tuple[str, ...],
    has_index: bool,
    source: str,
) -> Any:
    import pyarrow as pa
    import pyarrow.csv as pacsv

    types: dict[str, Any] = {name: pa.string() for name in cols.text_columns}
    types[cols.score] = pa.float64()
    for name in vector_columns:
        types[name] = pa.float64()
    if has_index:
        types[cols.target_index] = pa.int64()
        types[cols.candidate_index] = pa.int64()
    wanted = list(dict.fromkeys([*cols.text_columns, cols.score, *vector_columns]))
    if has_index:
        wanted += list(cols.index_columns)
    read = pacsv.ReadOptions(column_names=header, skip_rows=1, use_threads=True)
    parse = pacsv.ParseOptions(newlines_in_values=b'"' in data)
    convert = pacsv.ConvertOptions(
        column_types=types,
        include_columns=wanted,
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    try:
        return pacsv.read_csv(
            pa.py_buffer(data), read_options=read, parse_options=parse, convert_options=convert
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        _raise_diagnosis(_without_bom(data), header, cols, vector_columns, has_index, source)


def _copy_floats(column: Any, out: FloatArray) -> bool:
    """Copy a float column chunk by chunk into ``out``; False if a value is missing.

    Writing each chunk straight into its slice of the destination (which may be a strided column
    of the vector matrix) avoids concatenating the chunks first and copying a second time.
    """
    if column.null_count:
        return False
    start = 0
    for chunk in column.chunks:
        stop = start + len(chunk)
        out[start:stop] = chunk.to_numpy(zero_copy_only=False)
        start = stop
    return True


def _all_finite(values: FloatArray) -> bool:
    # The sum is finite exactly when no value is inf or nan, unless finite values overflow it;
    # only then is the exact element-wise test (a full boolean array) needed.
    with np.errstate(all="ignore"):
        total = values.sum()
    return bool(np.isfinite(total) or np.isfinite(values).all())


def _int_column(arrow: Any, name: str) -> IntArray | None:
    column = arrow.column(name)
    if column.null_count:
        return None
    return np.ascontiguousarray(column.to_numpy(), dtype=np.int64)


def _encode(column: Any) -> tuple[tuple[str, ...], CodeArray]:
    """Dictionary-encode; codes are numbered by first appearance, which the core relies on.

    Document and target columns come in long runs of one value (a course lists a document's rows
    together). For those, comparing neighbours and hashing only the first value of each run is
    two to three times cheaper than hashing every row; a value's first row always starts a run,
    so the numbering is the same. Whether a column is run-heavy is judged on its first rows.
    """
    n = len(column)
    sample = column.slice(0, min(n, _RUN_SAMPLE))
    if n > 1 and np.count_nonzero(_run_changes(sample)) * _RUN_RATIO <= len(sample):
        changed = _run_changes(column)
        values, head_codes = _hash_encode(_take_rows(column, np.flatnonzero(changed)))
        # Row i belongs to run cumsum(changed)[i] - 1; look its code up in place.
        codes = np.empty(n, dtype=np.int32)
        np.cumsum(changed, out=codes)
        codes -= 1
        np.take(head_codes, codes, out=codes, mode="wrap")  # "wrap": no bounds-check buffer
        return values, codes
    return _hash_encode(column)


_RUN_SAMPLE = 1 << 14
_RUN_RATIO = 8
"""Encode by runs when the sample's runs average at least this many rows."""


def _take_rows(column: Any, rows: IntArray) -> Any:
    """``column.take(rows)`` chunk by chunk (``rows`` ascending): Arrow's own take on a chunked
    column first concatenates every chunk, copying all the strings just to pick a few."""
    import pyarrow as pa

    pieces = []
    start = 0
    for chunk in column.chunks:
        stop = start + len(chunk)
        lo, hi = np.searchsorted(rows, [start, stop])
        if hi > lo:
            pieces.append(chunk.take(pa.array(rows[lo:hi] - start)))
        start = stop
    return pa.chunked_array(pieces, type=column.type)


def _run_changes(column: Any) -> npt.NDArray[np.bool_]:
    """True where a value differs from the one before it (and at 0)."""
    import pyarrow.compute as pc

    n = len(column)
    changed = np.empty(n, dtype=bool)
    changed[0] = True
    differs = pc.not_equal(column.slice(1), column.slice(0, n - 1))
    start = 1
    for chunk in getattr(differs, "chunks", [differs]):
        stop = start + len(chunk)
        changed[start:stop] = chunk.to_numpy(zero_copy_only=False)
        start = stop
    return changed


def _hash_encode(column: Any) -> tuple[tuple[str, ...], CodeArray]:
    """Arrow's hash encoding, on the chunked column directly: one hash table is shared across
    chunks (so every chunk carries the same, final dictionary), and a million strings are not
    concatenated first."""
    encoded = column.dictionary_encode()
    chunks = encoded.chunks
    codes = np.empty(len(column), dtype=np.int32)
    start = 0
    for chunk in chunks:
        stop = start + len(chunk)
        codes[start:stop] = chunk.indices.to_numpy(zero_copy_only=False)
        start = stop
    # Codes are consistent across chunks; the longest dictionary (in practice every chunk holds
    # the final one) has every value.
    dictionary = max((chunk.dictionary for chunk in chunks), key=len, default=None)
    values = () if dictionary is None else tuple(str(v) for v in dictionary.to_pylist())
    return values, codes


def _raise_diagnosis(
    data: bytes,
    header: list[str],
    cols: ColumnMap,
    vector_columns: tuple[str, ...],
    has_index: bool,
    source: str,
) -> Any:
    """Re-read with the stdlib reader to name the first bad line; always raises."""
    error = diagnose(data, header, cols, vector_columns, has_index, source)
    raise error


def diagnose(
    data: bytes,
    header: list[str],
    cols: ColumnMap,
    vector_columns: Iterable[str],
    has_index: bool,
    source: str,
) -> DataError:
    """The first problem in the file as a located error (the slow, exact reader)."""
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
    numeric = [cols.score, *vector_columns]
    integers = list(cols.index_columns) if has_index else []
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
            for name in cols.text_columns:
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
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
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
