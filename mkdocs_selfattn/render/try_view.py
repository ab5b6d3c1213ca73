"""The in-page ``try`` view: the example's inputs as data for the browser engine, plus its HTML.

The browser script (assets/try/selfattn-try.js) recomputes in float64 with the core's order of
operations. Its data is generic — groups of candidate rows read by one or more heads, each with
scores through the softmax or given weights; values are vector columns, optionally projected on
named axes. :mod:`try_data` fills it for every layout; this module holds its words, its pieces,
the map of its editable cells and its HTML.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from mkdocs_selfattn.core.readings import GroupResult, HeadResult
from mkdocs_selfattn.errors import BlockError, DataError
from mkdocs_selfattn.render.defaults import (
    DEFAULT_COLORS,
    ROLE_CHANGE,
    ROLE_GUIDE,
    ROLE_INPUT,
    ROLE_MAIN,
)
from mkdocs_selfattn.render.escape import html_text
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.try_csv import CsvText, Span, unquote

DATA_VERSION = 1
EMBED_LIMIT = 250_000
"""Characters of CSV text embedded for the download; a larger file is fetched from the site."""

FORMAT_SPEC = re.compile(r"^\.(\d{1,2})([f%])$")
"""The ``number_format`` specs the browser reproduces digit for digit (docs/plugin/blocks.md)."""

WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "target": "target",
        "candidate": "candidate",
        "role": "role",
        "score": "score",
        "weight": "weight",
        "top": "top",
        "representation": "new representation",
        "baseline": "baseline",
        "shift": "shift",
        "separation": "head separation",
        "temperature": "temperature",
        "temperature_hint": "not part of the CSV: run the script or the CLI with --temperature",
        "reset": "Reset to the CSV",
        "download": "Download the edited CSV",
        "data": "Full-precision results (JSON):",
        "slider": "slider",
        "chart": "attention weights",
        "invalid": "enter a finite number",
        "invalid_temperature": "enter a number greater than 0",
        "refused_build": "The build refuses the edited CSV, so no numbers are shown:",
        "refused_other": "Another part of the example makes the build refuse the edited CSV; "
        "no numbers are shown until it is fixed.",
        "nojs": "The interactive version of this example needs JavaScript; the other views show "
        "the computed numbers.",
        "limited": "The interactive version shows the first {shown} of the {total} sections of "
        "this example ({values} of {all} values; a page holds at most {limit}); the other views "
        "show every number.",
        "too_large": "This example has {all} values, more than the interactive version holds on "
        "a page ({limit}); the other views show every number.",
    },
    "zh": {
        "target": "目标",
        "candidate": "候选",
        "role": "角色",
        "score": "分数",
        "weight": "权重",
        "top": "最大",
        "representation": "新的表示",
        "baseline": "基线",
        "shift": "变化",
        "separation": "head 之间的距离",
        "temperature": "温度",
        "temperature_hint": "温度不在 CSV 里：运行脚本或命令行时加 --temperature",
        "reset": "恢复 CSV 的数值",
        "download": "下载修改后的 CSV",
        "data": "全精度结果（JSON）：",
        "slider": "滑块",
        "chart": "attention 权重",
        "invalid": "请输入一个有限的数",
        "invalid_temperature": "请输入大于 0 的数",
        "refused_build": "构建会拒绝修改后的 CSV，所以这里不显示数值：",
        "refused_other": "示例的另一部分使构建拒绝修改后的 CSV，改好之前这里不显示数值。",
        "nojs": "这个示例的交互版需要 JavaScript；其他视图照常显示计算出的数值。",
        "limited": "交互版只显示这个示例 {total} 个部分中的前 {shown} 个（{all} 个数值中的 "
        "{values} 个；一页最多 {limit} 个）；其他视图显示全部数值。",
        "too_large": "这个示例有 {all} 个数值，超过交互版一页能容纳的 {limit} 个；其他视图显示"
        "全部数值。",
    },
    "ko": {
        "target": "대상",
        "candidate": "후보",
        "role": "역할",
        "score": "점수",
        "weight": "가중치",
        "top": "최대",
        "representation": "새 표현",
        "baseline": "기준선",
        "shift": "변화",
        "separation": "head 간 거리",
        "temperature": "온도",
        "temperature_hint": "온도는 CSV에 없습니다: 스크립트나 CLI를 --temperature 와 함께 "
        "실행하세요",
        "reset": "CSV 값으로 되돌리기",
        "download": "수정한 CSV 내려받기",
        "data": "전체 정밀도 결과(JSON):",
        "slider": "슬라이더",
        "chart": "attention 가중치",
        "invalid": "유한한 수를 입력하세요",
        "invalid_temperature": "0보다 큰 수를 입력하세요",
        "refused_build": "빌드가 수정한 CSV를 거부하므로 값을 표시하지 않습니다:",
        "refused_other": "예제의 다른 부분 때문에 빌드가 수정한 CSV를 거부합니다. 고칠 때까지 값을 "
        "표시하지 않습니다.",
        "nojs": "이 예제의 대화형 버전은 JavaScript가 필요합니다. 다른 보기에는 계산된 값이 "
        "그대로 나옵니다.",
        "limited": "대화형 버전은 이 예제의 {total}개 부분 중 처음 {shown}개만 보여 줍니다"
        "({all}개 값 중 {values}개, 한 페이지에 최대 {limit}개). 다른 보기에는 모든 값이 "
        "나옵니다.",
        "too_large": "이 예제에는 값이 {all}개 있어 대화형 버전이 한 페이지에 담을 수 있는 "
        "{limit}개를 넘습니다. 다른 보기에는 모든 값이 나옵니다.",
    },
}

OVERRIDABLE: tuple[str, ...] = ("target", "candidate", "role", "score", "weight", "top")
OVERRIDABLE += ("representation", "baseline", "shift", "temperature", "reset", "download")
"""The block's ``text:`` keys the view honours (they replace the word in every language)."""

