"""Browser tests: build sites with `mkdocs build`, serve them on 127.0.0.1, open them in Chromium.

Only Debian's Chromium (/usr/bin/chromium) driven by Playwright for Python is used; nothing is
downloaded. Every request that is not for 127.0.0.1 is blocked, so a test that passes proves the
page needs no network.

Without Chromium (or the playwright package) the tests skip locally with a message that says how to
install it; with ``CI`` set (CI=true) they fail instead, so CI can never go green by skipping them.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
COURSE_CSV = REPO / "docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"
CHAPTER_SRC = REPO / "docs/course/part-05/chapter-13/p5-13-2-self-attention.md"
CHAPTER_URL = "course/part-05/chapter-13/p5-13-2-self-attention/"
INSTALL_HINT = (
    "install it with `apt-get install chromium` (Debian; or `bash .ci/system-packages browser`) "
    "and `python3 -m pip install -e '.[test]'` for playwright"
)

# Material renders each mermaid figure into a CLOSED shadow root, which no page script and no
# Playwright selector can enter. This runs in every frame before any page script (so before
# Material's bundle) and makes every attachShadow call open instead; the figure is otherwise
# rendered exactly as readers get it.
OPEN_SHADOW_ROOTS = """
(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    return attach.call(this, Object.assign({}, init, { mode: "open" }));
  };
  window.__selfattnOpenShadow = true;
})();
"""


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _unavailable(reason: str) -> None:
    message = f"{reason}; {INSTALL_HINT}"
    if _ci():
        pytest.fail(f"CI is set, so the browser tests must run: {message}", pytrace=False)
    pytest.skip(f"browser tests skipped: {message}")


# -- sites ----------------------------------------------------------------------------------------


@dataclass
class Site:
    """A built site: where it lies, the log of its build, and the markdown of its pages."""

    name: str
    root: Path
    log: str
    sources: dict[str, Path] = field(default_factory=dict)  # page url -> markdown source


def mkdocs_build(config: Path, site_dir: Path) -> str:
    """`python -m mkdocs build` (never --strict: broken blocks must still produce a page)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-f", str(config), "-d", str(site_dir)],
        cwd=config.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"mkdocs build of {config} failed:\n{log}"
    return log


FIXTURE_YML = """\
site_name: selfattn browser fixture
theme:
  name: material
  language: zh
  palette:
    - scheme: default
      toggle:
        icon: material/weather-night
        name: Switch to dark mode
    - scheme: slate
      toggle:
        icon: material/weather-sunny
        name: Switch to light mode
markdown_extensions:
  - admonition
  - pymdownx.details
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
plugins:
  - search
  - selfattn:
      cache_dir: ""
nav:
  - memo.md
  - broken.md
"""

MEMO_BLOCK = """\
```selfattn
id: memo
csv: memo.csv
document: memo_cap_missing
targets: [그것, 씌우지]
display: {배터리팩: 电池包, 분리: 分离, 절연캡: 绝缘帽, 씌우지: 未套上, 그것: 它, 위험: 风险}
groups: {cap_plus_not_applied: [절연캡, 씌우지]}
show: [SHOW]
```
"""

FIXTURE_MEMO_MD = (
    "# 安全备忘录里的“它”\n\n"
    "备忘录共有 `{selfattn} memo document_rows` 行，整个文件 `{selfattn} memo csv_rows` 行。\n\n"
    + MEMO_BLOCK.replace("SHOW", "output, table, compare, mermaid, chart")
    + textwrap.dedent(
        """
        “它”对绝缘帽的权重是 `{selfattn} memo weight 그것 절연캡`，
        绝缘帽与未套上的合计是 `{selfattn} memo group 그것 cap_plus_not_applied`
        （即 `{selfattn} memo group 그것 cap_plus_not_applied :.1%`）。

        - 权重最大的是 `{selfattn} memo top 그것`，原始分数 `{selfattn} memo score 그것 절연캡`。
        - “未套上”看“分离”的权重是 `{selfattn} memo weight 씌우지 분리`，新的表示是
          `{selfattn} memo representation 씌우지`，变化 `{selfattn} memo shift 씌우지`。
        - baseline 是 `{selfattn} memo baseline`，其中 evidence_cap 是
          `{selfattn} memo baseline evidence_cap`；“它”在这一维上变化了
          `{selfattn} memo shift 그것 evidence_cap`。
        """
    )
)

