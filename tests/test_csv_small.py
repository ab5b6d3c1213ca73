"""The stdlib reader for small files (csv_small) against Arrow's: the same table or the same error.

Each file is parsed twice, once with the size limit out of reach (the stdlib reader, which may
still hand the file to Arrow) and once with the limit at 0 (always Arrow). Tables are compared
field by field, arrays bit for bit (dtype, shape and bytes: -0.0 is not 0.0 here); errors by
message, line, column and key. A spy on Arrow's reader tells which path a file took.
"""

from __future__ import annotations

import dataclasses
import math
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mkdocs_selfattn import csv_arrow, csv_size, row_keys
from mkdocs_selfattn.column_map import ColumnMap
from mkdocs_selfattn.csv_read import parse_table
from mkdocs_selfattn.errors import DataError
from mkdocs_selfattn.reading_table import ReadingTable, parse_reading
from mkdocs_selfattn.table_cells import ArrowCells, ListCells

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TARGETS = ["document_id", "target_token", "candidate_token", "candidate_role", "score", "v1", "v2"]
INDEX = ["target_index", "candidate_index"]
QUESTIONS = ["line_id", "section", "text", "s1", "s2", "v1"]
HEADS = ["report_id", "scenario", "token", "relation_role", "x", "y", "z", "w1", "w2"]
NUMERIC = {"score", "v1", "v2", "s1", "s2", "x", "y", "z", "w1", "w2"}
INTEGER = set(INDEX)


def read(layout: str, data: bytes) -> Any:
    if layout in ("targets", "indexed"):
        return parse_table(data, source="t.csv", columns=ColumnMap())
    if layout == "questions":
        return parse_reading(
            data,
            source="q.csv",
            mapping={"candidate": "line_id", "role": "section"},
            readers={"hold": "s1", "flow": "s2"},
            reader_key="queries",
            vectors=["v1"],
        )
    return parse_reading(
        data,
        source="h.csv",
        mapping={
            "document": "report_id",
            "group": "scenario",
            "candidate": "token",
            "role": "relation_role",
        },
        readers={"head1": "w1", "head2": "w2"},
        reader_key="heads",
        axes={"a": ["x"], "b": ["y", "z"]},
        document=True,
        given=True,
    )


