"""Content-addressed cache: in memory across ``mkdocs serve`` rebuilds, and on disk between builds.

Keys are hashes of everything that can change an answer (CSV bytes, options, script bytes,
package and matplotlib versions), so an entry is never stale, only unused. Entries are written
to a temporary file and renamed into place, and carry a checksum: a truncated or corrupted
file is treated as a miss and recomputed. The checksum catches damage, not forgery: whoever can
write the folder decides what its entries say (docs/plugin/caching-and-serve.md states that
trust boundary and how CI keeps it).

The folder may hold anything, and reading it must never hang or exhaust memory: an entry is
read only if it is a regular file (not a FIFO, device, socket, folder or symlink) of a bounded
size, opened without blocking; anything else in its place is a miss. Writing replaces whatever
sits in an entry's place, except a folder: then that one entry stays uncached.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

FORMAT = 1
_PAYLOAD = b', "payload": '
MEMORY_ENTRIES = 4096
"""Bound on in-memory entries, so a long `mkdocs serve` session does not grow without limit."""
MAX_ENTRY_BYTES = 64 * 1024 * 1024
"""Largest entry read or written: a page memo with many SVG charts is a few megabytes, and a
larger file in the folder (a sparse 64 GiB one, say) is a miss instead of a MemoryError."""
_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_IN_THE_WAY = frozenset({errno.EISDIR, errno.ENOTEMPTY, errno.EEXIST})
"""Errors of renaming an entry into place when a folder holds its path."""


def content_key(*parts: Any) -> str:
    """A stable hash of JSON-able parts (bytes are hashed first, so large CSVs stay cheap)."""
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, bytes | bytearray):
            digest.update(b"b" + hashlib.sha256(part).digest())
        else:
            digest.update(b"j" + json.dumps(part, ensure_ascii=False).encode())
    return digest.hexdigest()


def matplotlib_version() -> str:
    """Part of every key that involves a chart, read without importing matplotlib."""
    from mkdocs_selfattn.render.chart_fonts import installed_version

    return installed_version("matplotlib")


_FINGERPRINT: list[str] = []


def code_fingerprint() -> str:
    """A hash of the package's own source files, part of every key.

    The version number alone let an edited renderer (in a checkout, or a build of the same
    version) serve pages and charts drawn by the old code from the cache; hashing about 30 small
    files costs a millisecond once per process.
    """
    if not _FINGERPRINT:
        _FINGERPRINT.append(source_fingerprint(Path(__file__).resolve().parents[1]))
    return _FINGERPRINT[0]


def source_fingerprint(package: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


class Cache:
    """Memory + optional disk. ``problem`` reports, once, that the disk cannot be used."""

    def __init__(self, folder: Path | None, problem: Callable[[str], None] | None = None) -> None:
        self.folder = folder
        self.memory: dict[str, Any] = {}
        self._problem = problem
        self._disk_ok = folder is not None
        self.hits = 0
        self.misses = 0
        self.kind_misses: Counter[str] = Counter()
        """Misses by entry kind ("page", "result", "chart", "script"), for tests and benchmarks."""

    def get(self, kind: str, key: str) -> Any | None:
        name = f"{kind}-{key}"
        if name in self.memory:
            self.hits += 1
            return self.memory[name]
        value = self._read(name)
        if value is None:
            self.misses += 1
            self.kind_misses[kind] += 1
            return None
        self.hits += 1
        self._remember(name, value)
        return value

    def peek(self, kind: str, key: str) -> Any | None:
        """Like :meth:`get` (and keeps the entry in memory), without counting a hit or miss:
        for looking ahead at what a build will need."""
        name = f"{kind}-{key}"
        if name in self.memory:
            return self.memory[name]
        value = self._read(name)
        if value is not None:
            self._remember(name, value)
        return value

    def put(self, kind: str, key: str, value: Any) -> None:
        name = f"{kind}-{key}"
        self._remember(name, value)
        self._write(name, value)

    def _remember(self, name: str, value: Any) -> None:
        self.memory[name] = value
        while len(self.memory) > MEMORY_ENTRIES:
            del self.memory[next(iter(self.memory))]

    def _path(self, name: str) -> Path:
        assert self.folder is not None
        kind, _, key = name.partition("-")
        return self.folder / kind / key[:2] / f"{key}.json"

    def _read(self, name: str) -> Any | None:
        if not self._disk_ok:
            return None
        try:
            raw = read_regular_file(self._path(name), MAX_ENTRY_BYTES)
            if raw is None:
                return None
            # The checksum covers the payload's bytes exactly as _write lays them out (last
            # member): hashing them in place, instead of serialising the parsed payload again
            # to compare, halves the cost of a hit on a large entry (a page memo with its SVG).
            at = raw.find(_PAYLOAD)
            if at < 0 or not raw.endswith(b"}"):
                return None
            head = json.loads(raw[:at] + b"}")
            body = raw[at + len(_PAYLOAD) : -1]
            if (
                head.get("format") != FORMAT
                or head.get("name") != name
                or head.get("sha256") != hashlib.sha256(body).hexdigest()
            ):
                return None
            return json.loads(body)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, MemoryError):
            return None

    def _write(self, name: str, value: Any) -> None:
        if not self._disk_ok:
            return
        body = json.dumps(value, ensure_ascii=False).encode()
        head = {"format": FORMAT, "name": name, "sha256": hashlib.sha256(body).hexdigest()}
        # A JSON object whose last member is the payload, serialised once (see _read).
        data = json.dumps(head).encode()[:-1] + _PAYLOAD + body + b"}"
        if len(data) > MAX_ENTRY_BYTES:  # it could never be read back
            return
        path = self._path(name)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            if exc.errno in _IN_THE_WAY and path.parent.is_dir():
                return  # a folder sits where this one entry goes: it stays a miss
            self._disk_ok = False
            if self._problem is not None:
                self._problem(
                    f"cache folder {self.folder} is not writable ({exc.strerror or exc}); "
                    "building without the disk cache"
                )


def read_regular_file(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file (not through a symlink) of at most
    ``limit`` bytes, else None. Checked before opening, so that a FIFO or a device is never
    opened, and again on the open file, which is opened without blocking in case it was
    swapped meanwhile."""
    if not stat.S_ISREG(os.lstat(path).st_mode):
        return None
    fd = os.open(path, _READ_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew while being read
                return None
        return b"".join(chunks)
    finally:
        os.close(fd)
