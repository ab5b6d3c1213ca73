"""Words in figures, built for real (issue 24): ``figure_language`` draws a Korean page's figures
in English while their caption stays Korean; ``glossary`` is checked when mkdocs.yml loads;
``caption:`` renders as a figure caption with computed, escaped text, and fails at its line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sites import Site, block, new_site

CSV = "assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"
HANGUL = re.compile(r"[\uac00-\ud7a3]")
CAPTION = "그것은 절연캡에 `{selfattn} memo weight 그것 절연캡`를 준다 <b>&</b> *별*"


def _memo(show: str, extra: str = "") -> str:
    lines = [
        "id: memo",
        f"csv: {CSV}",
        "document: memo_cap_missing",
        "targets: [그것, 씌우지]",
        "display:",
        "  en: {배터리팩: battery pack, 분리: removal, 절연캡: cap, 씌우지: not fitted, 그것: it,"
        " 위험: risk}",
        "  ko: {절연캡: 절연 캡}",
        f"show: {show}",
    ]
    return block("\n".join(lines) + "\n" + extra)


KO_PAGE = "---\nselfattn_language: ko\n---\n\n# 메모\n\n" + _memo(
    "[table, chart, mermaid]",
    f"caption: '{CAPTION}'\ntitle: {{en: Two current tokens, ko: 두 현재 토큰}}\n",
)


@pytest.fixture(scope="module")
def ko_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    site = new_site(
        tmp_path_factory.mktemp("figwords") / "project",
        {"index.md": KO_PAGE},
        plugin_options={
            "figure_language": "en",
            "glossary": {"ko": {"weight": "비중"}, "en": {"axis_weight": "share of attention"}},
            "chart_workers": 0,
        },
    )
    done = site.run(strict=True)
    assert done.returncode == 0, done.stderr
    return site


def _chart_svgs(html: str) -> list[str]:
    return re.findall(r'<div class="selfattn-chart-box">(.*?)</div>', html, re.S)


def _drawn_text(svg: str) -> str:
    body = re.sub(r"<title\b.*?</title>|<desc\b.*?</desc>", "", svg, flags=re.S)
    return "".join(re.findall(r">([^<]+)<", body))


def test_a_korean_page_draws_its_figures_in_english(ko_site: Site) -> None:
    html = ko_site.html()
    [svg] = _chart_svgs(html)
    drawn = _drawn_text(svg)
    assert not HANGUL.search(drawn), drawn
    assert "share of attention" in drawn  # the English glossary word
    assert "Two current tokens" in drawn  # the title for the figure's language
    [mermaid] = [m for m in re.findall(r'<pre class="mermaid">(.*?)</pre>', html, re.S)]
    source = re.sub(r"acc(Title|Descr).*", "", mermaid)
    assert not HANGUL.search(source), source
    assert "current token: it" in source


def test_prose_views_and_the_caption_stay_korean(ko_site: Site) -> None:
    html = ko_site.html()
    assert "<th" in html
    assert "비중" in html
    [caption] = re.findall(r"<figcaption>(.*?)</figcaption>", html, re.S)
    assert caption.startswith("그것은 절연캡에 0.43를 준다")
    # Escaped as written, never markup.
    assert "&lt;b&gt;&amp;&lt;/b&gt; *별*" in caption
    assert "<b>" not in caption


def test_the_caption_wraps_the_last_figure(ko_site: Site) -> None:
    html = ko_site.html()
    figure = re.search(r'<figure class="selfattn-figure">(.*?)</figure>', html, re.S)
    assert figure is not None
    assert '<pre class="mermaid">' in figure.group(1)
    assert "selfattn-chart-box" not in figure.group(1)  # the chart comes before, uncaptioned


def test_title_and_desc_stay_in_the_page_language(ko_site: Site) -> None:
    [svg] = _chart_svgs(ko_site.html())
    desc = re.search(r"<desc\b[^>]*>(.*?)</desc>", svg, re.S)
    assert desc is not None
    assert HANGUL.search(desc.group(1))


def test_figure_language_is_in_the_chart_key(tmp_path: Path) -> None:
    """The same page drawn with figure_language page, then en: two drawings in the cache."""
    site = new_site(tmp_path / "project", {"index.md": KO_PAGE}, plugin_options={})
    site.build()
    first = _drawn_text(_chart_svgs(site.html())[0])
    site.configure(figure_language="en")
    site.build()
    second = _drawn_text(_chart_svgs(site.html())[0])
    assert HANGUL.search(first)
    assert not HANGUL.search(second)


def test_a_wrong_glossary_stops_the_build_with_one_message(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "project",
        {"index.md": "# x\n"},
        plugin_options={"glossary": {"ko": {"contxt": "문맥"}}},
    )
    done = site.run(strict=True)
    assert done.returncode != 0
    message = "in mkdocs.yml, glossary → ko → contxt: unknown word key; did you mean 'context'?"
    assert done.stderr.count(message) == 1, done.stderr


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"glossary": {"k o": {}}}, "'k o' is not a language code"),
        ({"glossary": {"ko": {"context": ""}}}, "glossary → ko → context: expected a non-empty"),
        ({"figure_language": "english!"}, "option 'figure_language': expected 'page'"),
    ],
)
def test_other_wrong_values_are_named(
    tmp_path: Path, options: dict[str, object], expected: str
) -> None:
    site = new_site(tmp_path / "project", {"index.md": "# x\n"}, plugin_options=options)
    done = site.run(strict=True)
    assert done.returncode != 0
    assert expected in done.stderr, done.stderr


def test_caption_mistakes_fail_at_the_caption_line(tmp_path: Path) -> None:
    page = (
        "# x\n\n"
        + _memo("[chart]", "caption: 'weight `{selfattn} memo weight 그것 없음`'\n")
        + "\n"
        + block("use: memo\nshow: [table]\ncaption: no figure here")
    )
    site = new_site(tmp_path / "project", {"index.md": page}, plugin_options={"chart_workers": 0})
    done = site.run(strict=True)
    assert done.returncode != 0
    lines = page.split("\n")
    first = next(i for i, line in enumerate(lines, 1) if line.startswith("caption: 'weight"))
    second = next(i for i, line in enumerate(lines, 1) if line.startswith("caption: no figure"))
    assert f"docs/index.md:{first}: selfattn: 'caption': inline value 'memo weight'" in done.stderr
    assert f"docs/index.md:{second}: selfattn: 'caption': sums up a figure" in done.stderr
