"""A block's YAML → its frozen spec. Every block key is declared once, as a row of :data:`KEYS`.

A row says which blocks may carry the key, what its value looks like, what leaving it out means
and how it is checked; the spec dataclasses take their defaults from the rows. A new key is a row
here, a field of the spec, and the code that uses it: nothing in between.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from mkdocs_selfattn.block_yaml import kind, load_mapping, preview
from mkdocs_selfattn.errors import BlockError, closest
from mkdocs_selfattn.markdown_scan import RawBlock

MAX_BODY_BYTES = 64 * 1024

VIEWS = ("output", "table", "compare", "csv", "mermaid", "chart", "code")
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
    "chart_title",
    "axis_weight",
    "axis_candidate",
)
COLUMN_ROLES = (
    "document",
    "target",
    "candidate",
    "role",
    "score",
    "target_index",
    "candidate_index",
)
"""The roles ``columns:`` may map (the fields of :class:`mkdocs_selfattn.candidate_table.ColumnMap`,
not imported here: parsing a page must not load numpy)."""

_ID = re.compile(r"^[A-Za-z_][\w-]*$")
_EMPTY: Mapping[str, Any] = MappingProxyType({})


class _Reader:
    """Typed access to the YAML mapping; each error points at the offending key's line."""

    def __init__(self, data: dict[Any, Any], key_lines: dict[str, int], start: int) -> None:
        self.data = data
        self.key_lines = key_lines
        self.start = start

    def fail(self, key: str, message: str) -> BlockError:
        return BlockError(f"'{key}': {message}", line=self.key_lines.get(key, self.start))

    def text(self, key: str, value: Any, what: str = "a text value") -> str:
        if isinstance(value, str):
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
Validator = Callable[[_Reader, str, Any], Fields]
"""A present key's value → the spec fields it sets (or a :class:`BlockError` at its line)."""


def _text(what: str = "a text value") -> Validator:
    return lambda r, key, value: {key: r.text(key, value, what)}


def _text_list(r: _Reader, key: str, value: Any) -> Fields:
    if isinstance(value, str):
        raise r.fail(key, f"expected a list such as [{value[:40]}], got the text {preview(value)}")
    if not isinstance(value, list):
        raise r.fail(key, f"expected a list, got {kind(value)}")
    return {key: tuple(r.text(key, item, "a text item") for item in value)}


def _targets(r: _Reader, key: str, value: Any) -> Fields:
    fields = _text_list(r, key, value)
    if not fields[key]:
        raise r.fail(key, "the list is empty; leave the key out to show every target")
    return fields


def _id(r: _Reader, key: str, value: Any) -> Fields:
    example_id = r.text(key, value)
    if not _ID.match(example_id):
        raise r.fail(key, f"{example_id!r} is not a simple name; use letters, digits, _ or -")
    return {key: example_id}


def _columns(r: _Reader, key: str, value: Any) -> Fields:
    columns = r.text_map(key, value)
    for role in columns:
        r.unknown(key, "column role", role, COLUMN_ROLES, "roles")
    return {key: MappingProxyType(columns)}


def _by_language(r: _Reader, key: str, value: Any) -> tuple[dict[str, str], dict[str, Any]]:
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


def _localised(r: _Reader, key: str, value: Any) -> Fields:
    plain, by_language = _by_language(r, key, value)
    return {key: MappingProxyType(plain), f"{key}_by_language": MappingProxyType(by_language)}


def _groups(r: _Reader, key: str, value: Any) -> Fields:
    if not isinstance(value, dict):
        raise r.fail(key, "expected a mapping of NAME: [TOKEN, TOKEN]")
    groups: dict[str, tuple[str, ...]] = {}
    for name, members in value.items():
        name_text = r.text(key, name, "group names as text")
        if not _ID.match(name_text):
            raise r.fail(key, f"group name {name_text!r} must be a simple name")
        if isinstance(members, str) or not isinstance(members, list) or not members:
            raise r.fail(key, f"group {name_text!r} needs a list of candidate tokens")
        groups[name_text] = tuple(r.text(key, m, "token text") for m in members)
    return {key: MappingProxyType(groups)}


def _temperature(r: _Reader, key: str, value: Any) -> Fields:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise r.fail(key, f"expected a number, got {kind(value)}")
    if not value > 0 or value != value or value == float("inf"):
        raise r.fail(key, f"must be a finite number greater than 0, not {value}")
    return {key: float(value)}


