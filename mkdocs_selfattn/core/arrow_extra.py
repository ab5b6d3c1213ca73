"""pyarrow is an optional extra (``mkdocs-selfattn[arrow]``): what a file that needs it says
when it is not installed.

A book's CSVs are a few kilobytes, read by the stdlib reader (:mod:`csv_small`); pyarrow (170 MB
installed) reads only files from :data:`csv_size.SMALL_BYTES` on, and files that reader does not
take. Without it such a file gets one message naming what to install, unless the slow reader
finds the author's mistake at a line: a typo in a small file is a typo, not a missing package.
"""

from __future__ import annotations

from collections.abc import Callable

from mkdocs_selfattn.core import csv_size
from mkdocs_selfattn.errors import DataError

EXTRA = "mkdocs-selfattn[arrow]"
_INSTALL = f"which is not installed: pip install '{EXTRA}'"


def arrow_missing() -> bool:
    """Whether pyarrow cannot be imported (when it can, the caller reads with it next anyway)."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return True
    return False


def needs_arrow(data: bytes, source: str, diagnose: Callable[[], DataError]) -> DataError:
    """The one message for a file only pyarrow reads, pyarrow missing; ``diagnose`` names the
    first bad line, if there is one (it is only run on files small enough for a slow read)."""
    if not csv_size.fits(data):
        size = f"{len(data) / 1e6:.1f} MB"
        limit = f"{csv_size.SMALL_BYTES // 1024} KB"
        return DataError(
            source, f"the file has {size}: files from {limit} on are read by pyarrow, {_INSTALL}"
        )
    found = diagnose()
    if found.line is not None:
        return found
    return DataError(
        source,
        "the file is valid CSV beyond what the small-file reader takes (quoted line breaks, "
        "a lone CR ending a line, spaces around numbers, inf…); it is read by pyarrow, " + _INSTALL,
    )
