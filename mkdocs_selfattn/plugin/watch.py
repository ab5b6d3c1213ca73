"""The files a page's blocks name, whether or not the blocks could use them.

``mkdocs serve`` must watch a CSV that failed to load (missing, broken, outside ``docs_dir``) and a
script that did not match: fixing that file is what the author does next, and it has to trigger
a rebuild. The files of blocks that built are known from the build itself; this finds the rest.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from mkdocs_selfattn.build.example import Resolver


def named_files(markdown: str, resolver: Resolver) -> set[Path]:
    """Every ``csv:`` and ``script:`` path the page's blocks name that the path policy allows
    (a path leaving the project is not watched: it is refused, and stays refused)."""
    # Only pages with problems ask: a warm build never loads the block parser.
    from mkdocs_selfattn.blocks.markdown_scan import find_blocks
    from mkdocs_selfattn.blocks.spec import parse_block
    from mkdocs_selfattn.errors import SelfAttnError

    found: set[Path] = set()
    for raw in find_blocks(markdown):
        try:
            spec = parse_block(raw).example
        except SelfAttnError:
            continue  # until the block parses, the page itself is what changes next
        if spec is None:
            continue
        for key, value in (("csv", spec.csv), ("script", spec.script)):
            if not value:
                continue
            try:
                found.add(resolver.resolve(value, key, spec.line_of(key)).path)
            except SelfAttnError:
                continue
    return found


def watch_target(path: Path) -> Path:
    """The file itself, or while it does not exist, the nearest folder above it that does (its
    creation then shows up as a change there)."""
    target = path
    while not target.exists() and target.parent != target:
        target = target.parent
    return target


class Watcher:
    """Under ``mkdocs serve``: watch the CSVs and scripts outside docs_dir (inside it, MkDocs
    already watches), each once, and a missing file's folder until the file exists."""

    def __init__(self) -> None:
        self.server: Watching | None = None
        self._watched: set[str] = set()

    def start(self, server: Watching, paths: Iterable[Path], docs_dir: Path) -> None:
        """on_serve: from now on, every build's files are watched too (see on_post_build)."""
        self.server = server
        self.watch(paths, docs_dir)

    def watch(self, paths: Iterable[Path], docs_dir: Path) -> None:
        if self.server is None:
            return
        for path in sorted(paths):
            target = watch_target(path)
            # Keyed by what is watched: a missing file's folder now, the file once it exists.
            if docs_dir in path.parents or str(target) in self._watched:
                continue
            self.server.watch(str(target), recursive=False)
            self._watched.add(str(target))


class Watching(Protocol):
    """MkDocs' LiveReloadServer, as far as it is used here."""

    def watch(self, path: str, func: None = None, *, recursive: bool = True) -> None: ...
