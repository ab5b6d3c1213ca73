"""The targets layout's mermaid graph: the document → its candidates → each target → its top
candidates → its new representation and shift, drawn as :func:`mermaid_nodes.chain_diagrams`
draws every reader chain (a target is a reader of the document's candidates)."""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.core.results import DocumentResult, TargetResult
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
    result: DocumentResult,
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
    for target in result.targets:
        for cand in target.candidates:
            key = (cand.token, cand.index)
            heaviest[key] = max(heaviest.get(key, 0.0), cand.weight)
    candidates = list(heaviest)
    listed = member_items(
        len(candidates),
        lambda i: name(*candidates[i]),
        lambda i: heaviest[candidates[i]],
        words,
    )

    def chain(target: TargetResult) -> Chain:
        cands = target.candidates
        return Chain(
            reader=[f"{words['target']}: {name(target.target, target.target_index)}"],
            weights=[
                words["weights"],
                *weight_items(
                    lambda i: name(cands[i].token, cands[i].index),
                    [c.weight for c in cands],
                    top,
                    words,
                    number_format,
                ),
            ],
            result=[
                words["representation"],
                py_list(target.context),
                f"{words['shift']} {py_list(target.shift)}",
            ],
            said=said(target.target, target.target_index),
        )

    chains = [chain(target) for target in result.targets]

    def inputs(diagram: Diagram, first: bool, wide: float) -> list[str]:
        if not first:
            return ["  " + diagram.node("cand", "input", [words["candidates"]], wide)]
        return [
            "  " + diagram.node("doc", "input", [words["document"], name(result.document)], wide),
            "  " + diagram.node("cand", "input", [words["candidates"], listed], wide),
            "  doc --> cand",
        ]

    return chain_diagrams(
        chains,
        inputs=inputs,
        source="cand",
        ids=("t", "w", "r"),
        title=page["acc_targets"].replace("{document}", said(result.document)),
        page=page,
        what=page["target"],
    )
