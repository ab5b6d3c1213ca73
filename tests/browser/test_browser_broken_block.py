"""A page with a broken block, built without --strict: the reader sees the error and the rest."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mkdocs_selfattn.render.words import page_word

pytestmark = pytest.mark.browser

BROKEN_DOCUMENT = "memo_does_not_exist"  # the broken block's `document:` (conftest.py)


def test_broken_block_shows_the_error_and_the_rest_of_the_page(
    broken_page: Any, open_reader: Callable[..., Any]
) -> None:
    build_log = broken_page.site.log
    assert "broken.md:" in build_log, build_log
    assert BROKEN_DOCUMENT in build_log, "the non-strict build should warn about the broken block"

    reader = open_reader(broken_page.address)
    page = reader.page
    page.wait_for_function(
        "() => document.querySelectorAll('article pre.mermaid').length === 0 && "
        "[...document.querySelectorAll('article div.mermaid')].length === 2 && "
        "[...document.querySelectorAll('article div.mermaid')].every("
        "  (h) => h.shadowRoot && h.shadowRoot.querySelector('svg'))",
        timeout=30_000,
    )
    article = page.locator("article.md-content__inner")

    # The error, where the block was, as an admonition a reader can see and read.
    error = article.locator(".selfattn-error")
    assert error.count() == 1
    error.scroll_into_view_if_needed()
    assert error.is_visible()
    assert "admonition" in (error.get_attribute("class") or "")
    title = error.locator(".admonition-title")
    assert title.is_visible()
    # The fixture site is in Chinese (theme.language: zh): the title is in the page's language.
    assert title.inner_text() == page_word("error_title", "zh")
    assert BROKEN_DOCUMENT in error.inner_text(), error.inner_text()
    box = error.bounding_box()
    assert box is not None
    assert box["width"] > 200
    assert box["height"] > 30
    # It sits between the paragraph that introduces the block and the one that follows it.
    order = page.evaluate(
        """() => {
          const kids = [...document.querySelector('article.md-content__inner').children];
          const at = (pred) => kids.findIndex(pred);
          return {
            before: at((e) => e.textContent.includes('下面这个块引用了不存在的备忘录')),
            error: at((e) => e.classList.contains('selfattn-error')),
            after: at((e) => e.textContent.includes('这一段在出错的块之后')),
          };
        }"""
    )
    assert 0 <= order["before"] < order["error"] < order["after"], order

    # The rest of the page is intact: text before and after, headings, the working example's
    # table, figure and chart, the inline value, the author's own mermaid figure, the navigation.
    for text in ("这一段在出错的块之前，读者应该照常看到。", "页面的最后一段。"):
        assert article.get_by_text(text, exact=True).is_visible(), text
    for heading in ("出错的示例", "一个坏掉的块", "后面的小节"):
        assert article.get_by_role("heading", name=heading).is_visible(), heading
    compare = article.locator("table").first
    assert compare.is_visible()
    rows = {
        cells[0].split(" (")[0]: [c.replace("▲", "").strip() for c in cells[1:]]
        for cells in (
            [c.strip() for c in row.inner_text().split("\t")]
            for row in compare.locator("tbody tr").all()
        )
    }
    after = article.get_by_text("这一段在出错的块之后", exact=False)
    assert after.is_visible()
    assert f"“它”对绝缘帽的权重仍是 {rows['绝缘帽'][0]}。" in after.inner_text()
    chart = article.locator("svg.selfattn-chart:visible")
    assert chart.count() == 1
    chart.scroll_into_view_if_needed()
    assert chart.is_visible()
    figures = page.evaluate(
        "() => [...document.querySelectorAll('article div.mermaid')].map("
        "  (h) => h.shadowRoot.querySelector('svg').textContent)"
    )
    assert f"绝缘帽 {rows['绝缘帽'][0]}" in figures[0]
    assert "页面其余部分照常显示" in figures[1]
    assert page.locator("header.md-header").is_visible()
    assert page.locator("nav.md-nav--primary a", has_text="安全备忘录里的“它”").count() >= 1
    assert not reader.errors, reader.errors
