"""Work done ahead in worker processes: errors cross the process boundary, a failing example
does not break the pool, warm builds start no worker, and whoever draws, pages are the same."""

from __future__ import annotations

import pickle
import shutil
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from sites import COURSE_CSV_REL, Site, new_site, seed_block

import mkdocs_selfattn.build.scheduler as scheduler_module
from mkdocs_selfattn.blocks.spec import ExampleSpec
from mkdocs_selfattn.build.jobs import ComputeRequest, compute_payload
from mkdocs_selfattn.build.workers import WorkerPool
from mkdocs_selfattn.errors import BlockError, DataError, ScriptError, SelfAttnError


@pytest.mark.parametrize(
    "error",
    [
        DataError("docs/memo.csv", "bad number", line=7, column="score"),
        DataError("docs/memo.csv", "no such document"),
        BlockError("unknown key 'shw'", line=12),
        ScriptError("the script timed out"),
        SelfAttnError("plain"),
    ],
)
def test_errors_survive_pickling_with_every_field(error: SelfAttnError) -> None:
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert str(again) == str(error)
    assert again.__dict__ == error.__dict__


def _request(document: str) -> ComputeRequest:
    data = (Path(__file__).resolve().parents[2] / COURSE_CSV_REL).read_bytes()
    spec = ExampleSpec(id=None, csv="docs/memo.csv", document=document, line=1)
    return ComputeRequest(key="k-" + document, spec=spec, data=data, source="docs/memo.csv")


def test_a_failing_job_comes_back_as_its_error_and_the_pool_keeps_working() -> None:
    pool = WorkerPool(1)
    try:
        failed = pool.submit(compute_payload, _request("memo_does_not_exist"))
        with pytest.raises(DataError) as caught:
            failed.result(timeout=120)
        assert caught.value.path == "docs/memo.csv"
        assert "memo_does_not_exist" in str(caught.value)
        good = pool.submit(compute_payload, _request("memo_cap_missing")).result(timeout=120)
        assert good["document"] == "memo_cap_missing"
    finally:
        pool.shutdown()


# ---------------------------------------------------------------------------------------------
# Real builds

BROKEN_AND_GOOD = (
    "# Mixed\n\n"
    + seed_block(show="[table, chart]")
    + "\n```selfattn\nid: broken\ncsv: assets/part-05/chapter-13/"
    "self-attention-safety-memo-candidates.csv\ndocument: memo_does_not_exist\n"
    "show: [table, chart]\n```\n"
)


def test_a_broken_block_does_not_break_the_other_charts(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "project", {"index.md": BROKEN_AND_GOOD}, plugin_options={"chart_workers": 1}
    )
    messages = site.build().selfattn()
    assert len(messages) == 1, messages
    assert "memo_does_not_exist" in messages[0]
    article = site.article()
    assert len(article.find_all("svg", cls="selfattn-chart-wide")) == 1
    assert len(article.find_all(cls="selfattn-error")) == 1


def test_a_warm_build_starts_no_worker(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "project",
        {"index.md": "# W\n\n" + seed_block(show="[output, chart]")},
        plugin_options={"chart_workers": 1},
    )
    site.build(strict=True)
    started: list[Any] = []
    original = WorkerPool.submit

    def spy(self: WorkerPool, *args: Any) -> Any:
        started.append(args[0])
        return original(self, *args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WorkerPool, "submit", spy)
        site.build(strict=True)
    assert started == []


def test_after_a_csv_edit_the_worker_starts_before_the_blocks_are_read(tmp_path: Path) -> None:
    """The worker's imports are the long pole of a one-edit build: its pool is started at the
    first page the look-ahead cannot answer, before that page's blocks are parsed and sent."""
    import mkdocs_selfattn.build.prefetch as prefetch_module

    site = new_site(
        tmp_path / "project",
        {"index.md": "# W\n\n" + seed_block(show="[output, chart]")},
        plugin_options={"chart_workers": 1},
    )
    site.build(strict=True)
    csv = site.root / COURSE_CSV_REL
    csv.write_text(csv.read_text(encoding="utf-8").replace(",0.7\n", ",0.75\n", 1), "utf-8")
    events: list[str] = []
    submit, prefetch_page = WorkerPool.submit, prefetch_module.prefetch_page

    def spy_submit(self: WorkerPool, fn: Any, *args: Any) -> Any:
        events.append(fn.__name__)
        return submit(self, fn, *args)

    def spy_prefetch(*args: Any, **kwargs: Any) -> None:
        events.append("read blocks")
        prefetch_page(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WorkerPool, "submit", spy_submit)
        patch.setattr(prefetch_module, "prefetch_page", spy_prefetch)
        site.build(strict=True)
    assert events[:3] == ["prepare", "read blocks", "compute_payload"], events
    assert events.count("prepare") == 1


