"""What a figure draws under figure_language, and its cache key (build/figure_views.py)."""

from __future__ import annotations

from functools import partial
from types import MappingProxyType

from mkdocs_selfattn.blocks.languages import localize_spec, localize_view
from mkdocs_selfattn.blocks.spec import ExampleSpec, ViewOptions
from mkdocs_selfattn.build import figure_views
from mkdocs_selfattn.build.figure_views import chart_job, plan_figure
from mkdocs_selfattn.build.settings import Settings
from mkdocs_selfattn.render.labels import Labels

SPEC = ExampleSpec(
    id="memo",
    csv="memo.csv",
    document="memo_cap_missing",
    line=3,
    display_by_language=MappingProxyType({"en": {"그것": "it"}, "ko": {"그것": "그것(대명사)"}}),
)
VIEW = ViewOptions(
    show=("chart",),
    text_by_language=MappingProxyType(
        {"en": {"axis_candidate": "token"}, "ko": {"axis_candidate": "토큰"}}
    ),
    title_by_language=MappingProxyType({"en": "Weights", "ko": "가중치"}),
)


def _plan(language: str, **options: object) -> figure_views.FigurePlan:
    spec = localize_spec(SPEC, language)
    return plan_figure("k", spec, Settings(**options), localize_view(VIEW, language), "chart")


def test_a_figure_in_the_page_language_draws_the_page_words() -> None:
    plan = _plan("ko")
    assert plan.page_text is None
    assert plan.view.title == "가중치"
    assert plan.view.text["axis_candidate"] == "토큰"
    assert plan.view.text["axis_weight"] == "attention 가중치"
    assert dict(plan.spec.display) == {"그것": "그것(대명사)"}


def test_figure_language_draws_another_language_and_keeps_the_page_words() -> None:
    plan = _plan("ko", figure_language="en", glossary={"en": {"axis_weight": "share"}})
    assert plan.view.language == "en"
    assert plan.view.title == "Weights"
    assert plan.view.text["axis_candidate"] == "token"
    assert plan.view.text["axis_weight"] == "share"
    assert dict(plan.spec.display) == {"그것": "it"}
    assert plan.page_text is not None
    assert plan.page_text["axis_candidate"] == "토큰"
    assert plan.page_title == "가중치"  # <title> in the page's language, the drawing in English
    assert plan.key != _plan("ko").key
    assert plan.key != _plan("ko", figure_language="en").key  # the glossary is in the key


def test_a_figure_language_of_the_page_changes_nothing() -> None:
    assert _plan("ko", figure_language="ko").key == _plan("ko").key
    assert _plan("en", figure_language="en").page_text is None


def test_the_page_words_reach_the_renderer() -> None:
    assert chart_job(None, None) is figure_views.render_chart_job
    job = chart_job({"chart_name": "x"}, Labels())
    assert isinstance(job, partial)
    assert job.keywords == {
        "page_text": {"chart_name": "x"},
        "page_labels": Labels(),
        "page_title": None,
    }
    titled = chart_job({"chart_name": "x"}, Labels(), "가중치")
    assert isinstance(titled, partial)
    assert titled.keywords["page_title"] == "가중치"
    assert not _plan("ko", figure_language="en").ahead  # its page sends it, with the page words


def test_the_page_title_is_in_the_key() -> None:
    other = ViewOptions(
        show=("chart",),
        text_by_language=VIEW.text_by_language,
        title_by_language=MappingProxyType({"en": "Weights", "ko": "다른 제목"}),
    )
    spec = localize_spec(SPEC, "ko")
    settings = Settings(figure_language="en")
    second = plan_figure("k", spec, settings, localize_view(other, "ko"), "chart")
    assert second.page_title == "다른 제목"
    assert second.key != _plan("ko", figure_language="en").key
