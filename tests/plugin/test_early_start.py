"""The stamp that lets a one-off build start its worker before MkDocs reads its config."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from sites import COURSE_CSV_REL, new_site, seed_block

from mkdocs_selfattn.build.workers import WorkerPool
from mkdocs_selfattn.plugin.early_start import STAMP, inputs_changed, record, stamp_folder
from mkdocs_selfattn.plugin.events import SelfAttnPlugin


def _inputs(tmp_path: Path) -> tuple[Path, list[Path]]:
    folder = tmp_path / "cache"
    folder.mkdir()
    files = [tmp_path / "page.md", tmp_path / "data.csv"]
    for file in files:
        file.write_text("x", encoding="utf-8")
    return folder, files


def test_no_stamp_or_a_broken_one_means_changed(tmp_path: Path) -> None:
    folder, _ = _inputs(tmp_path)
    assert inputs_changed(folder)
    for broken in ("", "{", '{"a": 1}', '[["only a path"]]', "[[1, 2, 3]]"):
        (folder / STAMP).write_text(broken, encoding="utf-8")
        assert inputs_changed(folder), broken


def test_a_stamp_holds_until_a_file_changes_or_goes(tmp_path: Path) -> None:
    folder, files = _inputs(tmp_path)
    record(folder, files)
    assert not inputs_changed(folder)
    files[1].write_text("xy", encoding="utf-8")
    assert inputs_changed(folder)
    record(folder, files)
    assert not inputs_changed(folder)
    stat = files[0].stat()
    os.utime(files[0], ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))  # same size, touched
    assert inputs_changed(folder)
    record(folder, files)
    files[0].unlink()
    assert inputs_changed(folder)


def test_recording_the_same_inputs_writes_nothing(tmp_path: Path) -> None:
    folder, files = _inputs(tmp_path)
    record(folder, files)
    before = (folder / STAMP).stat()
    record(folder, list(reversed(files)))
    after = (folder / STAMP).stat()
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)
    assert sorted(os.listdir(folder)) == [STAMP]  # no temporary left behind


def test_no_stamp_without_a_cache_folder(tmp_path: Path) -> None:
    assert stamp_folder("", str(tmp_path / "mkdocs.yml")) is None
    assert stamp_folder(".cache", None) is None
    assert stamp_folder(".cache", str(tmp_path / "mkdocs.yml")) == (tmp_path / ".cache").resolve()
    record(tmp_path / "missing", [])  # a folder that is not there: nothing written, no error
    assert not (tmp_path / "missing").exists()


@pytest.mark.slow
def test_a_csv_edit_starts_the_worker_before_mkdocs_reads_its_config(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "project",
        {"index.md": "# W\n\n" + seed_block(show="[output, chart]")},
        plugin_options={"chart_workers": 1},
    )
    site.build(strict=True)
    events: list[str] = []
    prepare, on_config = WorkerPool.prepare, SelfAttnPlugin.on_config

    def spy_prepare(self: WorkerPool) -> None:
        events.append("prepare")
        prepare(self)

    def spy_config(self: SelfAttnPlugin, config: Any) -> Any:
        events.append("on_config")
        return on_config(self, config)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WorkerPool, "prepare", spy_prepare)
        patch.setattr(SelfAttnPlugin, "on_config", spy_config)
        site.build(strict=True)  # warm: the stamp holds, no worker
        assert events == ["on_config"]
        events.clear()
        csv = site.root / COURSE_CSV_REL
        csv.write_text(csv.read_text(encoding="utf-8").replace(",0.7\n", ",0.75\n", 1), "utf-8")
        log = site.build(strict=True)
    assert events[:2] == ["prepare", "on_config"], events
    assert log.plugin.pipeline.cache.kind_misses["result"] == 1
