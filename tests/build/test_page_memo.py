"""The whole-page memo: warm builds fill unchanged pages from one entry, and never serve a page
whose markdown, input files or options changed, nor hide a page's problems."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from sites import COURSE_CSV, COURSE_CSV_REL, Site, new_site, seed_block

import mkdocs_selfattn.build.page as page_module
from mkdocs_selfattn.build.page_memo import MemoInput, PageMemo, file_digest, memo_key

SECRET_A = "SELFATTNSLOTaaaaaaaaaa"
SECRET_B = "SELFATTNSLOTbbbbbbbbbb"


# ---------------------------------------------------------------------------------------------
# Unit


def test_capture_and_replay_under_a_new_secret(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_bytes(b"a,b\n")
    markdown = f"# T\n\n{SECRET_A}N0X\n\ntext {SECRET_A}N1X and {SECRET_A}N2X\n"
    memo = PageMemo.capture(
        markdown,
        SECRET_A,
        {f"{SECRET_A}N0X": "<table/>", f"{SECRET_A}N1X": "<b>1</b>"},
        {f"{SECRET_A}N2X": "<svg/>"},
        {data: file_digest(b"a,b\n")},
        {data},
    )
    again = PageMemo.from_payload(memo.to_payload())
    assert again == memo
    assert again.markdown(SECRET_B) == markdown.replace(SECRET_A, SECRET_B)
    assert again.slots_for(SECRET_B) == {
        f"{SECRET_B}N0X": "<table/>",
        f"{SECRET_B}N1X": "<b>1</b>",
    }
    assert again.late_for(SECRET_B) == {f"{SECRET_B}N2X": "<svg/>"}
    assert again.inputs == (MemoInput(data, file_digest(b"a,b\n"), True),)


def test_capture_refuses_a_token_without_the_secret() -> None:
    with pytest.raises(ValueError, match="secret"):
        PageMemo.capture("x", SECRET_A, {f"{SECRET_B}N0X": "<p/>"}, {}, {}, set())


@pytest.mark.parametrize(
    "payload",
    [
        None,
        [],
        "text",
        {},
        {"segments": [], "slots": {}, "late": {}, "inputs": []},
        {"segments": ["a", 1], "slots": {}, "late": {}, "inputs": []},
        {"segments": ["a"], "slots": {"N0X": 5}, "late": {}, "inputs": []},
        {"segments": ["a"], "slots": {}, "late": [], "inputs": []},
        {"segments": ["a"], "slots": {}, "late": {}, "inputs": {}},
        {"segments": ["a"], "slots": {}, "late": {}, "inputs": [["p", "h"]]},
        {"segments": ["a"], "slots": {}, "late": {}, "inputs": [["p", "h", "yes"]]},
        {"segments": ["a"], "slots": {}, "late": {}, "inputs": [[1, "h", True]]},
    ],
)
def test_entries_of_another_shape_are_misses(payload: Any) -> None:
    assert PageMemo.from_payload(payload) is None


def test_inputs_are_compared_by_content_not_by_size_or_time(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_bytes(b"x,1\n")
    memo = PageMemo(("md",), {}, {}, (MemoInput(data, file_digest(b"x,1\n"), True),))
    assert memo.inputs_unchanged()
    stat = data.stat()
    data.write_bytes(b"x,2\n")  # same size, and the old times put back
    os.utime(data, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert not memo.inputs_unchanged()
    data.unlink()
    assert not memo.inputs_unchanged()


def test_key_depends_on_markdown_and_every_context_value() -> None:
    base = memo_key("# A", {"url": "a/", "options": {"number_format": None}})
    assert base == memo_key("# A", {"url": "a/", "options": {"number_format": None}})
    assert base != memo_key("# B", {"url": "a/", "options": {"number_format": None}})
    assert base != memo_key("# A", {"url": "b/", "options": {"number_format": None}})
    assert base != memo_key("# A", {"url": "a/", "options": {"number_format": ".2f"}})


# ---------------------------------------------------------------------------------------------
# Real builds

PAGE = (
    "# Memo\n\n"
    + seed_block(show="[output, table, mermaid, chart]")
    + "\nWeight ⟨`{selfattn} memo weight 그것 절연캡`⟩.\n"
)


def _refuse_expanding(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the page was expanded although its memo is valid")

    monkeypatch.setattr(page_module, "expand_page", refuse)


def _memo_entries(site: Site) -> list[Path]:
    return sorted((site.cache_dir / "page").rglob("*.json"))


def test_warm_build_is_served_from_the_memo_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = new_site(tmp_path / "project", {"index.md": PAGE})
    assert site.build(strict=True).selfattn() == []
    cold = site.page_bytes()
    assert len(_memo_entries(site)) == 1
    shutil.rmtree(site.site_dir)

    _refuse_expanding(monkeypatch)
    log = site.build(strict=True)
    assert log.selfattn() == []
    assert site.page_bytes() == cold
    assert log.plugin.pipeline.cache.misses == 0


def test_memo_keeps_publishing_csvs_outside_docs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = new_site(
        tmp_path / "project",
        {"index.md": "# Out\n\n" + seed_block(csv="../data/memo.csv", show="[csv]")},
    )
    (site.root / "data").mkdir()
    shutil.copyfile(COURSE_CSV, site.root / "data" / "memo.csv")
    site.build(strict=True)
    published = sorted(p.relative_to(site.site_dir) for p in site.site_dir.rglob("memo.csv"))
    assert published
    shutil.rmtree(site.site_dir)

    _refuse_expanding(monkeypatch)
    site.build(strict=True)
    again = sorted(p.relative_to(site.site_dir) for p in site.site_dir.rglob("memo.csv"))
    assert again == published


def test_edited_csv_invalidates_the_memo(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", {"index.md": PAGE})
    site.build(strict=True)
    before = site.html()
    csv_path = site.root / COURSE_CSV_REL
    text = csv_path.read_text(encoding="utf-8")
    row = "memo_cap_missing,그것,절연캡,missing_object,0.1,0.95,0.2,"
    csv_path.write_text(text.replace(row + "2.4\n", row + "0.4\n"), encoding="utf-8")
    log = site.build(strict=True)
    assert log.plugin.pipeline.cache.kind_misses["result"] == 1  # the memo was not trusted
    assert site.html() != before


def test_edited_script_invalidates_the_memo(tmp_path: Path) -> None:
    page = "# Script\n\n" + seed_block(
        show="[output]", extra="script: examples/self_attention_memo.py"
    )
    site = new_site(tmp_path / "project", {"index.md": page}, course_script=True)
    site.build(strict=True)
    script = site.docs / "examples" / "self_attention_memo.py"
    script.write_text(script.read_text(encoding="utf-8") + "\nprint('extra line')\n")
    log = site.build()
    assert any("differs from the numbers computed" in m for m in log.selfattn())


def test_changed_option_invalidates_the_memo(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", {"index.md": PAGE})
    site.build(strict=True)
    before = site.html()
    site.configure(number_format=".1%")
    site.build(strict=True)
    assert site.html() != before
    assert "43.0%" in site.html()


def test_a_page_with_problems_reports_them_on_every_build(tmp_path: Path) -> None:
    page = PAGE + "\n```selfattn\nid: broken\ncsv: nowhere.csv\ndocument: d\nshow: [table]\n```\n"
    site = new_site(tmp_path / "project", {"index.md": page})
    first = site.build().selfattn()
    assert any("nowhere.csv" in m for m in first)
    second = site.build().selfattn()
    assert second == first
    assert _memo_entries(site) == []


def test_chart_warnings_are_not_memoised_away(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "project",
        # U+13000 (an Egyptian hieroglyph): no chart font has it.
        {"index.md": "# Glyphs\n\n" + seed_block(show="[chart]").replace("它", "\U00013000它")},
    )
    first = [m for m in site.build().selfattn() if "glyph" in m]
    assert first
    second = [m for m in site.build().selfattn() if "glyph" in m]
    assert second == first
    assert _memo_entries(site) == []


def test_changed_plugin_code_invalidates_every_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edited renderer (same version number) must not be served from the cache."""
    import mkdocs_selfattn.build.cache as cache_module

    site = new_site(tmp_path / "project", {"index.md": PAGE})
    site.build(strict=True)
    monkeypatch.setattr(cache_module, "_FINGERPRINT", ["another-code-version"])
    log = site.build(strict=True)
    misses = log.plugin.pipeline.cache.kind_misses
    assert misses["page"] == 1
    assert misses["result"] == 1
    assert misses["chart"] == 1


