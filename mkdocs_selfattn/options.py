"""The rules for site-wide options, checked once when the configuration loads.

A bad value found mid-build is a traceback on some page (``number_format``) or a puzzling failure
far from its cause (``chart_width: 0`` inside matplotlib, ``script_timeout: -1`` as a timed-out
script). Each check here returns what is wrong and how to fix it, or None; the MkDocs adapter
(:mod:`mkdocs_selfattn.plugin_options`) and the Python-Markdown extension both use them, so the two
accept exactly the same values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

MAX_CHART_INCHES = 100.0
"""Far beyond any page; larger sizes only make matplotlib slow or fail."""
MAX_WORKERS = 64
MAX_FORMAT_WIDTH = 100

_HEX_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
_SAMPLES = (0.5, -1234.5678, 1e-300, 0.0)


def number_format_problem(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        return f"expected a format spec as text (such as '.3f'), not {value!r}"
    # Checked before formatting anything: '.1000000000f' would build a gigabyte string.
    if any(int(digits) > MAX_FORMAT_WIDTH for digits in re.findall(r"\d+", value)):
        return (
            f"{value!r} asks for more than {MAX_FORMAT_WIDTH} characters or digits; "
            "use one such as '.3f' or '.1%'"
        )
    try:
        for sample in _SAMPLES:
            format(sample, value)
    except (ValueError, TypeError) as exc:
        return (
            f"{value!r} is not a Python format spec for numbers ({exc}); "
            "use one such as '.3f' or '.1%', or remove the option for round(x, 3)"
        )
    return None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def chart_size_problem(value: object) -> str | None:
    number = _number(value)
    if number is None or not math.isfinite(number) or not 0 < number <= MAX_CHART_INCHES:
        return (
            f"expected a size in inches greater than 0 and at most {MAX_CHART_INCHES:g}, "
            f"not {value!r}"
        )
    return None


def script_timeout_problem(value: object) -> str | None:
    number = _number(value)
    if number is None or not math.isfinite(number) or number <= 0:
        return f"expected a number of seconds greater than 0 (such as 30), not {value!r}"
    return None


def chart_workers_problem(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_WORKERS:
        return (
            f"expected a whole number from 0 (no worker processes) to {MAX_WORKERS}, or null "
            f"for the default, not {value!r}"
        )
    return None


def _text_list_problem(
    value: object, what: str, one: str, check: Callable[[str], str | None]
) -> str | None:
    if not isinstance(value, Sequence) or isinstance(value, str):
        return f"expected a list of {what}, not {value!r}"
    for position, item in enumerate(value, start=1):
        if not isinstance(item, str) or not item.strip():
            return f"item {position} is {item!r}; every item must be a non-empty {one} name"
        problem = check(item)
        if problem is not None:
            return f"item {position}: {problem}"
    return None


def _color_problem(color: str) -> str | None:
    if color.startswith("#"):
        if not _HEX_COLOR.match(color):
            return f"{color!r} is not a hex colour; write #rgb, #rrggbb or #rrggbbaa"
        return None
    # Only a named colour costs the matplotlib import (a tenth of a second on a warm build
    # that would otherwise not load it); hex colours, the usual choice, are checked above.
    from matplotlib.colors import is_color_like

    if not is_color_like(color):
        return (
            f"{color!r} is not a colour matplotlib knows; use a hex colour such as '#2563eb' "
            "or a name such as 'tab:blue'"
        )
    return None


def chart_colors_problem(value: object) -> str | None:
    return _text_list_problem(value, "colours", "colour", _color_problem)


def chart_fonts_problem(value: object) -> str | None:
    return _text_list_problem(value, "font families", "font family", lambda font: None)


CHECKS: dict[str, Callable[[object], str | None]] = {
    "number_format": number_format_problem,
    "chart_width": chart_size_problem,
    "chart_height": chart_size_problem,
    "script_timeout": script_timeout_problem,
    "chart_workers": chart_workers_problem,
    "chart_colors": chart_colors_problem,
    "chart_fonts": chart_fonts_problem,
}
"""Option name → its check, for adapters that validate a plain mapping (the extension)."""


def option_problems(values: dict[str, object]) -> list[str]:
    """``"option 'NAME': what is wrong"`` for every checked option present in ``values``."""
    found = []
    for name, check in CHECKS.items():
        if name in values:
            problem = check(values[name])
            if problem is not None:
                found.append(f"option '{name}': {problem}")
    return found
