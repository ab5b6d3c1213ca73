"""The try view's editable cells (render/try_view.head_cells): every layout's, found at the row
the core read and checked against the core, so an edit in the page never changes another row."""

from __future__ import annotations

import pytest

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line
from mkdocs_selfattn.errors import DataError
from mkdocs_selfattn.render.try_csv import CsvText
from mkdocs_selfattn.render.try_view import head_cells

TEXT = "doc,target,cand,score\nm,t,a,1\nm,t,b,1\n"
HEADER = ["doc", "target", "cand", "score"]


def _group(rows: list[tuple[str, int]], cells: bool) -> tuple[GroupResult, HeadResult]:
    lines = tuple(
        Line(token, "", row, ("m", "t", token, "1") if cells else (), (0.0,)) for token, row in rows
    )
    head = HeadResult(
        name="t",
        column="score",
        given=False,
        values=(1.0,) * len(lines),
        weights=(1 / len(lines),) * len(lines),
        context=(0.0,),
        shift=(0.0,),
        groups=(),
    )
    return GroupResult("t", lines, (0.0,), (head,), ((0.0,),)), head


@pytest.mark.parametrize("cells", [True, False])
def test_each_line_edits_its_own_rows_score_cell(cells: bool) -> None:
    group, head = _group([("a", 0), ("b", 1)], cells)
    spans = head_cells(group, head, HEADER, CsvText(TEXT), "x.csv", TEXT.encode(), "cand")
    assert [TEXT[start:end] for start, end in spans] == ["1", "1"]
    assert spans[0][0] < spans[1][0]


@pytest.mark.parametrize("cells", [True, False])
def test_a_row_that_reads_another_token_is_refused_though_its_score_agrees(cells: bool) -> None:
    # Both rows score 1: only the candidate cell tells that row 1 is b's, not a's.
    group, head = _group([("a", 1)], cells)
    with pytest.raises(DataError, match="could not find this row's 'score' cell"):
        head_cells(group, head, HEADER, CsvText(TEXT), "x.csv", TEXT.encode(), "cand")
