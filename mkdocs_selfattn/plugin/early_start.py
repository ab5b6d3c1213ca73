"""A guess, before MkDocs has read its config, at whether a `mkdocs build` will need the worker.

After one CSV edit the worker's imports (numpy, then matplotlib) are the long pole of the build,
and the plugin's first moment with the config (``on_config``, where the look-ahead runs) comes
20-30 ms after its first moment at all (``on_startup``). So each one-off build leaves a stamp in
the cache folder: the size and modification time of every file it read for its blocks (the pages,
their CSVs, scripts and shared definitions, and mkdocs.yml). At ``on_startup`` the next build
compares them; if one differs, or there is no stamp, it starts the worker there and then.

Only a guess: what a build computes is still decided by the look-ahead and the cache keys. A wrong
guess costs the worker's first imports on another core (after an edit of prose only) or the time
it would have saved (a new page); never a wrong page.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

STAMP = "last-inputs.json"


def stamp_folder(cache_dir: str, config_file: str | None) -> Path | None:
    """The cache folder as the plugin will resolve it, or None (memory-only cache, or no config
    file): then the look-ahead alone decides."""
    if not cache_dir or not config_file:
        return None
    return (Path(config_file).resolve().parent / cache_dir).resolve()


def _read(folder: Path) -> list[list[object]] | None:
    try:
        entries = json.loads((folder / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return entries if isinstance(entries, list) else None


def inputs_changed(folder: Path) -> bool:
    entries = _read(folder)
    if entries is None:
        return True
    for entry in entries:
        try:
            path, size, mtime = entry
            found = os.stat(str(path))
        except (OSError, TypeError, ValueError):
            return True
        if (found.st_size, found.st_mtime_ns) != (size, mtime):
            return True
    return False


def record(folder: Path, paths: Iterable[Path]) -> None:
    """Write the stamp, unless it already says this (a warm build writes nothing)."""
    entries: list[list[object]] = []
    for path in sorted(set(paths)):
        try:
            found = path.stat()
        except OSError:
            continue
        entries.append([str(path), found.st_size, found.st_mtime_ns])
    if _read(folder) == entries or not folder.is_dir():
        return
    temporary = folder / f".{STAMP}.{os.getpid()}"
    try:
        temporary.write_text(json.dumps(entries), encoding="utf-8")
        os.replace(temporary, folder / STAMP)
    except OSError:
        temporary.unlink(missing_ok=True)
