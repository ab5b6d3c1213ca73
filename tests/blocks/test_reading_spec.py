"""The block keys of the questions and heads layouts: what they accept, what they refuse (one
message at the offending key's line), and the CSV checks that only the file can answer."""

from __future__ import annotations

import pytest
from reading_fixtures import MANUAL_CSV, MANUAL_QUERIES
from test_reading_engine import manual, run

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.spec import BlockSpec, parse_block
from mkdocs_selfattn.errors import BlockError, DataError


def parse(body: str) -> BlockSpec:
    return parse_block(find_blocks(f"# page\n\n```selfattn\n{body}```\n")[0])


def refused(body: str) -> BlockError:
    with pytest.raises(BlockError) as caught:
        parse(body)
    return caught.value


QUERIES = "queries: {a question: score_a, another: score_b}\n"
HEADS = "heads: {single: w0, head1: w1}\n"


def test_queries_keep_their_order_and_need_no_document() -> None:
    spec = parse("csv: m.csv\nqueries:\n  zeta: score_z\n  alpha: score_a\n").example
    assert spec is not None
    assert spec.layout == "questions"
    assert spec.document is None
    assert list(spec.queries or {}) == ["zeta", "alpha"]


def test_heads_axes_normalise_template_and_group_role() -> None:
    spec = parse(
        "csv: h.csv\ndocument: r1\ncolumns: {document: report_id, group: scenario}\n"
        + HEADS
        + "axes: {x: [a], yz: [b, c]}\nnormalise: true\ntemplate: |\n  {{ csv_rows }}\n"
    ).example
    assert spec is not None
    assert spec.layout == "heads"
    assert dict(spec.axes or {}) == {"x": ("a",), "yz": ("b", "c")}
    assert spec.normalise is True
    assert spec.template.rstrip("\n") == "{{ csv_rows }}"
    assert spec.columns["group"] == "scenario"


def test_query_is_a_view_key_allowed_in_use_blocks() -> None:
    block = parse("use: manual\nshow: [chart]\nquery: score_a\n")
    assert block.view.query == "score_a"


@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        ("csv: m.csv\ndocument: d\ntargets: [it]\n" + QUERIES, 7, "'targets' (line 6)"),
        ("csv: m.csv\n" + QUERIES + HEADS, 6, "'queries' (line 5) and 'heads'"),
        ("csv: m.csv\n" + HEADS + "temperature: 2\n", 6, "do not pass through the softmax"),
        ("csv: m.csv\n" + QUERIES + "normalise: true\n", 6, "only given weights"),
        ("csv: m.csv\ndocument: d\nnormalise: true\n", 6, "'queries:' or 'heads:' block"),
        ("csv: m.csv\ndocument: d\naxes: {x: [a]}\n", 6, "'queries:' or 'heads:' block"),
        ("csv: m.csv\n" + QUERIES + "vectors: [a]\naxes: {x: [a]}\n", 7, "not both"),
        ("csv: m.csv\n" + QUERIES + "mixed_candidates: true\n", 6, "only the targets"),
        ("csv: m.csv\n" + QUERIES + "columns: {score: s}\n", 6, "role 'score' has no meaning"),
        ("csv: m.csv\ndocument: d\ncolumns: {group: g}\n", 6, "role 'group' has no meaning"),
        ("csv: m.csv\nqueries: {}\n", 5, "empty"),
        ("csv: m.csv\nqueries: [score_a]\n", 5, "expected a mapping"),
        ("csv: m.csv\nheads: {h: 3}\n", 5, "expected a text value"),
        ("csv: m.csv\n" + QUERIES + "axes: {x: []}\n", 6, "axis 'x' needs a list"),
        ("csv: m.csv\n" + HEADS + "normalise: yes please\n", 6, "true or false"),
        ("csv: m.csv\nqueries: {score_b: score_a, b: score_b}\n", 5, "is also the column of 'b'"),
    ],
)
def test_misplaced_keys_are_refused_at_their_line(body: str, line: int, words: str) -> None:
    error = refused(body)
    assert error.line == line, error
    assert words in error.message


def test_a_targets_block_still_needs_its_document() -> None:
    error = refused("csv: m.csv\n")
    assert error.line == 3
    assert "missing key 'document:'" in error.message
    assert "with 'queries:' or 'heads:'" in error.message


def test_named_columns_must_exist_with_a_suggestion() -> None:
    text = MANUAL_CSV.read_text(encoding="utf-8")
    with pytest.raises(DataError) as caught:
        run(
            text,
            "manual.csv",
            queries={"q": "score_presure_hold"},
            columns={"candidate": "line_id"},
            vectors=("evidence_signal",),
        )
    assert caught.value.key == "queries"
    assert "(did you mean 'score_pressure_hold'?)" in caught.value.message


def test_a_bad_cell_is_named_by_file_line_column_and_cell() -> None:
    text = MANUAL_CSV.read_text(encoding="utf-8").replace(",2.9,", ",2.9x,", 1)
    with pytest.raises(DataError) as caught:
        manual(text)
    assert str(caught.value) == (
        "manual.csv:11: column 'evidence_signal': '2.9x' is not a number; write a decimal "
        "number such as 1.25"
    )


def test_a_text_column_taken_as_vector_by_default_says_to_list_them() -> None:
    text = MANUAL_CSV.read_text(encoding="utf-8")
    with pytest.raises(DataError) as caught:
        run(text, "manual.csv", queries=MANUAL_QUERIES, columns={"candidate": "line_id"})
    assert caught.value.column == "section"  # no role mapped: a vector
    assert caught.value.key == "vectors"
    assert "list the vector columns" in caught.value.message


def test_an_infinite_score_is_refused() -> None:
    lines = MANUAL_CSV.read_text(encoding="utf-8").split("\n")
    lines[3] = lines[3].rsplit(",", 1)[0] + ",-inf"
    with pytest.raises(DataError) as caught:
        manual("\n".join(lines))
    assert (caught.value.line, caught.value.column) == (4, "score_restart_permission")
    assert "'-inf' is not a finite number" in caught.value.message


def test_a_named_group_must_list_lines_of_the_file() -> None:
    with pytest.raises(DataError) as caught:
        manual(MANUAL_CSV.read_text(encoding="utf-8"), groups={"g": ("L99",)})
    assert caught.value.key == "groups"
    assert "'L99', which is not a candidate of the file (did you mean" in caught.value.message


def test_bom_crlf_and_quoted_newlines_keep_cells_and_lines() -> None:
    text = (
        "\ufeffline_id,section,text,evidence_signal,score_pressure_hold,score_flow_limit,"
        'score_restart_permission\r\nL01,p,"two\r\nlines, one cell",3.00,1,2,3\r\n'
        "L02,p,plain,2.5,0,0,0\r\n"
    )
    got = manual(text)
    assert got.groups[0].lines[0].cells[2] == "two\r\nlines, one cell"
    assert got.groups[0].lines[0].cells[3] == "3.00"
    assert got.groups[0].lines[0].vector == (3.0,)
    bad = text.replace("2.5", "2,5")
    with pytest.raises(DataError) as caught:
        manual(bad)
    assert caught.value.line == 4  # the quoted newline counts as a line of the file
    wrong = text.replace("L02,p,plain,2.5", "L02,p,plain,2.5x")
    with pytest.raises(DataError) as caught:
        manual(wrong)
    assert (caught.value.line, caught.value.column) == (4, "evidence_signal")
