"""The CSV front end's one check for invisible and direction-changing characters in names.

Both readers (the stdlib's for a small file, Arrow's for a big one) and both table families
(targets; questions and heads) call :func:`refuse_hidden_names` on what they read, so a name
holding a hidden character (:mod:`hidden_text`) is refused alike, at its first line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from mkdocs_selfattn.core.arrays import CodeArray
from mkdocs_selfattn.core.csv_diagnose import row_line
from mkdocs_selfattn.core.hidden_text import (
    SUSPECT,
    first_hidden,
    look_alike,
    spelled,
    what_is_wrong,
)
from mkdocs_selfattn.core.table_cells import Cells
from mkdocs_selfattn.errors import DataError

_Problem = tuple[int, str, str]
"""(data row, column, message)."""


def refuse_hidden_names(
    source: str,
    data: bytes,
    encoded: Mapping[str, tuple[Sequence[str], CodeArray]],
    cells: Cells | None = None,
    plain: Sequence[str] = (),
) -> None:
    """Raise the :class:`DataError` of the first name cell holding a hidden character.

    ``encoded``: key columns as (distinct values in order of first appearance, row codes), read
    as distinct values only; ``plain``: name columns of ``cells`` that are not encoded (a line id
    column may have a million distinct values).
    """

    def line_of(row: int) -> int:
        return row_line(data, row)

    problems = [p for column, pair in encoded.items() if (p := _in_encoded(column, *pair, line_of))]
    if cells is not None:
        problems += [p for column in plain if (p := _in_plain(cells, column, line_of))]
    if problems:
        row, column, message = min(problems)
        raise DataError(source, message, line=line_of(row), column=column)


def _in_encoded(
    column: str, values: Sequence[str], codes: CodeArray, line_of: Callable[[int], int]
) -> _Problem | None:
    if SUSPECT.search("\n".join(values)) is None:
        return None

    def first_row(value_index: int) -> int:
        return int(np.argmax(codes == value_index))

    # Values are numbered by first appearance, so the first bad value is on the first bad row.
    for k, value in enumerate(values):
        at = first_hidden(value)
        if at is not None:
            return first_row(k), column, what_is_wrong(value, at)
    pair = look_alike(values)
    if pair is None:
        return None
    first, second = pair
    return (
        first_row(second),
        column,
        _twins(values[second], values[first], line_of(first_row(first))),
    )


def _in_plain(cells: Cells, column: str, line_of: Callable[[int], int]) -> _Problem | None:
    suspects = cells.suspects(column)
    for row, text in suspects:
        at = first_hidden(text)
        if at is not None:
            return row, column, what_is_wrong(text, at)
    if not suspects:
        return None
    # Rare: a joiner or selector between visible characters; it must not make a twin.
    texts = cells.texts(column)
    values = list(dict.fromkeys(texts))
    pair = look_alike(values)
    if pair is None:
        return None
    first, second = (texts.index(values[i]) for i in pair)
    return second, column, _twins(values[pair[1]], values[pair[0]], line_of(first))


def _twins(second: str, first: str, first_line: int) -> str:
    return (
        f"{spelled(second)!r} looks the same as {spelled(first)!r} of line {first_line}: the two "
        "differ only by invisible joiners or variation selectors; write the name one way"
    )
