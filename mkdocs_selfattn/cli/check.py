"""``mkdocs-selfattn check``: every block and inline value of a site, computed as a build would
compute it, without writing the site or drawing a chart.

The pages are the ones ``mkdocs build`` would build: MkDocs loads the config and lists the files,
and every plugin's ``on_config``, ``on_files`` and ``on_nav`` run first, so ``exclude_docs``,
``draft_docs`` and plugins that restructure the files (mkdocs-static-i18n) decide which pages
there are. Each page then goes through ``on_page_markdown``, where the selfattn plugin expands it
with the same pipeline as a build; what the build would render after that (HTML, templates,
charts) is skipped. The messages are the plugin's own warnings, word for word.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, MkDocsException
from mkdocs.structure.files import Files, InclusionLevel, get_files, set_exclusions
from mkdocs.structure.nav import get_navigation
from mkdocs.structure.pages import Page

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.build.inline import InlineValue, find_inline_values
from mkdocs_selfattn.plugin.events import SelfAttnPlugin
from mkdocs_selfattn.plugin.inserted import run_to_guard
from mkdocs_selfattn.render.escape import terminal_text


@dataclass(frozen=True)
class Finding:
    """One problem: ``page`` and ``line`` are None for problems of the site as a whole."""

    page: str | None
    line: int | None
    message: str
    text: str
    """The line as the build logs it (``docs/page.md:12: selfattn: …``)."""


@dataclass
class CheckReport:
    problems: list[Finding] = field(default_factory=list)
    pages: set[str] = field(default_factory=set)
    blocks: int = 0
    inline_values: int = 0

    def summary(self) -> dict[str, int]:
        return {
            "pages": len(self.pages),
            "blocks": self.blocks,
            "inline_values": self.inline_values,
            "problems": len(self.problems),
        }

    def as_text(self) -> str:
        s = self.summary()
        counts = ", ".join(
            _count(s[key], word)
            for key, word in (
                ("pages", "page"),
                ("blocks", "block"),
                ("inline_values", "inline value"),
            )
        )
        found = _count(s["problems"], "problem") if s["problems"] else "no problems"
        lines = [terminal_text(f.text) for f in self.problems]
        lines.append(f"mkdocs-selfattn check: {counts}: {found}")
        return "\n".join(lines) + "\n"

    def as_json(self) -> str:
        payload = {"problems": [asdict(f) for f in self.problems], "summary": self.summary()}
        return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_LOCATED = re.compile(r"^(?P<page>.+?)(?::(?P<line>\d+))?: selfattn: (?P<message>.*)\Z", re.S)


class _Collector(logging.Handler):
    """Every warning MkDocs and its plugins log (the ones ``--strict`` counts), in order."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.findings: list[Finding] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        match = _LOCATED.match(text)
        if match and not text.startswith("selfattn: "):
            line = match["line"]
            finding = Finding(match["page"], int(line) if line else None, match["message"], text)
        else:
            finding = Finding(None, None, text, text)
        # A page that several passes read (an untranslated i18n page) says its problem once.
        if finding not in self.findings:
            self.findings.append(finding)


def check_site(config_file: str | None = None) -> CheckReport:
    """Read and expand every page of the site; problems are collected, never raised."""
    report = CheckReport()
    collector = _Collector()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(collector)
    # As MkDocs' own command line does: the report prints each problem once. Python's root
    # logger gets a handler of its own as soon as any library calls logging.info() and friends
    # (older git-revision-date-localized did), and would print every problem again on stderr.
    propagate, logger.propagate = logger.propagate, False
    config: MkDocsConfig | None = None
    try:
        config = load_config(config_file)
        plugin = _selfattn(config)
        if plugin is None:
            logger.warning("selfattn: the selfattn plugin is not in mkdocs.yml's plugins")
        else:
            # Every problem reported, none fatal; no worker pool; nothing drawn.
            plugin.config["on_error"] = "warn"
            plugin.config["chart_workers"] = 0
            plugin.draw_charts = False
            config.plugins.on_startup(command="build", dirty=False)
            for _ in _passes(config):
                _check_pass(config, report)
    except Abort as exc:
        if not collector.findings:  # else it only sums up the errors MkDocs logged before it
            logger.error("%s", exc)
    except MkDocsException as exc:
        logger.error("%s", exc)
    except Exception as exc:  # another plugin's failure: `mkdocs build` would stop here too
        logger.error("the build stops here: %s: %s", type(exc).__name__, exc)
    finally:
        if config is not None:
            config.plugins.on_shutdown()
        logger.removeHandler(collector)
        logger.propagate = propagate
    report.problems = collector.findings
    return report


def _selfattn(config: MkDocsConfig) -> SelfAttnPlugin | None:
    for plugin in config.plugins.values():
        if isinstance(plugin, SelfAttnPlugin):
            return plugin
    return None


def _passes(config: MkDocsConfig) -> Iterator[None]:
    """Once per site the build writes: once, or once per language of mkdocs-static-i18n, which
    builds each further language again from its ``on_post_build`` (never run here) with
    ``current_language`` set."""
    yield
    for plugin in config.plugins.values():
        languages: Any = getattr(plugin, "build_languages", None)
        if languages is None or not hasattr(plugin, "current_language"):
            continue
        first = plugin.current_language
        for locale in list(languages):
            if locale != first:
                plugin.current_language = locale
                yield


def _check_pass(config: MkDocsConfig, report: CheckReport) -> None:
    """``mkdocs build`` up to each page's ``on_page_markdown`` (see mkdocs.commands.build)."""
    config = config.plugins.on_config(config)
    config.plugins.on_pre_build(config=config)
    files = get_files(config)
    # Never pages, but other plugins' on_files may look for them (under a tenth of a second).
    files.add_files_from_theme(config.theme.get_env(), config)
    files = config.plugins.on_files(files, config=config)
    set_exclusions(files, config)
    nav = get_navigation(files, config)
    config.plugins.on_nav(nav, config=config, files=files)
    for file in files.documentation_pages(inclusion=InclusionLevel.is_included):
        if file.page is None:
            Page(None, file, config)
        assert file.page is not None
        _check_page(file.page, config, files, report)


def _check_page(page: Page, config: MkDocsConfig, files: Files, report: CheckReport) -> None:
    try:
        page = config.plugins.on_pre_page(page, config=config, files=files)
        page.read_source(config)
        markdown = page.markdown or ""
        name = page.file.abs_src_path or page.file.src_uri
        if name not in report.pages and "selfattn" in markdown:
            report.blocks += len(find_blocks(markdown))
            found = find_inline_values(markdown)
            report.inline_values += sum(isinstance(item, InlineValue) for item in found)
        report.pages.add(name)
        expanded = config.plugins.on_page_markdown(markdown, page=page, config=config, files=files)
        # Far enough into the conversion that blocks brought in by includes are seen.
        run_to_guard(expanded, config)
    except (MkDocsException, OSError, UnicodeDecodeError) as exc:
        logging.getLogger("mkdocs").error("Error reading page '%s': %s", page.file.src_uri, exc)
