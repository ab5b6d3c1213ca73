"""Messages fixed after the review of issues 16 and 17: did-you-mean that ignores case and reads
right inside a message, groups that name a candidate twice or several wrong ones, data mistakes
listed by ``inspect`` as a page reports them, group labels told apart from tokens, the starter's
last line, and front matter that is not a language code. Each test asserts the exact text."""

from __future__ import annotations

from pathlib import Path

import pytest
from figure_fixtures import compute_document

from mkdocs_selfattn.blocks.languages import language_problem
from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.spec import parse_block
from mkdocs_selfattn.cli.inspect import describe, inspect_csv
from mkdocs_selfattn.cli.starter import next_step
from mkdocs_selfattn.core.csv_read import parse_table
from mkdocs_selfattn.core.data_checks import DataProblems, document_problems
from mkdocs_selfattn.core.document_results import compute_targets
from mkdocs_selfattn.core.table import Table
from mkdocs_selfattn.errors import BlockError, DataError, close_matches, did_you_mean
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.layout_tables import compare_table, target_tables
from mkdocs_selfattn.render.tables import to_markdown

HEADER = "document_id,target_token,candidate_token,candidate_role,v,score"
TROPHY = "\n".join(
    [
        HEADER,
        "d,it,trophy,r,1,1",
        "d,it,big,r,2,2",
        "d,it,fit,r,3,3",
    ]
)


def _table(text: str, source: str = "t.csv") -> Table:
    return parse_table(text.encode(), source=source)


# ---------------------------------------------------------------------------------------------
# Did you mean


def test_did_you_mean_ignores_case_and_prefers_the_same_word() -> None:
    assert close_matches("Big", ["trophy", "big", "bigger"]) == ["big"]
    assert close_matches("SENTENCE", ["sentences", "sentence"]) == ["sentence"]
    assert close_matches("sentenc", ["document_id", "sentence"]) == ["sentence"]
    assert did_you_mean("Big", ["trophy", "big"]) == " (did you mean 'big'?)"
    assert did_you_mean("zzz", ["trophy", "big"]) == ""


def test_a_group_with_two_wrong_members_is_plural_and_suggests_each() -> None:
    with pytest.raises(DataError) as caught:
        compute_document(_table(TROPHY), "d", groups={"g": ["cup", "Big"]})
    assert str(caught.value) == (
        "t.csv: group 'g' names 'cup', 'Big', which are not candidates of document 'd' (did you "
        "mean 'big' for 'Big'?); its candidates are 'trophy', 'big', 'fit'"
    )


def test_a_group_with_one_wrong_member_is_singular() -> None:
    with pytest.raises(DataError) as caught:
        compute_document(_table(TROPHY), "d", groups={"g": ["trophy", "Big"]})
    assert str(caught.value) == (
        "t.csv: group 'g' names 'Big', which is not a candidate of document 'd' (did you mean "
        "'big'?); its candidates are 'trophy', 'big', 'fit'"
    )


def test_a_mapped_column_that_is_not_in_the_header_is_suggested() -> None:
    from mkdocs_selfattn.core.column_map import ColumnMap

    text = TROPHY.replace("document_id", "sentence")
    with pytest.raises(DataError) as caught:
        parse_table(
            text.encode(),
            source="s.csv",
            columns=ColumnMap.from_mapping({"document": "sentenc"}, source="s.csv"),
        )
    assert str(caught.value) == (
        "s.csv:1: missing column(s) 'sentenc' (did you mean 'sentence'?); the header has "
        "sentence, target_token, candidate_token, candidate_role, v, score (map other names "
        "with the 'columns' option)"
    )


def test_no_did_you_mean_is_followed_by_a_stray_semicolon() -> None:
    with pytest.raises(DataError) as caught:
        compute_document(_table(TROPHY), "D")
    message = str(caught.value)
    assert message == "t.csv: document 'D' not found (did you mean 'd'?); the file has 'd'"
    assert "?;" not in message


# ---------------------------------------------------------------------------------------------
# A group that names a candidate twice


def test_a_group_naming_a_candidate_twice_is_refused_at_its_line() -> None:
    page = "```selfattn\nid: ex\ncsv: a.csv\ndocument: d\ngroups: {g: [trophy, big, trophy]}\n```\n"
    [raw] = find_blocks(page)
    with pytest.raises(BlockError) as caught:
        parse_block(raw)
    assert caught.value.line == 5
    assert str(caught.value) == "'groups': group 'g' names 'trophy' twice; list each candidate once"


def test_the_core_refuses_a_repeated_member_too() -> None:
    with pytest.raises(DataError) as caught:
        compute_document(_table(TROPHY), "d", groups={"g": ["big", "big"]})
    assert str(caught.value) == "t.csv: group 'g' names 'big' twice; list each candidate once"
    assert caught.value.key == "groups"


# ---------------------------------------------------------------------------------------------
# Data checks without raising, and inspect


