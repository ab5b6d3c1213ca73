"""No block ships as raw YAML: blocks in blockquotes and footnotes render like any other, and a
block that a ``pymdownx.snippets`` include brings in after the plugin ran fails with the page and
the include line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sites import Site, new_site, seed_block, visible_text

from mkdocs_selfattn.blocks.markdown_scan import find_blocks

pytestmark = pytest.mark.slow

INLINE = "W=⟨`{selfattn} memo weight 그것 절연캡`⟩"


def _quoted(text: str, marker: str = "> ") -> str:
    return "".join((marker + line).rstrip() + "\n" for line in text.split("\n")[:-1])


PAGES = {
    "quote.md": "# Quote\n\nBefore.\n\n"
    + _quoted(seed_block(show="[output, table, chart]") + "\n" + INLINE + "\n")
    + "\nAfter.\n",
    "nested.md": "# Nested\n\n" + _quoted(seed_block(show="[table]") + "\n", "> > "),
    "footnote.md": "# Footnote\n\nA claim.[^memo]\n\nAfter.\n\n[^memo]: Computed:\n\n"
    + seed_block(show="[output, table]", indent="    ")
    + "\n    "
    + INLINE
    + ".\n",
    "snippet.md": '# Snippet\n\nText.\n\n--8<-- "example.md"\n\nMore text.\n',
    "stray.md": "# Stray\n\nIntro.\n\n- "
    + _quoted(seed_block(), "> ").replace("\n> ", "\n  > ")
    + "\nAfter.\n",
    "harmless.md": '# Harmless\n\n--8<-- "prose.md"\n\n' + seed_block(show="[table]"),
}
SNIPPETS_CONFIG = "  - footnotes\n  - pymdownx.snippets:\n      base_path: [{base}]\n"


def _site(root: Path) -> Site:
    site = new_site(root, PAGES)
    site.write("snippets/example.md", seed_block(example_id="included"))
    site.write("snippets/prose.md", "Some prose from a snippet.\n")
    config = site.config_file.read_text(encoding="utf-8")
    extra = SNIPPETS_CONFIG.format(base=site.root / "snippets")
    site.write("mkdocs.yml", config.replace("  - tables\n", "  - tables\n" + extra))
    return site


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Site:
    site = _site(tmp_path_factory.mktemp("unreachable") / "project")
    site.build()
    return site


def _no_raw_yaml(site: Site, page: str) -> None:
    text = visible_text(site.article(page))
    assert "csv: assets" not in text, f"{page} shows the block's YAML"
    assert "document: memo_cap_missing" not in text


def test_block_in_a_blockquote_renders(built: Site) -> None:
    article = built.article("quote.md")
    [quote] = article.find_all("blockquote")
    tables = quote.find_all("table")
    assert len(tables) == 2
    assert quote.find_all("svg"), "the chart is inside the blockquote"
    assert "W=⟨0.43⟩" in visible_text(quote)
    assert "weight = 0.43" in visible_text(quote)  # the printout
    _no_raw_yaml(built, "quote.md")


def test_block_in_a_nested_blockquote_renders(built: Site) -> None:
    quotes = built.article("nested.md").find_all("blockquote")
    assert len(quotes) == 2
    assert len(quotes[1].find_all("table")) == 2
    _no_raw_yaml(built, "nested.md")


def test_block_in_a_footnote_renders(built: Site) -> None:
    article = built.article("footnote.md")
    [notes] = [n for n in article.find_all("div") if "footnote" in n.attrs.get("class", "")]
    assert len(notes.find_all("table")) == 2
    assert "weight = 0.43" in visible_text(notes)
    assert "W=⟨0.43⟩" in visible_text(notes)
    # The text after the footnote reference stays in the page, not in the footnote.
    assert "After." not in visible_text(notes)
    _no_raw_yaml(built, "footnote.md")


def test_block_from_a_snippet_is_an_error_on_the_include_line(built: Site) -> None:
    expected = "docs/snippet.md:5: selfattn: this selfattn block was inserted after the plugin ran"
    assert any(m.startswith(expected) for m in built.messages), built.messages
    article = built.article("snippet.md")
    assert "selfattn: this example could not be built" in visible_text(article)
    assert "More text." in visible_text(article)
    _no_raw_yaml(built, "snippet.md")


def test_a_fence_the_scanner_cannot_read_is_reported(built: Site) -> None:
    # "- > ```selfattn": a blockquote in a list item, on the item's first line.
    assert built.config_file.parent.joinpath("docs/stray.md").read_text().split("\n")[4] == (
        "- > ```selfattn"
    )
    expected = "docs/stray.md:5: selfattn: this looks like a selfattn block in a place the plugin"
    assert any(m.startswith(expected) for m in built.messages), built.messages


def test_snippets_without_blocks_are_not_reported(built: Site) -> None:
    assert not [m for m in built.messages if m.startswith("docs/harmless.md")]
    text = visible_text(built.article("harmless.md"))
    assert "Some prose from a snippet." in text
    assert "selfattn-error" not in built.html("harmless.md")


def test_strict_build_fails_on_a_block_from_a_snippet(tmp_path: Path) -> None:
    site = _site(tmp_path / "project")
    for quiet in ((), ("-q",)):
        done = site.run(*quiet, strict=True)
        assert done.returncode != 0
        assert "docs/snippet.md:5: selfattn: this selfattn block was inserted" in done.stderr


def test_the_scanner_finds_quoted_blocks_and_their_ends() -> None:
    text = "> Intro\n>\n> ```selfattn\n> csv: a.csv\n>\n> document: d\n> ```\n> Outro\n"
    [block] = find_blocks(text)
    assert (block.start, block.end, block.indent) == (3, 7, "> ")
    assert block.body == "csv: a.csv\n\ndocument: d"
    assert block.blank == ">"
