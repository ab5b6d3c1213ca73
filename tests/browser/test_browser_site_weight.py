"""What a reader downloads (issue 26): a page without blocks loads nothing of the plugin's, the
same bytes as without it; a page with mermaid loads one copy, the plugin's, also when Material's
instant navigation swaps it in from a page without blocks (whose head has no mermaid).

The figures go to test-artifacts/site-weight.json (bytes of every response of one fresh load).
"""

from __future__ import annotations

import functools
import json
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import COURSE_CSV, OPEN_SHADOW_ROOTS, _QuietHandler, _Server, mkdocs_build
from sites import MERMAID_FENCE

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MERMAID_JS = "assets/javascripts/selfattn/mermaid.min.js"

YML = """\
site_name: a book
SITE_URL
theme:
  name: material
  font: false
  features: [FEATURES]
markdown_extensions:
MERMAID_FENCE
plugins:
  - search
PLUGIN
""".replace("MERMAID_FENCE\n", MERMAID_FENCE)

BLOCK = """\
```selfattn
csv: memo.csv
document: memo_cap_missing
targets: [그것]
show: [SHOW]
```
"""

BOOK = {
    "index.md": "# Home\n\nA page of prose.\n\n[Chapter](chapter.md) · [Second](second.md)\n",
    "other.md": "# Other\n\nMore prose, [home](index.md).\n",
    "chapter.md": "# Chapter\n\n"
    + BLOCK.replace("SHOW", "table, mermaid, chart, try")
    + "\n[Second](second.md)\n",
    "second.md": "# Second\n\n" + BLOCK.replace("SHOW", "mermaid") + "\n[Home](index.md)\n",
}


@dataclass
class Served:
    base: str
    root: Path


@dataclass
class Load:
    """One tab: every response's (site path, bytes), and the requests that left 127.0.0.1."""

    page: Any
    base: str
    responses: list[Any] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def downloaded(self) -> list[tuple[str, int]]:
        return sorted((r.url.removeprefix(self.base), len(r.body())) for r in self.responses)

    def requested(self, suffix: str) -> list[str]:
        return [r.url for r in self.responses if r.url.endswith(suffix)]


def _serve_and_build(
    tmp: pytest.TempPathFactory, pages: dict[str, str], *, plugin: bool, instant: bool
) -> Iterator[Served]:
    """Served before it is built: instant navigation needs site_url with the server's port."""
    root = tmp.mktemp("site")
    server = _Server(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(root)))
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    project = tmp.mktemp("project")
    (project / "docs").mkdir()
    shutil.copyfile(COURSE_CSV, project / "docs" / "memo.csv")
    for name, text in pages.items():
        (project / "docs" / name).write_text(text, encoding="utf-8")
    yml = YML.replace("SITE_URL", f"site_url: {base}" if instant else "")
    yml = yml.replace("FEATURES", "navigation.instant" if instant else "")
    yml = yml.replace("PLUGIN", '  - selfattn:\n      cache_dir: ""' if plugin else "")
    (project / "mkdocs.yml").write_text(yml, encoding="utf-8")
    mkdocs_build(project / "mkdocs.yml", root)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Served(base, root)
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from _serve_and_build(tmp_path_factory, BOOK, plugin=True, instant=True)


NO_BLOCKS = {name: BOOK[name] for name in ("index.md", "other.md")}


@pytest.fixture(scope="module")
def without_plugin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from _serve_and_build(tmp_path_factory, NO_BLOCKS, plugin=False, instant=False)


@pytest.fixture(scope="module")
def with_plugin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from _serve_and_build(tmp_path_factory, NO_BLOCKS, plugin=True, instant=False)


@pytest.fixture
def load(browser: Any) -> Iterator[Callable[[Served, str], Load]]:
    """load(site, url) -> a fresh tab (empty cache) with the page loaded and the network idle."""
    contexts: list[Any] = []

    def open_page(site: Served, url: str) -> Load:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(60_000)
        contexts.append(context)
        context.add_init_script(OPEN_SHADOW_ROOTS)
        page = context.new_page()
        tab = Load(page, site.base)

        def route(route: Any) -> None:
            if route.request.url.startswith(site.base):
                route.continue_()
            else:
                tab.blocked.append(route.request.url)
                route.abort("blockedbyclient")

        context.route("**/*", route)
        page.on("response", lambda response: tab.responses.append(response))
        page.on("pageerror", lambda exc: tab.errors.append(str(exc)))
        page.goto(site.base + url, wait_until="networkidle")
        return tab

    yield open_page
    for context in contexts:
        context.close()


