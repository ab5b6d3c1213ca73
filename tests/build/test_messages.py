"""Messages, unit by unit: one per mistake, at the key that is wrong, with the fix and the names
it could have meant; data mistakes that used to compute silently; labels that collide.

Each test asserts the exact text a user reads. Whole builds (per-page and per-build counts, the
log under ``--verbose``): tests/plugin/test_messages_build.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from figure_fixtures import compute_document, render_mermaid
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.paths import resolve_path
from mkdocs_selfattn.blocks.spec import parse_block
from mkdocs_selfattn.build.block_errors import MERMAID_FENCE_MISSING, error_html
from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.example import Example, ResolvedFile
from mkdocs_selfattn.build.inline import InlineValue, find_inline_values, inline_value
from mkdocs_selfattn.build.page import ExpandedPage, expand_page, recover_id
from mkdocs_selfattn.build.pipeline import Pipeline
from mkdocs_selfattn.build.scheduler import PendingHtml
from mkdocs_selfattn.build.settings import Settings
from mkdocs_selfattn.core.csv_read import parse_table
from mkdocs_selfattn.core.document_results import compute_targets
from mkdocs_selfattn.core.results import document_of
from mkdocs_selfattn.errors import BlockError, DataError, ScriptError
from mkdocs_selfattn.render.chart import render_chart
from mkdocs_selfattn.render.labels import Labels

HEADER = "document_id,target_token,candidate_token,candidate_role,v,score"
TWO_TARGETS = "\n".join(
    [
        HEADER,
        "m,t,a,r,1,1",
        "m,t,b,r,2,2",
        "m,t,c,r,3,3",
        "m,u,a,r,1,3",
        "m,u,b,r,2,2",
        "m,u,c,r,3,1",
    ]
)


@dataclass
class _Resolver:
    """Paths of a page at docs/page.md: relative to docs/."""

    project_root: Path

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        docs = self.project_root / "docs"
        path, display = resolve_path(
            raw, key=key, line=line, relative_to=docs, absolute_to=docs, root=self.project_root
        )
        return ResolvedFile(path=path, display=display, link=path.name)


def _project(tmp_path: Path, files: dict[str, str]) -> _Resolver:
    for name, text in files.items():
        path = tmp_path / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return _Resolver(tmp_path)


def _expand(tmp_path: Path, page: str, files: dict[str, str], **settings: object) -> ExpandedPage:
    stored: list[str | PendingHtml] = []

    def store(html: str | PendingHtml, late: bool) -> str:
        stored.append(html)
        return f"SLOT{len(stored) - 1}X"

    pipeline = Pipeline(Settings(**settings), Cache(None))  # type: ignore[arg-type]
    out = expand_page(page, pipeline=pipeline, resolver=_project(tmp_path, files), store=store)
    html = [str(s) for s in stored if isinstance(s, str)]
    out.markdown = out.markdown + "\n<!--stored-->\n" + "\n".join(html)
    return out


def _example(tmp_path: Path, csv: str, extra: str = "", **settings: object) -> Example:
    resolver = _project(tmp_path, {"data.csv": csv})
    [raw] = find_blocks(f"```selfattn\nid: ex\ncsv: data.csv\ndocument: m\n{extra}```\n")
    spec = parse_block(raw)
    assert spec.example is not None
    pipeline = Pipeline(Settings(**settings), Cache(None))  # type: ignore[arg-type]
    return pipeline.load(spec.example, resolver)


def _inline(example: Example, text: str) -> str:
    [item] = find_inline_values(f"`{{selfattn}} ex {text}`")
    assert isinstance(item, InlineValue)
    return inline_value(item, {"ex": example})


def _inline_error(example: Example, text: str) -> str:
    with pytest.raises(BlockError) as caught:
        _inline(example, text)
    return str(caught.value)


# ---------------------------------------------------------------------------------------------
# One mistake, one message


def test_recover_id_from_a_block_that_does_not_parse() -> None:
    assert recover_id("id: feared\ncsv: [unclosed\n") == "feared"
    assert recover_id("csv: x.csv\nid: 'feared'  # the example\nshow: {") == "feared"
    assert recover_id("use: feared\nshow: [") is None  # a use block defines nothing
    assert recover_id("  id: nested\ncsv: x") is None  # not a top-level key
    assert recover_id("id: not a name\n") is None


PAGE_WITH_A_TYPO = """\
# Page

```selfattn
id: feared
csv: data.csv
document: m
dispaly: {a: A}
```

```selfattn
use: feared
show: [table]
```

Weight `{selfattn} feared weight t a`, top `{selfattn} feared top t`.

