"""Site-wide options, declared once (:data:`SITE_OPTIONS`), and their rules.

A bad value found mid-build is a traceback on some page (``number_format``) or a puzzling failure
far from its cause (``chart_width: 0`` inside matplotlib, ``script_timeout: -1`` as a timed-out
script). Each check here returns what is wrong and how to fix it, or None; the MkDocs adapter
(:mod:`mkdocs_selfattn.plugin.config`) and the Python-Markdown extension both use them, so the two
accept exactly the same values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from mkdocs_selfattn.blocks.language_code import is_language_code
from mkdocs_selfattn.core.hidden_text import first_hidden, what_is_wrong
from mkdocs_selfattn.render.chart_fonts import chart_fonts_problem
from mkdocs_selfattn.render.defaults import DEFAULT_COLORS
from mkdocs_selfattn.render.format_spec import number_spec_problem

MAX_CHART_INCHES = 100.0
"""Far beyond any page; larger sizes only make matplotlib slow or fail."""
MAX_WORKERS = 64
DEFAULT_TRY_VALUES = 10_000
"""Editable values one try view holds by default (render/try_limit.py): a page of at most
about 2.5 MB."""

_HEX_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
_SAME = object()


def number_format_problem(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        return f"expected a format spec as text (such as '.3f'), not {value!r}"
    if (at := first_hidden(value)) is not None:  # a fill character beside every number
        return what_is_wrong(value, at)
    problem = number_spec_problem(value)
    if problem is None:
        return None
    if problem.endswith(")"):  # not a spec at all: say what the default is
        problem += "; use one such as '.3f' or '.1%', or remove the option for round(x, 3)"
    return f"{value!r} {problem}"


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def chart_size_problem(value: object) -> str | None:
    if value is None or value == "":  # the book's size (see BOOK_INCHES)
        return None
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


def try_values_problem(value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return f"expected a whole number of values, 1 or more (such as 5000), not {value!r}"
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


def figure_language_problem(value: object) -> str | None:
    if value == "page" or is_language_code(value):
        return None
    return (
        f"expected 'page' (figures in each page's language) or a language code such as 'en', "
        f"not {value!r}"
    )


def glossary_problem(value: object) -> str | None:
    """One message for the first wrong entry of ``glossary``, naming it as mkdocs.yml spells it."""
    from mkdocs_selfattn.blocks.spec_values import TEXT_KEYS
    from mkdocs_selfattn.errors import closest

    if not isinstance(value, Mapping):
        return f"expected a mapping of language code → {{word key: text}}, not {value!r}"
    for language, entry in value.items():
        where = f"glossary → {language}"
        if not is_language_code(language):
            return (
                f"in mkdocs.yml, {where}: {language!r} is not a language code; write one such "
                "as 'en', 'ko' or 'zh-Hans'"
            )
        if not isinstance(entry, Mapping):
            return f"in mkdocs.yml, {where}: expected a mapping of word key → text, not {entry!r}"
        for key, text in entry.items():
            if key not in TEXT_KEYS:
                match = closest(str(key), TEXT_KEYS)
                hint = f"did you mean '{match}'?" if match else f"keys: {', '.join(TEXT_KEYS)}"
                return f"in mkdocs.yml, {where} → {key}: unknown word key; {hint}"
            if not isinstance(text, str) or not text.strip():
                return f"in mkdocs.yml, {where} → {key}: expected a non-empty text, not {text!r}"
            if (at := first_hidden(text)) is not None:
                return f"in mkdocs.yml, {where} → {key}: {what_is_wrong(text, at)}"
    return None


def _glossary(value: Any) -> Mapping[str, Mapping[str, str]]:
    entries = value or {}
    return MappingProxyType(
        {code: MappingProxyType(dict(words)) for code, words in entries.items()}
    )


def _or_none(value: Any) -> Any:
    return value or None  # the extension's "" means the default, as MkDocs' None does


BOOK_INCHES = (760 / 72, 430 / 72)
"""The book's one-concept figure, 760 × 430 SVG units (72 an inch): the chart size by default."""


def _width(value: Any) -> float:
    return BOOK_INCHES[0] if value is None or value == "" else float(value)


def _height(value: Any) -> float:
    return BOOK_INCHES[1] if value is None or value == "" else float(value)


def _colors(value: Any) -> tuple[str, ...]:
    return tuple(value) or DEFAULT_COLORS


def _fonts(value: Any) -> tuple[str, ...]:
    return tuple(value)


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
        None,
        "Wide chart width in inches (default: the book's 760 units, 760/72 in; the SVG scales "
        "to the page, so this sets proportions and text size).",
        check=chart_size_problem,
        shapes_pages=True,
        extension_default="",
        setting=_width,
    ),
    SiteOption(
        "chart_height",
        None,
        "Wide chart height in inches (default: the book's 430 units, 430/72 in).",
        check=chart_size_problem,
        shapes_pages=True,
        extension_default="",
        setting=_height,
    ),
    SiteOption(
        "chart_colors",
        list(DEFAULT_COLORS),
        "Role colours: main series, change, input change, guide, then further series; pick "
        "colours readable on light and dark backgrounds. The try view's live chart takes the "
        "first four roles.",
        check=chart_colors_problem,
        shapes_pages=True,
        setting=_colors,
    ),
    SiteOption(
        "chart_fonts",
        [],
        "Font files (.ttf, .otf, .ttc; relative to the folder of mkdocs.yml) for characters the "
        "bundled chart fonts lack (DejaVu Sans, Noto Sans CJK SC: Latin, Chinese, Korean, "
        "Japanese), tried after them in order. Charts use no other font, so they are the same "
        "on every machine.",
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
    SiteOption(
        "try_values",
        DEFAULT_TRY_VALUES,
        "Most editable values (scores or given weights) one `try` view holds on a page; a larger "
        "example shows its first sections that fit, with a notice, and the build warns.",
        check=try_values_problem,
        shapes_pages=True,
        setting=int,
    ),
    SiteOption(
        "figure_language",
        "page",
        "Language of the text drawn inside charts and mermaid diagrams (words and labels): "
        "page (each page's own) or a language code such as en. Their <title>, <desc>, "
        "accessible names and captions stay in the page's language.",
        check=figure_language_problem,
        shapes_pages=True,
        setting=str,
    ),
    SiteOption(
        "glossary",
        {},
        "Per language, words that replace the plugin's own (word key → text, the keys of a "
        "block's text:), site-wide, such as {ko: {context: 문맥}}; a block's text: still wins.",
        check=glossary_problem,
        shapes_pages=True,
        setting=_glossary,
    ),
)
"""Every site option, declared once: the MkDocs config (:mod:`plugin_options`), the extension's
config and the pipeline's :class:`~mkdocs_selfattn.build.settings.Settings` are derived from it."""

PIPELINE_OPTIONS: Mapping[str, SiteOption] = MappingProxyType(
    {option.name: option for option in SITE_OPTIONS if option.setting is not None}
)
"""The options :class:`~mkdocs_selfattn.build.settings.Settings` holds."""

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
