"""The rows a page shows as written (core/csv_rows.py) are the rows the computation read: the
same header, the same reader (stdlib or Arrow) and the same cells, checked against Python's own
``csv`` module, on both readers' paths; and a small file's rows import neither numpy nor
pyarrow."""

from __future__ import annotations

import csv
import io
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.core import csv_small
from mkdocs_selfattn.core.csv_rows import rows_where

HEADER = ["document_id", " note ", "x"]
CELL = st.text(alphabet=st.sampled_from([*'ab 한,"\t;:é\u202e', "z"]), min_size=0, max_size=6)
DOC = st.sampled_from(["d1", "d2", "d 3"])


def _quote(cell: str) -> str:
    return '"' + cell.replace('"', '""') + '"' if set(cell) & set(',"') else cell


def _file(rows: list[tuple[str, str, str]], bom: bool, crlf: bool) -> bytes:
    end = "\r\n" if crlf else "\n"
    lines = [",".join(HEADER), *(",".join(map(_quote, row)) for row in rows)]
    return (("\ufeff" if bom else "") + end.join(lines) + end).encode("utf-8")


def _reference(data: bytes, document: str | None) -> tuple[list[str], list[tuple[str, ...]]]:
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""))
    header = [h.strip() for h in next(reader)]
    rows = [tuple(r) for r in reader if r and (document is None or r[0] == document)]
    return header, rows


def _both_paths(
    data: bytes, document: str | None, monkeypatch: pytest.MonkeyPatch
) -> tuple[tuple[list[str], list[tuple[str, ...]]], tuple[list[str], list[tuple[str, ...]]]]:
    column = None if document is None else "document_id"
    small = rows_where(data, "t.csv", column, document)
    first = (small.header, list(small.rows))
    with monkeypatch.context() as patched:
        patched.setattr(csv_small, "data_rows", lambda data: None)
        arrow = rows_where(data, "t.csv", column, document)
        second = (arrow.header, list(arrow.rows))
    return first, second


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(st.tuples(DOC, CELL, CELL), min_size=1, max_size=12),
    bom=st.booleans(),
    crlf=st.booleans(),
    document=st.one_of(st.none(), DOC),
)
def test_both_readers_give_the_rows_pythons_csv_module_gives(
    rows: list[tuple[str, str, str]],
    bom: bool,
    crlf: bool,
    document: str | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = _file(rows, bom, crlf)
    expected = _reference(data, document)
    small, arrow = _both_paths(data, document, monkeypatch)
    assert small == expected
    assert arrow == expected


def test_a_file_the_stdlib_reader_does_not_take_is_read_by_arrow() -> None:
    # A quoted line break: the small reader's grammar refuses it, Arrow reads it.
    data = b'document_id,note,x\nd1,"two\nlines",1\nd2,b,2\nd1,c,3\n'
    assert csv_small.data_rows(data) is None
    found = rows_where(data, "t.csv", "document_id", "d1")
    assert found.header == ["document_id", "note", "x"]
    assert list(found.rows) == [("d1", "two\nlines", "1"), ("d1", "c", "3")]


def test_the_rows_come_one_at_a_time() -> None:
    """A view of the first rows does not turn a whole big document into tuples first."""
    data = ("document_id,x\n" + "d,1\n" * 1000).encode()
    rows = rows_where(data, "t.csv", "document_id", "d").rows
    assert next(rows) == ("d", "1")
    assert iter(rows) is rows


def test_a_small_files_rows_import_neither_numpy_nor_pyarrow() -> None:
    code = (
        "import sys\n"
        "from mkdocs_selfattn.core.csv_rows import rows_where\n"
        "rows = list(rows_where(b'document_id,x\\nd,1\\ne,2\\n', 't', 'document_id', 'd').rows)\n"
        "assert rows == [('d', '1')], rows\n"
        "print('numpy' in sys.modules, 'pyarrow' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_a_field_past_the_csv_modules_limit_is_read_as_the_computation_reads_it() -> None:
    """Python's ``csv`` refuses a field over ``csv.field_size_limit()`` (the computation then
    reads the file with Arrow): the rows go on from Arrow's reading, none lost or repeated."""
    huge = "x" * (csv.field_size_limit() + 10)
    text = f"document_id,note,x\nd1,a,1\nd2,{huge},2\nd1,b,3\nd2,c,4\n"
    data = text.encode()
    found = rows_where(data, "t.csv", "document_id", "d1")
    assert list(found.rows) == [("d1", "a", "1"), ("d1", "b", "3")]
    every = list(rows_where(data, "t.csv", None, None).rows)
    assert [row[0] for row in every] == ["d1", "d2", "d1", "d2"]
    assert every[1][1] == huge
