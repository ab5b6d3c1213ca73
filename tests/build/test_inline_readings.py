"""Inline values of the questions and heads layouts: every inline value of the drafts gives what
the plain-Python reference gives (tests/drafts/inline_values.py), and wrong names say what
exists."""

from __future__ import annotations

import dataclasses
import html
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.blocks.spec import ExampleSpec
from mkdocs_selfattn.build.example import Example, ResolvedFile
from mkdocs_selfattn.build.inline import InlineValue, find_inline_values, inline_value
from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.render.labels import Labels
from tests.reading_fixtures import HEADS_CSV, MANUAL_CSV, heads_reading, questions_reading

ROOT = Path(__file__).resolve().parents[2]
DRAFTS = ROOT / "tests" / "drafts"
sys.path.insert(0, str(DRAFTS))
from inline_values import evaluate  # noqa: E402


def _blocks(page: Path) -> dict[str, dict[str, Any]]:
    text = page.read_text(encoding="utf-8")
    found = {}
    for body in re.findall(r"^```selfattn\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        block = yaml.safe_load(body)
        if "id" in block:
            found[block["id"]] = block
    return found


def _flat(text: str, columns: list[str], temperature: float) -> str:
    """The CSV with its score columns divided by the temperature (as drafts/inline_values.py)."""
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(text)))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, **{c: repr(float(row[c]) / temperature) for c in columns}})
    return out.getvalue()


def example_of(block: dict[str, Any], result: ReadingResult) -> Example:
    spec = ExampleSpec(
        id=block["id"],
        csv=block["csv"],
        document=block.get("document", ""),
        line=1,
        display=block.get("display", {}),
        groups={k: tuple(v) for k, v in block.get("groups", {}).items()},
    )
    return Example(
        spec=spec,
        csv=ResolvedFile(Path("x.csv"), "x.csv"),
        csv_bytes=b"",
        result=result,  # type: ignore[arg-type]
        labels=Labels(dict(spec.display)),
        printout="",
        script=None,
        script_text=None,
        script_output=None,
        key="k",
    )


def examples_of(page: Path) -> dict[str, Example]:
    found = {}
    for name, block in _blocks(page).items():
        if "queries" in block:
            text = MANUAL_CSV.read_text(encoding="utf-8")
            temperature = float(block.get("temperature", 1))
            if temperature != 1:
                text = _flat(text, list(block["queries"].values()), temperature)
            result = questions_reading(text, queries=block["queries"], groups=block.get("groups"))
        else:
            result = heads_reading(HEADS_CSV.read_text(encoding="utf-8"), block["document"])
        found[name] = example_of(block, result)
    return found


def fill(page: Path, examples: dict[str, Example]) -> list[tuple[int, str]]:
    text = page.read_text(encoding="utf-8")
    values = find_inline_values(text)
    lines = text.splitlines()
    by_line: dict[int, list[InlineValue]] = {}
    for value in values:
        assert isinstance(value, InlineValue), value
        by_line.setdefault(value.line, []).append(value)
    offsets = [0]
    for line in text.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    filled = []
    for number, items in sorted(by_line.items()):
        line = lines[number - 1]
        base = offsets[number - 1]
        for item in reversed(items):
            shown = html.unescape(inline_value(item, examples))
            line = line[: item.start - base] + shown + line[item.end - base :]
        filled.append((number, line))
    return filled


@pytest.mark.parametrize("page", ["p5-13-1-attention.md", "p5-13-3-qkv-multihead.md"])
def test_every_inline_value_of_the_drafts_matches_the_reference(page: str) -> None:
    path = DRAFTS / page
    ours = fill(path, examples_of(path))
    reference = evaluate(path)
    assert len(ours) == len(reference) > 10
    assert ours == reference


def _value(example: Example, source: str) -> str:
    [item] = find_inline_values(f"`{{selfattn}} {source}`")
    if isinstance(item, BlockError):
        raise item
    return inline_value(item, {example.spec.id or "": example})


def _manual() -> Example:
    return examples_of(DRAFTS / "p5-13-1-attention.md")["manual"]


def _heads() -> Example:
    return examples_of(DRAFTS / "p5-13-3-qkv-multihead.md")["heads"]


def test_more_quantities() -> None:
    manual, heads = _manual(), _heads()
    assert _value(manual, "manual cell L05 evidence_signal") == "3.0"
    assert _value(manual, "manual rank score_pressure_hold L05") == "2"
    assert _value(manual, "manual top score_pressure_hold 2") == "L05"
    assert _value(manual, "manual vector L05") == "3.0"
    assert _value(manual, "manual axes") == "evidence&#95;signal"
    assert _value(manual, "manual context 泄压后要保持多久？ :.2f") == "4.68"
    assert _value(manual, "manual context score_pressure_hold evidence_signal") == "4.685"
    assert _value(heads, "heads tokens balanced_heads") == "停机决定, 压力异常, 恢复条件"
    assert _value(heads, 'heads cell "两个 head 均衡" 복귀조건 token') == "복귀조건"
    assert _value(heads, "heads baseline balanced_heads decision_axis") == "1.333"
    assert _value(heads, "heads context balanced_heads head1 evidence_condition_axis") == "0.85"
    assert _value(heads, 'heads separation balanced_heads "head 1" head2_weight') == "0.335"
    assert _value(heads, "heads rank balanced_heads head2 복귀조건") == "1"


