"""What a page's blocks will need, found before MkDocs renders any page (the look-ahead)."""

from __future__ import annotations

from mkdocs_selfattn.blocks.languages import localize_view
from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.shared import block_definition
from mkdocs_selfattn.blocks.spec import BlockSpec, ViewOptions, parse_block
from mkdocs_selfattn.build.example import Resolver
from mkdocs_selfattn.build.pipeline import Pipeline
from mkdocs_selfattn.build.views import figure_names
from mkdocs_selfattn.errors import BlockError, SelfAttnError


def prefetch_page(
    text: str, *, pipeline: Pipeline, resolver: Resolver, language: str | None = None
) -> None:
    """Queue this page's uncached work with the pipeline, before MkDocs renders any page.

    Best effort: a block that does not parse or resolve is skipped here, and reported when the
    page itself is expanded.
    """
    specs: list[BlockSpec] = []
    for raw in find_blocks(text):
        try:
            specs.append(parse_block(raw))
        except BlockError:
            continue
    charts: dict[str, list[ViewOptions]] = {}
    for spec in specs:
        if spec.use is not None and spec.source is None and figure_names(spec.view):
            charts.setdefault(spec.use, []).append(localize_view(spec.view, language))
    for spec in specs:
        try:
            found = block_definition(spec, resolver, language)
            if found is None:
                continue
            example = found[0]
            view = localize_view(spec.view, language)
            views = [view] if figure_names(view) else []
            if example.id is not None:
                views += charts.pop(example.id, [])
            pipeline.prefetch(example, views, resolver)
        except SelfAttnError:
            continue
