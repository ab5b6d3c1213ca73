"""MkDocs adapter: configuration, build events, file watching and the error policy.

All computing and rendering happens in the shared pipeline; this module only connects it to MkDocs.
"""

from __future__ import annotations

import hashlib
import logging
import os
import posixpath
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from mkdocs_selfattn import __version__, try_assets
from mkdocs_selfattn.cache import Cache, code_fingerprint, matplotlib_version
from mkdocs_selfattn.dirty import expire_stale_pages
from mkdocs_selfattn.leftovers import LeftoverGuard, Rendering
from mkdocs_selfattn.options import (
    chart_colors_problem,
    chart_fonts_problem,
    chart_size_problem,
    chart_workers_problem,
    number_format_problem,
    script_timeout_problem,
)
from mkdocs_selfattn.page_memo import KIND as MEMO_KIND
from mkdocs_selfattn.page_memo import PageMemo, file_digest, memo_key
from mkdocs_selfattn.paths import resolve_path
from mkdocs_selfattn.plugin_options import Checked
from mkdocs_selfattn.render.defaults import DEFAULT_COLORS, DEFAULT_FONTS
from mkdocs_selfattn.site_language import add_once, page_language, uses_i18n
from mkdocs_selfattn.strict import unseen_failure
from mkdocs_selfattn.watch import named_files, watch_target
from mkdocs_selfattn.workers import WorkerPool, default_workers

if TYPE_CHECKING:
    from mkdocs_selfattn.example import PendingHtml, Pipeline, ResolvedFile

# Not get_plugin_logger: its "selfattn: " prefix would come before the page path, and messages
# must read "docs/page.md:LINE: selfattn: …". Being under "mkdocs" makes --strict count them.
log = logging.getLogger("mkdocs.plugins.selfattn")

VENDOR = Path(__file__).parent / "vendor"
MERMAID_URI = "assets/javascripts/selfattn/mermaid.min.js"
MERMAID_CDN = "https://unpkg.com/mermaid@11/dist/mermaid.min.js"
CSS_URI = "assets/stylesheets/selfattn.css"
OUTSIDE_DOCS_URI = "assets/selfattn-data"

CSS_FILE = VENDOR / "selfattn.css"


class SelfAttnConfig(base.Config):  # type: ignore[no-untyped-call]
    cache_dir = c.Type(str, default=".cache/selfattn")
    """Disk cache folder, relative to the folder of mkdocs.yml; empty for memory only. It must lie
    outside docs_dir and site_dir, or `mkdocs serve` would rebuild forever."""
    scripts = c.Type(bool, default=True)
    """Run each block's `script:` and check its output against the core (off: show the core's
    printout and say the script was not run)."""
    script_timeout = Checked(script_timeout_problem, default=30)
    """Seconds a script may run before it is stopped and the block fails."""
    number_format = Checked(number_format_problem)
    """Python format spec for numbers in tables, figures and charts (default: like round(x, 3))."""
    chart_width = Checked(chart_size_problem, default=7.0)
    """Chart width in inches (the SVG scales to the page; this sets proportions and text size)."""
    chart_height = Checked(chart_size_problem, default=3.6)
    """Chart height in inches."""
    chart_colors = Checked(chart_colors_problem, default=list(DEFAULT_COLORS))
    """Bar colours, one per target; pick colours readable on light and dark backgrounds."""
    chart_fonts = Checked(chart_fonts_problem, default=list(DEFAULT_FONTS))
    """Font families tried in order for chart text; include one with CJK glyphs."""
    on_error = c.Choice(("warn", "fail"), default="warn")
    """warn: log (fails --strict) and show the error on the page; fail: stop the build at once."""
    chart_workers = Checked(chart_workers_problem)
    """Processes that compute and draw the examples the cache cannot answer while pages render
    (default: one fewer than the cores, 1 to 4); 0 does it all in the build process itself."""
    mixed_candidates = c.Type(bool, default=False)
    """Allow the targets of a document to re-read different candidates (else a warning)."""
    mermaid_js = c.Choice(("bundled", "cdn", "off"), default="bundled")
    """bundled: serve the mermaid 11 shipped with the plugin (works offline); cdn: leave
    mkdocs-material's CDN default; off: the site loads mermaid itself."""


