"""Plugin helper for the ``try`` view: its script and stylesheet, and the published results.

The view's HTML (render/try_view.py) knows no page URL; here, once MkDocs knows where a page
lives, its views get their links, and only pages that show the view load the script.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

ASSETS = Path(__file__).parents[1] / "assets" / "try"
JS_URI = "assets/javascripts/selfattn/selfattn-try.js"
CSS_URI = "assets/stylesheets/selfattn-try.css"
RESULTS_URI = "assets/selfattn-data/results"

MARK = '<div class="selfattn-try" data-selfattn-try '
_BLOB = re.compile(
    r'<span hidden class="selfattn-try-result" data-selfattn-json="([A-Za-z0-9_.-]+)" '
    r'data-selfattn-result="([^"]*)"></span>'
)
_ANCHOR = '<a class="selfattn-try-json" data-selfattn-json="'


def asset_files(config: MkDocsConfig) -> list[File]:
    return [
        File.generated(config, JS_URI, abs_src_path=str(ASSETS / "selfattn-try.js")),
        File.generated(config, CSS_URI, abs_src_path=str(ASSETS / "selfattn-try.css")),
    ]


def result_files(config: MkDocsConfig, pieces: Iterable[object]) -> list[File]:
    """The full-precision results of every try view among ``pieces``, as the CLI writes them
    (``mkdocs-selfattn run … --format json``), one file each."""
    found: dict[str, str] = {}
    for piece in pieces:
        if isinstance(piece, str) and MARK in piece:
            for name, blob in _BLOB.findall(piece):
                data = json.loads(html.unescape(blob))
                found[name] = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return [
        File.generated(config, f"{RESULTS_URI}/{name}", content=text)
        for name, text in sorted(found.items())
    ]


def finish_page(output: str, page_url: str) -> str:
    """Load the view's script and stylesheet (before the first view, inside the content, so
    Material's instant navigation runs the script when it swaps this page in), link each
    view's results file, and drop the copy of the results the page carried until now."""
    first = output.find(MARK)
    if first < 0:
        return output
    names = _BLOB.findall(output)
    output = _BLOB.sub("", output)
    for name, _ in names:
        href = get_relative_url(f"{RESULTS_URI}/{name}", page_url)
        output = output.replace(
            f'{_ANCHOR}{name}"',
            f'<a class="selfattn-try-json" href="{href}" data-selfattn-json="{name}"',
        )
    tags = (
        f'<link rel="stylesheet" href="{get_relative_url(CSS_URI, page_url)}" data-selfattn-asset>'
        f'<script src="{get_relative_url(JS_URI, page_url)}" data-selfattn-asset></script>'
    )
    first = output.find(MARK)
    return output[:first] + tags + output[first:]
