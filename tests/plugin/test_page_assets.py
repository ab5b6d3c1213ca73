"""The plugin's assets on the pages that use them and no others (issue 26): real builds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sites import Site, new_site, seed_block

from mkdocs_selfattn.plugin.page_assets import STYLED, VENDOR

pytestmark = pytest.mark.slow

MERMAID_JS = "assets/javascripts/selfattn/mermaid.min.js"
PROSE = "# Prose\n\nNo blocks here.\n"
AUTHOR_FIGURE = "# A figure\n\n```mermaid\nflowchart LR\n  A --> B\n```\n"


def _site(tmp_path: Path, **options: object) -> Site:
    site = new_site(
        tmp_path / "book",
        {
            "index.md": PROSE,
            "table.md": "# Table\n\n" + seed_block(show="[table]"),
            "figures.md": "# Figures\n\n" + seed_block(show="[mermaid, chart, try]"),
            "author.md": AUTHOR_FIGURE,
        },
        plugin_options={"cache_dir": "", **options},
    )
    site.build(strict=True)
    return site


def test_pages_load_only_the_assets_they_use(tmp_path: Path) -> None:
    site = _site(tmp_path)
    prose = site.html("index.md")
    assert "assets/stylesheets/selfattn" not in prose
    assert "javascripts/selfattn" not in prose
    assert "mermaid" not in prose
    table = site.html("table.md")
    assert "selfattn.css" not in table, "a table needs none of the plugin's styles"
    assert MERMAID_JS not in table
    figures = site.html("figures.md")
    assert figures.count("assets/stylesheets/selfattn.css") == 1
    assert figures.count("selfattn-try.js") == 1
    assert figures.count(MERMAID_JS) == 1
    # In the content, where instant navigation finds it, not in the theme's head or scripts.
    [article] = re.findall(r"<article.*?</article>", figures, re.DOTALL)
    assert MERMAID_JS in article
    assert "selfattn.css" in article
    # An author's own figure on a page without blocks: the bundled copy, not unpkg's.
    assert site.html("author.md").count(MERMAID_JS) == 1
    # Published once for the site, as upstream ships it.
    published = site.site_dir / MERMAID_JS
    assert published.read_bytes() == (VENDOR / "mermaid" / "mermaid.min.js").read_bytes()


def test_a_page_without_blocks_is_the_same_without_the_plugin(tmp_path: Path) -> None:
    site = _site(tmp_path)
    with_plugin = site.html("index.md")
    config = site.config_file.read_text("utf-8")
    site.write("mkdocs.yml", re.sub(r"  - selfattn.*\n", "", config))
    site.page("table.md", "# Table\n")
    site.page("figures.md", "# Figures\n")
    site.root.joinpath("site").rename(site.root / "site-with")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    build(load_config(config_file=str(site.config_file)))
    assert site.html("index.md") == with_plugin


def test_a_site_that_brings_its_own_mermaid(tmp_path: Path) -> None:
    site = _site(tmp_path, mermaid_js="cdn")
    assert "mermaid.min.js" not in site.html("figures.md")
    assert "mermaid.min.js" not in site.html("author.md")
    assert not (site.site_dir / MERMAID_JS).exists()


def test_the_styled_classes_are_the_stylesheets() -> None:
    css = (VENDOR / "selfattn.css").read_text("utf-8")
    selectors = set(re.findall(r"\.(selfattn-[a-z-]+)", css))
    # svg.selfattn-chart (and its wide and narrow drawings) are styled only inside a chart's box.
    drawings = {"selfattn-chart", "selfattn-chart-wide", "selfattn-chart-narrow"}
    assert selectors - drawings == set(STYLED)