class SelfAttnPlugin(BasePlugin[SelfAttnConfig]):  # type: ignore[no-untyped-call]
    """Turns ``selfattn`` blocks and inline values into computed tables, figures and numbers."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self._memory: dict[str, Any] = {}
        self._server: LiveReloadServer | None = None
        self._watched: set[str] = set()
        self._pool: WorkerPool | None = None
        self._one_off = False
        """A `mkdocs build` or `gh-deploy` (not `serve`): workers may be forked."""
        self.draw_charts = True
        """Off under `mkdocs-selfattn check`, which writes no site."""
        self._dirty = False
        self._reset()

    def _reset(self) -> None:
        self._pipeline: Pipeline | None = None
        self._cache: Cache | None = None
        self._memo_pending: dict[str, _PendingMemo] = {}
        self._digests: dict[Path, str | None] = {}
        self._looked: dict[str, tuple[str, str, str]] = {}
        """Pages seen by the look-ahead: src_uri → (markdown, url, memo key)."""
        self.slots: dict[str, dict[str, str]] = {}
        self.late_slots: dict[str, dict[str, str | PendingHtml]] = {}
        self.used_files: set[Path] = set()
        self.published: set[Path] = set()
        self._nonce = secrets.token_hex(16)
        self.problems: list[str] = []
        """Every message reported this build (strict checks them at the end)."""
        self._rendering: Rendering | None = None
        self._reported: set[str] = set()
        """Problems of files or of the site already logged this build (see Problem.once)."""
        self._mermaid_fence = True
        self.project_root = Path.cwd()
        self.docs_dir = str(Path.cwd())
        self._mermaid: tuple[str, str] | None = ("pre", "mermaid")

    # -- lifecycle ------------------------------------------------------------------------------

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defining this keeps one plugin instance across `mkdocs serve` rebuilds (memory cache)."""
        self._one_off = command in ("build", "gh-deploy")
        self._dirty = dirty

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self._reset()
        self._mermaid_fence = _has_mermaid_fence(config)
        self._mermaid = _mermaid_format(config)
        # `mkdocs build -f -` reads the config from stdin: then the project is the working folder.
        config_file = config.config_file_path
        project_root = Path(config_file).resolve().parent if config_file else Path.cwd()
        cache_folder = self._cache_folder(config, project_root)
        cache = Cache(cache_folder, problem=lambda message: log.warning("selfattn: %s", message))
        cache.memory = self._memory
        self._cache = cache
        workers = self.config.chart_workers
        workers = default_workers() if workers is None else workers
        if workers > 0 and (
            self._pool is None
            or self._pool.workers != workers
            or self._pool.fork_ok != self._one_off
        ):
            if self._pool is not None:
                self._pool.shutdown()
            self._pool = WorkerPool(workers, fork_ok=self._one_off)
        elif workers <= 0 and self._pool is not None:
            self._pool.shutdown()
            self._pool = None
        self.project_root = project_root
        self.docs_dir = str(Path(config.docs_dir).resolve())
        if self.config.mermaid_js == "bundled":
            add_once(config.extra_javascript, MERMAID_URI)
        add_once(config.extra_css, CSS_URI)
        # Python-Markdown takes extension objects as well as names.
        guard = LeftoverGuard(lambda: self._rendering, self._leftover)
        config.markdown_extensions.append(guard)  # type: ignore[arg-type]
        # With mkdocs-static-i18n the pages of this build are known only once it has rewritten
        # the file list: the look-ahead waits for on_files.
        if self._pool is not None and not uses_i18n(config):
            self._look_ahead(config)
        return config

    @property
    def pipeline(self) -> Pipeline:
        """Built on first need: a build served wholly from page memos never imports it."""
        if self._pipeline is None:
            from mkdocs_selfattn.example import Pipeline, Settings
            from mkdocs_selfattn.render.chart import ChartStyle

            assert self._cache is not None, "on_config has not run"
            settings = Settings(
                number_format=self.config.number_format,
                chart=ChartStyle(
                    width=float(self.config.chart_width),
                    height=float(self.config.chart_height),
                    colors=tuple(self.config.chart_colors) or DEFAULT_COLORS,
                    fonts=tuple(self.config.chart_fonts) or DEFAULT_FONTS,
                ),
                run_scripts=self.config.scripts,
                script_timeout=float(self.config.script_timeout),
                draw_charts=self.draw_charts,
                mermaid_fence=self._mermaid_fence,
                mixed_candidates=self.config.mixed_candidates,
                mermaid=self._mermaid,
            )
            if self._pool is not None:
                # One chart drawing in each worker and one more waiting: a worker never idles,
                # and every other chart stays here, where the build process can take it back.
                self._pipeline = Pipeline(
                    settings, self._cache, self._pool.submit, in_flight=self._pool.workers + 1
                )
            else:
                self._pipeline = Pipeline(settings, self._cache)
        return self._pipeline

    def _cache_folder(self, config: MkDocsConfig, root: Path) -> Path | None:
        if not self.config.cache_dir:
            return None
        folder = (root / self.config.cache_dir).resolve()
        for name, other in (("docs_dir", config.docs_dir), ("site_dir", config.site_dir)):
            other_path = Path(other).resolve()
            if folder == other_path or other_path in folder.parents:
                raise PluginError(
                    f"selfattn: cache_dir {self.config.cache_dir!r} is inside {name}; "
                    "choose a folder outside it, such as .cache/selfattn"
                )
        return folder

    @event_priority(-110)  # after mkdocs-static-i18n (-100) has chosen this language's files
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        # From real files, not content: mkdocs-static-i18n reads every file's source path.
        if self.config.mermaid_js == "bundled":
            files.append(
                File.generated(
                    config, MERMAID_URI, abs_src_path=str(VENDOR / "mermaid" / "mermaid.min.js")
                )
            )
        files.append(File.generated(config, CSS_URI, abs_src_path=str(CSS_FILE)))
        for file in try_assets.asset_files(config):  # the try view (issue 15)
            files.append(file)
        if self._dirty:
            expired = expire_stale_pages(
                files.documentation_pages(), lambda file: self._memo_holds(file, config)
            )
            self._digests.clear()  # as after the look-ahead: pages hash their inputs again
            log.debug("selfattn: --dirty: rebuilding %s (inputs changed)", expired)
        if self._pool is not None and uses_i18n(config):
            self._look_ahead(config, files.documentation_pages())
        return files

    def _memo_holds(self, file: File, config: MkDocsConfig) -> bool:
        """Whether the page's last good build is still right: no blocks, or a memo whose
        inputs are unchanged. A page with problems is never memoised, so it is rebuilt."""
        from mkdocs.utils import meta

        assert self._cache is not None
        try:
            source = file.content_string
        except (OSError, ValueError):
            return True  # MkDocs reports an unreadable page itself
        if "selfattn" not in source:
            return True
        markdown, front = meta.get_data(source)
        language = page_language(file, front, config)
        key = memo_key(markdown, self._memo_context(file, _file_path(file, config), language))
        memo = PageMemo.from_payload(self._cache.peek(MEMO_KIND, key))
        return memo is not None and memo.inputs_unchanged(self._digest)

    def _look_ahead(self, config: MkDocsConfig, files: Sequence[File] | None = None) -> None:
        """Before MkDocs lists files or renders a page, send what the cache cannot answer to the
        worker, which then imports, computes and draws on the other core while this process
        works. Done in on_config rather than in on_files, because listing the theme's files
        alone takes a tenth of a second of the worker's head start; with mkdocs-static-i18n it
        waits for on_files, since only that plugin's file list says which pages (and which
        languages) this build renders.

        Pages whose memo holds are skipped, so a warm build starts no worker. Best effort: the
        walk sees the Markdown files in docs_dir, and anything it cannot read or parse is left
        to the page's own turn, where problems are reported.
        """
        from mkdocs.utils import meta

        assert self._cache is not None
        pages: list[tuple[File, Path, str, str | None]] = []
        for file in _markdown_files(config) if files is None else files:
            try:
                source = file.content_string
            except (OSError, ValueError):
                continue
            if "selfattn" not in source:
                continue
            markdown, front = meta.get_data(source)
            src_path = _file_path(file, config)
            language = page_language(file, front, config)
            key = memo_key(markdown, self._memo_context(file, src_path, language))
            self._looked[file.src_uri] = (markdown, file.url, key)
            memo = PageMemo.from_payload(self._cache.peek(MEMO_KIND, key))
            if memo is None or not memo.inputs_unchanged(self._digest):
                pages.append((file, src_path, markdown, language))
        # Hashes taken here are not reused by the pages: a hook or plugin may still rewrite a
        # CSV (in on_pre_build, say) before the page that reads it is rendered.
        self._digests.clear()
        if not pages:
            return
        from mkdocs_selfattn.page import prefetch_page

        for file, src_path, markdown, language in pages:
            resolver = _PageResolver(self, config, src_path, file.url)
            try:
                prefetch_page(
                    markdown, pipeline=self.pipeline, resolver=resolver, language=language
                )
            except Exception as exc:  # an optimisation must never be what stops a build
                log.debug("selfattn: look-ahead skipped %s (%r)", file.src_uri, exc)
        sent = self.pipeline.start_prefetch()
        log.debug(
            "selfattn: %d of %d pages need work; sent %d results and %d charts to the worker",
            len(pages),
            len(self._looked),
            *sent,
        )

    # -- pages ----------------------------------------------------------------------------------

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        expanded = self._page_markdown(markdown, page=page, config=config, files=files)
        name = _display(self._src_path(page, config), self.project_root)
        self._rendering = Rendering(page.file.src_uri, name, markdown, expanded)
        return expanded

    def _leftover(self, page: Rendering | None, line: int | None, message: str) -> str:
        from mkdocs_selfattn.block_errors import error_html

        if page is not None:
            # Not memoised: a page with a problem is rebuilt, and reports it, every time.
            self._memo_pending.pop(page.src_uri, None)
        self._report(page.name if page else "a page", line, [message])
        return error_html(message)

    def _page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        if "selfattn" not in markdown:
            return markdown
        assert self._cache is not None
        src_path = self._src_path(page, config)
        slots = self.slots.setdefault(page.file.src_uri, {})
        late_slots = self.late_slots.setdefault(page.file.src_uri, {})
        # A per-build secret in every placeholder: CSV text that happens to look like one can
        # never be swapped for HTML. Placeholders never reach the output, so builds stay equal.
        seed = (self._nonce + page.file.src_uri).encode()
        prefix = "SELFATTNSLOT" + hashlib.sha1(seed).hexdigest()[:10]

        language = page_language(page.file, page.meta, config)
        looked = self._looked.pop(page.file.src_uri, None)
        if looked is not None and looked[:2] == (markdown, page.url):
            key = looked[2]
        else:
            key = memo_key(markdown, self._memo_context(page.file, src_path, language))
        memo = PageMemo.from_payload(self._cache.get(MEMO_KIND, key))
        if memo is not None and memo.inputs_unchanged(self._digest):
            slots.update(memo.slots_for(prefix))
            late_slots.update(memo.late_for(prefix))
            for item in memo.inputs:
                self.used_files.add(item.path)
                if item.published:
                    self.published.add(item.path)
            return memo.markdown(prefix)

        from mkdocs_selfattn.page import expand_page

        page_name = _display(src_path, self.project_root)
        # With mkdocs-static-i18n, a file is published where its language's build puts it.
        i18n_files = files if uses_i18n(config) else None
        resolver = _PageResolver(self, config, src_path, page.url, i18n_files)

        from mkdocs_selfattn.example import PendingHtml as Pending

        def store(html: str | PendingHtml, late: bool) -> str:
            token = f"{prefix}N{len(slots) + len(late_slots)}X"
            if late or isinstance(html, Pending):
                late_slots[token] = html
            else:
                slots[token] = html
            return token

        expanded = expand_page(
            markdown, pipeline=self.pipeline, resolver=resolver, store=store, language=language
        )
        for problem in expanded.problems:
            if problem.once is not None and problem.once in self._reported:
                continue  # logged for an earlier block; this one is only marked on its page
            if problem.once is not None:
                self._reported.add(problem.once)
            self._report(page_name, problem.line, problem.lines)
            if problem.detail:
                log.debug(
                    "%s:%s: selfattn: the whole diff:\n%s", page_name, problem.line, problem.detail
                )
        self.used_files |= expanded.files
        if expanded.problems:
            self.used_files |= named_files(markdown, resolver)
        self.published |= expanded.data_files
        if not expanded.problems:
            self._memo_pending[page.file.src_uri] = _PendingMemo(
                key,
                expanded.markdown,
                prefix,
                dict(slots),
                expanded.digests,
                expanded.data_files,
                expanded.links,
            )
        return expanded.markdown

    def _memo_context(self, file: File, src_path: Path, language: str | None) -> dict[str, Any]:
        """Everything besides the markdown and the files its blocks read that shapes a page."""
        options = (
            "number_format",
            "chart_width",
            "chart_height",
            "chart_colors",
            "chart_fonts",
            "scripts",
            "script_timeout",
            "mixed_candidates",
        )
        return {
            "version": __version__,
            "code": code_fingerprint(),
            "src": file.src_uri,
            "path": str(src_path),
            "url": file.url,
            "language": language,
            "docs_dir": self.docs_dir,
            "root": str(self.project_root),
            "options": {name: self.config[name] for name in options},
            "mermaid_fence": self._mermaid_fence,
            "mermaid": self._mermaid,
            "matplotlib": matplotlib_version(),
        }

    @event_priority(50)  # before other plugins (search, minifiers) read the page's HTML
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        self._rendering = None  # Markdown converted from now on is not this page's
        slots = self.slots.pop(page.file.src_uri, {})
        late = self.late_slots.get(page.file.src_uri, {})
        if not slots and not late:
            return html
        # Tables and charts arrive in on_post_page: until then an empty, search-excluded box
        # holds their place, so the search index keeps to prose and printout (not every table
        # cell and tick label), and does not spend time parsing them.
        holders = {token: _holder(token) for token in late}
        return replace_slots(html, {**slots, **holders})

    # Tables and charts are put in when the page is written, after every page's markdown has
    # been rendered (so a worker had all that time to draw the charts), and before any other
    # plugin's on_post_page: a minifier must see the tables, not the empty holders.
    @event_priority(100)
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        late = self.late_slots.pop(page.file.src_uri, None)
        pending = self._memo_pending.pop(page.file.src_uri, None)
        if not late:
            resolved: dict[str, str] = {}
        else:
            problems_before = len(self.problems)
            resolved = self._resolve(late, page, config)
            if len(self.problems) != problems_before:
                pending = None  # a page with problems is rebuilt (and reports them) every time
            output = _fill_holders(output, resolved)
            # Plugins that read page.content later (feeds, print pages) get the tables too.
            if page.content:
                page.content = _fill_holders(page.content, resolved)
        if pending is not None and self._cache is not None:
            memo = PageMemo.capture(
                pending.markdown,
                pending.secret,
                pending.slots,
                resolved,
                pending.digests,
                pending.published,
                pending.links,
            )
            self._cache.put(MEMO_KIND, pending.key, memo.to_payload())
        return try_assets.finish_page(output, page.url)  # the try view (issue 15)

    def _resolve(
        self, slots: dict[str, str | PendingHtml], page: Page, config: MkDocsConfig
    ) -> dict[str, str]:
        resolved: dict[str, str] = {}
        for token, content in slots.items():
            if isinstance(content, str):
                resolved[token] = content
                continue
            from mkdocs_selfattn.block_errors import error_html

            page_name = _display(self._src_path(page, config), self.project_root)

            try:
                resolved[token] = content.resolve()
            except Exception as exc:  # a worker failure (any kind) must not end the build
                message = f"the chart could not be drawn ({type(exc).__name__}: {exc})"
                resolved[token] = error_html(message, page_language(page.file, page.meta, config))
                self.pipeline.warnings.append(message)
            self._report(page_name, content.line, self.pipeline.warnings)
        return resolved

    def _report(self, page_name: str, line: int | None, messages: list[str]) -> None:
        for text in messages:
            where = f"{page_name}:{line}" if line else page_name
            message = f"{where}: selfattn: {text}"
            if self.config.on_error == "fail":
                raise PluginError(message)
            log.warning(message)
            self.problems.append(message)
        messages.clear()

    def _src_path(self, page: Page, config: MkDocsConfig) -> Path:
        return _file_path(page.file, config)

    def _digest(self, path: Path) -> str | None:
        """SHA-256 of a file, read once a build (the look-ahead and the page both ask)."""
        if path not in self._digests:
            try:
                self._digests[path] = file_digest(path.read_bytes())
            except OSError:
                self._digests[path] = None
        return self._digests[path]

    def site_uri(self, path: Path) -> str:
        """Where a CSV is published: its own place inside docs_dir, else a data folder."""
        docs = Path(self.docs_dir)
        if docs in path.parents:
            return path.relative_to(docs).as_posix()
        # Hash the project-relative path: the same sources in another folder, same pages.
        relative = os.path.relpath(path, self.project_root).replace(os.sep, "/")
        digest = hashlib.sha1(relative.encode()).hexdigest()[:8]
        return posixpath.join(OUTSIDE_DOCS_URI, digest, path.name)

    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> Any:
        # Only CSVs that built an example are published, and only if they still exist: a page
        # must not be able to publish an arbitrary file by naming it in a failing block.
        pieces = (piece for slots in self.late_slots.values() for piece in slots.values())
        for file in try_assets.result_files(config, pieces):  # the try view (issue 15)
            files.append(file)
        docs = Path(self.docs_dir)
        for path in sorted(self.published):
            if docs not in path.parents and path.is_file():
                uri = self.site_uri(path)
                files.append(File.generated(config, uri, abs_src_path=str(path)))
        return env

    def on_shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    # -- serve ----------------------------------------------------------------------------------

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        self._server = server
        self._watch_new_files(config)
        return server

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self._pipeline is not None:
            # Work sent ahead that no page claimed: the look-ahead saw a page other than the
            # one that was built (see site_language.py). Only ever spent time, so only logged.
            log.debug(
                "selfattn: look-ahead unclaimed: %d results, %d charts", *self._pipeline.unclaimed()
            )
        if self._server is not None:
            self._watch_new_files(config)
        failure = unseen_failure(self.problems, strict=bool(config.strict), log=log)
        if failure is not None:
            raise PluginError(failure)

    def _watch_new_files(self, config: MkDocsConfig) -> None:
        """Watch CSVs and scripts outside docs_dir (inside it, MkDocs already watches)."""
        assert self._server is not None
        docs = Path(config.docs_dir).resolve()
        for path in sorted(self.used_files):
            target = watch_target(path)
            # Keyed by what is watched: a missing file's folder now, the file once it exists.
            if docs in path.parents or str(target) in self._watched:
                continue
            self._server.watch(str(target), recursive=False)
            self._watched.add(str(target))


