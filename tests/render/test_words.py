"""The plugin's own words: every catalogue complete in every language, one word per quantity
across views, and each layout's own words where the meaning differs (issue 24)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from mkdocs_selfattn.blocks.spec_values import TEXT_KEYS
from mkdocs_selfattn.render import try_view
from mkdocs_selfattn.render.words import (
    CHART,
    LANGUAGES,
    LAYOUT,
    MERMAID,
    PAGE,
    READING,
    TABLE,
    TRY_READING,
    words,
)

CATALOGUES: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "table": TABLE,
    "reading": READING,
    "mermaid": MERMAID,
    "chart": CHART,
    "try_reading": TRY_READING,
    "page": PAGE,
}
LAYOUTS = ("targets", "questions", "heads")

QUANTITIES: Mapping[str, tuple[tuple[str, str], ...]] = {
    # quantity → the (catalogue, key) pairs that name it; every pair must say the same word.
    "current token": (("table", "target"), ("mermaid", "target")),
    "candidate": (("table", "candidate"), ("chart", "axis_candidate")),
    "context": (
        ("reading", "context"),
        ("mermaid", "context"),
        ("try_reading", "context"),
        ("chart", "axis_context"),
    ),
    "separation": (
        ("reading", "separation"),
        ("mermaid", "separation"),
        ("chart", "axis_separation"),
    ),
    "question": (("reading", "question"), ("mermaid", "query"), ("try_reading", "question")),
    "group": (
        ("reading", "group"),
        ("mermaid", "group"),
        ("try_reading", "group"),
        ("chart", "axis_group"),
    ),
    "head": (("mermaid", "head"), ("try_reading", "head")),
    "representation": (("table", "representation"), ("mermaid", "representation")),
    "shift": (("table", "shift"), ("mermaid", "shift")),
    "difference": (("reading", "difference"), ("try_reading", "difference")),
    "vector": (("reading", "vector"), ("try_reading", "vector")),
    "weights most": (("mermaid", "weights"),),
    "document": (("mermaid", "document"),),
    "score": (("table", "score"),),
    "weight": (("table", "weight"),),
    "baseline": (("table", "baseline"),),
}


def _word(catalogue: str, key: str, language: str, layout: str) -> str:
    return words(CATALOGUES[catalogue], language, layout)[key]


@pytest.mark.parametrize("name", CATALOGUES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_word(name: str, language: str) -> None:
    catalogue = CATALOGUES[name]
    assert set(catalogue[language]) == set(catalogue["en"]), (name, language)
    # chart_title is empty on purpose: a chart has no drawn title unless the block gives one.
    assert all(text.strip() for key, text in catalogue[language].items() if key != "chart_title")


@pytest.mark.parametrize("layout", ["questions", "heads"])
def test_every_layout_has_its_words_in_every_language(layout: str) -> None:
    own = LAYOUT[layout]
    assert set(own) == set(LANGUAGES)
    known = {key for catalogue in CATALOGUES.values() for key in catalogue["en"]}
    for language in LANGUAGES:
        assert set(own[language]) == set(own["en"]), (layout, language)
        assert set(own[language]) <= known & set(TEXT_KEYS)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_one_word_per_quantity_across_views(layout: str, language: str) -> None:
    for quantity, places in QUANTITIES.items():
        said = {_word(catalogue, key, language, layout) for catalogue, key in places}
        assert len(said) == 1, f"{quantity} ({layout}, {language}): {sorted(said)}"


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_two_quantities_share_a_word(layout: str, language: str) -> None:
    seen: dict[str, str] = {}
    for quantity, places in QUANTITIES.items():
        word = _word(*places[0], language, layout)
        assert word not in seen, f"{quantity} and {seen.get(word)} both say {word!r}"
        seen[word] = quantity


@pytest.mark.parametrize("language", LANGUAGES)
def test_questions_and_heads_do_not_re_read(language: str) -> None:
    """Manual lines and given head weights are not 'the tokens re-read most'."""
    targets = words(MERMAID, language, "targets")
    for layout in ("questions", "heads"):
        own = words(MERMAID, language, layout)
        assert own["weights"] != targets["weights"]
        assert own["candidates"] != targets["candidates"]
        assert (
            words(CHART, language, layout)["axis_candidate"]
            != words(CHART, language)["axis_candidate"]
        )


def test_korean_and_chinese_words_are_the_prose_words() -> None:
    """The chapters say 문맥, attention, head and baseline; 上下文, attention and baseline."""
    for name, catalogue in CATALOGUES.items():
        for text in catalogue["ko"].values():
            for word in ("컨텍스트", "어텐션", "헤드", "기준선"):
                assert word not in text, (name, text)
        for text in catalogue["zh"].values():
            for word in ("注意力", "基线"):
                assert word not in text, (name, text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_try_view_says_the_same_words(language: str) -> None:
    own = try_view.WORDS[language]
    assert own["separation"] == words(READING, language)["separation"]
    assert words(CHART, language)["axis_weight"] in own["chart"] or language == "en"


def test_the_glossary_goes_over_layout_words_and_keys_it_has() -> None:
    glossary = {"ko": {"weights": "가장 많이 봄", "axis_weight": "가중치"}}
    mermaid = words(MERMAID, "ko", "questions", glossary)
    assert mermaid["weights"] == "가장 많이 봄"
    assert "axis_weight" not in mermaid
    assert words(CHART, "ko-KR", "heads", glossary)["axis_weight"] == "가중치"
    assert words(CHART, "zh", "heads", glossary)["axis_weight"] == "给定权重"
