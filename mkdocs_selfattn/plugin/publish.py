"""Where the files a block names appear on the site, and which of them are published.

A CSV inside docs_dir is published by MkDocs where it lies (or where mkdocs-static-i18n puts
it); one outside docs_dir is copied to a data folder, only if it built an example.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

from mkdocs_selfattn.blocks.paths import resolve_path
from mkdocs_selfattn.plugin import try_assets
from mkdocs_selfattn.plugin.page_assets import CSS_URI, MERMAID_URI, VENDOR

if TYPE_CHECKING:
    from mkdocs_selfattn.build.example import ResolvedFile

OUTSIDE_DOCS_URI = "assets/selfattn-data"


def add_assets(files: Files, config: MkDocsConfig, mermaid_js: str) -> None:
    """The files a page may link to (see :mod:`page_assets`): published once for the site,
    loaded only by the pages that use them. From real files, not content: mkdocs-static-i18n
    reads every file's source path."""
    if mermaid_js == "bundled":
        mermaid = str(VENDOR / "mermaid" / "mermaid.min.js")
        files.append(File.generated(config, MERMAID_URI, abs_src_path=mermaid))
    files.append(File.generated(config, CSS_URI, abs_src_path=str(VENDOR / "selfattn.css")))
    for file in try_assets.asset_files(config):
        files.append(file)


def publish_data(
    files: Files, config: MkDocsConfig, site: Site, published: Iterable[Path], late: Iterable[Any]
) -> None:
    """Once every page is built: the try view's result files (from the pages' ``late`` pieces)
    and the CSVs outside docs_dir that built an example."""
    for file in try_assets.result_files(config, late):
        files.append(file)
    site.publish(files, config, published)


class Site:
    """The two folders a page's paths are read against."""

    def __init__(self, docs_dir: Path, project_root: Path) -> None:
        self.docs_dir = docs_dir
        self.project_root = project_root

    def uri(self, path: Path) -> str:
        """Where a CSV is published: its own place inside docs_dir, else a data folder."""
        if self.docs_dir in path.parents:
            return path.relative_to(self.docs_dir).as_posix()
        # Hash the project-relative path: the same sources in another folder, same pages.
        relative = os.path.relpath(path, self.project_root).replace(os.sep, "/")
        digest = hashlib.sha1(relative.encode()).hexdigest()[:8]
        return posixpath.join(OUTSIDE_DOCS_URI, digest, path.name)

    def display(self, path: Path) -> str:
        """A page's path as messages show it: relative to the project."""
        try:
            return os.path.relpath(path, self.project_root).replace(os.sep, "/")
        except ValueError:  # another drive (Windows)
            return str(path)

    def publish(self, files: Files, config: MkDocsConfig, published: Iterable[Path]) -> None:
        """Add the CSVs outside docs_dir that built an example, if they still exist: a page
        must not be able to publish an arbitrary file by naming it in a failing block."""
        for path in sorted(published):
            if self.docs_dir not in path.parents and path.is_file():
                files.append(File.generated(config, self.uri(path), abs_src_path=str(path)))


class PageResolver:
    """Paths as a page sees them: relative to its file, ``/`` for docs_dir, never outside."""

    def __init__(self, site: Site, src: Path, url: str, files: Files | None = None) -> None:
        self.site = site
        self.files = files
        """The build's files, to link to a file where it is published (not where it lies)."""
        self.project_root = site.project_root
        self.docs_dir = site.docs_dir
        self.src = src
        self.url = url

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        from mkdocs_selfattn.build.example import ResolvedFile

        path, display = resolve_path(
            raw,
            key=key,
            line=line,
            relative_to=self.src.parent,
            absolute_to=self.docs_dir,
            root=self.project_root,
        )
        return ResolvedFile(path=path, display=display, link=self._link(path))

    def _link(self, path: Path) -> str:
        uri = self.site.uri(path)
        if self.files is not None and self.docs_dir in path.parents:
            file = self.files.get_file_from_path(uri)
            if file is not None:
                uri = file.url
        return get_relative_url(uri, self.url)


def file_path(file: File, config: MkDocsConfig) -> Path:
    """Where a page's source is (generated files may have none: then under docs_dir)."""
    return Path(file.abs_src_path or Path(config.docs_dir) / file.src_uri)
