"""The mermaid figures of every layout, drawn from the one record family.

Two figures exist, and a layout's registry entry (``render/layout_renderers.RENDERERS``) names
the one it draws and the words it draws it with:

- :class:`Chains`, for layouts whose readers each read the rows on their own (targets,
  questions): the rows → each reader → its top rows → its result and shift. The rows are the
  document's for a layout whose groups re-read one document's candidates (targets: a candidate
  is one member however many targets read it), else each group's (one diagram set per group,
  at most :data:`MAX_GROUPS`).
- :func:`heads_figure`, for readers that read one scenario together (heads): each head with its
  top tokens and context, and the separation of the two heads the ``separation_chart`` compares.

Node ids are generated, never taken from the CSV; every label is escaped, long tokens shortened,
and an input with more rows than a node can list shows the heaviest and "N others".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from mkdocs_selfattn.core.readings import GroupResult, HeadResult, ReadingResult
from mkdocs_selfattn.render.figure_text import shorten
from mkdocs_selfattn.render.labels import Labels, format_value, py_list
from mkdocs_selfattn.render.mermaid_nodes import (
    NODE_WIDTH,
    TOP_LIMIT,
    Chain,
    Diagram,
    Inputs,
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

Figure = Callable[..., list[str]]
"""(result, labels, words, *, top, number_format, page, said) → mermaid sources."""


class _Drawing:
    """What every box of one figure needs: its labels, words, ``top:`` and number format."""

    def __init__(
        self,
        labels: Labels,
        words: Mapping[str, str],
        top: int,
        number_format: str | None,
        page: Mapping[str, str],
        said: Labels,
        lists: bool,
    ) -> None:
        self.labels, self.words, self.page, self.said = labels, words, page, said
        self.top = min(top, TOP_LIMIT)
        self.number_format = number_format
        self.lists = lists
        """Results print as lists rounded like ``print()`` (the layout's kind says), not one
        number per axis in the block's ``number_format``."""

    def name(self, token: str, index: int | None = None) -> str:
        return shorten(self.labels(token, index), NODE_WIDTH)

    def vector(self, values: Sequence[float]) -> str:
        """A list rounded like ``print()`` where the layout prints lists; else one number per
        axis in the block's format, a single axis one number, as the readings' printouts show."""
        if self.lists:
            return py_list(values)
        shown = [format_value(v, self.number_format) for v in values]
        return shown[0] if len(shown) == 1 else "[" + ", ".join(shown) + "]"

    def tops(self, group: GroupResult, head: HeadResult) -> list[Part]:
        lines = group.lines
        return weight_items(
            lambda i: self.name(lines[i].token, lines[i].index),
            head.weights,
            self.top,
            self.words,
            self.number_format,
        )

    def members(self, groups: Sequence[GroupResult], by_token: bool) -> tuple[str, ...]:
        """The rows an input box lists, each with its heaviest weight under any reader.
        ``by_token``: a row is its token (at its position), however many groups hold it."""
        heaviest: dict[object, tuple[str, float]] = {}
        for group in groups:
            for i, line in enumerate(group.lines):
                key = (line.token, line.index) if by_token else (id(group), i)
                weight = max((h.weights[i] for h in group.heads), default=0.0)
                shown, before = heaviest.get(key, ("", 0.0))
                heaviest[key] = (shown or self.name(line.token, line.index), max(before, weight))
        rows = list(heaviest.values())
        return member_items(len(rows), lambda i: rows[i][0], lambda i: rows[i][1], self.words)


@dataclass(frozen=True)
class Chains:
    """A layout drawn as one chain per reader under its rows, and the words it is drawn with."""

    reader: str
    """The word (a key of the figure's text) of a reader's box and the accessible description."""
    result: str
    """The word of the result box (a target's "new representation", a question's "context")."""
    ids: tuple[str, str, str]
    """Node id prefixes of the reader, weights and result boxes."""
    title: str
    """The page word of the accessible title; ``{document}`` in it is the document's name."""

    def __call__(
        self,
        result: ReadingResult,
        labels: Labels,
        words: Mapping[str, str],
        *,
        top: int = 3,
        number_format: str | None = None,
        page: Mapping[str, str] | None = None,
        said: Labels | None = None,
    ) -> list[str]:
        page, said = page or words, said or labels
        draw = _Drawing(labels, words, top, number_format, page, said, result.kind.lists)
        # Targets re-read one document's candidates: one input box for the document, under its
        # name, instead of one per group.
        if result.kind.readers_are_tokens:
            return self._document(draw, result.groups, result.document or "")
        out: list[str] = []
        for group in result.groups[:MAX_GROUPS]:
            out += self._group(draw, group)
        return out + _more(draw, len(result.groups) - MAX_GROUPS)

    def _document(self, draw: _Drawing, groups: Sequence[GroupResult], document: str) -> list[str]:
        words = draw.words
        listed = draw.members(groups, by_token=True)

        def inputs(diagram: Diagram, first: bool, wide: float) -> list[str]:
            if not first:
                return ["  " + diagram.node("cand", "input", [words["candidates"]], wide)]
            return [
                "  " + diagram.node("doc", "input", [words["document"], draw.name(document)], wide),
                "  " + diagram.node("cand", "input", [words["candidates"], listed], wide),
                "  doc --> cand",
            ]

        title = draw.page[self.title].replace("{document}", draw.said(document))
        return self._draw(draw, groups, inputs, "cand", title)

    def _group(self, draw: _Drawing, group: GroupResult) -> list[str]:
        header: list[Part] = [draw.words["candidates"]]
        if group.name:
            header.append(draw.name(group.name))
        members = draw.members([group], by_token=False)

        def inputs(diagram: Diagram, first: bool, wide: float) -> list[str]:
            parts = [*header, members] if first else header
            return ["  " + diagram.node("g", "input", parts, wide)]

        return self._draw(draw, [group], inputs, "g", draw.page[self.title])

    def _draw(
        self,
        draw: _Drawing,
        groups: Sequence[GroupResult],
        inputs: Inputs,
        source: str,
        title: str,
    ) -> list[str]:
        words, vector = draw.words, draw.vector
        chains = [
            Chain(
                reader=[f"{words[self.reader]}: {draw.name(head.name, group.index)}"],
                weights=[words["weights"], *draw.tops(group, head)],
                result=[
                    words[self.result],
                    vector(head.context),
                    f"{words['shift']} {vector(head.shift)}",
                ],
                said=draw.said(head.name, group.index),
            )
            for group in groups
            for head in group.heads
        ]
        return chain_diagrams(
            chains,
            inputs=inputs,
            source=source,
            ids=self.ids,
            title=title,
            page=draw.page,
            what=draw.page[self.reader],
        )


def heads_figure(
    result: ReadingResult,
    labels: Labels,
    words: Mapping[str, str],
    *,
    top: int = 3,
    number_format: str | None = None,
    page: Mapping[str, str] | None = None,
    said: Labels | None = None,
) -> list[str]:
    """Each group (scenario) → each head with its top tokens and context → the separation of
    the last two heads; at most three heads side by side, more are further diagrams."""
    page, said = page or words, said or labels
    draw = _Drawing(labels, words, top, number_format, page, said, result.kind.lists)
    out: list[str] = []
    for group in result.groups[:MAX_GROUPS]:
        out += _heads(draw, group)
    return out + _more(draw, len(result.groups) - MAX_GROUPS)


def _heads(draw: _Drawing, group: GroupResult) -> list[str]:
    words, page = draw.words, draw.page
    title = f"{words['group']}: {draw.name(group.name)}"
    boxes: list[list[Part]] = [
        [
            f"{words['head']}: {draw.name(head.name)}",
            words["weights"],
            *draw.tops(group, head),
            f"{words['context']} {draw.vector(head.context)}",
        ]
        for head in group.heads
    ]
    side = side_by_side([[box] for box in boxes])
    room, wide = room_for(side), room_for(1)
    rows = balanced(len(boxes), side, fuller_last=True) or [range(0)]
    last = len(group.heads) - 1
    members = draw.members([group], by_token=False)
    out = []
    for r, row in enumerate(rows):
        diagram = Diagram(title=page["acc_heads"].replace("{group}", draw.said(group.name)))
        shown = [draw.said(group.heads[n].name) for n in row]
        diagram.description = described(page, r, len(rows), page["head"], shown)
        header: list[Part] = [title, members] if r == 0 else [title]
        diagram.lines.append("  " + diagram.node("g", "input", header, wide))
        for n in row:
            diagram.lines.append(f"  g --> {diagram.node(f'h{n}', 'target', boxes[n], room)}")
        if last >= 1 and last in row:
            # The separation of the last two heads, under the heads it compares.
            a, b = group.heads[last - 1].name, group.heads[last].name
            value = format_value(group.separation(a, b), draw.number_format)
            pair = f"{draw.name(a)} – {draw.name(b)}: {value}"
            sep = diagram.node("s", "result", [words["separation"], (pair,)], wide)
            ends = [n for n in (last - 1, last) if n in row]
            diagram.lines.append(f"  h{ends[0]} -.- {sep}")
            diagram.lines += [f"  h{n} -.- s" for n in ends[1:]]
        out.append(diagram.source())
    return out


def _more(draw: _Drawing, rest: int) -> list[str]:
    """A file of hundreds of groups: after the first ones, a count of the others."""
    if rest <= 0:
        return []
    diagram = Diagram(title=others(draw.page, rest))
    diagram.lines.append("  " + diagram.node("more", "input", [others(draw.words, rest)], 99.0))
    return [diagram.source()]
