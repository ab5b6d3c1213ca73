"""ReadingResult records built from the plain-Python reference (``tests/reference_layouts.py``),
so renderers of the questions and heads layouts can be tested without the engine, and the engine
can be held to the same records."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingResult, separation
from tests.reference_layouts import given_weights, project, softmax

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = ROOT / "docs" / "assets" / "part-05" / "chapter-13"
MANUAL_CSV = CHAPTER / "attention-operating-manual-candidates.csv"
HEADS_CSV = CHAPTER / "qkv-multihead-report-scenarios.csv"
MANUAL_QUERIES = {
    "What is the pressure-release holding time?": "score_pressure_hold",
    "What is the coolant-flow criterion?": "score_flow_limit",
    "What are the restart approval conditions?": "score_restart_permission",
}
HEADS = {"single_head": "single_weight", "head1": "head1_weight", "head2": "head2_weight"}
AXES = {
    "decision_axis": ["decision_axis"],
    "evidence_condition_axis": ["evidence_axis", "condition_axis"],
}


def _rows(text: str) -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    rows = list(reader)
    return list(reader.fieldnames or ()), rows


def _lines(
    header: Sequence[str],
    rows: Sequence[tuple[int, Mapping[str, str]]],
    axes: Mapping[str, Sequence[str]],
    candidate: str,
    role: str | None,
) -> tuple[Line, ...]:
    return tuple(
        Line(
            token=row[candidate],
            role="" if role is None else row[role],
            row=n,
            cells=tuple(row[c] for c in header),
            vector=tuple(project(row, axes)),
        )
        for n, row in rows
    )


def _group_weights(
    lines: Sequence[Line], weights: Sequence[float], groups: Mapping[str, Sequence[str]]
) -> tuple[tuple[str, float], ...]:
    pairs = list(zip(lines, weights, strict=True))
    return tuple(
        (name, float(sum(w for line, w in pairs if line.token in set(m))))
        for name, m in groups.items()
    )


def _group(
    name: str,
    lines: tuple[Line, ...],
    heads: Mapping[str, str],
    weights: Mapping[str, list[float]],
    values: Mapping[str, list[float]],
    given: bool,
    groups: Mapping[str, Sequence[str]],
) -> GroupResult:
    n_axes = len(lines[0].vector)
    baseline = tuple(sum(line.vector[a] for line in lines) / len(lines) for a in range(n_axes))
    contexts = {
        h: tuple(
            sum(w * line.vector[a] for w, line in zip(weights[h], lines, strict=True))
            for a in range(n_axes)
        )
        for h in heads
    }
    reference = next(iter(heads))
    results = tuple(
        HeadResult(
            name=h,
            column=column,
            given=given,
            values=tuple(values[h]),
            weights=tuple(weights[h]),
            context=contexts[h],
            shift=tuple(c - b for c, b in zip(contexts[h], baseline, strict=True)),
            groups=_group_weights(lines, weights[h], groups),
            difference=(
                tuple(c - r for c, r in zip(contexts[h], contexts[reference], strict=True))
                if given
                else ()
            ),
        )
        for h, column in heads.items()
    )
    seps = tuple(tuple(separation(a.context, b.context) for b in results) for a in results)
    return GroupResult(name=name, lines=lines, baseline=baseline, heads=results, separations=seps)


def questions_reading(
    text: str,
    queries: Mapping[str, str] = MANUAL_QUERIES,
    value: str = "evidence_signal",
    candidate: str = "line_id",
    role: str | None = "section",
    groups: Mapping[str, Sequence[str]] | None = None,
    source: str = "manual.csv",
) -> ReadingResult:
    """The P5-13.1 layout over a whole file: one group, every query a softmax head."""
    header, rows = _rows(text)
    axes = {value: [value]}
    lines = _lines(header, list(enumerate(rows)), axes, candidate, role)
    values = {q: [float(r[c]) for r in rows] for q, c in queries.items()}
    weights = {q: softmax(v) for q, v in values.items()}
    group = _group("", lines, queries, weights, values, False, groups or {})
    return ReadingResult(
        source=source,
        layout="questions",
        csv_rows=len(rows),
        document=None,
        document_rows=len(rows),
        columns=tuple(header),
        axes=((value, (value,)),),
        temperature=1.0,
        groups=(group,),
    )


def heads_reading(
    text: str,
    document: str = "ops_pressure_return",
    heads: Mapping[str, str] = HEADS,
    axes: Mapping[str, Sequence[str]] = AXES,
    document_column: str = "report_id",
    group_column: str = "scenario",
    candidate: str = "token",
    role: str | None = "relation_role",
    source: str = "heads.csv",
) -> ReadingResult:
    """The P5-13.3 layout: one document's scenarios, every head given weights."""
    header, rows = _rows(text)
    chosen = [(n, r) for n, r in enumerate(rows) if r[document_column] == document]
    by_group: dict[str, list[tuple[int, dict[str, str]]]] = {}
    for n, r in chosen:
        by_group.setdefault(r[group_column], []).append((n, r))
    results = []
    for name, members in by_group.items():
        member_rows = [r for _, r in members]
        lines = _lines(header, members, axes, candidate, role)
        values = {h: [float(r[c]) for r in member_rows] for h, c in heads.items()}
        weights = {h: given_weights(member_rows, c, name, h) for h, c in heads.items()}
        results.append(_group(name, lines, heads, weights, values, True, {}))
    return ReadingResult(
        source=source,
        layout="heads",
        csv_rows=len(rows),
        document=document,
        document_rows=len(chosen),
        columns=tuple(header),
        axes=tuple((a, tuple(c)) for a, c in axes.items()),
        temperature=1.0,
        groups=tuple(results),
    )


def manual_reading() -> ReadingResult:
    return questions_reading(MANUAL_CSV.read_text(encoding="utf-8"))


def report_reading() -> ReadingResult:
    return heads_reading(HEADS_CSV.read_text(encoding="utf-8"))
