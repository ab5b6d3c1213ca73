"""The plugin's side of multilingual sites: what language a page is in, and mkdocs-static-i18n.

mkdocs-static-i18n builds the site once per language on the same configuration object: it calls
every plugin's ``on_config`` again for each language (so anything appended to the configuration
must be appended once), rewrites the file list in its own ``on_files`` (so the plugin's look-ahead
must read that list, not docs_dir, to see a page as it will be built) and marks each file with the
``locale`` of its content.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File

from mkdocs_selfattn.blocks.language_code import is_language_code

META_KEY = "selfattn_language"
"""Front matter that sets one page's language (a page whose prose is not in the site's)."""


def uses_i18n(config: MkDocsConfig) -> bool:
    return "i18n" in config.plugins


def last_pass(config: MkDocsConfig) -> bool:
    """Whether this pass over the site is the build's last. mkdocs-static-i18n builds the other
    languages from its own ``on_post_build``, after the first pass's plugins ended theirs, one
    pass each in the order of its ``build_languages`` (skipping the first pass's language only
    when it comes first), with ``building`` set meanwhile."""
    i18n: Any = config.plugins.get("i18n")
    languages = getattr(i18n, "build_languages", None)
    current = getattr(i18n, "current_language", None)
    if not isinstance(languages, list) or not languages or current is None:
        return True
    if not getattr(i18n, "building", False):  # the first pass: the others come after it
        return all(language == current for language in languages)
    return bool(current == languages[-1])


def page_language(file: File, meta: Mapping[str, Any], config: MkDocsConfig) -> str | None:
    """The page's front matter, else the locale mkdocs-static-i18n gave its file (the language
    of its content: a page that falls back to the default language is in that language), else
    the theme's language."""
    own = meta.get(META_KEY)
    if is_language_code(own):  # a wrong value is reported by the plugin, then ignored
        return str(own).strip()
    locale = getattr(file, "locale", None)
    if isinstance(locale, str) and locale and locale != "null":
        return locale
    theme = config.theme
    for key in ("language", "locale"):
        value = theme.get(key) if key in theme else None
        if value:
            return str(value)
    return None
