"""Reading a file a page names (``csv:``, ``script:``, ``from:``) or a command is given: regular
files only, and never more bytes than a limit.

A path can name a named pipe (FIFO), whose ``open`` waits for a writer forever, or a device such as
``/dev/zero``, which never ends. So the file is opened without blocking, its type is checked on
the open descriptor (no window for a swap between a check and the open), and anything but a
regular file is refused with an :class:`OSError` whose ``strerror`` says what it is: callers
already turn an ``OSError`` into "cannot be read (…)".
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


class NotRegularFileError(OSError):
    """The path names something other than a regular file (a FIFO, a device, a socket)."""


class TooLargeError(OSError):
    """The file is larger than the limit its reader sets."""


def read_input(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, of at most ``limit`` bytes when given.

    Raises :class:`IsADirectoryError` for a folder, :class:`NotRegularFileError` for anything
    else that is not a regular file, :class:`TooLargeError` past ``limit``, and the usual
    :class:`OSError` subclasses (``FileNotFoundError`` …).
    """
    fd = os.open(path, _FLAGS)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a file")
            raise NotRegularFileError(errno.EINVAL, f"it is {kind}, not a regular file", str(path))
        if limit is not None and info.st_size > limit:
            raise TooLargeError(errno.EFBIG, _too_large(limit), str(path))
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 1 << 20 if limit is None else min(1 << 20, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if limit is not None and size > limit:  # it grew while being read
                raise TooLargeError(errno.EFBIG, _too_large(limit), str(path))
        return b"".join(chunks)
    finally:
        os.close(fd)


def _too_large(limit: int) -> str:
    return f"it is larger than {limit // 1024:,} KiB"
