"""`bench_build.py --serve`: from saving a file to the served page showing it, under `mkdocs serve`.

Each round starts `mkdocs serve` on the plain course and on the plugin course (its cache folder
warm from the build benchmark's warm-up), in alternating order. After the server answers, and a
pause of THINK_S (an author does not save within a second of starting the server), it makes
``edits`` edits, one after the other:

* plain:  one chapter's Markdown gets a new sentence;
* plugin: one chapter's CSV gets a score it never had (that chapter's table, printout and chart
          change; the other chapters come from memory).

The time of an edit is taken from just before the file is written to the moment the server's
live-reload endpoint (``/livereload/<epoch>/<id>``, which a browser long-polls) reports the new
build; the page is then fetched and must differ from before (the new number is on it). The first
edit after start is reported apart from the later ones, each paired with plain's edit of the same
number in the same round.
"""

from __future__ import annotations

import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import course
import measure

THINK_S = 2.0
_EPOCH = re.compile(rb"livereload\((\d+),\s*(\d+)\)")
TARGET_EXTRA_S = 0.25


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(url: str, timeout: float = 60.0) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        data: bytes = response.read()
        return data


class Server:
    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-m", "mkdocs", "serve", "-f", str(root / "mkdocs.yml")]
        cmd += ["-a", f"127.0.0.1:{self.port}"]
        self.proc = subprocess.Popen(
            cmd, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 120
        while True:
            try:
                _get(self.base + "/")
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"bench: mkdocs serve did not start for {root}") from None
                time.sleep(0.05)

    def page(self, i: int) -> bytes:
        return _get(f"{self.base}/{course.chapter_dir(i)}/")

    def edit_to_visible(self, i: int, write: Any) -> float:
        before = self.page(i)
        found = _EPOCH.search(before)
        if found is None:
            raise SystemExit("bench: no live-reload script in the served page")
        epoch, request = found.group(1).decode(), found.group(2).decode()
        start = time.perf_counter()
        write()
        while True:
            answer = _get(f"{self.base}/livereload/{epoch}/{request}").strip()
            if answer.decode() != epoch:
                seconds = time.perf_counter() - start
                if self.page(i) != before:
                    return seconds
                epoch = answer.decode()  # a rebuild that did not show the edit yet
            if time.perf_counter() - start > 60:
                raise SystemExit("bench: the edit never became visible")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _session(variant: str, lab: Any, edits: int, env: dict[str, str], r: int) -> list[float]:
    root = lab.roots[variant]
    server = Server(root, measure.env_of(variant, env))
    times: list[float] = []
    try:
        time.sleep(THINK_S)
        for k in range(edits):
            chapter = (r * edits + k) * 7 % lab.chapters + 1
            folder = root / "docs" / course.chapter_dir(chapter)
            if variant == "plain":
                page = folder / "index.md"
                text = page.read_text(encoding="utf-8") + f"\n\nEdit {r}.{k}: 一个新句子。\n"

                def write(page: Path = page, text: str = text) -> None:
                    page.write_text(text, encoding="utf-8")
            else:
                path = folder / course.CSV_NAME
                data = path.read_bytes()
                lab.edits[variant] = count = lab.edits.get(variant, 0) + 1
                value = course.score_of(data, course.EDIT_ROW) + 0.013 * count
                new = course.set_score(data, course.EDIT_ROW, f"{value:.3f}")

                def write(path: Path = path, new: bytes = new) -> None:
                    path.write_bytes(new)

            times.append(server.edit_to_visible(chapter, write))
            time.sleep(0.5)
    finally:
        server.stop()
    return times


def bench(chapters: int, runs: int, edits: int, env: dict[str, str]) -> dict[str, Any]:
    from bench_build import OUT, Course, warm_up

    BASELINE = measure.BASELINE  # noqa: N806

    roots = course.generate(chapters, OUT / f"serve-{chapters}")
    variants = ["plain", "plugin"]
    if BASELINE:
        roots["plugin_b"] = roots["plugin"].with_name("plugin_b")
        shutil.copytree(roots["plugin"], roots["plugin_b"])
        variants.append("plugin_b")
    lab = Course(chapters, roots)
    warm_up(lab, env)
    firsts: dict[str, list[tuple[float, float]]] = {v: [] for v in variants[1:]}
    laters: dict[str, list[tuple[float, float]]] = {v: [] for v in variants[1:]}
    for r in range(runs):
        order = variants[r % len(variants) :] + variants[: r % len(variants)]
        got = {variant: _session(variant, lab, edits, env, r) for variant in order}
        for variant in variants[1:]:
            pairs = list(zip(got[variant], got["plain"], strict=True))
            firsts[variant].append(pairs[0])
            laters[variant].extend(pairs[1:])
            shown = ", ".join(f"{a:.3f}/{b:.3f}" for a, b in pairs)
            print(
                f"serve {chapters} chapters, round {r + 1}/{runs} ({variant}/plain s): {shown}",
                flush=True,
            )
    first, later = firsts["plugin"], laters["plugin"]

    def stats(pairs: list[tuple[float, float]]) -> dict[str, Any]:
        extra = [a - b for a, b in pairs]
        return {
            "plugin_s": statistics.median(a for a, _ in pairs),
            "plain_s": statistics.median(b for _, b in pairs),
            "extra_s": {"median": statistics.median(extra), "min": min(extra), "max": max(extra)},
        }

    summary = {
        "chapters": chapters,
        "rounds": runs,
        "first": stats(first),
        "later": stats(later) if later else None,
        "problems": lab.problems,
    }
    if BASELINE:
        summary["first_b"] = stats(firsts["plugin_b"])
        summary["later_b"] = stats(laters["plugin_b"]) if laters["plugin_b"] else None
    for name in [k for k in ("first", "later", "first_b", "later_b") if k in summary]:
        s = summary[name]
        if s is None:
            continue
        e = s["extra_s"]
        verdict = "ok" if e["median"] <= TARGET_EXTRA_S else "MISSED"
        print(
            f"  {name} edit: plugin {s['plugin_s']:.3f} s, plain {s['plain_s']:.3f} s, extra "
            f"{e['median']:+.3f} ({e['min']:+.3f}…{e['max']:+.3f}) s, target <= "
            f"+{TARGET_EXTRA_S} {verdict}"
        )
    return summary


def print_table(summaries: list[dict[str, Any]]) -> None:
    print(
        "\n| chapters | first edit: plugin / plain s (extra) | later edits: plugin / plain s "
        "(extra) |"
    )
    print("|---|---|---|")
    for s in summaries:
        cells = []
        for name in ("first", "later"):
            x = s[name]
            if x is None:
                cells.append("–")
                continue
            e = x["extra_s"]
            cells.append(
                f"{x['plugin_s']:.3f} / {x['plain_s']:.3f} "
                f"({e['median']:+.3f}, {e['min']:+.3f}…{e['max']:+.3f})"
            )
        print(f"| {s['chapters']} | {cells[0]} | {cells[1]} |")
