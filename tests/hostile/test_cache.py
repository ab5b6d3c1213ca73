"""The disk cache (``cache_dir``) under abuse: damaged entries, strangers' files, two builds at
once, and a folder that cannot be written.

A damaged or foreign entry must be a miss, recomputed and rewritten, never trusted and never a
crash; the pages must be byte-identical to a clean build's. No ``.tmp-*`` file may survive a build.

A read-only cache cannot be made with permission bits here: the tests run as root, which ignores
them. The cache folder is made unusable instead by giving it a path whose parent is a regular FILE
(``mkdir`` then fails with ENOTDIR for any user), by making the path itself a regular file, and by
``chattr +i`` (immutable: refused even to root) on a warm cache folder; where ``chattr`` is not
permitted, that case falls back to the regular-file parent.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .support import (
    GOOD_CSV_PATH,
    Build,
    Project,
    ascii_csv,
    block,
    good_block,
    parse_html,
    partial_files,
)

CSV = ascii_csv()
"""Latin tokens: this machine's chart fonts have no Hangul, and a missing glyph is a warning."""

PAGES = ("index.md", "pressure.md", "views.md")
CACHE = ".cache/selfattn"


def _printout() -> str:
    """What the course example prints, computed by the package (the script must match it)."""
    from mkdocs_selfattn.core.csv_read import parse_table
    from mkdocs_selfattn.core.document_results import compute_targets
    from mkdocs_selfattn.render.printout import render_printout

    table = parse_table(CSV.encode(), source="good.csv")
    return render_printout(compute_targets(table, "memo_cap_missing"))


def make_project(root: Path, **options: Any) -> Project:
    project = Project(root, {"chart_workers": 0, "cache_dir": CACHE, **options})
    project.write(GOOD_CSV_PATH, CSV)
    project.write("docs/ex.py", f"import sys\nsys.stdout.write({_printout()!r})\n")
    project.configure()
    project.page(
        "index.md",
        "# Home\n\n"
        + block(
            "id: memo\ncsv: data/good.csv\ndocument: memo_cap_missing\nscript: ex.py\n"
            "show: [output, table, chart]"
        )
        + "\nTop: `{selfattn} memo top it`\n",
    )
    project.page(
        "pressure.md",
        "# Pressure\n\n"
        + good_block(
            "p", document="memo_pressure_hold", targets="[it]", show="[table, mermaid, chart]"
        ),
    )
    project.page(
        "views.md",
        "# Views\n\n"
        + good_block(
            "v", targets="[not_applied]", show="[compare, csv, chart]", extra="temperature: 2"
        )
        + "\n"
        + block("use: v\nshow: [mermaid]\ntop: 2"),
    )
    return project


def articles(build: Build) -> dict[str, str]:
    """The rendered content of each page (the part the plugin writes)."""
    out: dict[str, str] = {}
    for page in PAGES:
        text = build.html(page)
        out[page] = text[text.index("<article") : text.index("</article>")]
    return out


def differences(pages: dict[str, str], reference: dict[str, str], who: str = "") -> list[str]:
    """One line per page that differs from the clean build, with the first differing text."""
    out: list[str] = []
    for page in PAGES:
        got, want = pages[page], reference[page]
        if got != want:
            at = next(
                i for i, (x, y) in enumerate(zip(got + "\0", want + "\1", strict=False)) if x != y
            )
            start = max(0, at - 80)
            out.append(
                f"{who}{page} differs from a clean build at character {at}: "
                f"{got[start : at + 120]!r} instead of {want[start : at + 120]!r}"
            )
    return out


def entries(folder: Path) -> list[Path]:
    """The cache's entries."""
    return sorted(p for p in folder.rglob("*.json") if p.is_file())