def _many_charts_site(root: Path, workers: int, chapters: int = 12) -> Site:
    pages = {}
    for i in range(chapters):
        pages[f"c{i:02d}.md"] = f"# Chapter {i}\n\n" + seed_block(
            csv=f"data{i:02d}.csv", show="[table, chart]"
        )
    site = new_site(root, pages, plugin_options={"chart_workers": workers})
    text = (site.root / COURSE_CSV_REL).read_text(encoding="utf-8")
    row = "memo_cap_missing,그것,분리,prior_action,0.8,0.2,0.4,"
    assert row in text
    assert text.count(row + "0.7\n") == 1
    for i in range(chapters):
        changed = text.replace(row + "0.7\n", row + f"{0.7 + i / 1000:.3f}\n")
        (site.docs / f"data{i:02d}.csv").write_text(changed, encoding="utf-8")
    return site


def test_pages_are_the_same_whoever_draws_the_charts(tmp_path: Path) -> None:
    inline = _many_charts_site(tmp_path / "inline" / "project", workers=0)
    inline.build(strict=True)
    expected = inline.page_bytes()

    pooled = _many_charts_site(tmp_path / "pooled" / "project", workers=1)
    pooled.build(strict=True)
    assert pooled.page_bytes() == expected

    # And a warm build of the same gives the same bytes again.
    shutil.rmtree(pooled.site_dir)
    pooled.build(strict=True)
    assert pooled.page_bytes() == expected


def test_a_chart_two_pages_show_is_drawn_once_in_a_build(tmp_path: Path) -> None:
    block = seed_block(example_id=None, show="[table, chart]")
    site = new_site(
        tmp_path / "project",
        {"a.md": "# A\n\n" + block, "b.md": "# B\n\n" + block, "index.md": "# I\n"},
        plugin_options={"chart_workers": 1},
    )
    sent: list[str] = []
    original = WorkerPool.submit

    def spy(self: WorkerPool, fn: Any, *args: Any) -> Any:
        sent.append(fn.__name__)
        return original(self, fn, *args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WorkerPool, "submit", spy)
        site.build(strict=True)
    assert sent.count("draw_chart") == 1, sent
    assert sent.count("compute_payload") == 1, sent
    assert len(site.article("a.md").find_all("svg", cls="selfattn-chart-wide")) == 1
    assert len(site.article("b.md").find_all("svg", cls="selfattn-chart-wide")) == 1


# ---------------------------------------------------------------------------------------------
# Pending charts


def _finish(svg: str, missing: list[str]) -> str:
    return f"<div>{svg}|{','.join(missing)}</div>"


def _job(future: Future[tuple[str, list[str]]] | None, local: Any) -> scheduler_module.ChartJob:
    job = scheduler_module.ChartJob((lambda: ("<remote/>", []), ()))
    job.future = future
    job.local = local
    return job


def test_a_lost_worker_costs_time_not_the_chart() -> None:
    from concurrent.futures.process import BrokenProcessPool

    lost: Future[tuple[str, list[str]]] = Future()
    lost.set_exception(BrokenProcessPool("worker died"))
    pending = scheduler_module.PendingHtml(_job(lost, lambda: ("<svg/>", ["字"])), _finish)
    assert pending.resolve() == "<div><svg/>|字</div>"


def test_a_chart_that_fails_here_too_reports_its_own_error() -> None:
    def broken() -> tuple[str, list[str]]:
        raise ValueError("no such font")

    failed: Future[tuple[str, list[str]]] = Future()
    failed.set_exception(RuntimeError("ValueError: no such font"))
    pending = scheduler_module.PendingHtml(_job(failed, broken), _finish)
    with pytest.raises(ValueError, match="no such font"):
        pending.resolve()


def test_every_chart_goes_to_the_pool_once_and_none_is_drawn_here_meanwhile() -> None:
    sent: list[Future[tuple[str, list[str]]]] = []

    def submit(fn: Any, *args: Any) -> Future[tuple[str, list[str]]]:
        future: Future[tuple[str, list[str]]] = Future()
        sent.append(future)
        return future

    scheduler = scheduler_module.Scheduler(submit)
    scheduler.chart_ahead("ahead", _slow_chart, 0.0)
    assert sent == []  # charts go after every computation: on start
    assert scheduler.start() == (0, 1)
    assert len(sent) == 1
    drawn_here: list[int] = []

    def local(n: int) -> Any:
        return lambda: drawn_here.append(n) or (f"<here{n}/>", [])

    pages = [
        scheduler.chart(key, (_slow_chart, (0.0,)), local(n), _finish, [])
        for n, key in enumerate(["ahead", "new", "ahead", "new"])
    ]
    assert len(sent) == 2  # one chart per key, however many pages show it
    assert scheduler.unclaimed() == (0, 0)
    sent[0].set_result(("<w0/>", []))
    sent[1].set_result(("<w1/>", []))
    assert [p.resolve() for p in pages] == [
        "<div><w0/>|</div>",
        "<div><w1/>|</div>",
        "<div><w0/>|</div>",
        "<div><w1/>|</div>",
    ]
    assert drawn_here == []
    assert not any(f.cancelled() for f in sent)


