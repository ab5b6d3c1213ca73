"""Fixed cases for the small-file reader: each edge case, which path it takes, and that both
paths give the same table or error (see ``csv_paths.both``)."""

from __future__ import annotations

import numpy as np
import pytest
from csv_paths import HEADS, INDEX, TARGETS, both, limit

from mkdocs_selfattn.core.csv_read import parse_table

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
    assert table.encoded.candidates == ("b", "a", "c")
    assert table.encoded.candidate_codes.dtype == np.int32