TABLE_SHARED: tuple[str, ...] = (
    "candidate",
    "role",
    "score",
    "weight",
    "target",
    "top",
    "representation",
)
TABLE_SHARED += ("baseline", "shift")
"""The words the ``table`` view writes too: this view takes the table's, so both agree."""


def check_format(number_format: str | None, line: int) -> None:
    """The browser formats live numbers itself, so it must know the spec's exact rules."""
    if number_format is not None and not FORMAT_SPEC.match(number_format):
        raise BlockError(
            f"the 'try' view reproduces number_format '.Nf' or '.N%' (such as '.3f' or '.1%'), "
            f"not {number_format!r}; set one of those in 'number_format:' for this block",
            line=line,
        )


def view_words(language: str | None, text: Mapping[str, str]) -> dict[str, str]:
    """English, then the page language's words (the table view's for the words both views
    show, so they agree), then the block's ``text:``."""
    from mkdocs_selfattn.render.words import TABLE, primary, words

    own = WORDS.get(primary(language), {})
    overrides = {k: v for k, v in text.items() if k in OVERRIDABLE}
    # Only the words both views wrote for the targets layout: the table view's later words (for
    # other layouts) must not change this view's data.
    table = {k: v for k, v in words(TABLE, language).items() if k in TABLE_SHARED}
    return {**WORDS["en"], **own, **table, **overrides}


READING_OVERRIDABLE: tuple[str, ...] = ("question", "group", "head", "context", "difference", "sum")
READING_OVERRIDABLE += ("vector", "rescale", "separation")
"""The block's ``text:`` keys the questions and heads layouts add to the try view's own."""


def reading_words(language: str | None, text: Mapping[str, str]) -> dict[str, str]:
    """The try view's words, then the questions and heads layouts' own (render/words.py), then
    their tables' for the words both views show (so they agree), then the block's ``text:``."""
    from mkdocs_selfattn.render.words import READING, TRY_READING, words

    keys = set(READING_OVERRIDABLE) | set(OVERRIDABLE)
    overrides = {k: v for k, v in text.items() if k in keys}
    own = words(TRY_READING, language)
    table = {k: v for k, v in words(READING, language).items() if k in own}
    return {**view_words(language, {}), **own, **table, **overrides}


