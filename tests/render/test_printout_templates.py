"""Printouts as Jinja2 templates: the defaults print what the course scripts print, the drafts'
templates match their scripts, and a broken template is one located message."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest
from figure_fixtures import engine_record
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.core.results import (
    CandidateResult,
    DocumentResult,
    TargetResult,
    document_of,
)
from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.render.labels import Labels, py_list, py_round
from mkdocs_selfattn.render.printout import render_printout
from mkdocs_selfattn.render.template_env import MAX_OUTPUT, TemplateError
from tests.reading_fixtures import (
    HEADS_CSV,
    MANUAL_CSV,
    heads_reading,
    manual_reading,
    questions_reading,
    report_reading,
)
from tests.reference_layouts import format_heads, format_questions, head_layout, question_layout

ROOT = Path(__file__).resolve().parents[2]
DRAFTS = ROOT / "tests" / "drafts"


def legacy_printout(result: DocumentResult, labels: Labels) -> str:
    """P5-13.2's printout as render/printout.py wrote it before templates (kept verbatim)."""
    label = labels
    lines = [
        f"csv_rows = {result.csv_rows}",
        f"focus_document_rows = {result.document_rows}",
        f"baseline_representation = {py_list(result.baseline)}",
        "",
    ]
    for target in result.targets:
        lines.append(f"target_token = {label(target.target, target.target_index)}")
        for cand in target.candidates:
            lines.append(
                f"{label(cand.token, cand.index)} weight = {py_round(cand.weight)} "
                f"role = {cand.role} vector = {py_list(cand.vector)}"
            )
        lines.append(f"new_representation = {py_list(target.context)}")
        lines.append(f"representation_shift = {py_list(target.shift)}")
        lines.append(f"top_token = {label(target.top, target.top_index)}")
        for name, weight in target.groups:
            lines.append(f"{name}_weight = {py_round(weight)}")
        lines.append("")
    return "\n".join(lines) + "\n"


def script_output(name: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "examples" / name)],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode("utf-8")


# ----------------------------------------------------------------- targets: byte for byte as before

_TEXT = st.text(st.characters(blacklist_categories=["Cs"]), max_size=8)
_NUMBER = st.floats(allow_nan=True, allow_infinity=True, width=64)


@st.composite
def document_results(draw: st.DrawFn) -> DocumentResult:
    dims = draw(st.integers(0, 3))
    vector = st.lists(_NUMBER, min_size=dims, max_size=dims).map(tuple)
    index = st.none() | st.integers(-3, 40)

    def candidate() -> CandidateResult:
        return CandidateResult(
            draw(_TEXT), draw(index), draw(_TEXT), draw(_NUMBER), draw(_NUMBER), draw(vector)
        )

    targets = []
    for _ in range(draw(st.integers(0, 3))):
        cands = tuple(candidate() for _ in range(draw(st.integers(1, 4))))  # a group has a row
        top = draw(st.sampled_from(cands)) if cands and draw(st.booleans()) else None
        names = draw(st.lists(_TEXT, max_size=2, unique=True))  # a YAML mapping's keys
        groups = tuple((name, draw(_NUMBER)) for name in names)
        targets.append(
            TargetResult(
                target=draw(_TEXT),
                target_index=draw(index),
                candidates=cands,
                context=draw(vector),
                shift=draw(vector),
                top=top.token if top else draw(_TEXT),
                top_index=top.index if top else draw(index),
                groups=groups,
            )
        )
    return DocumentResult(
        source="x.csv",
        csv_rows=draw(st.integers(0, 10**6)),
        document=draw(_TEXT),
        document_rows=draw(st.integers(0, 10**6)),
        vector_columns=tuple(f"v{i}" for i in range(dims)),
        baseline=draw(vector),
        targets=tuple(targets),
        temperature=1.0,
    )


@settings(max_examples=300, deadline=None)
@given(result=document_results(), display=st.dictionaries(_TEXT, _TEXT, max_size=3))
def test_targets_default_template_is_the_old_printout(
    result: DocumentResult, display: dict[str, str]
) -> None:
    # The engine's record of the document; its view derives the top candidate from the weights.
    record = engine_record(result)
    labels = Labels(display).for_result(record).as_written()
    assert render_printout(record, labels) == legacy_printout(document_of(record), labels)


