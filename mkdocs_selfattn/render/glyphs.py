"""Which characters of a chart's text no chart font can draw, found without drawing.

``check`` draws no chart, yet a build fails on a missing glyph; the fonts' character maps
(the same families, in the same order, that the renderer hands matplotlib, plus matplotlib's own
fallback) answer the question in milliseconds. The wording of the advice lives here too, so the
build and ``check`` say the same thing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache


def missing_glyphs(texts: Iterable[str], families: Sequence[str]) -> list[str]:
    """Characters of ``texts`` none of the fonts covers, sorted (as the renderer lists them)."""
    from matplotlib import font_manager

    from mkdocs_selfattn.render.chart import installed_families

    covered: set[int] = set()
    for family in [*installed_families(families), "DejaVu Sans"]:
        path = font_manager.findfont(
            font_manager.FontProperties(family=family), fallback_to_default=True
        )
        covered |= _charmap(path)
    return sorted(
        {ch for text in texts for ch in text if not ch.isspace() and ord(ch) not in covered}
    )


@lru_cache(maxsize=16)
def _charmap(path: str) -> frozenset[int]:
    from matplotlib.ft2font import FT2Font

    return frozenset(FT2Font(path).get_charmap())


def _is_cjk(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK ", "HANGUL ", "HIRAGANA ", "KATAKANA ", "BOPOMOFO "))


def glyph_message(missing: Sequence[str]) -> str:
    """The advice fits the characters: a CJK font only helps with CJK text."""
    where = "the chart font has no glyph for " + " ".join(missing)
    if all(_is_cjk(ch) for ch in missing):
        return where + "; install a CJK font (Debian: fonts-noto-cjk) or list one in 'chart_fonts'"
    return where + "; install a font that has them or list one that has them in 'chart_fonts'"
