"""The ``try`` view's data for the questions and heads layouts.

The browser engine (assets/try/selfattn-try.js) reads groups of rows, each read by one or more
heads; this module maps a :class:`~mkdocs_selfattn.core.readings.ReadingResult` onto that shape. A
question is its own section (one softmax head), so each question's scores are edited and shown
beside its own weights, chart and context; a scenario of the heads layout is one section read by
every head, the first the reference. Rows carry their vectors already projected onto the axes: a
reader edits scores and weights, never vectors, so the core's projections stay exact.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from mkdocs_selfattn.core.reading_engine import SUM_TOLERANCE
from mkdocs_selfattn.core.readings import HeadResult, ReadingResult
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.try_csv import CsvText, Span
from mkdocs_selfattn.render.try_view import (
    csv_data,
    head_cells,
    head_data,
    named_data,
    view_data,
    view_words,
)

OVERRIDABLE: tuple[str, ...] = ("question", "group", "head", "context", "difference", "sum")
OVERRIDABLE += ("vector", "rescale", "separation")
"""The block's ``text:`` keys this layout adds to the try view's own."""


def reading_try_data(
    result: ReadingResult,
    labels: Labels,
    csv_bytes: bytes,
    *,
    top: int,
    normalise: bool,
    groups: Mapping[str, Sequence[str]],
    number_format: str | None,
    text: Mapping[str, str],
    language: str | None,
    csv_href: str | None,
    csv_name: str,
) -> dict[str, Any]:
    """The engine's input: per question (or per scenario) a section of editable rows."""
    csv_text = csv_bytes.decode("utf-8-sig")
    header = [h.strip() for h in next(csv.reader(io.StringIO(csv_text, newline="")))]
    cut = CsvText(csv_text)
    given = result.kind.given
    k = 1 if given else top
    sections: list[dict[str, Any]] = []
    lines: list[list[dict[str, Any]]] = []
    for group in result.groups:
        heads = [
            _head(
                head,
                labels,
                k,
                list(groups),
                head_cells(group, head, header, cut, result.source, csv_bytes),
            )
            for head in group.heads
        ]
        rows = [
            {
                "label": labels(line.token),
                "token": line.token,
                "role": line.role,
                "vector": list(line.vector),
            }
            for line in group.lines
        ]
        # A group's questions share its lines (by index): thousands of lines are sent once.
        lines.append(rows)
        base = {"rows": len(lines) - 1, "group": group.name, "baseline": list(group.baseline)}
        place = labels(group.name) if group.name and len(result.groups) > 1 else None
        if given:
            sections.append(
                {
                    "kind": "group",
                    "label": labels(group.name),
                    **base,
                    "reference": 0,
                    "heads": heads,
                    "initial": {
                        "differences": [list(h.difference) for h in group.heads[1:]],
                        "separations": [list(row) for row in group.separations],
                    },
                }
            )
            continue
        for head in heads:
            sections.append(
                {
                    "kind": "question",
                    "label": head["name"] + (f" · {place}" if place else ""),
                    **base,
                    "reference": None,
                    "heads": [{**head, "name": ""}],
                }
            )
    return view_data(
        words=reading_words(language, text),
        number_format=number_format,
        temperature=None if given else result.temperature,
        columns=result.axis_names,
        top=k,
        reading={"layout": result.layout, "normalise": normalise, "tolerance": SUM_TOLERANCE},
        named=named_data(groups, labels),
        sections=sections,
        lines=lines,
        csv=csv_data(csv_bytes, csv_text, csv_name, csv_href),
    )


def reading_words(language: str | None, text: Mapping[str, str]) -> dict[str, str]:
    """The try view's words, then this layout's own (render/words.py), then the questions and
    heads tables' for the words both views show (so they agree), then the block's ``text:``."""
    from mkdocs_selfattn.render.try_view import OVERRIDABLE as TRY_OVERRIDABLE
    from mkdocs_selfattn.render.words import READING, TRY_READING, words

    keys = set(OVERRIDABLE) | set(TRY_OVERRIDABLE)
    overrides = {k: v for k, v in text.items() if k in keys}
    own = words(TRY_READING, language)
    table = {k: v for k, v in words(READING, language).items() if k in own}
    return {**view_words(language, {}), **own, **table, **overrides}


def _head(
    head: HeadResult, labels: Labels, k: int, names: list[str], cells: list[Span]
) -> dict[str, Any]:
    weights = dict(head.groups)
    return head_data(
        labels(head.name),
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
        raw=head.name,
        column=head.column,
    )
