"""MkDocs config options that apply the rules of :mod:`mkdocs_selfattn.options`.

MkDocs reports a ``ValidationError`` raised here as ``Config value 'plugins': Plugin 'selfattn'
option 'NAME': …`` and stops before building anything, which is where a bad value belongs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mkdocs.config.base import BaseConfigOption, ValidationError


class Checked(BaseConfigOption[Any]):
    """An option whose value must pass ``check`` (a function returning a problem or None)."""

    def __init__(self, check: Callable[[object], str | None], default: Any = None) -> None:
        super().__init__()
        self.check = check
        self.default = default

    def validate(self, value: object, /) -> Any:
        # MkDocs passes None for an option the user did not set.
        return self.run_validation(self.default if value is None else value)

    def run_validation(self, value: object, /) -> Any:
        problem = self.check(value)
        if problem is not None:
            raise ValidationError(problem)
        return value
