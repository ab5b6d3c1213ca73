"""Display labels and number formats shared by every view."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs_selfattn.results import DocumentResult


@dataclass(frozen=True)
class Labels:
    """How tokens read on the page: CSV tokens stay data, labels are what readers see.

    A token that occurs at several positions ("the animal … the road") is shown with its position
    (``the@5``), so readers can tell the candidates apart.
    """

    display: Mapping[str, str] = field(default_factory=dict)
    repeated: frozenset[str] = frozenset()

    def __call__(self, token: str, index: int | None = None) -> str:
        shown = self.display.get(token, token)
        return f"{shown}@{index}" if index is not None and token in self.repeated else shown

    def raw(self, token: str, index: int | None = None) -> str:
        """The CSV token, with its position when the token repeats."""
        return f"{token}@{index}" if index is not None and token in self.repeated else token

    def for_result(self, result: DocumentResult) -> Labels:
        """These labels, knowing which tokens of ``result`` occur at more than one position."""
        positions: dict[str, set[int]] = {}
        for target in result.targets:
            if target.target_index is not None:
                positions.setdefault(target.target, set()).add(target.target_index)
            for cand in target.candidates:
                if cand.index is not None:
                    positions.setdefault(cand.token, set()).add(cand.index)
        repeated = frozenset(token for token, seen in positions.items() if len(seen) > 1)
        return replace(self, repeated=repeated)


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
