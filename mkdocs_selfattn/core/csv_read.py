"""CSV bytes → a validated, columnar table of candidate rows (the targets layout's table), and
what every layout's reading checks after the header (:mod:`csv_header`): the refusal of a file
that names none of the columns an example reads, or lists a column twice.

The rows are read by :mod:`csv_front`, as for every layout: the stdlib reader for a small file,
pyarrow's for a big one, the same table either way. Whenever something is wrong,
:mod:`mkdocs_selfattn.core.csv_diagnose` reads the file again to name the first bad line; that
slow reader only ever runs on the error path.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_diagnose import diagnose, without_bom
from mkdocs_selfattn.core.csv_front import ReadPlan, read_parts
from mkdocs_selfattn.core.csv_header import BLANK, read_header
from mkdocs_selfattn.core.csv_hidden import refuse_hidden_names
from mkdocs_selfattn.core.input_files import read_input
from mkdocs_selfattn.core.table import Names, Table, TableColumns
from mkdocs_selfattn.errors import DataError, did_you_mean_each, first_repeated, listing

__all__ = [
    "parse_table",
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
) -> Table:
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
) -> Table:
    """Validate CSV bytes into a :class:`Table` or raise one precise :class:`DataError`."""
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
    names = Names(
        candidates=encoded[cols.candidate][0],
        candidate_codes=encoded[cols.candidate][1],
        roles=encoded[cols.role][0],
        role_codes=encoded[cols.role][1],
        candidate_index=parts.integers.get(cols.candidate_index) if has_index else None,
    )
    return Table(
        source=source,
        columns=target_columns(cols, vector_columns),
        documents=encoded[cols.document][0],
        document_codes=encoded[cols.document][1],
        groups=encoded[cols.target][0],
        group_codes=encoded[cols.target][1],
        values=scores,
        vectors=vector_values,
        data=data,
        row_numbers=np.arange(parts.n_rows, dtype=np.int64),
        header=tuple(header),
        group_index=parts.integers.get(cols.target_index) if has_index else None,
        names=names,
    )


def target_columns(cols: ColumnMap, vector_columns: Sequence[str]) -> TableColumns:
    """A targets file's roles as every layout's: its target column groups the rows, and its one
    reader is the score column, which each target's softmax reads."""
    return TableColumns(
        candidate=cols.candidate,
        role=cols.role,
        document=cols.document,
        group=cols.target,
        readers=((cols.score, cols.score),),
        axes=tuple((column, (column,)) for column in vector_columns),
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
    twice = first_repeated(names)
    if twice is not None:
        raise DataError(source, f"'{twice}' is listed twice; list each vector column once", key=key)


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