```selfattn
use: feared
show: [compare]
```
"""


def test_a_key_typo_is_one_message_at_its_line_and_one_summary(tmp_path: Path) -> None:
    out = _expand(tmp_path, PAGE_WITH_A_TYPO, {"data.csv": TWO_TARGETS})
    assert [(p.line, p.lines) for p in out.problems] == [
        (
            7,
            [
                "unknown key 'dispaly'; did you mean 'display'?",
                "4 more uses of example 'feared' on this page skipped",
            ],
        )
    ]
    # Every dependant is still marked on the page, and none claims the id does not exist.
    assert out.markdown.count("shows the example of line 3, which failed") == 2
    assert out.markdown.count("the example of line 3 failed; fix that block first") == 2
    assert "no example" not in out.markdown


def test_a_block_whose_yaml_fails_still_tells_its_uses(tmp_path: Path) -> None:
    page = (
        "```selfattn\nid: feared\ncsv: data.csv\ndocument: [m\n```\n\n`{selfattn} feared top t`\n"
    )
    out = _expand(tmp_path, page, {"data.csv": TWO_TARGETS})
    assert [p.lines for p in out.problems] == [
        [
            "invalid YAML: did not find expected ',' or ']'",
            "1 more use of example 'feared' on this page skipped",
        ]
    ]


def test_a_bad_csv_cell_is_one_problem_per_block_marked_once_per_build(tmp_path: Path) -> None:
    bad = TWO_TARGETS.replace("m,t,b,r,2,2", "m,t,b,r,2,high")
    page = (
        "```selfattn\nid: one\ncsv: data.csv\ndocument: m\n```\n\n"
        "```selfattn\nid: two\ncsv: data.csv\ndocument: m\n```\n\n`{selfattn} two top t`\n"
    )
    out = _expand(tmp_path, page, {"data.csv": bad})
    message = (
        "docs/data.csv:3: column 'score': 'high' is not a number; write a decimal number "
        "such as 1.25"
    )
    assert [(p.line, p.lines, p.once) for p in out.problems] == [
        (1, [message], message),
        (7, [message, "1 more use of example 'two' on this page skipped"], message),
    ]


def test_use_of_an_unknown_id_suggests_the_close_one(tmp_path: Path) -> None:
    page = (
        "```selfattn\nid: feared\ncsv: data.csv\ndocument: m\n```\n\n"
        "```selfattn\nuse: feard\n```\n\n`{selfattn} fearde top t`\n"
    )
    out = _expand(tmp_path, page, {"data.csv": TWO_TARGETS})
    assert [p.message for p in out.problems] == [
        "'use: feard' names no example defined above (did you mean 'feared'?); "
        "ids on this page: feared",
        "inline value 'fearde top': no example with id 'fearde' on this page "
        "(did you mean 'feared'?); ids: feared",
    ]


def test_a_data_error_points_at_the_key_it_is_about(tmp_path: Path) -> None:
    page = "```selfattn\nid: ex\ncsv: data.csv\ndocument: m\ntargets: [t, w]\n```\n"
    out = _expand(tmp_path, page, {"data.csv": TWO_TARGETS})
    assert [(p.line, p.message) for p in out.problems] == [
        (5, "docs/data.csv: target(s) 'w' not found in document 'm'; its targets are 't', 'u'")
    ]


# ---------------------------------------------------------------------------------------------
# Did you mean: files, documents, groups (candidates in CSV order)


def test_a_missing_csv_suggests_close_files_in_its_folder(tmp_path: Path) -> None:
    page = "```selfattn\ncsv: dtaa.csv\ndocument: m\n```\n"
    out = _expand(tmp_path, page, {"data.csv": TWO_TARGETS})
    assert [(p.line, p.message) for p in out.problems] == [
        (2, "docs/dtaa.csv: file not found; check the path (in docs: did you mean 'data.csv'?)")
    ]


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    page = "```selfattn\ncsv: nowhere/data.csv\ndocument: m\n```\n"
    out = _expand(tmp_path, page, {"data.csv": TWO_TARGETS})
    assert [p.message for p in out.problems] == [
        "docs/nowhere/data.csv: file not found; the folder docs/nowhere does not exist"
    ]


def test_a_group_lists_candidates_in_csv_order_and_suggests_one() -> None:
    table = parse_table(TWO_TARGETS.replace(",c,", ",abc,").encode(), source="g.csv")
    with pytest.raises(DataError) as caught:
        compute_document(table, "m", groups={"g": ["ab"]})
    assert str(caught.value) == (
        "g.csv: group 'g' names 'ab', which is not a candidate of document 'm' (did you mean "
        "'abc'?); its candidates are 'a', 'b', 'abc'"
    )
    assert caught.value.key == "groups"


# ---------------------------------------------------------------------------------------------
# Data mistakes that used to pass


def _check(rows: list[str], source: str) -> tuple[str, ...]:
    table = parse_table("\n".join([HEADER, *rows]).encode(), source=source)
    return compute_document(table, "m", check=True).warnings


def test_the_same_candidate_twice_in_a_group_is_refused_with_both_lines() -> None:
    with pytest.raises(DataError) as caught:
        _check(["m,t,a,r,1,1", "m,t,b,r,2,1", "m,t,a,r,1,3"], "dup.csv")
    assert str(caught.value) == (
        "dup.csv:4: candidate 'a' appears twice for target 't' of document 'm' (lines 2 and 4); "
        "delete one of the rows (if the token occurs at two positions, add target_index and "
        "candidate_index columns)"
    )


def test_a_repeated_token_at_two_positions_is_not_a_repeat() -> None:
    rows = [
        "document_id,target_token,target_index,candidate_token,candidate_index,"
        "candidate_role,v,score",
        "m,it,2,the,0,r,1,1",
        "m,it,2,the,5,r,2,1",
        "m,it,2,it,2,r,3,1",
    ]
    table = parse_table("\n".join(rows).encode(), source="pos.csv")
    assert compute_document(table, "m", check=True).warnings == ()
    again = parse_table("\n".join([*rows, "m,it,2,the,5,r,2,4"]).encode(), source="pos.csv")
    with pytest.raises(DataError) as caught:
        compute_document(again, "m", check=True)
    assert str(caught.value) == (
        "pos.csv:5: candidate 'the@5' appears twice for target 'it@2' of document 'm' "
        "(lines 3 and 5); delete one of the rows"
    )


def test_one_candidate_with_two_vectors_in_a_document_is_refused() -> None:
    with pytest.raises(DataError) as caught:
        _check(["m,t,a,r,1,1", "m,t,b,r,2,1", "m,u,a,r,5,1", "m,u,b,r,2,1"], "vec.csv")
    assert str(caught.value) == (
        "vec.csv:4: candidate 'a' of document 'm' has the vector [5.0] here (target 'u') but "
        "[1.0] on line 2 (target 't'); a candidate has one vector in a document (the baseline "
        "counts it once): make the rows agree"
    )


def test_a_target_with_other_candidates_is_a_warning() -> None:
    rows = ["m,t,a,r,1,1", "m,t,b,r,2,1", "m,u,a,r,1,1", "m,u,c,r,3,1"]
    assert _check(rows, "uneven.csv") == (
        "uneven.csv:4: target 'u' of document 'm' lacks 'b' and adds 'c' compared with target "
        "'t' (line 2); give every target the same candidates, or set 'mixed_candidates: true' "
        "if that is intended",
    )
    assert _check(TWO_TARGETS.split("\n")[1:], "even.csv") == ()


def test_mixed_candidates_allows_uneven_targets(tmp_path: Path) -> None:
    uneven = "\n".join([HEADER, "m,t,a,r,1,1", "m,t,b,r,2,1", "m,u,a,r,1,1"])
    pipeline = Pipeline(Settings(), Cache(None))
    resolver = _project(tmp_path, {"data.csv": uneven})
    for extra, settings, warned in (
        ("", {}, True),
        ("mixed_candidates: true\n", {}, False),
        ("", {"mixed_candidates": True}, False),
    ):
        pipeline = Pipeline(Settings(**settings), Cache(None))  # type: ignore[arg-type]
        [raw] = find_blocks(f"```selfattn\ncsv: data.csv\ndocument: m\n{extra}```\n")
        spec = parse_block(raw)
        assert spec.example is not None
        example = pipeline.load(spec.example, resolver)
        assert bool(example.shared_warnings) is warned, (extra, settings)


def test_mixed_candidates_must_be_a_boolean() -> None:
    [raw] = find_blocks("```selfattn\ncsv: d.csv\ndocument: m\nmixed_candidates: yes please\n```")
    with pytest.raises(BlockError) as caught:
        parse_block(raw)
    assert (str(caught.value), caught.value.line) == (
        "'mixed_candidates': expected true or false, got text 'yes please'",
        4,
    )


# ---------------------------------------------------------------------------------------------
# Labels that collide


def test_an_exact_token_wins_over_another_tokens_label(tmp_path: Path) -> None:
    example = _example(tmp_path, TWO_TARGETS, "display: {a: b}\n")
    first = document_of(example.result).targets[0]
    weight_b = next(c.weight for c in first.candidates if c.token == "b")
    weight_a = next(c.weight for c in first.candidates if c.token == "a")
    assert _inline(example, "weight t b") == repr(round(weight_b, 3))  # never a + b
    assert _inline(example, "weight t a") == repr(round(weight_a, 3))


def test_a_label_two_candidates_share_is_refused(tmp_path: Path) -> None:
    example = _example(tmp_path, TWO_TARGETS, "display: {a: X, c: X}\n")
    assert _inline_error(example, "weight t X") == (
        "inline value 'ex weight': 'X' is the label of several candidates ('a', 'c'); write the "
        "CSV token to say which"
    )


def test_a_target_label_never_answers_for_another_target(tmp_path: Path) -> None:
    example = _example(tmp_path, TWO_TARGETS, "display: {t: u}\n")
    assert _inline(example, "top u") == "a"  # target u itself (its top is a), not t (c)
    shared = _example(tmp_path, TWO_TARGETS, "display: {t: Z, u: Z}\n")
    assert _inline_error(shared, "top Z") == (
        "inline value 'ex top': 'Z' is the label of several targets ('t', 'u'); write the CSV "
        "token to say which"
    )


def test_labels_read_by_candidates_are_suggested(tmp_path: Path) -> None:
    example = _example(tmp_path, TWO_TARGETS, "display: {c: cherry}\n")
    assert _inline_error(example, "weight t chery") == (
        "inline value 'ex weight': 'chery' is not a candidate of target 't' (did you mean "
        "'cherry'?); candidates: a, b, c"
    )


def test_two_tokens_with_one_label_are_told_apart_in_figures(tmp_path: Path) -> None:
    example = _example(tmp_path, TWO_TARGETS, "display: {a: X, c: X, b: B}\n")
    labels = example.labels
    assert [labels(t) for t in ("a", "b", "c")] == ["X (a)", "B", "X (c)"]
    assert [labels.label(t) for t in ("a", "b", "c")] == ["X", "B", "X"]  # tables add the token
    assert "X #40;a#41; · B · X #40;c#41;" in render_mermaid(example.result, labels)
    svg = render_chart(example.result, labels).svg
    assert ">X (a)<" in svg
    assert ">X (c)<" in svg
    # The printout is what the example script prints, with the labels as written.
    assert "X (a)" not in example.printout
    clash = _example(tmp_path, TWO_TARGETS, "display: {a: b}\n")
    assert [clash.labels(t) for t in ("a", "b")] == ["b (a)", "b"]


# ---------------------------------------------------------------------------------------------
# Script mismatch: the whole diff


def test_a_mismatch_keeps_the_whole_diff_for_the_page(tmp_path: Path) -> None:
    printout = _example(tmp_path, TWO_TARGETS).printout
    lines = printout.splitlines()
    wrong = "\n".join(f"{line} <x>" if n % 2 else line for n, line in enumerate(lines)) + "\n"
    script = f"print({wrong!r}, end='')\n"
    resolver = _project(tmp_path, {"data.csv": TWO_TARGETS, "s.py": script})
    [raw] = find_blocks("```selfattn\ncsv: data.csv\ndocument: m\nscript: s.py\n```\n")
    spec = parse_block(raw)
    assert spec.example is not None
    pipeline = Pipeline(Settings(), Cache(None))
    with pytest.raises(ScriptError) as caught:
        pipeline.load(spec.example, resolver)
    diff = caught.value.diff
    assert diff is not None
    changed = len(lines) // 2
    assert diff.count("<x>") == changed
    assert "more diff lines: the page and --verbose show them all)" in str(caught.value)
    html = error_html(str(caught.value), diff)
    assert '<details class="selfattn-diff">' in html
    assert "<x>" not in html
    assert html.split("<details", 1)[1].count(" &lt;x&gt;") == changed  # every changed line


# ---------------------------------------------------------------------------------------------
# The mermaid fence


def test_a_mermaid_view_without_the_fence_is_a_block_problem(tmp_path: Path) -> None:
    page = "```selfattn\nid: ex\ncsv: data.csv\ndocument: m\nshow: [table, mermaid]\n```\n"
    out = _expand(tmp_path, page, {"data.csv": TWO_TARGETS}, mermaid_fence=False)
    assert [(p.line, p.message, p.once) for p in out.problems] == [
        (1, MERMAID_FENCE_MISSING, MERMAID_FENCE_MISSING)
    ]
    assert MERMAID_FENCE_MISSING == (
        "the 'mermaid' view needs pymdownx.superfences with a 'mermaid' custom fence, which "
        "mkdocs.yml does not configure; add to its markdown_extensions: - pymdownx.superfences: "
        "{custom_fences: [{name: mermaid, class: mermaid, "
        "format: !!python/name:pymdownx.superfences.fence_code_format}]}"
    )
    assert "```mermaid" not in out.markdown
    out = _expand(tmp_path, page.replace(", mermaid", ""), {}, mermaid_fence=False)
    assert out.problems == []


def test_a_label_in_targets_points_at_its_token(tmp_path: Path) -> None:
    page = (
        "```selfattn\nid: ex\ncsv: data.csv\ndocument: m\ntargets: [T, u]\ndisplay: {t: T}\n```\n"
    )
    out = _expand(tmp_path, page, {"data.csv": TWO_TARGETS})
    assert [(p.line, p.message) for p in out.problems] == [
        (
            5,
            "docs/data.csv: target(s) 'T' not found in document 'm' (did you mean 't'?); its "
            "targets are 't', 'u'; 'T' is the display label of 't': write the CSV token",
        )
    ]


def test_a_use_after_an_unreadable_block_says_it_may_be_the_one(tmp_path: Path) -> None:
    page = (
        "```selfattn\n{id: [feared\n```\n\n```selfattn\nuse: feared\n```\n\n"
        "`{selfattn} feared top t`"
    )
    out = _expand(tmp_path, page, {"data.csv": TWO_TARGETS})
    assert [p.message for p in out.problems][1:] == [
        "'use: feared' names no example defined above (the block of line 1 could not be read: "
        "fix it first if it defines 'feared'); ids on this page: none yet",
        "inline value 'feared top': no example with id 'feared' on this page (the block of line "
        "1 could not be read: fix it first if it defines 'feared'); ids: none",
    ]


_NAMES = ("a", "b", "c", "d", "X", "Y")


@hypothesis_settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from("abcd"), st.sampled_from(_NAMES), max_size=4))
def test_any_labels_name_one_token_or_are_refused(display: dict[str, str]) -> None:
    """Whatever labels an author gives, an inline name means exactly one token (the CSV token
    first, else the one token with that label) or is refused; and figures never show two
    tokens under one name."""
    rows = [HEADER] + [f"m,t,{tok},r,{n},{n}" for n, tok in enumerate("abcd", start=1)]
    result = compute_targets(parse_table("\n".join(rows).encode(), source="p.csv"), "m")
    labels = Labels(display).for_result(result)
    example = cast(Example, SimpleNamespace(result=result, labels=labels))
    weights = {c.token: c.weight for c in document_of(result).targets[0].candidates}
    for name in _NAMES:
        owners = [tok for tok in "abcd" if display.get(tok) == name]
        if name in weights:
            assert _inline(example, f"weight t {name}") == repr(round(weights[name], 3))
        elif len(owners) == 1:
            assert _inline(example, f"weight t {name}") == repr(round(weights[owners[0]], 3))
        elif owners:
            assert "is the label of several candidates" in _inline_error(
                example, f"weight t {name}"
            )
        else:
            assert "is not a candidate of target 't'" in _inline_error(example, f"weight t {name}")
    shown = [labels(tok) for tok in "abcd"]
    assert len(set(shown)) == len(shown), shown
    for token, name in zip("abcd", shown, strict=True):
        assert name == token or name not in "abcd", (token, name)  # never another token's name


QUESTIONS = "\n".join(["line_id,section,evidence,score_a", "L1,s,1,1", "L2,s,2,2"])


@pytest.mark.parametrize(
    ("csv", "block", "key_line", "message"),
    [
        (
            TWO_TARGETS,
            "csv: data.csv\ndocument: m\ncolumns: {target_index: target_token}\n",
            7,
            "docs/data.csv: column 'target_token' is both the target (text, by default) and the "
            "target_index (a number) in the column mapping; map each to a column of its own",
        ),
        (
            QUESTIONS,
            "csv: data.csv\ncolumns: {candidate: line_id, role: section}\n"
            "vectors: [evidence]\nqueries: {a: score_a, b: section}\n",
            8,
            "docs/data.csv:1: 'b' reads column 'section', which is the role column (text); "
            "name a column of numbers",
        ),
    ],
    ids=["targets", "questions"],
)
def test_a_column_that_is_both_a_name_and_a_number_is_one_message_at_its_key(
    tmp_path: Path, csv: str, block: str, key_line: int, message: str
) -> None:
    page = f"# Page\n\n```selfattn\nid: ex\n{block}```\n\n`{{selfattn}} ex top t`\n"
    out = _expand(tmp_path, page, {"data.csv": csv})
    assert [(p.line, p.lines) for p in out.problems] == [
        (key_line, [message, "1 more use of example 'ex' on this page skipped"])
    ]
