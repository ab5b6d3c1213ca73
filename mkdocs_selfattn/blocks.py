"""Find example blocks and inline values in a page's markdown, and parse block options.

This module knows the syntax only: where blocks and inline values are, and what their options mean.
It reads no files, so the plugin, the Python-Markdown extension and tests all share it.
"""

from __future__ import annotations

import difflib
import re
import reprlib
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import yaml

from mkdocs_selfattn.errors import BlockError

FENCE_NAME = "selfattn"
MAX_BODY_BYTES = 64 * 1024

VIEWS = ("output", "table", "compare", "csv", "mermaid", "chart", "code", "try")
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
    "temperature",  # the try view's own words
    "reset",
    "download",
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
"""The roles ``columns:`` may map (the fields of :class:`mkdocs_selfattn.table.ColumnMap`)."""

_DEFINE_KEYS = (
    "id",
    "csv",
    "document",
    "targets",
    "vectors",
    "columns",
    "display",
    "groups",
    "temperature",
    "script",
    "mixed_candidates",
)
_VIEW_KEYS = ("show", "top", "number_format", "text", "title")
_ALL_KEYS = ("use", *_DEFINE_KEYS, *_VIEW_KEYS, "from")

# The indent may hold blockquote markers ("> ", "> > "), so blocks in blockquotes are found too.
_FENCE_OPEN = re.compile(
    r"^(?P<indent>[ \t]*(?:>[ \t]?)*[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*)$"
)
_ID = re.compile(r"^[A-Za-z_][\w-]*$")


@dataclass(frozen=True)
class RawBlock:
    """A ``selfattn`` fence as found: page lines are 1-based, ``body`` is dedented."""

    start: int
    end: int
    indent: str
    """What precedes the fence on its line: spaces, and ``>`` markers inside a blockquote."""
    body: str

    @property
    def blank(self) -> str:
        """An empty line at the block's depth: ``>`` keeps a blockquote going, spaces do not
        matter."""
        return self.indent.rstrip()


def _fences(lines: list[str]) -> Iterator[tuple[int, int, re.Match[str]]]:
    """Outermost fenced code blocks as (opening line, closing line, opening match), 0-based;
    an unclosed fence runs to the end. Fences inside a fence are its text, never blocks."""
    i = 0
    while i < len(lines):
        match = _FENCE_OPEN.match(lines[i])
        if not match or (match["fence"][0] == "`" and "`" in match["info"]):
            i += 1
            continue
        close = _find_close(lines, i + 1, match["fence"], quoted=">" in match["indent"])
        yield i, close, match
        i = close + 1


def find_blocks(text: str) -> list[RawBlock]:
    """Every ``selfattn`` fence not nested inside another fence (so docs can show the syntax)."""
    lines = text.split("\n")
    blocks: list[RawBlock] = []
    for i, close, match in _fences(lines):
        info = match["info"].strip()
        name = info.split(None, 1)[0] if info else ""
        if name.lstrip("{.").rstrip("}") == FENCE_NAME:
            indent = match["indent"]
            body = "\n".join(_dedent(line, indent) for line in lines[i + 1 : close])
            blocks.append(RawBlock(i + 1, min(close, len(lines) - 1) + 1, indent, body))
    return blocks


def _find_close(lines: list[str], start: int, fence: str, *, quoted: bool = False) -> int:
    lead = "[ \t>]*" if quoted else "[ \t]*"
    pattern = re.compile(rf"^{lead}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
    for j in range(start, len(lines)):
        if pattern.match(lines[j]):
            return j
    return len(lines)


def _dedent(line: str, indent: str) -> str:
    if line.startswith(indent):
        return line[len(indent) :]
    depth = indent.count(">")
    if depth:
        # A quoted line written with other spacing (">" alone for an empty line, say).
        return re.sub(rf"^[ \t]*(?:>[ \t]?){{0,{depth}}}", "", line)
    return line.lstrip(" \t")


def fenced_line_numbers(text: str) -> set[int]:
    """0-based numbers of lines in code, fences included: no inline values there.

    Fenced code anywhere, and top-level indented code (four spaces after a paragraph break);
    indented lines under a list item, admonition or content tab are their content, not code.
    """
    lines = text.split("\n")
    inside: set[int] = set()
    for i, close, _ in _fences(lines):
        inside.update(range(i, min(close, len(lines) - 1) + 1))
    inside |= _indented_code(lines, inside)
    return inside


# List items, admonitions, details, content tabs, blockquotes and footnote definitions.
_CONTAINER = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|!!!|\?\?\?|===|>|\[\^[^\]]+\]:)")


