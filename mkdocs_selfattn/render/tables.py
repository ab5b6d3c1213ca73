"""Markdown tables: per-target weights, the targets side by side, and the document's CSV rows."""

from __future__ import annotations

from collections.abc import Sequence

from mkdocs_selfattn.attention import DocumentResult, TargetResult
from mkdocs_selfattn.render.escape import html_text, md_text
from mkdocs_selfattn.render.labels import Labels, format_value


def _table(header: Sequence[str], align: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    marks = {"l": ":--", "r": "--:", "c": ":-:"}
    lines = [
        "| " + " | ".join(header) + " |",
        "| " + " | ".join(marks[a] for a in align) + " |",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _token_cell(labels: Labels, token: str) -> str:
    shown = labels(token)
    if shown == token:
        return md_text(token)
    return f"{md_text(shown)} <small>({md_text(token)})</small>"


def render_target_table(
    result: DocumentResult, target: TargetResult, labels: Labels, number_format: str | None = None
) -> str:
    """One target: its candidates with role, score, weight and vector, then the representation."""
    header = ["candidate", "role", "score", "weight", *(md_text(c) for c in result.vector_columns)]
    align = ["l", "l", "r", "r", *("r" for _ in result.vector_columns)]
    rows = []
    for cand in target.candidates:
        weight = format_value(cand.weight, number_format)
        if cand.token == target.top:
            weight = f"**{weight}**"
        rows.append(
            [
                _token_cell(labels, cand.token),
                md_text(cand.role),
                format_value(cand.score, number_format),
                weight,
                *(format_value(v, number_format) for v in cand.vector),
            ]
        )
    rows.append(
        [
            "*new representation*",
            "",
            "",
            "",
            *(format_value(v, number_format) for v in target.representation),
        ]
    )
    rows.append(
        ["*baseline*", "", "", "", *(format_value(v, number_format) for v in result.baseline)]
    )
    rows.append(["*shift*", "", "", "", *(format_value(v, number_format) for v in target.shift)])
    return _table(header, align, rows)


def render_tables(result: DocumentResult, labels: Labels, number_format: str | None = None) -> str:
    """Every requested target, each under a caption naming it, its top token and groups."""
    parts: list[str] = []
    for target in result.targets:
        caption = (
            f"**target {_token_cell(labels, target.target)}** · top: "
            f"{_token_cell(labels, target.top)}"
        )
        for name, weight in target.groups:
            caption += f" · {md_text(name)}: {format_value(weight, number_format)}"
        parts.append(caption + "\n\n" + render_target_table(result, target, labels, number_format))
    return "\n\n".join(parts)


def render_compare(result: DocumentResult, labels: Labels, number_format: str | None = None) -> str:
    """Candidates × targets; each target's top weight in bold so the shift of focus shows."""
    order: list[str] = []
    for target in result.targets:
        for cand in target.candidates:
            if cand.token not in order:
                order.append(cand.token)
    header = ["candidate", *(_token_cell(labels, t.target) for t in result.targets)]
    align = ["l", *("r" for _ in result.targets)]
    rows = []
    for token in order:
        row = [_token_cell(labels, token)]
        for target in result.targets:
            matches = [c for c in target.candidates if c.token == token]
            if not matches:
                row.append("–")
                continue
            weight = sum(c.weight for c in matches)
            cell = format_value(weight, number_format)
            row.append(f"**{cell}** ▲" if token == target.top else cell)
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
