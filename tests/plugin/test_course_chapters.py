"""The demo chapters P5-13.1 and P5-13.3 as the repository's own site publishes them, in zh, ko, en.

One real ``mkdocs build --strict`` of the repository's mkdocs.yml (tests/conftest.py's
course_site, shared with the browser tests). Checked: every page is there with its section id in
the title and in the navigation; each page shows the printout of the script of its language; the
scripts print the book's numbers; and every inline value of the prose shows what the scripts
print and what the plain-Python reference computes, the same number in every language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from chapter_pages import (
    CHAPTERS,
    LANGUAGES,
    SECTION_IDS,
    Inline,
    article,
    definition,
    expected,
    inline_values,
    parse_heads,
    parse_questions,
    prose_text,
    run_script,
    script,
    shown_values,
    source,
    url,
)
from html_tree import Node, parse_html

pytestmark = pytest.mark.slow

PAGES = [(stem, language) for stem in CHAPTERS for language in LANGUAGES]
PAGE_IDS = [f"{stem[:7]}-{language}" for stem, language in PAGES]
ORDER = ["p5-13-1-attention", "p5-13-2-self-attention", "p5-13-3-qkv-multihead"]
QUESTION_COLUMNS = {
    "What is the pressure-release holding time?": "score_pressure_hold",
    "What is the coolant-flow criterion?": "score_flow_limit",
    "What are the restart approval conditions?": "score_restart_permission",
}
# The views each page shows, so a view that silently renders nothing is noticed.
CHARTS = {"p5-13-1-attention": 3, "p5-13-3-qkv-multihead": 4}
MERMAIDS = {"p5-13-1-attention": 2, "p5-13-3-qkv-multihead": 3}  # the author's and the plugin's


def built_page(site: Any, stem: str, language: str) -> str:
    path = Path(site.root) / url(stem, language) / "index.html"
    assert path.is_file(), f"{url(stem, language)} was not built"
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def printouts() -> dict[tuple[str, str], str]:
    """Each language's script of each chapter, run from the repository root."""
    return {(stem, language): run_script(script(stem, language)) for stem, language in PAGES}


def _printout(page: Node, first_word: str) -> str:
    found = [c.text() for c in page.find_all("code") if c.text().startswith(first_word)]
    assert len(found) == 1, f"{len(found)} printouts starting with {first_word!r}"
    return found[0]


def test_the_site_builds_strict_without_a_warning(course_site: Any) -> None:
    assert "WARNING" not in course_site.log, course_site.log
    for stem, language in PAGES:
        built_page(course_site, stem, language)


@pytest.mark.parametrize(("stem", "language"), PAGES, ids=PAGE_IDS)
def test_title_and_navigation_carry_the_section_ids(
    course_site: Any, stem: str, language: str
) -> None:
    page = parse_html(built_page(course_site, stem, language))
    title = page.find("article").find("h1").text().strip()
    assert title.startswith(SECTION_IDS[stem] + " "), title
    assert page.find("html").attrs["lang"].startswith(language)
    # The primary navigation of this language lists the three sections in order, named by id.
    nav = page.find("nav", "md-nav--primary")
    links = [
        (a.attrs["href"], a.text().strip())
        for a in nav.find_all("a")
        if "p5-13-" in a.attrs["href"] or a.attrs["href"] in ("./", ".")
    ]
    links = [(f"../{stem}/" if href in ("./", ".") else href, name) for href, name in links]
    chapters = [re.search(r"(p5-13-\d-[a-z-]+)/", href) for href, _ in links]
    assert [m[1] for m in chapters if m] == ORDER, links
    for (_, name), expected_id in zip(links, ("P5-13.1", "P5-13.2", "P5-13.3"), strict=True):
        assert name.startswith(expected_id), name
    if language != "zh":  # the navigation is translated, not the Chinese one
        assert not re.search(r"[\u4e00-\u9fff]", " ".join(name for _, name in links)), links


@pytest.mark.parametrize(("stem", "language"), PAGES, ids=PAGE_IDS)
def test_the_page_shows_its_languages_script_and_its_printout(
    course_site: Any, printouts: dict[tuple[str, str], str], stem: str, language: str
) -> None:
    page = article(built_page(course_site, stem, language))
    first = "question = " if stem.startswith("p5-13-1") else "csv_rows = "
    # The page's code block ends at the last line; the script ends with a blank one.
    assert _printout(page, first) + "\n" == printouts[stem, language]
    # The code view shows the script that ran: its own docstring's first line.
    docstring = script(stem, language).read_text(encoding="utf-8").split("\n", 1)[0]
    codes = [c.text() for c in page.find_all("code") if c.text().startswith(docstring)]
    assert len(codes) == 1, f"{script(stem, language).name} is not shown"
    # Localised scripts differ in their comments only: the printout is the same everywhere.
    assert printouts[stem, language] == printouts[stem, "zh"]


