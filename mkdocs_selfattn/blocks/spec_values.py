"""How each block key's value is checked: the validators that
:data:`mkdocs_selfattn.blocks.spec.KEYS` names, each turning a present value into spec fields or a
:class:`BlockError` at the key's line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from mkdocs_selfattn.blocks.block_yaml import kind, preview
from mkdocs_selfattn.core.hidden_text import first_hidden, what_is_wrong
from mkdocs_selfattn.errors import BlockError, closest, first_repeated
from mkdocs_selfattn.render.format_spec import number_spec_problem

VIEWS = (
    "output",
    "table",
    "compare",
    "csv",
    "mermaid",
    "chart",
    "code",
    "try",
    "context_chart",
    "separation_chart",
    "context_space",
)
TEXT_KEYS = (
    "document",
    "candidates",
    "candidate",
    "role",
    "score",
    "weight",
    "top",
    "baseline",
    "target",
    "weights",
    "representation",
    "shift",
    "question",  # the reading layouts' tables
    "context",
    "difference",
    "separation",
    "group",
    "others",
    "vector",
    "chart_title",
    "axis_weight",
    "axis_candidate",
    "temperature",  # the try view's own words
    "reset",
    "download",
    "others",  # the figures' words (charts and mermaid)
    "axis_context",
    "axis_separation",
    "axis_group",
    "axis_x",
    "axis_y",
    "space_axes",
    "first_groups",
    "query",
    "context",
    "group",
    "head",
    "separation",
    "sum",  # the try view's words for queries: and heads: (render/try_view.reading_words)
    "rescale",
)
COLUMN_ROLES = (
    "document",
    "target",
    "candidate",
    "role",
    "score",
    "target_index",
    "candidate_index",
    "group",
)
"""The roles ``columns:`` may map (the fields of
:class:`mkdocs_selfattn.core.column_map.ColumnMap`, not imported here: parsing a page must
not load numpy)."""

_ID = re.compile(r"^[A-Za-z_][\w-]*$")
EMPTY: Mapping[str, Any] = MappingProxyType({})


class Reader:
    """Typed access to the YAML mapping; each error points at the offending key's line."""

    def __init__(self, data: dict[Any, Any], key_lines: dict[str, int], start: int) -> None:
        self.data = data
        self.key_lines = key_lines
        self.start = start

    def fail(self, key: str, message: str) -> BlockError:
        return BlockError(f"'{key}': {message}", line=self.key_lines.get(key, self.start))

    def text(self, key: str, value: Any, what: str = "a text value") -> str:
        if isinstance(value, str):
            at = first_hidden(value)
            if at is not None:
                # Labels, names and ids are shown or compared as names (see hidden_text).
                raise self.fail(key, what_is_wrong(value, at))
            return value
        hint = ""
        if isinstance(value, bool | int | float) or value is None:
            hint = " (YAML reads yes/no/on/off/null and numbers as non-text: quote it)"
        raise self.fail(key, f"expected {what}, got {kind(value)} {preview(value)}{hint}")

    def text_map(self, key: str, value: Any) -> dict[str, str]:
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a mapping such as {{a: b}}, got {kind(value)}")
        return {self.text(key, k, "text keys"): self.text(key, v) for k, v in value.items()}

    def unknown(self, key: str, what: str, name: str, known: tuple[str, ...], plural: str) -> None:
        """Refuse ``name`` unless it is one of ``known``, suggesting the closest."""
        if name not in known:
            match = closest(name, known)
            hint = f"did you mean '{match}'?" if match else f"{plural}: {', '.join(known)}"
            raise self.fail(key, f"unknown {what} '{name}'; {hint}")


Fields = dict[str, Any]
Validator = Callable[[Reader, str, Any], Fields]
"""A present key's value → the spec fields it sets (or a :class:`BlockError` at its line)."""


def text(what: str = "a text value") -> Validator:
    return lambda r, key, value: {key: r.text(key, value, what)}


def text_list(r: Reader, key: str, value: Any) -> Fields:
    if isinstance(value, str):
        raise r.fail(key, f"expected a list such as [{value[:40]}], got the text {preview(value)}")
    if not isinstance(value, list):
        raise r.fail(key, f"expected a list, got {kind(value)}")
    return {key: tuple(r.text(key, item, "a text item") for item in value)}


def targets(r: Reader, key: str, value: Any) -> Fields:
    fields = text_list(r, key, value)
    if not fields[key]:
        raise r.fail(key, "the list is empty; leave the key out to show every target")
    return fields


def example_id(r: Reader, key: str, value: Any) -> Fields:
    example_id = r.text(key, value)
    if not _ID.match(example_id):
        raise r.fail(key, f"{example_id!r} is not a simple name; use letters, digits, _ or -")
    return {key: example_id}


def columns(r: Reader, key: str, value: Any) -> Fields:
    columns = r.text_map(key, value)
    for role in columns:
        r.unknown(key, "column role", role, COLUMN_ROLES, "roles")
    return {key: MappingProxyType(columns)}


def readers(r: Reader, key: str, value: Any) -> Fields:
    """``queries:``/``heads:``: NAME → column, in the block's order (the first head is the
    reference the others are compared with)."""
    if not isinstance(value, dict):
        raise r.fail(key, f"expected a mapping such as {{NAME: COLUMN}}, got {kind(value)}")
    if not value:
        raise r.fail(key, "the mapping is empty; name at least one NAME: COLUMN")
    return {key: MappingProxyType(r.text_map(key, value))}