def _indented_code(lines: list[str], fenced: set[int]) -> set[int]:
    code: set[int] = set()
    in_container = False
    previous_blank = True
    in_code = False
    for n, line in enumerate(lines):
        if n in fenced:
            previous_blank, in_code = False, False
            continue
        if not line.strip():
            previous_blank = True
            continue
        indented = line.startswith("    ") or line.startswith("\t")
        if not indented:
            in_container = bool(_CONTAINER.match(line))
            in_code = False
        elif in_code or (previous_blank and not in_container):
            in_code = True
            code.add(n)
        previous_blank = False
    return code


# ---------------------------------------------------------------------------------------------
# Block options


@dataclass(frozen=True)
class ViewOptions:
    """How one block shows an example; a ``use:`` block brings its own."""

    show: tuple[str, ...]
    top: int = 3
    number_format: str | None = None
    text: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    title: str | None = None
    text_by_language: Mapping[str, Mapping[str, str]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    title_by_language: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
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
    columns: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    display: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    display_by_language: Mapping[str, Mapping[str, str]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    temperature: float = 1.0
    script: str | None = None
    mixed_candidates: bool = False
    """Targets of the document may re-read different candidates (no warning)."""
    key_lines: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

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


# libyaml's parser when PyYAML was built with it: the pure-Python one dominated warm builds.
_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(_SafeLoader):  # type: ignore[misc]
    """Safe YAML that refuses duplicate keys instead of silently keeping the last."""


def _construct_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a key must be plain text, not a list or mapping", key_node.start_mark
            ) from None
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"duplicate key {_preview(key)}; each key may appear once",
                key_node.start_mark,
            )
        seen[key] = key_node.start_mark.line
    mapping: dict[Any, Any] = loader.construct_mapping(node)
    return mapping


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
    _construct_mapping,
)


def parse_block(block: RawBlock) -> BlockSpec:
    """YAML body → :class:`BlockSpec`, every problem located on the page."""
    body_line = block.start + 1
    if len(block.body.encode("utf-8")) > MAX_BODY_BYTES:
        raise BlockError(
            f"the block body is larger than {MAX_BODY_BYTES // 1024} KiB; put data in the CSV",
            line=block.start,
        )
    if not block.body.strip():
        raise BlockError(
            "the block is empty; give at least 'csv' and 'document' (or 'use')", line=block.start
        )
    node: Any = None
    try:
        loader = _UniqueKeyLoader(block.body)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except RecursionError:
        raise BlockError("the YAML is nested too deeply", line=block.start) from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        line = _long_scalar_line(node, body_line) or block.start
        raise BlockError(f"invalid YAML value: {str(exc)[:120]}", line=line) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = body_line + mark.line if mark is not None else block.start
        problem = getattr(exc, "problem", None) or str(exc)
        raise BlockError(f"invalid YAML: {problem}", line=line) from None
    if not isinstance(data, dict):
        raise BlockError(
            "the block body must be a YAML mapping of keys such as 'csv:' and 'document:'",
            line=block.start,
        )
    key_lines = _key_lines(node, body_line)
    try:
        return _spec_from_mapping(data, key_lines, block.start)
    except RecursionError:
        raise BlockError("the YAML is nested too deeply", line=block.start) from None


def _long_scalar_line(node: Any, body_line: int) -> int | None:
    """Page line of the first over-long scalar (what Python refuses to turn into an int)."""
    stack = [node]
    seen = 0
    while stack and seen < 100_000:
        seen += 1
        item = stack.pop()
        if isinstance(item, yaml.ScalarNode) and len(str(item.value)) > 4000:
            return body_line + int(item.start_mark.line)
        if isinstance(item, yaml.SequenceNode):
            stack.extend(reversed(item.value))
        elif isinstance(item, yaml.MappingNode):
            for key, value in reversed(item.value):
                stack += [value, key]
    return None


def _key_lines(node: Any, body_line: int) -> dict[str, int]:
    lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                lines[str(key_node.value)] = body_line + key_node.start_mark.line
    return lines