def test_a_worker_dying_with_charts_queued_does_not_hang_the_build() -> None:
    """The scenario that hung Python 3.11's pool when queued futures were cancelled: the worker
    dies while it holds charts and more wait in the pool; every page still gets its chart."""
    import os
    import signal

    pool = WorkerPool(1)
    try:
        scheduler = scheduler_module.Scheduler(pool.submit)
        victim = pool.submit(os.getpid).result(timeout=120)
        pages = [
            scheduler.chart(
                f"k{n}", (_slow_chart, (0.2,)), lambda n=n: (f"<here{n}/>", []), _finish, []
            )
            for n in range(10)
        ]
        os.kill(victim, signal.SIGKILL)
        results = [page.resolve() for page in pages]
        assert len(results) == 10
        assert all(r.startswith("<div><") for r in results)
        assert any("<here" in r for r in results)
    finally:
        pool.shutdown()


def _slow_chart(seconds: float) -> tuple[str, list[str]]:
    import time

    time.sleep(seconds)
    return "<remote/>", []


def test_workers_are_forked_only_for_a_one_off_build_without_threads() -> None:
    import sys
    import threading

    from mkdocs_selfattn.build.workers import start_method

    assert start_method(False) == "spawn"
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert start_method(True) == "spawn"  # a fork would copy the running thread mid-flight
    finally:
        release.set()
        thread.join()
    if sys.platform == "linux" and threading.active_count() == 1:
        assert start_method(True) == "fork"


def test_serve_never_forks_its_workers(tmp_path: Path) -> None:
    from mkdocs.config import load_config

    site = new_site(tmp_path / "project", {"index.md": "# S\n"})
    config = load_config(config_file=str(site.config_file))
    plugin = config.plugins["selfattn"]
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        plugin.on_config(config)
        assert plugin._pool is not None
        assert plugin._pool.fork_ok is False
    finally:
        config.plugins.on_shutdown()


def test_without_process_support_the_work_runs_inline(monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures

    def no_semaphores(*args: Any, **kwargs: Any) -> Any:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_semaphores)
    pool = WorkerPool(1)
    assert pool.submit(divmod, 7, 2).result(timeout=5) == (3, 1)
    failed = pool.submit(compute_payload, _request("memo_does_not_exist"))
    with pytest.raises(DataError):
        failed.result(timeout=5)


def test_other_plugins_see_the_tables_not_the_holders(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", {"index.md": "# T\n\n" + seed_block(show="[table]")})
    (site.root / "hook.py").write_text(
        "from pathlib import Path\n\n"
        "def on_post_page(output, page, config):\n"
        "    here = Path(config.config_file_path).parent\n"
        "    (here / 'seen-output.html').write_text(output)\n"
        "    (here / 'seen-content.html').write_text(page.content)\n"
        "    return output\n",
        encoding="utf-8",
    )
    config = site.config_file.read_text(encoding="utf-8")
    site.config_file.write_text(config + "hooks:\n  - hook.py\n", encoding="utf-8")
    log = site.build(strict=True)
    for name in ("seen-output.html", "seen-content.html"):
        seen = (site.root / name).read_text(encoding="utf-8")
        assert "<table>" in seen, name
        assert "data-selfattn=" not in seen, name
    assert log.selfattn() == []


def test_only_the_thread_that_started_the_pool_gives_it_work() -> None:
    """Linux ties a worker's death signal to the thread that started it: a worker started from
    a passing thread would die with that thread. Other threads' jobs run where they are."""
    import os
    import threading

    pool = WorkerPool(1)
    try:
        worker = pool.submit(os.getpid).result(timeout=120)
        assert worker != os.getpid()
        seen: list[int] = []
        thread = threading.Thread(target=lambda: seen.append(pool.submit(os.getpid).result(5)))
        thread.start()
        thread.join()
        assert seen == [os.getpid()]
        assert pool.submit(os.getpid).result(timeout=120) == worker  # it outlived that thread
    finally:
        pool.shutdown()
