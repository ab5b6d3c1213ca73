"""A block's YAML → its frozen spec. Every block key is declared once, as a row of :data:`KEYS`.

A row says which blocks may carry the key, what its value looks like, what leaving it out means,
how it is checked and whether it decides the numbers (the result's cache key); the spec
dataclasses take their defaults from the rows. A new key is a row here, a field of the spec, and
the code that uses it: nothing in between.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from mkdocs_selfattn.blocks import spec_values as values
from mkdocs_selfattn.blocks.block_yaml import load_mapping
from mkdocs_selfattn.blocks.markdown_scan import RawBlock
from mkdocs_selfattn.blocks.spec_layout import (
    BLOCK_LAYOUTS,
    DEFAULT_LAYOUT,
    LAYOUT_KEYS,
    check_layout,
)
from mkdocs_selfattn.blocks.spec_values import EMPTY, Fields, Reader, Validator
from mkdocs_selfattn.core.readings import Layout
from mkdocs_selfattn.errors import BlockError, closest

MAX_BODY_BYTES = 64 * 1024


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
    numbers: bool = False
    """Decides the example's numbers, so it is part of the result's cache key (the CSV's bytes
    are, not its ``csv:`` path); a key that only labels or shows them is not."""


KEYS: Mapping[str, Key] = MappingProxyType(
    {
        "use": Key("use", "text", None, values.text(), "id of an example defined earlier"),
        "id": Key(
            "define", "text", None, values.example_id, "name for use: blocks and inline values"
        ),
        "csv": Key("define", "path", None, values.text("a file path"), "the CSV file", True),
        "document": Key(
            "define",
            "text",
            None,
            values.text(),
            "the document_id to show (optional with queries/heads)",
            numbers=True,
        ),
        "targets": Key(
            "define",
            "list of text",
            None,
            values.targets,
            "targets shown (default all)",
            numbers=True,
        ),
        "queries": Key(
            "define",
            "mapping",
            None,
            values.readers,
            "question label → score column (softmax)",
            numbers=True,
        ),
        "heads": Key(
            "define",
            "mapping",
            None,
            values.readers,
            "head name → given weight column",
            numbers=True,
        ),
        "vectors": Key(
            "define",
            "list of text",
            None,
            values.text_list,
            "vector columns to use",
            numbers=True,
        ),
        "axes": Key(
            "define",
            "mapping",
            None,
            values.axes,
            "axis name → the vector columns it sums",
            numbers=True,
        ),
        "columns": Key(
            "define", "mapping", EMPTY, values.columns, "role → CSV column name", numbers=True
        ),
        "display": Key(
            "define", "mapping", EMPTY, values.localised, "token → label (per language)"
        ),
        "groups": Key(
            "define",
            "mapping",
            EMPTY,
            values.groups,
            "group name → candidate tokens",
            numbers=True,
        ),
        "temperature": Key(
            "define", "number", 1.0, values.temperature, "divides the scores", numbers=True
        ),
        "normalise": Key(
            "define",
            "boolean",
            False,
            values.flag,
            "divide given weights by their sum",
            numbers=True,
        ),
        "template": Key("define", "text", None, values.text(), "the printout (Jinja2)"),
        "script": Key("define", "path", None, values.text(), "example script checked against core"),
        "mixed_candidates": Key(
            "define", "boolean", False, values.flag, "targets may re-read different candidates"
        ),
        "show": Key("view", "list of views", ("output",), values.show, "views, in order"),
        "top": Key("view", "whole number", 3, values.top, "candidates listed per target"),
        "number_format": Key(
            "view", "format spec", None, values.number_format, "how numbers print"
        ),
        "text": Key("view", "mapping", EMPTY, values.words, "the views' words (per language)"),
        "title": Key("view", "text or mapping", None, values.title, "chart title (per language)"),
        "query": Key("view", "text", None, values.text(), "the question or head a chart shows"),
        "caption": Key(
            "view",
            "text or mapping",
            None,
            values.caption,
            "one-line summary under the figure (per language; inline values allowed)",
        ),
        "from": Key("from", "path", None, values.text(), "shared examples file that defines use"),
    }
)
FIGURE_VIEWS = ("chart", "context_chart", "separation_chart", "context_space", "mermaid")
"""The views a ``caption:`` may sum up (the last of them a block shows carries it)."""
DEFINE_KEYS = tuple(name for name, key in KEYS.items() if key.scope == "define")
VIEW_KEYS = tuple(name for name, key in KEYS.items() if key.scope == "view")
NUMBER_KEYS = tuple(name for name, key in KEYS.items() if key.numbers)
"""The keys in an example's result key, in the table's order."""


def _absent(name: str) -> Any:
    """A spec field's default: the key's row says what leaving the key out means."""
    return field(default_factory=lambda: KEYS[name].default)


@dataclass(frozen=True)
class ViewOptions:
    """How one block shows an example; a ``use:`` block brings its own."""

    show: tuple[str, ...] = _absent("show")
    top: int = _absent("top")
    number_format: str | None = _absent("number_format")
    text: Mapping[str, str] = _absent("text")
    title: str | None = _absent("title")
    text_by_language: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: EMPTY)
    title_by_language: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    query: str | None = _absent("query")
    """A question's label or score column, or a head's name or weight column (checked when the
    block is rendered, against the example it shows)."""
    caption: str | None = _absent("caption")
    """One line under the block's figure, in the page's language, as written (inline values and
    all); :attr:`figcaption` is the same line filled in, as HTML."""
    caption_by_language: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    caption_line: int = 0
    language: str | None = None
    """The page's language once the view is localised (see ``mkdocs_selfattn.blocks.languages``)."""
    figcaption: str | None = None
    """The caption as HTML, its inline values filled in, set by the page before rendering."""


