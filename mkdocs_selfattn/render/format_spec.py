"""Format specs written by authors (``.3f``, ``>8.1%``, ``"%5.1f"``), checked before anything is
formatted with them: ``format(0.5, ">200000000")`` allocates 200 MB at once, so the number in a
spec is checked first, by one rule for every place that takes one (the site option, a block's
``number_format:``, an inline value's ``:FORMAT``, and a printout template's ``format`` filter,
``%`` and ``str.format``).
"""

from __future__ import annotations

import re

MAX_FORMAT_WIDTH = 100
"""The largest width or precision a format spec may ask for: far above any column of a
printout or table, far below an allocation that hurts."""

_NUMBERS = re.compile(r"\d+")
_SAMPLES = (0.5, -1234.5678, 1e-300, 0.0)
_PERCENT = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?[-#0 +]*(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d*))?[hlL]?"
    r"(?P<type>.?)",
    re.S,
)


def width_problem(spec: str) -> str | None:
    """Why the widths and precisions of a format spec are refused, or None (the message
    follows the spec: "'>999' asks for more than …")."""
    for digits in _NUMBERS.findall(spec):
        if len(digits) > 3 or int(digits) > MAX_FORMAT_WIDTH:
            return (
                f"asks for more than {MAX_FORMAT_WIDTH} characters or digits; "
                "use one such as '.3f' or '.1%'"
            )
    return None


def number_spec_problem(spec: str) -> str | None:
    """Why ``spec`` cannot format the plugin's numbers (its width first, then a few samples),
    or None; as :func:`width_problem`, the message follows the spec."""
    problem = width_problem(spec)
    if problem is not None:
        return problem
    try:
        for sample in _SAMPLES:
            format(sample, spec)
    except (ValueError, TypeError) as exc:
        return f"is not a Python format spec for numbers ({exc})"
    return None


def percent_problem(template: str) -> str | None:
    """Why a printf-style string (``"%5.1f"``, the ``%`` operator and the ``format`` filter)
    is refused before it formats anything: a width or precision above the limit, or one taken
    from the arguments (``*``), which could be anything."""
    for match in _PERCENT.finditer(template):
        if match["type"] == "%" and match.end() - match.start() == 2:
            continue
        for part in (match["width"], match["precision"]):
            if part == "*":
                return (
                    f"{_shown(match[0])}: a width or precision taken from the arguments ('*') "
                    "is not allowed; write the number"
                )
            if part and (len(part) > 3 or int(part) > MAX_FORMAT_WIDTH):
                return (
                    f"{_shown(match[0])} asks for more than {MAX_FORMAT_WIDTH} characters or "
                    "digits; use one such as '%.3f'"
                )
    return None


def _shown(spec: str) -> str:
    return repr(spec if len(spec) <= 40 else spec[:37] + "…")
