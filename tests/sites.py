"""Temporary MkDocs sites for the build tests: write a project, build it, read what came out.

A site is a folder with ``mkdocs.yml`` (material, admonition, content tabs, superfences with the
mermaid fence, plugins ``search`` and ``selfattn``), pages under ``docs/`` and the course CSV. It is
built either in this process (``Site.build``: fast, and the plugin object can be inspected) or as
``python -m mkdocs build`` in a subprocess (``Site.run``: the real exit code and stderr of the CLI).

Also here: a small HTML tree (stdlib only) so tests can ask "is this table inside the admonition?"
instead of searching substrings.
"""

from __future__ import annotations

import html
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from html_tree import Node, parse_html

REPO = Path(__file__).resolve().parents[1]
COURSE_CSV_REL = "docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"
COURSE_CSV = REPO / COURSE_CSV_REL
COURSE_SCRIPT = REPO / "docs" / "examples" / "self_attention_memo.py"
SEED_PRINTOUT = REPO / "tests" / "golden" / "seed_printout.txt"

SEED_DISPLAY = {
    "배터리팩": "电池包",
    "분리": "分离",
    "절연캡": "绝缘帽",
    "씌우지": "未套上",
    "그것": "它",
    "위험": "风险",
}
SEED_TARGETS = ("그것", "씌우지")
SEED_GROUPS = {"cap_plus_not_applied": ("절연캡", "씌우지")}

MERMAID_FENCE = """\
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
"""


def seed_block(
    *,
    csv: str = "assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv",
    example_id: str | None = "memo",
    show: str = "[output]",
    indent: str = "",
    fence: str = "```",
    extra: str = "",
) -> str:
    """The chapter's example as a ``selfattn`` block (``csv`` relative to a page in docs/)."""
    lines = [f"{fence}selfattn"]
    if example_id is not None:
        lines.append(f"id: {example_id}")
    lines += [
        f"csv: {csv}",
        "document: memo_cap_missing",
        "targets: [그것, 씌우지]",
        "display: {배터리팩: 电池包, 분리: 分离, 절연캡: 绝缘帽,"
        " 씌우지: 未套上, 그것: 它, 위험: 风险}",
        "groups: {cap_plus_not_applied: [절연캡, 씌우지]}",
    ]
    lines += [line for line in extra.strip("\n").split("\n") if line] if extra else []
    lines += [f"show: {show}", fence]
    return "\n".join(indent + line if line else "" for line in lines) + "\n"


def block(body: str, *, indent: str = "", fence: str = "```") -> str:
    """A ``selfattn`` fence around a YAML ``body`` (dedented first), indented by ``indent``."""
    lines = [f"{fence}selfattn", *textwrap.dedent(body).strip("\n").split("\n"), fence]
    return "\n".join(indent + line if line else "" for line in lines) + "\n"


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """1-based line of the ``occurrence``-th line of ``text`` containing ``needle``."""
    seen = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{needle!r} (occurrence {occurrence}) is not in the page text")


