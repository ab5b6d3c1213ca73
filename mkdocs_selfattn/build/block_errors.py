"""What a failed block says: located file errors with "did you mean", the script diff, the
in-page error box. Kept apart from the pipeline, which only decides *when* a block fails."""

from __future__ import annotations

import difflib
import itertools
import os
from typing import TYPE_CHECKING

from mkdocs_selfattn.core.input_files import read_input
from mkdocs_selfattn.errors import DataError, close_matches
from mkdocs_selfattn.render.escape import html_text
from mkdocs_selfattn.render.words import page_word

if TYPE_CHECKING:
    from mkdocs_selfattn.blocks.spec import ExampleSpec
    from mkdocs_selfattn.build.example import ResolvedFile


def with_label_hint(error: DataError, spec: ExampleSpec) -> DataError:
    """``targets:`` and ``groups:`` take CSV tokens: say so when a name is a display label."""
    if error.key not in ("targets", "groups"):
        return error
    names = [*(spec.targets or ()), *(m for members in spec.groups.values() for m in members)]
    tokens = {label: token for token, label in spec.display.items()}
    hints = [
        f"'{name}' is the display label of '{tokens[name]}'"
        for name in dict.fromkeys(names)
        if name in tokens and name not in spec.display and f"'{name}'" in error.message
    ]
    if not hints:
        return error
    message = f"{error.message}; {', '.join(hints)}: write the CSV token"
    return DataError(error.path, message, line=error.line, column=error.column, key=error.key)


MERMAID_FENCE_MISSING = (
    "the 'mermaid' view needs pymdownx.superfences with a 'mermaid' custom fence, which "
    "mkdocs.yml does not configure; add to its markdown_extensions: - pymdownx.superfences: "
    "{custom_fences: [{name: mermaid, class: mermaid, "
    "format: !!python/name:pymdownx.superfences.fence_code_format}]}"
)


MAX_SCRIPT_BYTES = 1024 * 1024
"""Largest example script read (a chapter's script is a few KiB)."""


def read_bytes(file: ResolvedFile, key: str, limit: int | None = None) -> bytes:
    try:
        return read_input(file.path, limit)
    except FileNotFoundError:
        raise DataError(file.display, _not_found(file), key=key) from None
    except IsADirectoryError:
        raise DataError(file.display, "is a folder, not a file", key=key) from None
    except OSError as exc:
        raise DataError(file.display, f"cannot be read ({exc.strerror or exc})", key=key) from None


def read_text(file: ResolvedFile, key: str) -> str:
    try:
        return read_bytes(file, key, MAX_SCRIPT_BYTES).decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(file.display, "is not UTF-8 text", key=key) from None


_LISTED_FILES = 2000
"""Files of a folder looked at for "did you mean" (a huge folder must not slow the message)."""


def _not_found(file: ResolvedFile) -> str:
    """ "file not found", with the closest names in the folder the path points into."""
    folder = file.path.parent
    shown = file.display.rsplit("/", 1)[0] if "/" in file.display else "."
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in itertools.islice(entries, _LISTED_FILES) if e.is_file()]
    except OSError:
        return f"file not found; the folder {shown} does not exist"
    close = close_matches(file.path.name, sorted(names), n=3)
    if not close:
        return "file not found; check the path"
    options = " or ".join(repr(name) for name in close)
    return f"file not found; check the path (in {shown}: did you mean {options}?)"


def mismatch(display: str, expected: str, actual: str) -> tuple[str, str]:
    """The log's one-line summary (the diff's first lines) and the whole diff, for the page."""
    diff = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            "core printout",
            "script output",
            lineterm="",
            n=0,
        )
    )
    shown = diff[2:12]
    more = len(diff) - 2 - len(shown)
    tail = f" (+{more} more diff lines: the page and --verbose show them all)" if more > 0 else ""
    whole = "\n".join(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            "core printout",
            "script output",
            lineterm="",
        )
    )
    message = (
        f"the output of script {display} differs from the numbers computed from the CSV: "
        + " | ".join(shown)
        + tail
        + "; fix the script or the block's options so both agree"
    )
    return message, whole


def error_html(message: str, detail: str | None = None, language: str | None = None) -> str:
    """The visible in-page error that replaces a broken block when the build is not strict;
    ``detail`` (a script's whole diff) goes in a closed box under the message."""
    more = ""
    if detail:
        more = (
            '<details class="selfattn-diff"><summary>The whole diff: core printout (-), '
            f"script output (+)</summary><pre><code>{html_text(detail)}</code></pre></details>"
        )
    return (
        '<div class="admonition failure selfattn-error">'
        f'<p class="admonition-title">{html_text(page_word("error_title", language))}</p>'
        f"<p>{html_text(message)}</p>{more}</div>"
    )
