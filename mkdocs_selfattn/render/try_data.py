"""The ``try`` view's data, every layout's: the browser engine (assets/try/selfattn-try.js) reads
sections of candidate rows, each read by one or more heads, and this module maps the one record
family onto that shape, asking the layout's kind how (:data:`~mkdocs_selfattn.core.readings.
READING_KINDS`), never its name; each line's editable cell is found from the record itself.

- Softmax readers are a section each (a target, a question), so each reader's scores are edited
  and shown beside its own weights, chart and context; given weights (a heads scenario) are one
  section read by every head, the first the reference.
- A reader that is a token of the one document (a target) names its section itself and carries
  its rows, as the targets' data always has; named readers (questions, heads) send a group's rows
  once, in ``lines``, and their sections point at them by index, so thousands of lines read by
  several questions travel once.

Rows carry their vectors already projected onto the axes: a reader edits scores and weights,
never vectors, so the core's projections stay exact.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from mkdocs_selfattn.core.reading_engine import SUM_TOLERANCE
from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingKind, ReadingResult
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.try_csv import CsvText, Span
from mkdocs_selfattn.render.try_view import csv_data, head_cells, head_data, named_data, view_data


def try_data(
    result: ReadingResult,
    labels: Labels,
    csv_bytes: bytes,
    *,
    source: str,
    columns: Mapping[str, str],
    groups: Mapping[str, Sequence[str]],
    number_format: str | None,
    words: Mapping[str, str],
    csv_href: str | None,
    csv_name: str,
    top: int = 3,
    normalise: bool = False,
) -> dict[str, Any]:
    """The engine's input for an example of any layout: its sections of editable rows.
    ``words``: the view's words in the page's language (the layout's entry in
    ``build/layouts.py`` chooses them)."""
    kind = result.kind
    tokens = kind.readers_are_tokens
    csv_text = csv_bytes.decode("utf-8-sig")
    cells = _score_cells(result, csv_bytes, csv_text, source, columns)
    # A target names its one top candidate and given weights mark their heaviest line; a
    # question lists the block's top lines.
    k = 1 if kind.given or tokens else top
    names = list(groups)
    sections: list[dict[str, Any]] = []
    lines: list[list[dict[str, Any]]] = []
    several = len(result.groups) > 1
    for group, spans in zip(result.groups, cells, strict=True):
        heads = [
            _head(kind, head, labels, k, names, head_spans)
            for head, head_spans in zip(group.heads, spans, strict=True)
        ]
        rows = [_row(kind, line, labels) for line in group.lines]
        place: dict[str, Any]
        if tokens:
            place = {"raw": labels.raw(group.name, group.index), "token": group.name, "rows": rows}
        else:
            lines.append(rows)
            place = {"rows": len(lines) - 1, "group": group.name}
        place["baseline"] = list(group.baseline)
        if kind.given:
            sections.append(_group_section(group, heads, labels, place))
        else:
            sections += [_reader_section(kind, group, h, labels, place, several) for h in heads]
    return view_data(
        words=words,
        number_format=number_format,
        temperature=None if kind.given else result.temperature,
        columns=result.axis_names,
        top=k,
        named=named_data(groups, labels),
        sections=sections,
        csv=csv_data(csv_bytes, csv_text, csv_name, csv_href),
        # Targets' data names their document and keeps its rows in each section (the shape
        # their pages have always embedded); named readers' data says how to check given sums.
        document=(result.document or "") if tokens else None,
        reading=None
        if tokens
        else {"layout": result.layout, "normalise": normalise, "tolerance": SUM_TOLERANCE},
        lines=None if tokens else lines,
    )


def _row(kind: ReadingKind, line: Line, labels: Labels) -> dict[str, Any]:
    row: dict[str, Any] = {"label": labels(line.token, line.index)}
    if kind.readers_are_tokens:
        row["raw"] = labels.raw(line.token, line.index)
    return row | {"token": line.token, "role": line.role, "vector": list(line.vector)}


def _head(
    kind: ReadingKind,
    head: HeadResult,
    labels: Labels,
    k: int,
    names: Sequence[str],
    cells: Sequence[Span],
) -> dict[str, Any]:
    """One head: a target's is its one unnamed reader; a question's or head's is named."""
    weights = dict(head.groups)
    named = not kind.readers_are_tokens
    return head_data(
        labels(head.name) if named else "",
        "given" if head.given else "softmax",
        head.values,
        cells,
        {
            "weights": list(head.weights),
            "context": list(head.context),
            "shift": list(head.shift),
            "top": list(head.top(k)),
            "named": [weights[name] for name in names],
        },
        raw=head.name if named else None,
        column=head.column if named else None,
    )


def _reader_section(
    kind: ReadingKind,
    group: GroupResult,
    head: dict[str, Any],
    labels: Labels,
    place: Mapping[str, Any],
    several: bool,
) -> dict[str, Any]:
    """A softmax reader's own section: a target's under its token, a question's under its name
    (and its group's, where the file has several)."""
    if kind.readers_are_tokens:
        label = labels(group.name, group.index)
        return {"label": label, **place, "reference": None, "heads": [head]}
    where = labels(group.name) if group.name and several else None
    label = head["name"] + (f" · {where}" if where else "")
    section = {"kind": kind.reader, "label": label, **place, "reference": None}
    return section | {"heads": [{**head, "name": ""}]}


def _group_section(
    group: GroupResult, heads: list[dict[str, Any]], labels: Labels, place: Mapping[str, Any]
) -> dict[str, Any]:
    """Given weights: one section for the group, read by every head, the first the reference."""
    return {
        "kind": "group",
        "label": labels(group.name),
        **place,
        "reference": 0,
        "heads": heads,
        "initial": {
            "differences": [list(h.difference) for h in group.heads[1:]],
            "separations": [list(row) for row in group.separations],
        },
    }


def _score_cells(
    result: ReadingResult,
    csv_bytes: bytes,
    csv_text: str,
    source: str,
    columns: Mapping[str, str],
) -> list[list[list[Span]]]:
    """Per group and head, the text span of each line's editable cell, checked against the
    line's own cells or, where lines keep none (targets), its candidate cell."""
    candidate = None
    if not result.columns:
        from mkdocs_selfattn.core.column_map import ColumnMap

        candidate = ColumnMap.from_mapping(dict(columns), source=source).candidate
    header = [h.strip() for h in next(csv.reader(io.StringIO(csv_text, newline="")))]
    cut = CsvText(csv_text)
    return [
        [head_cells(g, h, header, cut, source, csv_bytes, candidate) for h in g.heads]
        for g in result.groups
    ]
