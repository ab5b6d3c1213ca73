"""The test site of the try view's questions and heads layouts, shared by its browser tests
(loaded with ``pytest_plugins``, so the site is built once for both modules)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import Site, _QuietHandler, _Server, mkdocs_build, site_tab
from try_reading_cases import Case, all_cases, write_project


@pytest.fixture(scope="session")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    return all_cases(tmp_path_factory.mktemp("try-readings-core"))


@pytest.fixture(scope="session")
def served(
    tmp_path_factory: pytest.TempPathFactory, cases: dict[str, Case]
) -> Iterator[tuple[Site, str]]:
    server = _Server(("127.0.0.1", 0), _QuietHandler)
    port = server.server_address[1]
    project = write_project(tmp_path_factory.mktemp("try-readings-project"), cases, port)
    root = tmp_path_factory.mktemp("try-readings-site")
    log = mkdocs_build(project / "mkdocs.yml", root)
    handler = functools.partial(_QuietHandler, directory=str(root))
    server.RequestHandlerClass = handler  # type: ignore[assignment]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Site("try-readings", root, log), f"http://127.0.0.1:{port}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture
def tab(browser: Any, served: tuple[Site, str]) -> Iterator[Callable[..., Any]]:
    base = served[1]
    contexts: list[Any] = []
    blocked: list[str] = []

    def open_tab(url: str, width: int = 1280, **options: Any) -> Any:
        page = site_tab(
            browser,
            base,
            url,
            contexts=contexts,
            blocked=blocked,
            width=width,
            accept_downloads=True,
            **options,
        )
        if options.get("java_script_enabled", True):
            page.wait_for_selector(".selfattn-try-ui [data-q=context]")
        return page

    yield open_tab
    for context in contexts:
        context.close()
    assert blocked == [], f"requests beyond the site: {blocked}"
