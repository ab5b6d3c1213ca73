"""The mermaid figures of every layout (render/mermaid_figures.py): which rows an input box
lists is the layout's (targets re-read one document's candidates), never a guess from the
result naming a document."""

from __future__ import annotations

from pathlib import Path

from mkdocs_selfattn.render.mermaid import mermaid_diagrams
from mkdocs_selfattn.render.mermaid_figures import MAX_GROUPS
from tests.block_examples import load_example

QUESTIONS = "doc,grp,line_id,section,v,score_a\n"
BLOCK = (
    "columns: {document: doc, group: grp, candidate: line_id, role: section}\n"
    "vectors: [v]\nqueries: {q: score_a}\ndocument: d1\n"
)


def _input_boxes(sources: list[str]) -> list[str]:
    lines = [line.strip() for text in sources for line in text.splitlines()]
    return [line for line in lines if line.startswith(("g[", "doc[", "cand["))]


def test_a_questions_document_is_drawn_group_by_group(tmp_path: Path) -> None:
    rows = "d1,g1,x,s,1,1\nd1,g1,y,s,2,2\nd1,g1,x,s,3,3\nd1,g2,x,s,1,2\nd1,g2,z,s,2,1\n"
    example = load_example(tmp_path, QUESTIONS + rows + "d2,g1,w,s,1,1\n", BLOCK)
    sources = mermaid_diagrams(example.result, example.labels)
    # One input box per group, named, listing every line (a repeated line id twice).
    assert _input_boxes(sources) == [
        'g["candidate tokens<br/>g1<br/>x · y · x"]',
        'g["candidate tokens<br/>g2<br/>x · z"]',
    ]


def test_a_questions_document_of_many_groups_draws_the_first_and_a_count(tmp_path: Path) -> None:
    rows = "".join(f"d1,g{n},a,s,1,1\nd1,g{n},b,s,2,2\n" for n in range(MAX_GROUPS + 8))
    example = load_example(tmp_path, QUESTIONS + rows, BLOCK)
    sources = mermaid_diagrams(example.result, example.labels)
    assert len(sources) == MAX_GROUPS + 1
    assert "8 others" in sources[-1]


def test_a_targets_document_is_one_input_box(tmp_path: Path) -> None:
    csv = "document_id,target_token,candidate_token,candidate_role,v,score\n"
    csv += "m,t,a,r,1,1\nm,t,b,r,2,2\nm,u,a,r,1,3\nm,u,b,r,2,2\n"
    example = load_example(tmp_path, csv, "document: m\n")
    sources = mermaid_diagrams(example.result, example.labels)
    boxes = _input_boxes(sources)
    assert boxes[:2] == ['doc["document<br/>m"]', 'cand["candidate tokens<br/>a · b"]']
