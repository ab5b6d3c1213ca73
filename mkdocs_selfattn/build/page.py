"""One page's markdown in, the same markdown with every block and inline value filled in out.

Both adapters call :func:`expand_page`; they differ only in how raw HTML is kept away from
markdown (``store``: the plugin swaps placeholder tokens after rendering, the extension uses
Python-Markdown's own HTML stash) and in how problems are reported.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from mkdocs_selfattn.blocks.languages import localize_view
from mkdocs_selfattn.blocks.markdown_scan import RawBlock, find_blocks
from mkdocs_selfattn.blocks.shared import SharedFileError, block_definition
from mkdocs_selfattn.blocks.spec import BlockSpec, parse_block
from mkdocs_selfattn.build.block_errors import error_html
from mkdocs_selfattn.build.captions import with_caption
from mkdocs_selfattn.build.example import Example, Piece, Rendered, Resolver
from mkdocs_selfattn.build.inline import InlineValue, find_inline_values, inline_value
from mkdocs_selfattn.build.page_memo import file_digest
from mkdocs_selfattn.build.pipeline import Pipeline
from mkdocs_selfattn.build.scheduler import PendingHtml
from mkdocs_selfattn.errors import (
    BlockError,
    DataError,
    ScriptError,
    SelfAttnError,
    UseOfFailedExampleError,
    did_you_mean,
    listing,
)
from mkdocs_selfattn.render.template_env import TemplateError


@dataclass(frozen=True)
class Problem:
    """A failure on the page: ``line`` is the page line of the block or inline value."""

    line: int | None
    message: str
    once: str | None = None
    """Set when the mistake is in a file or the site, not in this block (a bad CSV cell read by
    several blocks): adapters log a problem with the same ``once`` only the first time a build
    meets it, and the page still shows its error."""
    summary: str | None = None
    """A second line for the log: the uses of this failed example that were skipped."""
    detail: str | None = None
    """Too long for the log line (a script's whole diff): adapters log it at debug level."""

    @property
    def lines(self) -> list[str]:
        return [self.message] if self.summary is None else [self.message, self.summary]


@dataclass
class ExpandedPage:
    markdown: str
    problems: list[Problem] = field(default_factory=list)
    files: set[Path] = field(default_factory=set)
    """CSVs and scripts the page read (to watch under `mkdocs serve`)."""
    data_files: set[Path] = field(default_factory=set)
    """CSVs of examples that built, the only files a page may offer for download."""
    digests: dict[Path, str] = field(default_factory=dict)
    """SHA-256 of the bytes each built example read (CSVs and scripts), for the page memo."""
    links: dict[Path, Path] = field(default_factory=dict)
    """Each path as the page names it (symlinks not followed) → the file it reached."""
    examples: dict[str, Example] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    """Ids whose defining block failed, with its line, so later uses say so."""
    unread: list[int] = field(default_factory=list)
    """Lines of blocks that failed before even their id could be read."""


Store = Callable[[str | PendingHtml, bool], str]
"""Keeps HTML away from markdown and returns the placeholder to put in its place. The flag marks
late HTML (charts): an adapter may insert it after search has indexed the page."""


def expand_page(
    text: str,
    *,
    pipeline: Pipeline,
    resolver: Resolver,
    store: Store,
    language: str | None = None,
    inserted: dict[str, int] | None = None,
) -> ExpandedPage:
    """Replace blocks and inline values; a broken one becomes a visible error, the rest renders.

    ``language`` is the page's: it picks labels keyed by language and the plugin's own words.
    ``inserted``: ids of blocks an include brings in later (see :mod:`inserted`), which fail.
    """
    out = ExpandedPage(markdown=text)
    blocks = find_blocks(text)
    parsed: list[BlockSpec | BlockError] = []
    for raw in blocks:
        try:
            parsed.append(parse_block(raw))
        except BlockError as exc:
            parsed.append(exc)
    defined_at = _defined_at(blocks, parsed, out)
    rendered: list[list[Piece]] = []
    failed_problem: dict[str, int] = {}
    skipped: dict[str, int] = {}
    for raw, spec in zip(blocks, parsed, strict=True):
        notes = Rendered()
        try:
            if isinstance(spec, BlockError):
                raise spec
            pieces = _render_block(spec, out, defined_at, pipeline, resolver, notes, language)
        except UseOfFailedExampleError as exc:
            skipped[exc.example_id] = skipped.get(exc.example_id, 0) + 1
            pieces = [("html", error_html(str(exc), language=language))]
        except SelfAttnError as exc:
            out.problems.append(_problem(exc, spec, raw.start))
            pieces = [("html", error_html(str(exc), out.problems[-1].detail, language))]
            failed_id = _example_id(spec, raw.body)
            if (
                failed_id is not None
                and failed_id not in out.failed
                and failed_id not in out.examples
            ):
                out.failed[failed_id] = raw.start
                failed_problem[failed_id] = len(out.problems) - 1
        for message in notes.warnings:
            out.problems.append(Problem(raw.start, message))
        for message in notes.shared_warnings:
            out.problems.append(Problem(raw.start, message, once=message))
        rendered.append(pieces)

    for example_id, line in (inserted or {}).items():
        out.failed.setdefault(example_id, line)  # reported by the leftover guard, once
    lines = _fill_inline_values(text, out, store, skipped, language).split("\n")
    for example_id, count in skipped.items():
        if example_id in failed_problem:
            index = failed_problem[example_id]
            uses = "use" if count == 1 else "uses"
            summary = f"{count} more {uses} of example '{example_id}' on this page skipped"
            out.problems[index] = replace(out.problems[index], summary=summary)
    for raw, pieces in reversed(list(zip(blocks, rendered, strict=True))):
        _splice(lines, raw, pieces, store)
    out.markdown = "\n".join(lines)
    return out


def _defined_at(
    blocks: list[RawBlock], parsed: list[BlockSpec | BlockError], out: ExpandedPage
) -> dict[str, int]:
    """The line defining each id on the page, also of blocks whose YAML failed (their ids read
    from the raw text); the lines of blocks whose id could not be read go to ``out.unread``."""
    defined_at: dict[str, int] = {}
    for spec in parsed:
        if isinstance(spec, BlockSpec) and spec.example is not None and spec.example.id:
            defined_at.setdefault(spec.example.id, spec.line)
        elif isinstance(spec, BlockSpec) and spec.use is not None and spec.source is not None:
            defined_at.setdefault(spec.use, spec.line)
    for raw, spec in zip(blocks, parsed, strict=True):
        if isinstance(spec, BlockError):
            recovered = recover_id(raw.body)
            if recovered is not None:
                defined_at.setdefault(recovered, raw.start)
            elif not _USE_LINE.search(raw.body):
                out.unread.append(raw.start)
    return defined_at


def _splice(lines: list[str], raw: RawBlock, pieces: list[Piece], store: Store) -> None:
    """Put a block's pieces where its fence was, HTML behind placeholders."""
    body: list[str] = []
    for kind, content in pieces:
        if isinstance(content, PendingHtml):
            content.line = raw.start
        chunk = str(content) if kind == "md" else store(content, kind == "late")
        body += ["", *chunk.split("\n")]
    body.append("")
    # One empty line between pieces and around them, never two: two end a footnote.
    if raw.start >= 2 and _is_blank(lines[raw.start - 2]):
        body = body[1:]
    if raw.end < len(lines) and _is_blank(lines[raw.end]):
        body = body[:-1]
    lines[raw.start - 1 : raw.end] = [raw.indent + line if line else raw.blank for line in body]


def _is_blank(line: str) -> bool:
    """Empty, or empty inside a blockquote (only ``>`` markers)."""
    return not line.replace(">", "").strip()


def _problem(exc: SelfAttnError, spec: BlockSpec | BlockError, start: int) -> Problem:
    """The page problem for a failed block, at the line of the key it is about."""
    line = start
    if isinstance(exc, BlockError) and exc.line:
        line = exc.line
    elif isinstance(exc, DataError | TemplateError) and exc.key and isinstance(spec, BlockSpec):
        # A template is filled at load, where the block's key lines are not at hand.
        line = spec.example.line_of(exc.key) if spec.example else start
    # A located mistake inside a file is the file's, whichever block read it, and a script that
    # fails the same way for two blocks is one mistake too: once per build.
    in_file = isinstance(exc, DataError) and exc.line is not None and exc.key is None
    once = str(exc) if in_file or isinstance(exc, ScriptError | SharedFileError) else None
    detail = exc.diff if isinstance(exc, ScriptError) else None
    return Problem(line, str(exc), once=once, detail=detail)


def _example_id(spec: BlockSpec | BlockError, body: str) -> str | None:
    if isinstance(spec, BlockSpec):
        if spec.example is not None:
            return spec.example.id
        return spec.use if spec.source is not None else None  # `use:` with `from:` defines one
    return recover_id(body)


_ID_LINE = re.compile(r"""^id[ \t]*:[ \t]*(["']?)([A-Za-z_][\w-]*)\1[ \t]*(?:#.*)?$""")
_USE_LINE = re.compile(r"^use[ \t]*:", re.M)


def recover_id(body: str) -> str | None:
    """The ``id:`` of a block whose YAML could not be read, from its raw text, so that the blocks
    and inline values using it say it failed rather than that it does not exist."""
    found = None
    for line in body.split("\n"):
        if _USE_LINE.match(line):
            return None
        match = _ID_LINE.match(line)
        if match and found is None:
            found = match[2]
    return found


def _render_block(
    spec: BlockSpec,
    out: ExpandedPage,
    defined_at: dict[str, int],
    pipeline: Pipeline,
    resolver: Resolver,
    notes: Rendered,
    language: str | None = None,
) -> list[Piece]:
    """The block's pieces; ``notes`` gathers its warnings, kept even if a later view fails."""
    view = localize_view(spec.view, language)
    if spec.use is not None and spec.source is None:
        example = out.examples.get(spec.use)
        if example is None and spec.use in out.failed:
            raise UseOfFailedExampleError(
                f"'use: {spec.use}' shows the example of line {out.failed[spec.use]}, which "
                "failed; fix that block first",
                example_id=spec.use,
                line=spec.line,
            )
        if example is None:
            if spec.use in defined_at and defined_at[spec.use] > spec.line:
                raise BlockError(
                    f"'use: {spec.use}' comes before the block that defines it (line "
                    f"{defined_at[spec.use]}); move this block below it",
                    line=spec.line,
                )
            known = listing(sorted(out.examples)) or "none yet"
            hint = did_you_mean(spec.use, [*out.examples, *defined_at])
            unread = [line for line in out.unread if line < spec.line]
            if unread:
                hint += (
                    f" (the block of line {unread[-1]} could not be read: fix it first if it "
                    f"defines '{spec.use}')"
                )
            raise BlockError(
                f"'use: {spec.use}' names no example defined above{hint}; "
                f"ids on this page: {known}",
                line=spec.line,
            )
        view = with_caption(view, out.examples, out.failed, out.unread)
        return pipeline.render(example, view, spec.line, notes).pieces
    found = block_definition(spec, resolver, language)
    assert found is not None
    definition, shared = found
    if shared is not None:
        out.files.add(shared.path)
        out.digests[shared.path] = file_digest(shared.data)
        out.links[_lexical(shared.display, resolver)] = shared.path
    example_id = definition.id
    if example_id is not None and example_id in out.examples:
        raise BlockError(
            f"id '{example_id}' is already used by a block above; give each example its own id",
            line=definition.line_of("id"),
        )
    try:
        example = pipeline.load(definition, resolver, language)
    except DataError as exc:
        raise exc if shared is None else shared.located(exc) from None
    notes.shared_warnings += example.shared_warnings
    out.files.add(example.csv.path)
    out.data_files.add(example.csv.path)
    out.digests[example.csv.path] = file_digest(example.csv_bytes)
    out.links[_lexical(example.csv.display, resolver)] = example.csv.path
    if example.script is not None and example.script_text is not None:
        out.files.add(example.script.path)
        out.digests[example.script.path] = file_digest(example.script_text.encode("utf-8"))
        out.links[_lexical(example.script.display, resolver)] = example.script.path
    if example_id is not None:
        out.examples[example_id] = example
    view = with_caption(view, out.examples, out.failed, out.unread)
    return pipeline.render(example, view, spec.line, notes).pieces


def _lexical(display: str, resolver: Resolver) -> Path:
    """The path as the block names it, before symlinks (``display`` is relative to the project)."""
    return Path(os.path.normpath(resolver.project_root / display))


def _fill_inline_values(
    text: str,
    out: ExpandedPage,
    store: Store,
    skipped: dict[str, int],
    language: str | None = None,
) -> str:
    found = find_inline_values(text)
    pieces: list[str] = []
    position = 0
    for item in sorted((f for f in found if isinstance(f, InlineValue)), key=lambda f: f.start):
        pieces.append(text[position : item.start])
        try:
            pieces.append(inline_value(item, out.examples, out.failed, out.unread))
        except UseOfFailedExampleError as exc:
            skipped[exc.example_id] = skipped.get(exc.example_id, 0) + 1
            pieces.append(store(_inline_error_html(str(exc), language), False))
        except BlockError as exc:
            out.problems.append(Problem(exc.line, str(exc)))
            pieces.append(store(_inline_error_html(str(exc), language), False))
        position = item.end
    pieces.append(text[position:])
    for problem in found:
        if isinstance(problem, BlockError):
            out.problems.append(Problem(problem.line, str(problem)))
    return "".join(pieces)


def _inline_error_html(message: str, language: str | None = None) -> str:
    from mkdocs_selfattn.render.escape import html_text
    from mkdocs_selfattn.render.words import page_word

    word = html_text(page_word("inline_error", language))
    return f'<span class="selfattn-error" title="{html_text(message)}">{word}</span>'
