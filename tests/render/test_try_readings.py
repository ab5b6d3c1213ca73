"""The try view's Python half for the questions and heads layouts: its HTML and data (goldens),
the initial numbers equal to the core's records, cell spans that read back the core's values,
words per language and ``text:``, and CSV text that cannot leave the page's data."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from test_views_golden import _load, _view, check_golden

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.try_csv import utf16_slice
from mkdocs_selfattn.render.try_view import READING_OVERRIDABLE, reading_words
from mkdocs_selfattn.render.words import LANGUAGES, TRY_READING

CHAPTER = Path(__file__).resolve().parents[2] / "docs/assets/part-05/chapter-13"
ASSETS = "/assets/part-05/chapter-13/"

MANUAL = """\
```selfattn
id: manual
csv: /assets/part-05/chapter-13/attention-operating-manual-candidates.csv
columns: {candidate: line_id, role: section}
vectors: [evidence_signal]
queries:
  "What is the pressure-release holding time?": score_pressure_hold
  "What is the coolant-flow criterion?": score_flow_limit
display: {"What is the coolant-flow criterion?": 冷却水流量的标准是什么？}
groups: {pressure_lines: [L04, L05, L06, L07, L08, L09, L10, L11, L12]}
top: 3
show: [try]
```
"""

HEADS = """\
```selfattn
id: heads
csv: /assets/part-05/chapter-13/qkv-multihead-report-scenarios.csv
columns: {document: report_id, group: scenario, candidate: token, role: relation_role}
document: ops_pressure_return
heads: {single_head: single_weight, head1: head1_weight, head2: head2_weight}
axes:
  decision_axis: [decision_axis]
  evidence_condition_axis: [evidence_axis, condition_axis]
display: {정지결정: 停机决定}
show: [try]
```
"""

HOSTILE_CSV = (
    "line_id,section,evidence_signal,score\n"
    '"</script><script>alert(1)</script>",<b>x</b>,1.5,2\n'
    '"a\nb ""q"" &amp;",`tick`,2.0,0.5\n'
)
HOSTILE = """\
```selfattn
csv: hostile.csv
columns: {candidate: line_id, role: section}
vectors: [evidence_signal]
queries: {"<img src=x onerror=alert(1)>": score}
show: [try]
```
"""
DATA = re.compile(r'data-selfattn-data="([^"]*)"')


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("try-readings-golden")
    assets = root / "docs" / ASSETS.strip("/")
    assets.mkdir(parents=True)
    for name in ("attention-operating-manual-candidates.csv", "qkv-multihead-report-scenarios.csv"):
        shutil.copyfile(CHAPTER / name, assets / name)
    (root / "docs" / "course").mkdir()
    (root / "docs" / "course" / "hostile.csv").write_text(HOSTILE_CSV, encoding="utf-8")
    return root


def _data(text: str) -> dict[str, Any]:
    match = DATA.search(text)
    assert match, text[:200]
    parsed: dict[str, Any] = json.loads(html.unescape(match.group(1)))
    return parsed


CASES = [(MANUAL, "try_questions.html"), (HEADS, "try_heads.html")]


@pytest.mark.parametrize(("block", "name"), CASES)
def test_try_view_golden_and_initial_numbers(
    project: Path, update_goldens: bool, block: str, name: str
) -> None:
    pipeline, example = _load(project, block)
    kind, out = _view(pipeline, example, "try", language="zh")
    assert kind == "late"
    check_golden(name, out, update_goldens)
    data = _data(out)
    result = example.result
    assert isinstance(result, ReadingResult)
    text = example.csv_bytes.decode("utf-8-sig")
    sections = data["groups"]
    # A question is a section of its own; a scenario is one section read by every head.
    expected = [(g, [h]) for g in result.groups for h in g.heads]
    if result.layout == "heads":
        expected = [(g, list(g.heads)) for g in result.groups]
    assert len(sections) == len(expected)
    for section, (group, heads) in zip(sections, expected, strict=True):
        assert section["baseline"] == list(group.baseline)
        rows = data["lines"][section["rows"]]
        assert [row["vector"] for row in rows] == [list(x.vector) for x in group.lines]
        assert [row["token"] for row in rows] == [x.token for x in group.lines]
        for got, head in zip(section["heads"], heads, strict=True):
            # The initial numbers are the core's, bit for bit (JSON keeps every float exactly).
            assert got["values"] == list(head.values)
            assert got["initial"]["weights"] == list(head.weights)
            assert got["initial"]["context"] == list(head.context)
            assert got["initial"]["shift"] == list(head.shift)
            assert got["initial"]["top"] == list(head.top(data["top"]))
            assert got["mode"] == ("given" if head.given else "softmax")
            # Each span reads back the CSV's own text of that cell.
            for span, value in zip(got["cells"], head.values, strict=True):
                assert float(utf16_slice(text, (span[0], span[1])).strip('"')) == value
        if result.layout == "heads":
            assert section["reference"] == 0
            assert section["initial"]["separations"] == [list(r) for r in group.separations]
            assert section["initial"]["differences"] == [list(h.difference) for h in heads[1:]]
    assert data["temperature"] == (None if result.layout == "heads" else result.temperature)
    assert data["top"] == (1 if result.layout == "heads" else 3)


def test_words_cover_every_language_and_text_overrides(project: Path) -> None:
    for language in LANGUAGES:
        assert set(TRY_READING[language]) == set(TRY_READING["en"])
    assert set(READING_OVERRIDABLE) <= set(reading_words("en", {}))
    pipeline, example = _load(project, HEADS)
    _, out = _view(
        pipeline, example, "try", language="ko-KR", text={"sum": "총합", "reset": "처음"}
    )
    words = _data(out)["words"]
    assert words["sum"] == "총합"
    assert words["reset"] == "처음"  # the targets layout's words still apply
    assert words["head"] == TRY_READING["ko"]["head"]
    assert words["weight"] == "가중치"  # the table view's word, as for P5-13.2
    _, english = _view(pipeline, example, "try")
    assert _data(english)["words"]["refused_sum"] == TRY_READING["en"]["refused_sum"]


def test_hostile_text_cannot_leave_the_data(project: Path) -> None:
    pipeline, example = _load(project, HOSTILE)
    _, out = _view(pipeline, example, "try")
    assert "<script" not in out
    assert "<img" not in out
    for blob in re.findall(r'data-selfattn-(?:data|result)="([^"]*)"', out):
        assert "<" not in blob
        assert ">" not in blob
        assert set(re.findall(r"&[a-z#0-9]+;", blob)) <= {"&quot;", "&#x27;"}  # quotes only
        json.loads(html.unescape(blob))
    rows = _data(out)["lines"][0]
    assert rows[0]["token"] == "</script><script>alert(1)</script>"
    assert rows[1]["token"] == 'a\nb "q" &amp;'


def test_normalised_heads_keep_the_cells_as_given(project: Path) -> None:
    """With ``normalise: true`` the boxes hold the file's weights and the outputs use them
    divided by their sum, as the build does: the file's cells are what a reader edits."""
    source = (CHAPTER / "qkv-multihead-report-scenarios.csv").read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    at = header.index("head1_weight")
    doubled = [lines[0]]
    for line in lines[1:]:
        cells = line.rstrip("\n").split(",")
        cells[at] = repr(2 * float(cells[at]))
        doubled.append(",".join(cells) + "\n")
    (project / "docs" / "course" / "doubled.csv").write_text("".join(doubled), encoding="utf-8")
    block = HEADS.replace(f"csv: {ASSETS}qkv-multihead-report-scenarios.csv", "csv: doubled.csv")
    pipeline, example = _load(project, block.replace("show: [try]", "normalise: true\nshow: [try]"))
    _, out = _view(pipeline, example, "try")
    data = _data(out)
    assert data["normalise"] is True
    head1 = data["groups"][0]["heads"][1]
    assert sum(head1["values"]) == pytest.approx(2.0)
    assert sum(head1["initial"]["weights"]) == pytest.approx(1.0)
    text = example.csv_bytes.decode("utf-8")
    cells = [utf16_slice(text, (a, b)) for a, b in head1["cells"]]
    assert [float(c) for c in cells] == head1["values"]


