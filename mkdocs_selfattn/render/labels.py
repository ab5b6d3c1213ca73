"""Display labels and number formats shared by every view."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Labels:
    """How tokens read on the page: CSV tokens stay data, labels are what readers see."""

    display: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, token: str) -> str:
        return self.display.get(token, token)


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
