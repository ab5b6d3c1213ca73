"""CSV bytes → a validated, columnar table of candidate rows (the targets layout's table), and
what every layout's reading starts with: the header, and the refusal of a file that names none of
the columns an example reads.

The rows are read by :mod:`csv_front`, as for every layout: the stdlib reader for a small file,
pyarrow's for a big one, the same table either way. Whenever something is wrong,
:mod:`mkdocs_selfattn.core.csv_diagnose` reads the file again to name the first bad line; that
slow reader only ever runs on the error path.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence

import numpy as np

from mkdocs_selfattn.core.candidate_table import CandidateTable
from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_diagnose import BOM, diagnose, without_bom
from mkdocs_selfattn.core.csv_front import ReadPlan, read_parts
from mkdocs_selfattn.core.csv_hidden import refuse_hidden_names
from mkdocs_selfattn.core.hidden_text import describe, first_hidden
from mkdocs_selfattn.core.input_files import read_input
from mkdocs_selfattn.errors import DataError, did_you_mean_each, listing

BLANK = re.compile(rb"(?:\xef\xbb\xbf)?\s*")

__all__ = [
    "BLANK",
    "parse_table",
    "read_header",
    "read_table",
    "refuse_foreign",
    "table_plan",
]


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
    parts = read_parts(
        data,
        header,
        table_plan(cols, vector_columns, has_index),
        source,
        lambda: diagnose(without_bom(data), header, cols, vector_columns, has_index, source),
    )
    encoded = parts.encoded
    refuse_hidden_names(source, data, encoded)
    scores, vector_values = parts.blocks
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
        scores=scores[:, 0],
        vectors=vector_values,
        target_index=parts.integers.get(cols.target_index) if has_index else None,
        candidate_index=parts.integers.get(cols.candidate_index) if has_index else None,
        row_numbers=np.arange(parts.n_rows, dtype=np.int64),
        data=data,
    )


def table_plan(cols: ColumnMap, vector_columns: Sequence[str], has_index: bool) -> ReadPlan:
    """What the targets layout reads: its four text columns, encoded and never empty (candidates
    and roles first: they rarely come in runs, so their encoding takes longest), the score and
    the vector columns as two matrices, and the positions when the file has them."""
    text = tuple(dict.fromkeys([cols.candidate, cols.role, cols.document, cols.target]))
    return ReadPlan(
        keys=text,
        identity=text,
        blocks=((cols.score,), tuple(vector_columns)),
        integers=cols.index_columns if has_index else (),
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
        refuse_repeated(chosen, source, "vectors")
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


def refuse_repeated(names: Sequence[str], source: str, key: str) -> None:
    """A vector column listed twice would be two axes of one name: a page's vector shows both,
    but the example's JSON (a mapping by axis name) keeps one, so the published numbers and the
    page would disagree."""
    twice = [name for i, name in enumerate(names) if name in names[:i]]
    if twice:
        raise DataError(
            source, f"'{twice[0]}' is listed twice; list each vector column once", key=key
        )


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
