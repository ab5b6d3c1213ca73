"""The font files a chart's text is laid out with, and what identifies them in a cache key.

Charts are measured with these files and nothing else: matplotlib's own DejaVu Sans for Latin, the
Noto Sans CJK SC of the ``noto-cjk-sans-otc`` package (a dependency, so a pip-only install has it)
for Chinese, Korean and Japanese, then the site's ``chart_fonts`` files, in that order, character
by character. Never a font the machine happens to have: the same input gives the same SVG bytes on
every machine, and a font installed or removed later changes nothing.

No matplotlib here: the adapters take the fonts' identities for cache keys on builds that draw
nothing. An identity names what decides the metrics and is the same on every machine (a package
and its version, or a file's SHA-256), never a path or a date, so a cache restored on another
machine (a CI runner) still answers.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

CJK_PACKAGE = "noto-cjk-sans-otc"
"""The PyPI package of the bundled CJK font (SIL Open Font License 1.1)."""
CJK_FAMILY = "Noto Sans CJK SC"
"""The face of the package's collection charts use (every face covers the same characters)."""
_CJK_MODULE = "noto_cjk_sans_otc"
_CJK_FILE = "NotoSansCJK-Regular.ttc"
_LATIN_FILE = ("mpl-data", "fonts", "ttf", "DejaVuSans.ttf")
FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc")
_FONT_MAGIC = (b"\x00\x01\x00\x00", b"OTTO", b"ttcf", b"true")
"""How TrueType, OpenType (CFF) and collection files begin."""


class FontFileError(ValueError):
    """A ``chart_fonts`` file that is missing or is not a font (the message says which)."""


@dataclass(frozen=True)
class ChartFont:
    """One font file of a chart's fallback list."""

    path: str
    """Where it is on this machine (never part of a key)."""
    identity: str
    """What decides its metrics, the same on every machine."""
    family: str | None = None
    """The face of a collection, by family name; None: the file's first face."""

    def key(self) -> list[str | None]:
        return [self.identity, self.family]


def chart_fonts(site_files: Sequence[str] = ()) -> tuple[ChartFont, ...]:
    """The bundled fonts, then the site's files (absolute paths), in fallback order."""
    return bundled_fonts() + tuple(ChartFont(p, "sha256:" + _digest(p)) for p in site_files)


def font_keys(fonts: Sequence[ChartFont]) -> list[list[str | None]]:
    """The part of a chart's (and a page memo's) key that the fonts decide."""
    return [font.key() for font in fonts]


def bundled_fonts() -> tuple[ChartFont, ...]:
    """DejaVu Sans from matplotlib's own data, and the CJK package's face, if installed
    (without it, CJK text lacks glyphs and the warning says to install it). A missing package
    is looked for again on the next call: under `mkdocs serve`, installing it meanwhile counts."""
    fonts = _found_fonts()
    if not any(font.family == CJK_FAMILY for font in fonts):
        _found_fonts.cache_clear()
        fonts = _found_fonts()
    return fonts


@lru_cache(maxsize=1)
def _found_fonts() -> tuple[ChartFont, ...]:
    fonts = []
    matplotlib = _package_folder("matplotlib")
    if matplotlib is not None:
        fonts.append(
            ChartFont(
                str(matplotlib.joinpath(*_LATIN_FILE)),
                f"matplotlib {installed_version('matplotlib')} DejaVuSans.ttf",
                "DejaVu Sans",
            )
        )
    cjk = _package_folder(_CJK_MODULE)
    if cjk is not None and (cjk / _CJK_FILE).is_file():
        identity = f"{CJK_PACKAGE} {installed_version(CJK_PACKAGE)} {_CJK_FILE}"
        fonts.append(ChartFont(str(cjk / _CJK_FILE), identity, CJK_FAMILY))
    return tuple(fonts)


def cjk_font_installed() -> bool:
    return any(font.family == CJK_FAMILY for font in bundled_fonts())


def _package_folder(module: str) -> Path | None:
    """A package's folder, found without importing it (importing matplotlib costs 0.1 s)."""
    spec = find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@lru_cache(maxsize=8)
def installed_version(distribution: str) -> str:
    """An installed distribution's version. Only the Version line of its metadata is read:
    parsing the whole file as an e-mail message (``importlib.metadata.version``) took 10 ms."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import distribution as find

    try:
        text = find(distribution).read_text("METADATA") or ""
    except PackageNotFoundError:
        text = ""
    found = re.search(r"^Version:[ \t]*(\S+)", text, re.MULTILINE)
    return found.group(1) if found else "none"


_DIGESTS: dict[tuple[str, int, int], str] = {}
"""A site font's SHA-256 by path, size and modification time: hashed once a process, not once
a build (``mkdocs serve``)."""


def _digest(path: str) -> str:
    stat = os.stat(path)
    known = (path, stat.st_size, stat.st_mtime_ns)
    if known not in _DIGESTS:
        with open(path, "rb") as file:
            _DIGESTS[known] = hashlib.file_digest(file, "sha256").hexdigest()
    return _DIGESTS[known]


def chart_fonts_problem(value: object) -> str | None:
    """The option's value, before any file is looked at: a list of font file names."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        return f"expected a list of font files, not {value!r}"
    for position, item in enumerate(value, start=1):
        if not isinstance(item, str) or not item.strip():
            return f"item {position} is {item!r}; every item must be a font file's path"
        if not item.lower().endswith(FONT_SUFFIXES):
            return (
                f"item {position} is {item!r}, not a font file; charts use only font files, "
                "the same on every machine: list a .ttf, .otf or .ttc file, relative to the "
                "folder of mkdocs.yml (Latin, Chinese, Korean and Japanese need none)"
            )
    return None


def resolve_font_files(values: Sequence[str], root: Path) -> list[str]:
    """The site's font files as absolute paths, each checked to be a font; raises
    :class:`FontFileError` naming the first that is not."""
    found = []
    for value in values:
        path = (root / value).resolve()
        if path.exists() and not path.is_file():  # a FIFO would block the read below
            raise FontFileError(f"chart_fonts: {value!r} is not a regular file ({path})")
        try:
            with open(path, "rb") as file:
                head = file.read(4)
        except OSError as exc:
            reason = "not found" if isinstance(exc, FileNotFoundError) else exc.strerror
            raise FontFileError(
                f"chart_fonts: {value!r} cannot be read ({reason}, looked for {path})"
            ) from None
        if head not in _FONT_MAGIC:
            raise FontFileError(
                f"chart_fonts: {value!r} is not a TrueType or OpenType font file ({path})"
            )
        found.append(str(path))
    return found
