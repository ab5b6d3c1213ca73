"""Three-language books with mkdocs-static-i18n, both layouts, built for real (see i18n_book.py).

Each layout is built once per module with ``mkdocs build --strict`` in a subprocess (the suffix
layout also with ``properdocs build --strict``), together with
search (``lang``), minify, git-revision-date-localized, arithmatex and ``navigation.instant``; the
tests then read the pages and the search index of every language.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from html_tree import Node, parse_html
from i18n_book import (
    CHART_TITLES,
    DEFAULT,
    LABELS,
    LANGUAGES,
    PRESSURE_LABELS,
    site_url,
    write_book,
)
from sites import table_rows, visible_text

from mkdocs_selfattn.render.words import CHART, MERMAID, TABLE, words

pytestmark = pytest.mark.slow

CHAPTER = "chapter/memo/"


class Book:
    def __init__(self, root: Path, structure: str, stderr: str) -> None:
        self.root = root
        self.structure = structure
        self.stderr = stderr
        self.site = root / "site"

    def html(self, language: str, page: str = CHAPTER) -> str:
        return (self.site / site_url(language, page) / "index.html").read_text(encoding="utf-8")

    def article(self, language: str, page: str = CHAPTER) -> Node:
        [article] = parse_html(self.html(language, page)).find_all("article")
        return article


def _build(config: Path, generator: str = "mkdocs") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    return subprocess.run(
        [sys.executable, "-m", generator, "build", "--strict", "-f", str(config)],
        cwd=config.parent,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=300,
        check=False,
    )


@pytest.fixture(
    scope="module", params=[("suffix", "mkdocs"), ("folder", "mkdocs"), ("suffix", "properdocs")]
)
def book(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Book:
    structure, generator = request.param
    root = tmp_path_factory.mktemp(f"book-{structure}-{generator}")
    done = _build(write_book(root, structure), generator)
    assert done.returncode == 0, done.stderr
    return Book(root, structure, done.stderr)


def test_strict_build_of_every_language(book: Book) -> None:
    assert "WARNING" not in book.stderr, book.stderr
    for language in LANGUAGES:
        page = book.html(language)
        assert f"<html lang={language}" in page or f'<html lang="{language}"' in page
        assert "SELFATTNSLOT" not in page


def _assets(html: str) -> list[str]:
    """Every script and stylesheet a page loads (minified HTML: attribute quotes optional),
    mermaid through the plugin's inline loader (see page_assets.py)."""
    tree = parse_html(html)
    found = [n.attrs["src"] for n in tree.find_all("script") if n.attrs.get("src")]
    found += [
        n.attrs["href"]
        for n in tree.find_all("link")
        if n.attrs.get("rel") == "stylesheet" and n.attrs.get("href")
    ]
    found += re.findall(r"'([^']*/mermaid\.min\.js)'", html)
    return found


def test_every_page_loads_each_asset_once(book: Book) -> None:
    pages = sorted(book.site.rglob("index.html"))
    assert len(pages) == 2 * len(LANGUAGES)
    for path in pages:
        assets = _assets(path.read_text(encoding="utf-8"))
        counts = Counter(a.rsplit("/", 1)[-1].split("?")[0] for a in assets)
        # The chapter shows a figure and a chart; the home page nothing of the plugin's.
        chapter = path.parent.name == "memo"
        assert counts["mermaid.min.js"] == chapter, (path, assets)
        assert counts["selfattn.css"] == chapter, (path, assets)
        assert [a for a, n in counts.items() if n > 1] == [], (path, assets)
        # Every asset resolves to a file of the site (one copy, at the root, for all languages).
        for asset in assets:
            if asset.startswith("http"):
                continue
            target = (path.parent / asset.split("?")[0]).resolve()
            assert target.is_file(), (path, asset)


def test_download_links_reach_the_published_csv(book: Book) -> None:
    for language in LANGUAGES:
        page = book.site / site_url(language, CHAPTER) / "index.html"
        links = [a.attrs["href"] for a in parse_html(book.html(language)).find_all("a")]
        csv_links = [href for href in links if href.endswith("memo.csv")]
        assert csv_links, language
        for href in csv_links:
            assert (page.parent / href).resolve().is_file(), (language, href)


def _printouts(article: Node) -> list[str]:
    return [pre.text() for pre in article.find_all("pre") if pre.text().startswith("csv_rows =")]


def _label(language: str, token: str) -> str:
    return LABELS[language].get(token, token)