class _Reader:
    """Typed access to the YAML mapping; each error points at the offending key's line."""

    def __init__(self, data: dict[Any, Any], key_lines: dict[str, int], start: int) -> None:
        self.data = data
        self.key_lines = key_lines
        self.start = start

    def line(self, key: str) -> int:
        return self.key_lines.get(key, self.start)

    def fail(self, key: str, message: str) -> BlockError:
        return BlockError(f"'{key}': {message}", line=self.line(key))

    def text(self, key: str, value: Any, what: str = "a text value") -> str:
        if isinstance(value, str):
            return value
        hint = ""
        if isinstance(value, bool | int | float) or value is None:
            hint = " (YAML reads yes/no/on/off/null and numbers as non-text: quote it)"
        raise self.fail(key, f"expected {what}, got {_kind(value)} {_preview(value)}{hint}")

    def opt_text(self, key: str) -> str | None:
        return None if key not in self.data else self.text(key, self.data[key])

    def text_list(self, key: str) -> tuple[str, ...] | None:
        if key not in self.data:
            return None
        value = self.data[key]
        if isinstance(value, str):
            raise self.fail(
                key, f"expected a list such as [{value[:40]}], got the text {_preview(value)}"
            )
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list, got {_kind(value)}")
        return tuple(self.text(key, item, "a text item") for item in value)

    def text_map(self, key: str) -> dict[str, str]:
        if key not in self.data:
            return {}
        value = self.data[key]
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a mapping such as {{a: b}}, got {_kind(value)}")
        return {self.text(key, k, "text keys"): self.text(key, v) for k, v in value.items()}


_PREVIEW = reprlib.Repr()
_PREVIEW.maxlevel, _PREVIEW.maxlist, _PREVIEW.maxdict = 2, 4, 4
_PREVIEW.maxstring = _PREVIEW.maxother = 40


def _preview(value: Any) -> str:
    """A short repr: a YAML alias bomb or deep nesting must not turn into a huge message."""
    return _PREVIEW.repr(value)


def _kind(value: Any) -> str:
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "text",
        list: "a list",
        dict: "a mapping",
        type(None): "nothing",
    }.get(type(value), type(value).__name__)


