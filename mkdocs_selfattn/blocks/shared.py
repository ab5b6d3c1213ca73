"""Example definitions shared by several pages: a chapter's three language files name one file.

A shared examples file is a YAML mapping of example ids to definitions, with the keys of a defining
block (``csv``, ``document``, ``targets``, ``display`` keyed by language, ``groups``,
``script`` …)::

    memo:
      csv: self-attention-safety-memo-candidates.csv   # relative to this file
      document: memo_cap_missing
      display: {ko: {그것: 그것}, en: {그것: it}, zh: {그것: 它}}

A page block ``use: memo`` with ``from: memo.examples.yml`` defines ``memo`` on that page from it.
Relative ``csv:`` and ``script:`` paths are relative to the shared file; ``/`` still means docs_dir.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

import yaml

from mkdocs_selfattn.blocks.block_yaml import expansion_problem
from mkdocs_selfattn.blocks.languages import localize_spec
from mkdocs_selfattn.blocks.markdown_scan import RawBlock
from mkdocs_selfattn.blocks.spec import VIEW_KEYS, BlockSpec, ExampleSpec, parse_block
from mkdocs_selfattn.core.input_files import read_input
from mkdocs_selfattn.errors import (
    BlockError,
    DataError,
    SelfAttnError,
    did_you_mean,
    listing,
)

MAX_SHARED_BYTES = 1024 * 1024
"""Largest shared examples file read (a chapter's, in three languages, is a few KiB)."""


class _Resolves(Protocol):
    def resolve(self, raw: str, key: str, line: int) -> Any: ...


@dataclass(frozen=True)
class SharedExample:
    spec: ExampleSpec
    path: Path
    """The shared file itself (the page depends on its bytes)."""
    display: str
    data: bytes
    key_lines: Mapping[str, int] = field(default_factory=dict)
    """Where each key of the definition is, in the shared file."""

    def located(self, exc: SelfAttnError) -> SelfAttnError:
        """A mistake about a key of the shared definition is the shared file's: at that key's
        line there, and (as :class:`SharedFileError`) reported once a build, not once a page."""
        if isinstance(exc, DataError) and exc.key is not None and exc.key in self.key_lines:
            where = f"{self.display}:{self.key_lines[exc.key]}"
            return SharedFileError(f"in {where}: {exc}", line=None)
        return exc


class SharedFileError(BlockError):
    """A mistake inside a shared examples file, located there: every page that reads the file
    would report it, so the build logs it once."""


def load_shared(raw: str, example_id: str, resolver: _Resolves, line: int) -> SharedExample:
    """The definition of ``example_id`` in the shared file ``raw``, as if written at ``line``."""
    file = resolver.resolve(raw, "from", line)
    try:
        data = read_input(file.path, MAX_SHARED_BYTES)
    except FileNotFoundError:
        raise DataError(file.display, "file not found; check the 'from:' path") from None
    except OSError as exc:
        raise DataError(file.display, f"cannot be read ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DataError(file.display, "is not UTF-8 text") from None
    entries = _entries(text, file.display)
    if example_id not in entries:
        known = listing(sorted(entries)) or "none"
        hint = did_you_mean(example_id, entries)
        raise BlockError(
            f"'use: {example_id}': {file.display} defines no example '{example_id}'{hint}; "
            f"it defines: {known}",
            line=line,
        )
    body, first = entries[example_id]
    try:
        spec = parse_block(RawBlock(first, first, "", body))
    except BlockError as exc:
        where = f"{file.display}:{exc.line}" if exc.line else file.display
        raise SharedFileError(f"in {where}: {exc}", line=line) from None
    if spec.example is None:
        raise SharedFileError(
            f"in {file.display}:{first}: example '{example_id}' has no 'csv'", line=line
        )
    extra = [k for k in VIEW_KEYS if k in _top_keys(body)]
    if extra:
        where = f"{file.display}:{spec.example.line_of(extra[0])}"
        raise SharedFileError(
            f"in {where}: example '{example_id}' sets '{extra[0]}', a view key; "
            "put view keys on the page's block",
            line=line,
        )
    base = posixpath.dirname(raw.strip())
    example = replace(
        spec.example,
        id=example_id,
        line=line,
        csv=_beside(base, spec.example.csv),
        script=None if spec.example.script is None else _beside(base, spec.example.script),
        key_lines=MappingProxyType({}),
    )
    key_lines = dict(spec.example.key_lines)
    return SharedExample(example, Path(file.path), file.display, data, key_lines)


def _beside(base: str, raw: str) -> str:
    text = raw.strip()
    if text.startswith("/") or not base:
        return text
    return posixpath.normpath(posixpath.join(base, text))


def _entries(text: str, display: str) -> dict[str, tuple[str, int]]:
    """Each top-level id → (its definition's YAML text, its first line in the file, 1-based)."""
    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise DataError(display, f"invalid YAML: {problem}", line=line) from None
    if node is None:
        return {}
    expanded = expansion_problem(node)
    if expanded is not None:
        raise DataError(display, expanded[1], line=expanded[0] + 1)
    if not isinstance(node, yaml.MappingNode):
        raise DataError(display, "a shared examples file is a mapping of ids to definitions")
    lines = text.split("\n")
    found: dict[str, tuple[str, int]] = {}
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode) or not isinstance(value, yaml.MappingNode):
            line = key.start_mark.line + 1
            raise DataError(display, "each entry is ID: followed by its keys", line=line)
        if key.value in found:
            line = key.start_mark.line + 1
            raise DataError(display, f"example '{key.value}' is defined twice", line=line)
        if value.flow_style:
            body = text[value.start_mark.index : value.end_mark.index]
        else:
            # A block mapping ends where the next key starts (column 0 of its line).
            end = value.end_mark.line + (1 if value.end_mark.column > 0 else 0)
            chunk = lines[value.start_mark.line : end]
            chunk[0] = " " * value.start_mark.column + chunk[0][value.start_mark.column :]
            body = _dedent("\n".join(chunk))
        found[str(key.value)] = (body, value.start_mark.line)
    return found


def _dedent(text: str) -> str:
    lines = text.split("\n")
    widths = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    cut = min(widths, default=0)
    return "\n".join(line[cut:] for line in lines)


def _top_keys(body: str) -> set[str]:
    try:
        data = yaml.safe_load(body)
    except yaml.YAMLError:
        return set()
    return {str(k) for k in data} if isinstance(data, dict) else set()


def block_definition(
    spec: BlockSpec, resolver: _Resolves, language: str | None
) -> tuple[ExampleSpec, SharedExample | None] | None:
    """The example a block defines, on the page or by ``from:`` (localised), else nothing."""
    if spec.example is not None:
        return localize_spec(spec.example, language), None
    if spec.use is not None and spec.source is not None:
        shared = load_shared(spec.source, spec.use, resolver, spec.line)
        return localize_spec(shared.spec, language), shared
    return None
