"""Python-Markdown adapter: the same blocks, views and inline values without MkDocs.

Use it where MkDocs plugins do not run (Zensical, plain Python-Markdown)::

    markdown_extensions:
      - mkdocs_selfattn.extension:
          docs_dir: docs

Plain Python-Markdown does not tell an extension which file it is rendering, so there a relative
``csv:`` path and one starting with ``/`` are both relative to ``docs_dir`` (the plugin also reads
``/…`` that way, so pages written with ``/`` paths work everywhere).

Under Zensical, which does say which page it renders (its ``rendering_context`` preprocessor),
relative paths are relative to the page as in the plugin, a relative ``project_dir`` is taken from
the folder of the configuration file, messages name the page (``docs/PAGE.md:LINE: selfattn: …``)
and links to CSV files are relative to the page, so the site also works below a sub-path.
"""

from __future__ import annotations

import logging
import posixpath
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from mkdocs_selfattn.blocks.paths import resolve_path
from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.example import ResolvedFile
from mkdocs_selfattn.build.options import SITE_OPTIONS, option_problems
from mkdocs_selfattn.build.page import expand_page
from mkdocs_selfattn.build.pipeline import Pipeline
from mkdocs_selfattn.build.scheduler import PendingHtml
from mkdocs_selfattn.build.settings import pipeline_settings
from mkdocs_selfattn.errors import SelfAttnError
from mkdocs_selfattn.render.chart_fonts import FontFileError, resolve_font_files

log = logging.getLogger("mkdocs_selfattn")


class _DocsDirResolver:
    def __init__(self, docs_dir: Path, project_root: Path) -> None:
        self.docs_dir = docs_dir
        self.project_root = project_root
        self.page_path: str | None = None
        """The page's source path under docs_dir, where the generator says it (Zensical)."""

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        # Where the generator names the page (Zensical), relative paths work as in the plugin.
        page_dir = self.docs_dir
        if self.page_path is not None:
            page_dir = self.docs_dir / posixpath.dirname(self.page_path)
        path, display = resolve_path(
            raw,
            key=key,
            line=line,
            relative_to=page_dir,
            absolute_to=self.docs_dir,
            root=self.project_root,
        )
        link = None
        if self.docs_dir in path.parents:
            uri = path.relative_to(self.docs_dir).as_posix()
            if self.page_path is None:
                link = "/" + uri
            else:
                # Zensical turns links relative to the page's source file into links relative
                # to its URL, as MkDocs does for links to pages.
                link = posixpath.relpath(uri, posixpath.dirname(self.page_path) or ".")
        return ResolvedFile(path=path, display=display, link=link)


class _ZensicalPage:
    """The page Zensical is rendering, read from its ``rendering_context`` preprocessor."""

    def __init__(self, md: Markdown) -> None:
        self.path: str | None = None
        self.root_dir: Path | None = None
        self.language: str | None = None
        """The theme's language, as the plugin reads it without mkdocs-static-i18n."""
        if "rendering_context" not in md.preprocessors:
            return
        context = md.preprocessors["rendering_context"]
        page = getattr(context, "page", None)
        config = getattr(context, "config", None)
        if page is None or not isinstance(config, dict):
            return
        path = getattr(page, "path", None)
        self.path = path if isinstance(path, str) and path else None
        if config.get("root_dir"):
            self.root_dir = Path(str(config["root_dir"]))
        theme = config.get("theme")
        if isinstance(theme, dict) and isinstance(theme.get("language"), str):
            self.language = theme["language"] or None


class SelfAttnPreprocessor(Preprocessor):
    """Runs before fenced code, so generated fences (text, mermaid) are processed as usual."""

    def __init__(self, md: Markdown, extension: SelfAttnExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if "selfattn" not in text:
            return lines
        ext = self.extension
        page = _ZensicalPage(self.md)
        ext.config_dir = page.root_dir
        resolver = ext.resolver
        resolver.page_path = page.path
        page_name = None
        if page.path is not None:
            src = resolver.docs_dir / page.path
            try:
                page_name = src.relative_to(resolver.project_root).as_posix()
            except ValueError:
                page_name = src.as_posix()

        def store(html: str | PendingHtml, late: bool) -> str:
            content = html.resolve() if isinstance(html, PendingHtml) else html
            return str(self.md.htmlStash.store(content))

        expanded = expand_page(
            text,
            pipeline=ext.pipeline,
            resolver=resolver,
            store=store,
            language=str(ext.getConfig("language") or "") or page.language,
        )
        for problem in expanded.problems:
            if page_name is not None:
                where = f"{page_name}:{problem.line}" if problem.line else page_name
                head = f"{where}: selfattn: "
            else:
                where = f"line {problem.line}" if problem.line else "page"
                head = f"selfattn: {where}: "
            if ext.getConfig("on_error") == "fail":
                raise SelfAttnError(head + problem.message)
            for text in problem.lines:
                log.warning(head + text)
            if problem.detail:
                log.debug("%s%s", head, problem.detail)
        return expanded.markdown.split("\n")


class SelfAttnExtension(Extension):
    """``markdown.Markdown(extensions=[SelfAttnExtension(docs_dir="docs")])``."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "docs_dir": ["docs", "Folder that csv:/script: paths are relative to."],
            "project_dir": [".", "Paths may not leave this folder; scripts run here."],
            **{
                option.name: [option.default_for_extension(), option.doc]
                for option in SITE_OPTIONS
                if option.extension
            },
            "language": ["", "The pages' language (default: Zensical's theme.language)."],
        }
        super().__init__(**kwargs)
        self._pipeline: Pipeline | None = None
        self.config_dir: Path | None = None
        """Zensical's configuration folder: relative ``project_dir`` values start there."""

    @property
    def pipeline(self) -> Pipeline:
        """Built on first use, after Python-Markdown has applied the configuration."""
        if self._pipeline is None:
            values: dict[str, object] = {
                option.name: self.getConfig(option.name)
                for option in SITE_OPTIONS
                if option.extension
            }
            # The extension's "no format" is an empty string; the rules' is None.
            values["number_format"] = values["number_format"] or None
            problems = option_problems(values)
            if problems:
                raise SelfAttnError("selfattn: " + "; ".join(problems))
            try:
                values["chart_fonts"] = resolve_font_files(
                    list(values["chart_fonts"] or ()),  # type: ignore[call-overload]
                    self.project_root,
                )
            except FontFileError as exc:
                raise SelfAttnError(f"selfattn: {exc}") from None
            cache_dir = str(self.getConfig("cache_dir") or "")
            folder = (self.project_root / cache_dir).resolve() if cache_dir else None
            settings = pipeline_settings(values)
            self._pipeline = Pipeline(settings, Cache(folder, problem=log.warning))
        return self._pipeline

    @property
    def project_root(self) -> Path:
        folder = Path(str(self.getConfig("project_dir")))
        if self.config_dir is not None:
            folder = self.config_dir / folder
        return folder.resolve()

    @property
    def resolver(self) -> _DocsDirResolver:
        docs = (self.project_root / str(self.getConfig("docs_dir"))).resolve()
        return _DocsDirResolver(docs, self.project_root)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's API name
        md.registerExtension(self)
        # 28: after whitespace normalisation (30), before fenced code (25) and raw HTML (20).
        md.preprocessors.register(SelfAttnPreprocessor(md, self), "selfattn", 28)


def makeExtension(**kwargs: Any) -> SelfAttnExtension:  # noqa: N802 - Python-Markdown's API name
    return SelfAttnExtension(**kwargs)
