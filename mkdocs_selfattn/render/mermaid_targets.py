"""The targets layout's mermaid graph: the document → its candidates → each target → its top
candidates → its new representation and shift, drawn as :func:`mermaid_nodes.chain_diagrams`
draws every reader chain (a target is a reader of the document's candidates)."""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.core.readings import GroupResult, ReadingResult
from mkdocs_selfattn.core.results import target_head
from mkdocs_selfattn.render.figure_text import shorten
from mkdocs_selfattn.render.labels import Labels, py_list
from mkdocs_selfattn.render.mermaid_nodes import (
    NODE_WIDTH,
    Chain,
    Diagram,
    chain_diagrams,
    member_items,
    weight_items,
)


def targets_mermaid(
    result: ReadingResult,
    labels: Labels,
    words: Mapping[str, str],
    *,
    top: int = 3,
    number_format: str | None = None,
    page: Mapping[str, str],
    said: Labels,
) -> list[str]:
    """Mermaid sources (without the fence) for a targets example."""

    def name(token: str, index: int | None = None) -> str:
        return shorten(labels(token, index), NODE_WIDTH)

    heaviest: dict[tuple[str, int | None], float] = {}
    for group in result.groups:
        for line, weight in zip(group.lines, target_head(group).weights, strict=True):
            key = (line.token, line.index)
            heaviest[key] = max(heaviest.get(key, 0.0), weight)
    candidates = list(heaviest)
    listed = member_items(
        len(candidates),
        lambda i: name(*candidates[i]),
        lambda i: heaviest[candidates[i]],
        words,
    )

    def chain(group: GroupResult) -> Chain:
        lines, head = group.lines, target_head(group)
        return Chain(
            reader=[f"{words['target']}: {name(group.name, group.index)}"],
            weights=[
                words["weights"],
                *weight_items(
                    lambda i: name(lines[i].token, lines[i].index),
                    head.weights,
                    top,
                    words,
                    number_format,
                ),
            ],
            result=[
                words["representation"],
                py_list(head.context),
                f"{words['shift']} {py_list(head.shift)}",
            ],
            said=said(group.name, group.index),
        )

    chains = [chain(group) for group in result.groups]
    document = result.document or ""  # a targets example always names its document

    def inputs(diagram: Diagram, first: bool, wide: float) -> list[str]:
        if not first:
            return ["  " + diagram.node("cand", "input", [words["candidates"]], wide)]
        return [
            "  " + diagram.node("doc", "input", [words["document"], name(document)], wide),
            "  " + diagram.node("cand", "input", [words["candidates"], listed], wide),
            "  doc --> cand",
        ]

    return chain_diagrams(
        chains,
        inputs=inputs,
        source="cand",
        ids=("t", "w", "r"),
        title=page["acc_targets"].replace("{document}", said(document)),
        page=page,
        what=page["target"],
    )
