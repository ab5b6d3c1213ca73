"""The try view's size limit (docs/plugin/configuration.md#try_values): a page a phone loads, the
first whole sections that fit with a notice, a located warning that fails ``--strict``; never a
silent cut. Real ``mkdocs build`` runs of temporary sites."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

import pytest
from sites import new_site

from mkdocs_selfattn.build.options import DEFAULT_TRY_VALUES, option_problems

DATA = re.compile(r'data-selfattn-data="([^"]*)"')
HEADER = "document_id,target_token,candidate_token,candidate_role,v1,v2,v3,score"


def _csv(targets: int, candidates: int) -> str:
    """One document: every target re-reads the same candidates (rows = targets × candidates)."""
    rng = random.Random(7)
    vectors = [",".join(f"{rng.uniform(-1, 1):.2f}" for _ in range(3)) for _ in range(candidates)]
    lines = [HEADER]
    for t in range(targets):
        for c in range(candidates):
            lines.append(f"d,t{t},c{c},r{c % 7},{vectors[c]},{rng.uniform(-3, 3):.2f}")
    return "\n".join(lines) + "\n"


def _page(show: str = "[try]") -> str:
    return f"# big\n\n```selfattn\nid: big\ncsv: data.csv\ndocument: d\nshow: {show}\n```\n"


def _data(page: str) -> dict[str, object]:
    match = DATA.search(page)
    assert match is not None
    parsed: dict[str, object] = json.loads(html.unescape(match.group(1)))
    return parsed


def test_a_large_example_shows_its_first_sections_with_a_notice(tmp_path: Path) -> None:
    site = new_site(tmp_path / "p", {"index.md": _page()}, plugin_options={"cache_dir": ""})
    site.write("docs/data.csv", _csv(targets=7, candidates=4))
    site.configure(try_values=10)
    log = site.build()
    warnings = log.selfattn()
    assert len(warnings) == 1, warnings
    assert "docs/index.md:3:" in warnings[0] or "index.md:3:" in warnings[0]
    assert "at most 10 editable values" in warnings[0]
    assert "this example has 28" in warnings[0]
    assert "its first 2 of 7 sections (8 values)" in warnings[0]
    page = site.html()
    data = _data(page)
    assert len(data["groups"]) == 2  # type: ignore[arg-type]
    notice = re.search(r'<p class="selfattn-try-limit" role="note">([^<]*)</p>', page)
    assert notice is not None
    assert "first 2 of the 7 sections" in notice.group(1)
    assert "8 of 28 values" in notice.group(1)
    # --strict refuses the cut until the author decides.
    assert site.run().returncode != 0


def test_when_no_section_fits_a_notice_replaces_the_view(tmp_path: Path) -> None:
    site = new_site(tmp_path / "p", {"index.md": _page()}, plugin_options={"cache_dir": ""})
    site.write("docs/data.csv", _csv(targets=2, candidates=12))
    site.configure(try_values=10)
    log = site.build()
    [warning] = log.selfattn()
    assert "the page shows a notice instead" in warning
    page = site.html()
    assert "data-selfattn-try" not in page
    assert "selfattn-try.js" not in page  # nothing to run: the page stays light
    assert "This example has 24 values, more than the interactive version holds" in page


def test_the_option_is_checked() -> None:
    assert option_problems({"try_values": 0})
    assert option_problems({"try_values": "many"})
    assert option_problems({"try_values": True})
    assert option_problems({"try_values": 200}) == []


@pytest.mark.slow
def test_a_20k_row_example_gives_a_page_a_phone_loads(tmp_path: Path) -> None:
    """200 targets × 100 candidates: main wrote a 5.1 MB page (and 5.1 MB of results)."""
    site = new_site(tmp_path / "p", {"index.md": _page()}, plugin_options={"cache_dir": ""})
    site.write("docs/data.csv", _csv(targets=200, candidates=100))
    log = site.build()
    [warning] = log.selfattn()
    assert f"at most {DEFAULT_TRY_VALUES} editable values" in warning
    assert "this example has 20000" in warning
    page = site.html_path("index.md").stat().st_size
    assert page < 3_000_000, page
    results = list((site.site_dir / "assets" / "selfattn-data" / "results").iterdir())
    assert sum(path.stat().st_size for path in results) < 3_000_000
    assert len(_data(site.html())["groups"]) == DEFAULT_TRY_VALUES // 100  # type: ignore[arg-type]
