"""Site-wide choices that change what views look like, as the pipeline and the views read them.

A module of its own, below the pipeline: a warm build served from page memos builds its settings
without importing the pipeline, and views name the type without importing the pipeline.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from mkdocs_selfattn.build.options import PIPELINE_OPTIONS
from mkdocs_selfattn.render.chart import ChartStyle
from mkdocs_selfattn.render.chart_fonts import chart_fonts


class Settings:
    """Site-wide choices that change what views look like (all part of cache keys): every site
    option whose row in :data:`~mkdocs_selfattn.build.options.SITE_OPTIONS` has a ``setting``, read
    as ``settings.NAME``, and what the adapter found out about the site."""

    def __init__(
        self,
        *,
        draw_charts: bool = True,
        mermaid_fence: bool = True,
        mermaid: tuple[str, str] | None = ("pre", "mermaid"),
        **options: Any,
    ) -> None:
        unknown = sorted(set(options) - set(PIPELINE_OPTIONS))
        if unknown:
            raise TypeError(f"not an option the pipeline reads: {', '.join(unknown)}")
        self.options: Mapping[str, Any] = MappingProxyType(
            {
                name: option.setting(options.get(name, option.default))
                for name, option in PIPELINE_OPTIONS.items()
                if option.setting is not None
            }
        )
        self.draw_charts = draw_charts
        """Off for ``mkdocs-selfattn check``: chart views are checked, but nothing is drawn."""
        self.mermaid_fence = mermaid_fence
        """Whether the site renders ``mermaid`` fences (MkDocs: a superfences custom fence)."""
        self.mermaid = mermaid
        """How the site's superfences writes a mermaid fence, (element, class), so the view can
        be that HTML (kept out of the search index); None: a formatter of its own, so a fence."""
        self.chart = ChartStyle(
            width=self.chart_width,
            height=self.chart_height,
            colors=self.chart_colors,
            fonts=chart_fonts(self.chart_fonts),
        )

    def __getattr__(self, name: str) -> Any:
        options = self.__dict__.get("options")
        if options is None or name not in options:
            raise AttributeError(name)
        return options[name]


def pipeline_settings(
    values: Mapping[str, Any],
    *,
    draw_charts: bool = True,
    mermaid_fence: bool = True,
    mermaid: tuple[str, str] | None = ("pre", "mermaid"),
) -> Settings:
    """The pipeline's settings from checked option values."""
    return Settings(
        draw_charts=draw_charts,
        mermaid_fence=mermaid_fence,
        mermaid=mermaid,
        **{name: values[name] for name in PIPELINE_OPTIONS if name in values},
    )