def _flag(r: _Reader, key: str, value: Any) -> Fields:
    if not isinstance(value, bool):
        raise r.fail(key, f"expected true or false, got {kind(value)} {preview(value)}")
    return {key: value}


def _show(r: _Reader, key: str, value: Any) -> Fields:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise r.fail(key, f"expected a list of views, got {kind(items)}")
    show: list[str] = []
    for item in items:
        show.append(r.text(key, item, "a view name"))
        r.unknown(key, "view", show[-1], VIEWS, "views")
    return {key: tuple(show)}


def _top(r: _Reader, key: str, value: Any) -> Fields:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise r.fail(key, f"expected a whole number ≥ 1, got {preview(value)}")
    return {key: value}


def _number_format(r: _Reader, key: str, value: Any) -> Fields:
    spec = r.text(key, value)
    try:
        format(0.5, spec)
    except ValueError as exc:
        raise r.fail(key, f"{spec!r} is not a format spec ({exc})") from None
    return {key: spec}


def _words(r: _Reader, key: str, value: Any) -> Fields:
    fields = _localised(r, key, value)
    for words in (fields[key], *fields[f"{key}_by_language"].values()):
        unknown = [k for k in words if k not in TEXT_KEYS]
        if unknown:
            r.unknown(key, "text key", unknown[0], TEXT_KEYS, "keys")
    return fields


def _title(r: _Reader, key: str, value: Any) -> Fields:
    if isinstance(value, dict):
        return {f"{key}_by_language": MappingProxyType(r.text_map(key, value))}
    return {key: r.text(key, value)}


Scope = Literal["use", "define", "view", "from"]


@dataclass(frozen=True)
class Key:
    """One block key: which blocks carry it, its value, its meaning when left out, its check."""

    scope: Scope
    """``define``: only a block that defines an example; ``view``: any block; ``use``/``from``:
    the reference to an earlier or shared example."""
    kind: str
    default: Any
    validate: Validator
    doc: str
    required: bool = False


KEYS: Mapping[str, Key] = MappingProxyType(
    {
        "use": Key("use", "text", None, _text(), "id of an example defined earlier"),
        "id": Key("define", "text", None, _id, "name for use: blocks and inline values"),
        "csv": Key("define", "path", None, _text("a file path"), "the CSV file", True),
        "document": Key("define", "text", None, _text(), "the document_id to show", True),
        "targets": Key("define", "list of text", None, _targets, "targets shown (default all)"),
        "vectors": Key("define", "list of text", None, _text_list, "vector columns to use"),
        "columns": Key("define", "mapping", _EMPTY, _columns, "role → CSV column name"),
        "display": Key("define", "mapping", _EMPTY, _localised, "token → label (per language)"),
        "groups": Key("define", "mapping", _EMPTY, _groups, "group name → candidate tokens"),
        "temperature": Key("define", "number", 1.0, _temperature, "divides the scores"),
        "script": Key("define", "path", None, _text(), "example script checked against core"),
        "mixed_candidates": Key(
            "define", "boolean", False, _flag, "targets may re-read different candidates"
        ),
        "show": Key("view", "list of views", ("output",), _show, "views, in order"),
        "top": Key("view", "whole number", 3, _top, "candidates listed per target"),
        "number_format": Key("view", "format spec", None, _number_format, "how numbers print"),
        "text": Key("view", "mapping", _EMPTY, _words, "the views' words (per language)"),
        "title": Key("view", "text or mapping", None, _title, "chart title (per language)"),
        "from": Key("from", "path", None, _text(), "shared examples file that defines use"),
    }
)
DEFINE_KEYS = tuple(name for name, key in KEYS.items() if key.scope == "define")
VIEW_KEYS = tuple(name for name, key in KEYS.items() if key.scope == "view")


def _absent(name: str) -> Any:
    """A spec field's default: the key's row says what leaving the key out means."""
    return field(default_factory=lambda: KEYS[name].default)


