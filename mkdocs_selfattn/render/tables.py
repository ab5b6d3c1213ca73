"""Markdown tables: per-target weights, the targets side by side, and the document's CSV rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mkdocs_selfattn.render.escape import html_text, md_text
from mkdocs_selfattn.render.labels import Labels, format_value, py_round
from mkdocs_selfattn.results import DocumentResult, TargetResult


def _table(header: Sequence[str], align: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    marks = {"l": ":--", "r": "--:", "c": ":-:"}
    lines = [
        "| " + " | ".join(header) + " |",
        "| " + " | ".join(marks[a] for a in align) + " |",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


DEFAULT_TEXT: Mapping[str, str] = {
    "candidate": "candidate",
    "role": "role",
    "score": "score",
    "weight": "weight",
    "target": "target",
    "top": "top",
    "representation": "new representation",
    "baseline": "baseline",
    "shift": "shift",
}


def _token_cell(labels: Labels, token: str, index: int | None = None) -> str:
    shown, raw = labels(token, index), labels.raw(token, index)
    if shown == raw:
        return md_text(raw)
    return f"{md_text(shown)} <small>({md_text(raw)})</small>"


def render_target_table(
    result: DocumentResult,
    target: TargetResult,
    labels: Labels,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
) -> str:
    """One target: its candidates with role, score, weight and vector, then the representation.

    ``number_format`` applies to weights only: scores and vectors keep the printout style, since a
    percentage format would make them wrong.
    """
    words = {**DEFAULT_TEXT, **(text or {})}
    header = [
        md_text(words["candidate"]),
        md_text(words["role"]),
        md_text(words["score"]),
        md_text(words["weight"]),
        *(md_text(c) for c in result.vector_columns),
    ]
    align = ["l", "l", "r", "r", *("r" for _ in result.vector_columns)]
    rows = []
    for cand in target.candidates:
        weight = format_value(cand.weight, number_format)
        if (cand.token, cand.index) == (target.top, target.top_index):
            weight = f"**{weight}**"
        rows.append(
            [
                _token_cell(labels, cand.token, cand.index),
                md_text(cand.role),
                py_round(cand.score),
                weight,
                *(py_round(v) for v in cand.vector),
            ]
        )
    blank = ["", "", ""]
    for key, vector in (
        ("representation", target.representation),
        ("baseline", result.baseline),
        ("shift", target.shift),
    ):
        rows.append([f"*{md_text(words[key])}*", *blank, *(py_round(v) for v in vector)])
    return _table(header, align, rows)


def render_tables(
    result: DocumentResult,
    labels: Labels,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
) -> str:
    """Every requested target, each under a caption naming it, its top token and groups."""
    words = {**DEFAULT_TEXT, **(text or {})}
    parts: list[str] = []
    for target in result.targets:
        name = _token_cell(labels, target.target, target.target_index)
        top = _token_cell(labels, target.top, target.top_index)
        caption = f"**{md_text(words['target'])} {name}** · {md_text(words['top'])}: {top}"
        for name, weight in target.groups:
            caption += f" · {md_text(name)}: {format_value(weight, number_format)}"
        table = render_target_table(result, target, labels, number_format, text)
        parts.append(caption + "\n\n" + table)
    return "\n\n".join(parts)


def render_compare(
    result: DocumentResult,
    labels: Labels,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
) -> str:
    """Candidates × targets; each target's top weight in bold so the shift of focus shows."""
    words = {**DEFAULT_TEXT, **(text or {})}
    order: list[tuple[str, int | None]] = []
    for target in result.targets:
        for cand in target.candidates:
            if (cand.token, cand.index) not in order:
                order.append((cand.token, cand.index))
    header = [
        md_text(words["candidate"]),
        *(_token_cell(labels, t.target, t.target_index) for t in result.targets),
    ]
    align = ["l", *("r" for _ in result.targets)]
    rows = []
    for token, index in order:
        row = [_token_cell(labels, token, index)]
        for target in result.targets:
            matches = [c for c in target.candidates if (c.token, c.index) == (token, index)]
            if not matches:
                row.append("–")
                continue
            cell = format_value(sum(c.weight for c in matches), number_format)
            row.append(
                f"**{cell}** ▲" if (token, index) == (target.top, target.top_index) else cell
            )
        rows.append(row)
    for name in [n for n, _ in result.targets[0].groups] if result.targets else []:
        rows.append(
            [
                f"*{md_text(name)}*",
                *(format_value(dict(t.groups)[name], number_format) for t in result.targets),
            ]
        )
    return _table(header, align, rows)


def render_csv_rows(
    header: Sequence[str], rows: Sequence[Sequence[str]], link: str | None, file_name: str
) -> str:
    """The document's raw CSV rows; ``link`` (already URL-safe) offers the whole file."""
    numeric = [all(_is_number(r[i]) for r in rows) for i in range(len(header))]
    table = _table(
        [md_text(h) for h in header],
        ["r" if n else "l" for n in numeric],
        [[md_text(cell) for cell in row] for row in rows],
    )
    if link is None:
        return table
    return table + f'\n\n<a href="{html_text(link)}" download>{md_text(file_name)}</a>'


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
