"""The stdlib reader for small files (csv_small) against Arrow's on generated files of every layout:
the same table or the same error (see ``csv_paths.both``), floats bit for bit, keys numbered alike.
"""

from __future__ import annotations

import math
import struct
from typing import Any

import numpy as np
import pytest
from csv_paths import HEADS, INDEX, INTEGER, NUMERIC, QUESTIONS, TARGETS, both
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.core import row_keys

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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

    from mkdocs_selfattn.core import csv_small

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
