"""A mermaid flowchart of one example: memo → candidates → each target → its top weights → new
representation, the chapter's figure with every number computed and every label escaped.

The questions and heads layouts have their own graphs (:mod:`mermaid_readings`). A document with
more candidates than a node can list names the top ones and "N others"; long tokens are
shortened (:mod:`figure_text`), so no node grows with the data."""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.core.results import DocumentResult
from mkdocs_selfattn.render.escape import mermaid_label
from mkdocs_selfattn.render.figure_text import ALL_ITEMS, keep_top, shorten, summed
from mkdocs_selfattn.render.labels import Labels, format_value, py_list
from mkdocs_selfattn.render.mermaid_nodes import CLASSES, NODE_WIDTH, TOP_LIMIT, label, others, rows
from mkdocs_selfattn.render.mermaid_readings import reading_mermaid

DEFAULT_TEXT: Mapping[str, str] = {
    "document": "document",
    "candidates": "candidate tokens",
    "target": "current token",
    "weights": "re-reads most",
    "representation": "new representation",
    "shift": "shift",
    "others": "{n} others",
    "query": "question",
    "context": "context",
    "group": "group",
    "head": "head",
    "separation": "head separation",
}


def render_mermaid(
    result: DocumentResult | ReadingResult,
    labels: Labels,
    *,
    top: int = 3,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
) -> str:
    """Mermaid source (without the fence). Node ids are generated, never taken from the CSV."""
    words = {**DEFAULT_TEXT, **(text or {})}
    if isinstance(result, ReadingResult):
        return reading_mermaid(result, labels, words, top=top, number_format=number_format)

    def t(key: str) -> str:
        return mermaid_label(words[key])

    def name(token: str, index: int | None = None) -> str:
        return mermaid_label(shorten(labels(token, index), NODE_WIDTH))

    candidates: list[tuple[str, int | None]] = []
    heaviest: dict[tuple[str, int | None], float] = {}
    for target in result.targets:
        for cand in target.candidates:
            key = (cand.token, cand.index)
            if key not in heaviest:
                candidates.append(key)
            heaviest[key] = max(heaviest.get(key, 0.0), cand.weight)
    kept = keep_top(len(candidates), lambda i: heaviest[candidates[i]])
    listed = [name(*candidates[i]) for i in kept.items]
    if kept.others:
        listed.append(others(words, len(kept.others)))
    lines = [
        "flowchart TD",
        f"  doc{label(t('document'), name(result.document))}",
        "  cand" + label(t("candidates"), rows(listed)),
        "  doc --> cand",
    ]
    for n, target in enumerate(result.targets):
        ranked = sorted(target.candidates, key=lambda c: -c.weight)[: min(top, TOP_LIMIT)]
        weight_lines = [
            f"{name(c.token, c.index)} {format_value(c.weight, number_format)}" for c in ranked
        ]
        if len(target.candidates) > ALL_ITEMS:
            listed_ids = {id(c) for c in ranked}
            rest = [c.weight for c in target.candidates if id(c) not in listed_ids]
            total = format_value(summed(rest, range(len(rest))), number_format)
            weight_lines.append(f"{others(words, len(rest))} {total}")
        representation = mermaid_label(py_list(target.representation))
        shift = mermaid_label(py_list(target.shift))
        target_label = name(target.target, target.target_index)
        lines += [
            f"  cand --> t{n}{label(t('target') + ': ' + target_label)}",
            f"  t{n} --> w{n}{label(t('weights'), *weight_lines)}",
            f"  w{n} --> r{n}"
            + label(t("representation"), representation, f"{t('shift')} {shift}"),
        ]
    lines.append(CLASSES)
    n_targets = len(result.targets)
    if n_targets:
        lines += [
            "  class doc,cand input",
            "  class " + ",".join(f"t{n}" for n in range(n_targets)) + " target",
            "  class " + ",".join(f"w{n}" for n in range(n_targets)) + " weight",
            "  class " + ",".join(f"r{n}" for n in range(n_targets)) + " result",
        ]
    return "\n".join(lines) + "\n"


def mermaid_html(source: str, element: str = "pre", class_name: str = "mermaid") -> str:
    """What pymdownx.superfences makes of a ``mermaid`` fence (``fence_code_format`` for
    ``pre``, ``fence_div_format`` for ``div``), so the figure can bypass markdown and the search
    index and still read exactly as the fence would."""
    body = source.rstrip("\n").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if element == "div":
        return f'<div class="{class_name}">{body}</div>'
    return f'<pre class="{class_name}"><code>{body}</code></pre>'
