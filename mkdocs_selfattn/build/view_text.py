"""The words and number format a view writes with: the plugin's words in the view's language (the
layout's own, then the site's ``glossary``), then the block's own ``text:``. Shared by the views
and by the layouts' table builders (build/layouts.py), below both."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from mkdocs_selfattn.render.words import READING, TABLE, words

if TYPE_CHECKING:
    from mkdocs_selfattn.blocks.spec import ViewOptions
    from mkdocs_selfattn.build.example import ViewContext


def number_format(pipeline: ViewContext, view: ViewOptions) -> str | None:
    return view.number_format or pipeline.settings.number_format


def view_text(
    pipeline: ViewContext,
    catalogue: Mapping[str, Mapping[str, str]],
    view: ViewOptions,
    layout: str | None = None,
) -> dict[str, str]:
    """A view's words: the plugin's in the view's language (the layout's own, then the site's
    ``glossary``), then the block's own ``text:``."""
    glossary = pipeline.settings.glossary
    return {**words(catalogue, view.language, layout, glossary), **view.text}


def table_text(pipeline: ViewContext, view: ViewOptions, layout: str) -> dict[str, str]:
    """The words of the tables every layout shares (the csv view's) and of the questions and
    heads tables: the targets tables' and the readings' own."""
    glossary = pipeline.settings.glossary
    return {
        **words(TABLE, view.language, layout, glossary),
        **words(READING, view.language, layout, glossary),
        **view.text,
    }
