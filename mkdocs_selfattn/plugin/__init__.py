"""The MkDocs adapter: events, the error policy, look-ahead, publishing, serve and i18n.

The only package that imports MkDocs; ``mkdocs_selfattn.plugin:SelfAttnPlugin`` is its entry point.
"""

from mkdocs_selfattn.plugin.events import SelfAttnPlugin

__all__ = ["SelfAttnPlugin"]