@dataclass(frozen=True)
class _PendingMemo:
    """A page computed in on_page_markdown, memoised once its charts are drawn."""

    key: str
    markdown: str
    secret: str
    slots: dict[str, str]
    digests: dict[Path, str]
    published: set[Path]
    links: dict[Path, Path]


class _PageResolver:
    """Paths as a page sees them: relative to its file, ``/`` for docs_dir, never outside."""

    def __init__(
        self,
        plugin: SelfAttnPlugin,
        config: MkDocsConfig,
        src: Path,
        url: str,
        files: Files | None = None,
    ) -> None:
        self.plugin = plugin
        self.files = files
        """The build's files, to link to a file where it is published (not where it lies)."""
        self.project_root = plugin.project_root
        self.docs_dir = Path(config.docs_dir).resolve()
        self.src = src
        self.url = url

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        from mkdocs_selfattn.example import ResolvedFile

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
        uri = self.plugin.site_uri(path)
        if self.files is not None and self.docs_dir in path.parents:
            file = self.files.get_file_from_path(uri)
            if file is not None:
                uri = file.url
        return get_relative_url(uri, self.url)


_HOLDER_HEAD = '<div class="selfattn-late" data-search-exclude data-selfattn="'
_HOLDER_TAIL = '"></div>'


def _holder(token: str) -> str:
    """The empty, search-excluded box that keeps a late piece's place until on_post_page."""
    return f"{_HOLDER_HEAD}{token}{_HOLDER_TAIL}"