def entry_problems(folder: Path) -> list[str]:
    """Entries that are not what the cache itself writes: format, name, checksum, location."""
    bad: list[str] = []
    for path in entries(folder):
        kind = path.relative_to(folder).parts[0]
        try:
            entry = json.loads(path.read_bytes())
            body = json.dumps(entry["payload"], ensure_ascii=False).encode()
            ok = (
                entry["format"] == 1
                and entry["name"] == f"{kind}-{path.stem}"
                and entry["sha256"] == hashlib.sha256(body).hexdigest()
            )
        except (ValueError, KeyError, TypeError):
            ok = False
        if not ok:
            bad.append(str(path.relative_to(folder)))
    return bad


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The pages of a clean, cold, strict build."""
    project = make_project(tmp_path_factory.mktemp("reference"))
    build = project.build(strict=True)
    assert build.returncode == 0, build.describe()
    return articles(build)


# ---------------------------------------------------------------------------------------------
# Damaged and foreign entries


def _rewrite(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    entry = json.loads(path.read_bytes())
    change(entry)
    path.write_text(json.dumps(entry, ensure_ascii=False), encoding="utf-8")


def _reseal(entry: dict[str, Any]) -> None:
    body = json.dumps(entry["payload"], ensure_ascii=False).encode()
    entry["sha256"] = hashlib.sha256(body).hexdigest()


def truncate_half(folder: Path) -> None:
    for path in entries(folder):
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])


def truncate_empty(folder: Path) -> None:
    for path in entries(folder):
        path.write_bytes(b"")


def garbage(folder: Path) -> None:
    for n, path in enumerate(entries(folder)):
        path.write_bytes(hashlib.sha512(str(n).encode()).digest() * 7)


def nul_bytes(folder: Path) -> None:
    for path in entries(folder):
        path.write_bytes(b"\0" * path.stat().st_size)


def not_utf8(folder: Path) -> None:
    for path in entries(folder):
        path.write_bytes(b"\xff\xfe" + path.read_bytes())


def json_array(folder: Path) -> None:
    for path in entries(folder):
        path.write_text("[1, 2, 3]", encoding="utf-8")


def missing_fields(folder: Path) -> None:
    for path in entries(folder):
        path.write_text('{"payload": 1}', encoding="utf-8")


def checksum_mismatch(folder: Path) -> None:
    def change(entry: dict[str, Any]) -> None:
        payload = entry["payload"]
        if isinstance(payload, dict) and "csv_rows" in payload:
            payload["csv_rows"] = 999
        elif isinstance(payload, dict) and "svg" in payload:
            payload["svg"] = "<svg><text>tampered</text></svg>"
        else:
            entry["payload"] = "csv_rows = 999\n"

    for path in entries(folder):
        _rewrite(path, change)


def wrong_format(folder: Path) -> None:
    for path in entries(folder):
        _rewrite(path, lambda entry: entry.update(format=999))


def swapped(folder: Path) -> None:
    """Each entry's file holds another entry of the same kind (valid, but not this one)."""
    by_kind: dict[str, list[Path]] = {}
    for path in entries(folder):
        by_kind.setdefault(path.relative_to(folder).parts[0], []).append(path)
    for paths in by_kind.values():
        if len(paths) < 2:
            continue
        contents = [p.read_bytes() for p in paths]
        for path, data in zip(paths, contents[1:] + contents[:1], strict=True):
            path.write_bytes(data)


def foreign_files(folder: Path) -> None:
    """Strangers' files beside intact entries: notes, editor droppings, a nested folder."""
    (folder / "README.txt").write_text("not a cache entry\n", encoding="utf-8")
    (folder / "result" / ".DS_Store").write_bytes(b"\0\x01Bud1")
    (folder / "result" / "zz").mkdir(parents=True, exist_ok=True)
    (folder / "result" / "zz" / "zz-not-a-key.json").write_text("{}", encoding="utf-8")
    (folder / "unknown-kind" / "ab").mkdir(parents=True, exist_ok=True)
    (folder / "unknown-kind" / "ab" / "ab12.json").write_text("[]", encoding="utf-8")


def wrong_shape_resealed(folder: Path) -> None:
    """Entries with the right name and a valid checksum whose payload has the wrong shape."""

    def change(entry: dict[str, Any]) -> None:
        kind = entry["name"].split("-", 1)[0]
        entry["payload"] = {"result": {"targets": "oops"}, "chart": {"svg": 5}}.get(kind, 123)
        _reseal(entry)

    for path in entries(folder):
        _rewrite(path, change)


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated-half": truncate_half,
    "truncated-empty": truncate_empty,
    "garbage-bytes": garbage,
    "nul-bytes": nul_bytes,
    "not-utf8": not_utf8,
    "json-array": json_array,
    "json-missing-fields": missing_fields,
    "checksum-mismatch": checksum_mismatch,
    "wrong-format-version": wrong_format,
    "entries-swapped": swapped,
    "foreign-files": foreign_files,
    "wrong-shape-resealed": wrong_shape_resealed,
}