def test_labels_and_words_per_language(book: Book) -> None:
    for language in LANGUAGES:
        article = book.article(language)
        memo, pressure = _printouts(article)
        assert f"target_token = {_label(language, '그것')}\n" in memo
        assert f"{_label(language, '절연캡')} weight = 0.43 " in memo
        assert f"target_token = {PRESSURE_LABELS[language].get('그것', '그것')}\n" in pressure
        table_words = words(TABLE, language)
        # The block's own words, keyed by language, win for English only.
        top = "strongest" if language == "en" else table_words["top"]
        captions = [visible_text(p) for p in article.find_all("p") if " · " in visible_text(p)]
        assert f" · {top}: " in captions[0], captions
        headers = [table_rows(t)[0] for t in article.find_all("table")]
        assert headers[0][:4] == [table_words[k] for k in ("candidate", "role", "score", "weight")]
        # The group name has a label too (none in Korean: the name itself).
        group = _label(language, "cap_plus_not_applied")
        assert any(row[0] == group for t in article.find_all("table") for row in table_rows(t))
        [figure] = article.find_all("pre", "mermaid")
        for key in ("document", "candidates", "weights", "representation"):
            assert words(MERMAID, language)[key] in figure.text()
        titles = [n.text() for n in article.find_all("title")]
        chart_name = words(CHART, language)["chart_name"]
        targets = f"{_label(language, '그것')}, {_label(language, '씌우지')}"
        named = chart_name.replace("{targets}", targets)
        # each chart is a wide and a narrow drawing, both named
        assert titles == [named, named, CHART_TITLES[language], CHART_TITLES[language]]
        axis = [n for n in article.find_all("g") if n.attrs.get("id", "").endswith("axis_weight")]
        assert axis, "the chart has its weight axis title"
        assert words(CHART, language)["axis_weight"] in visible_text(axis[0])


def test_korean_falls_back_to_the_csv_tokens(book: Book) -> None:
    """The shared example has no Korean labels: Korean pages show the tokens as in the CSV."""
    assert LABELS[DEFAULT] == {}
    memo, _ = _printouts(book.article(DEFAULT))
    assert "절연캡 weight = 0.43" in memo
    assert "target_token = 그것\n" in memo


def test_each_language_runs_and_shows_its_own_script(book: Book) -> None:
    examples = book.root / "docs" / "examples"
    for language in LANGUAGES:
        article = book.article(language)
        script = examples / ("memo.py" if language == DEFAULT else f"memo.{language}.py")
        [code] = [pre for pre in article.find_all("pre") if "def stable_softmax" in pre.text()]
        assert code.text().strip() == script.read_text(encoding="utf-8").strip()
        # The printout on the page is that script's real output, and the one-script example
        # got the page's language in SELFATTN_LANG.
        memo, pressure = _printouts(article)
        assert memo.strip() == _run(book.root, script).strip()
        pressure_run = _run(book.root, examples / "pressure.py", language)
        assert pressure.strip() == pressure_run.strip()


def _run(root: Path, script: Path, language: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    if language:
        env["SELFATTN_LANG"] = language
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        check=True,
    )
    return done.stdout


def test_inline_values_equal_the_tables(book: Book) -> None:
    for language in LANGUAGES:
        article = book.article(language)
        prose = " ".join(visible_text(p) for p in article.find_all("p"))
        rows = [row for t in article.find_all("table") for row in table_rows(t)]
        cap = _label(language, "절연캡")
        # The first target table is 그것's; the prose quotes its weight for 절연캡.
        weight = next(row[3] for row in rows if row[0].split(" (")[0] == cap and len(row) > 4)
        assert weight == "0.43"
        assert weight in prose
        group = _label(language, "cap_plus_not_applied")
        [bundle] = [row[1] for row in rows if row[0] == group]
        assert f"{float(bundle):.1%}" in prose


def test_search_index_holds_numbers_not_figures(book: Book) -> None:
    index = json.loads((book.site / "search" / "search_index.json").read_text(encoding="utf-8"))
    by_location: dict[str, str] = {}
    for entry in index["docs"]:
        page = entry["location"].split("#")[0]
        by_location[page] = by_location.get(page, "") + " " + entry["text"]
    for language in LANGUAGES:
        text = by_location[site_url(language, CHAPTER)]
        assert "0.43" in text
        assert "64.4%" in text
        assert f"target_token = {_label(language, '그것')}" in text
    everything = json.dumps(index, ensure_ascii=False)
    assert "<svg" not in everything
    assert "flowchart" not in everything
    assert "classDef" not in everything


def test_look_ahead_serves_the_localised_pages(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """With a worker, the look-ahead sends each language's charts, and each page claims them
    (a look-ahead keyed by docs_dir alone saw other pages and left its work unclaimed)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config_file = write_book(tmp_path / "book", "suffix")
    text = config_file.read_text(encoding="utf-8")
    config_file.write_text(text.replace('cache_dir: ""', 'cache_dir: ""\n      chart_workers: 1'))
    caplog.set_level(logging.DEBUG, logger="mkdocs.plugins.selfattn")
    cwd = Path.cwd()
    os.chdir(config_file.parent)  # git-revision-date-localized asks git in the working folder
    try:
        config = load_config(config_file=str(config_file))
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()
    finally:
        os.chdir(cwd)
    messages = [r.getMessage() for r in caplog.records if r.name == "mkdocs.plugins.selfattn"]
    sent = [m for m in messages if "pages need work" in m]
    assert len(sent) == len(LANGUAGES), messages
    for message in sent:
        charts = int(re.search(r"and (\d+) charts", message).group(1))  # type: ignore[union-attr]
        assert charts == 2, message
    unclaimed = [m for m in messages if "look-ahead unclaimed" in m]
    assert unclaimed == ["selfattn: look-ahead unclaimed: 0 results, 0 charts"] * len(LANGUAGES)
