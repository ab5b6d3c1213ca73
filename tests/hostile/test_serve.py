"""``mkdocs serve`` while a student breaks and mends things: the server never stops serving.

A real ``python -m mkdocs serve`` runs on a free local port; the tests edit files and poll pages
with :mod:`urllib` until the change shows (bounded in time). The server is always ended, with its
whole process group, when the test ends, whatever happened.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .support import (
    GOOD_CSV,
    GOOD_CSV_PATH,
    Node,
    Project,
    block,
    build_env,
    good_block,
    kill_group,
    parse_html,
)

PHASE_SECONDS = 120.0
"""How long one change may take to show (a rebuild on a busy CI machine)."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Page:
    status: int | None
    text: str

    def article(self) -> Node | None:
        found = parse_html(self.text).find_all("article")
        return found[0] if found else None


class Server:
    def __init__(self, project: Project) -> None:
        self.project = project
        self.port = free_port()
        self.log_file = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed in stop()
            prefix="serve-", suffix=".log", delete=False
        )
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mkdocs",
                "serve",
                "-f",
                str(project.root / "mkdocs.yml"),
                "-a",
                f"127.0.0.1:{self.port}",
            ],
            cwd=project.root,
            env=build_env(),
            stdin=subprocess.DEVNULL,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log(self) -> str:
        return Path(self.log_file.name).read_text(encoding="utf-8", errors="replace")

    def get(self, path: str) -> Page:
        url = f"http://127.0.0.1:{self.port}{path}"
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return Page(response.status, response.read().decode("utf-8", "replace"))
        except urllib.error.HTTPError as exc:
            exc.close()
            return Page(exc.code, "")
        except (urllib.error.URLError, OSError) as exc:
            return Page(None, str(exc))

    def wait_for(self, path: str, what: str, ready: Callable[[Page], bool]) -> Page:
        """Poll ``path`` until ``ready``; meanwhile the home page must keep answering."""
        deadline = time.monotonic() + PHASE_SECONDS
        page = Page(None, "")
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"the server exited while waiting for {what}:\n" + (
                self.tail()
            )
            page = self.get(path)
            if page.status == 200 and ready(page):
                return page
            time.sleep(0.4)
        raise AssertionError(
            f"{what}: not seen on {path} within {PHASE_SECONDS:g} s (last status "
            f"{page.status}):\n{self.tail()}"
        )

    def still_serving(self) -> None:
        assert self.process.poll() is None, "the server exited:\n" + self.tail()
        for path in ("/", "/other/"):
            page = self.get(path)
            assert page.status == 200, f"{path} answered {page.status}: {page.text[:200]}"

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                kill_group(self.process.pid)
                self.process.wait(timeout=15)
        kill_group(self.process.pid)  # anything the server left in its session (chart workers)
        self.log_file.close()
        Path(self.log_file.name).unlink(missing_ok=True)


@pytest.fixture
def serve() -> Iterator[Callable[[Project], Server]]:
    servers: list[Server] = []

    def start(project: Project) -> Server:
        server = Server(project)
        servers.append(server)
        return server

    try:
        yield start
    finally:
        for server in servers:
            server.stop()


def has_example(page: Page) -> bool:
    article = page.article()
    return (
        article is not None
        and bool(article.find_all("table"))
        and not article.find_all(cls="selfattn-error")
        and "TOP:절연캡:END" in " ".join(article.text().split())
    )


def error_saying(pattern: str) -> Callable[[Page], bool]:
    def ready(page: Page) -> bool:
        article = page.article()
        if article is None:
            return False
        boxes = article.find_all("div", cls="selfattn-error")
        return any(re.search(pattern, " ".join(b.text().split())) for b in boxes)

    return ready


def make_project(root: Path, csv: str = "/data/good.csv") -> Project:
    project = Project(root, {"chart_workers": 0, "cache_dir": ".cache/selfattn"})
    project.write(GOOD_CSV_PATH, GOOD_CSV)
    project.write("data/outside.csv", GOOD_CSV)
    project.configure()
    project.page("index.md", "# Home\n\nThe server must keep serving this page.\n")
    project.page("other.md", "# Other\n\n" + good_block("o") + "\n")
    project.page("bad.md", bad_page(csv))
    return project


def bad_page(csv: str, body: str | None = None) -> str:
    content = body or (
        f"id: ex\ncsv: {csv}\ndocument: memo_cap_missing\ntargets: [그것]\nshow: [table]"
    )
    return "# Bad\n\nIntro.\n\n" + block(content) + "\nTOP:`{selfattn} ex top 그것`:END\n"


BROKEN_YAML = "id: ex\ncsv: [unclosed\ndocument: memo_cap_missing"


def _break_page(project: Project) -> str:
    project.page("bad.md", bad_page("/data/good.csv", BROKEN_YAML))
    return r"invalid YAML"


def _fix_page(project: Project) -> None:
    project.page("bad.md", bad_page("/data/good.csv"))


def _delete_docs_csv(project: Project) -> str:
    (project.root / GOOD_CSV_PATH).unlink()
    return r"docs/data/good\.csv: file not found"


def _restore_docs_csv(project: Project) -> None:
    project.write(GOOD_CSV_PATH, GOOD_CSV)


def _delete_outside_csv(project: Project) -> str:
    (project.root / "data/outside.csv").unlink()
    return r"data/outside\.csv: file not found"


def _restore_outside_csv(project: Project) -> None:
    project.write("data/outside.csv", GOOD_CSV)


def _corrupt_csv(project: Project) -> str:
    lines = GOOD_CSV.splitlines(keepends=True)
    lines[2] = "memo_cap_missing,그것,분리\n"
    project.write(GOOD_CSV_PATH, "".join(lines))
    return r"docs/data/good\.csv:3: this row has 3 fields but the header has 8"


SCENARIOS: dict[str, tuple[str, Callable[[Project], str], Callable[[Project], None]]] = {
    "page-breaks-then-fixed": ("/data/good.csv", _break_page, _fix_page),
    "csv-in-docs-deleted-then-restored": ("/data/good.csv", _delete_docs_csv, _restore_docs_csv),
    "csv-outside-docs-deleted-then-restored": (
        "../data/outside.csv",
        _delete_outside_csv,
        _restore_outside_csv,
    ),
    "csv-corrupted-then-restored": ("/data/good.csv", _corrupt_csv, _restore_docs_csv),
}


@pytest.mark.slow
@pytest.mark.parametrize("scenario", list(SCENARIOS), ids=list(SCENARIOS))
def test_serve_survives_breakage(
    tmp_path: Path, serve: Callable[[Project], Server], scenario: str
) -> None:
    csv, breaks, mends = SCENARIOS[scenario]
    project = make_project(tmp_path, csv)
    server = serve(project)
    server.wait_for("/bad/", "the example before the change", has_example)
    server.still_serving()

    pattern = breaks(project)
    server.wait_for("/bad/", f"the error matching {pattern!r}", error_saying(pattern))
    server.still_serving()
    logged = [line for line in server.log().splitlines() if "docs/bad.md:" in line]
    assert any(re.search(r"docs/bad\.md:\d+: selfattn: ", line) for line in logged), (
        "the serve log has no 'docs/bad.md:LINE: selfattn:' report:\n" + server.tail()
    )

    mends(project)
    server.wait_for("/bad/", "the example after the repair", has_example)
    server.still_serving()
    other = server.get("/other/").article()
    assert other is not None
    assert other.find_all("table"), "other.md lost its example while bad.md was broken"
    assert not other.find_all(cls="selfattn-error")
