"""The plugin's use of page memos for one build: keys, lookups, and memos waiting for charts.

What a memo is lives in :mod:`mkdocs_selfattn.build.page_memo`; this is when the plugin takes one
(on_page_markdown, and the look-ahead and ``--dirty`` asking whether one holds) and when it
writes one (on_post_page, once the page's charts are drawn and only if it had no problems).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File

from mkdocs_selfattn.build.cache import Cache, code_fingerprint, matplotlib_version
from mkdocs_selfattn.build.page_memo import KIND, PageMemo, file_digest, memo_key
from mkdocs_selfattn.core.input_files import read_input
from mkdocs_selfattn.plugin.publish import file_path
from mkdocs_selfattn.plugin.site_language import page_language
from mkdocs_selfattn.plugin.slots import PageSlots
from mkdocs_selfattn.version import __version__

if TYPE_CHECKING:
    from mkdocs_selfattn.build.page import ExpandedPage


@dataclass(frozen=True)
class PendingMemo:
    """A page computed in on_page_markdown, memoised once its charts are drawn."""

    key: str
    markdown: str
    secret: str
    slots: dict[str, str]
    digests: dict[Path, str]
    published: set[Path]
    links: dict[Path, Path]


class MemoStore:
    """Page memos of one build; ``site`` is what shapes every page besides its own facts (the
    folders, the page-shaping options, how the site writes mermaid)."""

    def __init__(self, cache: Cache, site: Mapping[str, Any]) -> None:
        self.cache = cache
        self.site = dict(site)
        self._digests: dict[Path, str | None] = {}
        self.looked: dict[str, tuple[str, str, str]] = {}
        """Pages seen by the look-ahead: src_uri → (markdown, url, memo key)."""
        self.pending: dict[str, PendingMemo] = {}

    def key(self, markdown: str, file: File, src_path: Path, language: str | None) -> str:
        """Everything besides the files its blocks read that shapes a page."""
        context = {
            "version": __version__,
            "code": code_fingerprint(),
            "src": file.src_uri,
            "path": str(src_path),
            "url": file.url,
            "language": language,
            "docs_dir": self.site["docs_dir"],
            "root": self.site["root"],
            "options": self.site["options"],
            "mermaid_fence": self.site["mermaid_fence"],
            "mermaid": self.site["mermaid"],
            "matplotlib": matplotlib_version(),
            "fonts": self.site["fonts"],
        }
        return memo_key(markdown, context)

    def page_key(self, markdown: str, file: File, src_path: Path, language: str | None) -> str:
        """The key the look-ahead took for this page, if it saw the same markdown and URL."""
        looked = self.looked.pop(file.src_uri, None)
        if looked is not None and looked[:2] == (markdown, file.url):
            return looked[2]
        return self.key(markdown, file, src_path, language)

    def holding(self, key: str, *, peek: bool = False) -> PageMemo | None:
        """The memo under ``key`` if its inputs are unchanged (``peek``: not counted as a
        hit or miss, for the look-ahead and ``--dirty``)."""
        payload = self.cache.peek(KIND, key) if peek else self.cache.get(KIND, key)
        memo = PageMemo.from_payload(payload)
        if memo is not None and memo.inputs_unchanged(self.digest):
            return memo
        if payload is not None and not peek:  # found, but its inputs changed: rebuilt
            self.cache.kind_misses[KIND] += 1
        return None

    def page_holds(self, file: File, config: MkDocsConfig) -> bool:
        """Whether the page's last good build is still right (``--dirty``): no blocks, or a
        memo whose inputs are unchanged. A page with problems is never memoised: rebuilt."""
        from mkdocs.utils import meta

        try:
            source = file.content_string
        except (OSError, ValueError):
            return True  # MkDocs reports an unreadable page itself
        if "selfattn" not in source:
            return True
        markdown, front = meta.get_data(source)
        language = page_language(file, front, config)
        key = self.key(markdown, file, file_path(file, config), language)
        return self.holding(key, peek=True) is not None

    def digest(self, path: Path) -> str | None:
        """SHA-256 of a file, read once a build (the look-ahead and the page both ask)."""
        if path not in self._digests:
            try:
                self._digests[path] = file_digest(read_input(path))
            except OSError:
                self._digests[path] = None
        return self._digests[path]

    def forget_digests(self) -> None:
        """A hook or plugin may still rewrite a CSV (in on_pre_build, say) before the page that
        reads it is rendered: hashes taken ahead are not reused by the pages."""
        self._digests.clear()

    def hold(self, src_uri: str, key: str, page: ExpandedPage, slots: PageSlots) -> None:
        """Keep a page that had no problems, to memoise once its charts are in."""
        self.pending[src_uri] = PendingMemo(
            key,
            page.markdown,
            slots.prefix,
            dict(slots.now),
            page.digests,
            page.data_files,
            page.links,
        )

    def write(self, src_uri: str, late: dict[str, str]) -> None:
        """Memoise the page held back in on_page_markdown, now that its late pieces are in."""
        pending = self.pending.pop(src_uri, None)
        if pending is None:
            return
        memo = PageMemo.capture(
            pending.markdown,
            pending.secret,
            pending.slots,
            late,
            pending.digests,
            pending.published,
            pending.links,
        )
        self.cache.put(KIND, pending.key, memo.to_payload())


def fill_from_memo(memo: PageMemo, slots: PageSlots, used: set[Path], published: set[Path]) -> str:
    """The page from its memo: its pieces into ``slots``, its files into ``used`` (watched)
    and ``published``; returns its markdown."""
    slots.now.update(memo.slots_for(slots.prefix))
    slots.late.update(memo.late_for(slots.prefix))
    for item in memo.inputs:
        used.add(item.path)
        if item.published:
            published.add(item.path)
    return memo.markdown(slots.prefix)
