"""Attention example blocks for MkDocs, computed from CSV at build time.

Only light names are re-exported here; numpy, pyarrow and matplotlib load when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mkdocs_selfattn.errors import BlockError, DataError, ScriptError, SelfAttnError
from mkdocs_selfattn.version import __version__

if TYPE_CHECKING:
    from markdown import Extension

__all__ = [
    "BlockError",
    "DataError",
    "ScriptError",
    "SelfAttnError",
    "__version__",
    "makeExtension",
]


def makeExtension(**kwargs: Any) -> Extension:  # noqa: N802 - Python-Markdown's API name
    """Lets ``markdown_extensions: [mkdocs_selfattn]`` load the Python-Markdown extension."""
    from mkdocs_selfattn.extension import SelfAttnExtension

    return SelfAttnExtension(**kwargs)
