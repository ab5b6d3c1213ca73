"""What every inline value being answered shares, whatever its example's layout: where it is,
its ``:FORMAT``, and how it fails (one message at its line)."""

from __future__ import annotations

from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.render.labels import format_value


class Answer:
    """One inline value being answered; layouts add how their quantities are looked up."""

    def __init__(self, where: str, line: int, spec: str | None) -> None:
        self.where, self.line, self.spec = where, line, spec

    def fail(self, message: str) -> BlockError:
        return BlockError(f"{self.where}: {message}", line=self.line)

    def number(self, value: float) -> str:
        try:
            return format_value(value, self.spec)
        except (ValueError, TypeError) as exc:
            raise self.fail(f"format ':{self.spec}' does not apply to {value!r} ({exc})") from None
