"""MkDocs adapter: configuration, build events and the error policy.

Computing and rendering happen in the pipeline; the build's parts (:mod:`plugin_setup`),
placeholders (:mod:`slots`), page memos (:mod:`memo_store`), the look-ahead (:mod:`lookahead`),
publishing (:mod:`publish`) and watching (:mod:`watch`) are helpers of their own. This module only
says which runs when, and how problems are reported.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from mkdocs_selfattn.build.workers import WorkerPool, pool_for, sigterm_as_interrupt
from mkdocs_selfattn.core.csv_size import any_big
from mkdocs_selfattn.plugin.build_log import build_log, held_log
from mkdocs_selfattn.plugin.config import SelfAttnConfig
from mkdocs_selfattn.plugin.dirty import expire_changed
from mkdocs_selfattn.plugin.inserted import inserted_ids
from mkdocs_selfattn.plugin.leftovers import LeftoverGuard, Rendering
from mkdocs_selfattn.plugin.lookahead import look_ahead, pages_of
from mkdocs_selfattn.plugin.memo_store import MemoStore, fill_from_memo
from mkdocs_selfattn.plugin.page_assets import link_page_assets
from mkdocs_selfattn.plugin.publish import PageResolver, Site, add_assets, file_path, publish_data
from mkdocs_selfattn.plugin.setup import Build, make_pipeline, start_build
from mkdocs_selfattn.plugin.site_language import META_KEY, last_pass, page_language, uses_i18n
from mkdocs_selfattn.plugin.slots import LatePieces, PageSlots
from mkdocs_selfattn.plugin.strict import unseen_failure
from mkdocs_selfattn.plugin.watch import Watcher, named_files

if TYPE_CHECKING:  # livereload (watchdog, http.server) is for `serve` only: not imported by builds
    from mkdocs.livereload import LiveReloadServer

    from mkdocs_selfattn.build.page import Problem
    from mkdocs_selfattn.build.pipeline import Pipeline

# Not get_plugin_logger: its "selfattn: " prefix would come before the page path, and messages
# must read "docs/page.md:LINE: selfattn: …". Being under "mkdocs" makes --strict count them.
log = logging.getLogger("mkdocs.plugins.selfattn")


class SelfAttnPlugin(BasePlugin[SelfAttnConfig]):  # type: ignore[no-untyped-call]
    """Turns ``selfattn`` blocks and inline values into computed tables, figures and numbers."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self._memory: dict[str, Any] = {}
        self._watcher = Watcher()
        self._pool: WorkerPool | None = None
        self._restore_sigterm: Callable[[], None] = lambda: None
        self._one_off = False
        """A `mkdocs build` or `gh-deploy` (not `serve`): workers may be forked."""
        self.draw_charts = True
        """Off under `mkdocs-selfattn check`, which writes no site."""
        self._dirty = False
        self._reset()

    def _reset(self) -> None:
        self._build: Build | None = None
        self._pipeline: Pipeline | None = None
        self._memos: MemoStore | None = None
        self._pages: dict[str, PageSlots] = {}
        self.used_files: set[Path] = set()
        self.published: set[Path] = set()
        self._nonce = os.urandom(16).hex()
        self.problems: list[str] = []
        """Every message reported this build (strict checks them at the end)."""
        self._rendering: Rendering | None = None
        self.site = Site(Path.cwd(), Path.cwd())

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defining this keeps one plugin instance across `mkdocs serve` rebuilds (memory cache)."""
        self._one_off = command in ("build", "gh-deploy")
        self._dirty = dirty
        if command == "serve":
            self._restore_sigterm = sigterm_as_interrupt()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self._reset()
        self._pool = pool_for(self._pool, self.config["chart_workers"], self._one_off)
        self._build = start_build(config, self.config, self._memory)
        self.site, self._memos = self._build.site, self._build.memos
        # Python-Markdown takes extension objects as well as names.
        guard = LeftoverGuard(lambda: self._rendering, self._leftover)
        config.markdown_extensions.append(guard)  # type: ignore[arg-type]
        # Here rather than in on_files, for the workers' head start; with mkdocs-static-i18n only
        # its file list says which pages (and languages) this build renders: then on_files.
        if self._pool is not None and not uses_i18n(config):
            self._look_ahead(pages_of(config, serving=not self._one_off), config)
        return config

    @property
    def pipeline(self) -> Pipeline:
        """Built on first need: a build served wholly from page memos never imports it."""
        if self._pipeline is None:
            assert self._build is not None, "on_config has not run"
            draw = self.draw_charts
            self._pipeline = make_pipeline(self._build, self.config, self._pool, draw_charts=draw)
        return self._pipeline

    def _look_ahead(self, pages: Sequence[File], config: MkDocsConfig) -> None:
        assert self._memos is not None
        assert self._pool is not None
        look_ahead(
            pages,
            config,
            memos=self._memos,
            site=self.site,
            pipeline=lambda: self.pipeline,
            start=self._pool.prepare,
        )

    @event_priority(-110)  # after mkdocs-static-i18n (-100) has chosen this language's files
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        add_assets(files, config, self.config["mermaid_js"])
        assert self._memos is not None
        if self._dirty:
            expire_changed(files.documentation_pages(), self._memos, config)
        if self._pool is not None and uses_i18n(config):
            self._look_ahead(files.documentation_pages(), config)
        return files

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        expanded = self._page_markdown(markdown, page=page, config=config, files=files)
        name = self.site.display(file_path(page.file, config))
        self._rendering = Rendering(page.file.src_uri, name, markdown, expanded)
        return expanded

    def _page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        self._build_log = build_log(config)  # read by held_log
        if "selfattn" not in markdown:
            return markdown
        memos = self._memos
        assert memos is not None
        src_path = file_path(page.file, config)
        slots = self._pages.setdefault(page.file.src_uri, PageSlots(self._nonce, page.file.src_uri))
        language = page_language(page.file, page.meta, config)
        if META_KEY in page.meta:
            from mkdocs_selfattn.blocks.languages import language_problem

            wrong = language_problem(page.meta[META_KEY])
            if wrong is not None:  # before the memo: a memoised page says it again
                self._report(self.site.display(src_path), None, [wrong])
        key = memos.page_key(markdown, page.file, src_path, language)
        memo = memos.holding(key)
        if memo is not None:
            return fill_from_memo(memo, slots, self.used_files, self.published)

        from mkdocs_selfattn.build.page import expand_page

        # With mkdocs-static-i18n, a file is published where its language's build puts it.
        resolver = PageResolver(self.site, src_path, page.url, files if uses_i18n(config) else None)
        expanded = expand_page(
            markdown,
            pipeline=self.pipeline,
            resolver=resolver,
            store=slots.store,
            language=language,
            inserted=inserted_ids(markdown, config),
        )
        self._report_problems(self.site.display(src_path), expanded.problems)
        self.used_files |= expanded.files
        if expanded.problems:
            self.used_files |= named_files(markdown, resolver)
        self.published |= expanded.data_files
        if not expanded.problems:
            memos.hold(page.file.src_uri, key, expanded, slots)
        return expanded.markdown

    @event_priority(50)  # before other plugins (search, minifiers) read the page's HTML
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        self._rendering = None  # Markdown converted from now on is not this page's
        slots = self._pages.get(page.file.src_uri)
        return html if slots is None else slots.content(html)

    # After every page's markdown (the workers drew the charts meanwhile), before any other
    # plugin's: a minifier must see tables, not holders.
    @event_priority(100)
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        assert self._memos is not None
        slots = self._pages.pop(page.file.src_uri, None)
        late = LatePieces.of(slots, lambda: page_language(page.file, page.meta, config))
        for line, messages in late.notes:
            self._report(self.site.display(file_path(page.file, config)), line, messages)
        if late.failed:  # a page with problems is rebuilt (and reports them) every time
            self._memos.pending.pop(page.file.src_uri, None)
        if page.content:  # plugins that read it later (feeds, print pages) get the tables too
            page.content = late.fill(page.content)
        self._memos.write(page.file.src_uri, late.resolved)
        bundled = self.config["mermaid_js"] == "bundled"
        return link_page_assets(late.fill(output), page.url, bundled_mermaid=bundled)

    # -- the error policy: every problem is logged (failing --strict) or, with on_error: fail,
    # stops the build; a problem of a file or the site is logged once a build.

    def _report_problems(self, page_name: str, problems: list[Problem]) -> None:
        once = held_log(self).once
        for problem in problems:
            if problem.once is not None and problem.once in once:
                continue  # logged for an earlier block; this one is only marked on its page
            if problem.once is not None:
                once.add(problem.once)
            self._report(page_name, problem.line, problem.lines)
            if problem.detail:
                log.debug(
                    "%s:%s: selfattn: the whole diff:\n%s", page_name, problem.line, problem.detail
                )

    def _report(self, page_name: str, line: int | None, messages: list[str]) -> None:
        for text in messages:
            where = f"{page_name}:{line}" if line else page_name
            message = f"{where}: selfattn: {text}"
            if self.config["on_error"] == "fail":
                raise PluginError(message)
            if not held_log(self).first_time(message):
                continue  # another language's pass over the same page (mkdocs-static-i18n)
            log.warning(message)
            self.problems.append(message)

    def _leftover(self, page: Rendering | None, line: int | None, message: str) -> str:
        from mkdocs_selfattn.build.block_errors import error_html

        if page is not None and self._memos is not None:
            # Not memoised: a page with a problem is rebuilt, and reports it, every time.
            self._memos.pending.pop(page.src_uri, None)
        self._report(page.name if page else "a page", line, [message])
        return error_html(message)

    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> Any:
        late = (piece for slots in self._pages.values() for piece in slots.late.values())
        publish_data(files, config, self.site, self.published, late)
        return env

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        self._watcher.start(server, self.used_files, Path(config.docs_dir).resolve())
        if self._pool is not None and self.used_files:
            # Unless the first build started it, start the worker now, while the author reads,
            # so that the first edit does not wait for its start and imports (see workers.py).
            self._pool.warm_up(arrow=any_big(self.used_files))
        return server

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self._pipeline is not None and self._pipeline.scheduler is not None:
            # Work sent ahead that no page claimed: the look-ahead saw a page other than the
            # one that was built (see site_language.py). Only ever spent time, so only logged.
            unclaimed = self._pipeline.scheduler.unclaimed()
            log.debug("selfattn: look-ahead unclaimed: %d results, %d charts", *unclaimed)
        if self._build is not None:
            # What this build could not take from the cache (tests and CI logs read it), once
            # every language is built.
            work = build_log(config).work
            work.update(self._build.cache.kind_misses)
            if last_pass(config):
                log.debug(
                    "selfattn: computed %d results, drew %d charts, ran %d scripts; "
                    "%d pages without a memo",
                    *(work[kind] for kind in ("result", "chart", "script", "page")),
                )
        self._watcher.watch(self.used_files, Path(config.docs_dir).resolve())
        failure = unseen_failure(self.problems, strict=bool(config.strict), log=log)
        if failure is not None:
            raise PluginError(failure)

    def on_shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
        self._restore_sigterm()