ODD_CSV = (
    "\ufeffline_id,section,text,evidence_signal,score_a\r\n"
    'L1,s,"two\r\nlines, 한",3.0,1.5\r\n'
    "\r\n"
    'L2,s,"x ""q""",2,  -0.5 \r\n'
    'L3,t,plain,4,"2.25"\r\n'
)


def test_cells_are_found_in_any_saved_form(project: Path) -> None:
    """A BOM, CRLF, a quoted line break, a blank line, spaces and a quoted number: each score
    cell's span still covers exactly that cell, so a download changes nothing else."""
    (project / "docs" / "course" / "odd.csv").write_bytes(ODD_CSV.encode("utf-8"))
    block = (
        "```selfattn\ncsv: odd.csv\ncolumns: {candidate: line_id, role: section}\n"
        "vectors: [evidence_signal]\nqueries: {q: score_a}\nshow: [try]\n```\n"
    )
    pipeline, example = _load(project, block)
    _, out = _view(pipeline, example, "try")
    data = _data(out)
    text = example.csv_bytes.decode("utf-8-sig")
    cells = [utf16_slice(text, (a, b)) for a, b in data["groups"][0]["heads"][0]["cells"]]
    assert cells == ["1.5", "  -0.5 ", '"2.25"']
    assert data["csv"]["bom"] is True
    assert data["csv"]["text"] == text