@pytest.mark.parametrize(
    ("source", "words"),
    [
        (
            "manual context score_presure_hold",
            ["no question 'score_presure_hold'", "did you mean 'score_pressure_hold'?"],
        ),
        (
            "manual weight score_pressure_hold L100",
            ["no line 'L100'", "did you mean 'L10'?", "… and 28 more"],
        ),
        (
            "manual baseline evidence",
            ["'evidence' is not an axis", "did you mean 'evidence_signal'?"],
        ),
        ("manual group score_pressure_hold pressure", ["no group 'pressure'", "pressure_lines"]),
        ("manual group_size coolant", ["did you mean 'coolant_lines'?"]),
        (
            "manual cell L05 evidence",
            ["no CSV column 'evidence'", "did you mean 'evidence_signal'?"],
        ),
        ("manual top score_pressure_hold 41", ["rank '41' must be a whole number from 1 to 40"]),
        ("manual top score_pressure_hold :.1%", ["text, so a :FORMAT does not apply"]),
        ("manual separation a b c", ["not a quantity of the questions layout"]),
        # `context` is a targets quantity too (TARGET [COLUMN]): every layout's form is listed
        ("manual context", ["`{selfattn} manual context QUESTION [AXIS] (questions)`"]),
        (
            "heads context balanced head1",
            ["no group (scenario) 'balanced'", "did you mean 'balanced_heads'?"],
        ),
        ("heads context balanced_heads head3", ["no head 'head3'", "did you mean 'head2'?"]),
        ("heads weight balanced_heads head1 복귀", ["no line '복귀'", "did you mean '복귀조건'?"]),
        ("heads context head1", ["write it as `{selfattn} heads context GROUP HEAD [AXIS]`"]),
    ],
)
def test_wrong_names_say_what_exists(source: str, words: list[str]) -> None:
    example = _manual() if source.startswith("manual") else _heads()
    with pytest.raises(BlockError) as caught:
        _value(example, source)
    for word in words:
        assert word in caught.value.message, caught.value.message


def test_a_questions_example_of_several_groups_takes_the_group_first() -> None:
    text = "doc,line_id,section,evidence_signal,score_a\n"
    text += "".join(f"d,L{i},s,{i},{i % 3}\n" for i in range(4))
    result = questions_reading(text, queries={"a?": "score_a"}, candidate="line_id")
    other = dataclasses.replace(result.groups[0], name="d2")
    two = dataclasses.replace(result, groups=(*result.groups, other))
    example = example_of({"id": "m", "csv": "x.csv"}, two)
    with pytest.raises(BlockError, match="context GROUP QUESTION"):
        _value(example, "m context a?")
    assert _value(example, "m context d2 a? :.3f") == format(
        result.groups[0].heads[0].context[0], ".3f"
    )


def test_a_targets_example_refuses_reading_quantities() -> None:
    from mkdocs_selfattn.core.results import DocumentResult

    example = example_of({"id": "m", "csv": "x.csv"}, _heads().result)
    empty = DocumentResult("x", 1, "d", 1, (), 1.0, (), ())
    targets = Example(**{**example.__dict__, "result": empty})
    # (the message once said "of the questions and heads layouts": questions have none)
    with pytest.raises(
        BlockError, match="'separation' is not a quantity of the targets layout but of the heads"
    ):
        _value(targets, "m separation a b c")
    with pytest.raises(BlockError, match=r"write it as `\{selfattn\} m top TARGET \[RANK\]`"):
        _value(targets, "m top a 2 3")


_CELL = st.sampled_from(["0", "1", "3.00", "-2.5", "2", "0.5", "1.0"])


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(_CELL, _CELL), min_size=1, max_size=9), data=st.data())
def test_questions_values_agree_with_the_reference_on_any_data(
    rows: list[tuple[str, str]], data: st.DataObject
) -> None:
    import csv
    import io

    from tests.reference_layouts import question_layout

    text = "line_id,section,evidence_signal,score_a\n"
    text += "".join(f"L{i},s,{v},{a}\n" for i, (a, v) in enumerate(rows))
    result = questions_reading(text, queries={"a?": "score_a"})
    example = example_of({"id": "m", "csv": "x.csv"}, result)
    dicts = list(csv.DictReader(io.StringIO(text)))
    reference = question_layout(dicts, {"a?": "score_a"}, "evidence_signal", len(rows))
    question = reference["questions"]["a?"]
    line = data.draw(st.integers(0, len(rows) - 1))
    rank = data.draw(st.integers(1, len(rows)))
    assert _value(example, f"m weight score_a L{line} :.17g") == format(
        question["weights"][line], ".17g"
    )
    assert _value(example, f"m top a? {rank}") == f"L{question['top'][rank - 1]}"
    assert _value(example, f"m rank a? L{question['top'][rank - 1]}") == str(rank)
    assert _value(example, "m context a? :.12g") == format(question["context"], ".12g")