def _fill_holders(output: str, pieces: dict[str, str]) -> str:
    """Swap each holder for its piece in one pass over the page (a page is 100-200 kB, and a
    regular expression or one ``replace`` per piece scanned it several times)."""
    parts = output.split(_HOLDER_HEAD)
    filled = [parts[0]]
    for part in parts[1:]:
        token, tail, rest = part.partition(_HOLDER_TAIL)
        if tail and token in pieces:
            filled += [pieces[token], rest]
        else:
            filled += [_HOLDER_HEAD, part]
    return "".join(filled)


_SLOT = re.compile(r"<p>\s*(SELFATTNSLOT[0-9a-f]{10}N\d+X)\s*</p>|(SELFATTNSLOT[0-9a-f]{10}N\d+X)")


def replace_slots(html: str, slots: dict[str, str]) -> str:
    """Put the stored HTML where markdown left each token (a whole paragraph, or inline)."""

    def swap(match: re.Match[str]) -> str:
        token = match.group(1) or match.group(2)
        return slots.get(token, match.group(0))

    return _SLOT.sub(swap, html)


def _has_mermaid_fence(config: MkDocsConfig) -> bool:
    """Whether ``mermaid`` fences become diagrams; only blocks showing the view need it."""
    fences = (config.mdx_configs.get("pymdownx.superfences") or {}).get("custom_fences") or []
    has_superfences = "pymdownx.superfences" in config.markdown_extensions
    return has_superfences and any(
        isinstance(f, dict) and f.get("name") == "mermaid" for f in fences
    )