@pytest.mark.slow
@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
def test_damaged_cache_is_a_miss(tmp_path: Path, reference: dict[str, str], damage: str) -> None:
    project = make_project(tmp_path)
    warm = project.build(strict=True)
    assert warm.returncode == 0, warm.describe()
    folder = project.root / CACHE
    kinds = {p.relative_to(folder).parts[0] for p in entries(folder)}
    assert kinds == {"result", "script", "chart", "page"}, f"cache kinds after a build: {kinds}"
    DAMAGE[damage](folder)

    rebuilt = project.build(strict=True, site="site2")
    failures: list[str] = []
    if rebuilt.returncode != 0:
        failures.append(f"strict rebuild over a damaged cache failed: {rebuilt.describe()}")
    else:
        failures += differences(articles(rebuilt), reference)
    if "Traceback" in rebuilt.log:
        failures.append("the rebuild printed a traceback")
    if damage != "foreign-files":
        failures += [f"entry not rewritten: {e}" for e in entry_problems(folder)]
    failures += [f"partial file: {f}" for f in partial_files(project, rebuilt.site)]
    assert not failures, "\n- ".join(["", *failures])


# ---------------------------------------------------------------------------------------------
# Odd files where entries should be: never opened blocking, never read whole, never a crash

ODD_TIMEOUT = 90.0
"""A build over odd entries that takes longer than this is taken for hung (a clean one: ~5 s)."""


def _sparse(path: Path, scratch: Path) -> None:
    os.truncate(path, 64 * 1024**3)  # takes no disk; read whole it was a MemoryError


def _fifo(path: Path, scratch: Path) -> None:
    path.unlink()
    os.mkfifo(path)  # opened for reading, it waits for a writer forever


