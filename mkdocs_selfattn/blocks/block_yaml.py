"""A block's YAML body → a plain mapping and the page line of each key, or a located error.

Safe YAML only (libyaml's parser when PyYAML has it), refusing duplicate keys instead of silently
keeping the last; hostile input (deep nesting, alias bombs, huge integers) fails with a message.

Anchors and aliases let 800 bytes stand for a billion values ("billion laughs"): loading them is
cheap (an alias is a shared reference), but any code that walks the value (a check, a message, a
copy) walks all of them. So a document is refused when its values, aliases expanded, are more
than :data:`MAX_YAML_VALUES`, before anything is built from it: every key of a block and every
shared examples file (``shared.py``) goes through :func:`expansion_problem`.
"""

from __future__ import annotations

import reprlib
from typing import Any

import yaml

from mkdocs_selfattn.errors import BlockError

# libyaml's parser when PyYAML was built with it: the pure-Python one dominated warm builds.
_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_YAML_VALUES = 100_000
"""Values (scalars, lists and mappings, aliases expanded) one YAML document may hold: a 64 KiB
block body written out holds at most about 20,000, so only aliases repeated inside aliases go
beyond."""


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
                f"duplicate key {preview(key)}; each key may appear once",
                key_node.start_mark,
            )
        seen[key] = key_node.start_mark.line
    mapping: dict[Any, Any] = loader.construct_mapping(node)
    return mapping


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
    _construct_mapping,
)


def load_mapping(body: str, *, body_line: int, start: int) -> tuple[dict[Any, Any], dict[str, int]]:
    """The body's mapping and each top-level key's page line; ``start`` is the fence's line."""
    node: Any = None
    try:
        loader = _UniqueKeyLoader(body)
        try:
            node = loader.get_single_node()
            expanded = expansion_problem(node)
            if expanded is not None:
                raise BlockError(
                    expanded[1], line=body_line + expanded[0] if expanded[0] else start
                )
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except RecursionError:
        raise BlockError("the YAML is nested too deeply", line=start) from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        line = _long_scalar_line(node, body_line) or start
        raise BlockError(f"invalid YAML value: {str(exc)[:120]}", line=line) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = body_line + mark.line if mark is not None else start
        problem = getattr(exc, "problem", None) or str(exc)
        raise BlockError(f"invalid YAML: {problem}", line=line) from None
    if not isinstance(data, dict):
        raise BlockError(
            "the block body must be a YAML mapping of keys such as 'csv:' and 'document:'",
            line=start,
        )
    return data, _key_lines(node, body_line)


def expansion_problem(node: Any) -> tuple[int, str] | None:
    """``(line, message)`` when ``node``'s values, aliases expanded, are more than
    :data:`MAX_YAML_VALUES`; the line (0-based, in the document) is that of the top-level key
    whose value is too big, or 0."""
    top = node.value if isinstance(node, yaml.MappingNode) else [(None, node)]
    count = 0
    for key, value in top:
        stack = [value]
        while stack:
            item = stack.pop()
            count += 1
            if count > MAX_YAML_VALUES:
                name = f"'{key.value}': " if isinstance(key, yaml.ScalarNode) else ""
                line = int(key.start_mark.line) if key is not None else 0
                return line, (
                    f"{name}the YAML holds more than {MAX_YAML_VALUES:,} values once its "
                    "aliases (*name) are expanded; write the values out instead of repeating "
                    "anchors"
                )
            if isinstance(item, yaml.SequenceNode):
                stack.extend(item.value)
            elif isinstance(item, yaml.MappingNode):
                for pair in item.value:
                    stack.extend(pair)
    return None


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


_PREVIEW = reprlib.Repr()
_PREVIEW.maxlevel, _PREVIEW.maxlist, _PREVIEW.maxdict = 2, 4, 4
_PREVIEW.maxstring = _PREVIEW.maxother = 40


def preview(value: Any) -> str:
    """A short repr: a YAML alias bomb or deep nesting must not turn into a huge message."""
    return _PREVIEW.repr(value)


def kind(value: Any) -> str:
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "text",
        list: "a list",
        dict: "a mapping",
        type(None): "nothing",
    }.get(type(value), type(value).__name__)
