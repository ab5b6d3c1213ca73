"""Which layout a defining block asks for, and the keys that only make sense in one of them.

``targets:``, ``queries:`` and ``heads:`` each decide how the rows
are read, so a block gives at most one; a key of another layout would be silently ignored, so it
is refused at its own line instead. What each layout refuses is data (:data:`BLOCK_LAYOUTS`), so
a further layout is one more entry, not one more branch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mkdocs_selfattn.blocks.spec_values import Reader
from mkdocs_selfattn.core.readings import READING_KINDS, Layout
from mkdocs_selfattn.errors import BlockError

TARGET_ROLES = ("target", "score", "target_index", "candidate_index")
"""Column roles of the targets layout only: the other layouts name their columns in
``queries:``/``heads:`` and have no target."""

_READING_ONLY = "belongs to a 'queries:' or 'heads:' block; drop it here"
_VECTORS_OR_AXES = (
    "give either 'vectors' (one axis per column) or 'axes' (each axis sums its columns), not both"
)


@dataclass(frozen=True)
class Refusal:
    """Keys that cannot be given together in a layout (one key: not at all), reported at the
    last of them."""

    keys: tuple[str, ...]
    message: str


@dataclass(frozen=True)
class BlockLayout:
    """A layout's block keys: what it refuses, in the order a block is checked."""

    layout: Layout
    """The layout its key asks for."""
    refused: tuple[Refusal, ...]
    foreign_roles: tuple[str, ...]
    """Column roles that mean nothing here, with the hint of where they belong."""
    roles_hint: str
    where: str
    """How a message names a block of this layout."""
    document_required: bool = False
    """Its rows are always one document's (``document:`` must be given)."""

    @property
    def named_readers(self) -> bool:
        """The layout key names readers (found by name or column, so the two must not clash),
        unless its readers are tokens of the file (targets)."""
        return not READING_KINDS[self.layout].readers_are_tokens


BLOCK_LAYOUTS: Mapping[str, BlockLayout] = {
    "targets": BlockLayout(
        layout="targets",
        refused=(Refusal(("axes",), _READING_ONLY), Refusal(("normalise",), _READING_ONLY)),
        foreign_roles=("group",),
        roles_hint="groups of rows come with 'queries:' or 'heads:'",
        where="the targets layout",
        document_required=True,
    ),
    "queries": BlockLayout(
        layout="questions",
        refused=(
            Refusal(("mixed_candidates",), "only the targets layout has targets; drop it here"),
            Refusal(("vectors", "axes"), _VECTORS_OR_AXES),
            Refusal(
                ("normalise",),
                "only given weights ('heads:') are normalised; softmax weights already sum to 1",
            ),
        ),
        foreign_roles=TARGET_ROLES,
        roles_hint="name score or weight columns in 'queries:'/'heads:' instead",
        where="a 'queries:' block",
    ),
    "heads": BlockLayout(
        layout="heads",
        refused=(
            Refusal(("mixed_candidates",), "only the targets layout has targets; drop it here"),
            Refusal(("vectors", "axes"), _VECTORS_OR_AXES),
            Refusal(
                ("temperature",),
                "given weights ('heads:') do not pass through the softmax, so a temperature "
                "would change nothing; drop it (or use 'queries:' with score columns)",
            ),
        ),
        foreign_roles=TARGET_ROLES,
        roles_hint="name score or weight columns in 'queries:'/'heads:' instead",
        where="a 'heads:' block",
    ),
}
"""Keyed by the block key that chooses the layout; the first is the default."""

LAYOUT_KEYS = tuple(BLOCK_LAYOUTS)
DEFAULT_LAYOUT = LAYOUT_KEYS[0]


def check_layout(reader: Reader) -> None:
    data = reader.data
    given = [key for key in LAYOUT_KEYS if key in data]
    if len(given) > 1:
        first, second = given[0], given[1]
        raise reader.fail(
            second,
            f"a block reads its rows one way: '{first}' (line "
            f"{reader.key_lines.get(first, reader.start)}) and '{second}' cannot both be given; "
            "keep one",
        )
    key = given[0] if given else DEFAULT_LAYOUT
    layout = BLOCK_LAYOUTS[key]
    if layout.document_required and "document" not in data:
        raise BlockError(
            "missing key 'document:'; a block needs 'csv' and 'document' (or 'use'); "
            "with 'queries:' or 'heads:' instead of targets, 'document:' is optional",
            line=reader.start,
        )
    for refusal in layout.refused:
        if all(k in data for k in refusal.keys):
            raise reader.fail(refusal.keys[-1], refusal.message)
    if layout.named_readers:
        _check_names(reader, key)
    _check_roles(reader, layout)


def _check_names(reader: Reader, key: str) -> None:
    """A question or head is found by its name or its column (``query:``, inline values): a
    name that is another entry's column would find two."""
    entries = reader.data.get(key)
    if not isinstance(entries, dict):
        return  # the validator reports it
    columns = {str(column): str(name) for name, column in entries.items()}
    for name in entries:
        other = columns.get(str(name))
        if other is not None and other != str(name):
            raise reader.fail(
                key,
                f"{name!r} is also the column of {other!r}; a name must not be another entry's "
                "column (both are used to pick one), rename it",
            )


def _check_roles(reader: Reader, layout: BlockLayout) -> None:
    columns = reader.data.get("columns")
    if not isinstance(columns, dict):
        return  # the validator reports it
    for role in columns:
        if role in layout.foreign_roles:
            raise reader.fail(
                "columns", f"role '{role}' has no meaning in {layout.where}; {layout.roles_hint}"
            )