def _spec_from_mapping(data: dict[Any, Any], key_lines: dict[str, int], start: int) -> BlockSpec:
    reader = _Reader(data, key_lines, start)
    for key in data:
        if not isinstance(key, str) or key not in _ALL_KEYS:
            name = str(key)
            close = difflib.get_close_matches(name, _ALL_KEYS, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f"; keys: {', '.join(_ALL_KEYS)}"
            raise BlockError(f"unknown key '{name}'{hint}", line=key_lines.get(name, start))
    view = _view_options(reader)
    if "use" in data:
        extra = [k for k in data if k in _DEFINE_KEYS]
        if extra:
            raise reader.fail(
                extra[0],
                "a 'use:' block shows an example defined earlier and cannot change its data; "
                f"only {', '.join(_VIEW_KEYS)} are allowed here",
            )
        return BlockSpec(
            line=start,
            view=view,
            use=reader.text("use", data["use"]),
            source=reader.opt_text("from"),
        )
    if "from" in data:
        raise reader.fail(
            "from", "names a shared examples file: say which example with 'use: ID' as well"
        )
    for required in ("csv", "document"):
        if required not in data:
            raise BlockError(
                f"missing key '{required}:'; a block needs 'csv' and 'document' (or 'use')",
                line=start,
            )
    display, display_by_language = _by_language(reader, "display")
    example_id = reader.opt_text("id")
    if example_id is not None and not _ID.match(example_id):
        raise reader.fail("id", f"{example_id!r} is not a simple name; use letters, digits, _ or -")
    groups_raw = data.get("groups", {})
    if not isinstance(groups_raw, dict):
        raise reader.fail("groups", "expected a mapping of NAME: [TOKEN, TOKEN]")
    groups: dict[str, tuple[str, ...]] = {}
    for name, members in groups_raw.items():
        name_text = reader.text("groups", name, "group names as text")
        if not _ID.match(name_text):
            raise reader.fail("groups", f"group name {name_text!r} must be a simple name")
        if isinstance(members, str) or not isinstance(members, list) or not members:
            raise reader.fail("groups", f"group {name_text!r} needs a list of candidate tokens")
        groups[name_text] = tuple(reader.text("groups", m, "token text") for m in members)
    temperature = data.get("temperature", 1.0)
    if isinstance(temperature, bool) or not isinstance(temperature, int | float):
        raise reader.fail("temperature", f"expected a number, got {_kind(temperature)}")
    if not temperature > 0 or temperature != temperature or temperature == float("inf"):
        raise reader.fail(
            "temperature", f"must be a finite number greater than 0, not {temperature}"
        )
    example = ExampleSpec(
        id=example_id,
        csv=reader.text("csv", data["csv"], "a file path"),
        document=reader.text("document", data["document"]),
        line=start,
        targets=reader.text_list("targets"),
        vectors=reader.text_list("vectors"),
        columns=MappingProxyType(_columns(reader)),
        display=MappingProxyType(display),
        display_by_language=MappingProxyType(display_by_language),
        groups=MappingProxyType(groups),
        temperature=float(temperature),
        script=reader.opt_text("script"),
        mixed_candidates=_flag(reader, "mixed_candidates"),
        key_lines=MappingProxyType(dict(key_lines)),
    )
    if example.targets is not None and not example.targets:
        raise reader.fail("targets", "the list is empty; leave the key out to show every target")
    if "code" in view.show and example.script is None:
        raise reader.fail("show", "the 'code' view lists the example script: add 'script:'")
    return BlockSpec(line=start, view=view, example=example)


def _flag(reader: _Reader, key: str) -> bool:
    value = reader.data.get(key, False)
    if not isinstance(value, bool):
        raise reader.fail(key, f"expected true or false, got {_kind(value)} {_preview(value)}")
    return value


def _columns(reader: _Reader) -> dict[str, str]:
    columns = reader.text_map("columns")
    for role in columns:
        if role not in COLUMN_ROLES:
            close = difflib.get_close_matches(role, COLUMN_ROLES, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"roles: {', '.join(COLUMN_ROLES)}"
            raise reader.fail("columns", f"unknown column role '{role}'; {hint}")
    return columns


def _view_options(reader: _Reader) -> ViewOptions:
    data = reader.data
    show_raw = data.get("show", ["output"])
    if isinstance(show_raw, str):
        show_raw = [show_raw]
    if not isinstance(show_raw, list):
        raise reader.fail("show", f"expected a list of views, got {_kind(show_raw)}")
    show: list[str] = []
    for item in show_raw:
        view = reader.text("show", item, "a view name")
        if view not in VIEWS:
            close = difflib.get_close_matches(view, VIEWS, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"views: {', '.join(VIEWS)}"
            raise reader.fail("show", f"unknown view '{view}'; {hint}")
        show.append(view)
    top = data.get("top", 3)
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise reader.fail("top", f"expected a whole number ≥ 1, got {_preview(top)}")
    number_format = reader.opt_text("number_format")
    if number_format is not None:
        try:
            format(0.5, number_format)
        except ValueError as exc:
            raise reader.fail(
                "number_format", f"{number_format!r} is not a format spec ({exc})"
            ) from None
    text, text_by_language = _by_language(reader, "text")
    for words in (text, *text_by_language.values()):
        unknown = [k for k in words if k not in TEXT_KEYS]
        if unknown:
            close = difflib.get_close_matches(unknown[0], TEXT_KEYS, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"keys: {', '.join(TEXT_KEYS)}"
            raise reader.fail("text", f"unknown text key '{unknown[0]}'; {hint}")
    title: str | None = None
    title_by_language: dict[str, str] = {}
    if isinstance(data.get("title"), dict):
        title_by_language = reader.text_map("title")
    else:
        title = reader.opt_text("title")
    return ViewOptions(
        show=tuple(show),
        top=top,
        number_format=number_format,
        text=MappingProxyType(text),
        title=title,
        text_by_language=MappingProxyType(text_by_language),
        title_by_language=MappingProxyType(title_by_language),
    )


def _by_language(reader: _Reader, key: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """``{a: b}`` for every page, or ``{LANG: {a: b}, …}`` with one mapping per language."""
    value = reader.data.get(key)
    if not isinstance(value, dict) or not any(isinstance(v, dict) for v in value.values()):
        return reader.text_map(key), {}
    by_language: dict[str, dict[str, str]] = {}
    for language, words in value.items():
        code = reader.text(key, language, "a language code such as en")
        if not isinstance(words, dict):
            raise reader.fail(
                key,
                f"give every language its own mapping ({code}: {{…}}), or one mapping for all "
                "pages; do not mix the two",
            )
        by_language[code] = {
            reader.text(key, k, "text keys"): reader.text(key, v) for k, v in words.items()
        }
    return {}, by_language


# ---------------------------------------------------------------------------------------------
# Inline values


@dataclass(frozen=True)
class InlineValue:
    """`` `{selfattn} ID QUANTITY ARGS [:FORMAT]` `` found on a page line (1-based)."""

    line: int
    start: int
    end: int
    example_id: str
    quantity: str
    args: tuple[str, ...]
    spec: str | None


INLINE_PREFIX = "{selfattn}"
_BACKTICKS = re.compile(r"`+")


def find_inline_values(text: str) -> list[InlineValue | BlockError]:
    """Single-backtick code spans starting with ``{selfattn}`` outside fenced code.

    Spans are matched like CommonMark does (a run of n backticks closes at the next run of n), so
    ``` `` `{selfattn} …` `` ``` shows the syntax literally. Offsets are into ``text``.
    """
    found: list[InlineValue | BlockError] = []
    skip = fenced_line_numbers(text)
    offset = 0
    for number, line in enumerate(text.split("\n")):
        if number not in skip and INLINE_PREFIX in line:
            for start, end, content in _code_spans(line):
                if content.startswith(INLINE_PREFIX):
                    found.append(_parse_inline(number + 1, offset + start, offset + end, content))
        offset += len(line) + 1
    return found


def _code_spans(line: str) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    runs = list(_BACKTICKS.finditer(line))
    i = 0
    while i < len(runs):
        opener = runs[i]
        if opener.start() > 0 and line[opener.start() - 1] == "\\":
            i += 1
            continue
        for j in range(i + 1, len(runs)):
            if len(runs[j].group()) == len(opener.group()):
                if len(opener.group()) == 1:
                    spans.append(
                        (opener.start(), runs[j].end(), line[opener.end() : runs[j].start()])
                    )
                i = j
                break
        i += 1
    return spans


_QUANTITIES: dict[str, tuple[int, int]] = {
    "weight": (2, 2),
    "score": (2, 2),
    "top": (1, 1),
    "group": (2, 2),
    "representation": (1, 2),
    "shift": (1, 2),
    "baseline": (0, 1),
    "csv_rows": (0, 0),
    "document_rows": (0, 0),
}

_INLINE_USAGE = {
    "weight": "weight TARGET CANDIDATE",
    "score": "score TARGET CANDIDATE",
    "top": "top TARGET",
    "group": "group TARGET NAME",
    "representation": "representation TARGET [COLUMN]",
    "shift": "shift TARGET [COLUMN]",
    "baseline": "baseline [COLUMN]",
    "csv_rows": "csv_rows",
    "document_rows": "document_rows",
}


def _parse_inline(line: int, start: int, end: int, content: str) -> InlineValue | BlockError:
    body = content[len(INLINE_PREFIX) :].strip()
    try:
        words = shlex.split(body)
    except ValueError as exc:
        return BlockError(f"inline value `{content}`: {exc}; close the quotes", line=line)
    spec = None
    if len(words) > 2 and words[-1].startswith(":"):
        spec = words.pop()[1:]
        try:
            format(0.5, spec)
        except ValueError:
            return BlockError(
                f"inline value `{content}`: ':{spec}' is not a Python format spec (try :.1%)",
                line=line,
            )
    if len(words) < 2:
        return BlockError(
            f"inline value `{content}` needs an example id and a quantity, "
            "e.g. `{selfattn} memo weight TARGET CANDIDATE`",
            line=line,
        )
    example_id, quantity, args = words[0], words[1], tuple(words[2:])
    if quantity not in _QUANTITIES:
        close = difflib.get_close_matches(quantity, _QUANTITIES, n=1)
        hint = f"did you mean '{close[0]}'?" if close else f"one of {', '.join(_QUANTITIES)}"
        return BlockError(
            f"inline value `{content}`: unknown quantity '{quantity}'; {hint}", line=line
        )
    low, high = _QUANTITIES[quantity]
    if not low <= len(args) <= high:
        return BlockError(
            f"inline value `{content}`: write it as `{{selfattn}} {example_id} "
            f"{_INLINE_USAGE[quantity]}` (quote tokens that contain spaces)",
            line=line,
        )
    return InlineValue(line, start, end, example_id, quantity, args, spec)