def axes(r: Reader, key: str, value: Any) -> Fields:
    """``axes:``: NAME → [COLUMN, …]; an axis is the sum of its columns, in this order."""
    if not isinstance(value, dict) or not value:
        raise r.fail(key, "expected a mapping such as {NAME: [COLUMN, COLUMN]}")
    found: dict[str, tuple[str, ...]] = {}
    for name, members in value.items():
        axis = r.text(key, name, "axis names as text")
        if isinstance(members, str):
            members = [members]
        if not isinstance(members, list) or not members:
            raise r.fail(key, f"axis {axis!r} needs a list of vector columns, such as [{axis}]")
        found[axis] = tuple(r.text(key, m, "column names as text") for m in members)
    return {key: MappingProxyType(found)}


def _by_language(r: Reader, key: str, value: Any) -> tuple[dict[str, str], dict[str, Any]]:
    """``{a: b}`` for every page, or ``{LANG: {a: b}, …}`` with one mapping per language."""
    if not isinstance(value, dict) or not any(isinstance(v, dict) for v in value.values()):
        return r.text_map(key, value), {}
    by_language: dict[str, dict[str, str]] = {}
    for language, words in value.items():
        code = r.text(key, language, "a language code such as en")
        if not isinstance(words, dict):
            raise r.fail(
                key,
                f"give every language its own mapping ({code}: {{…}}), or one mapping for all "
                "pages; do not mix the two",
            )
        by_language[code] = {r.text(key, k, "text keys"): r.text(key, v) for k, v in words.items()}
    return {}, by_language


def localised(r: Reader, key: str, value: Any) -> Fields:
    plain, by_language = _by_language(r, key, value)
    return {key: MappingProxyType(plain), f"{key}_by_language": MappingProxyType(by_language)}


def groups(r: Reader, key: str, value: Any) -> Fields:
    if not isinstance(value, dict):
        raise r.fail(key, "expected a mapping of NAME: [TOKEN, TOKEN]")
    groups: dict[str, tuple[str, ...]] = {}
    for name, members in value.items():
        name_text = r.text(key, name, "group names as text")
        if not _ID.match(name_text):
            raise r.fail(key, f"group name {name_text!r} must be a simple name")
        if isinstance(members, str) or not isinstance(members, list) or not members:
            raise r.fail(key, f"group {name_text!r} needs a list of candidate tokens")
        tokens = tuple(r.text(key, m, "token text") for m in members)
        twice = first_repeated(tokens)
        if twice is not None:
            # A script summing the list would count that weight twice: refuse, never dedupe.
            raise r.fail(
                key,
                f"group {name_text!r} names {twice!r} twice; list each candidate once",
            )
        groups[name_text] = tokens
    return {key: MappingProxyType(groups)}


def temperature(r: Reader, key: str, value: Any) -> Fields:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise r.fail(key, f"expected a number, got {kind(value)}")
    if not value > 0 or value != value or value == float("inf"):
        raise r.fail(key, f"must be a finite number greater than 0, not {value}")
    return {key: float(value)}


def flag(r: Reader, key: str, value: Any) -> Fields:
    if not isinstance(value, bool):
        raise r.fail(key, f"expected true or false, got {kind(value)} {preview(value)}")
    return {key: value}


def show(r: Reader, key: str, value: Any) -> Fields:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise r.fail(key, f"expected a list of views, got {kind(items)}")
    show: list[str] = []
    for item in items:
        show.append(r.text(key, item, "a view name"))
        r.unknown(key, "view", show[-1], VIEWS, "views")
        if show[-1] in show[:-1]:
            # A view shown twice is the same text twice: a large printout repeated by show:
            # would multiply the page, and never says more.
            raise r.fail(key, f"'{show[-1]}' is listed twice; show each view once")
    return {key: tuple(show)}


def top(r: Reader, key: str, value: Any) -> Fields:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise r.fail(key, f"expected a whole number ≥ 1, got {preview(value)}")
    return {key: value}


def number_format(r: Reader, key: str, value: Any) -> Fields:
    spec = r.text(key, value)
    problem = number_spec_problem(spec)
    if problem is not None:
        raise r.fail(key, f"{spec!r} {problem.replace(' a Python ', ' a ')}")
    return {key: spec}


def words(r: Reader, key: str, value: Any) -> Fields:
    fields = localised(r, key, value)
    for words in (fields[key], *fields[f"{key}_by_language"].values()):
        unknown = [k for k in words if k not in TEXT_KEYS]
        if unknown:
            r.unknown(key, "text key", unknown[0], TEXT_KEYS, "keys")
    return fields


def title(r: Reader, key: str, value: Any) -> Fields:
    if isinstance(value, dict):
        return {f"{key}_by_language": MappingProxyType(r.text_map(key, value))}
    return {key: r.text(key, value)}


def caption(r: Reader, key: str, value: Any) -> Fields:
    """One line under a figure, or one per language; inline values are filled in on the page."""
    fields = title(r, key, value)
    for line in (fields.get(key), *fields.get(f"{key}_by_language", {}).values()):
        if line is not None and ("\n" in line.strip() or not line.strip()):
            raise r.fail(key, "a caption is one line of text: a one-sentence summary")
    return {**fields, f"{key}_line": r.key_lines.get(key, r.start)}
