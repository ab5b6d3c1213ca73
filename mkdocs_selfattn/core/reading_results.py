"""A ``queries:`` or ``heads:`` example's records: the engine's arrays for the rows the block
chose, turned into :mod:`mkdocs_selfattn.core.readings` records, with the block's names checked
against the file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

import numpy as np

from mkdocs_selfattn.core.attention import Readings
from mkdocs_selfattn.core.named_groups import check_named_groups, document_code, named_weights
from mkdocs_selfattn.core.reading_engine import compute_reading, group_name, separations
from mkdocs_selfattn.core.readings import (
    READING_KINDS,
    GroupResult,
    HeadResult,
    Layout,
    Line,
    ReadingResult,
)
from mkdocs_selfattn.core.table import Table
from mkdocs_selfattn.errors import DataError

_T = TypeVar("_T")


def compute_reading_result(
    table: Table,
    layout: Layout,
    *,
    document: str | None = None,
    groups: Mapping[str, Sequence[str]] | None = None,
    temperature: float = 1.0,
    normalise: bool = False,
) -> ReadingResult:
    """Only ``document``'s rows (the whole file without one), every group of them."""
    part = table
    if document is not None:
        code = document_code(table.source, table.documents, document)
        part = table.subset(table.document_codes == code)
    named = dict(groups or {})
    _check_groups(part, document, named)
    given = READING_KINDS[layout].given
    arrays = compute_reading(part, given=given, temperature=temperature, normalise=normalise)
    return ReadingResult(
        source=table.source,
        layout=layout,
        csv_rows=table.n_rows,
        document=document,
        document_rows=part.n_rows,
        columns=table.header,
        axes=table.columns.axes,
        temperature=1.0 if given else float(temperature),
        groups=_groups(arrays, given, named),
    )


def _groups(
    arrays: Readings, given: bool, named: Mapping[str, Sequence[str]]
) -> tuple[GroupResult, ...]:
    table = arrays.table
    cells = table.row_cells()
    vectors = table.vectors.tolist()
    tokens = table.text(table.columns.candidate)
    roles = table.text(table.columns.role)
    row_numbers = table.row_numbers.tolist()
    weights = arrays.weights.tolist()
    values = [table.values[:, j].tolist() for j in range(len(table.columns.readers))]
    contexts = arrays.contexts
    seps = separations(contexts)
    if not np.isfinite(seps).all():
        raise DataError(table.source, _too_far(table, arrays, seps))
    out: list[GroupResult] = []
    for g in range(arrays.n_groups):
        rows = arrays.rows(g).tolist()
        lines = tuple(
            map(
                Line,
                _pick(tokens, rows),
                _pick(roles, rows),
                _pick(row_numbers, rows),
                _pick(cells, rows),
                map(tuple, _pick(vectors, rows)),
            )
        )
        baseline = arrays.baseline[arrays.baseline_of[g]]
        reference = contexts[g, 0]
        heads: list[HeadResult] = []
        for j, (name, column) in enumerate(table.columns.readers):
            context = contexts[g, j]
            # Beyond the float range these differences are refused by _finite, not warned of.
            with np.errstate(over="ignore", invalid="ignore"):
                apart, moved = context - reference, context - baseline
            shift = _finite(table, moved, name, rows[0], "shift")
            head_weights = _pick(weights[j], rows)
            heads.append(
                HeadResult(
                    name=name,
                    column=column,
                    given=given,
                    values=_pick(values[j], rows),
                    weights=head_weights,
                    context=tuple(context.tolist()),
                    shift=shift,
                    groups=named_weights(lines, head_weights, named),
                    difference=(
                        _finite(table, apart, name, rows[0], "difference") if given else ()
                    ),
                )
            )
        out.append(
            GroupResult(
                name=group_name(table, rows[0]),
                lines=lines,
                baseline=tuple(baseline.tolist()),
                heads=tuple(heads),
                separations=tuple(tuple(row) for row in seps[g].tolist()),
            )
        )
    return tuple(out)


def _pick(values: list[_T], rows: list[int]) -> tuple[_T, ...]:
    """``values`` at ``rows``; a slice when the rows are consecutive (a group listed together,
    the usual file), which spares a Python step per line."""
    if rows and rows[-1] - rows[0] == len(rows) - 1:
        return tuple(values[rows[0] : rows[-1] + 1])
    return tuple(map(values.__getitem__, rows))


def _finite(table: Table, values: np.ndarray, head: str, row: int, what: str) -> tuple[float, ...]:
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(values).all():
            return tuple(float(v) for v in values.tolist())
    raise DataError(
        table.source,
        f"the {what} of {head!r} in group {group_name(table, row) or 'the whole file'!r} is "
        "beyond the largest float (about 1.8e308); scale the vector columns down",
    )


def _too_far(table: Table, arrays: Readings, seps: np.ndarray) -> str:
    g = int(np.flatnonzero(~np.isfinite(seps).all(axis=(1, 2)))[0])
    name = group_name(table, int(arrays.rows(g)[0])) or "the whole file"
    return (
        f"the distance between two heads' contexts in group {name!r} is beyond the largest "
        "float (about 1.8e308); scale the vector columns down"
    )


def _check_groups(part: Table, document: str | None, groups: Mapping[str, Sequence[str]]) -> None:
    in_order = list(dict.fromkeys(part.text(part.columns.candidate)))
    where = "the file" if document is None else f"document {document!r}"
    check_named_groups(part.source, where, groups, in_order)