@dataclass
class BuildLog:
    """What an in-process build logged (WARNING and above) and the plugin instance it used."""

    messages: list[str]
    plugin: Any
    config: Any

    def selfattn(self) -> list[str]:
        return [m for m in self.messages if "selfattn:" in m]


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@dataclass
class Site:
    """A throw-away MkDocs project rooted at ``root`` (the folder of mkdocs.yml)."""

    root: Path
    plugin_options: dict[str, Any] = field(default_factory=dict)
    mermaid_fence: bool = True
    messages: list[str] = field(default_factory=list)

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    @property
    def site_dir(self) -> Path:
        return self.root / "site"

    @property
    def config_file(self) -> Path:
        return self.root / "mkdocs.yml"

    @property
    def cache_dir(self) -> Path:
        return self.root / str(self.plugin_options.get("cache_dir", ".cache/selfattn"))

    # -- writing -------------------------------------------------------------------------------

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def page(self, name: str, text: str) -> Path:
        """Write ``docs/NAME`` (markdown)."""
        return self.write(f"docs/{name}", text)

    def write_config(self) -> None:
        options = json.dumps(self.plugin_options, ensure_ascii=False)
        plugin = f"  - selfattn: {options}\n" if self.plugin_options else "  - selfattn\n"
        self.write(
            "mkdocs.yml",
            "site_name: selfattn test site\n"
            "theme:\n  name: material\n"
            "markdown_extensions:\n"
            "  - admonition\n"
            + (MERMAID_FENCE if self.mermaid_fence else "  - pymdownx.superfences\n")
            + "  - pymdownx.tabbed:\n      alternate_style: true\n"
            "  - tables\n"
            "plugins:\n  - search\n" + plugin,
        )

    def configure(self, **options: Any) -> None:
        self.plugin_options.update(options)
        self.write_config()

    # -- building ------------------------------------------------------------------------------

    def build(self, *, strict: bool = False, fresh_plugin: bool = True) -> BuildLog:
        """Build in this process like ``mkdocs build`` does; raises what it raises (``Abort``).

        MkDocs keeps one instance of a plugin that defines ``on_startup`` per process (for
        ``mkdocs serve``), so in-process builds would share the plugin's memory cache. With
        ``fresh_plugin`` (the default) every build gets a new instance, as a new ``mkdocs build``
        process would. Whatever happens, ``self.messages`` then holds the WARNING+ messages.
        """
        from mkdocs.commands.build import build
        from mkdocs.config import load_config

        if fresh_plugin:
            _mkdocs_plugin_cache().clear()
        collect = _Collect()
        self.messages = collect.messages
        logger = logging.getLogger("mkdocs")
        logger.addHandler(collect)
        try:
            config = load_config(config_file=str(self.config_file), strict=strict)
            log = BuildLog(collect.messages, config.plugins["selfattn"], config)
            config.plugins.on_startup(command="build", dirty=False)
            try:
                build(config)
            finally:
                config.plugins.on_shutdown()
        finally:
            logger.removeHandler(collect)
        return log

    def run(self, *args: str, strict: bool = True, timeout: float = 180) -> Completed:
        """``python -m mkdocs build [--strict]`` in a subprocess, from the project folder."""
        command = [sys.executable, "-m", "mkdocs", "build", "-f", str(self.config_file), *args]
        if strict:
            command.append("--strict")
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
        env["NO_MKDOCS_2_WARNING"] = "1"  # material's end-of-life banner, noise in stderr
        process = subprocess.run(
            command,
            cwd=self.root,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=timeout,
            env=env,
            check=False,
        )
        return Completed(process.returncode, process.stdout, process.stderr)

    # -- reading -------------------------------------------------------------------------------

    def html_path(self, page: str) -> Path:
        """``index.md`` → site/index.html, ``a/b.md`` → site/a/b/index.html."""
        stem = page.removesuffix(".md")
        if stem == "index":
            return self.site_dir / "index.html"
        if stem.endswith("/index"):
            return self.site_dir / stem.removesuffix("index") / "index.html"
        return self.site_dir / stem / "index.html"

    def html(self, page: str = "index.md") -> str:
        return self.html_path(page).read_text(encoding="utf-8")

    def article(self, page: str = "index.md") -> Node:
        """The page's rendered markdown (material's ``<article>``) as a tree."""
        tree = parse_html(self.html(page))
        articles = tree.find_all("article")
        assert len(articles) == 1, f"expected one <article> in {page}"
        return articles[0]

    def page_bytes(self) -> dict[str, bytes]:
        """Every built page (``**/index.html``) by its site path."""
        return {
            p.relative_to(self.site_dir).as_posix(): p.read_bytes()
            for p in sorted(self.site_dir.rglob("index.html"))
        }


def _mkdocs_plugin_cache() -> dict[str, Any]:
    """The per-process cache of plugin instances kept by MkDocs' ``plugins`` config option."""
    from mkdocs.config import config_options
    from mkdocs.config.defaults import MkDocsConfig

    [option] = [o for _, o in MkDocsConfig._schema if isinstance(o, config_options.Plugins)]
    return option.plugin_cache  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Completed:
    returncode: int
    stdout: str
    stderr: str


def new_site(
    root: Path,
    pages: Mapping[str, str] | None = None,
    *,
    plugin_options: Mapping[str, Any] | None = None,
    mermaid_fence: bool = True,
    course_csv: bool = True,
    course_script: bool = False,
) -> Site:
    """A project at ``root`` with the course CSV at its course path (so the course script runs)."""
    root.mkdir(parents=True, exist_ok=True)
    site = Site(root, dict(plugin_options or {}), mermaid_fence)
    site.write_config()
    if course_csv:
        target = root / COURSE_CSV_REL
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(COURSE_CSV, target)
    if course_script:
        target = root / "docs" / "examples" / COURSE_SCRIPT.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(COURSE_SCRIPT, target)
    for name, text in (pages or {}).items():
        site.page(name, text)
    return site


# ---------------------------------------------------------------------------------------------
# Reading pages (the tree itself: html_tree.py)


def table_rows(table: Node) -> list[list[str]]:
    """Cell texts of a table, header row first, whitespace collapsed."""
    return [
        [" ".join(cell.text().split()) for cell in row.children if isinstance(cell, Node)]
        for row in table.find_all("tr")
    ]


def visible_text(node: Node) -> str:
    return " ".join(node.text().split())


def unescape(text: str) -> str:
    return html.unescape(text)


SLOT_TOKEN = re.compile(r"SELFATTNSLOT")
