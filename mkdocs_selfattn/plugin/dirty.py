"""``mkdocs build --dirty`` and ``mkdocs serve --dirty``: no page keeps an old number.

MkDocs rebuilds a page under ``--dirty`` only when its markdown file is newer than its output
page, so a page whose CSV or script changed would keep the old numbers. Removing such a page's
output makes MkDocs see it as new and build it again (MkDocs' own test, ``File.is_modified``,
is then true), while pages whose inputs did not change are still skipped.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File

    from mkdocs_selfattn.plugin.memo_store import MemoStore

log = logging.getLogger("mkdocs.plugins.selfattn")


def expire_changed(pages: Iterable[File], memos: MemoStore, config: MkDocsConfig) -> None:
    """Under ``--dirty``: rebuild the pages whose memo no longer holds (their inputs changed)."""
    expired = expire_stale_pages(pages, lambda file: memos.page_holds(file, config))
    memos.forget_digests()  # as after the look-ahead: pages hash their inputs again
    log.debug("selfattn: --dirty: rebuilding %s (inputs changed)", expired)


def expire_stale_pages(pages: Iterable[File], current: Callable[[File], bool]) -> list[str]:
    """Remove the output of every page that is not ``current``; returns their ``src_uri``s."""
    expired = []
    for file in pages:
        if current(file):
            continue
        # Never built, or already gone: MkDocs builds it anyway.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(file.abs_dest_path)
        expired.append(file.src_uri)
    return expired
