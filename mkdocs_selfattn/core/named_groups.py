"""The names a block gives, checked against the file: its ``document:`` and its named candidate
groups. Every layout shares these checks, so a wrong name reads the same in each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mkdocs_selfattn.core.readings import Line
from mkdocs_selfattn.errors import (
    DataError,
    did_you_mean,
    did_you_mean_each,
    first_repeated,
    listing,
)


def document_code(source: str, documents: Sequence[str], document: str) -> int:
    """The code of ``document`` among the file's ``documents`` (in order of first appearance)."""
    if document not in documents:
        raise DataError(
            source,
            f"document {document!r} not found{did_you_mean(document, documents)}; "
            f"the file has {listing(documents, quote=True)}",
            key="document",
        )
    return list(documents).index(document)


def check_named_groups(
    source: str, where: str, groups: Mapping[str, Sequence[str]], in_order: Sequence[str]
) -> None:
    """Every token a group names is a candidate of ``where`` (``in_order``: its distinct
    candidates in CSV order), and named once."""
    known = set(in_order)
    for name, members in groups.items():
        twice = first_repeated(members)
        if twice is not None:
            raise DataError(
                source,
                f"group {name!r} names {twice!r} twice; list each candidate once",
                key="groups",
            )
        absent = list(dict.fromkeys(m for m in members if m not in known))
        if absent:
            named = listing(absent, quote=True)
            which = "which is not a candidate" if len(absent) == 1 else "which are not candidates"
            raise DataError(
                source,
                f"group {name!r} names {named}, {which} of {where}"
                f"{did_you_mean_each(absent, in_order)}; "
                f"its candidates are {listing(in_order, quote=True)}",
                key="groups",
            )


def named_weights(
    lines: Sequence[Line], weights: Sequence[float], groups: Mapping[str, Sequence[str]]
) -> tuple[tuple[str, float], ...]:
    """Each named group's weight under one reader: its members' weights summed left to right
    like the chapter's script, so both print the same rounded value."""
    out = []
    for name, members in groups.items():
        wanted = set(members)
        out.append(
            (
                name,
                float(sum(w for ln, w in zip(lines, weights, strict=True) if ln.token in wanted)),
            )
        )
    return tuple(out)
