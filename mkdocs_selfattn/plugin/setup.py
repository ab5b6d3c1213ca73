"""What a build needs before its first page: the cache, the page memos and, on first need, the
pipeline, all from the plugin's options and what MkDocs' config says about the site."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.options import PAGE_SHAPING
from mkdocs_selfattn.plugin.config import cache_folder
from mkdocs_selfattn.plugin.memo_store import MemoStore
from mkdocs_selfattn.plugin.publish import Site
from mkdocs_selfattn.plugin.site_fences import has_mermaid_fence, mermaid_format
from mkdocs_selfattn.render.chart_fonts import (
    FontFileError,
    chart_fonts,
    font_keys,
    resolve_font_files,
)

if TYPE_CHECKING:
    from mkdocs_selfattn.build.pipeline import Pipeline
    from mkdocs_selfattn.build.workers import WorkerPool

log = logging.getLogger("mkdocs.plugins.selfattn")


@dataclass(frozen=True)
class Build:
    """One build's (one language's, with mkdocs-static-i18n) shared parts."""

    cache: Cache
    site: Site
    memos: MemoStore
    mermaid_fence: bool
    mermaid: tuple[str, str] | None
    font_files: tuple[str, ...]
    """The site's ``chart_fonts``, as absolute paths."""


def start_build(config: MkDocsConfig, options: Mapping[str, Any], memory: dict[str, Any]) -> Build:
    """on_config: ``memory`` is the cache's in-memory part, kept across `mkdocs serve` rebuilds."""
    mermaid_fence = has_mermaid_fence(config)
    mermaid = mermaid_format(config)
    # `mkdocs build -f -` reads the config from stdin: then the project is the working folder.
    config_file = config.config_file_path
    project_root = Path(config_file).resolve().parent if config_file else Path.cwd()
    cache = Cache(
        cache_folder(str(options["cache_dir"]), config, project_root),
        problem=lambda message: log.warning("selfattn: %s", message),
    )
    cache.memory = memory
    try:
        font_files = tuple(resolve_font_files(options["chart_fonts"], project_root))
    except FontFileError as exc:
        raise PluginError(f"selfattn: {exc}") from None
    site = Site(Path(config.docs_dir).resolve(), project_root)
    memos = MemoStore(
        cache,
        {
            "docs_dir": str(site.docs_dir),
            "root": str(project_root),
            "options": {name: options[name] for name in PAGE_SHAPING},
            "mermaid_fence": mermaid_fence,
            "mermaid": mermaid,
            # The files, not their names: a changed font file changes the charts.
            "fonts": font_keys(chart_fonts(font_files)),
        },
    )
    return Build(cache, site, memos, mermaid_fence, mermaid, font_files)


def make_pipeline(
    build: Build, options: Mapping[str, Any], pool: WorkerPool | None, *, draw_charts: bool
) -> Pipeline:
    """Imported late: a build served wholly from page memos never loads the pipeline."""
    from mkdocs_selfattn.build.pipeline import Pipeline
    from mkdocs_selfattn.build.scheduler import Scheduler
    from mkdocs_selfattn.build.settings import pipeline_settings

    settings = pipeline_settings(
        {**options, "chart_fonts": build.font_files},
        draw_charts=draw_charts,
        mermaid_fence=build.mermaid_fence,
        mermaid=build.mermaid,
    )
    scheduler = None if pool is None else Scheduler.for_pool(pool)
    return Pipeline(settings, build.cache, scheduler)