def _mermaid_format(config: MkDocsConfig) -> tuple[str, str] | None:
    """The site's mermaid fence as (element, class) when superfences' own formatter writes it,
    None for a formatter of the site's own or no mermaid fence (see _has_mermaid_fence)."""
    fences = (config.mdx_configs.get("pymdownx.superfences") or {}).get("custom_fences") or []
    has_superfences = "pymdownx.superfences" in config.markdown_extensions
    mermaid = [f for f in fences if isinstance(f, dict) and f.get("name") == "mermaid"]
    if has_superfences and mermaid:
        fence = mermaid[-1]
        formatter = fence.get("format")
        element = None
        if getattr(formatter, "__module__", "") == "pymdownx.superfences":
            names = {"fence_code_format": "pre", "fence_div_format": "div"}
            element = names.get(getattr(formatter, "__name__", ""))
        class_name = fence.get("class")
        if element is None or not isinstance(class_name, str) or not class_name:
            return None
        return element, class_name
    return None


def _markdown_files(config: MkDocsConfig) -> list[File]:
    """The Markdown files under docs_dir, skipping dot-files and dot-folders (as MkDocs' default
    ``exclude_docs`` does), in path order."""
    from mkdocs.utils import is_markdown_file

    docs = config.docs_dir
    found: list[File] = []
    for folder, dirs, names in os.walk(docs):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.startswith(".") or not is_markdown_file(name):
                continue
            relative = os.path.relpath(os.path.join(folder, name), docs)
            found.append(File(relative, docs, config.site_dir, config.use_directory_urls))
    return found


def _file_path(file: File, config: MkDocsConfig) -> Path:
    return Path(file.abs_src_path or Path(config.docs_dir) / file.src_uri)


def _display(path: Path, root: Path) -> str:
    try:
        return os.path.relpath(path, root).replace(os.sep, "/")
    except ValueError:
        return str(path)
