"""``mkdocs-selfattn new DIR``: a starter course that builds with ``--strict`` as written.

The course is the folder ``template/`` beside this module (package data), copied byte for byte:
``mkdocs.yml``, a home page, a chapter using every view and inline values, the CSV and an example
script whose printout the build checks against the core.
"""

from __future__ import annotations

import shlex
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path


class StarterError(Exception):
    """The folder cannot take a starter course (it is a file, or already has content)."""


def write_starter(folder: str | Path) -> list[Path]:
    """Copy the template into ``folder``, which must be missing or empty; returns the files."""
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise StarterError(f"{target} is a file; name a new folder for the course")
    if target.is_dir() and any(target.iterdir()):
        raise StarterError(
            f"{target} is not empty; name a new or empty folder (nothing was written)"
        )
    if target.is_symlink() and not target.exists():
        raise StarterError(f"{target} is a link to nothing; name a new folder for the course")
    written: list[Path] = []
    try:
        for relative, source in _template_files(files(__name__) / "template", ""):
            path = target / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(source.read_bytes())
            written.append(path)
    except OSError as exc:
        # A parent that is a file, a folder that cannot be made (/proc), no space, no rights.
        where = exc.filename or target
        raise StarterError(
            f"cannot write the starter course at {where} ({exc.strerror or exc}); "
            "name a folder you can create"
        ) from None
    return written


def next_step(folder: str | Path) -> str:
    """The line ``new`` ends with: a command the author can paste as it stands, so a folder
    with spaces or quotes in its name is quoted for the shell."""
    return f"next: cd {shlex.quote(str(folder))} && mkdocs serve"


def _template_files(folder: Traversable, prefix: str) -> list[tuple[str, Traversable]]:
    found: list[tuple[str, Traversable]] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name == "__pycache__":
            continue
        relative = f"{prefix}{entry.name}"
        if entry.is_dir():
            found += _template_files(entry, relative + "/")
        else:
            found.append((relative, entry))
    return found
