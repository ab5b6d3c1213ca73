"""The targets layout's mermaid graph: the document → its candidates → each target → its top
candidates → its new representation and shift. At most three targets stand side by side (fewer
when their boxes are wide); more are further diagrams, so no diagram is wider than a phone shows
at a readable size."""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.core.results import DocumentResult
from mkdocs_selfattn.render.figure_text import ALL_ITEMS, keep_top, shorten, summed
from mkdocs_selfattn.render.labels import Labels, format_value, py_list
from mkdocs_selfattn.render.mermaid_nodes import (
    NODE_WIDTH,
    TOP_LIMIT,
    Diagram,
    Part,
    balanced,
    described,
    others,
    room_for,
    side_by_side,
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

    chains: list[list[list[Part]]] = []
    for target in result.targets:
        ranked = sorted(target.candidates, key=lambda c: -c.weight)[: min(top, TOP_LIMIT)]
        weights: list[Part] = [words["weights"]]
        weights += [
            (f"{name(c.token, c.index)} {format_value(c.weight, number_format)}",) for c in ranked
        ]
        if len(target.candidates) > ALL_ITEMS:
            listed_ids = {id(c) for c in ranked}
            rest = [c.weight for c in target.candidates if id(c) not in listed_ids]
            total = format_value(summed(rest, range(len(rest))), number_format)
            weights.append((f"{others(words, len(rest))} {total}",))
        chains.append(
            [
                [f"{words['target']}: {name(target.target, target.target_index)}"],
                weights,
                [
                    words["representation"],
                    py_list(target.context),
                    f"{words['shift']} {py_list(target.shift)}",
                ],
            ]
        )

    side = side_by_side(chains)
    room, wide = room_for(side), room_for(1)
    rows = balanced(len(chains), side) or [range(0)]
    title = page["acc_targets"].replace("{document}", said(result.document))
    out = []
    for r, row in enumerate(rows):
        diagram = Diagram(title=title)
        shown = [said(result.targets[n].target, result.targets[n].target_index) for n in row]
        diagram.description = described(page, r, len(rows), page["target"], shown)
        if r == 0:
            diagram.lines += [
                "  "
                + diagram.node("doc", "input", [words["document"], name(result.document)], wide),
                "  " + diagram.node("cand", "input", [words["candidates"], tuple(listed)], wide),
                "  doc --> cand",
            ]
        else:
            diagram.lines.append("  " + diagram.node("cand", "input", [words["candidates"]], wide))
        for n in row:
            target_box, weight_box, result_box = chains[n]
            diagram.lines += [
                f"  cand --> {diagram.node(f't{n}', 'target', target_box, room)}",
                f"  t{n} --> {diagram.node(f'w{n}', 'weight', weight_box, room)}",
                f"  w{n} --> {diagram.node(f'r{n}', 'result', result_box, room)}",
            ]
        out.append(diagram.source())
    return out
