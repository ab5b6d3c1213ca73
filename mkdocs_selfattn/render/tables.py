"""The table model every view's tables are built in, its two writers, and the pieces every
layout's tables share (a reader's table, the rows a long table leaves out, the CSV rows); each
layout's tables are built in :mod:`layout_tables`.

Each table is built once as a small model (cells made of styled spans) and written either as
markdown (the command line, a reader's copy) or as HTML (pages: a build that hands markdown tables
to Python-Markdown spends most of its time re-parsing them). Both writers escape every span.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from mkdocs_selfattn.render.escape import html_text, md_text
from mkdocs_selfattn.render.labels import Labels, format_value, py_round

DEFAULT_TEXT: Mapping[str, str] = {
    "candidate": "candidate token",
    "role": "role",
    "score": "score",
    "weight": "weight",
    "target": "current token",
    "top": "top",
    "representation": "new representation",
    "baseline": "baseline",
    "shift": "shift",
}


@dataclass(frozen=True)
class Span:
    """A run of text in one style: "" (plain), "strong", "em" or "small"."""

    text: str
    style: str = ""


Cell = tuple[Span, ...]


@dataclass(frozen=True)
class Table:
    caption: Cell | None
    header: tuple[Cell, ...]
    align: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    link: tuple[str, str] | None = None
    """(href, text) of a download link under the table."""


def plain(text: str) -> Cell:
    return (Span(text),)


def token_cell(labels: Labels, token: str, index: int | None = None, style: str = "") -> Cell:
    shown, raw = labels.label(token, index), labels.raw(token, index)
    if shown == raw:
        return (Span(raw, style),)
    return (Span(shown, style), Span(" "), Span(f"({raw})", "small"))


@dataclass(frozen=True)
class ReaderRow:
    """One candidate row as a reader's table lists it."""

    name: Cell
    role: str
    score: float
    weight: float
    top: bool
    """The reader's top row, whose weight is bold."""
    vector: Sequence[float]


def named_totals(
    groups: Sequence[tuple[str, float]], labels: Labels, number_format: str | None
) -> list[Span]:
    """The caption's end: each named candidate group and the weight it gets."""
    return [
        Span(f" · {labels(name)}: {format_value(total, number_format)}") for name, total in groups
    ]


def reader_table(
    caption: Sequence[Span],
    totals: Sequence[Span],
    axes: Sequence[str],
    rows: Iterable[ReaderRow],
    summary: Sequence[tuple[str, Sequence[float]]],
    words: Mapping[str, str],
    number_format: str | None,
    others: tuple[int, float] | None = None,
) -> Table:
    """One reader's table, whatever the layout calls it (a target, a question): its rows with
    role, score, weight (the top one bold) and vector; ``others`` (the rows left out, their
    summed weight) for a long group; then the ``summary`` vectors (context, baseline, shift)
    under their words. ``number_format`` applies to weights only: scores and vectors keep the
    printout style, since a percentage format would make them wrong."""
    header = tuple(
        plain(w) for w in (words["candidate"], words["role"], words["score"], words["weight"])
    ) + tuple(plain(a) for a in axes)
    out: list[tuple[Cell, ...]] = []
    for row in rows:
        weight = Span(format_value(row.weight, number_format), "strong" if row.top else "")
        out.append(
            (
                row.name,
                plain(row.role),
                plain(py_round(row.score)),
                (weight,),
                *(plain(py_round(v)) for v in row.vector),
            )
        )
    blank = plain("")
    if others is not None:
        count, rest = others
        left = plain(format_value(rest, number_format))
        out.append((other_rows(words, count), blank, blank, left, *(blank for _ in axes)))
    for key, vector in summary:
        out.append(
            ((Span(words[key], "em"),), *(blank,) * 3, *(plain(py_round(v)) for v in vector))
        )
    align = ("l", "l", "r", "r", *("r" for _ in axes))
    return Table(tuple([*caption, *totals]) or None, header, align, tuple(out))


def other_rows(words: Mapping[str, str], count: int) -> Cell:
    """The summary row's first cell: how many rows a long table leaves out."""
    return (Span(words["others"].replace("{n}", f"{count:,}"), "em"),)