def test_fingerprint_follows_the_package_source(tmp_path: Path) -> None:
    from mkdocs_selfattn.build.cache import source_fingerprint

    (tmp_path / "render").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "render" / "b.py").write_text("y = 2\n")
    first = source_fingerprint(tmp_path)
    assert source_fingerprint(tmp_path) == first
    (tmp_path / "render" / "b.py").write_text("y = 3\n")
    edited = source_fingerprint(tmp_path)
    assert edited != first
    (tmp_path / "c.py").write_text("")
    assert source_fingerprint(tmp_path) not in (first, edited)
    (tmp_path / "notes.txt").write_text("not code")
    assert source_fingerprint(tmp_path) == source_fingerprint(tmp_path)


def _v2(text: str) -> str:
    row = "memo_cap_missing,그것,절연캡,missing_object,0.1,0.95,0.2,"
    assert row + "2.4\n" in text
    return text.replace(row + "2.4\n", row + "0.4\n")


OUT_PAGE = "# Out\n\n" + seed_block(csv="data.csv", show="[output, table]")


def test_a_symlink_pointed_elsewhere_invalidates_the_memo(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", {"index.md": OUT_PAGE})
    v1 = (site.root / COURSE_CSV_REL).read_text(encoding="utf-8")
    (site.docs / "v1.csv").write_text(v1, encoding="utf-8")
    (site.docs / "v2.csv").write_text(_v2(v1), encoding="utf-8")
    (site.docs / "data.csv").symlink_to("v1.csv")
    site.build(strict=True)
    first = site.html()
    (site.docs / "data.csv").unlink()
    (site.docs / "data.csv").symlink_to("v2.csv")
    site.build(strict=True)
    assert site.html() != first
    shutil.rmtree(site.cache_dir)
    repointed = site.html()
    site.build(strict=True)
    assert site.html() == repointed  # a cold build of the re-pointed link gives the same


def test_a_csv_rewritten_by_a_hook_during_the_build_is_not_served_stale(tmp_path: Path) -> None:
    site = new_site(tmp_path / "project", {"index.md": OUT_PAGE}, plugin_options={})
    v1 = (site.root / COURSE_CSV_REL).read_text(encoding="utf-8")
    (site.docs / "data.csv").write_text(v1, encoding="utf-8")
    site.build(strict=True)
    first = site.html()
    (site.root / "v2.csv").write_text(_v2(v1), encoding="utf-8")
    (site.root / "hook.py").write_text(
        "import shutil\n\n"
        "def on_pre_build(config):\n"
        "    shutil.copyfile('v2.csv', 'docs/data.csv')\n",
        encoding="utf-8",
    )
    config = site.config_file.read_text(encoding="utf-8")
    site.config_file.write_text(config + "hooks:\n  - hook.py\n", encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(site.root)
    try:
        site.build(strict=True)
        after_hook = site.html()
        shutil.rmtree(site.cache_dir)
        site.build(strict=True)
        cold = site.html()
    finally:
        os.chdir(cwd)
    assert after_hook != first
    assert after_hook == cold