@dataclass(frozen=True)
class ExampleSpec:
    """What to compute: one document of one CSV, with labels and groups. Remembers its line."""

    id: str | None
    csv: str
    document: str | None
    """None: the whole file (only with ``queries:`` or ``heads:``)."""
    line: int
    targets: tuple[str, ...] | None = _absent("targets")
    queries: Mapping[str, str] | None = _absent("queries")
    heads: Mapping[str, str] | None = _absent("heads")
    vectors: tuple[str, ...] | None = _absent("vectors")
    axes: Mapping[str, tuple[str, ...]] | None = _absent("axes")
    columns: Mapping[str, str] = _absent("columns")
    display: Mapping[str, str] = _absent("display")
    display_by_language: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: EMPTY)
    groups: Mapping[str, tuple[str, ...]] = _absent("groups")
    temperature: float = _absent("temperature")
    normalise: bool = _absent("normalise")
    template: str | None = _absent("template")
    script: str | None = _absent("script")
    mixed_candidates: bool = _absent("mixed_candidates")
    """Targets of the document may re-read different candidates (no warning)."""
    top: int = _absent("top")
    """The defining block's ``top:``: how many top lines the printout lists (``q.top``)."""
    key_lines: Mapping[str, int] = field(default_factory=lambda: EMPTY)

    @property
    def layout(self) -> Layout:
        """The layout the block's key asks for (the keys are mutually exclusive; without one,
        the default): looked up in ``BLOCK_LAYOUTS``, so a layout is one entry there."""
        key = next(
            (k for k in LAYOUT_KEYS[1:] if getattr(self, k, None) is not None), DEFAULT_LAYOUT
        )
        return BLOCK_LAYOUTS[key].layout

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


def _read(reader: Reader, scope: Scope) -> Fields:
    """The fields of every key of ``scope`` the block gives, checked in the table's order."""
    fields: Fields = {}
    for name, key in KEYS.items():
        if key.scope == scope and name in reader.data:
            fields |= key.validate(reader, name, reader.data[name])
    return fields


def _spec_from_mapping(data: dict[Any, Any], key_lines: dict[str, int], start: int) -> BlockSpec:
    reader = Reader(data, key_lines, start)
    for key in data:
        if not isinstance(key, str) or key not in KEYS:
            name = str(key)
            match = closest(name, KEYS)
            hint = f"; did you mean '{match}'?" if match else f"; keys: {', '.join(KEYS)}"
            raise BlockError(f"unknown key '{name}'{hint}", line=key_lines.get(name, start))
    view = ViewOptions(**_read(reader, "view"))
    if "caption" in data and not any(name in FIGURE_VIEWS for name in view.show):
        raise reader.fail(
            "caption",
            "sums up a figure in one line: show one of " + ", ".join(FIGURE_VIEWS) + " too",
        )
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
    check_layout(reader)
    fields = {"id": None, "document": None, **_read(reader, "define")}
    example = ExampleSpec(
        line=start, key_lines=MappingProxyType(dict(key_lines)), top=view.top, **fields
    )
    if "code" in view.show and example.script is None:
        raise reader.fail("show", "the 'code' view lists the example script: add 'script:'")
    return BlockSpec(line=start, view=view, example=example)
