"""No stale numbers: `mkdocs build --dirty`, and `mkdocs serve` (with and without --dirty) after the
author fixes or edits a CSV or script, including files of blocks that failed when serve started.

All of it through real `mkdocs` processes; the served page is polled over HTTP until it shows the
expected number, with a bounded deadline.
"""

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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sites import COURSE_CSV, COURSE_CSV_REL, COURSE_SCRIPT, Site, new_site, seed_block

from mkdocs_selfattn.plugin.watch import named_files, watch_target

pytestmark = pytest.mark.slow

ROW = "memo_cap_missing,그것,절연캡,missing_object,0.1,0.95,0.2,"
"""The row of 절연캡 for the target 그것; its score is 2.4 in the course file."""
INLINE = "\nW=⟨`{selfattn} memo weight 그것 절연캡`⟩.\n"
NUMBER = re.compile(r"W=⟨([^⟩<]*)⟩")


def _with_score(score: str) -> str:
    text = COURSE_CSV.read_text(encoding="utf-8")
    assert ROW + "2.4\n" in text
    return text.replace(ROW + "2.4\n", ROW + score + "\n")


def _shown(html: str) -> str | None:
    found = NUMBER.search(html)
    return found.group(1) if found else None


# ---------------------------------------------------------------------------------------------
# mkdocs build --dirty


def test_dirty_build_rebuilds_pages_whose_inputs_changed(tmp_path: Path) -> None:
    page = "# Dirty\n\n" + seed_block(show="[table]") + INLINE
    site = new_site(tmp_path / "project", {"index.md": page, "plain.md": "# Plain\n"})
    # A second page on the same example, whose CSV outside docs_dir does not change.
    (site.root / "data").mkdir()
    shutil.copyfile(COURSE_CSV, site.root / "data" / "memo.csv")
    site.page("steady.md", "# Steady\n\n" + seed_block(csv="../data/memo.csv") + INLINE)
    assert site.run("--dirty", strict=False).returncode == 0
    before = _shown(site.html())
    assert before == "0.43"

    csv_path = site.root / COURSE_CSV_REL
    for score, expected in (("0.4", "0.093"), ("1.4", "0.217"), ("2.4", "0.43")):
        unchanged = {p: site.html_path(p).stat().st_mtime_ns for p in ("plain.md", "steady.md")}
        csv_path.write_text(_with_score(score), encoding="utf-8")
        done = site.run("--dirty", strict=False)
        assert done.returncode == 0, done.stderr
        assert _shown(site.html()) == expected, f"stale page after score {score}"
        # Only the page whose input changed was written again.
        for name, mtime in unchanged.items():
            assert site.html_path(name).stat().st_mtime_ns == mtime, name
        assert _shown(site.html("steady.md")) == "0.43"


def test_dirty_build_rebuilds_a_page_whose_script_changed(tmp_path: Path) -> None:
    page = "# Script\n\n" + seed_block(extra="script: ../scripts/memo.py") + INLINE
    site = new_site(tmp_path / "project", {"index.md": page})
    script = site.write("scripts/memo.py", COURSE_SCRIPT.read_text(encoding="utf-8"))
    # Not --strict: MkDocs itself warns about every --dirty build.
    assert site.run("--dirty", strict=False).returncode == 0
    assert "selfattn-error" not in site.html()
    script.write_text('print("not the printout")\n', encoding="utf-8")
    done = site.run("--dirty", strict=False)
    assert "scripts/memo.py" in done.stderr
    assert "selfattn-error" in site.html()


# ---------------------------------------------------------------------------------------------
# mkdocs serve


