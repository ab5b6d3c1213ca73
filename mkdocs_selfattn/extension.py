"""Python-Markdown adapter: the same blocks, views and inline values without MkDocs.

Use it where MkDocs plugins do not run (Zensical, plain Python-Markdown)::

    markdown_extensions:
      - mkdocs_selfattn.extension:
          docs_dir: docs

Python-Markdown does not tell an extension which file it is rendering, so paths cannot be relative
to the page: a relative ``csv:`` path and one starting with ``/`` are both relative to ``docs_dir``
(the plugin also reads ``/…`` that way, so pages written with ``/`` paths work under both).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from mkdocs_selfattn.cache import Cache
from mkdocs_selfattn.errors import SelfAttnError
from mkdocs_selfattn.example import PendingHtml, Pipeline, ResolvedFile, Settings
from mkdocs_selfattn.page import expand_page
from mkdocs_selfattn.paths import resolve_path
from mkdocs_selfattn.render.chart import DEFAULT_COLORS, DEFAULT_FONTS, ChartStyle

log = logging.getLogger("mkdocs_selfattn")


class _DocsDirResolver:
    def __init__(self, docs_dir: Path, project_root: Path) -> None:
        self.docs_dir = docs_dir
        self.project_root = project_root

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        path, display = resolve_path(
            raw,
            key=key,
            line=line,
            relative_to=self.docs_dir,
            absolute_to=self.docs_dir,
            root=self.project_root,
        )
        link = None
        if self.docs_dir in path.parents:
            link = "/" + path.relative_to(self.docs_dir).as_posix()
        return ResolvedFile(path=path, display=display, link=link)


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

        def store(html: str | PendingHtml) -> str:
            content = html.resolve() if isinstance(html, PendingHtml) else html
            return str(self.md.htmlStash.store(content))

        expanded = expand_page(text, pipeline=ext.pipeline, resolver=ext.resolver, store=store)
        for problem in expanded.problems:
            where = f"line {problem.line}" if problem.line else "page"
            message = f"selfattn: {where}: {problem.message}"
            if ext.getConfig("on_error") == "fail":
                raise SelfAttnError(message)
            log.warning(message)
        return expanded.markdown.split("\n")


class SelfAttnExtension(Extension):
    """``markdown.Markdown(extensions=[SelfAttnExtension(docs_dir="docs")])``."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "docs_dir": ["docs", "Folder that csv:/script: paths are relative to."],
            "project_dir": [".", "Paths may not leave this folder; scripts run here."],
            "cache_dir": ["", "Disk cache folder (empty: memory only)."],
            "scripts": [True, "Run each block's script and compare its output."],
            "script_timeout": [30.0, "Seconds a script may run."],
            "number_format": ["", "Format spec for tables, figures and charts."],
            "chart_width": [7.0, "Chart width in inches."],
            "chart_height": [3.6, "Chart height in inches."],
            "chart_colors": [list(DEFAULT_COLORS), "Bar colours, one per target."],
            "chart_fonts": [list(DEFAULT_FONTS), "Chart font families, CJK included."],
            "on_error": ["warn", "warn: log and show the error in the page; fail: raise."],
        }
        super().__init__(**kwargs)
        self._pipeline: Pipeline | None = None

    @property
    def pipeline(self) -> Pipeline:
        """Built on first use, after Python-Markdown has applied the configuration."""
        if self._pipeline is None:
            cache_dir = str(self.getConfig("cache_dir") or "")
            folder = (self.project_root / cache_dir).resolve() if cache_dir else None
            settings = Settings(
                number_format=str(self.getConfig("number_format") or "") or None,
                chart=ChartStyle(
                    width=float(self.getConfig("chart_width")),
                    height=float(self.getConfig("chart_height")),
                    colors=tuple(self.getConfig("chart_colors")) or DEFAULT_COLORS,
                    fonts=tuple(self.getConfig("chart_fonts")) or DEFAULT_FONTS,
                ),
                run_scripts=bool(self.getConfig("scripts")),
                script_timeout=float(self.getConfig("script_timeout")),
            )
            self._pipeline = Pipeline(settings, Cache(folder, problem=log.warning))
        return self._pipeline

    @property
    def project_root(self) -> Path:
        return Path(str(self.getConfig("project_dir"))).resolve()

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
