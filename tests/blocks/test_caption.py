"""The ``caption:`` block key: read once, per language like ``title:``, located when wrong."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mkdocs_selfattn.blocks.languages import localize_view
from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.spec import BlockSpec, parse_block
from mkdocs_selfattn.build.captions import caption_html, figure_html, last_figure
from mkdocs_selfattn.errors import BlockError


def _parse(body: str) -> BlockSpec:
    [raw] = find_blocks("# page\n\n```selfattn\n" + body + "\n```\n")
    return parse_block(raw)


def test_a_caption_per_language_follows_the_page() -> None:
    spec = _parse("use: memo\nshow: [table, chart]\ncaption: {ko: 한 줄 요약, en: One line.}")
    assert localize_view(spec.view, "ko").caption == "한 줄 요약"
    assert localize_view(spec.view, "en-GB").caption == "One line."
    assert localize_view(spec.view, "zh").caption is None
    assert spec.view.caption_line == 6


def test_the_caption_sits_under_the_last_figure() -> None:
    spec = _parse("use: memo\nshow: [chart, table, mermaid, csv]\ncaption: Sum.")
    view = localize_view(spec.view, None)
    assert last_figure(view) == "mermaid"
    view = replace(view, figcaption="Sum &amp; more")
    assert figure_html("<svg/>", view, "chart") == "<svg/>"
    assert figure_html("<pre/>", view, "mermaid") == (
        '<figure class="selfattn-figure"><pre/><figcaption>Sum &amp; more</figcaption></figure>'
    )


@pytest.mark.parametrize(
    ("body", "message", "line"),
    [
        ("use: memo\nshow: [table]\ncaption: x", "'caption': sums up a figure", 6),
        ("use: memo\nshow: [chart]\ncaption: |\n  two\n  lines", "is one line of text", 6),
        ("use: memo\nshow: [chart]\ncaption: 3", "expected a text value", 6),
    ],
)
def test_wrong_captions_fail_at_their_line(body: str, message: str, line: int) -> None:
    with pytest.raises(BlockError, match=message) as caught:
        _parse(body)
    assert caught.value.line == line


def test_caption_text_is_escaped_and_its_inline_values_located() -> None:
    assert caption_html("a <b> & `code`", 9, {}) == "a &lt;b&gt; &amp; `code`"
    with pytest.raises(BlockError, match="'caption': inline value 'memo weight'") as caught:
        caption_html("w `{selfattn} memo weight a b`", 9, {})
    assert caught.value.line == 9