def test_the_scripts_print_the_books_numbers(printouts: dict[tuple[str, str], str]) -> None:
    for language in LANGUAGES:
        questions = parse_questions(printouts["p5-13-1-attention", language])
        assert list(questions) == list(QUESTION_COLUMNS)
        assert [q["context"] for q in questions.values()] == [4.685, 9.922, 6.449]
        assert [[line for line, _ in q["top"]] for q in questions.values()] == [
            ["L10", "L05", "L07"],
            ["L13", "L18", "L14"],
            ["L25", "L26", "L30"],
        ]
        heads = parse_heads(printouts["p5-13-3-qkv-multihead", language])
        assert [g["separation"] for g in heads["groups"].values()] == [0.335, 1.14, 0.25]
        assert heads["axes"] == ["decision_axis", "evidence_condition_axis"]


def _from_script(stem: str, item: Inline, printout: str) -> str | None:
    """What the script printed for this inline value, when it printed it."""
    number: Any = None
    if stem.startswith("p5-13-1") and item.example == "manual":
        questions = parse_questions(printout)
        by_column = {QUESTION_COLUMNS[label]: q for label, q in questions.items()}
        if item.quantity == "csv_rows":
            number = next(iter(questions.values()))["csv_rows"]
        elif item.quantity == "baseline":
            number = next(iter(questions.values()))["baseline"]
        elif item.quantity in ("context", "shift"):
            number = by_column[item.args[0]][item.quantity]
        elif item.quantity == "top":
            rank = int(item.args[1]) if len(item.args) > 1 else 1
            number = by_column[item.args[0]]["top"][rank - 1][0]
        elif item.quantity == "weight" and item.spec is None:
            number = dict(by_column[item.args[0]]["top"]).get(item.args[1])
    elif stem.startswith("p5-13-3") and item.example == "heads":
        heads = parse_heads(printout)
        group = heads["groups"].get(item.args[0]) if item.args else None
        if item.quantity in ("csv_rows", "document_rows"):
            number = heads["csv_rows" if item.quantity == "csv_rows" else "focus_report_rows"]
        elif item.quantity == "context" and group and len(item.args) == 2:
            number = group["contexts"][item.args[1]]
        elif item.quantity == "difference" and group and len(item.args) == 2:
            at = ["head1", "head2"].index(item.args[1]) * 2
            number = group["difference"][at : at + 2]
        elif item.quantity == "separation" and group and item.args[1:] == ["head1", "head2"]:
            number = group["separation"]
    return None if number is None else re.sub(r"\s+", "", str(number))


@pytest.mark.parametrize(("stem", "language"), PAGES, ids=PAGE_IDS)
def test_inline_values_show_the_scripts_and_the_references_numbers(
    course_site: Any, printouts: dict[tuple[str, str], str], stem: str, language: str
) -> None:
    values = inline_values(source(stem, language).read_text(encoding="utf-8"))
    assert len(values) >= 25, "the chapter lost its inline values"
    text = prose_text(article(built_page(course_site, stem, language)))
    assert "{selfattn}" not in text, "an inline value was left unreplaced"
    shown = shown_values(values, text)
    wrong = [
        f"{item.raw} shows {seen!r}, the reference {want!r}"
        for item, seen in zip(values, shown, strict=True)
        if seen != (want := expected(stem, language, item))
    ]
    assert not wrong, "\n".join(wrong)
    from_script = [
        (item, seen, printed)
        for item, seen in zip(values, shown, strict=True)
        if (printed := _from_script(stem, item, printouts[stem, language])) is not None
    ]
    assert len(from_script) >= 10, [i.raw for i, _, _ in from_script]
    mismatch = [f"{i.raw}: {s!r} ≠ printed {p!r}" for i, s, p in from_script if s != p]
    assert not mismatch, "\n".join(mismatch)