@dataclass(frozen=True)
class ViewOptions:
    """How one block shows an example; a ``use:`` block brings its own."""

    show: tuple[str, ...]
    top: int = _absent("top")
    number_format: str | None = None
    text: Mapping[str, str] = _absent("text")
    title: str | None = None
    text_by_language: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: _EMPTY)
    title_by_language: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    language: str | None = None
    """The page's language once the view is localised (see ``mkdocs_selfattn.languages``)."""


@dataclass(frozen=True)
class ExampleSpec:
    """What to compute: one document of one CSV, with labels and groups. Remembers its line."""

    id: str | None
    csv: str
    document: str
    line: int
    targets: tuple[str, ...] | None = None
    vectors: tuple[str, ...] | None = None
    columns: Mapping[str, str] = _absent("columns")
    display: Mapping[str, str] = _absent("display")
    display_by_language: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: _EMPTY)
    groups: Mapping[str, tuple[str, ...]] = _absent("groups")
    temperature: float = _absent("temperature")
    script: str | None = None
    mixed_candidates: bool = _absent("mixed_candidates")
    """Targets of the document may re-read different candidates (no warning)."""
    key_lines: Mapping[str, int] = field(default_factory=lambda: _EMPTY)

    def line_of(self, key: str) -> int:
        """Page line of ``key``, so a bad path points at the ``csv:`` line itself."""
        return self.key_lines.get(key, self.line)


@dataclass(frozen=True)
class BlockSpec:
    """A parsed block: either defines an example or ``use``s an earlier one."""

    line: int
    view: ViewOptions
    example: ExampleSpec | None = None
    use: str | None = None
    source: str | None = None
    """``from:``, the shared examples file that defines ``use``."""


def parse_block(block: RawBlock) -> BlockSpec:
    """YAML body → :class:`BlockSpec`, every problem located on the page."""
    if len(block.body.encode("utf-8")) > MAX_BODY_BYTES:
        raise BlockError(
            f"the block body is larger than {MAX_BODY_BYTES // 1024} KiB; put data in the CSV",
            line=block.start,
        )
    if not block.body.strip():
        raise BlockError(
            "the block is empty; give at least 'csv' and 'document' (or 'use')", line=block.start
        )
    data, key_lines = load_mapping(block.body, body_line=block.start + 1, start=block.start)
    try:
        return _spec_from_mapping(data, key_lines, block.start)
    except RecursionError:
        raise BlockError("the YAML is nested too deeply", line=block.start) from None


def _read(reader: _Reader, scope: Scope) -> Fields:
    """The fields of every key of ``scope`` the block gives, checked in the table's order."""
    fields: Fields = {}
    for name, key in KEYS.items():
        if key.scope == scope and name in reader.data:
            fields |= key.validate(reader, name, reader.data[name])
    return fields


def _spec_from_mapping(data: dict[Any, Any], key_lines: dict[str, int], start: int) -> BlockSpec:
    reader = _Reader(data, key_lines, start)
    for key in data:
        if not isinstance(key, str) or key not in KEYS:
            name = str(key)
            match = closest(name, KEYS)
            hint = f"; did you mean '{match}'?" if match else f"; keys: {', '.join(KEYS)}"
            raise BlockError(f"unknown key '{name}'{hint}", line=key_lines.get(name, start))
    view = ViewOptions(**{"show": KEYS["show"].default, **_read(reader, "view")})
    if "use" in data:
        extra = [k for k in data if k in DEFINE_KEYS]
        if extra:
            raise reader.fail(
                extra[0],
                "a 'use:' block shows an example defined earlier and cannot change its data; "
                f"only {', '.join(VIEW_KEYS)} are allowed here",
            )
        refer = {**_read(reader, "use"), **_read(reader, "from")}
        return BlockSpec(line=start, view=view, use=refer["use"], source=refer.get("from"))
    if "from" in data:
        raise reader.fail(
            "from", "names a shared examples file: say which example with 'use: ID' as well"
        )
    for name, key in KEYS.items():
        if key.required and name not in data:
            raise BlockError(
                f"missing key '{name}:'; a block needs 'csv' and 'document' (or 'use')",
                line=start,
            )
    fields = {"id": None, **_read(reader, "define")}
    example = ExampleSpec(line=start, key_lines=MappingProxyType(dict(key_lines)), **fields)
    if "code" in view.show and example.script is None:
        raise reader.fail("show", "the 'code' view lists the example script: add 'script:'")
    return BlockSpec(line=start, view=view, example=example)
