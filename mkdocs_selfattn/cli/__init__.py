"""The command line (``mkdocs-selfattn``): run, check, inspect and new.

``mkdocs_selfattn.cli:main`` is its entry point.
"""

from mkdocs_selfattn.cli.main import main

__all__ = ["main"]
