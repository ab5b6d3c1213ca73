"""Chart defaults, apart from the chart code so that reading the plugin's configuration does not
import the renderer."""

from __future__ import annotations

DEFAULT_COLORS = ("#3b82f6", "#e0403a", "#1a9950", "#7c8493", "#8b5cf6", "#0f8f8f", "#b8650f")
"""The colour roles, in order: the main series (blue), a change or emphasis (red), an input change
(green), guides and references (grey: a baseline, "N others"), then further series (violet, teal,
ochre). Each is a mid-tone with at least 3:1 contrast on a white page and on Material's dark
slate (``#1e2129``). A site's ``chart_colors`` overrides them by position; roles it leaves out
keep these."""

ROLE_MAIN, ROLE_CHANGE, ROLE_INPUT, ROLE_GUIDE = 0, 1, 2, 3
"""Positions of the roles in :data:`DEFAULT_COLORS` and in a site's ``chart_colors``."""


def role_color(colors: tuple[str, ...], role: int) -> str:
    """The colour of ``role``: the site's, or the default one."""
    return colors[role] if role < len(colors) else DEFAULT_COLORS[role]


def series_colors(colors: tuple[str, ...]) -> tuple[str, ...]:
    """Colours of the series of a chart, in order: the main one, then the further series (never
    the change and input roles, which mean something)."""
    extra = colors[4:] if len(colors) > 4 else DEFAULT_COLORS[4:]
    return (role_color(colors, ROLE_MAIN), *extra)