BROKEN_DOCUMENT = "memo_does_not_exist"
FIXTURE_BROKEN_MD = (
    "# 出错的示例\n\n"
    "这一段在出错的块之前，读者应该照常看到。\n\n"
    + MEMO_BLOCK.replace("SHOW", "compare, mermaid, chart")
    + textwrap.dedent(
        f"""
        ## 一个坏掉的块

        下面这个块引用了不存在的备忘录。

        ```selfattn
        id: broken
        csv: memo.csv
        document: {BROKEN_DOCUMENT}
        show: [table, chart]
        ```

        这一段在出错的块之后：“它”对绝缘帽的权重仍是 `{{selfattn}} memo weight 그것 절연캡`。

        ```mermaid
        flowchart LR
          A["出错的块"] --> B["页面其余部分照常显示"]
        ```

        ## 后面的小节

        页面的最后一段。
        """
    )
)


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """A small site of our own: the memo page and a page with a broken block (built non-strict)."""
    project = tmp_path_factory.mktemp("fixture-project")
    docs = project / "docs"
    docs.mkdir()
    shutil.copyfile(COURSE_CSV, docs / "memo.csv")
    (docs / "memo.md").write_text(FIXTURE_MEMO_MD, encoding="utf-8")
    (docs / "broken.md").write_text(FIXTURE_BROKEN_MD, encoding="utf-8")
    (project / "mkdocs.yml").write_text(FIXTURE_YML, encoding="utf-8")
    root = tmp_path_factory.mktemp("fixture-site")
    log = mkdocs_build(project / "mkdocs.yml", root)
    return Site("fixture", root, log, {"memo/": docs / "memo.md", "broken/": docs / "broken.md"})


@pytest.fixture(scope="session")
def repo_site(course_site: Any) -> Site:
    """The repository's own mkdocs.yml (the real course chapters), built once per session with
    --strict by tests/conftest.py's course_site, which the non-browser chapter tests share."""
    assert CHAPTER_SRC.is_file(), f"the chapter {CHAPTER_SRC} is missing"
    root, log = course_site.root, course_site.log
    assert (root / CHAPTER_URL / "index.html").is_file(), f"no page at {CHAPTER_URL}:\n{log}"
    return Site("repo", root, log, {CHAPTER_URL: CHAPTER_SRC})


# -- serving ----------------------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False


@pytest.fixture(scope="session")
def serve() -> Iterator[Callable[[Site], str]]:
    """serve(site) -> base URL of that site on http://127.0.0.1:<free port>/ (one server each)."""
    servers: dict[Path, tuple[_Server, threading.Thread]] = {}

    def start(site: Site) -> str:
        if site.root not in servers:
            handler = functools.partial(_QuietHandler, directory=str(site.root))
            server = _Server(("127.0.0.1", 0), handler)
            thread = threading.Thread(target=server.serve_forever, daemon=True)
            thread.start()
            servers[site.root] = (server, thread)
        host, port = servers[site.root][0].server_address[:2]
        return f"http://{host}:{port}/"

    yield start
    for server, thread in servers.values():
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# -- the browser ------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        _unavailable(f"Chromium was not found at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the Python package playwright is not installed")
    manager = sync_playwright().start()
    try:
        chromium = manager.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
        )
    except Exception:
        manager.stop()
        raise
    yield chromium
    chromium.close()
    manager.stop()


@dataclass
class Reader:
    """One browser tab as a reader has it, plus what the network and the console saw."""

    page: Any
    blocked: list[tuple[str, str]] = field(default_factory=list)  # (resource type, url)
    served: list[tuple[int, str]] = field(default_factory=list)  # (status, url)
    errors: list[str] = field(default_factory=list)  # uncaught page errors


