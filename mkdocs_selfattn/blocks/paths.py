"""Where a block's ``csv:``/``script:`` path points, and the rule that it never leaves the project.

A course takes pull requests from students, so a page must not be able to publish
``/etc/passwd`` or a file reached through a symlink: the real path (symlinks resolved) has to stay
inside the project folder, and nothing is read before that is checked.
"""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs_selfattn.errors import BlockError


def resolve_path(
    raw: str, *, key: str, line: int, relative_to: Path, absolute_to: Path, root: Path
) -> tuple[Path, str]:
    """``raw`` relative to ``relative_to``; a leading ``/`` means relative to ``absolute_to``.

    Returns the path and how messages should name it (relative to ``root``).
    """
    text = raw.strip()
    if not text:
        raise BlockError(f"'{key}': the path is empty", line=line)
    if "\x00" in text:
        raise BlockError(f"'{key}': the path contains a NUL character", line=line)
    if text.startswith("~"):
        raise BlockError(
            f"'{key}': home-relative paths ({text}) are not allowed; "
            "use a path relative to the page, or starting with / for the docs folder",
            line=line,
        )
    if "\\" in text or (len(text) > 1 and text[1] == ":"):
        raise BlockError(
            f"'{key}': write the path with forward slashes, relative to the page ({text})",
            line=line,
        )
    candidate = absolute_to / text.lstrip("/") if text.startswith("/") else relative_to / text
    real = Path(os.path.realpath(candidate))
    real_root = Path(os.path.realpath(root))
    if real != real_root and real_root not in real.parents:
        raise BlockError(
            f"'{key}': {text} resolves outside the project folder ({root}); "
            "keep data and scripts inside the folder of mkdocs.yml",
            line=line,
        )
    display = os.path.relpath(os.path.normpath(candidate), root)
    return real, display.replace(os.sep, "/")
