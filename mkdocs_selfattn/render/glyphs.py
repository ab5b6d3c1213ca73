"""Which characters of a chart's text no chart font can draw, found without drawing.

``check`` draws no chart, yet a build fails on a missing glyph; the chart fonts' character maps
(the same files, in the same order, that the renderer hands matplotlib) answer the question in
milliseconds. The wording of the advice lives here too, so the build and ``check`` say the same
thing, and it names what works: the site option that adds a font file, or, when the bundled CJK
font's package is missing, that package (a system font would not be used).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from mkdocs_selfattn.render.chart_fonts import CJK_PACKAGE, ChartFont, cjk_font_installed


def missing_glyphs(texts: Iterable[str], fonts: Sequence[ChartFont]) -> list[str]:
    """Characters of ``texts`` none of the fonts covers, sorted (as the renderer lists them)."""
    from mkdocs_selfattn.render.font_registry import charmap

    covered: set[int] = set()
    for font in fonts:
        covered |= charmap(font)
    return sorted(
        {ch for text in texts for ch in text if not ch.isspace() and ord(ch) not in covered}
    )


def _is_cjk(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK ", "HANGUL ", "HIRAGANA ", "KATAKANA ", "BOPOMOFO "))


def glyph_message(missing: Sequence[str]) -> str:
    """The advice fits the characters: the bundled CJK font's package only helps with CJK text,
    and only when it is the one missing."""
    where = "the chart font has no glyph for " + " ".join(missing)
    if all(_is_cjk(ch) for ch in missing) and not cjk_font_installed():
        return where + f"; install the chart font's package: pip install {CJK_PACKAGE}"
    return where + (
        "; add a font file that has them to the 'chart_fonts' option "
        "(a .ttf, .otf or .ttc path, relative to the folder of mkdocs.yml)"
    )