DUPLICATE_AND_CONFLICT = "\n".join(
    [HEADER, "d,t,a,r,1,1", "d,t,b,r,2,2", "d,t,a,r,1,1", "d,u,a,r,5,1", "d,u,b,r,2,2"]
)
UNEVEN = "\n".join([HEADER, "d,t,a,r,1,1", "d,t,b,r,2,2", "d,u,a,r,1,1", "d,u,c,r,3,2"])


def test_document_problems_lists_every_kind_of_mistake_once() -> None:
    problems = document_problems(_table(DUPLICATE_AND_CONFLICT, "dup.csv"), "d")
    assert [str(e) for e in problems.errors] == [
        "dup.csv:4: candidate 'a' appears twice for target 't' of document 'd' (lines 2 and 4); "
        "delete one of the rows (if the token occurs at two positions, add target_index and "
        "candidate_index columns)",
        "dup.csv:5: candidate 'a' of document 'd' has the vector [5.0] here (target 'u') but "
        "[1.0] on line 2 (target 't'); a candidate has one vector in a document (the baseline "
        "counts it once): make the rows agree",
    ]
    assert problems.warnings == ()
    assert document_problems(_table(TROPHY), "d") == DataProblems()


def test_document_problems_warns_about_uneven_targets() -> None:
    problems = document_problems(_table(UNEVEN, "uneven.csv"), "d")
    assert problems.errors == ()
    assert problems.warnings == (
        "uneven.csv:4: target 'u' of document 'd' lacks 'b' and adds 'c' compared with target "
        "'t' (line 2); give every target the same candidates, or set 'mixed_candidates: true' "
        "if that is intended",
    )


def test_inspect_reports_the_data_mistakes_and_does_not_merge_rows(tmp_path: Path) -> None:
    path = tmp_path / "dup.csv"
    path.write_text(DUPLICATE_AND_CONFLICT + "\n", encoding="utf-8")
    contents = inspect_csv(str(path), {})
    assert contents.has_errors
    text = describe(contents)
    assert "  target t: a, b, a\n  target u: a, b\n" in text
    assert (
        f"  error: {path}:4: candidate 'a' appears twice for target 't' of document 'd' "
        "(lines 2 and 4); delete one of the rows" in text
    )
    assert f"  error: {path}:5: candidate 'a' of document 'd' has the vector [5.0] here" in text


def test_inspect_reports_uneven_targets_as_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "uneven.csv"
    path.write_text(UNEVEN + "\n", encoding="utf-8")
    contents = inspect_csv(str(path), {})
    assert not contents.has_errors
    assert f"  warning: {path}:4: target 'u' of document 'd' lacks 'b' and adds 'c'" in describe(
        contents
    )


# ---------------------------------------------------------------------------------------------
# Group labels that read like a token


def test_a_group_labelled_like_a_token_is_told_apart() -> None:
    result = compute_targets(_table(TROPHY), "d", groups={"g": ["trophy", "fit"]})
    labels = Labels({"trophy": "big", "g": "trophy"}).for_result(result)
    assert labels("g") == "trophy (g)"
    assert labels("trophy") == "big (trophy)"
    compare = to_markdown([compare_table(result, labels)])
    assert "| *trophy &#40;g&#41;* | 0.755 |" in compare  # markdown-escaped parentheses
    assert " · trophy &#40;g&#41;&#58; 0.755" in to_markdown(target_tables(result, labels))


def test_a_group_labelled_like_another_group_is_told_apart() -> None:
    result = compute_targets(_table(TROPHY), "d", groups={"g": ["trophy"], "h": ["fit"]})
    labels = Labels({"g": "X", "h": "X"}).for_result(result)
    assert (labels("g"), labels("h")) == ("X (g)", "X (h)")
    plain = Labels({"g": "size"}).for_result(result)
    assert plain("g") == "size"


# ---------------------------------------------------------------------------------------------
# The starter's last line, the language front matter


def test_the_next_step_quotes_a_folder_for_the_shell() -> None:
    assert next_step("course") == "next: cd course && mkdocs serve"
    assert next_step("sp ace/x y") == "next: cd 'sp ace/x y' && mkdocs serve"
    assert next_step("it's") == "next: cd 'it'\"'\"'s' && mkdocs serve"


@pytest.mark.parametrize("code", ["en", "ko", "zh-Hans", "pt_BR", "zh-Hant-TW", " ko "])
def test_a_language_code_passes(code: str) -> None:
    assert language_problem(code) is None


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (5, "a number 5"),
        (["en"], "a list ['en']"),
        ({"a": 1}, "a mapping {'a': 1}"),
        (None, "nothing"),
        ("", "''"),
        ("english", "'english'"),
    ],
)
def test_a_value_that_is_not_a_language_code_is_named(value: object, shown: str) -> None:
    assert language_problem(value) == (
        f"front matter 'selfattn_language': {shown} is not a language code; write one such as "
        "'en', 'ko' or 'zh-Hans' (until then the page is in the site's language)"
    )
