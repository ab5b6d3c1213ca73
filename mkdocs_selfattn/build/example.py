"""What the pipeline hands to views, pages and adapters: the files a block names, a loaded
example, and a view's pieces.

These types sit below the pipeline, the views and the adapters that share them, so none of those
imports another to name a type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from mkdocs_selfattn.blocks.spec import ExampleSpec
    from mkdocs_selfattn.build.cache import Cache
    from mkdocs_selfattn.build.scheduler import PendingHtml, Scheduler
    from mkdocs_selfattn.build.settings import Settings
    from mkdocs_selfattn.core.readings import ReadingResult
    from mkdocs_selfattn.render.labels import Labels


@dataclass(frozen=True)
class ResolvedFile:
    """A file a block names: where it is, how messages show it, and its link from the page."""

    path: Path
    display: str
    link: str | None = None


class Resolver(Protocol):
    """Path policy of one page; raises :class:`~mkdocs_selfattn.errors.BlockError` on refusal."""

    project_root: Path

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile: ...


@dataclass(frozen=True)
class Example:
    """A computed example, ready to show in any view and to answer inline values."""

    spec: ExampleSpec
    csv: ResolvedFile
    csv_bytes: bytes
    result: ReadingResult
    """Its groups and the heads that read them (views look its layout up in the registries)."""
    labels: Labels
    printout: str
    script: ResolvedFile | None
    script_text: str | None
    script_output: str | None
    key: str
    shared_warnings: tuple[str, ...] = ()
    """Found while loading, about the CSV rather than the block (uneven candidates): adapters
    log each once per build."""


Piece = tuple[str, "str | PendingHtml"]
"""("md", markdown), ("html", raw HTML that must bypass markdown) or ("late", raw HTML that
bypasses markdown and the search index: tables, figures and charts, which are numbers (charts may
still be drawing). The plugin puts "late" pieces in after search has indexed the page, which
keeps the index to the prose and the printout and saves parsing every table cell for it."""


@dataclass
class Rendered:
    """A view's pieces and what it found wrong without failing the block."""

    pieces: list[Piece] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """About the block (a chart font without some glyph)."""
    shared_warnings: list[str] = field(default_factory=list)
    """About the site or a file (the missing mermaid fence): logged once per build."""


class ViewContext(Protocol):
    """What a view may use of the build: its settings, its cache and, when the adapter has a
    worker pool, the scheduler (the pipeline is one; views never need more of it)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def cache(self) -> Cache: ...

    @property
    def scheduler(self) -> Scheduler | None: ...
