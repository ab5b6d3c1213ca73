"""Whole-page memo: a page whose markdown and input files did not change is filled in from one
cache entry, without parsing its blocks, loading results or rendering views again.

Re-deriving an unchanged page from per-example cache entries was most of a warm build's extra
cost (YAML, result and chart entries, table HTML: about 6 ms a chapter). The memo's key covers
everything that decides the page except the files its blocks read; those are listed with their
SHA-256 and hashed again on every lookup, so an edited CSV or script is never served stale.

Placeholders carry a per-build secret (see the plugin), so the memo stores the expanded markdown
split at that secret and the HTML under the secret-free rest of each token; a lookup joins them
with the new build's secret.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs_selfattn.build.cache import content_key
from mkdocs_selfattn.core.input_files import read_input

KIND = "page"
FORMAT = 2


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def memo_key(markdown: str, context: Mapping[str, Any]) -> str:
    """``context``: JSON-able facts about the page and the site that shape the output (page
    path and URL, folders, settings, versions)."""
    return content_key(KIND, FORMAT, markdown, dict(context))


@dataclass(frozen=True)
class MemoInput:
    """A file the page's blocks read; ``published`` for CSVs offered for download."""

    path: Path
    sha256: str
    published: bool


@dataclass(frozen=True)
class PageMemo:
    segments: tuple[str, ...]
    """The expanded markdown split at the placeholder secret."""
    slots: Mapping[str, str]
    """Token rest → HTML swapped in before search indexes the page."""
    late: Mapping[str, str]
    """Token rest → HTML swapped in after (charts, kept out of the search index)."""
    inputs: tuple[MemoInput, ...]
    links: tuple[tuple[Path, Path], ...] = ()
    """(path as the page names it, the real file it reached): a symlink pointed elsewhere
    changes which file a block reads without changing either file."""

    @classmethod
    def capture(
        cls,
        markdown: str,
        secret: str,
        slots: Mapping[str, str],
        late: Mapping[str, str],
        inputs: Mapping[Path, str],
        published: set[Path],
        links: Mapping[Path, Path] | None = None,
    ) -> PageMemo:
        return cls(
            segments=tuple(markdown.split(secret)),
            slots={_rest(token, secret): html for token, html in slots.items()},
            late={_rest(token, secret): html for token, html in late.items()},
            inputs=tuple(
                MemoInput(path, digest, path in published)
                for path, digest in sorted(inputs.items())
            ),
            links=tuple(sorted((links or {}).items())),
        )

    def markdown(self, secret: str) -> str:
        return secret.join(self.segments)

    def slots_for(self, secret: str) -> dict[str, str]:
        return {secret + rest: html for rest, html in self.slots.items()}

    def late_for(self, secret: str) -> dict[str, str]:
        return {secret + rest: html for rest, html in self.late.items()}

    def inputs_unchanged(self, digest: Callable[[Path], str | None] | None = None) -> bool:
        """Every input still exists with the same bytes (read and hashed, not just stat'ed:
        a checkout or copy can keep sizes and times while changing content). ``digest`` may
        remember hashes for the length of a build."""
        digest = digest or _digest
        if any(Path(os.path.realpath(named)) != real for named, real in self.links):
            return False
        return all(digest(item.path) == item.sha256 for item in self.inputs)

    def to_payload(self) -> dict[str, Any]:
        return {
            "segments": list(self.segments),
            "slots": dict(self.slots),
            "late": dict(self.late),
            "inputs": [[str(i.path), i.sha256, i.published] for i in self.inputs],
            "links": [[str(named), str(real)] for named, real in self.links],
        }

    @classmethod
    def from_payload(cls, payload: object) -> PageMemo | None:
        """A well-formed entry, or None: an entry of another shape is a miss, never trusted."""
        if not isinstance(payload, dict):
            return None
        segments = payload.get("segments")
        slots = payload.get("slots")
        late = payload.get("late")
        inputs = payload.get("inputs")
        links = payload.get("links")
        if not (
            isinstance(links, list)
            and all(
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
                for pair in links
            )
        ):
            return None
        if not (
            isinstance(segments, list)
            and segments
            and all(isinstance(s, str) for s in segments)
            and _str_map(slots)
            and _str_map(late)
            and isinstance(inputs, list)
        ):
            return None
        parsed: list[MemoInput] = []
        for item in inputs:
            if not (
                isinstance(item, list)
                and len(item) == 3
                and isinstance(item[0], str)
                and isinstance(item[1], str)
                and isinstance(item[2], bool)
            ):
                return None
            parsed.append(MemoInput(Path(item[0]), item[1], item[2]))
        assert isinstance(slots, dict)
        assert isinstance(late, dict)
        pairs = tuple((Path(named), Path(real)) for named, real in links)
        return cls(tuple(segments), dict(slots), dict(late), tuple(parsed), pairs)


def _digest(path: Path) -> str | None:
    try:
        return file_digest(read_input(path))
    except OSError:
        return None


def _rest(token: str, secret: str) -> str:
    if not token.startswith(secret):
        raise ValueError(f"placeholder {token!r} does not carry this page's secret")
    return token[len(secret) :]


def _str_map(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )
