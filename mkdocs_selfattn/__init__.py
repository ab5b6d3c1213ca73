"""Attention example blocks for MkDocs, computed from CSV at build time.

Only light names are re-exported here; numpy, pyarrow and matplotlib load when first used.
"""

from __future__ import annotations

from mkdocs_selfattn.errors import BlockError, DataError, ScriptError, SelfAttnError

__all__ = ["BlockError", "DataError", "ScriptError", "SelfAttnError", "__version__"]

__version__ = "0.1.0"
