"""CSV → table: every bad input gets one message naming the file, the line, the column and a fix.

Readers meet these messages in a CI log or a build error, with no traceback to help, so each test
pins down the whole message: where (file, physical line, column) and what to do about it. Small
files live in ``data/edge/`` named for their case; byte-level cases (encodings, line endings) are
written here so no editor or git setting can change the bytes under test.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_diagnose import row_line
from mkdocs_selfattn.core.csv_read import parse_table, read_table
from mkdocs_selfattn.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
EDGE = ROOT / "data" / "edge"
COURSE = ROOT / "docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"
HEADER = (
    "document_id,target_token,candidate_token,candidate_role,"
    "evidence_pack,evidence_cap,evidence_action,score"
)
VECTORS = ("evidence_pack", "evidence_cap", "evidence_action")


def edge(name: str) -> str:
    path = EDGE / name
    assert path.exists(), f"missing fixture {path}"
    return str(path)


def read_error(path: str, **kwargs: object) -> DataError:
    with pytest.raises(DataError) as caught:
        read_table(path, **kwargs)  # type: ignore[arg-type]
    return caught.value


def parse_error(data: bytes, source: str = "memo.csv", **kwargs: object) -> DataError:
    with pytest.raises(DataError) as caught:
        parse_table(data, source=source, **kwargs)  # type: ignore[arg-type]
    return caught.value


def assert_located(
    error: DataError, path: str, line: int | None, column: str | None, *fix: str
) -> None:
    """The message names the file, the exact line, the column, and says what to fix."""
    assert error.path == path
    assert error.line == line
    assert error.column == column
    where = path if line is None else f"{path}:{line}"
    if column is not None:
        where += f": column '{column}'"
    text = str(error)
    assert text.startswith(where + ": "), text
    assert "\n" not in text
    for phrase in fix:
        assert phrase in text, f"{phrase!r} not in {text!r}"


# ---------------------------------------------------------------------------------------------
# Bad inputs, one test each.


def test_missing_file(tmp_path: Path) -> None:
    path = str(tmp_path / "nowhere.csv")
    assert_located(read_error(path), path, None, None, "file not found", "check the path")


def test_folder_instead_of_file(tmp_path: Path) -> None:
    assert_located(read_error(str(tmp_path)), str(tmp_path), None, None, "is a folder")


def test_empty_file() -> None:
    path = edge("empty.csv")
    assert_located(read_error(path), path, 1, None, "the file is empty", "needs a header line")


def test_whitespace_only_file() -> None:
    assert_located(parse_error(b" \r\n\n"), "memo.csv", 1, None, "the file is empty")


def test_header_only() -> None:
    path = edge("header_only.csv")
    assert_located(read_error(path), path, 2, None, "has a header but no data rows")


def test_missing_column() -> None:
    path = edge("missing_score_column.csv")
    assert_located(
        read_error(path),
        path,
        1,
        None,
        "missing column(s) 'score'",
        "the header has document_id, target_token",
        "map other names with the 'columns' option",
    )


def test_row_with_too_many_fields() -> None:
    path = edge("ragged_too_many_fields.csv")
    assert_located(
        read_error(path),
        path,
        4,
        None,
        "this row has 9 fields but the header has 8",
        "check for a missing or extra comma",
    )


def test_row_with_too_few_fields() -> None:
    path = edge("ragged_too_few_fields.csv")
    assert_located(
        read_error(path), path, 3, None, "this row has 7 fields but the header has 8", "comma"
    )


def test_non_numeric_score() -> None:
    path = edge("non_numeric_score.csv")
    assert_located(
        read_error(path),
        path,
        5,
        "score",
        "'high' is not a number",
        "write a decimal number such as 1.25",
    )


def test_nan_score() -> None:
    path = edge("nan_score.csv")
    assert_located(
        read_error(path), path, 3, "score", "'NaN' is not a finite number", "write a real value"
    )


def test_inf_vector_value() -> None:
    path = edge("inf_vector_value.csv")
    assert_located(
        read_error(path),
        path,
        4,
        "evidence_cap",
        "'inf' is not a finite number",
        "write a real value",
    )


def test_vector_value_overflowing_to_inf() -> None:
    data = f"{HEADER}\nm,t,c,r,0.1,1e400,0.2,0.3\n".encode()
    assert_located(
        parse_error(data), "memo.csv", 2, "evidence_cap", "'1e400' is not a finite number"
    )


def test_empty_score() -> None:
    path = edge("empty_score.csv")
    assert_located(read_error(path), path, 3, "score", "the value is empty", "write a number")


def test_non_utf8_bytes_report_the_physical_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.csv"
    path.write_bytes(
        HEADER.encode()
        + b"\nmemo,t,c,r,0.1,0.2,0.3,1.0"
        + b'\nmemo,t,"two\nlines",r,0.1,0.2,0.3,1.0'
        + b"\nmemo,t,caf\xe9,r,0.1,0.2,0.3,1.0\n"
    )
    # The bad byte is on physical line 5 (the quoted newline makes record 3 two lines long),
    # and it is the 11th byte of that line.
    assert_located(
        read_error(str(path)),
        str(path),
        5,
        None,
        "byte 11 of this line is not UTF-8 (0xe9)",
        "save the file as UTF-8",
    )


def test_non_utf8_header(tmp_path: Path) -> None:
    path = tmp_path / "header.csv"
    path.write_bytes(b"document_id,target_token,candidate_token,candidate_role,v\xff,score\n")
    assert_located(
        read_error(str(path)), str(path), 1, None, "byte 58 of the header is not UTF-8", "UTF-8"
    )


def test_duplicate_header_name() -> None:
    path = edge("duplicate_header_name.csv")
    assert_located(
        read_error(path), path, 1, None, "header fields 5 and 7 have the same name", "rename one"
    )


def test_empty_header_name() -> None:
    data = b"document_id,target_token,,candidate_token,candidate_role,v,score\n"
    assert_located(
        parse_error(data), "memo.csv", 1, None, "header field 3 is empty", "give every column"
    )


def test_empty_required_text_value() -> None:
    path = edge("empty_candidate_token.csv")
    assert_located(
        read_error(path), path, 3, "candidate_token", "the value is empty", "every row needs it"
    )


def test_partial_index_columns() -> None:
    path = edge("partial_index_columns.csv")
    assert_located(
        read_error(path),
        path,
        1,
        None,
        "column 'target_index' needs its partner column 'candidate_index'",
        "add it or drop both",
    )


def test_non_integer_index() -> None:
    path = edge("non_integer_index.csv")
    assert_located(
        read_error(path),
        path,
        4,
        "candidate_index",
        "'2.5' is not a whole number",
        "write a token position such as 3",
    )


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("+3", "'+3' is not a whole number"),
        ("", "the value is empty"),
        ("99999999999999999999", "too large for a token position"),
    ],
)
def test_index_values_arrow_refuses_are_located(value: str, problem: str) -> None:
    # Python's int() accepts "+3"; Arrow does not. The diagnosis must agree with Arrow, or the
    # user is told "could not be parsed" with no line at all.
    data = (
        "document_id,target_token,target_index,candidate_token,candidate_index,candidate_role,v,"
        f"score\nm,t,0,c,0,r,0.1,1.0\nm,t,0,d,{value},r,0.1,1.0\n"
    ).encode()
    assert_located(parse_error(data), "memo.csv", 3, "candidate_index", problem)


@pytest.mark.parametrize("value", ["1_000", "\u00a01.5", "\uff11", "0x10", "1.5f"])
def test_numbers_arrow_refuses_are_located(value: str) -> None:
    # Python's float() accepts "1_000", full-width digits and Unicode spaces; Arrow does not.
    data = f"{HEADER}\nm,t,c,r,0.1,0.2,0.3,1.0\nm,t,d,r,0.1,0.2,0.3,{value}\n".encode()
    assert_located(parse_error(data), "memo.csv", 3, "score", "is not a number")


def test_quoted_newline_before_a_bad_line_counts_physical_lines() -> None:
    path = edge("quoted_newline_then_bad_score.csv")
    # Records: header (line 1), one record over lines 2-4, line 5, and the bad one on line 6.
    assert_located(read_error(path), path, 6, "score", "'n/a' is not a number")


def test_blank_lines_are_counted() -> None:
    data = f"{HEADER}\n\nm,t,c,r,0.1,0.2,0.3,1.0\n\n\nm,t,d,r,0.1,0.2,0.3,x\n".encode()
    assert_located(parse_error(data), "memo.csv", 6, "score", "'x' is not a number")


def test_lone_cr_line_endings() -> None:
    data = f"{HEADER}\rm,t,c,r,0.1,0.2,0.3,1.0\rm,t,d,r,0.1,0.2,0.3,x\r".encode()
    assert_located(parse_error(data), "memo.csv", 3, "score", "'x' is not a number")


def test_unclosed_quote() -> None:
    data = f'{HEADER}\nm,t,c,r,0.1,0.2,0.3,1.0\nm,t,"d,r,0.1,0.2,0.3,1.0\n'.encode()
    assert_located(parse_error(data), "memo.csv", 3, None, "check the quotes on this line")


def test_vectors_option_naming_an_unknown_column() -> None:
    path = str(COURSE)
    assert_located(
        read_error(path, vectors=["evidence_cap", "evidence_x"]),
        path,
        1,
        None,
        "vector column(s) 'evidence_x' not in the header",
        "the header has document_id, target_token, candidate_token",
    )


def test_vectors_option_naming_a_text_column() -> None:
    path = str(COURSE)
    assert_located(
        read_error(path, vectors=["candidate_token"]),
        path,
        1,
        None,
        "vector column(s) 'candidate_token'",
        "list numeric columns only",
    )


def test_empty_vectors_option() -> None:
    error = read_error(str(COURSE), vectors=[])
    assert "name at least one" in str(error)


def test_no_vector_columns() -> None:
    data = b"document_id,target_token,candidate_token,candidate_role,score\nm,t,c,r,1.0\n"
    assert_located(parse_error(data), "memo.csv", 1, None, "no vector columns")


def test_unknown_role_in_column_mapping() -> None:
    with pytest.raises(DataError) as caught:
        ColumnMap.from_mapping({"doc": "memo"}, source="mkdocs.yml")
    assert str(caught.value) == (
        "mkdocs.yml: unknown column role(s) doc in the column mapping; the roles are "
        "document, target, candidate, role, score, target_index, candidate_index"
    )


def test_display_path_names_the_file_in_messages() -> None:
    error = read_error(edge("nan_score.csv"), display_path="docs/assets/memo.csv")
    assert str(error).startswith("docs/assets/memo.csv:3: column 'score': ")


# ---------------------------------------------------------------------------------------------
# Good inputs.


def test_course_file() -> None:
    table = read_table(str(COURSE))
    assert table.n_rows == 36
    assert table.columns.axis_names == VECTORS
    assert table.documents == ("memo_cap_missing", "memo_pressure_hold", "memo_flow_alarm")
    assert table.groups[:2] == ("그것", "씌우지")
    assert table.values[:, 0][:3].tolist() == [0.2, 0.7, 2.4]
    assert table.vectors[2].tolist() == [0.1, 0.95, 0.2]
    assert table.group_index is None
    assert table.encoded.candidate_index is None
    assert table.row_numbers.tolist() == list(range(36))


def test_codes_number_values_by_first_appearance() -> None:
    table = read_table(str(COURSE))
    assert table.document_codes.tolist() == [0] * 12 + [1] * 12 + [2] * 12
    assert [table.encoded.candidates[c] for c in table.encoded.candidate_codes[:6]] == [
        "배터리팩",
        "분리",
        "절연캡",
        "씌우지",
        "그것",
        "위험",
    ]
    assert table.encoded.candidate_codes.dtype == np.int32  # like Arrow's indices: half of int64


def test_utf8_bom_and_crlf() -> None:
    text = COURSE.read_text(encoding="utf-8")
    data = b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode()
    table = parse_table(data, source="bom.csv")
    reference = read_table(str(COURSE))
    assert table.documents[0] == "memo_cap_missing"  # no BOM glued to the first value
    assert table.columns.axis_names == VECTORS  # nor to the first header name
    assert table.encoded.roles == reference.encoded.roles  # no "\r" on the last text column
    assert np.array_equal(table.values[:, 0], reference.values[:, 0])  # nor on the last number


def test_bom_and_crlf_error_lines() -> None:
    rows = "m,t,c,r,0.1,0.2,0.3,1\r\nm,t,d,r,0.1,0.2,0.3,?\r\n"
    data = b"\xef\xbb\xbf" + f"{HEADER}\r\n{rows}".encode()
    assert_located(parse_error(data), "memo.csv", 3, "score", "'?' is not a number")


def test_quoted_fields_with_commas_and_doubled_quotes() -> None:
    table = read_table(edge("quoted_commas_and_quotes.csv"))
    assert table.encoded.candidates == ("배터리팩, 리튬", 'say "stop"', "절연캡")
    assert table.groups == ("그것", "그것,")
    assert "role, with comma" in table.encoded.roles
    assert table.values[:, 0].tolist() == [0.2, 0.7, 2.4]


def test_any_unicode_token_is_kept_exactly() -> None:
    table = read_table(edge("unicode_tokens.csv"))
    assert table.groups == ("👍🏽",)
    assert table.encoded.candidates == (
        "👨\u200d👩\u200d👧",
        "שלום",
        "مرحبا",
        "👍🏽",
        "e\u0301",  # not normalised to "é"
        "𝔘𝔫𝔦",
    )


def test_column_mapping() -> None:
    columns = ColumnMap.from_mapping({"document": "memo"}, source="mkdocs.yml")
    table = read_table(edge("column_mapping_memo.csv"), columns=columns)
    assert table.documents == ("memo_cap_missing", "memo_other")
    assert table.columns.axis_names == VECTORS  # "memo" is a text column, not a vector


def test_column_mapping_missing_the_mapped_name() -> None:
    columns = ColumnMap.from_mapping({"document": "memo"}, source="mkdocs.yml")
    path = str(COURSE)
    assert_located(read_error(path, columns=columns), path, 1, None, "missing column(s) 'memo'")


def test_index_columns_keep_repeated_tokens_apart() -> None:
    table = read_table(edge("index_columns_repeated_tokens.csv"))
    assert table.group_index is not None
    assert table.encoded.candidate_index is not None
    assert table.group_index.tolist() == [2, 2, 2, 2, 5, 5, 5, 5]
    assert table.encoded.candidate_index.tolist() == [0, 1, 2, 5, 0, 1, 2, 5]
    assert table.columns.axis_names == ("evidence_pack", "evidence_cap")  # indexes are not vectors
    assert table.groups == ("그것",)


def test_vector_column_selection_keeps_the_given_order() -> None:
    table = read_table(str(COURSE), vectors=["evidence_action", "evidence_pack"])
    assert table.columns.axis_names == ("evidence_action", "evidence_pack")
    assert table.vectors.shape == (36, 2)
    assert table.vectors[2].tolist() == [0.2, 0.1]


def test_vector_selection_ignores_bad_values_in_unused_columns() -> None:
    data = f"{HEADER},note\nm,t,c,r,0.1,0.2,0.3,1.0,anything\n".encode()
    table = parse_table(data, source="memo.csv", vectors=["evidence_cap"])
    assert table.vectors.tolist() == [[0.2]]


def test_numbers_with_spaces_signs_and_exponents() -> None:
    data = f"{HEADER}\nm,t,c,r, 0.1 ,+.5,1E-3,-2.\n".encode()
    table = parse_table(data, source="memo.csv")
    assert table.vectors.tolist() == [[0.1, 0.5, 0.001]]
    assert table.values[:, 0].tolist() == [-2.0]


def test_subset_keeps_categories_and_row_numbers() -> None:
    table = read_table(str(COURSE))
    part = table.subset(table.document_codes == 1)
    assert part.n_rows == 12
    assert part.documents == table.documents
    assert part.row_numbers.tolist() == list(range(12, 24))


def test_row_line_counts_physical_lines() -> None:
    data = f'{HEADER}\nm,t,"a\nb",r,0,0,0,1\n\nm,t,c,r,0,0,0,1\n'.encode()
    assert row_line(data, 0) == 2
    assert row_line(data, 1) == 5
    plain = f"\ufeff{HEADER}\r\n\r\nm,t,c,r,0,0,0,1\r\nm,t,d,r,0,0,0,1\r\n".encode()
    assert row_line(plain, 0) == 3
    assert row_line(plain, 1) == 4
    lone_cr = f"{HEADER}\rm,t,c,r,0,0,0,1\rm,t,d,r,0,0,0,1\r".encode()
    assert row_line(lone_cr, 1) == 3


def test_codes_agree_across_arrow_chunks() -> None:
    # Over 1 MB, Arrow parses in several blocks and encodes chunk by chunk; the codes must still
    # be one numbering by first appearance across the whole file.
    rng = np.random.default_rng(5)
    words = [f"토큰{i}" for i in range(3000)]
    picks = rng.integers(0, len(words), size=40_000)
    lines = [HEADER] + [
        f"d{i // 500},t{i // 50 % 10},{words[p]},r{p % 7},0.5,0.25,0.125,{i % 13}"
        for i, p in enumerate(picks)
    ]
    data = ("\n".join(lines) + "\n").encode()
    assert len(data) > 1_400_000
    table = parse_table(data, source="big.csv")
    tokens = [words[p] for p in picks]
    expected = list(dict.fromkeys(tokens))
    assert table.encoded.candidates == tuple(expected)
    position = {token: i for i, token in enumerate(expected)}
    assert table.encoded.candidate_codes.tolist() == [position[t] for t in tokens]
    assert table.encoded.roles == tuple(dict.fromkeys(f"r{p % 7}" for p in picks))
    # Documents and targets come in runs, which are encoded by their first rows.
    documents = [f"d{i // 500}" for i in range(len(picks))]
    assert table.documents == tuple(dict.fromkeys(documents))
    assert table.document_codes.tolist() == [i // 500 for i in range(len(picks))]
    targets = [f"t{i // 50 % 10}" for i in range(len(picks))]
    assert [table.groups[c] for c in table.group_codes] == targets
    assert table.row_numbers.tolist() == list(range(len(picks)))


@pytest.mark.parametrize("text_role", ["document", "target", "candidate", "role"])
@pytest.mark.parametrize("number_role", ["score", "target_index", "candidate_index"])
def test_a_column_is_never_both_a_name_and_a_number(text_role: str, number_role: str) -> None:
    # Read both ways, a cell `04` would be a token and the number 4, and the stdlib and Arrow
    # readers could disagree on which one the page shows.
    column = getattr(ColumnMap(), text_role)
    with pytest.raises(DataError) as caught:
        ColumnMap.from_mapping({number_role: column}, source="memo.csv")
    assert caught.value.key == "columns"
    assert str(caught.value) == (
        f"memo.csv: column {column!r} is both the {text_role} (text, by default) and the "
        f"{number_role} (a number) in the column mapping; map each to a column of its own"
    )


def test_a_vector_column_listed_twice_is_refused() -> None:
    error = read_error(str(COURSE), vectors=["evidence_cap", "evidence_pack", "evidence_cap"])
    assert error.key == "vectors"
    assert str(error).endswith("'evidence_cap' is listed twice; list each vector column once")


def test_roles_may_share_a_column_of_the_same_kind() -> None:
    same = ColumnMap.from_mapping(
        {"candidate_index": "target_index", "target": "candidate_token"}, source="memo.csv"
    )
    assert same.candidate_index == same.target_index == "target_index"


def test_a_table_read_for_another_layout_is_refused_with_a_message() -> None:
    """Every layout computes on the one Table; a table from another layout's front end (only the
    Python API can hand one over) is a DataError naming the file and the reader to use."""
    from mkdocs_selfattn.core.document_results import compute_targets
    from mkdocs_selfattn.core.reading_results import compute_reading_result
    from mkdocs_selfattn.core.reading_table import parse_reading

    targets = read_table(str(COURSE), display_path="memo.csv")
    with pytest.raises(DataError, match=r"^memo\.csv: .*parse_reading") as error:
        compute_reading_result(targets, "questions")
    assert error.value.path == "memo.csv"
    text = COURSE.read_bytes()
    reading = parse_reading(
        text,
        source="q.csv",
        mapping={"candidate": "candidate_token", "group": "target_token"},
        readers={"q": "score"},
        reader_key="queries",
        vectors=["evidence_action"],
        document=True,
    )
    with pytest.raises(DataError, match=r"^q\.csv: .*parse_table"):
        compute_targets(reading, reading.documents[0])
