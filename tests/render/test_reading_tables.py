"""Goldens for the tables of the questions and heads layouts (table, compare, csv), their
summary rows past LONG_GROUP lines, and the escaping of CSV text.

    python -m pytest tests/render/test_reading_tables.py --update-goldens

rewrites tests/golden/readings/*; review ``git diff tests/golden`` before committing.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs_selfattn.build.views import csv_rows
from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.layout_tables import (
    LONG_GROUP,
    head_compare,
    head_tables,
    question_compare,
    question_tables,
)
from mkdocs_selfattn.render.tables import Table, to_html, to_markdown
from mkdocs_selfattn.render.words import READING, TABLE, words
from tests.reading_fixtures import (
    HEADS_CSV,
    MANUAL_CSV,
    heads_reading,
    manual_reading,
    questions_reading,
    report_reading,
)

GOLDEN = Path(__file__).parents[1] / "golden" / "readings"

MANUAL_GROUPS = {
    "pressure_lines": ["L04", "L05", "L06", "L07", "L08", "L09", "L10", "L11", "L12"],
    "coolant_lines": ["L13", "L14", "L15", "L16", "L17", "L18", "L19", "L20"],
}
MANUAL_LABELS = Labels(
    {
        "What is the pressure-release holding time?": "泄压后要保持多久？",
        "What is the coolant-flow criterion?": "冷却水流量的标准是什么？",
    }
)
HEAD_LABELS = Labels(
    {
        "정지결정": "停机决定",
        "압력이상": "压力异常",
        "복귀조건": "恢复条件",
        "balanced_heads": "两个 head 均衡",
        "single_head": "单 head",
        "head1": "head 1",
    }
)


def _manual() -> ReadingResult:
    from tests.reading_fixtures import MANUAL_CSV

    text = MANUAL_CSV.read_text(encoding="utf-8")
    return questions_reading(text, groups=MANUAL_GROUPS)


def _long_text(lines: int = 120) -> str:
    rows = "".join(f"L{i:03},s{i % 4},{i % 9}.5,{(i * 37) % 23},{-(i % 5)}\n" for i in range(lines))
    return "line_id,section,evidence_signal,score_a,score_b\n" + rows


def _long(lines: int = 120) -> ReadingResult:
    return questions_reading(
        _long_text(lines), queries={"a?": "score_a", "b?": "score_b"}, groups={"g": ["L001"]}
    )


HOSTILE = (
    "line_id,section,evidence_signal,score_a\n"
    '"<b>L|1</b>","*emph* [x](y)",1,2\n'
    '"L`2`","a | b",2,1\n'
    '"&amp;","{++x++} :smile:",3,0\n'
)


def _check(name: str, text: str, update: bool) -> None:
    path = GOLDEN / name
    if update:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{name} differs (--update-goldens?)"


def _both(name: str, tables: list[Table], update: bool) -> None:
    _check(f"{name}.md", to_markdown(tables) + "\n", update)
    _check(f"{name}.html", to_html(tables) + "\n", update)


def test_questions_table(update_goldens: bool) -> None:
    _both("questions_table", question_tables(_manual(), MANUAL_LABELS), update_goldens)


def test_questions_table_in_chinese_with_a_format(update_goldens: bool) -> None:
    zh = {**words(TABLE, "zh", "questions"), **words(READING, "zh", "questions")}
    tables = question_tables(_manual(), MANUAL_LABELS, ".1%", zh)
    _check("questions_table_zh.md", to_markdown(tables) + "\n", update_goldens)


def test_questions_compare(update_goldens: bool) -> None:
    _both("questions_compare", question_compare(_manual(), MANUAL_LABELS), update_goldens)


def test_heads_table(update_goldens: bool) -> None:
    _both("heads_table", head_tables(report_reading(), HEAD_LABELS), update_goldens)


def test_heads_compare(update_goldens: bool) -> None:
    _both("heads_compare", head_compare(report_reading(), HEAD_LABELS), update_goldens)


def reading_csv(
    result: ReadingResult, data: bytes, link: str | None, name: str, column: str = "report_id"
) -> Table:
    """The csv view of a reading, as a page draws it (build/views.py)."""
    text = {**words(TABLE, "en"), **words(READING, "en")}
    reads = None if result.document is None else column
    return csv_rows(data, name, reads, result.document, result.document_rows, (link, name), text)


def test_csv_rows(update_goldens: bool) -> None:
    manual = reading_csv(manual_reading(), MANUAL_CSV.read_bytes(), "../data/m.csv", "m.csv")
    heads = reading_csv(report_reading(), HEADS_CSV.read_bytes(), None, "h.csv")
    assert len(manual.rows) == 40
    assert len(heads.rows) == 9  # the document's rows only
    _check("csv.md", to_markdown([manual, heads]) + "\n", update_goldens)


def test_long_groups_show_the_top_lines_and_a_summary(update_goldens: bool) -> None:
    result = _long()
    assert len(result.groups[0].lines) > LONG_GROUP
    table = question_tables(result, Labels(), top=5)[0]
    assert len(table.rows) == 5 + 1 + 3  # top lines, the rest, context/baseline/shift
    summary = table.rows[5]
    assert summary[0][0].text == "… 115 other lines"
    head = result.groups[0].heads[0]
    shown = head.top(5)
    rest = sum(w for i, w in enumerate(head.weights) if i not in shown)
    assert summary[3][0].text == repr(round(rest, 3))
    compare = question_compare(result, Labels(), top=3)[0]
    union = {i for h in result.groups[0].heads for i in h.top(3)}
    assert len(compare.rows) == len(union) + 1 + 1 + 1  # lines, the rest, group g, context
    csv = reading_csv(result, _long_text().encode(), None, "x.csv")
    assert len(csv.rows) == LONG_GROUP + 1
    assert csv.rows[-1][0][0].text == f"… {120 - LONG_GROUP} other lines"
    _check("long.md", to_markdown([table, compare, csv]) + "\n", update_goldens)
    small = question_tables(_long(LONG_GROUP), Labels())[0]
    assert len(small.rows) == LONG_GROUP + 3  # at the limit: every line


def test_a_million_lines_render_quickly_enough_to_build() -> None:
    """Not a timing assertion: the table of a huge group has a bounded number of rows."""
    result = _long(5000)
    tables = question_tables(result, Labels())
    assert all(len(t.rows) <= 3 + 1 + 3 for t in tables)


def test_csv_text_is_escaped(update_goldens: bool) -> None:
    result = questions_reading(HOSTILE, queries={"a <i>q</i>?": "score_a"})
    tables = [
        *question_tables(result, Labels({"L`2`": "<script>x</script>"})),
        *question_compare(result, Labels()),
        reading_csv(result, HOSTILE.encode(), None, "x.csv"),
    ]
    html = to_html(tables)
    assert "<b>" not in html
    assert "<i>" not in html
    assert "<script>" not in html
    assert "&lt;b&gt;L|1&lt;/b&gt;" in html
    markdown = to_markdown(tables)
    assert "<b>" not in markdown
    assert "[x](y)" not in markdown
    _both("hostile", tables, update_goldens)


def test_heads_of_one_axis_and_two_heads() -> None:
    text = "report_id,scenario,token,relation_role,x,single_weight,head1_weight\n"
    text += "r,s,a,role,1,0.5,0.25\nr,s,b,role,3,0.5,0.75\n"
    result = heads_reading(
        text,
        document="r",
        heads={"single": "single_weight", "h1": "head1_weight"},
        axes={"x": ["x"]},
    )
    [table, separations] = head_tables(result, Labels())
    assert [row[0][0].text for row in table.rows] == [
        "a",
        "b",
        "context",
        "context",
        "difference",
    ]
    assert separations.rows[0][2][0].text == "0.5"
    [compare] = head_compare(result, Labels())
    assert [cell[0].text for cell in compare.rows[0]] == ["s", "2.0", "2.5", "0.5"]


def test_a_long_scenario_shows_each_heads_top_tokens_and_the_rest() -> None:
    n = LONG_GROUP + 10
    text = "report_id,scenario,token,relation_role,x,single_weight,head1_weight\n"
    for i in range(n):
        a = 1 / n
        b = (i + 1) / (n * (n + 1) / 2)
        text += f"r,s,t{i},role,{i},{a!r},{b!r}\n"
    result = heads_reading(
        text,
        document="r",
        heads={"single": "single_weight", "h1": "head1_weight"},
        axes={"x": ["x"]},
    )
    [table, _] = head_tables(result, Labels(), top=2)
    tokens = [row[0][0].text for row in table.rows]
    # single: equal weights, so its top 2 are the first two lines; h1: the last two
    assert tokens[:5] == ["t0", "t1", f"t{n - 2}", f"t{n - 1}", f"… {n - 4} other lines"]
    rest = table.rows[4]
    assert rest[2][0].text == repr(round((n - 4) / n, 3))
