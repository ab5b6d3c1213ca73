"""What this build has logged already, so one mistake is one message.

mkdocs-static-i18n builds every further language by calling MkDocs' ``build`` again with the
same configuration, and it reads a fallback page (a page not translated) in each language: the
plugin's own state is reset by every ``on_config``, so that state cannot tell the passes apart
from separate builds. The configuration object can: it lives exactly as long as one
``mkdocs build`` (``mkdocs serve`` loads it again for each rebuild, ``check`` keeps it for its
passes), so what was logged is kept on it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

_KEY = "_selfattn_build_log"


@dataclass
class BuildLog:
    messages: set[str] = field(default_factory=set)
    """Every ``page:line: selfattn: …`` line logged this build."""
    once: set[str] = field(default_factory=set)
    """Problems of a file or of the site (see ``Problem.once``) logged this build."""
    work: Counter[str] = field(default_factory=Counter)
    """What the build's passes could not take from the cache, by cache entry kind, summed over
    every pass (every language) for the ``-v`` summary: one pass alone may have reused them all."""

    def first_time(self, message: str) -> bool:
        if message in self.messages:
            return False
        self.messages.add(message)
        return True


def build_log(config: Any) -> BuildLog:
    """The log of the build that ``config`` belongs to (created on first use)."""
    found = config.__dict__.get(_KEY)
    if not isinstance(found, BuildLog):
        found = BuildLog()
        config.__dict__[_KEY] = found
    return found


def held_log(holder: Any) -> BuildLog:
    """The log ``holder`` took from its configuration (``_build_log``); before it took one, a
    log of its own."""
    found = getattr(holder, "_build_log", None)
    if not isinstance(found, BuildLog):
        found = BuildLog()
        holder._build_log = found
    return found
