"""Strict means strict: the plugin's own failures stop a strict build at any log level.

MkDocs fails ``--strict`` by counting WARNING records on the ``mkdocs`` logger, but under
``--quiet`` the logger drops them before the counter sees them (MkDocs issue 4126), so broken
blocks would pass. The plugin knows its failures, so it checks for itself when the build ends.
"""

from __future__ import annotations

import logging

SHOWN = 20
"""Problems listed in the final message; the rest are counted."""


def unseen_failure(problems: list[str], *, strict: bool, log: logging.Logger) -> str | None:
    """The message to stop the build with, or None when there is nothing MkDocs missed.

    When ``log`` emits warnings, MkDocs' own counter has seen every problem and ends the build
    with its usual "Aborted with N warnings in strict mode!"; only otherwise the plugin steps in.
    """
    if not strict or not problems or log.isEnabledFor(logging.WARNING):
        return None
    listed = "\n".join(problems[:SHOWN])
    more = len(problems) - SHOWN
    tail = f"\n… and {more} more" if more > 0 else ""
    count = f"{len(problems)} problem" + ("s" if len(problems) != 1 else "")
    return (
        f"selfattn: {count} in strict mode (warnings are hidden by the log level):\n{listed}{tail}"
    )