@pytest.mark.parametrize("stem", list(CHAPTERS))
def test_every_language_shows_the_same_numbers(course_site: Any, stem: str) -> None:
    seen: dict[str, dict[str, set[str]]] = {}
    for language in LANGUAGES:
        values = inline_values(source(stem, language).read_text(encoding="utf-8"))
        text = prose_text(article(built_page(course_site, stem, language)))
        for item, shown in zip(values, shown_values(values, text), strict=True):
            if item.quantity != "top" or stem.startswith("p5-13-1"):  # 13.3 tops are labels
                seen.setdefault(item.raw, {}).setdefault(language, set()).add(shown)
    everywhere = {raw: by for raw, by in seen.items() if len(by) == len(LANGUAGES)}
    assert len(everywhere) >= 20, sorted(seen)
    differ = {
        raw: by for raw, by in everywhere.items() if len({frozenset(v) for v in by.values()}) > 1
    }
    assert not differ, differ
    # The book's headline numbers, in every language's prose.
    wanted = {
        "p5-13-1-attention": ["4.685", "9.922", "6.449", "L10", "L13", "L25"],
        "p5-13-3-qkv-multihead": ["0.335", "1.14", "0.25"],
    }[stem]
    for language in LANGUAGES:
        shown_here = {v for by in seen.values() for v in by.get(language, set())}
        assert set(wanted) <= shown_here, (language, wanted, shown_here)


@pytest.mark.parametrize(("stem", "language"), PAGES, ids=PAGE_IDS)
def test_figures_are_drawn_with_the_languages_labels(
    course_site: Any, stem: str, language: str
) -> None:
    page = article(built_page(course_site, stem, language))
    charts = page.find_all("svg", "selfattn-chart-wide")
    assert len(charts) == CHARTS[stem]
    assert len(page.find_all("svg", "selfattn-chart-narrow")) == CHARTS[stem]
    mermaids = [n for n in page.find_all(cls="mermaid") if n.tag in ("pre", "div")]
    # A mermaid view draws a diagram per row of at most three boxes (issue 24): at least one.
    assert len(mermaids) >= MERMAIDS[stem]
    words = " ".join(t.text() for chart in charts for t in chart.find_all("text"))
    words += " ".join(m.text() for m in mermaids)
    script_of = {"zh": r"[\u4e00-\u9fff]", "ko": r"[\uac00-\ud7a3]", "en": r"[A-Za-z]{3}"}
    assert re.search(script_of[language], words), (language, words[:300])
    others = [lang for lang in ("zh",) if lang != language]
    for other in others:  # no Chinese labels on the ko and en pages
        assert not re.search(script_of[other], words), (language, words[:300])
    if stem.startswith("p5-13-1"):  # `query: score_pressure_hold`: that question's weights only
        example = definition(stem, "manual", language)
        labels = [example["display"].get(q, q) for q in example["queries"]]
        first = " ".join(t.text() for t in charts[0].find_all("text"))
        assert not any(label in first for label in labels[1:]), (labels, first[:300])
    errors = page.find_all(cls="selfattn-error")
    assert not errors, [e.text() for e in errors]


def test_search_index_holds_the_chapters_numbers_not_their_figures(course_site: Any) -> None:
    index = Path(course_site.root) / "search/search_index.json"  # one index, every language
    docs = json.loads(index.read_text(encoding="utf-8"))["docs"]
    for stem, language in PAGES:
        text = " ".join(d["text"] for d in docs if d["location"].startswith(url(stem, language)))
        assert text, (language, stem)
        assert "<svg" not in text
        assert "classDef" not in text
        assert ("4.685" if stem.startswith("p5-13-1") else "0.335") in text


def _outline(markdown: str) -> list[str]:
    """Headings' levels, admonitions, fences and each selfattn block's example and views."""
    outline: list[str] = []
    for block in re.finditer(
        r"^(#{1,3}) |^(!!!|\?\?\?) (\w+)|^```(\w+)\n(.*?)^```", markdown, re.M | re.S
    ):
        if block[1]:
            outline.append(block[1])
        elif block[2]:
            outline.append(f"{block[2]} {block[3]}")
        elif block[4] == "selfattn":
            use = re.search(r"^use: (\S+)", block[5], re.M)
            show = re.search(r"^show: (.*)$", block[5], re.M)
            outline.append(f"selfattn {use[1] if use else '?'} {show[1] if show else ''}")
        else:
            outline.append(str(block[4]))
    return outline


@pytest.mark.parametrize("stem", list(CHAPTERS))
def test_the_three_languages_have_the_same_structure(stem: str) -> None:
    outlines = {
        lang: _outline(source(stem, lang).read_text(encoding="utf-8")) for lang in LANGUAGES
    }
    assert sum(item.startswith("selfattn ") for item in outlines["zh"]) == 7, outlines["zh"]
    assert outlines["ko"] == outlines["zh"]
    assert outlines["en"] == outlines["zh"]
    inline = {
        lang: [i.raw for i in inline_values(source(stem, lang).read_text("utf-8"))]
        for lang in LANGUAGES
    }
    assert sorted(inline["ko"]) == sorted(inline["zh"]) == sorted(inline["en"])