def test_targets_default_template_matches_the_seed_golden() -> None:
    from mkdocs_selfattn.blocks.markdown_scan import find_blocks
    from mkdocs_selfattn.blocks.spec import parse_block
    from mkdocs_selfattn.build.jobs import ComputeRequest, compute
    from tests.sites import SEED_PRINTOUT

    block = find_blocks(
        "```selfattn\nid: memo\ncsv: x.csv\ndocument: memo_cap_missing\n"
        "targets: [그것, 씌우지]\n"
        "display: {배터리팩: 电池包, 분리: 分离, 절연캡: 绝缘帽, 씌우지: 未套上, "
        "그것: 它, 위험: 风险}\n"
        "groups: {cap_plus_not_applied: [절연캡, 씌우지]}\n```\n"
    )[0]
    spec = parse_block(block).example
    assert spec is not None
    data = ROOT / "docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"
    result = compute(ComputeRequest.of("k", spec, data.read_bytes(), "x.csv"))
    assert result.layout == "targets"
    labels = Labels(dict(spec.display)).for_result(result).as_written()
    expected = SEED_PRINTOUT.read_text(encoding="utf-8")
    legacy = legacy_printout(document_of(result), labels)
    assert render_printout(result, labels) == expected == legacy


# ------------------------------------------------------------ questions and heads: the scripts


def test_default_templates_print_what_the_course_scripts_print() -> None:
    assert render_printout(manual_reading()) == script_output("attention_manual_lines.py")
    assert render_printout(report_reading()) == script_output("multihead_report_scenarios.py")


def _draft_block(page: str) -> dict[str, object]:
    import re

    import yaml

    text = (DRAFTS / page).read_text(encoding="utf-8")
    match = re.search(r"^```selfattn\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    assert match
    block: dict[str, object] = yaml.safe_load(match.group(1))
    return block


@pytest.mark.parametrize(
    ("page", "script"),
    [
        ("p5-13-1-attention.md", "attention_manual_lines.py"),
        ("p5-13-3-qkv-multihead.md", "multihead_report_scenarios.py"),
    ],
)
def test_the_drafts_templates_match_their_scripts(page: str, script: str) -> None:
    block = _draft_block(page)
    result = manual_reading() if "queries" in block else report_reading()
    display = block.get("display", {})
    assert isinstance(display, dict)
    template = block["template"]
    assert isinstance(template, str)
    assert render_printout(result, Labels(display), template) == script_output(script)


_SCORE = st.sampled_from(["0", "1", "3.00", "-2.5", "2", "0.5", "-0.25", "10"])


@settings(max_examples=80, deadline=None)
@given(
    rows=st.lists(
        st.tuples(_SCORE, _SCORE, st.sampled_from(["1", "2.50", "-3", "0"])),
        min_size=1,
        max_size=12,
    ),
    top=st.integers(1, 5),
)
def test_questions_default_is_the_reference_format_on_any_data(
    rows: list[tuple[str, str, str]], top: int
) -> None:
    header = "line_id,section,evidence_signal,score_a,score_b\n"
    body = "".join(f"L{i:02},s{i % 3},{v},{a},{b}\n" for i, (a, b, v) in enumerate(rows))
    queries = {"question a?": "score_a", "question b?": "score_b"}
    result = questions_reading(header + body, queries=queries)
    dicts = list(csv.DictReader(io.StringIO(header + body)))
    expected = format_questions(question_layout(dicts, queries, "evidence_signal", top), dicts)
    assert render_printout(result, top=top) == expected


@settings(max_examples=60, deadline=None)
@given(
    scenarios=st.lists(
        st.lists(
            st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4)),
            min_size=1,
            max_size=4,
        ),
        min_size=1,
        max_size=3,
    )
)
def test_heads_default_is_the_reference_format_on_any_data(
    scenarios: list[list[tuple[int, int, int]]],
) -> None:
    header = "report_id,scenario,token,relation_role,decision_axis,evidence_axis,condition_axis,"
    header += "single_weight,head1_weight,head2_weight\n"
    body = ""
    for s, members in enumerate(scenarios):
        n = len(members)
        for t, (a, b, c) in enumerate(members):
            weights = ",".join(
                repr(1 / n) if t < n - 1 else repr(1 - (n - 1) * (1 / n)) for _ in "abc"
            )
            body += f"r1,sc{s},tok{t},role,{a},{b},{c}.0,{weights}\n"
    try:
        result = heads_reading(header + body, document="r1")
    except ValueError:
        return  # weights that do not sum to 1 within the tolerance: the engine's concern
    dicts = list(csv.DictReader(io.StringIO(header + body)))
    from tests.reading_fixtures import AXES, HEADS

    expected = format_heads(head_layout(dicts, HEADS, AXES), len(dicts), len(dicts))
    assert render_printout(result) == expected


def test_single_axis_quantities_are_numbers_and_cells_are_as_written() -> None:
    text = "{{ baseline }}|{{ queries[0].context | r3 }}|{{ lines[4].cells.evidence_signal }}|"
    text += "{{ lines[4].vector }}|{{ queries[0].top[0].rank }}|{{ queries[1].ranked[0].token }}"
    text += "|{{ groups[0].head('score_flow_limit').name }}"
    out = render_printout(manual_reading(), template=text)
    assert out == "6.88|4.685|3.0|3.0|1|L13|What is the coolant-flow criterion?"


