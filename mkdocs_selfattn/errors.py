"""Domain errors: every failure a user can cause carries the place to look and what to do.

The core raises these; only the adapters (plugin, extension, command line) decide how to show them,
so a page author and a CI log both get one line, never a traceback.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from typing import Any


class SelfAttnError(Exception):
    """Base of every error the package reports to a user.

    Errors cross process boundaries (a worker computing ahead sends its failure back), so each
    class pickles with all of its fields: one that did not would break the whole worker pool.
    """

    def __init__(self, message: str) -> None:
        message = bounded(message)
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), dict(self.__dict__)))


def _rebuild(cls: type[SelfAttnError], fields: dict[str, Any]) -> SelfAttnError:
    error = cls.__new__(cls)
    Exception.__init__(error, fields.get("message", ""))
    error.__dict__.update(fields)
    return error


class DataError(SelfAttnError):
    """Bad CSV content or a request the CSV cannot answer, located in the data file."""

    def __init__(
        self,
        path: str,
        message: str,
        *,
        line: int | None = None,
        column: str | None = None,
        key: str | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.column = column
        self.key = key
        """The block key whose value the file cannot answer (``document``, ``targets``…), so the
        page message points at that key's line rather than at the fence."""

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        if self.column is not None:
            where += f": column '{self.column}'"
        return f"{where}: {self.message}"


class BlockError(SelfAttnError):
    """A problem in an example block's own text (YAML, keys, options), located on the page.

    ``line`` counts from 1 at the first line of the page file, so messages can say
    ``docs/page.md:LINE`` directly.
    """

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class UseOfFailedExampleError(BlockError):
    """A ``use:`` block or inline value whose example failed: shown as an error on the page, but
    counted into one summary line instead of repeating the example's own message."""

    def __init__(self, message: str, *, example_id: str, line: int | None = None) -> None:
        super().__init__(message, line=line)
        self.example_id = example_id


class ScriptError(SelfAttnError):
    """The example script failed, timed out, or printed something other than the core's numbers."""

    def __init__(self, message: str, *, diff: str | None = None) -> None:
        super().__init__(message)
        self.diff = diff
        """The whole unified diff of a mismatch (the message shows its first lines only)."""


MESSAGE_LIMIT = 1000
"""Characters a message keeps (the file, line and column come on top): a message quoting a huge
value or listing names must not fill a log or a page, whatever the data."""

NAMES_SHOWN = 12
"""Names a message lists ("targets: a, b, … and 99988 more")."""

SUGGESTIONS = 3
"""Most "did you mean" suggestions a message makes."""

COMPARED = 2000
"""Most names one "did you mean" compares in full: ``difflib`` over 100,000 names takes seconds
per typo, so beyond this many only the names that share the longest beginning or end with the
typo are compared, this many in all."""


def bounded(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` cut to ``limit`` characters, saying how much was left out."""
    if len(message) <= limit:
        return message
    return f"{message[:limit]}… ({len(message) - limit} more characters)"


def first_repeated(values: Iterable[str]) -> str | None:
    """The first value that comes again in ``values`` (the one a "listed twice" message names),
    in one pass: a block may list thousands of tokens."""
    seen: set[str] = set()
    for value in values:
        if value in seen:
            return value
        seen.add(value)
    return None


def listing(values: Iterable[str], limit: int = NAMES_SHOWN, *, quote: bool = False) -> str:
    """Names for a message: the first ``limit`` of them, then how many more."""
    items = values if isinstance(values, Sequence) else list(values)
    shown = ", ".join(repr(v) if quote else v for v in items[:limit])
    more = len(items) - limit
    return shown + (f" … and {more} more" if more > 0 else "")


def close_matches(text: str, options: Iterable[str], n: int = 1) -> list[str]:
    """The ``n`` options most like ``text`` (at most :data:`SUGGESTIONS`): the one "did you
    mean" of every message (keys, ids, files, columns, candidates), so all of them suggest alike.

    Case is ignored (``Big`` finds ``big``), and an option equal but for case comes first: a
    shift-key slip is the likeliest mistake of all.
    """
    import difflib

    n = min(n, SUGGESTIONS)
    folded: dict[str, str] = {}
    for option in options:
        folded.setdefault(option.casefold(), option)
    key = text.casefold()
    found = difflib.get_close_matches(key, _comparable(key, folded), n=n, cutoff=0.6)
    if key in folded and key not in found[:1]:
        found = [key, *[f for f in found if f != key]][:n]
    return [folded[f] for f in found]


def _comparable(key: str, folded: dict[str, str]) -> list[str]:
    """The names worth comparing with ``key``, at most :data:`COMPARED` of them: those that
    share the longest beginning with it and those that share the longest end (a typo leaves one
    side of a name intact), found by bisecting the names sorted forwards and backwards."""
    if len(folded) <= COMPARED:
        return list(folded)
    side = COMPARED // 4
    forwards = sorted(folded)
    at = bisect.bisect_left(forwards, key)
    pool = forwards[max(0, at - side) : at + side]
    backwards = sorted(name[::-1] for name in folded)
    at = bisect.bisect_left(backwards, key[::-1])
    pool += [name[::-1] for name in backwards[max(0, at - side) : at + side]]
    return list(dict.fromkeys(pool))


def closest(text: str, options: Iterable[str]) -> str | None:
    """The option most like ``text``, or None."""
    matches = close_matches(text, options)
    return matches[0] if matches else None


def did_you_mean(text: str, options: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``options``, or nothing.

    Parenthesised so it reads right wherever a message goes on (``…; ids: a, b``) or ends.
    """
    match = closest(text, options)
    return f" (did you mean '{match}'?)" if match else ""


def did_you_mean_each(texts: Sequence[str], options: Iterable[str]) -> str:
    """Like :func:`did_you_mean` for several wrong names: `` (did you mean 'big' for 'Big',
    'cup' for 'cop'?)``, naming only those with a close option."""
    if len(texts) == 1:
        return did_you_mean(texts[0], options)
    known = list(options)
    pairs = [(closest(t, known), t) for t in texts]
    shown = [f"'{match}' for '{t}'" for match, t in pairs if match]
    return f" (did you mean {', '.join(shown)}?)" if shown else ""
