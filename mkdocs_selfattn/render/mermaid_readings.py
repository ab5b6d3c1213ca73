"""Mermaid graphs of the questions and heads layouts.

Questions: the group's lines → each question → its top lines → its context and shift, the
questions figure. Heads: each group (scenario) → each head with its top tokens and context → the
separation of the two heads the ``separation_chart`` compares. Node ids are generated, never taken
from the CSV; every label is escaped, long tokens shortened, and a group with more lines than a
node can list shows the heaviest and "N others".
"""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, ReadingResult
from mkdocs_selfattn.render.escape import mermaid_label
from mkdocs_selfattn.render.figure_text import ALL_ITEMS, keep_top, shorten, summed
from mkdocs_selfattn.render.labels import Labels, format_value
from mkdocs_selfattn.render.mermaid_nodes import CLASSES, NODE_WIDTH, TOP_LIMIT, label, others, rows

MAX_GROUPS = 12
"""Groups a graph draws; the others are one "N others" node (the tables list them all)."""

ROW = 5
"""Names per row of a node's list (mermaid wraps a label wider than about 200 px itself)."""


def reading_mermaid(
    result: ReadingResult,
    labels: Labels,
    words: Mapping[str, str],
    *,
    top: int = 3,
    number_format: str | None = None,
) -> str:
    """Mermaid source (without the fence) for a ``queries:`` or ``heads:`` example."""
    # Heads read left to right, one group under the other: side by side, three scenarios of
    # three heads would be nine nodes in a row, too small to read in a page's column.
    direction = "TD" if result.layout == "questions" else "LR"
    graph = _Graph(labels, words, min(top, TOP_LIMIT), number_format, direction)
    for gi, group in enumerate(result.groups[:MAX_GROUPS]):
        if result.layout == "questions":
            graph.questions(gi, group)
        else:
            graph.heads(gi, group)
    rest = len(result.groups) - MAX_GROUPS
    if rest > 0:
        # A file of hundreds of scenarios: the first ones, and a count of the others.
        graph.lines.append("  " + graph.node("more", "input", others(words, rest)))
    return graph.source()


class _Graph:
    def __init__(
        self,
        labels: Labels,
        words: Mapping[str, str],
        top: int,
        number_format: str | None,
        direction: str,
    ) -> None:
        self.labels = labels
        self.words = words
        self.top = top
        self.number_format = number_format
        self.lines = [f"flowchart {direction}"]
        self.classes: dict[str, list[str]] = {"input": [], "target": [], "weight": [], "result": []}

    def t(self, key: str) -> str:
        return mermaid_label(self.words[key])

    def name(self, text: str) -> str:
        return mermaid_label(shorten(self.labels(text), NODE_WIDTH))

    def number(self, values: tuple[float, ...]) -> str:
        shown = [format_value(v, self.number_format) for v in values]
        return mermaid_label(shown[0] if len(shown) == 1 else "[" + ", ".join(shown) + "]")

    def node(self, ident: str, kind: str, *lines: str) -> str:
        self.classes[kind].append(ident)
        return f"{ident}{label(*lines)}"

    def tops(self, group: GroupResult, head: HeadResult) -> list[str]:
        picked = head.top(self.top)
        out = [
            f"{self.name(group.lines[i].token)} {format_value(head.weights[i], self.number_format)}"
            for i in picked
        ]
        listed = set(picked)
        rest = [i for i in range(len(group.lines)) if i not in listed]
        if len(group.lines) > ALL_ITEMS:
            # A group of thousands: what the listed lines leave to all the others together.
            total = format_value(summed(head.weights, rest), self.number_format)
            out.append(f"{others(self.words, len(rest))} {total}")
        return out

    def members(self, group: GroupResult, head: HeadResult | None) -> str:
        def weight(i: int) -> float:
            return 0.0 if head is None else max(h.weights[i] for h in group.heads)

        kept = keep_top(len(group.lines), weight)
        listed = [self.name(group.lines[i].token) for i in kept.items]
        if kept.others:
            listed.append(others(self.words, len(kept.others)))
        return rows(listed, ROW)

    def questions(self, gi: int, group: GroupResult) -> None:
        cand = f"g{gi}"
        title = [self.t("candidates")] + ([self.name(group.name)] if group.name else [])
        first = group.heads[0] if group.heads else None
        self.lines.append("  " + self.node(cand, "input", *title, self.members(group, first)))
        for qi, head in enumerate(group.heads):
            q, w, c = f"g{gi}q{qi}", f"g{gi}w{qi}", f"g{gi}c{qi}"
            shift = f"{self.t('shift')} {self.number(head.shift)}"
            self.lines += [
                f"  {cand} --> "
                + self.node(q, "target", f"{self.t('query')}: {self.name(head.name)}"),
                f"  {q} --> " + self.node(w, "weight", self.t("weights"), *self.tops(group, head)),
                f"  {w} --> "
                + self.node(c, "result", self.t("context"), self.number(head.context), shift),
            ]

    def heads(self, gi: int, group: GroupResult) -> None:
        g = f"g{gi}"
        first = group.heads[0] if group.heads else None
        self.lines.append(
            "  "
            + self.node(
                g,
                "input",
                f"{self.t('group')}: {self.name(group.name)}",
                self.members(group, first),
            )
        )
        for hi, head in enumerate(group.heads):
            h = f"g{gi}h{hi}"
            self.lines.append(
                f"  {g} --> "
                + self.node(
                    h,
                    "target",
                    f"{self.t('head')}: {self.name(head.name)}",
                    self.t("weights"),
                    *self.tops(group, head),
                    f"{self.t('context')} {self.number(head.context)}",
                )
            )
        if len(group.heads) >= 2:
            a, b = len(group.heads) - 2, len(group.heads) - 1
            first_name, second_name = group.heads[a].name, group.heads[b].name
            value = format_value(group.separation(first_name, second_name), self.number_format)
            s = f"g{gi}s"
            pair = f"{self.name(first_name)} – {self.name(second_name)}"
            self.lines.append(
                f"  g{gi}h{a} -.- "
                + self.node(s, "result", self.t("separation"), f"{pair}: {value}")
            )
            self.lines.append(f"  g{gi}h{b} -.- {s}")

    def source(self) -> str:
        out = [*self.lines, CLASSES]
        for kind, idents in self.classes.items():
            if idents:
                out.append(f"  class {','.join(idents)} {kind}")
        return "\n".join(out) + "\n"
