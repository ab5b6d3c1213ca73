"""The one table of inline quantities (build/inline_quantities.py), read through each layout's
form in the layout registry: every layout answers every quantity it offers from its record, in
its own words, and `TOKEN@N` follows one rule in every layout."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest

from mkdocs_selfattn.build.example import Example
from mkdocs_selfattn.build.inline import InlineValue, find_inline_values, inline_value
from mkdocs_selfattn.build.inline_quantities import QUANTITIES, Arg, InlineForm
from mkdocs_selfattn.build.layouts import LAYOUTS
from mkdocs_selfattn.core.readings import GroupResult, ReadingResult
from mkdocs_selfattn.errors import BlockError
from tests.block_examples import load_example

OFFERED = [(name, q) for name, layout in LAYOUTS.items() for q in layout.inline.quantities]


def _inline(example: Example, text: str) -> str:
    [item] = find_inline_values(f"`{{selfattn}} ex {text}`")
    assert isinstance(item, InlineValue), item
    return inline_value(item, {"ex": example})


def _error(example: Example, text: str) -> str:
    with pytest.raises(BlockError) as caught:
        _inline(example, text)
    return caught.value.message


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '\\"') + '"'


def _line_name(group: GroupResult, i: int) -> str:
    """The line as an author names it: its token, with ``@N`` when the token repeats."""
    line = group.lines[i]
    if sum(1 for other in group.lines if other.token == line.token) == 1:
        return line.token
    return f"{line.token}@{line.row if line.index is None else line.index}"


def _case(form: InlineForm, name: str, example: Example) -> tuple[list[str], str] | None:
    """Arguments of a correct value of ``name``, and what it must be, from the record itself."""
    result: ReadingResult = example.result
    group = result.groups[-1] if form.takes_group(name, result) else result.groups[0]
    head = group.heads[-1]
    if form.kind.readers_are_tokens:
        repeated = sum(1 for g in result.groups if g.name == group.name) > 1
        reader = f"{group.name}@{group.index}" if repeated else group.name
    else:
        reader = head.name
    i = max(range(len(group.lines)), key=lambda k: (head.weights[k], -k))
    named = dict(example.spec.groups)
    words: list[str] = [group.name] if form.takes_group(name, result) else []
    for arg, _optional in QUANTITIES[name].args:
        if arg is Arg.READER:
            words.append(reader if name != "separation" else group.heads[len(words) - 1].name)
        elif arg is Arg.LINE:
            words.append(_line_name(group, i))
        elif arg is Arg.AXIS:
            words.append(result.axis_names[-1])
        elif arg is Arg.NAME:
            if not named:
                return None
            words.append(next(iter(named)))
        elif arg is Arg.RANK:
            words.append("1")
        elif arg is Arg.COLUMN:
            words.append(result.columns[0])
    axis = len(result.axis_names) - 1
    expected: dict[str, Any] = {
        "csv_rows": result.csv_rows,
        "document_rows": result.document_rows,
        "baseline": group.baseline[axis],
        "baseline_weight": 1 / len(group.lines),
        "weight": head.weights[i],
        "score": head.values[i],
        "rank": 1,
        "context": head.context[axis],
        "representation": head.context[axis],
        "shift": head.shift[axis],
        "difference": head.difference[axis] if head.difference else None,
        "vector": group.lines[i].vector[axis],
        "group": dict(head.groups).get(next(iter(named), ""), 0.0),
        "group_size": len(next(iter(named.values()), ())),
        "separation": group.separation(group.heads[0].name, group.heads[1].name)
        if len(group.heads) > 1
        else None,
    }
    if name in ("top",):
        return words, example.labels(group.lines[i].token, group.lines[i].index)
    if name == "axes":
        return words, ", ".join(result.axis_names)
    if name == "tokens":
        return words, ", ".join(example.labels(ln.token, ln.index) for ln in group.lines)
    if name == "cell":
        return words, group.lines[i].cells[0]
    value = expected[name]
    if value is None:
        return None
    return [*words, ":.9f"], format(value, ".9f")


@pytest.mark.parametrize(("layout", "name"), OFFERED)
def test_every_layout_answers_every_quantity_it_offers_from_its_record(
    layout: str, name: str, examples: dict[str, Any]
) -> None:
    pipeline, example = examples[layout]
    form = LAYOUTS[layout].inline
    if not example.spec.groups:
        from dataclasses import replace

        from mkdocs_selfattn.cli.run import _CommandLineFiles

        first = example.result.groups[0].lines[0].token
        spec = replace(example.spec, groups={"first": (first,)})
        example = pipeline.load(spec, _CommandLineFiles())
    case = _case(form, name, example)
    if case is None:
        pytest.fail(f"the {layout} course example cannot ask for {name}")
    words, expected = case
    text = " ".join([name, *(w if w.startswith(":") else _quoted(w) for w in words)])
    answered = _inline(_as_ex(example), text)
    assert html.unescape(answered.replace("\\", "")) == expected, (layout, text)


def _as_ex(example: Example) -> Example:
    from dataclasses import replace

    return replace(example, spec=replace(example.spec, id="ex"))


def test_every_quantity_of_the_table_is_offered_by_a_layout() -> None:
    offered = {name for _, name in OFFERED}
    assert offered == set(QUANTITIES)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_quantity_the_layout_lacks_names_the_layouts_that_have_it(
    layout: str, examples: dict[str, Any]
) -> None:
    form = LAYOUTS[layout].inline
    lacking = [name for name in QUANTITIES if name not in form.quantities]
    assert lacking, layout
    example = _as_ex(examples[layout][1])
    for name in lacking:
        others = [n for n, entry in LAYOUTS.items() if name in entry.inline.quantities]
        # written as its layouts write it without a GROUP (`separation hold flow`)
        low = sum(1 for _, optional in QUANTITIES[name].args if not optional)
        message = _error(example, " ".join([name, *"abcd"[:low]]))
        assert f"'{name}' is not a quantity of the {layout} layout but of the" in message
        assert all(other in message for other in others), message
        assert message.endswith("quantities: " + ", ".join(form.quantities))


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_wrong_number_of_arguments_shows_this_layouts_usage(
    layout: str, examples: dict[str, Any]
) -> None:
    example = _as_ex(examples[layout][1])
    form = LAYOUTS[layout].inline
    grouped = form.takes_group("weight", example.result)
    low, high = form.arity("weight", grouped)
    # a count some layout takes (so the value is read) but not this example's
    fits = [entry.inline.arity("weight") for entry in LAYOUTS.values()]
    count = next(n for n in range(8) if not low <= n <= high and any(a <= n <= b for a, b in fits))
    message = _error(example, " ".join(["weight", *"abcdefgh"[:count]]))
    assert message.endswith(f"write it as `{{selfattn}} ex {form.usage('weight', grouped)}`")
    assert form.reader in message
    assert form.line in message


# ---------------------------------------------------------------------------------------------
# TOKEN@N: the position where the file has index columns, else the data row, in every layout

TARGETS = "document_id,target_token,candidate_token,candidate_role,v,score\n"
QUESTIONS = "line_id,section,v,score_a\n"


QUESTIONS_BLOCK = "columns: {candidate: line_id, role: section}\nvectors: [v]\n"


@pytest.mark.parametrize(
    ("csv", "block", "reader", "numbers"),
    [
        # a target re-reading candidate 'a' at positions 1 and 3 (index columns)
        (
            "document_id,target_token,target_index,candidate_token,candidate_index,"
            "candidate_role,v,score\n"
            "m,t,0,a,1,r,1,1\nm,t,0,b,2,r,2,2\nm,t,0,a,3,r,3,3\n",
            "document: m\n",
            "t",
            (1, 3),
        ),
        # a line id on data rows 0 and 2 of a questions file (no index columns)
        (
            QUESTIONS + "a,s,1,1\nb,s,2,2\na,s,3,3\n",
            QUESTIONS_BLOCK + "queries: {q: score_a}\n",
            "q",
            (0, 2),
        ),
    ],
)
def test_a_repeated_token_is_written_with_one_rule_in_every_layout(
    tmp_path: Path, csv: str, block: str, reader: str, numbers: tuple[int, int]
) -> None:
    example = load_example(tmp_path, csv, block)
    (head,) = example.result.groups[0].heads
    first, last = numbers
    message = _error(example, f"weight {reader} a")
    assert f"'a' occurs more than once; write one of a@{first}, a@{last}" in message
    assert _inline(example, f"weight {reader} a@{last} :.9f") == format(head.weights[2], ".9f")
    assert _inline(example, f"weight {reader} a@{first} :.9f") == format(head.weights[0], ".9f")
    assert _inline(example, f"rank {reader} a@{last}") == "1"
    assert f"'a@{last + 1}'" in _error(example, f"weight {reader} a@{last + 1}")


def test_a_label_two_heads_share_is_refused_not_picked(tmp_path: Path) -> None:
    example = load_example(
        tmp_path,
        QUESTIONS.replace("score_a", "score_a,score_b") + "a,s,1,1,2\nb,s,2,2,1\n",
        QUESTIONS_BLOCK + "queries: {q: score_a, r: score_b}\ndisplay: {q: Q, r: Q}\n",
    )
    message = _error(example, "weight Q a")
    assert message.endswith(
        "'Q' is the label of several questions ('q', 'r'); write the name to say which"
    )


def test_a_one_axis_vector_is_a_list_where_the_layouts_printout_prints_lists(
    tmp_path: Path,
) -> None:
    targets = load_example(
        tmp_path,
        "document_id,target_token,candidate_token,candidate_role,v,score\nm,t,a,r,1,1\nm,t,b,r,2,2\n",
        "document: m\n",
    )
    (head,) = targets.result.groups[0].heads
    assert LAYOUTS["targets"].inline.kind.lists
    assert html.unescape(_inline(targets, "context t")) == f"[{round(head.context[0], 3)!r}]"
    assert _inline(targets, "context t v") == repr(round(head.context[0], 3))
    questions = load_example(
        tmp_path, QUESTIONS + "a,s,1,1\nb,s,2,2\n", QUESTIONS_BLOCK + "queries: {q: score_a}\n"
    )
    (head,) = questions.result.groups[0].heads
    assert _inline(questions, "context q") == repr(round(head.context[0], 3))


@pytest.mark.parametrize(
    ("layout", "csv", "block", "value"),
    [
        (
            "questions",
            QUESTIONS + "a,s,1,1\nb,s,2,2\n",
            QUESTIONS_BLOCK + "queries: {q: score_a}\n",
            "context q",
        ),
        (
            "heads",
            "scenario,line_id,v,w_a\ns,a,1,0.25\ns,b,2,0.75\n",
            "columns: {candidate: line_id, group: scenario}\nvectors: [v]\nheads: {A: w_a}\n",
            "context s A",
        ),
    ],
)
def test_printing_lists_is_one_fact_of_the_layouts_kind(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    layout: str,
    csv: str,
    block: str,
    value: str,
) -> None:
    """Whether a one-axis vector prints as a list is said once, in the layout's kind: turning it
    on turns it on in the printout, the inline values and the mermaid graph alike."""
    from dataclasses import replace

    from mkdocs_selfattn.core.readings import READING_KINDS
    from mkdocs_selfattn.render.mermaid import mermaid_diagrams
    from mkdocs_selfattn.render.printout import render_printout

    example = load_example(tmp_path, csv, block)
    result = example.result
    assert result.layout == layout
    head = result.groups[0].heads[0]
    one = repr(round(head.context[0], 3))
    listed = f"#91;{one}#93;"  # mermaid's escape of "[1.731]"

    def shown() -> tuple[str, str, str]:
        printout = render_printout(result, example.labels, "{{ groups[0].heads[0].context }}")
        drawn = "\n".join(mermaid_diagrams(result, example.labels))
        return printout, html.unescape(_inline(example, value)), drawn

    printout, inline, drawn = shown()
    assert (printout, inline) == (repr(head.context[0]), one)
    assert one in drawn
    assert listed not in drawn
    monkeypatch.setitem(READING_KINDS, layout, replace(result.kind, lists=True))
    printout, inline, drawn = shown()
    assert (printout, inline) == (repr([head.context[0]]), f"[{one}]")
    assert listed in drawn
