"""Site-wide options, declared once (:data:`SITE_OPTIONS`), and their rules.

A bad value found mid-build is a traceback on some page (``number_format``) or a puzzling failure
far from its cause (``chart_width: 0`` inside matplotlib, ``script_timeout: -1`` as a timed-out
script). Each check here returns what is wrong and how to fix it, or None; the MkDocs adapter
(:mod:`mkdocs_selfattn.plugin_options`) and the Python-Markdown extension both use them, so the two
accept exactly the same values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mkdocs_selfattn.hidden_text import first_hidden, what_is_wrong
from mkdocs_selfattn.render.defaults import DEFAULT_COLORS, DEFAULT_FONTS

if TYPE_CHECKING:
    from mkdocs_selfattn.pipeline import Settings

MAX_CHART_INCHES = 100.0
"""Far beyond any page; larger sizes only make matplotlib slow or fail."""
MAX_WORKERS = 64
MAX_FORMAT_WIDTH = 100

_HEX_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
_SAMPLES = (0.5, -1234.5678, 1e-300, 0.0)
_SAME = object()


def number_format_problem(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        return f"expected a format spec as text (such as '.3f'), not {value!r}"
    if (at := first_hidden(value)) is not None:  # a fill character beside every number
        return what_is_wrong(value, at)
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
    if not value:
        # An empty list would quietly mean the defaults: say so instead of guessing.
        return (
            f"the list is empty; name at least one {one}, or leave the option out for the defaults"
        )
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


def _or_none(value: Any) -> Any:
    return value or None  # the extension's "" means the default, as MkDocs' None does


def _colors(value: Any) -> tuple[str, ...]:
    return tuple(value) or DEFAULT_COLORS


def _fonts(value: Any) -> tuple[str, ...]:
    return tuple(value) or DEFAULT_FONTS


@dataclass(frozen=True)
class SiteOption:
    """One site option: its default, what it is for, and its rule (a check or choices)."""

    name: str
    default: object
    doc: str
    check: Callable[[object], str | None] | None = None
    choices: tuple[str, ...] = ()
    kind: type | None = None
    """For an option without a check: the type MkDocs requires."""
    shapes_pages: bool = False
    """Part of every page memo's key: a change rebuilds the pages."""
    extension: bool = True
    """Offered by the Python-Markdown extension too."""
    extension_default: object = _SAME
    """Where the extension's default differs (Python-Markdown parses a None default as a bool)."""
    setting: Callable[[Any], Any] | None = None
    """Read by the pipeline as ``settings.NAME``, converted so; None: the adapter's alone."""

    def default_for_extension(self) -> object:
        return self.default if self.extension_default is _SAME else self.extension_default


SITE_OPTIONS: tuple[SiteOption, ...] = (
    SiteOption(
        "cache_dir",
        ".cache/selfattn",
        "Disk cache folder, relative to the folder of mkdocs.yml; empty for memory only. It must "
        "lie outside docs_dir and site_dir, or `mkdocs serve` would rebuild forever.",
        kind=str,
        extension_default="",
    ),
    SiteOption(
        "scripts",
        True,
        "Run each block's `script:` and check its output against the core (off: show the "
        "core's printout and say the script was not run).",
        kind=bool,
        shapes_pages=True,
        setting=bool,
    ),
    SiteOption(
        "script_timeout",
        30,
        "Seconds a script may run before it is stopped and the block fails.",
        check=script_timeout_problem,
        shapes_pages=True,
        extension_default=30.0,
        setting=float,
    ),
    SiteOption(
        "number_format",
        None,
        "Python format spec for numbers in tables, figures and charts (default: like round(x, 3)).",
        check=number_format_problem,
        shapes_pages=True,
        extension_default="",
        setting=_or_none,
    ),
    SiteOption(
        "chart_width",
        7.0,
        "Chart width in inches (the SVG scales to the page; this sets proportions and text size).",
        check=chart_size_problem,
        shapes_pages=True,
        setting=float,
    ),
    SiteOption(
        "chart_height",
        3.6,
        "Chart height in inches.",
        check=chart_size_problem,
        shapes_pages=True,
        setting=float,
    ),
    SiteOption(
        "chart_colors",
        list(DEFAULT_COLORS),
        "Bar colours, one per target; pick colours readable on light and dark backgrounds.",
        check=chart_colors_problem,
        shapes_pages=True,
        setting=_colors,
    ),
    SiteOption(
        "chart_fonts",
        list(DEFAULT_FONTS),
        "Font families tried in order for chart text; include one with CJK glyphs.",
        check=chart_fonts_problem,
        shapes_pages=True,
        setting=_fonts,
    ),
    SiteOption(
        "on_error",
        "warn",
        "warn: log (fails --strict) and show the error on the page; fail: stop the build at once.",
        choices=("warn", "fail"),
    ),
    SiteOption(
        "chart_workers",
        None,
        "Processes that compute and draw the examples the cache cannot answer while pages "
        "render (default: one fewer than the cores, 1 to 4); 0 does it all in the build process "
        "itself.",
        check=chart_workers_problem,
        extension=False,
    ),
    SiteOption(
        "mixed_candidates",
        False,
        "Allow the targets of a document to re-read different candidates (else a warning).",
        kind=bool,
        shapes_pages=True,
        extension=False,
        setting=bool,
    ),
    SiteOption(
        "mermaid_js",
        "bundled",
        "bundled: serve the mermaid 11 shipped with the plugin (works offline); cdn: leave "
        "mkdocs-material's CDN default; off: the site loads mermaid itself.",
        choices=("bundled", "cdn", "off"),
        extension=False,
    ),
)
"""Every site option, declared once: the MkDocs config (:mod:`plugin_options`), the extension's
config and the pipeline's :class:`~mkdocs_selfattn.pipeline.Settings` are derived from it."""

PIPELINE_OPTIONS: Mapping[str, SiteOption] = MappingProxyType(
    {option.name: option for option in SITE_OPTIONS if option.setting is not None}
)
"""The options :class:`~mkdocs_selfattn.pipeline.Settings` holds."""

PAGE_SHAPING = tuple(option.name for option in SITE_OPTIONS if option.shapes_pages)
"""Options in every page memo's key (the rest change no page's bytes)."""


def option_problems(values: dict[str, object]) -> list[str]:
    """``"option 'NAME': what is wrong"`` for every checked option present in ``values``."""
    found = []
    for option in SITE_OPTIONS:
        if option.check is not None and option.name in values:
            problem = option.check(values[option.name])
            if problem is not None:
                found.append(f"option '{option.name}': {problem}")
    return found


def pipeline_settings(
    values: Mapping[str, Any],
    *,
    draw_charts: bool = True,
    mermaid_fence: bool = True,
    mermaid: tuple[str, str] | None = ("pre", "mermaid"),
) -> Settings:
    """The pipeline's settings from checked option values (imported late: a warm build served
    from page memos never loads the pipeline)."""
    from mkdocs_selfattn.pipeline import Settings

    return Settings(
        draw_charts=draw_charts,
        mermaid_fence=mermaid_fence,
        mermaid=mermaid,
        **{name: values[name] for name in PIPELINE_OPTIONS if name in values},
    )
