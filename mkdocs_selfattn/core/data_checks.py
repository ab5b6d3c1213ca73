"""Mistakes in a document's rows that compute without error but mean nothing: refused or warned.

The core takes rows as they come (the first vector of a candidate makes the baseline, two rows of
one candidate both get weight), which hides a copied row or an edited vector. These checks run on
the one document a page shows, on numpy arrays, and name the file lines of both rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from mkdocs_selfattn.errors import DataError

if TYPE_CHECKING:
    from mkdocs_selfattn.core.arrays import IntArray
    from mkdocs_selfattn.core.attention import AttentionResults
    from mkdocs_selfattn.core.table import Table


@dataclass(frozen=True)
class DataProblems:
    """What the checks found in one document: the refusals a page would fail on, and the
    warnings it would log. Commands that only look at a file (``inspect``) list them all."""

    errors: tuple[DataError, ...] = ()
    warnings: tuple[str, ...] = ()


def check_document(results: AttentionResults, document: str) -> tuple[str, ...]:
    """Raise on a candidate named twice in a group or with two vectors in one document; return
    a warning for each target whose candidates differ from the document's first target's."""
    problems = find_problems(results, document)
    if problems.errors:
        raise problems.errors[0]
    return problems.warnings


def document_problems(table: Table, document: str) -> DataProblems:
    """The checks a page applies, on ``document``'s rows of a whole file, without raising."""
    from mkdocs_selfattn.core.attention import compute

    doc_code = table.documents.index(document)
    return find_problems(compute(table.subset(table.document_codes == doc_code)), document)


def find_problems(results: AttentionResults, document: str) -> DataProblems:
    """Every kind of mistake once (its first rows), in the order a page reports them."""
    from mkdocs_selfattn.core.row_keys import combine, first_appearance_codes

    table = results.table
    if table.n_rows == 0:
        return DataProblems()
    names = table.encoded
    keys = names.candidate_codes.astype(np.int64)
    if names.candidate_index is not None:
        keys = combine(keys, names.candidate_index)
    candidate = first_appearance_codes(keys)
    group = np.empty(table.n_rows, dtype=np.int64)
    group[results.order] = np.repeat(np.arange(results.n_groups, dtype=np.int64), results.sizes)
    errors = [
        error
        for error in (
            _repeat(results, document, group, candidate),
            _two_vectors(results, document, group, candidate),
        )
        if error is not None
    ]
    if errors:
        # Uneven targets are judged on sets, which repeats make meaningless.
        return DataProblems(tuple(errors))
    return DataProblems((), _uneven_targets(results, document, group, candidate))


def _first_rows(keys: IntArray) -> IntArray:
    """For each row, the first row with the same key (hashing, no sort: this runs on every
    example, and a sort of a large document cost ten times the softmax)."""
    from mkdocs_selfattn.core.row_keys import first_appearance_codes

    codes = first_appearance_codes(keys)
    # First-appearance codes grow by one exactly at each key's first row, so those rows, in
    # order, are indexed by code.
    is_first = np.empty(codes.shape[0], dtype=bool)
    is_first[0] = True
    np.greater(codes[1:], np.maximum.accumulate(codes)[:-1], out=is_first[1:])
    return np.flatnonzero(is_first)[codes]


def _repeat(
    results: AttentionResults, document: str, group: IntArray, candidate: IntArray
) -> DataError | None:
    table = results.table
    first = _first_rows(group * (int(candidate.max()) + 1) + candidate)
    again = np.flatnonzero(first != np.arange(table.n_rows))
    if not again.size:
        return None
    row = int(again[0])
    earlier = int(first[row])
    hint = (
        ""
        if table.encoded.candidate_index is not None
        else " (if the token occurs at two positions, add target_index and candidate_index columns)"
    )
    return DataError(
        table.source,
        f"candidate {_name(table, row)} appears twice for target {_target(results, group, row)} "
        f"of document {document!r} (lines {table.line_of(earlier)} and {table.line_of(row)}); "
        f"delete one of the rows{hint}",
        line=table.line_of(row),
    )


def _two_vectors(
    results: AttentionResults, document: str, group: IntArray, candidate: IntArray
) -> DataError | None:
    table = results.table
    first = _first_rows(candidate)
    differs = np.flatnonzero(np.any(table.vectors != table.vectors[first], axis=1))
    if not differs.size:
        return None
    row = int(differs[0])
    earlier = int(first[row])
    return DataError(
        table.source,
        f"candidate {_name(table, row)} of document {document!r} has the vector "
        f"{_vector(table, row)} here (target {_target(results, group, row)}) but "
        f"{_vector(table, earlier)} on line {table.line_of(earlier)} (target "
        f"{_target(results, group, earlier)}); a candidate has one vector in a document (the "
        "baseline counts it once): make the rows agree",
        line=table.line_of(row),
    )


def _uneven_targets(
    results: AttentionResults, document: str, group: IntArray, candidate: IntArray
) -> tuple[str, ...]:
    table = results.table
    if results.n_groups < 2:
        return ()
    first_rows = results.order[results.starts[0] : results.starts[0] + results.sizes[0]]
    wanted = candidate[first_rows]
    # No candidate repeats in a group (checked before), so same size and all members known
    # means the same set.
    unknown = np.bincount(group, weights=~np.isin(candidate, wanted), minlength=results.n_groups)
    uneven = np.flatnonzero((results.sizes != results.sizes[0]) | (unknown > 0))
    if not uneven.size:
        return ()
    g = int(uneven[0])
    rows = results.order[results.starts[g] : results.starts[g] + results.sizes[g]]
    missing = first_rows[~np.isin(wanted, candidate[rows])]
    extra = rows[~np.isin(candidate[rows], wanted)]
    parts = []
    if missing.size:
        parts.append("lacks " + _names(table, missing))
    if extra.size:
        parts.append("adds " + _names(table, extra))
    row, reference = int(rows[0]), int(first_rows[0])
    more = uneven.size - 1
    others = f" (and {more} more target{'s' if more > 1 else ''})" if more else ""
    return (
        f"{table.source}:{table.line_of(row)}: target {_target(results, group, row)} of "
        f"document {document!r}{others} {' and '.join(parts)} compared with target "
        f"{_target(results, group, reference)} (line {table.line_of(reference)}); give every "
        "target the same candidates, or set 'mixed_candidates: true' if that is intended",
    )


def _names(table: Table, rows: IntArray, limit: int = 6) -> str:
    """Candidates of ``rows``, in CSV order."""
    shown = ", ".join(_name(table, int(r)) for r in rows[:limit])
    return shown + (f" and {rows.size - limit} more" if rows.size > limit else "")


def _name(table: Table, row: int) -> str:
    names = table.encoded
    token = names.token(row)
    if names.candidate_index is None:
        return repr(token)
    return repr(f"{token}@{int(names.candidate_index[row])}")


def _target(results: AttentionResults, group: IntArray, row: int) -> str:
    g = int(group[row])
    token = results.table.groups[results.group_target[g]]
    if results.group_target_index is None:
        return repr(token)
    return repr(f"{token}@{int(results.group_target_index[g])}")


def _vector(table: Table, row: int) -> str:
    return "[" + ", ".join(repr(float(v)) for v in table.vectors[row]) + "]"
