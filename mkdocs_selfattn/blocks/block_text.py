"""A spec written back as the YAML of a ``selfattn`` block, in the order the docs list the keys.

Commands that write blocks (``migrate``) print what the block parser reads back as the same spec;
:func:`differs_when_read_back` proves it for every block written.
"""

from __future__ import annotations

from typing import Any

import yaml

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.spec import KEYS, NUMBER_KEYS, ExampleSpec, parse_block
from mkdocs_selfattn.blocks.spec_layout import LAYOUT_KEYS


def block_body(spec: ExampleSpec, example_id: str, script_ref: str) -> list[str]:
    """The defining keys of ``spec`` as YAML lines, in the order the docs list them."""
    keys: list[tuple[str, Any]] = [("id", example_id), ("csv", spec.csv)]
    if spec.document is not None:
        keys.append(("document", spec.document))
    for name in (*LAYOUT_KEYS, "columns", "vectors", "axes", "display", "groups"):
        value = getattr(spec, name)
        if value:
            keys.append((name, _plain(value)))
    if spec.top != KEYS["top"].default:
        keys.append(("top", spec.top))
    if spec.normalise:
        keys.append(("normalise", True))
    keys.append(("script", script_ref))
    return [line for key, value in keys for line in _yaml(key, value)]


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if hasattr(value, "items"):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _yaml(key: str, value: Any) -> list[str]:
    if isinstance(value, dict | list):
        dumped = yaml.safe_dump(
            {key: value}, default_flow_style=None, allow_unicode=True, sort_keys=False, width=2**30
        )
    else:  # a scalar alone would come back as a flow mapping: dump it in a list, unwrap it
        item = yaml.safe_dump([value], default_flow_style=True, allow_unicode=True, width=2**30)
        dumped = f"{key}: {item.strip()[1:-1]}\n"
    return dumped.rstrip("\n").split("\n")


def fence(body: list[str], indent: str) -> list[str]:
    return [indent + line if line else indent.rstrip() for line in ["```selfattn", *body, "```"]]


def differs_when_read_back(body: list[str], spec: ExampleSpec) -> str | None:
    """The first key whose value the block parser reads back differently (None: all agree)."""
    [raw] = find_blocks("\n".join(fence(body, "")))
    parsed = parse_block(raw).example
    for name in (*NUMBER_KEYS, "display"):
        if parsed is None or getattr(parsed, name) != getattr(spec, name):
            return name
    return None
