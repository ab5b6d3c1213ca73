"""What a weight chart shows of each layout: series (targets, questions or heads) over
candidates, labelled as the page shows them. The drawing (:mod:`chart`) takes this one shape."""

from __future__ import annotations

from dataclasses import dataclass

from mkdocs_selfattn.core.readings import HeadResult, ReadingResult
from mkdocs_selfattn.core.results import weights_by_candidate
from mkdocs_selfattn.render.figure_text import shorten
from mkdocs_selfattn.render.labels import Labels


@dataclass(frozen=True)
class Weights:
    """A weight chart's data, whatever the layout: series over candidates, full labels."""

    series: tuple[str, ...]
    candidates: tuple[str, ...]
    weights: tuple[tuple[float, ...], ...]
    """Per series, per candidate."""


def target_weights(result: ReadingResult, labels: Labels, query: str | None = None) -> Weights:
    """One series per target over the document's candidates (``query`` does not apply)."""
    candidates, sums = weights_by_candidate(result)
    rows = [tuple(weights.get(c, 0.0) for c in candidates) for weights in sums]
    return Weights(
        tuple(labels(g.name, g.index) for g in result.groups),
        tuple(labels(tok, idx) for tok, idx in candidates),
        tuple(rows),
    )


def reading_weights(result: ReadingResult, labels: Labels, query: str | None = None) -> Weights:
    """One series per question or head (``query``: only that one) over every group's lines."""
    heads = chosen_heads(result, query)
    several = len(result.groups) > 1
    names = tuple(
        labels(line.token) + (f" · {shorten(labels(g.name), 10)}" if several else "")
        for g in result.groups
        for line in g.lines
    )
    per_head = tuple(tuple(w for g in result.groups for w in g.head(h).weights) for h in heads)
    return Weights(tuple(labels(h) for h in heads), names, per_head)


def chosen_heads(result: ReadingResult, query: str | None) -> tuple[str, ...]:
    """Every head's name, or the one ``query`` names (by name or column; KeyError if none)."""
    if query is None:
        return result.head_names
    first = result.groups[0] if result.groups else None
    if first is None:
        raise KeyError(query)
    head: HeadResult = first.head(query)
    return (head.name,)
