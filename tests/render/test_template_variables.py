"""One set of template variables for every layout (render/template_vars.py): every layout's
printout sees the same records of the one record family, and a layout's own names (the targets'
``targets``, ``t.candidates``, ``c.score``) are those same records under the chapter's words."""

from __future__ import annotations

from typing import Any

import pytest

from mkdocs_selfattn.render.printout import printout_variables, render_printout
from mkdocs_selfattn.render.template_env import TemplateError

SHARED = [
    "layout",
    "source",
    "csv_rows",
    "document",
    "document_rows",
    "columns",
    "axes",
    "axis_columns",
    "value_column",
    "temperature",
    "top",
    "groups",
]

# Written once, run on every layout: the records of every layout answer it.
EVERY_LAYOUT = """\
{% for g in groups %}{{ g.display }}:{% for h in g.heads %} {{ h.display }} \
{{ h.ranked[0].display }}={{ '%.9f' % h.ranked[0].weight }} \
rank={{ h.lines[0].rank }} row={{ h.lines[0].row }}{% endfor %}
{% endfor %}"""


def _example(examples: dict[str, Any], layout: str) -> Any:
    return examples[layout][1]


@pytest.mark.parametrize("layout", ["targets", "questions", "heads"])
def test_every_layout_offers_the_same_variables(layout: str, examples: dict[str, Any]) -> None:
    example = _example(examples, layout)
    names = printout_variables(example.result, example.labels, 3, example.csv_bytes)
    assert [name for name in SHARED if name not in names] == []
    assert names["layout"] == layout
    assert names["axes"] == list(example.result.axis_names)
    assert names["columns"]
    assert all(isinstance(c, str) for c in names["columns"])


@pytest.mark.parametrize("layout", ["targets", "questions", "heads"])
def test_one_template_reads_every_layout_from_its_record(
    layout: str, examples: dict[str, Any]
) -> None:
    example = _example(examples, layout)
    result, labels = example.result, example.labels
    out = render_printout(result, labels, EVERY_LAYOUT, csv_bytes=example.csv_bytes)
    expected = []
    for group in result.groups:
        parts = [labels(group.name, group.index) + ":"]
        for head in group.heads:
            best = head.top(1)[0]
            rank = 1 + sum(1 for i, w in enumerate(head.weights) if w > head.weights[0] and i != 0)
            line = group.lines[best]
            parts.append(
                f" {labels(head.name, group.index)} {labels(line.token, line.index)}="
                f"{head.weights[best]:.9f} rank={rank} row={group.lines[0].row}"
            )
        expected.append("".join(parts))
    assert out == "".join(expected)


def test_the_targets_names_are_the_same_records(examples: dict[str, Any]) -> None:
    example = _example(examples, "targets")
    names = printout_variables(example.result, example.labels, 3, example.csv_bytes)
    assert names["targets"] == names["groups"]
    assert all(a is b for a, b in zip(names["targets"], names["groups"], strict=True))
    assert names["vector_columns"] == names["axes"]
    for target in names["targets"]:
        (head,) = target.heads
        assert target.context == head.context
        assert [c.weight for c in target.candidates] == list(head.weights)
        assert target.top.weight == max(head.weights)
        assert target.top.token == head.ranked[0].token
        assert isinstance(target.candidates, list)
    # A candidate's cells come from the CSV, as a question's line's do from its record.
    first = names["targets"][0].candidates[0]
    assert first.cells[first.cells and next(iter(first.cells))] is not None


def test_a_wrong_field_of_a_candidate_names_what_it_has(examples: dict[str, Any]) -> None:
    example = _example(examples, "targets")
    with pytest.raises(TemplateError) as caught:
        render_printout(
            example.result,
            example.labels,
            "{{ targets[0].candidates[0].wieght }}",
            csv_bytes=example.csv_bytes,
        )
    assert "a candidate has no 'wieght' (did you mean 'weight'?)" in str(caught.value)


def test_a_targets_head_is_called_a_head(examples: dict[str, Any]) -> None:
    example = _example(examples, "targets")
    with pytest.raises(TemplateError) as caught:
        render_printout(
            example.result, example.labels, "{{ targets[0].heads[0].weight }}", csv_bytes=b""
        )
    assert "a head has no 'weight' (did you mean 'weights'?)" in str(caught.value)