def test_named_files_include_those_of_failed_blocks(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", course_csv=False)
    page = site.page("index.md", "")
    text = (
        seed_block(csv="../data/missing.csv", extra="script: ../scripts/never_reached.py")
        + seed_block(example_id="out", csv="../../outside.csv")
        + "```selfattn\ncsv: [not, a, path]\n```\n"
    )
    resolver = _resolver(site, page)
    assert named_files(text, resolver) == {
        site.root / "data" / "missing.csv",
        site.root / "scripts" / "never_reached.py",
    }


def test_a_missing_file_is_watched_through_its_nearest_folder(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    assert watch_target(tmp_path / "data" / "new" / "memo.csv") == tmp_path / "data"
    (tmp_path / "data" / "memo.csv").write_text("x")
    assert watch_target(tmp_path / "data" / "memo.csv") == tmp_path / "data" / "memo.csv"


def _resolver(site: Site, page: Path) -> Any:
    from mkdocs_selfattn.blocks.paths import resolve_path
    from mkdocs_selfattn.build.example import ResolvedFile

    class PageResolver:
        project_root = site.root

        def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
            path, display = resolve_path(
                raw,
                key=key,
                line=line,
                relative_to=page.parent,
                absolute_to=site.docs,
                root=site.root,
            )
            return ResolvedFile(path=path, display=display, link=None)

    return PageResolver()


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


def _wait_for(url: str, ready: Callable[[str], bool], what: str, deadline: float = 90) -> str:
    end = time.monotonic() + deadline
    last: str | None = None
    while time.monotonic() < end:
        last = _fetch(url)
        if last is not None and ready(last):
            return last
        time.sleep(0.2)  # polling a server: there is no event to wait on
    raise AssertionError(f"{what}: not served within {deadline:.0f} s; last page: {last!r:.300}")


def _serve(site: Site, *args: str) -> Iterator[str]:
    """Yields the served site's URL; ``serve.log`` in the project folder gets its messages."""
    log = (site.root / "serve.log").open("wb")
    port = _free_port()
    address = f"127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "serve",
            "-f",
            str(site.config_file),
            "-a",
            address,
            *args,
        ],
        cwd=site.root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.mark.parametrize(
    ("mode", "broken_csv"),
    [((), None), ((), "two point four"), (("--dirty",), "two point four")],
    ids=["serve-missing-csv", "serve-broken-csv", "serve-dirty-broken-csv"],
)
def test_serve_watches_the_files_of_failed_blocks(
    tmp_path: Path, mode: tuple[str, ...], broken_csv: str | None
) -> None:
    page = (
        "# Served\n\n"
        + seed_block(csv="../data/memo.csv", show="[table]")
        + INLINE
        + "\n"
        + seed_block(example_id="checked", extra="script: ../scripts/memo.py")
    )
    site = new_site(tmp_path / "project", {"index.md": page}, plugin_options={"chart_workers": 0})
    # Outside docs_dir, so MkDocs does not watch them itself: a CSV that is missing (its folder
    # exists) or has a broken row, and a script whose output is not the printout.
    csv_path = site.root / "data" / "memo.csv"
    csv_path.parent.mkdir()
    if broken_csv is not None:
        csv_path.write_text(_with_score(broken_csv), encoding="utf-8")
    script = site.write("scripts/memo.py", 'print("not the printout")\n')

    server = _serve(site, *mode)
    url = next(server)
    try:
        first = _wait_for(url, lambda html: "selfattn-error" in html, "the broken page")
        # A missing file is the block's mistake, at its `csv:` line; a bad row is the file's.
        line = 5 if broken_csv is None else 3
        assert f"docs/index.md:{line}: selfattn: data/memo.csv" in (
            site.root / "serve.log"
        ).read_text(encoding="utf-8")
        assert _shown(first) is None  # the inline value shows an error marker instead

        csv_path.write_text(_with_score("2.4"), encoding="utf-8")
        _wait_for(url, lambda html: _shown(html) == "0.43", "the number after fixing the CSV")

        script.write_text(COURSE_SCRIPT.read_text(encoding="utf-8"), encoding="utf-8")
        _wait_for(
            url, lambda html: "selfattn-error" not in html, "the page after fixing the script"
        )

        # Now that the page built, it is memoised: an edit must still reach it.
        csv_path.write_text(_with_score("0.4"), encoding="utf-8")
        _wait_for(url, lambda html: _shown(html) == "0.093", "the number after editing the CSV")
    finally:
        server.close()


SUMMARY = re.compile(
    r"selfattn: computed (\d+) results, drew (\d+) charts, ran (\d+) scripts; "
    r"(\d+) pages without a memo"
)


def _wait_for_log(
    path: Path, ready: Callable[[str], bool], what: str, deadline: float = 120
) -> str:
    end = time.monotonic() + deadline
    text = ""
    while time.monotonic() < end:
        text = path.read_text(encoding="utf-8", errors="replace")
        if ready(text):
            return text
        time.sleep(0.2)  # polling a log file: there is no event to wait on
    raise AssertionError(f"{what}: not logged within {deadline:.0f} s; log ends:\n{text[-3000:]}")


def test_the_verbose_summary_counts_every_language_of_a_rebuild(tmp_path: Path) -> None:
    """Under `mkdocs serve -v`, one summary a build, of all its work: with mkdocs-static-i18n
    the summary of the last language's pass said "computed 0 results" (the first pass had
    computed them), and a page whose memo's inputs had changed was not counted as rebuilt."""
    from i18n_book import LANGUAGES, write_book

    config = write_book(tmp_path / "book", "suffix")
    site = Site(config.parent)
    server = _serve(site, "-v")
    next(server)
    log = site.root / "serve.log"
    try:
        first = _wait_for_log(log, lambda text: "Serving on" in text, "the first build")
        # Two blocks (two documents) on the chapter of each language, each with a chart and
        # a script that prints that language's labels.
        per_language = len(LANGUAGES)
        assert [m.groups() for m in SUMMARY.finditer(first)] == [
            ("2", str(2 * per_language), str(2 * per_language), str(per_language))
        ]
        csv_path = site.root / COURSE_CSV_REL
        text = csv_path.read_text(encoding="utf-8")
        assert ROW + "2.4\n" in text
        csv_path.write_text(text.replace(ROW + "2.4\n", ROW + "2.5\n"), encoding="utf-8")
        done = _wait_for_log(
            log,
            lambda text: "Reloading browsers" in text.partition("Detected file changes")[2],
            "the rebuild after the CSV edit",
        )
        rebuild = done.partition("Detected file changes")[2]
        # One document's numbers changed: its result, and in each language its chart, its
        # script's printout and its page.
        assert [m.groups() for m in SUMMARY.finditer(rebuild)] == [
            ("1", str(per_language), str(per_language), str(per_language))
        ]
    finally:
        server.close()