def test_heads_variables() -> None:
    text = (
        "{{ heads }} {{ reference }} {{ groups[1].separation('head1_weight', 'head2') | r3 }} "
        "{{ groups[0].differences.head1 | r3 }} {{ groups[0].lines[2].weights.head2 }} "
        "{{ groups[0].lines[2].display }} {{ groups[0].display }}"
    )
    labels = Labels({"복귀조건": "恢复条件", "balanced_heads": "均衡"})
    out = render_printout(report_reading(), labels, text)
    result = report_reading()
    weight = result.groups[0].heads[2].weights[2]
    assert out == (
        f"['single_head', 'head1', 'head2'] single_head 1.14 [-0.1, -0.05] {weight} 恢复条件 均衡"
    )


def test_a_million_line_file_costs_only_what_the_template_reads() -> None:
    rows = "".join(f"L{i},s,{i % 7},{(i * 37) % 11},{i % 5}\n" for i in range(30_000))
    text = "line_id,section,evidence_signal,score_a,score_b\n" + rows
    result = questions_reading(text, queries={"a": "score_a", "b": "score_b"})
    out = render_printout(result, template="{{ queries[0].lines | length }} {{ lines[-1].token }}")
    assert out == "30000 L29999"


# ------------------------------------------------------------------------------- bad templates


def _error(template: str) -> str:
    with pytest.raises(TemplateError) as caught:
        render_printout(manual_reading(), template=template, line=57)
    assert caught.value.line == 57
    assert isinstance(caught.value, BlockError)
    return caught.value.message


def test_syntax_error_names_the_template_line() -> None:
    message = _error("a\n{% for q in queries %}\n{{ q.label }\n{% endfor %}\n")
    assert message.startswith("template line 3 `{{ q.label }`: unexpected '}'")


def test_undefined_variable_says_what_exists() -> None:
    message = _error("ok\n{{ csv_row }}\n")
    assert message.startswith(
        "template line 2 `{{ csv_row }}`: 'csv_row' is not a template variable "
        "(did you mean 'csv_rows'?); variables: "
    )
    assert "queries" in message


def test_undefined_attribute_and_column() -> None:
    message = _error("{% for q in queries %}\n{{ q.labl }}\n{% endfor %}")
    assert message.startswith("template line 2 `{{ q.labl }}`: a question has no 'labl'")
    assert "(did you mean 'label'?)" in message
    message = _error("{{ lines[0].cells.line_idd }}")
    assert "no CSV column 'line_idd' (did you mean 'line_id'?); it has: line_id, section" in message


def test_bad_filter_and_bad_r3_input() -> None:
    assert "no filter 'R3' (did you mean 'r3'?)" in _error("{{ baseline | R3 }}")
    assert "a question has no 'contxt' (did you mean 'context'?)" in _error(
        "{{ queries[0].contxt | r3 }}"
    )
    message = _error("x\n{{ queries[0].label | r3 }}")
    assert message.startswith("template line 2")
    assert "r3 rounds numbers or lists of numbers" in message


def test_the_sandbox_and_determinism() -> None:
    assert "not allowed in a printout template" in _error("{{ csv_rows.__class__ }}")
    assert "no filter 'random'" in _error("{{ [1, 2] | random }}")
    assert "not allowed in a printout template" in _error("{{ groups[0].contexts.clear() }}")
    assert "not allowed in a printout template" in _error("{{ axes.append('x') }}")
    assert "'lipsum' is not a template variable" in _error("{{ lipsum() }}")
    assert "template line 1" in _error("{% include 'x.txt' %}")
    assert "longer than" in _error("{% for i in range(99999) %}" + "x" * 200 + "{% endfor %}")
    assert MAX_OUTPUT < 99999 * 200
    first = render_printout(manual_reading())
    assert first == render_printout(manual_reading())


def test_endless_loops_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_selfattn.render import template_limits

    monkeypatch.setattr(template_limits, "MAX_STEPS", 50_000)
    endless = "{% for i in range(9999) %}{% for j in range(9999) %}{% endfor %}{% endfor %}"
    assert "template line 1" in _error(endless)
    assert "reads more than 50,000 items" in _error(endless)
    nested = "{% for a in lines %}{% for b in lines %}{% for c in queries[0].lines %}"
    nested += "{% endfor %}{% endfor %}{% endfor %}"
    assert "reads more than 50,000 items" in _error(nested)  # 40 x 40 x 40 lines
    weights = "{% for a in queries[0].weights %}{% for b in queries[0].weights %}"
    weights += "{% for c in queries[0].weights %}{% endfor %}{% endfor %}{% endfor %}"
    assert "reads more than 50,000 items" in _error(weights)
    assert "a template may read" in _error("{{ range(10**9) | length }}")
    out = render_printout(manual_reading(), template="{{ queries[0].weights[:2] | r3 }}")
    assert out == "[0.006, 0.006]"
    assert render_printout(manual_reading(), template="{{ range(3) | list }}") == "[0, 1, 2]"