def csv_table(
    header: Sequence[str], rows: Sequence[Sequence[str]], link: str | None, file_name: str
) -> Table:
    """The document's raw CSV rows; ``link`` (already URL-safe) offers the whole file."""
    numeric = [all(_is_number(r[i]) for r in rows) for i in range(len(header))]
    return Table(
        None,
        tuple(plain(h) for h in header),
        tuple("r" if n else "l" for n in numeric),
        tuple(tuple(plain(cell) for cell in row) for row in rows),
        None if link is None else (link, file_name),
    )


def csv_rows_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    count: int,
    link: str | None,
    file_name: str,
    words: Mapping[str, str],
) -> Table:
    """The rows an example reads as the file has them: ``rows`` are the first of ``count``;
    a row past them says how many more the file has (``words["others"]``)."""
    table = csv_table(header, rows, link, file_name)
    if count <= len(rows):
        return table
    more = (other_rows(words, count - len(rows)),)
    blank = tuple(plain("") for _ in header[1:])
    return Table(table.caption, table.header, table.align, (*table.rows, more + blank), table.link)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------------------------------------
# Writers

_MD_STYLE = {"": "{}", "strong": "**{}**", "em": "*{}*", "small": "<small>{}</small>"}
_HTML_STYLE = {
    "": "{}",
    "strong": "<strong>{}</strong>",
    "em": "<em>{}</em>",
    "small": "<small>{}</small>",
}
_MD_ALIGN = {"l": ":--", "r": "--:", "c": ":-:"}
_HTML_ALIGN = {"l": "left", "r": "right", "c": "center"}


def _merged(cell: Cell) -> list[Span]:
    """Adjacent spans of one style as one, so markdown never sees ``**a****b**``."""
    spans: list[Span] = []
    for span in cell:
        if not span.text:
            continue
        if spans and spans[-1].style == span.style:
            spans[-1] = Span(spans[-1].text + span.text, span.style)
        else:
            spans.append(span)
    return spans


Escape = Callable[[str], str]


def _md_cell(cell: Cell, escape: Escape = md_text) -> str:
    out = []
    for span in _merged(cell):
        core = span.text.strip() if span.style else span.text
        if not core:
            out.append(escape(span.text))
            continue
        # Emphasis markers must touch the text, so surrounding spaces go outside them.
        lead = span.text[: len(span.text) - len(span.text.lstrip())] if span.style else ""
        trail = span.text[len(span.text.rstrip()) :] if span.style else ""
        out.append(lead + _MD_STYLE[span.style].format(escape(core)) + trail)
    return "".join(out)


def _html_cell(cell: Cell) -> str:
    out = "".join(_HTML_STYLE[s.style].format(html_text(s.text)) for s in _merged(cell))
    return out.replace("\n", "<br>")


def to_markdown(tables: Sequence[Table], escape: Escape = md_text) -> str:
    """Markdown with the tables extension, as a reader would write it (``escape``: how text
    is kept literal, character references by default)."""
    parts: list[str] = []
    for table in tables:
        lines: list[str] = []
        if table.caption:
            lines += [_md_cell(table.caption, escape), ""]
        lines.append("| " + " | ".join(_md_cell(c, escape) for c in table.header) + " |")
        lines.append("| " + " | ".join(_MD_ALIGN[a] for a in table.align) + " |")
        lines += ["| " + " | ".join(_md_cell(c, escape) for c in row) + " |" for row in table.rows]
        if table.link:
            href, text = table.link
            lines += ["", f'<a href="{html_text(href)}" download>{md_text(text)}</a>']
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def to_html(tables: Sequence[Table]) -> str:
    """The HTML Python-Markdown's tables extension would make of :func:`to_markdown`'s output."""
    parts: list[str] = []
    for table in tables:
        if table.caption:
            parts.append(f"<p>{_html_cell(table.caption)}</p>")
        head = "".join(
            f'<th style="text-align: {_HTML_ALIGN[a]};">{_html_cell(c)}</th>'
            for c, a in zip(table.header, table.align, strict=True)
        )
        body = "".join(
            "<tr>"
            + "".join(
                f'<td style="text-align: {_HTML_ALIGN[a]};">{_html_cell(c)}</td>'
                for c, a in zip(row, table.align, strict=True)
            )
            + "</tr>"
            for row in table.rows
        )
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        if table.link:
            href, text = table.link
            parts.append(f'<p><a href="{html_text(href)}" download>{html_text(text)}</a></p>')
    return "\n".join(parts)
