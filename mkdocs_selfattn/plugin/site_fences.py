"""How the site turns a ``mermaid`` fence into a diagram, read from its superfences settings."""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig


def has_mermaid_fence(config: MkDocsConfig) -> bool:
    """Whether ``mermaid`` fences become diagrams; only blocks showing the view need it."""
    fences = (config.mdx_configs.get("pymdownx.superfences") or {}).get("custom_fences") or []
    has_superfences = "pymdownx.superfences" in config.markdown_extensions
    return has_superfences and any(
        isinstance(f, dict) and f.get("name") == "mermaid" for f in fences
    )


def mermaid_format(config: MkDocsConfig) -> tuple[str, str] | None:
    """The site's mermaid fence as (element, class) when superfences' own formatter writes it,
    None for a formatter of the site's own or no mermaid fence (see has_mermaid_fence)."""
    fences = (config.mdx_configs.get("pymdownx.superfences") or {}).get("custom_fences") or []
    has_superfences = "pymdownx.superfences" in config.markdown_extensions
    mermaid = [f for f in fences if isinstance(f, dict) and f.get("name") == "mermaid"]
    if has_superfences and mermaid:
        fence = mermaid[-1]
        formatter = fence.get("format")
        element = None
        if getattr(formatter, "__module__", "") == "pymdownx.superfences":
            names = {"fence_code_format": "pre", "fence_div_format": "div"}
            element = names.get(getattr(formatter, "__name__", ""))
        class_name = fence.get("class")
        if element is None or not isinstance(class_name, str) or not class_name:
            return None
        return element, class_name
    return None
