"""Which of the plugin's assets a page loads, and where its page says so.

A site pays only where it uses the plugin: a page whose HTML has no chart, no error mark and no
mermaid figure loads nothing of the plugin's (the issue 26 book has 150 pages and three chapters
with blocks). The tags go inside the page's content, not into the theme's ``<head>`` or
``extra_javascript``: Material's instant navigation swaps in only the content, and re-runs the
scripts it finds there, so a page reached from one without blocks still gets what it needs.

Mermaid is loaded by a small inline script, for Material's sake: when it mounts a page's first
figure, Material uses ``mermaid`` if it is defined and otherwise fetches it from unpkg.com, and on
an instant navigation it mounts the page without waiting for the page's ``<script src>`` (its own
inline script comes after them). The inline script runs before Material mounts the page; it
defines ``mermaid`` as a stand-in that loads the bundled file once and hands Material's
``initialize`` and ``render`` calls to it; the file, once run, replaces the stand-in. A page
reached later finds ``mermaid`` defined and loads nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.utils import get_relative_url

from mkdocs_selfattn.plugin import try_assets

VENDOR = Path(__file__).parents[1] / "vendor"
MERMAID_URI = "assets/javascripts/selfattn/mermaid.min.js"
CSS_URI = "assets/stylesheets/selfattn.css"

STYLED = ("selfattn-chart-box", "selfattn-error", "selfattn-figure")
"""The classes ``vendor/selfattn.css`` styles: a page with none of them does not load it."""

_STYLED = re.compile(r'<[a-z]+ [^>]*?class="(?:[^"]* )?(?:' + "|".join(STYLED) + r')[ "]')
# Material renders every element of class mermaid in the content, whoever wrote it.
_MERMAID = re.compile(r'<[a-z]+ [^>]*?class="(?:[^"]* )?mermaid[ "]')

# `mermaid instanceof Element`: an element with id="mermaid" is a global of that name (Material's
# test too). Other themes call nothing: the file's own start-on-load draws their figures.
_LOAD_MERMAID = (
    "<script data-selfattn-asset>"
    "(function(src){var m=window.mermaid;if(m&&!(m instanceof Element))return;"
    "var real=new Promise(function(ok,fail){var s=document.createElement('script');"
    "s.src=src;s.onload=function(){ok(window.mermaid)};s.onerror=fail;"
    "document.head.appendChild(s)});"
    "function then(f){return function(){var a=arguments;"
    "return real.then(function(r){return r[f].apply(r,a)})}}"
    "window.mermaid={initialize:function(c){real=real.then(function(r){r.initialize(c);return r})},"
    "render:then('render'),run:then('run')}})(SRC)</script>"
)


def link_page_assets(output: str, page_url: str, *, bundled_mermaid: bool) -> str:
    """``output`` (a whole page) with the tags of the assets its content uses, and no others."""
    output = try_assets.finish_page(output, page_url)  # before its first try view, if any
    styled = _STYLED.search(output)
    if styled is not None:
        href = get_relative_url(CSS_URI, page_url)
        output = _insert(
            output, styled.start(), f'<link rel="stylesheet" href="{href}" data-selfattn-asset>'
        )
    mermaid = _MERMAID.search(output) if bundled_mermaid else None
    if mermaid is not None:
        src = get_relative_url(MERMAID_URI, page_url)
        output = _insert(output, mermaid.start(), _LOAD_MERMAID.replace("SRC", f"'{src}'"))
    return output


def _insert(output: str, at: int, tag: str) -> str:
    return output[:at] + tag + output[at:]
