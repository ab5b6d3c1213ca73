"""The plugin's own words (headers, axis titles, node words, error titles) in each language.

English is the default and is exactly what the renderers wrote before there were languages, so an
English page is unchanged. A language without a catalogue, or a word missing from one, falls back
to English: a page never fails for want of a word. A block's ``text:`` still wins over all of these.
"""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.render.chart import DEFAULT_TEXT as CHART_EN
from mkdocs_selfattn.render.layout_tables import READING_TEXT as READING_EN
from mkdocs_selfattn.render.mermaid import DEFAULT_TEXT as MERMAID_EN
from mkdocs_selfattn.render.tables import DEFAULT_TEXT as TABLE_EN

DEFAULT_LANGUAGE = "en"

TABLE: Mapping[str, Mapping[str, str]] = {
    "en": TABLE_EN,
    "ko": {
        "candidate": "후보 토큰",
        "role": "역할",
        "score": "점수",
        "weight": "가중치",
        "target": "현재 토큰",
        "top": "최대",
        "representation": "새 표현",
        "baseline": "baseline",
        "shift": "변화",
    },
    "zh": {
        "candidate": "候选 token",
        "role": "角色",
        "score": "分数",
        "weight": "权重",
        "target": "当前 token",
        "top": "最高",
        "representation": "新的表示",
        "baseline": "baseline",
        "shift": "变化",
    },
}

READING: Mapping[str, Mapping[str, str]] = {
    "en": READING_EN,
    "ko": {
        "question": "질문",
        "context": "문맥",
        "difference": "차이",
        "separation": "head 간 거리",
        "group": "그룹",
        "others": "… 나머지 {n}줄",
        "vector": "벡터",
    },
    "zh": {
        "question": "问题",
        "context": "上下文",
        "difference": "差",
        "separation": "head 之间的距离",
        "group": "分组",
        "others": "… 其余 {n} 行",
        "vector": "向量",
    },
}
"""The questions and heads layouts' table words, added to :data:`TABLE`'s for those tables."""

MERMAID: Mapping[str, Mapping[str, str]] = {
    "en": MERMAID_EN,
    "ko": {
        "document": "문서",
        "candidates": "후보 토큰",
        "target": "현재 토큰",
        "weights": "가장 많이 다시 읽는 토큰",
        "representation": "새 표현",
        "shift": "변화",
        "others": "그 밖의 {n}개",
        "query": "질문",
        "context": "문맥",
        "group": "그룹",
        "head": "head",
        "separation": "head 간 거리",
        "acc_targets": "{document}의 현재 토큰이 후보를 다시 읽는 방식",
        "acc_questions": "질문마다 가장 크게 보는 줄과 그 문맥",
        "acc_heads": "{group}: head마다 가장 크게 보는 토큰과 그 문맥",
        "acc_part": "{n}개 중 {i}번째",
    },
    "zh": {
        "document": "文档",
        "candidates": "候选 token",
        "target": "当前 token",
        "weights": "最多重新参考",
        "representation": "新的表示",
        "shift": "变化",
        "others": "其余 {n} 个",
        "query": "问题",
        "context": "上下文",
        "group": "分组",
        "head": "head",
        "separation": "head 之间的距离",
        "acc_targets": "{document} 中各个当前 token 如何重新参考候选",
        "acc_questions": "每个问题最看重的行及其上下文",
        "acc_heads": "{group}：每个 head 最看重的 token 及其上下文",
        "acc_part": "第 {i} 部分，共 {n} 部分",
    },
}

