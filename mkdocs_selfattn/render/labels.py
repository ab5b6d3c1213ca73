"""Display labels and number formats shared by every view."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs_selfattn.core.readings import ReadingResult


@dataclass(frozen=True)
class Labels:
    """How tokens read on the page: CSV tokens stay data, labels are what readers see.

    A token that occurs at several positions ("the animal … the road") is shown with its position
    (``the@5``), so readers can tell the candidates apart. A label that would read like another
    token of the same example (two tokens given one label, or a label equal to another token) is
    shown with its token, ``label (token)``: one name on a figure must mean one token. Group
    names count as tokens here: a group labelled like a candidate reads ``label (group)``.
    """

    display: Mapping[str, str] = field(default_factory=dict)
    repeated: frozenset[str] = frozenset()
    ambiguous: frozenset[str] = frozenset()
    """Tokens whose label another token of the example also shows as."""

    def __call__(self, token: str, index: int | None = None) -> str:
        shown = self.display.get(token, token)
        if token in self.ambiguous:
            shown = f"{shown} ({token})"
        return f"{shown}@{index}" if index is not None and token in self.repeated else shown

    def label(self, token: str, index: int | None = None) -> str:
        """The label alone, for views that always show the token beside it (tables)."""
        shown = self.display.get(token, token)
        return f"{shown}@{index}" if index is not None and token in self.repeated else shown

    def as_written(self) -> Labels:
        """Labels exactly as ``display:`` gives them, as the example script prints them."""
        return replace(self, ambiguous=frozenset())

    def raw(self, token: str, index: int | None = None) -> str:
        """The CSV token, with its position when the token repeats."""
        return f"{token}@{index}" if index is not None and token in self.repeated else token

    def for_result(self, result: ReadingResult) -> Labels:
        """These labels, knowing which tokens of ``result`` occur at more than one position."""
        return self._unambiguous(result.shown_names(), result.repeated_tokens())

    def _unambiguous(self, tokens: set[str], repeated: frozenset[str]) -> Labels:
        # A label reads as another token (or group) when it is that one's name or its label;
        # group rows and captions sit beside candidates, so groups share the names.
        named: dict[str, set[str]] = {}
        for token in tokens:
            named.setdefault(token, set()).add(token)
            named.setdefault(self.display.get(token, token), set()).add(token)
        ambiguous = frozenset(
            token
            for token in tokens
            if self.display.get(token, token) != token and len(named[self.display[token]]) > 1
        )
        return replace(self, repeated=repeated, ambiguous=ambiguous)


def py_round(value: float, digits: int = 3) -> str:
    """A number exactly as ``print(round(value, 3))`` shows it, the chapter's printout style."""
    return repr(round(value, digits))


def py_list(values: Iterable[float], digits: int = 3) -> str:
    """A list exactly as ``print([round(v, 3) for v in values])`` shows it."""
    return "[" + ", ".join(py_round(v, digits) for v in values) + "]"


def format_value(value: float, spec: str | None, digits: int = 3) -> str:
    """``spec`` is a Python format spec (``.1%``); without one, the printout style."""
    if spec is None:
        return py_round(value, digits)
    return format(value, spec)