def offline_context(
    browser: Any,
    *,
    width: int = 1280,
    scheme: str | None = None,
    locale: str = "zh-CN",
    blocked: Callable[[Any], None] | None = None,
) -> Any:
    """A browser context as a reader of the built site has it, with the network closed: every
    request that is not to this machine is aborted (and passed to ``blocked``, when given). Below
    720 px it is a phone: 800 px tall, twice the pixels, touch."""
    phone = width < 720
    options: dict[str, Any] = {
        "viewport": {"width": width, "height": 800 if phone else 900},
        "locale": locale,
        "service_workers": "block",
    }
    if phone:
        options |= {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
    if scheme is not None:
        options["color_scheme"] = scheme
    context = browser.new_context(**options)
    context.set_default_timeout(60_000)  # generous: CI machines can be slow and busy
    context.add_init_script(OPEN_SHADOW_ROOTS)

    def only_localhost(route: Any) -> None:
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
            return
        if blocked is not None:
            blocked(route.request)
        route.abort("blockedbyclient")

    context.route("**/*", only_localhost)
    return context


def site_tab(
    browser: Any,
    base: str,
    url: str,
    *,
    contexts: list[Any],
    blocked: list[str],
    width: int = 1280,
    **options: Any,
) -> Any:
    """A tab of the site served at ``base``, ``url`` loaded: requests elsewhere are aborted and
    listed in ``blocked``, uncaught page errors in ``page.errors``; ``options`` go to the
    browser context (its ``contexts`` are closed by the caller)."""
    context = browser.new_context(viewport={"width": width, "height": 900}, **options)
    context.set_default_timeout(60_000)
    contexts.append(context)

    def only_the_site(route: Any) -> None:
        if route.request.url.startswith(base):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_site)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(base + url, wait_until="load")
    return page


@pytest.fixture
def open_reader(browser: Any) -> Iterator[Callable[..., Reader]]:
    """open_reader(url, scheme="light") -> Reader with the page loaded and the network closed."""
    contexts: list[Any] = []

    def open_page(url: str, *, scheme: str = "light") -> Reader:
        reader = Reader(page=None)
        context = offline_context(
            browser,
            scheme=scheme,
            blocked=lambda request: reader.blocked.append((request.resource_type, request.url)),
        )
        contexts.append(context)
        page = context.new_page()
        reader.page = page
        page.on("pageerror", lambda exc: reader.errors.append(str(exc)))
        page.on("response", lambda r: reader.served.append((r.status, r.url)))
        page.goto(url, wait_until="load")
        return reader

    yield open_page
    for context in contexts:
        context.close()


@dataclass
class Target:
    """A page to open: the site it belongs to, its URL inside the site, and the served base URL."""

    site: Site
    url: str
    base: str

    @property
    def address(self) -> str:
        return self.base + self.url

    @property
    def source(self) -> Path:
        return self.site.sources[self.url]


@pytest.fixture(
    params=[
        pytest.param(("repo_site", CHAPTER_URL), id="chapter"),
        pytest.param(("fixture_site", "memo/"), id="fixture-memo"),
    ]
)
def page_under_test(request: pytest.FixtureRequest, serve: Callable[[Site], str]) -> Target:
    """The real course chapter, and the memo page of the fixture site."""
    name, url = request.param
    site: Site = request.getfixturevalue(name)
    return Target(site, url, serve(site))


@pytest.fixture
def chapter(repo_site: Site, serve: Callable[[Site], str]) -> Target:
    """The course chapter of the repository's own site."""
    return Target(repo_site, CHAPTER_URL, serve(repo_site))


@pytest.fixture
def broken_page(fixture_site: Site, serve: Callable[[Site], str]) -> Target:
    """The fixture site's page with a broken block."""
    return Target(fixture_site, "broken/", serve(fixture_site))


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