@contextmanager
def limit(value: int) -> Iterator[list[int]]:
    """The size limit set to ``value``; yields a list that counts Arrow's reads."""
    calls: list[int] = []
    saved, original = csv_size.SMALL_BYTES, csv_arrow.arrow_read

    def spy(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    csv_size.SMALL_BYTES, csv_arrow.arrow_read = value, spy
    try:
        yield calls
    finally:
        csv_size.SMALL_BYTES, csv_arrow.arrow_read = saved, original


def outcome(layout: str, data: bytes) -> tuple[str, Any]:
    try:
        return "table", read(layout, data)
    except DataError as error:
        return "error", (error.message, error.path, error.line, error.column, error.key)


def fields(table: Any) -> dict[str, Any]:
    """Every field in a comparable form: arrays as (dtype, shape, bytes), cells as rows."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(table):
        value = getattr(table, f.name)
        if isinstance(value, np.ndarray):
            value = (value.dtype.str, value.shape, value.tobytes())
        elif isinstance(value, ArrowCells | ListCells):
            value = (value.num_rows, table.row_cells())
        out[f.name] = value
    return out


def both(layout: str, data: bytes) -> tuple[bool, Any]:
    """(whether the stdlib reader kept the file, the common outcome); fails if they differ."""
    with limit(1 << 40) as calls:
        small = outcome(layout, data)
    with limit(0):
        arrow = outcome(layout, data)
    kept = not calls
    assert small[0] == arrow[0], (small, arrow)
    if small[0] == "error":
        assert small[1] == arrow[1]
    else:
        assert fields(small[1]) == fields(arrow[1])
        if isinstance(small[1], ReadingTable):
            assert isinstance(small[1].cells, ListCells if kept else ArrowCells)
            assert isinstance(arrow[1].cells, ArrowCells)
            for name in small[1].header:
                assert small[1].text(name) == arrow[1].text(name)
            rows = np.array([0, small[1].n_rows - 1], dtype=np.int64)
            assert fields(small[1].subset(np.isin(np.arange(small[1].n_rows), rows))) == fields(
                arrow[1].subset(np.isin(np.arange(arrow[1].n_rows), rows))
            )
    return kept, small[1]


def counted(kept: bool, result: Any) -> None:
    """For ``pytest --hypothesis-show-statistics``: how often each path and outcome came up."""
    event("stdlib" if kept else "arrow")
    event("error" if isinstance(result, tuple) else "table")


# ---------------------------------------------------------------------------------------------
# Generated files


def plain_numbers() -> st.SearchStrategy[str]:
    """Numbers in the grammar csv_small accepts, from short to longer than a double holds."""
    digits = st.text("0123456789", min_size=1, max_size=25)
    mantissa = st.one_of(
        digits,
        st.builds(lambda a, b: f"{a}.{b}", digits, st.text("0123456789", max_size=20)),
        st.builds(lambda b: f".{b}", digits),
    )
    exponent = st.one_of(
        st.just(""),
        st.builds(
            lambda e, s, n: f"{e}{s}{n}",
            st.sampled_from("eE"),
            st.sampled_from(["", "+", "-"]),
            st.integers(0, 330),
        ),
    )
    sign = st.sampled_from(["", "", "-", "+"])
    return st.one_of(
        st.builds(lambda s, m, e: s + m + e, sign, mantissa, exponent),
        st.floats(allow_nan=False, allow_infinity=False).map(repr),
        st.floats(min_value=-10, max_value=10).map(lambda v: f"{v:.3f}"),
    )


AWKWARD_NUMBERS = [
    " 1.5",
    "1.5 ",
    "\t2",
    "inf",
    "-inf",
    "nan",
    "NaN",
    "Infinity",
    "+1",
    "1.",
    ".5",
    "1e5",
    "1_0",
    "١",
    "１",
    "",
    "1e400",
    "-1e400",
    "1e-400",
    "-0",
    "007",
    "1.5e",
    "e5",
    "0x10",
    "1,5",
    "  ",
    "1d5",
    '"3"',
    "2 3",
]


def number_cells(awkward: bool) -> st.SearchStrategy[str]:
    plain = plain_numbers().filter(lambda text: math.isfinite(float(text)))
    if not awkward:
        return plain
    return rarely(plain, st.one_of(plain_numbers(), st.sampled_from(AWKWARD_NUMBERS)))


def rarely(usual: st.SearchStrategy[str], odd: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``odd`` one time in eight, so that most awkward files still make a table."""
    return st.integers(0, 7).flatmap(lambda pick: odd if pick == 0 else usual)


def text_cells(awkward: bool, pool: list[str]) -> st.SearchStrategy[str]:
    usual = st.one_of(st.sampled_from(pool), st.text("abcé그것 ,\"'", min_size=1, max_size=6))
    if not awkward:
        return usual
    odd = st.text('ab ,"\n\r\t\x00é그١', max_size=6)
    return rarely(usual, st.one_of(odd, st.sampled_from(["", " ", '"', "a\r\nb", "\ufeff"])))


def quoted(cell: str, force: bool) -> str:
    if force or any(c in cell for c in ',"\n\r'):
        return '"' + cell.replace('"', '""') + '"'
    return cell


@st.composite
def csv_files(draw: st.DrawFn, layout: str, awkward: bool) -> bytes:
    header = {"targets": TARGETS, "indexed": TARGETS + INDEX, "questions": QUESTIONS}.get(
        layout, HEADS
    )
    pool = draw(st.lists(st.text("abc그", min_size=1, max_size=3), min_size=1, max_size=3))
    rows = []
    for _ in range(draw(st.integers(1 if not awkward else 0, 7))):
        row = []
        for name in header:
            if name in INTEGER:
                plain_int = st.integers(-3, 20).map(str)
                odd_int = st.integers(-3, 10**19).map(str) | st.sampled_from(["+1", " 2", ""])
                cell = draw(rarely(plain_int, odd_int) if awkward else plain_int)
            elif name in NUMERIC:
                cell = draw(number_cells(awkward))
                if layout == "heads" and (not awkward or draw(st.integers(0, 3))):
                    cell = cell.lstrip("+-")  # a given weight must be >= 0
            else:
                cell = draw(text_cells(awkward, pool))
            row.append(cell)
        rows.append(row)
    newline = draw(st.sampled_from(["\n", "\r\n"] + (["\r", "mixed"] if awkward else [])))
    lines = [",".join(quoted(c, False) for c in header)]
    for row in rows:
        if awkward and draw(st.integers(0, 19)) == 0:
            row = row[:-1] if draw(st.booleans()) else [*row, "extra"]
        if awkward and draw(st.integers(0, 19)) == 0:
            lines.append(",".join(c if c != "" else " " for c in row))  # unquoted, as it comes
        else:
            lines.append(",".join(quoted(c, draw(st.integers(0, 5)) == 0) for c in row))
        if draw(st.integers(0, 9)) == 0:
            lines.append("")  # a blank line between rows
    ends = (
        [draw(st.sampled_from(["\n", "\r\n"])) for _ in lines]
        if newline == "mixed"
        else [newline] * len(lines)
    )
    text = "".join(line + end for line, end in zip(lines, ends, strict=True))
    if draw(st.booleans()):
        text = text[: -len(ends[-1])]  # no newline at the end
    text += draw(st.sampled_from(["", "", "\n", "\n\n", "\r\n\r\n"]))
    bom = b"\xef\xbb\xbf" if draw(st.integers(0, 3)) == 0 else b""
    return bom + text.encode("utf-8", "surrogatepass")


LAYOUTS = ["targets", "indexed", "questions", "heads"]


@pytest.mark.parametrize("layout", LAYOUTS)
@PROPERTY
@given(data=st.data())
def test_awkward_files_give_the_same_table_or_error_both_ways(
    layout: str, data: st.DataObject
) -> None:
    counted(*both(layout, data.draw(csv_files(layout, awkward=True))))


@pytest.mark.parametrize("layout", LAYOUTS)
@PROPERTY
@given(data=st.data())
def test_plain_files_are_read_by_the_stdlib_alone(layout: str, data: st.DataObject) -> None:
    kept, result = both(layout, data.draw(csv_files(layout, awkward=False)))
    counted(kept, result)
    assert kept


@settings(max_examples=2000, deadline=None)
@given(text=plain_numbers())
def test_floats_are_bit_identical_to_arrows(text: str) -> None:
    import pyarrow as pa
    import pyarrow.compute as pc

    from mkdocs_selfattn import csv_small

    mine = csv_small.floats([text])
    theirs = pc.cast(pa.array([text]), pa.float64()).to_pylist()[0]
    if mine is None:  # only a value too big for a double is refused
        assert math.isinf(theirs)
        return
    assert struct.pack("<d", float(mine[0])) == struct.pack("<d", theirs)


@settings(max_examples=300, deadline=None)
@given(keys=st.lists(st.integers(-(2**62), 2**62) | st.integers(0, 5), max_size=60))
def test_small_keys_are_numbered_as_arrow_numbers_them(keys: list[int]) -> None:
    array = np.array(keys, dtype=np.int64)
    sorted_codes = row_keys.first_appearance_codes(array)
    saved = row_keys.SORTED_KEYS
    row_keys.SORTED_KEYS = -1
    try:
        hashed = row_keys.first_appearance_codes(array)
    finally:
        row_keys.SORTED_KEYS = saved
    assert sorted_codes.dtype == hashed.dtype == np.int64
    assert sorted_codes.tolist() == hashed.tolist()


# ---------------------------------------------------------------------------------------------
# Fixed cases: each edge case, and which path it takes

HEAD = ",".join(TARGETS) + "\n"
ROW = "d,t,c,r,{score},0.5,{v2}\n"


def targets_file(
    score: str = "1.0", v2: str = "0.25", *, head: str = HEAD, tail: str = ""
) -> bytes:
    body = ROW.format(score=score, v2=v2) + "d,t,c2,r,2,1,1\n"
    return (head + body + tail).encode("utf-8")


@pytest.mark.parametrize(
    ("number", "kept"),
    [
        ("+1", True), ("1.", True), (".5", True), ("1e5", True), ("1E-5", True), ("-0", True),
        ("007", True), (" 1", False), ("1 ", False), ("\t1", False), ("inf", False),
        ("nan", False), ("1_0", False), ("١", False), ("１", False), ("", False),
        ("1e400", False), ("Infinity", False), ('"2.5"', True), ("0x10", False),
    ],
)  # fmt: skip
def test_each_number_form_takes_its_path(number: str, kept: bool) -> None:
    assert both("targets", targets_file(score=number))[0] is kept


@pytest.mark.parametrize(
    ("data", "kept"),
    [
        (b"\xef\xbb\xbf" + targets_file(), True),
        (targets_file().replace(b"\n", b"\r\n"), True),
        (targets_file().replace(b"\n", b"\r"), False),
        (targets_file(tail="\n\n\n"), True),
        (targets_file(tail="\r\n   \n"), False),
        (targets_file().replace(b"c2", b'"c, two"'), True),
        (targets_file().replace(b"c2", b'"c ""two"""'), True),
        (targets_file().replace(b"c2", b'"c\ntwo"'), False),
        (targets_file().replace(b"c2", b'"c\r\ntwo"'), False),
        (targets_file().replace(b"c2", b'c"2'), False),
        (targets_file().replace(b"c2", b' "c2"'), False),
        (targets_file().replace(b",0.5,", b",0.5,9,"), False),
        (targets_file().replace(b"c2", b"\xff"), False),
        (targets_file().replace(b"c2", b"\x00"), False),
        (targets_file().replace(b"c2", b""), True),
        (targets_file(head=HEAD.replace("\n", "") + "\n") + b"\n", True),
        (HEAD.encode(), False),
        # refused at the header, before either reader, with the same message:
        (("\n" + HEAD).encode() + targets_file()[len(HEAD) :], True),
    ],
)
def test_each_file_form_takes_its_path(data: bytes, kept: bool) -> None:
    assert both("targets", data)[0] is kept


def test_an_empty_text_cell_is_the_same_located_error() -> None:
    kept, error = both("targets", targets_file().replace(b"c2", b""))
    assert kept
    assert error[2] == 3
    assert error[3] == "candidate_token"


def test_a_negative_given_weight_is_the_same_error_from_the_stdlib_path() -> None:
    data = ",".join(HEADS) + "\nr,s,a,q,1,0,0,0.5,-0.25\nr,s,b,q,0,1,1,0.5,1.25\n"
    kept, error = both("heads", data.encode())
    assert kept
    assert "'-0.25'" in error[0]
    assert error[2] == 2
    assert error[3] == "w2"


def test_index_columns_take_their_path() -> None:
    head = ",".join(TARGETS + INDEX) + "\n"
    good = head + "d,t,c,r,1,2,3,0,-0\nd,t,c2,r,1,2,3,0,007\n"
    assert both("indexed", good.encode())[0]
    for bad in ("+1", "1.0", "0x1", " 1", "9" * 19):
        assert not both("indexed", good.replace("007", bad).encode())[0]


def test_a_file_at_the_limit_goes_to_arrow() -> None:
    data = targets_file()
    for value, kept in ((len(data) + 1, True), (len(data), False)):
        with limit(value) as calls:
            parse_table(data, source="t.csv")
        assert (not calls) is kept


def test_codes_and_values_follow_first_appearance() -> None:
    text = HEAD + "d2,t,b,r,1,0,0\nd1,t,a,r,1,0,0\nd2,u,b,s,1,0,0\nd1,t,c,r,1,0,0\n"
    kept, table = both("targets", text.encode())
    assert kept
    assert table.documents == ("d2", "d1")
    assert table.document_codes.tolist() == [0, 1, 0, 1]
    assert table.candidates == ("b", "a", "c")
    assert table.candidate_codes.dtype == np.int32


# ---------------------------------------------------------------------------------------------
# A fresh interpreter: which modules a course's computation loads

CHILD = r"""
import sys
sys.path.insert(0, {tests!r})
import course_requests
from mkdocs_selfattn import csv_size, jobs, workers
mode = {mode!r}
if mode == "warm_up":
    workers.warm_up({arrow!r})
else:
    for request in course_requests.requests().values():
        if mode == "big":
            head, _, body = request.data.partition(b"\n")
            lines = body.splitlines(keepends=True)
            copies = csv_size.SMALL_BYTES // len(body) + 1
            # Each copy's first column renamed: its documents (or lines) are new ones.
            bigger = b"".join(line.replace(b",", b"_%d," % k, 1) for k in range(1, copies + 1)
                              for line in lines)
            request = type(request)(request.key, request.spec, head + b"\n" + body + bigger,
                                    request.source)
            assert not csv_size.fits(request.data)
        payload = jobs.compute_payload(request)
        assert payload
print("pyarrow" in sys.modules, "numpy" in sys.modules)
"""


def loads_arrow(mode: str, arrow: bool = False) -> bool:
    import subprocess
    import sys
    from pathlib import Path

    tests = str(Path(__file__).resolve().parent)
    code = CHILD.format(tests=tests, mode=mode, arrow=arrow)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    pyarrow, numpy = done.stdout.split()
    assert numpy == "True"
    return pyarrow == "True"


@pytest.mark.slow
def test_a_course_computes_every_layout_without_importing_pyarrow() -> None:
    assert not loads_arrow("course")


@pytest.mark.slow
def test_a_file_above_the_limit_is_still_read_by_arrow() -> None:
    assert loads_arrow("big")


@pytest.mark.slow
def test_the_workers_warm_up_imports_pyarrow_only_for_a_big_file() -> None:
    assert not loads_arrow("warm_up", arrow=False)
    assert loads_arrow("warm_up", arrow=True)


def test_any_big_looks_at_every_used_file(tmp_path: Any) -> None:
    small, big = tmp_path / "small.csv", tmp_path / "big.csv"
    small.write_bytes(b"x" * 10)
    big.write_bytes(b"x" * csv_size.SMALL_BYTES)
    assert not csv_size.any_big([small, tmp_path / "missing.csv"])
    assert csv_size.any_big([small, big])