CHART: Mapping[str, Mapping[str, str]] = {
    "en": CHART_EN,
    "ko": {
        "chart_title": "",
        "axis_weight": "attention 가중치",
        "axis_candidate": "후보 토큰",
        "chart_name": "{targets}의 attention 가중치",
        "others": "그 밖의 {n}개",
        "axis_context": "문맥",
        "baseline": "균등 baseline",
        "context_name": "{queries}의 문맥과 균등 baseline",
        "axis_separation": "head 간 거리",
        "axis_group": "그룹",
        "separation_name": "{group}별 {first}와 {second}의 거리",
        "space_name": "문맥 공간의 head 문맥",
        "space_axes": "{n}개 축 중 {x}, {y}",
        "first_groups": "{n}개 그룹 중 처음 {shown}개",
        "same_point": "한 점에 겹침: {points}",
        "axis_x": "{axis}",
        "axis_y": "{axis}",
    },
    "zh": {
        "chart_title": "",
        "axis_weight": "attention 权重",
        "axis_candidate": "候选 token",
        "chart_name": "{targets} 的 attention 权重",
        "others": "其余 {n} 个",
        "axis_context": "上下文",
        "baseline": "均匀 baseline",
        "context_name": "{queries} 的上下文与均匀 baseline",
        "axis_separation": "head 之间的距离",
        "axis_group": "分组",
        "separation_name": "各{group}中 {first} 与 {second} 的距离",
        "space_name": "上下文空间中各 head 的上下文",
        "space_axes": "{n} 根轴中的 {x} 与 {y}",
        "first_groups": "{n} 个分组中的前 {shown} 个",
        "same_point": "重合于一点：{points}",
        "axis_x": "{axis}",
        "axis_y": "{axis}",
    },
}

PAGE: Mapping[str, Mapping[str, str]] = {
    "en": {
        "error_title": "selfattn: this example could not be built",
        "inline_error": "⚠ selfattn error",
        "scripts_off": (
            "*The example script was not run for this build "
            "(scripts are switched off); this is the core's printout.*"
        ),
    },
    "ko": {
        "error_title": "selfattn: 이 예제를 만들 수 없습니다",
        "inline_error": "⚠ selfattn 오류",
        "scripts_off": (
            "*이번 빌드에서는 예제 스크립트를 실행하지 않았습니다(scripts 꺼짐). "
            "아래는 코어가 계산한 출력입니다.*"
        ),
    },
    "zh": {
        "error_title": "selfattn：无法生成这个示例",
        "inline_error": "⚠ selfattn 错误",
        "scripts_off": "*本次构建没有运行示例脚本（scripts 已关闭）；这是核心计算的输出。*",
    },
}

TRY_READING: Mapping[str, Mapping[str, str]] = {
    # The try view's words for the questions and heads layouts (render/try_view.reading_words).
    # The targets layout's words stay in render/try_view.py, so those pages do not change.
    "en": {
        "question": "question",
        "group": "group",
        "head": "head",
        "context": "context",
        "difference": "difference",
        "sum": "sum",
        "vector": "vector",
        "rescale": "Divide each head's weights by their sum",
        "refused_sum": "{head}: the weights sum to {sum}, not 1, so the build would refuse this "
        "CSV (given weights must sum to 1 within 1e-9). Edit them, or rescale:",
        "refused_value": "{head}: a given weight must be finite and ≥ 0, so the build would "
        "refuse this CSV.",
        "refused_other": "The build would refuse this CSV for another group, so no numbers are "
        "shown until it is fixed.",
        "previous_rows": "previous lines",
        "next_rows": "next lines",
        "normalised": "normalise: true, so each head's weights are divided by their sum unless "
        "they already sum to 1 within 1e-9, as the build does",
    },
    "ko": {
        "question": "질문",
        "group": "그룹",
        "head": "head",
        "context": "문맥",
        "difference": "차이",
        "sum": "합계",
        "vector": "벡터",
        "rescale": "각 head의 가중치를 합계로 나누기",
        "refused_sum": "{head}: 가중치의 합이 1이 아니라 {sum}이므로 빌드는 이 CSV를 거부합니다"
        "(주어진 가중치의 합은 1e-9 안에서 1이어야 합니다). 값을 고치거나 다시 맞추세요:",
        "refused_value": "{head}: 주어진 가중치는 유한하고 0 이상이어야 하므로 빌드는 이 CSV를 "
        "거부합니다.",
        "refused_other": "다른 그룹 때문에 빌드는 이 CSV를 거부하므로, 고칠 때까지 값을 "
        "보여 주지 않습니다.",
        "previous_rows": "이전 줄",
        "next_rows": "다음 줄",
        "normalised": "normalise: true 이므로, 합이 이미 1e-9 안에서 1이 아니면 빌드처럼 각 head의 "
        "가중치를 합계로 나눕니다",
    },
    "zh": {
        "question": "问题",
        "group": "分组",
        "head": "head",
        "context": "上下文",
        "difference": "差",
        "sum": "合计",
        "vector": "向量",
        "rescale": "把每个 head 的权重除以它们的合计",
        "refused_sum": "{head}：权重合计是 {sum}，不是 1，构建会拒绝这份 CSV"
        "（给定权重的合计必须在 1e-9 以内等于 1）。请改回来，或者按比例缩放：",
        "refused_value": "{head}：给定权重必须是有限的数且不小于 0，构建会拒绝这份 CSV。",
        "refused_other": "另一个分组使构建拒绝这份 CSV，改好之前这里不显示数值。",
        "previous_rows": "上一页",
        "next_rows": "下一页",
        "normalised": "normalise: true：合计不在 1e-9 以内等于 1 时，像构建一样把每个 head 的权重"
        "除以合计",
    },
}