def _symlink_to_dev_zero(path: Path, scratch: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def _symlink_to_a_fifo(path: Path, scratch: Path) -> None:
    pipe = scratch / f"pipe-{path.stem[:12]}"
    os.mkfifo(pipe)
    path.unlink()
    path.symlink_to(pipe)


def _directory(path: Path, scratch: Path) -> None:
    path.unlink()
    (path / "inside").mkdir(parents=True)


ODD: dict[str, Callable[[Path, Path], None]] = {
    "sparse-64-gib-file": _sparse,
    "fifo": _fifo,
    "symlink-to-dev-zero": _symlink_to_dev_zero,
    "symlink-to-a-fifo": _symlink_to_a_fifo,
    "directory": _directory,
}


@pytest.mark.slow
@pytest.mark.parametrize("odd", list(ODD), ids=list(ODD))
def test_odd_files_in_the_cache_are_misses(
    tmp_path: Path, reference: dict[str, str], odd: str
) -> None:
    project = make_project(tmp_path)
    warm = project.build(strict=True)
    assert warm.returncode == 0, warm.describe()
    folder = project.root / CACHE
    paths = entries(folder)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    for path in paths:
        ODD[odd](path, scratch)

    rebuilt = project.build(strict=True, site="site2", timeout=ODD_TIMEOUT)
    failures: list[str] = []
    if rebuilt.run.timed_out:
        failures.append(f"the build hung (killed after {ODD_TIMEOUT:g} s)")
    elif rebuilt.returncode != 0:
        failures.append(f"strict rebuild over odd cache files failed: {rebuilt.describe()}")
    else:
        failures += differences(articles(rebuilt), reference)
    if "Traceback" in rebuilt.log:
        failures.append("the rebuild printed a traceback")
    if odd != "directory":  # anything but a folder is replaced by a real entry, atomically
        failures += [
            f"not replaced by an entry: {p.relative_to(folder)}"
            for p in paths
            if p.is_symlink() or not p.is_file()
        ]
        failures += [f"bad entry: {e}" for e in entry_problems(folder)]
    failures += [f"partial file: {f}" for f in partial_files(project, rebuilt.site)]
    assert not failures, "\n- ".join(["", *failures])


# ---------------------------------------------------------------------------------------------
# Builds sharing one cache folder


@pytest.mark.slow
@pytest.mark.parametrize(
    ("builds", "warm"), [(2, False), (3, False), (2, True)], ids=["cold-2", "cold-3", "warm-2"]
)
def test_concurrent_builds_share_a_cache(
    tmp_path: Path, reference: dict[str, str], builds: int, warm: bool
) -> None:
    project = make_project(tmp_path)
    if warm:
        first = project.build(strict=True, site="site-warm")
        assert first.returncode == 0, first.describe()
    running = [project.start(strict=True, site=f"site{n}") for n in range(builds)]
    done = [Build(project, project.root / f"site{n}", r.wait()) for n, r in enumerate(running)]
    failures: list[str] = []
    for n, build in enumerate(done):
        if build.returncode != 0:
            failures.append(f"build {n} failed: {build.describe()}")
            continue
        failures += differences(articles(build), reference, f"build {n}: ")
        failures += [f"build {n}: partial file {f}" for f in partial_files(project, build.site)]
    folder = project.root / CACHE
    failures += [f"bad entry after concurrent builds: {e}" for e in entry_problems(folder)]
    if not entries(folder):
        failures.append("the builds wrote no cache entries")
    again = project.build(strict=True, site="site-after")
    if again.returncode != 0:
        failures.append(f"a build after the concurrent ones failed: {again.describe()}")
    else:
        failures += differences(articles(again), reference, "the build after: ")
    assert not failures, "\n- ".join(["", *failures])


# ---------------------------------------------------------------------------------------------
# A cache folder that cannot be written

NOT_WRITABLE = "is not writable"


Frozen = list[Path]
"""Folders made immutable by a setup step, to thaw whatever happens."""


def _parent_is_file(project: Project) -> tuple[str, Frozen]:
    project.write("blocker", "a regular file where the cache's parent folder should be\n")
    return "blocker/selfattn", []


def _path_is_file(project: Project) -> tuple[str, Frozen]:
    project.write("blocker", "a regular file where the cache folder should be\n")
    return "blocker", []


def _immutable(project: Project) -> tuple[str, Frozen]:
    """Warm the cache, then make every folder in it immutable; new pages need new entries."""
    warm = project.build(strict=True, site="site-warm")
    assert warm.returncode == 0, warm.describe()
    folder = project.root / CACHE
    folders = [folder, *[p for p in folder.rglob("*") if p.is_dir()]]
    done = subprocess.run(
        ["chattr", "+i", *map(str, folders)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:  # chattr not permitted here: fall back to a regular-file parent
        subprocess.run(["chattr", "-i", *map(str, folders)], capture_output=True, check=False)
        return _parent_is_file(project)
    project.page("new.md", "# New\n\n" + good_block("n", targets="[not_applied]", show="[table]"))
    return CACHE, folders


READ_ONLY: dict[str, Callable[[Project], tuple[str, Frozen]]] = {
    "parent-is-a-file": _parent_is_file,
    "path-is-a-file": _path_is_file,
    "immutable-folder": _immutable,
}


@pytest.mark.slow
@pytest.mark.parametrize("how", list(READ_ONLY), ids=list(READ_ONLY))
def test_unwritable_cache_builds_uncached(
    tmp_path: Path, reference: dict[str, str], how: str
) -> None:
    project = make_project(tmp_path)
    frozen: Frozen = []
    try:
        cache_dir, frozen = READ_ONLY[how](project)
        project.configure(cache_dir=cache_dir)
        build = project.build(strict=False)
    finally:
        if frozen:
            subprocess.run(["chattr", "-i", *map(str, frozen)], capture_output=True, check=True)
    failures: list[str] = []
    if build.returncode != 0:
        failures.append(f"the build failed: {build.describe()}")
    else:
        failures += differences(articles(build), reference)
        if (project.root / "docs" / "new.md").exists():
            new = parse_html(build.html("new.md"))
            if not new.find_all("table") or new.find_all(cls="selfattn-error"):
                failures.append("new.md was not built correctly")
    warnings = [line for line in build.log.splitlines() if NOT_WRITABLE in line]
    if len(warnings) != 1:
        failures.append(f"expected one 'cache folder … {NOT_WRITABLE}' warning, got {warnings}")
    elif "selfattn: cache folder" not in warnings[0]:
        failures.append(f"the warning does not say what it is about: {warnings[0]}")
    if "Traceback" in build.log:
        failures.append("the build printed a traceback")
    failures += [f"partial file: {f}" for f in partial_files(project, build.site)]
    assert not failures, "\n- ".join(["", *failures])


def test_a_forged_entry_is_used_as_the_docs_say(tmp_path: Path) -> None:
    """The checksum catches damage, not forgery: an entry rewritten with its checksum
    recomputed is read as it stands. The docs must say so (they once promised that restoring
    another branch's cache "can never give a wrong page") and say how CI keeps the boundary."""
    from mkdocs_selfattn.build.cache import Cache

    cache = Cache(tmp_path)
    cache.put("result", "k" * 64, {"weight": 0.25})
    [path] = (tmp_path / "result").rglob("*.json")
    forged = json.dumps({"weight": 0.99, "html": "<script>alert(1)</script>"}).encode()
    head = {"format": 1, "name": "result-" + "k" * 64, "sha256": hashlib.sha256(forged).hexdigest()}
    path.write_bytes(json.dumps(head).encode()[:-1] + b', "payload": ' + forged + b"}")
    assert Cache(tmp_path).get("result", "k" * 64) == json.loads(forged)

    docs = (Path(__file__).parents[2] / "docs/plugin/caching-and-serve.md").read_text("utf-8")
    assert "can never give a wrong page" not in docs
    assert "whoever writes the cache writes the pages" in docs
    assert "The checksum catches damage, not forgery" in docs
    assert "pull_request_target" in docs
