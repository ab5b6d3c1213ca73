"""One example definition, many languages: pick a page's labels, words and title.

A block may key ``display``, ``text`` and ``title`` by language code
(``display: {ko: {…}, en: {…}}``).
For a page in language L the entry for L is used, else the one for L's primary subtag (``zh`` for
``zh-Hans``); a language with no entry gets the documented defaults: tokens as in the CSV, the
plugin's own words in L (English where L has none), and the default chart title.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Protocol, TypeVar

from mkdocs_selfattn.blocks.block_yaml import kind, preview
from mkdocs_selfattn.blocks.language_code import is_language_code
from mkdocs_selfattn.blocks.spec import ExampleSpec, ViewOptions
from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.render.words import primary


class _File(Protocol):
    @property
    def path(self) -> Path: ...


F = TypeVar("F", bound=_File, covariant=True)


class _Resolves(Protocol[F]):
    def resolve(self, raw: str, key: str, line: int) -> F: ...


T = TypeVar("T")

"""A BCP 47 style code as sites write them: ``en``, ``zh-Hans``, ``pt_BR``, ``zh-Hant-TW``."""


def language_problem(value: object, key: str = "selfattn_language") -> str | None:
    """Why a page's ``key`` front matter is not a language code, or None when it is one.

    A wrong value would quietly give the page English words and the default labels; the
    adapter logs this (naming the page and the front matter) and then ignores the value.
    """
    if is_language_code(value):
        return None
    if isinstance(value, str) or value is None:
        shown = repr(value) if value is not None else "nothing"
    else:
        shown = f"{kind(value)} {preview(value)}"
    return (
        f"front matter '{key}': {shown} is not a language code; write one such as "
        f"'en', 'ko' or 'zh-Hans' (until then the page is in the site's language)"
    )


def pick(by_language: Mapping[str, T], language: str | None) -> T | None:
    """The entry for ``language``, else for its primary subtag, else nothing."""
    if not by_language or not language:
        return None
    if language in by_language:
        return by_language[language]
    wanted = primary(language)
    for code, value in by_language.items():
        if primary(code) == wanted:
            return value
    return None


def localize_spec(spec: ExampleSpec, language: str | None) -> ExampleSpec:
    """The example as a page in ``language`` shows it (its data is the same in every language)."""
    if not spec.display_by_language:
        return spec
    display = pick(spec.display_by_language, language) or {}
    return replace(spec, display=MappingProxyType(dict(display)))


def localize_view(view: ViewOptions, language: str | None) -> ViewOptions:
    text = view.text
    if view.text_by_language:
        text = MappingProxyType(dict(pick(view.text_by_language, language) or {}))
    title = view.title
    if view.title_by_language:
        title = pick(view.title_by_language, language)
    caption = view.caption
    if view.caption_by_language:
        caption = pick(view.caption_by_language, language)
    return replace(view, text=text, title=title, caption=caption, language=language)


def localized_script(spec: ExampleSpec, resolver: _Resolves[F], language: str | None) -> F:
    """``script.LANG.py`` beside ``script.py`` for a page in LANG (or its primary subtag), as
    mkdocs-static-i18n localises files; else the script itself, which gets the language in
    ``SELFATTN_LANG``."""
    assert spec.script is not None
    return localized_file(spec.script, "script", spec.line_of("script"), resolver, language)


def localized_file(
    raw: str, key: str, line: int, resolver: _Resolves[F], language: str | None
) -> F:
    """``NAME.LANG.EXT`` beside ``NAME.EXT`` for a page in LANG (or its primary subtag), else
    the file itself: the page computes from the file that mkdocs-static-i18n publishes (and so
    links) for its language."""
    base = resolver.resolve(raw, key, line)
    if not language:
        return base
    head, dot, suffix = raw.rpartition(".")
    if not dot or "/" in suffix:
        head, suffix = raw, ""
    for code in dict.fromkeys((language, primary(language))):
        name = f"{head}.{code}" + (f".{suffix}" if suffix else "")
        try:
            candidate = resolver.resolve(name, key, line)
        except BlockError:
            continue
        if candidate.path.is_file():
            return candidate
    return base