def _record(name: str, value: Any, artifacts: Path) -> None:
    path = artifacts / "site-weight.json"
    data = json.loads(path.read_text("utf-8")) if path.is_file() else {}
    data[name] = value
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _total(downloaded: list[tuple[str, int]]) -> int:
    return sum(size for _, size in downloaded)


def test_a_page_without_blocks_downloads_the_same_bytes(
    load: Callable[[Served, str], Load],
    with_plugin: Served,
    without_plugin: Served,
    artifacts: Path,
) -> None:
    """Adding `- selfattn` to a book with no blocks yet changes nothing a reader downloads."""
    plain = load(without_plugin, "").downloaded()
    added = load(with_plugin, "").downloaded()
    _record("no blocks, without the plugin", {"bytes": _total(plain), "files": plain}, artifacts)
    _record("no blocks, with the plugin", {"bytes": _total(added), "files": added}, artifacts)
    assert added == plain


def _figures(page: Any) -> list[str]:
    """The figures Material rendered: the <svg> source in each figure's shadow root."""
    return page.evaluate(  # type: ignore[no-any-return]
        """() => [...document.querySelectorAll("article div.mermaid")]
            .map(d => d.shadowRoot && d.shadowRoot.querySelector("svg")
                       ? d.shadowRoot.innerHTML : "")"""
    )


def _wait_for_figures(page: Any, count: int) -> list[str]:
    page.wait_for_function(
        """n => { const f = [...document.querySelectorAll("article div.mermaid")];
                  return f.length === n && f.every(d => d.shadowRoot &&
                         d.shadowRoot.querySelector("svg g")); }""",
        arg=count,
    )
    return _figures(page)


def _themed(figure: str) -> bool:
    """Material's theme for mermaid (its themeCSS, given to mermaid.initialize) is in the SVG."""
    return "--md-mermaid-node-bg-color" in figure


def test_instant_navigation_from_a_page_without_blocks(
    load: Callable[[Served, str], Load], book: Served, artifacts: Path
) -> None:
    home = load(book, "")
    page = home.page
    assert not [u for u, _ in home.downloaded() if "selfattn" in u or "mermaid" in u]
    _record("book home page (no blocks)", {"bytes": _total(home.downloaded())}, artifacts)

    page.evaluate("() => { window.__sameDocument = true; }")
    page.get_by_role("article").get_by_role("link", name="Chapter").click()
    page.wait_for_url("**/chapter/")
    [figure] = _wait_for_figures(page, 1)
    assert _themed(figure), "the figure was drawn without Material's mermaid theme"
    box = page.locator("article .selfattn-chart-box")
    assert box.evaluate("b => getComputedStyle(b).overflowX") == "hidden", "no plugin stylesheet"
    page.locator("article .selfattn-try").first.wait_for()
    assert page.evaluate("() => window.__sameDocument") is True, "not an instant navigation"

    page.evaluate("() => { window.__firstMermaid = mermaid; }")
    page.get_by_role("article").get_by_role("link", name="Second").click()
    page.wait_for_url("**/second/")
    [figure] = _wait_for_figures(page, 1)
    assert _themed(figure), "a second run of mermaid replaced the one Material set up"
    assert page.evaluate("() => mermaid === window.__firstMermaid") is True
    assert page.evaluate("() => window.__sameDocument") is True

    assert len(home.requested(MERMAID_JS)) == 1, "mermaid was fetched more than once"
    assert not home.blocked, f"the pages tried to reach the network: {home.blocked}"
    assert not home.errors, f"page errors: {home.errors}"


def test_a_chapter_page_loads_one_mermaid(
    load: Callable[[Served, str], Load], book: Served, artifacts: Path
) -> None:
    chapter = load(book, "chapter/")
    [figure] = _wait_for_figures(chapter.page, 1)
    assert _themed(figure)
    downloaded = chapter.downloaded()
    _record("book chapter page", {"bytes": _total(downloaded), "files": downloaded}, artifacts)
    assert [u for u, _ in downloaded if u.endswith("mermaid.min.js")] == [MERMAID_JS]
    assert not chapter.blocked, f"the page tried to reach the network: {chapter.blocked}"
    assert not chapter.errors, f"page errors: {chapter.errors}"
