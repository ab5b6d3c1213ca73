"""Mermaid graphs of the questions and heads layouts, one diagram per group.

Questions: the group's lines → each question → its top lines → its context and shift, the
questions figure. Heads: each group (scenario) → each head with its top tokens and context → the
separation of the two heads the ``separation_chart`` compares. At most three questions or heads
stand side by side (fewer when their boxes are wide); more are further diagrams of the group, so
no diagram is wider than a phone shows at a readable size. Node ids are generated, never taken
from the CSV; every label is escaped, long tokens shortened, and a group with more lines than a
node can list shows the heaviest and "N others".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, ReadingResult
from mkdocs_selfattn.render.figure_text import shorten
from mkdocs_selfattn.render.labels import Labels, format_value
from mkdocs_selfattn.render.mermaid_nodes import (
    NODE_WIDTH,
    TOP_LIMIT,
    Chain,
    Diagram,
    Part,
    balanced,
    chain_diagrams,
    described,
    member_items,
    others,
    room_for,
    side_by_side,
    weight_items,
)

MAX_GROUPS = 12
"""Groups a figure draws; the others are one "N others" box (the tables list them all)."""


def reading_mermaid(
    result: ReadingResult,
    labels: Labels,
    words: Mapping[str, str],
    *,
    top: int = 3,
    number_format: str | None = None,
    page: Mapping[str, str] | None = None,
    said: Labels | None = None,
) -> list[str]:
    """Mermaid sources (without the fence) for a ``queries:`` or ``heads:`` example."""
    graph = _Graph(labels, words, min(top, TOP_LIMIT), number_format, page or words, said or labels)
    out: list[str] = []
    for group in result.groups[:MAX_GROUPS]:
        out += GRAPHS[result.layout](graph, group)
    rest = len(result.groups) - MAX_GROUPS
    if rest > 0:
        # A file of hundreds of scenarios: the first ones, and a count of the others.
        diagram = Diagram(title=others(graph.page, rest))
        diagram.lines.append("  " + diagram.node("more", "input", [others(words, rest)], 99.0))
        out.append(diagram.source())
    return out


class _Graph:
    def __init__(
        self,
        labels: Labels,
        words: Mapping[str, str],
        top: int,
        number_format: str | None,
        page: Mapping[str, str],
        said: Labels,
    ) -> None:
        self.labels = labels
        self.words = words
        self.top = top
        self.number_format = number_format
        self.page = page
        self.said = said

    def name(self, text: str) -> str:
        return shorten(self.labels(text), NODE_WIDTH)

    def number(self, values: tuple[float, ...]) -> str:
        shown = [format_value(v, self.number_format) for v in values]
        return shown[0] if len(shown) == 1 else "[" + ", ".join(shown) + "]"

    def tops(self, group: GroupResult, head: HeadResult) -> list[Part]:
        return weight_items(
            lambda i: self.name(group.lines[i].token),
            head.weights,
            self.top,
            self.words,
            self.number_format,
        )

    def members(self, group: GroupResult) -> tuple[str, ...]:
        def weight(i: int) -> float:
            return max(h.weights[i] for h in group.heads) if group.heads else 0.0

        return member_items(
            len(group.lines), lambda i: self.name(group.lines[i].token), weight, self.words
        )

    def questions(self, group: GroupResult) -> list[str]:
        title: list[Part] = [self.words["candidates"]]
        if group.name:
            title.append(self.name(group.name))
        chains = [
            Chain(
                reader=[f"{self.words['query']}: {self.name(head.name)}"],
                weights=[self.words["weights"], *self.tops(group, head)],
                result=[
                    self.words["context"],
                    self.number(head.context),
                    f"{self.words['shift']} {self.number(head.shift)}",
                ],
                said=self.said(head.name),
            )
            for head in group.heads
        ]
        members = self.members(group)

        def inputs(diagram: Diagram, first: bool, wide: float) -> list[str]:
            header = [*title, members] if first else title
            return ["  " + diagram.node("g", "input", header, wide)]

        return chain_diagrams(
            chains,
            inputs=inputs,
            source="g",
            ids=("q", "w", "c"),
            title=self.page["acc_questions"],
            page=self.page,
            what=self.page["query"],
        )

    def heads(self, group: GroupResult) -> list[str]:
        title = f"{self.words['group']}: {self.name(group.name)}"
        boxes: list[list[list[Part]]] = [
            [
                [
                    f"{self.words['head']}: {self.name(head.name)}",
                    self.words["weights"],
                    *self.tops(group, head),
                    f"{self.words['context']} {self.number(head.context)}",
                ]
            ]
            for head in group.heads
        ]
        side = side_by_side(boxes)
        room, wide = room_for(side), room_for(1)
        rows = balanced(len(boxes), side, fuller_last=True) or [range(0)]
        last = len(group.heads) - 1
        out = []
        for r, row in enumerate(rows):
            diagram = Diagram(
                title=self.page["acc_heads"].replace("{group}", self.said(group.name))
            )
            shown = [self.said(group.heads[n].name) for n in row]
            diagram.description = described(self.page, r, len(rows), self.page["head"], shown)
            header: list[Part] = [title, self.members(group)] if r == 0 else [title]
            diagram.lines.append("  " + diagram.node("g", "input", header, wide))
            for n in row:
                diagram.lines.append(
                    f"  g --> {diagram.node(f'h{n}', 'target', boxes[n][0], room)}"
                )
            if last >= 1 and last in row:
                # The separation of the last two heads, under the heads it compares.
                a, b = group.heads[last - 1].name, group.heads[last].name
                value = format_value(group.separation(a, b), self.number_format)
                pair = f"{self.name(a)} – {self.name(b)}: {value}"
                sep = diagram.node("s", "result", [self.words["separation"], (pair,)], wide)
                ends = [n for n in (last - 1, last) if n in row]
                diagram.lines.append(f"  h{ends[0]} -.- {sep}")
                diagram.lines += [f"  h{n} -.- s" for n in ends[1:]]
            out.append(diagram.source())
        return out


GRAPHS: Mapping[str, Callable[[_Graph, GroupResult], list[str]]] = {
    "questions": _Graph.questions,
    "heads": _Graph.heads,
}
"""Each reading layout's figure of one group."""
