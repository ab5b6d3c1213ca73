"""The content-addressed cache: memory and disk, atomic writes, damaged entries never trusted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mkdocs_selfattn.build import cache as cache_module
from mkdocs_selfattn.build.cache import Cache, content_key

VALUE = {"weights": [0.048, 0.079, 0.43], "top": "절연캡", "label": "绝缘帽"}


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def test_content_key_is_stable_and_sensitive() -> None:
    parts: tuple[Any, ...] = ("result", "0.1.0", b"csv bytes", "memo", ["그것"], {"a": "b"}, 1.0)
    assert content_key(*parts) == content_key(*parts)
    assert len(content_key(*parts)) == 64
    changed = [
        ("result", "0.1.1", b"csv bytes", "memo", ["그것"], {"a": "b"}, 1.0),
        ("result", "0.1.0", b"csv bytez", "memo", ["그것"], {"a": "b"}, 1.0),
        ("result", "0.1.0", b"csv bytes", "memo2", ["그것"], {"a": "b"}, 1.0),
        ("result", "0.1.0", b"csv bytes", "memo", ["씌우지"], {"a": "b"}, 1.0),
        ("result", "0.1.0", b"csv bytes", "memo", ["그것"], {"a": "c"}, 1.0),
        ("result", "0.1.0", b"csv bytes", "memo", ["그것"], {"a": "b"}, 0.5),
        ("chart", "0.1.0", b"csv bytes", "memo", ["그것"], {"a": "b"}, 1.0),
    ]
    keys = {content_key(*c) for c in changed}
    assert len(keys) == len(changed)
    assert content_key(*parts) not in keys


def test_content_key_does_not_confuse_bytes_and_text_or_part_boundaries() -> None:
    assert content_key(b"abc") != content_key("abc")
    assert content_key("ab", "c") != content_key("a", "bc")
    assert content_key(["a", "b"]) != content_key("a", "b")


def test_memory_only_cache() -> None:
    cache = Cache(None)
    assert cache.get("result", "k1") is None
    assert (cache.hits, cache.misses) == (0, 1)
    cache.put("result", "k1", VALUE)
    assert cache.get("result", "k1") == VALUE
    assert (cache.hits, cache.misses) == (1, 1)
    assert cache.get("chart", "k1") is None  # kinds are separate


def test_disk_roundtrip_across_instances(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    first = Cache(folder)
    first.put("result", "ab" + "0" * 62, VALUE)
    second = Cache(folder)
    assert second.get("result", "ab" + "0" * 62) == VALUE
    assert (second.hits, second.misses) == (1, 0)
    # Now also in memory: a second get does not need the file.
    for path in _files(folder):
        path.unlink()
    assert second.get("result", "ab" + "0" * 62) == VALUE


def test_shared_memory_dict_survives_a_new_cache_object(tmp_path: Path) -> None:
    memory: dict[str, Any] = {}
    first = Cache(None)
    first.memory = memory
    first.put("result", "k", VALUE)
    second = Cache(None)
    second.memory = memory
    assert second.get("result", "k") == VALUE


def test_entry_format_on_disk(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    key = "cd" + "1" * 62
    Cache(folder).put("chart", key, {"svg": "<svg/>", "missing": []})
    [path] = _files(folder)
    assert path == folder / "chart" / "cd" / f"{key}.json"
    entry = json.loads(path.read_bytes())
    assert entry["name"] == f"chart-{key}"
    assert entry["payload"] == {"svg": "<svg/>", "missing": []}
    assert len(entry["sha256"]) == 64
    # Non-ASCII text is stored as UTF-8, not escaped.
    Cache(folder).put("result", key, VALUE)
    assert "绝缘帽".encode() in (folder / "result" / "cd" / f"{key}.json").read_bytes()


def test_writes_leave_no_temporary_files(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    cache = Cache(folder)
    for n in range(20):
        cache.put("result", f"{n:02d}" + "a" * 62, {"n": n})
    names = [p.name for p in _files(folder)]
    assert len(names) == 20
    assert all(name.endswith(".json") and not name.startswith(".tmp") for name in names)


def _corruptions() -> list[tuple[str, Any]]:
    def truncate(path: Path) -> None:
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])

    def empty(path: Path) -> None:
        path.write_bytes(b"")

    def garbage(path: Path) -> None:
        path.write_bytes(b"\x00\xff\xfe not json at all")

    def tampered_payload(path: Path) -> None:
        entry = json.loads(path.read_bytes())
        entry["payload"]["top"] = "위험"  # checksum no longer matches
        path.write_text(json.dumps(entry, ensure_ascii=False), encoding="utf-8")

    def wrong_format(path: Path) -> None:
        entry = json.loads(path.read_bytes())
        entry["format"] = 999
        path.write_text(json.dumps(entry), encoding="utf-8")

    def not_a_mapping(path: Path) -> None:
        path.write_text("[1, 2, 3]", encoding="utf-8")

    def no_payload(path: Path) -> None:
        entry = json.loads(path.read_bytes())
        del entry["payload"]
        path.write_text(json.dumps(entry), encoding="utf-8")

    def directory(path: Path) -> None:
        path.unlink()
        path.mkdir()

    return [
        ("truncate", truncate),
        ("empty", empty),
        ("garbage", garbage),
        ("tampered_payload", tampered_payload),
        ("wrong_format", wrong_format),
        ("not_a_mapping", not_a_mapping),
        ("no_payload", no_payload),
        ("directory", directory),
    ]


@pytest.mark.parametrize(("name", "damage"), _corruptions(), ids=[n for n, _ in _corruptions()])
def test_damaged_entry_is_a_miss_and_is_rewritten(tmp_path: Path, name: str, damage: Any) -> None:
    folder = tmp_path / "cache"
    key = "ef" + "2" * 62
    Cache(folder).put("result", key, VALUE)
    [path] = _files(folder)
    damage(path)

    cache = Cache(folder)
    assert cache.get("result", key) is None, f"a {name} entry was trusted"
    assert cache.misses == 1
    if name == "directory":
        return
    cache.put("result", key, VALUE)  # the caller recomputed it
    assert Cache(folder).get("result", key) == VALUE


def test_entry_copied_under_another_key_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    key_a, key_b = "aa" + "3" * 62, "aa" + "4" * 62
    Cache(folder).put("result", key_a, VALUE)
    source = folder / "result" / "aa" / f"{key_a}.json"
    (folder / "result" / "aa" / f"{key_b}.json").write_bytes(source.read_bytes())
    assert Cache(folder).get("result", key_b) is None


def test_failed_write_is_atomic_and_reported_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "cache"
    key = "bb" + "5" * 62
    Cache(folder).put("result", key, {"old": True})
    target = folder / "result" / "bb" / f"{key}.json"
    before = target.read_bytes()

    problems: list[str] = []
    cache = Cache(folder, problem=problems.append)

    def refuse(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache_module.os, "replace", refuse)
    cache.put("result", key, {"new": True})
    cache.put("result", "cc" + "6" * 62, {"other": True})
    monkeypatch.undo()

    assert target.read_bytes() == before  # the old entry is intact, never half-written
    assert [p.name for p in _files(folder)] == [target.name]  # no temporary file left behind
    assert len(problems) == 1
    assert "not writable" in problems[0]
    # The build goes on with the memory cache.
    assert cache.get("result", key) == {"new": True}


def test_unusable_folder_falls_back_to_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be", encoding="utf-8")
    problems: list[str] = []
    cache = Cache(blocker / "selfattn", problem=problems.append)
    cache.put("result", "dd" + "7" * 62, VALUE)
    cache.put("result", "dd" + "8" * 62, VALUE)
    assert len(problems) == 1
    assert cache.get("result", "dd" + "7" * 62) == VALUE
    assert blocker.read_text(encoding="utf-8").startswith("a file")


def test_blocked_kind_folder_falls_back_to_memory(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / "result").write_text("x", encoding="utf-8")
    problems: list[str] = []
    cache = Cache(folder, problem=problems.append)
    cache.put("result", "ee" + "9" * 62, VALUE)
    assert len(problems) == 1
    assert cache.get("result", "ee" + "9" * 62) == VALUE


def _odd_entries(tmp_path: Path) -> list[tuple[str, Any]]:
    """Odd files that are safe to meet in the test process even if the cache regressed. A FIFO
    (a hang), a sparse 64 GiB file and /dev/zero (memory) are met by real builds, bounded in time
    and memory, in tests/hostile/test_cache.py."""
    import os
    import socket
    import tempfile

    def unix_socket(path: Path) -> None:
        # Bound where the path is short enough for AF_UNIX, then moved into place.
        with tempfile.TemporaryDirectory(dir="/tmp") as short:
            with socket.socket(socket.AF_UNIX) as sock:
                sock.bind(f"{short}/s")
            os.replace(f"{short}/s", path)

    def symlink_loop(path: Path) -> None:
        path.unlink()
        path.symlink_to(path.name)

    def dangling_symlink(path: Path) -> None:
        path.unlink()
        path.symlink_to(tmp_path / "nowhere.json")

    def symlink_to_a_good_entry(path: Path) -> None:  # a miss too: only real files are read
        (tmp_path / "copy.json").write_bytes(path.read_bytes())
        path.unlink()
        path.symlink_to(tmp_path / "copy.json")

    return [
        (f.__name__, f)
        for f in (unix_socket, symlink_loop, dangling_symlink, symlink_to_a_good_entry)
    ]


@pytest.mark.parametrize("name", [n for n, _ in _odd_entries(Path())])
def test_an_odd_file_in_an_entrys_place_is_a_miss_and_is_replaced(
    tmp_path: Path, name: str
) -> None:
    folder = tmp_path / "cache"
    key = "fa" + "1" * 62
    Cache(folder).put("result", key, VALUE)
    [path] = _files(folder)
    dict(_odd_entries(tmp_path))[name](path)

    problems: list[str] = []
    cache = Cache(folder, problem=problems.append)
    assert cache.get("result", key) is None
    assert cache.peek("result", key) is None
    cache.put("result", key, VALUE)
    assert path.is_file()
    assert not path.is_symlink()
    assert Cache(folder).get("result", key) == VALUE
    assert problems == []


def test_a_folder_in_an_entrys_place_leaves_only_that_entry_uncached(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    key, other = "fb" + "1" * 62, "fb" + "2" * 62
    path = folder / "result" / "fb" / f"{key}.json"
    (path / "inside").mkdir(parents=True)
    problems: list[str] = []
    cache = Cache(folder, problem=problems.append)
    assert cache.get("result", key) is None
    cache.put("result", key, VALUE)
    cache.put("result", other, VALUE)
    assert problems == []
    assert Cache(folder).get("result", key) is None
    assert Cache(folder).get("result", other) == VALUE
    assert [p.name for p in _files(folder)] == [f"{other}.json"]  # no temporary file left
