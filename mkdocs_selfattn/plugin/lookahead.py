"""The look-ahead: before any page renders, send what the cache cannot answer to the workers.

The workers then import, compute and draw on the other cores while MkDocs reads and renders
pages. It reads the pages MkDocs will build (its own ``Files``: ``exclude_docs``, drafts and
mkdocs-static-i18n's choice of files respected). Pages whose memo holds are skipped, so a warm
build starts no worker. Best effort: anything it cannot read or parse is left to the page's own
turn, where problems are reported.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, InclusionLevel, get_files

from mkdocs_selfattn.plugin.memo_store import MemoStore
from mkdocs_selfattn.plugin.publish import PageResolver, Site, file_path
from mkdocs_selfattn.plugin.site_language import page_language

if TYPE_CHECKING:
    from mkdocs_selfattn.build.pipeline import Pipeline

log = logging.getLogger("mkdocs.plugins.selfattn")


def pages_of(config: MkDocsConfig, serving: bool) -> Sequence[File]:
    """The Markdown pages this build renders, listed as MkDocs lists them (without the theme's
    files, which alone take a tenth of a second of the workers' head start)."""
    with _quiet("mkdocs.structure.files"):  # its warnings come again when MkDocs lists files
        files = get_files(config)
    inclusion = InclusionLevel.is_in_serve if serving else InclusionLevel.is_included
    return files.documentation_pages(inclusion=inclusion)


@contextmanager
def _quiet(name: str) -> Iterator[None]:
    logger = logging.getLogger(name)
    disabled = logger.disabled
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = disabled


def look_ahead(
    pages: Iterable[File],
    config: MkDocsConfig,
    *,
    memos: MemoStore,
    site: Site,
    pipeline: Callable[[], Pipeline],
    start: Callable[[], None] = lambda: None,
) -> None:
    """Send the uncached work of every page whose memo does not hold (``pipeline`` is built
    only if one needs work). ``start`` is called at the first such page, before the rest is
    read: the worker then imports numpy while this process reads, parses and sends."""
    from mkdocs.utils import meta

    needed: list[tuple[File, Path, str, str | None]] = []
    seen = 0
    for file in pages:
        try:
            source = file.content_string
        except (OSError, ValueError):
            continue
        if "selfattn" not in source:
            continue
        seen += 1
        markdown, front = meta.get_data(source)
        src_path = file_path(file, config)
        language = page_language(file, front, config)
        key = memos.key(markdown, file, src_path, language)
        memos.looked[file.src_uri] = (markdown, file.url, key)
        if memos.holding(key, peek=True) is None:
            if not needed:
                start()
            needed.append((file, src_path, markdown, language))
    memos.forget_digests()
    if not needed:
        return
    from mkdocs_selfattn.build.prefetch import prefetch_page

    built = pipeline()
    for file, src_path, markdown, language in needed:
        resolver = PageResolver(site, src_path, file.url)
        try:
            prefetch_page(markdown, pipeline=built, resolver=resolver, language=language)
        except Exception as exc:  # an optimisation must never be what stops a build
            log.debug("selfattn: look-ahead skipped %s (%r)", file.src_uri, exc)
    assert built.scheduler is not None, "the look-ahead runs only with workers"
    sent = built.scheduler.start()
    log.debug(
        "selfattn: %d of %d pages need work; sent %d results and %d charts to the worker",
        len(needed),
        seen,
        *sent,
    )
