"""Real builds of the questions and heads layouts: the drafts' defining blocks load through the
pipeline (``mkdocs build`` in a subprocess), and the ``csv`` and ``output`` views show them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from reading_fixtures import HEADS_CSV, MANUAL_CSV
from sites import Site, new_site, visible_text

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
DRAFTS = REPO / "tests" / "drafts"
ASSETS = "docs/assets/part-05/chapter-13"


def draft_block(name: str, example_id: str) -> str:
    """The draft's defining block of ``example_id``, as the chapter will carry it."""
    text = (DRAFTS / name).read_text(encoding="utf-8")
    for body in re.findall(r"```selfattn\n(.*?)```", text, re.S):
        if f"id: {example_id}\n" in body:
            return "```selfattn\n" + body + "```\n"
    raise AssertionError(f"no block {example_id} in {name}")


def _without_script(block: str) -> str:
    return "\n".join(line for line in block.split("\n") if not line.startswith("script:"))


@pytest.fixture(scope="module")
def reading_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    site = new_site(tmp_path_factory.mktemp("reading"), course_csv=False)
    for source in (MANUAL_CSV, HEADS_CSV):
        target = site.root / ASSETS / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    manual = _without_script(draft_block("p5-13-1-attention.md", "manual"))
    heads = _without_script(draft_block("p5-13-3-qkv-multihead.md", "heads"))
    site.page(
        "index.md",
        "# Questions\n\n" + manual + "\n```selfattn\nuse: manual\nshow: [output]\n```\n\n"
        "# Heads\n\n" + heads + "\n```selfattn\nuse: heads\nshow: [output]\n```\n",
    )
    done = site.run()
    assert done.returncode == 0, done.stderr
    return site


def test_questions_and_heads_blocks_build(reading_site: Site) -> None:
    text = visible_text(reading_site.article())
    assert "question = What is the pressure-release holding time?" in text
    assert "context = 4.685" in text
    assert "L10 pressure weight = 0.092 signal = 2.9" in text
    assert "head_separation = 0.335" in text
    assert "[condition_heavy_both_heads]" in text


def test_csv_view_of_a_whole_file_lists_every_line(reading_site: Site) -> None:
    tables = reading_site.article().find_all("table")
    rows = [len(t.find_all("tr")) for t in tables]
    # the manual: header + 40 lines; the heads: header + the focus report's 9 rows
    assert rows[:2] == [41, 10], rows


def test_a_warm_build_reads_the_cached_readings_and_gives_the_same_pages(
    reading_site: Site,
) -> None:
    before = reading_site.page_bytes()
    entries = sorted(p.name for p in reading_site.cache_dir.rglob("*") if p.is_file())
    assert entries
    done = reading_site.run()
    assert done.returncode == 0, done.stderr
    assert reading_site.page_bytes() == before
    assert sorted(p.name for p in reading_site.cache_dir.rglob("*") if p.is_file()) == entries


def test_query_must_name_a_question_of_the_example(tmp_path: Path) -> None:
    site = new_site(tmp_path, course_csv=False)
    target = site.root / ASSETS / MANUAL_CSV.name
    target.parent.mkdir(parents=True)
    shutil.copyfile(MANUAL_CSV, target)
    manual = _without_script(draft_block("p5-13-1-attention.md", "manual"))
    page = (
        "# Q\n\n" + manual + "\n```selfattn\nuse: manual\nshow: [output]\nquery: score_flow\n```\n"
    )
    site.page("index.md", page)
    done = site.run()
    assert done.returncode == 1
    line = page.split("\n").index("use: manual") + 1 - 1  # the fence's line
    assert f"docs/index.md:{line}:" in done.stderr, done.stderr
    assert "'score_flow' is not a question of example 'manual' (did you mean" in done.stderr


def test_a_worker_computes_the_readings_ahead_and_the_pages_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mkdocs_selfattn.build.scheduler as scheduler_module

    def site_with(workers: int, name: str) -> Site:
        site = new_site(
            tmp_path / name, course_csv=False, plugin_options={"chart_workers": workers}
        )
        for source in (MANUAL_CSV, HEADS_CSV):
            (site.root / ASSETS).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, site.root / ASSETS / source.name)
        manual = _without_script(draft_block("p5-13-1-attention.md", "manual"))
        heads = _without_script(draft_block("p5-13-3-qkv-multihead.md", "heads"))
        use = "```selfattn\nuse: {}\nshow: [output]\n```\n"
        site.page(
            "index.md", "# A\n\n" + manual + use.format("manual") + heads + use.format("heads")
        )
        return site

    inline = site_with(0, "inline")
    inline.build(strict=True)
    taken: list[object] = []
    original = scheduler_module.Scheduler.take_result

    def spy(self: scheduler_module.Scheduler, key: str) -> object:
        payload = original(self, key)
        taken.append(None if payload is None else payload.get("layout"))
        return payload

    monkeypatch.setattr(scheduler_module.Scheduler, "take_result", spy)
    pooled = site_with(1, "pooled")
    pooled.build(strict=True)
    assert sorted(str(t) for t in taken) == ["heads", "questions"]  # both came from the worker
    assert pooled.page_bytes() == inline.page_bytes()
