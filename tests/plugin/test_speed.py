"""The speed layer seen from outside: a cache folder restored into a fresh clone (CI) answers
everything, and `mkdocs serve` has its worker started and warm before the first edit."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from sites import Site, new_site, seed_block

pytestmark = pytest.mark.slow

_COUNTS = re.compile(
    r"selfattn: computed (\d+) results, drew (\d+) charts, ran (\d+) scripts; (\d+) pages"
)


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def _counts(stderr: str) -> tuple[int, ...]:
    found = _COUNTS.findall(stderr)
    assert len(found) == 1, stderr[-2000:]
    return tuple(int(n) for n in found[0])


def test_a_fresh_clone_with_a_restored_cache_draws_no_chart_and_computes_nothing(
    tmp_path: Path,
) -> None:
    pages = {
        "index.md": "# Home\n",
        "one.md": "# One\n\n" + seed_block(show="[output, table, chart]"),
        "two.md": "# Two\n\n"
        + seed_block(example_id="checked", extra="script: examples/self_attention_memo.py"),
    }
    origin = new_site(
        tmp_path / "origin" / "project",
        pages,
        plugin_options={"chart_workers": 1},
        course_script=True,
    )
    origin.write(".gitignore", ".cache/\nsite/\n")
    _git("init", "-q", cwd=origin.root)
    _git("add", "-A", cwd=origin.root)
    _git("commit", "-qm", "course", cwd=origin.root)

    first = origin.run("-v")
    assert first.returncode == 0, first.stderr[-2000:]
    results, charts, scripts, _ = _counts(first.stderr)
    assert min(results, charts, scripts) >= 1

    # What a CI job does: a fresh clone (elsewhere, new file times), the cache folder restored.
    clone_root = tmp_path / "runner" / "project"
    _git("clone", "-q", str(origin.root), str(clone_root), cwd=tmp_path)
    assert not (clone_root / ".cache").exists()
    shutil.copytree(origin.cache_dir, clone_root / ".cache" / "selfattn")
    clone = Site(clone_root, dict(origin.plugin_options))

    again = clone.run("-v")
    assert again.returncode == 0, again.stderr[-2000:]
    results, charts, scripts, _ = _counts(again.stderr)
    assert (results, charts, scripts) == (0, 0, 0)
    assert "sent 0 results and 0 charts" in again.stderr or "need work" not in again.stderr
    assert clone.page_bytes() == origin.page_bytes()


# ---------------------------------------------------------------------------------------------
# serve


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return str(response.read().decode("utf-8"))
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def _children(pid: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(name))
    return found


def _has_matplotlib(pid: int) -> bool:
    try:
        return "ft2font" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def _until(condition: object, what: str, deadline: float = 90) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if callable(condition) and condition():
            return
        time.sleep(0.1)  # polling processes and a server: there is no event to wait on
    raise AssertionError(f"{what}: not within {deadline:.0f} s")


def test_serve_starts_a_warm_worker_before_the_first_edit(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "project",
        {"index.md": "# Served\n\n" + seed_block(show="[table, chart]")},
        plugin_options={"chart_workers": 1},
    )
    assert site.run().returncode == 0  # the cache is warm: the first serve build sends no work
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    command = [sys.executable, "-m", "mkdocs", "serve", "-f", str(site.config_file)]
    server = subprocess.Popen(
        [*command, "-a", f"127.0.0.1:{port}"],
        cwd=site.root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/"
        _until(lambda: _fetch(url) is not None, "the served site")
        # No file was edited: the worker is there, with matplotlib loaded, all the same.
        _until(
            lambda: any(_has_matplotlib(child) for child in _children(server.pid)),
            "a worker of `mkdocs serve` with matplotlib imported",
        )
        assert not _has_matplotlib(server.pid)
        before = _fetch(url)
        csv = site.root / "docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"
        text = csv.read_text(encoding="utf-8")
        row = "memo_cap_missing,그것,분리,prior_action,0.8,0.2,0.4,"
        assert text.count(row) == 1
        csv.write_text(re.sub(f"{row}[0-9.]+", f"{row}2.703", text), encoding="utf-8")
        _until(lambda: (_fetch(url) or before) != before, "the page after the CSV edit")
        assert "<svg" in (_fetch(url) or "")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
