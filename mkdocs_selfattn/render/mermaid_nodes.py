"""What every mermaid graph of the plugin shares: node sizes, the classes of its boxes, and how a
node's lines and long lists are written. Below both graph builders, so neither imports the other."""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.render.escape import mermaid_label

NODE_WIDTH = 32
"""Widest token a node shows, in columns (a CJK character is two); longer ones end in "…"."""

TOP_LIMIT = 20
"""Most lines a weights node lists, whatever ``top:`` asks."""

# Translucent fills and no text colour: Material's mermaid theme colours the labels for the light
# or dark palette, so a fixed light fill would leave pale text on a pale box in dark mode.
CLASSES = (
    "  classDef input fill:#64748b1f,stroke:#64748b\n"
    "  classDef target fill:#0891b21f,stroke:#0891b2\n"
    "  classDef weight fill:#2563eb1f,stroke:#2563eb\n"
    "  classDef result fill:#16a34a1f,stroke:#16a34a"
)


def others(words: Mapping[str, str], n: int) -> str:
    """The summary item of a long list, escaped."""
    return mermaid_label(words["others"].replace("{n}", str(n)))


def rows(names: list[str], per_row: int = 8) -> str:
    """Names in rows of ``per_row``, so a node of forty lines is a block, not one long line."""
    return "<br/>".join(" · ".join(names[i : i + per_row]) for i in range(0, len(names), per_row))


def label(*lines: str) -> str:
    """A node's text: escaped lines, one under the other."""
    return '["' + "<br/>".join(lines) + '"]'