def view_data(
    *,
    words: Mapping[str, str],
    number_format: str | None,
    temperature: float | None,
    columns: Sequence[str],
    top: int,
    named: list[dict[str, Any]],
    sections: list[dict[str, Any]],
    csv: dict[str, Any],
    document: str | None = None,
    reading: Mapping[str, Any] | None = None,
    lines: list[list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The engine's input, every layout's: sections (``groups``) of rows, each read by its
    heads (:func:`head_data`). ``document`` names a targets example's document; ``reading``
    (layout, normalise, tolerance) and ``lines`` (rows shared by a group's sections, by index)
    are what a questions or heads example adds."""
    data: dict[str, Any] = {"version": DATA_VERSION, "words": words, "format": number_format}
    if document is not None:
        data["document"] = document
    data |= {"temperature": temperature, "columns": list(columns), "axes": None, "top": top}
    data |= {**(reading or {}), "named": named, "groups": sections}
    if lines is not None:
        data["lines"] = lines
    data["csv"] = csv
    return data


def head_data(
    name: str,
    mode: str,
    values: Sequence[float],
    cells: Sequence[Span],
    initial: Mapping[str, Any],
    *,
    raw: str | None = None,
    column: str | None = None,
) -> dict[str, Any]:
    """One head of a section: its mode ("softmax" over scores, or "given" weights), the editable
    values with their cells' places in the CSV text, and what the core computed (``initial``:
    weights, context, shift, top, named)."""
    head: dict[str, Any] = {"name": name}
    if raw is not None:
        head["raw"] = raw
    if column is not None:
        head["column"] = column
    head |= {"mode": mode, "values": list(values), "cells": [list(span) for span in cells]}
    head["initial"] = dict(initial)
    return head


def named_data(groups: Mapping[str, Sequence[str]], labels: Labels) -> list[dict[str, Any]]:
    """The block's named candidate groups, as the engine sums them."""
    return [{"name": labels(name), "members": list(members)} for name, members in groups.items()]


def csv_data(
    csv_bytes: bytes, csv_text: str, csv_name: str, csv_href: str | None
) -> dict[str, Any]:
    """The file to edit and download: embedded when small, else fetched from ``csv_href``."""
    return {
        "name": csv_name,
        "href": csv_href,
        "text": csv_text if len(csv_text) <= EMBED_LIMIT else None,
        "bom": csv_bytes.startswith(b"\xef\xbb\xbf"),
    }


def head_cells(
    group: GroupResult,
    head: HeadResult,
    header: Sequence[str],
    cut: CsvText,
    source: str,
    csv_bytes: bytes,
    candidate: str | None = None,
) -> list[Span]:
    """Where each line's cell of the head's column lies in the CSV text, at the row the core
    read it from and checked against the core's value and the row's other cells (its own, or
    the ``candidate`` column's token where a line keeps none): every layout's editable cells."""
    if head.column not in header:
        raise DataError(source, f"the try view found no column {head.column!r}")
    at = header.index(head.column)
    spans: list[Span] = []
    for line, value in zip(group.lines, head.values, strict=True):
        known = list(enumerate(line.cells))
        if not known and candidate is not None:
            known = [(header.index(candidate), line.token)]
        span = score_cell(cut, line.row, at, value, known)
        if span is None:
            raise cell_error(source, csv_bytes, line.row, head.column)
        spans.append(span)
    return spans


def score_cell(
    cut: CsvText, row: int, column: int, value: float, known: Sequence[tuple[int, str]]
) -> Span | None:
    """The UTF-16 span of data row ``row``'s cell in ``column``, if that record reads back the
    core's value there and the ``known`` (column, cell) pairs of that row (a second guard: two
    rows may hold the same score)."""
    record = row + 1
    if record >= len(cut.records):
        return None
    fields = cut.fields(record)
    values = [unquote(cut.text[start:end]) for start, end in fields]
    if column >= len(values) or number(values[column]) != value:
        return None
    if any(at >= len(values) or values[at] != cell for at, cell in known):
        return None
    start, end = fields[column]
    return cut.utf16(start), cut.utf16(end)


def cell_error(source: str, csv_bytes: bytes, row: int, column: str) -> DataError:
    """The view's cell map disagrees with the core (not expected for any file the build reads):
    refuse the view rather than offer a download that would edit the wrong cell."""
    from mkdocs_selfattn.core.csv_diagnose import row_line

    return DataError(
        source,
        f"the try view could not find this row's {column!r} cell in the file's text; "
        "save the file as plain CSV",
        line=row_line(csv_bytes, row),
    )


def number(raw: str) -> float | None:
    """The number a cell's value reads as (spaces around it allowed, as Arrow allows them)."""
    try:
        return float(raw.strip())
    except ValueError:
        return None


def script_json(data: object) -> str:
    """JSON that can end no ``<script>`` element or attribute, nor read as markup or a line
    break, wherever a page (or a later view) puts it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for raw, escaped in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


def results_name(example_id: str | None, result_json: str) -> str:
    """A content-addressed file name: a changed result is a new URL, never a stale cached file."""
    digest = hashlib.sha256(result_json.encode("utf-8")).hexdigest()[:12]
    stem = re.sub(r"[^A-Za-z0-9_-]", "_", example_id or "example")
    return f"{stem}-{digest}.json"


def render_try(
    data: Mapping[str, Any],
    result_json: str,
    example_id: str | None,
    notice: str = "",
    colors: Sequence[str] = DEFAULT_COLORS,
) -> str:
    """The view's HTML: a note for readers without JavaScript, the engine's data, and the
    full-precision results (``result_json``, the CLI's JSON), which the plugin publishes as a
    file and links in their place; ``notice`` (HTML) first, when the view shows part of the
    example (render/try_limit.py). ``colors``: the site's ``chart_colors``, so the live chart
    keeps the roles of the built ones."""
    name = results_name(example_id, result_json)
    note = html_text(str(data["words"]["nojs"]))
    # Data travels in attributes, not in <script type="application/json">: Material's instant
    # navigation re-creates every <script> of a page it swaps in, as JavaScript.
    return (
        f'<div class="selfattn-try"{color_style(colors)} data-selfattn-try '
        f'data-selfattn-data="{_attr(data)}">'
        f'{notice}<noscript><p class="selfattn-try-nojs">{note}</p></noscript>'
        f'<span hidden class="selfattn-try-result" data-selfattn-json="{html_text(name)}" '
        f'data-selfattn-result="{_attr(json.loads(result_json))}"></span>'
        f'<p class="selfattn-try-links"><a class="selfattn-try-json" '
        f'data-selfattn-json="{html_text(name)}" download>{html_text(name)}</a></p>'
        "</div>"
    )


TRY_ROLES = {
    "main": ROLE_MAIN,
    "emphasis": ROLE_CHANGE,
    "input": ROLE_INPUT,
    "axis": ROLE_GUIDE,
}
"""The live chart's colour variables (assets/try/selfattn-try.css) and the role each plays."""


def color_style(colors: Sequence[str]) -> str:
    """A ``style`` attribute setting the live chart's colour variables to a site's own
    ``chart_colors``; nothing for the default roles, which the view's stylesheet shades per
    palette. Roles the site leaves out keep the stylesheet's."""
    if tuple(colors) == DEFAULT_COLORS:
        return ""
    given = tuple(colors)
    parts = [
        f"--selfattn-try-{name}: {css_color(given[role])}"
        for name, role in TRY_ROLES.items()
        if role < len(given)
    ]
    return f' style="{html_text("; ".join(parts))}"' if parts else ""


def css_color(color: str) -> str:
    """``color`` as CSS reads it: a hex colour as written, a matplotlib name (``tab:blue``,
    ``C0``, which CSS does not know) as its hex."""
    if color.startswith("#"):
        return color
    from matplotlib.colors import to_hex, to_rgba

    return to_hex(color, keep_alpha=to_rgba(color)[3] < 1)


def _attr(data: object) -> str:
    return html_text(script_json(data))
