"""What counts as a language code (``en``, ``ko``, ``zh-Hans``): a module of its own so the page
entry point can ask without importing the label machinery on every warm build."""

from __future__ import annotations

import re

_LANGUAGE_CODE = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$")


def is_language_code(value: object) -> bool:
    return isinstance(value, str) and _LANGUAGE_CODE.match(value.strip()) is not None
