"""Which layouts a CSV can serve, read from its header and from which columns hold numbers.

A block says its layout by a key (``targets:``, ``queries:``, ``heads:``); a CSV says nothing, so
``inspect`` guesses from the columns. :data:`LAYOUT_NEEDS` is the one table of what each layout
needs from a header: every choice ``inspect`` makes, and the message when a file fits none of
them, come from it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.input_files import read_input
from mkdocs_selfattn.errors import DataError, listing


@dataclass(frozen=True)
class Header:
    """A CSV's header and the columns whose every cell is a number (read loosely: the validating
    reader of the chosen layout has the last word)."""

    path: str
    names: tuple[str, ...]
    numeric: frozenset[str]
    rows: tuple[tuple[str, ...], ...]

    def text(self) -> tuple[str, ...]:
        return tuple(name for name in self.names if name not in self.numeric)


@dataclass(frozen=True)
class LayoutNeed:
    """What one layout needs from a header."""

    key: str
    """The block key that asks for the layout."""
    roles: tuple[str, ...]
    """Column roles that must be in the header (names after the ``--columns`` mapping)."""
    reader_word: str
    """A numeric column whose name holds this word is one question or head ("" = none)."""
    reader_role: str
    """What such a column is called in a listing: ``score`` or ``weight``."""
    without: tuple[str, ...]
    """Roles whose column must be absent (a target column means the targets layout)."""

    def readers(self, header: Header, names: Mapping[str, str]) -> tuple[str, ...]:
        if not self.reader_word:
            return ()
        mapped = {names[role] for role in names if role in MAPPED}
        return tuple(
            name
            for name in header.names
            if name in header.numeric and self.reader_word in name.lower() and name not in mapped
        )

    def fits(self, header: Header, names: Mapping[str, str]) -> bool:
        return (
            all(names[role] in header.names for role in self.roles)
            and not any(names[role] in header.names for role in self.without)
            and (not self.reader_word or bool(self.readers(header, names)))
        )

    def looked_for(self, header: Header, names: Mapping[str, str]) -> str:
        """What the header lacks for this layout, in a few words."""
        wanted = [repr(names[role]) for role in self.roles if names[role] not in header.names]
        if self.reader_word:
            wanted.append(f"numeric {self.reader_role} columns (names with '{self.reader_word}')")
        found = [repr(names[role]) for role in self.without if names[role] in header.names]
        text = f"{' and '.join(wanted)} for {self.key}"
        return text + (f" without {', '.join(found)}" if found else "")


LAYOUT_NEEDS = (
    LayoutNeed("targets", ("target", "candidate"), "", "score", ()),
    LayoutNeed("queries", (), "score", "score", ("target",)),
    LayoutNeed("heads", (), "weight", "weight", ()),
)
"""The command line's part of the layout registry: one per block key, in their order
(``blocks/spec_layout.LAYOUT_KEYS``; ``tests/build/test_layouts.py`` holds the two equal). The
first that fits is the default."""

MAPPED = ("document", "target", "candidate", "role", "group")
"""Roles a ``--columns`` mapping may move; a mapped column is never a question or head."""


def column_names(mapping: Mapping[str, str]) -> dict[str, str]:
    """Every role's column: the defaults of the targets layout, overridden by the mapping."""
    return {**asdict(ColumnMap()), "group": "", **mapping}


def read_header(path: str) -> Header:
    """The header and its numeric columns; empty when the file cannot be read here (the
    validating reader then says why)."""
    try:
        text = read_input(path).decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except (OSError, UnicodeDecodeError, csv.Error):
        return Header(path, (), frozenset(), ())
    if not rows:
        return Header(path, (), frozenset(), ())
    names = tuple(name.strip() for name in rows[0])
    data = tuple(tuple(row) for row in rows[1:] if row)
    numeric = frozenset(
        name
        for i, name in enumerate(names)
        if data and all(len(row) > i and _is_number(row[i]) for row in data)
    )
    return Header(path, names, numeric, data)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def choose_layout(
    header: Header, mapping: Mapping[str, str], asked: str | None
) -> tuple[LayoutNeed, tuple[str, ...]]:
    """The layout to describe (the one asked for, else the first that fits) and the others that
    fit; a one-line :class:`DataError` naming the columns looked for when none (or not the one
    asked for) fits."""
    names = column_names(mapping)
    if not header.names:
        return LAYOUT_NEEDS[0], ()  # unreadable here: the validating reader says why
    fitting = [need for need in LAYOUT_NEEDS if need.fits(header, names)]
    if asked is not None:
        need = next(n for n in LAYOUT_NEEDS if n.key == asked)
        if need not in fitting:
            raise _none_fits(header, names, [need])
        return need, tuple(n.key for n in fitting if n is not need)
    if not fitting:
        raise _none_fits(header, names, LAYOUT_NEEDS)
    return fitting[0], tuple(n.key for n in fitting[1:])


def _none_fits(header: Header, names: Mapping[str, str], needs: Sequence[LayoutNeed]) -> DataError:
    return DataError(
        header.path,
        "missing column(s) "
        + "; or ".join(need.looked_for(header, names) for need in needs)
        + f"; the header has {listing(header.names)} (map other names with --columns)",
        line=1,
    )
