"""The chart fonts (:mod:`mkdocs_selfattn.render.chart_fonts`) made known to matplotlib by path.

Matplotlib finds a family by name among every font it scanned on the machine (and cached in
MPLCONFIGDIR/fontlist-*.json, which misses fonts installed after its first run). Asking it for
"Noto Sans CJK SC" would take the system's copy when there is one, and nothing when there is none.
So each chart font is added to matplotlib's font list under a name of its own, made from its
identity, and charts ask for those names only: the files are the ones measured, whatever the
machine has. The SVG then names the fonts' real families, for the browser, which draws the page's
own fonts (``svg.fonttype: none`` keeps text as text).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from mkdocs_selfattn.render.chart_fonts import ChartFont


def registered_families(fonts: Sequence[ChartFont]) -> list[str]:
    """The names to give ``font.family``, each font added to matplotlib's list if it is not
    there (checked every time: matplotlib rebuilds its list in place when it finds a cached font
    file gone, which would drop ours)."""
    from matplotlib import font_manager

    manager = font_manager.fontManager
    known = {entry.name for entry in manager.ttflist}
    names = []
    for font in fonts:
        name = private_name(font)
        if name not in known:
            index, _ = face_of(font)
            entry = font_manager.ttfFontProperty(_face(font.path, index))
            manager.ttflist.append(dataclasses.replace(entry, name=name))
            known.add(name)
        names.append(name)
    return names


@lru_cache(maxsize=32)
def private_name(font: ChartFont) -> str:
    """The same on every machine (it is in the SVG matplotlib writes, which is hashed for the
    chart's ids, before :func:`css_font_family` replaces it)."""
    digest = hashlib.sha256(json.dumps(font.key()).encode()).hexdigest()
    return f"selfattn {digest[:16]}"


def css_font_family(svg: str, fonts: Sequence[ChartFont]) -> str:
    """The SVG with the fonts' real families where matplotlib wrote the private names."""
    private = ", ".join(repr(private_name(font)) for font in fonts)
    real = ", ".join(dict.fromkeys(repr(face_of(font)[1]) for font in fonts))
    return svg.replace(f"font-family: {private}", f"font-family: {real}")


@lru_cache(maxsize=32)
def face_of(font: ChartFont) -> tuple[int, str]:
    """The face of the file to use (its index and family): the one named ``font.family`` in a
    collection, else the first. Matplotlib before 3.11 reads a collection's first face only
    (Noto Sans CJK JP: the same characters, the same advances)."""
    from matplotlib import font_manager

    first = _face(font.path, 0)
    faces = first.num_faces if "index" in font_manager.FontEntry.__dataclass_fields__ else 1
    if font.family is not None and first.family_name != font.family:
        for index in range(1, faces):
            if _face(font.path, index).family_name == font.family:
                return index, font.family
    return 0, str(first.family_name)


def _face(path: str, index: int) -> Any:
    from matplotlib.ft2font import FT2Font

    return FT2Font(path, face_index=index) if index else FT2Font(path)


@lru_cache(maxsize=32)
def charmap(font: ChartFont) -> frozenset[int]:
    """The code points the font's face has a glyph for."""
    return frozenset(_face(font.path, face_of(font)[0]).get_charmap())