LAYOUT: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    # The questions and heads layouts read CSV lines, not a document's tokens, and their top
    # lines are the ones a question (or head) values most: their own words, over every view's.
    "questions": {
        "en": {
            "candidates": "lines",
            "candidate": "line",
            "axis_candidate": "line",
            "weights": "values most",
        },
        "ko": {
            "candidates": "줄",
            "candidate": "줄",
            "axis_candidate": "줄",
            "weights": "가장 크게 봄",
        },
        "zh": {
            "candidates": "行",
            "candidate": "行",
            "axis_candidate": "行",
            "weights": "最看重",
        },
    },
    "heads": {
        "en": {
            "candidates": "lines",
            "candidate": "line",
            "axis_candidate": "line",
            "axis_weight": "given weight",
            "weights": "values most",
        },
        "ko": {
            "candidates": "줄",
            "candidate": "줄",
            "axis_candidate": "줄",
            "axis_weight": "주어진 가중치",
            "weights": "가장 크게 봄",
        },
        "zh": {
            "candidates": "行",
            "candidate": "行",
            "axis_candidate": "行",
            "axis_weight": "给定权重",
            "weights": "最看重",
        },
    },
}
"""Each layout's own words, over the catalogues' (the targets layout has none: the catalogues'
words are its words). Only keys a catalogue has are taken from here."""

LANGUAGES = ("en", "ko", "zh")
"""Languages with a full catalogue."""


def primary(language: str | None) -> str:
    """``zh-Hans``, ``zh_TW`` or ``ZH`` → ``zh``; nothing → the default language."""
    if not language:
        return DEFAULT_LANGUAGE
    return language.replace("_", "-").split("-", 1)[0].lower()


Glossary = Mapping[str, Mapping[str, str]]
"""The site's ``glossary`` option: language code → {word key → text}."""


def words(
    catalogue: Mapping[str, Mapping[str, str]],
    language: str | None,
    layout: str | None = None,
    glossary: Glossary | None = None,
) -> dict[str, str]:
    """English overlaid with the language's words (missing words stay English), then the
    layout's own words (:data:`LAYOUT`), then the site's ``glossary`` for the language."""
    found = {**catalogue[DEFAULT_LANGUAGE], **catalogue.get(primary(language), {})}
    own = LAYOUT.get(layout or "", {})
    extra = [own.get(DEFAULT_LANGUAGE, {}), own.get(primary(language), {})]
    extra.append(glossary_words(glossary, language))
    for more in extra:
        found.update((key, text) for key, text in more.items() if key in found)
    return found


def glossary_words(glossary: Glossary | None, language: str | None) -> Mapping[str, str]:
    """The site glossary's words for ``language``: its own entry, else its primary subtag's."""
    if not glossary or not language:
        return {}
    if language in glossary:
        return glossary[language]
    wanted = primary(language)
    for code, entry in glossary.items():
        if primary(code) == wanted:
            return entry
    return {}


def page_word(key: str, language: str | None) -> str:
    return words(PAGE, language)[key]