def test_a_template_error_is_located_at_the_template_key_on_the_page() -> None:
    from mkdocs_selfattn.blocks.spec import BlockSpec, ExampleSpec, ViewOptions
    from mkdocs_selfattn.build.page import _problem

    spec = BlockSpec(
        line=10,
        view=ViewOptions(),
        example=ExampleSpec(id="m", csv="x.csv", document="d", line=10, key_lines={"template": 14}),
    )
    with pytest.raises(TemplateError) as caught:
        render_printout(manual_reading(), template="{{ nope }}")
    problem = _problem(caught.value, spec, 10)
    assert problem.line == 14
    assert problem.message.startswith("template line 1 `{{ nope }}`: 'nope' is not")


def test_data_files_exist() -> None:
    assert MANUAL_CSV.is_file()
    assert HEADS_CSV.is_file()


def test_questions_default_with_several_groups_names_each_group() -> None:
    import dataclasses

    one = manual_reading()
    other = dataclasses.replace(one.groups[0], name="second")
    two = dataclasses.replace(one, groups=(one.groups[0], other))
    out = render_printout(two)
    single = render_printout(one)
    assert (
        out == "[]\n" + single + "[second]\n" + single if False else out.startswith("\n") is False
    )
    assert out.splitlines()[0] == "[]"
    assert out.count("question = What is the pressure-release holding time?") == 2
    assert "[second]\nquestion = What is the pressure-release holding time?\n" in out


@pytest.mark.parametrize(
    ("heads", "separations"),
    [
        ({"a": "single_weight", "b": "head1_weight"}, ["head_separation = 0.112"]),
        (
            {"a": "single_weight", "b": "head1_weight", "c": "head2_weight", "d": "single_weight"},
            [
                "head_separation[b, c] = 0.335",
                "head_separation[b, d] = 0.112",
                "head_separation[c, d] = 0.224",
            ],
        ),
        ({"a": "single_weight"}, []),
    ],
)
def test_heads_default_for_other_numbers_of_heads(
    heads: dict[str, str], separations: list[str]
) -> None:
    result = heads_reading(HEADS_CSV.read_text(encoding="utf-8"), heads=heads)
    out = render_printout(result)
    first = out.split("\n\n")[1]
    assert [line for line in first.splitlines() if "separation" in line] == separations
    assert f"{'a_context'.ljust(max(map(len, heads)) + 8)} = [1.3, 0.9]" in first


def test_top_level_questions_names_of_several_groups_say_where_they_went() -> None:
    import dataclasses

    one = manual_reading()
    two = dataclasses.replace(one, groups=(one.groups[0], one.groups[0]))
    with pytest.raises(TemplateError) as caught:
        render_printout(two, template="{% for q in queries %}{% endfor %}")
    assert caught.value.message.endswith(
        "(with several groups: {% for g in groups %} and g.queries)"
    )


def test_a_targets_template_reads_the_candidates_cells_as_written() -> None:
    data = b"memo,target_token,candidate_token,candidate_role,x,score\n"
    data += b"d,it,cap,thing,1.50,2\nd,it,box,thing,0.5,1.0\ne,it,cap,thing,9,9\n"
    cands = (
        CandidateResult("cap", None, "thing", 2.0, 0.7, (1.5,)),
        CandidateResult("box", None, "thing", 1.0, 0.3, (0.5,)),
    )
    target = TargetResult("it", None, cands, (1.2,), (0.2,), "cap", None, ())
    result = engine_record(DocumentResult("x.csv", 3, "d", 2, ("x",), 1.0, (1.0,), (target,)))
    template = (
        "{% for c in targets[0].candidates %}{{ c.cells.x }}/{{ c.cells.score }} {% endfor %}"
    )
    out = render_printout(result, template=template, csv_bytes=data, columns={"document": "memo"})
    assert out == "1.50/2 0.5/1.0 "
    with pytest.raises(TemplateError, match=r"c\.cells needs the example's CSV"):
        render_printout(result, template="{{ targets[0].top.cells.x }}")


def test_separation_and_head_of_unknown_names() -> None:
    with pytest.raises(TemplateError) as caught:
        render_printout(report_reading(), template='a\n{{ groups[0].separation("head1", "hed2") }}')
    assert caught.value.message == (
        'template line 2 `{{ groups[0].separation("head1", "hed2") }}`: separation: no head '
        "'hed2' in group 'balanced_heads' (did you mean 'head2'?); heads: single_head, head1, head2"
    )
    with pytest.raises(TemplateError, match="did you mean 'head1_weight'"):
        render_printout(report_reading(), template='{{ groups[0].head("head1_weigth") }}')
