"""Layout-specific shortcuts of the attention core, each giving exactly the definition's answer.

A course CSV lists each group's rows together, often with every group the same size and every
target re-reading the same candidates. These functions recognise such layouts and skip a hash,
a sort or a copy; each returns None (or the plain answer) when the layout does not hold. The
reference tests (tests/test_attention.py) hold the whole core, shortcuts included, to the plain
definition, also on shuffled and interleaved copies of the data.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mkdocs_selfattn.core.arrays import IntArray
from mkdocs_selfattn.core.row_keys import AnyInts, RowGroups, all_distinct, group_keys
from mkdocs_selfattn.core.table import Table


def identity_order(groups: RowGroups) -> IntArray:
    """``arange(n)``: the table's own row numbers when they are exactly that (a whole file).

    Row numbers only ever increase (subsets keep file order), so first 0 and last n - 1 means
    0..n-1; sharing them saves a fresh array as large as a column, which is not free.
    """
    rows = groups.row_numbers
    n = groups.n_rows
    if rows.shape[0] == n and (n == 0 or (rows[0] == 0 and rows[-1] == n - 1)):
        return rows
    return np.arange(n, dtype=np.int64)


def whole_group_runs(groups: RowGroups) -> IntArray | None:
    """First rows of the runs of rows sharing a group, when every run is a whole group.

    A course CSV normally lists each group's rows together; then neither a per-row key nor a
    sort is needed: only the runs' first rows are keyed. None when some group is split.
    """
    n = groups.n_rows
    columns: list[AnyInts] = [groups.document_codes, groups.group_codes]
    if groups.group_index is not None:
        columns.append(groups.group_index)
    boundary = np.zeros(n, dtype=bool)
    boundary[:1] = True
    for column in columns:
        boundary[1:] |= column[1:] != column[:-1]
    run_starts = np.flatnonzero(boundary)
    del boundary
    if all_distinct(group_keys(groups, run_starts)):
        return run_starts
    return None


def first_group_rows(
    table: Table, candidate_keys: AnyInts, size: int
) -> npt.NDArray[np.bool_] | None:
    """First occurrences without hashing every row, when the layout allows it; else None.

    In a course CSV each target of a document re-reads the same candidates in the same order. If
    so (checked here), and the document's first group names no candidate twice, then exactly the
    rows of each document's first group are the first occurrences.
    """
    n_groups = table.n_rows // size
    keys = candidate_keys.reshape(n_groups, size)
    group_docs = table.document_codes[::size]
    new_doc = np.empty(n_groups, dtype=bool)
    new_doc[0] = True
    np.not_equal(group_docs[1:], group_docs[:-1], out=new_doc[1:])
    first_group = np.flatnonzero(new_doc)
    if not all_distinct(group_docs[first_group]):
        return None  # a document's groups are not all together
    # Each group equals the one before it unless it starts a new document.
    same = keys[1:] == keys[:-1]
    same |= new_doc[1:, None]
    if not same.all():
        return None
    leaders = np.sort(keys[first_group], axis=1)
    if np.any(leaders[:, 1:] == leaders[:, :-1]):
        return None
    is_first = np.zeros((n_groups, size), dtype=bool)
    is_first[first_group] = True
    return is_first.reshape(-1)
