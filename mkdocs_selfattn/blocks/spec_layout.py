"""Which layout a defining block asks for, and the keys that only make sense in one of them.

``targets:``, ``queries:`` and ``heads:`` each decide how the rows
are read, so a block gives at most one; a key of another layout would be silently ignored, so it
is refused at its own line instead.
"""

from __future__ import annotations

from mkdocs_selfattn.blocks.spec_values import Reader
from mkdocs_selfattn.errors import BlockError

LAYOUT_KEYS = ("targets", "queries", "heads")
TARGET_ROLES = ("target", "score", "target_index", "candidate_index")
"""Column roles of the targets layout only: the other layouts name their columns in
``queries:``/``heads:`` and have no target."""


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
    layout = given[0] if given else "targets"
    if layout == "targets":
        if "document" not in data:
            raise BlockError(
                "missing key 'document:'; a block needs 'csv' and 'document' (or 'use'); "
                "with 'queries:' or 'heads:' instead of targets, 'document:' is optional",
                line=reader.start,
            )
        for key in ("axes", "normalise"):
            if key in data:
                raise reader.fail(key, "belongs to a 'queries:' or 'heads:' block; drop it here")
    else:
        if "mixed_candidates" in data:
            raise reader.fail(
                "mixed_candidates", "only the targets layout has targets; drop it here"
            )
        if "vectors" in data and "axes" in data:
            raise reader.fail(
                "axes",
                "give either 'vectors' (one axis per column) or 'axes' (each axis sums its "
                "columns), not both",
            )
    if layout == "queries" and "normalise" in data:
        raise reader.fail(
            "normalise",
            "only given weights ('heads:') are normalised; softmax weights already sum to 1",
        )
    if layout == "heads" and "temperature" in data:
        raise reader.fail(
            "temperature",
            "given weights ('heads:') do not pass through the softmax, so a temperature would "
            "change nothing; drop it (or use 'queries:' with score columns)",
        )
    if layout != "targets":
        _check_names(reader, layout)
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


def _check_roles(reader: Reader, layout: str) -> None:
    columns = reader.data.get("columns")
    if not isinstance(columns, dict):
        return  # the validator reports it
    wrong = TARGET_ROLES if layout != "targets" else ("group",)
    for role in columns:
        if role in wrong:
            where = f"a '{layout}:' block" if layout != "targets" else "the targets layout"
            hint = (
                "name score or weight columns in 'queries:'/'heads:' instead"
                if layout != "targets"
                else "groups of rows come with 'queries:' or 'heads:'"
            )
            raise reader.fail("columns", f"role '{role}' has no meaning in {where}; {hint}")
