"""Records for the tests: targets-layout results of any size (without a CSV), a targets
document as its views read it, and measurements of the texts in a drawn chart."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from mkdocs_selfattn.core.document_results import compute_targets
from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingResult
from mkdocs_selfattn.core.results import DocumentResult, document_of
from mkdocs_selfattn.core.table import Table

SVG = "{http://www.w3.org/2000/svg}"


def softmax(scores: Sequence[float]) -> list[float]:
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def document(targets: Sequence[str], candidates: Sequence[str], *, seed: int = 7) -> ReadingResult:
    """A document whose targets each re-read every candidate, with deterministic scores that
    spread the weights (some large, many tiny): the record the targets engine makes."""
    groups = []
    for t, target in enumerate(targets):
        scores = [((i * 37 + t * 11 + seed) % 101) / 9.0 for i in range(len(candidates))]
        weights = softmax(scores)
        lines = tuple(
            Line(token=c, role="", row=t * len(candidates) + i, cells=(), vector=(w,))
            for i, (c, w) in enumerate(zip(candidates, weights, strict=True))
        )
        head = HeadResult(
            name=target,
            column="score",
            given=False,
            values=tuple(scores),
            weights=tuple(weights),
            context=(0.5,),
            shift=(0.0,),
        )
        groups.append(
            GroupResult(
                name=target, lines=lines, baseline=(0.5,), heads=(head,), separations=((0.0,),)
            )
        )
    return ReadingResult(
        source="synthetic.csv",
        layout="targets",
        csv_rows=len(targets) * len(candidates),
        document="doc",
        document_rows=len(targets) * len(candidates),
        columns=(),
        axes=(("x", ("x",)),),
        temperature=1.0,
        groups=tuple(groups),
    )


def texts_by_id(svg: str) -> dict[str, str]:
    """Artist id (without the chart's prefix) → the text it draws."""
    root = ET.fromstring(svg)
    out = {}
    for group in root.iter(f"{SVG}g"):
        ident = group.get("id", "")
        text = "".join("".join(t.itertext()) for t in group.iter(f"{SVG}text")).strip()
        if text and "-" in ident:
            out[ident.split("-", 1)[1]] = text
    return out


def render_mermaid(result: Any, labels: Any, **options: Any) -> str:
    """Every diagram's source, one after the other (a page shows each as its own figure)."""
    from mkdocs_selfattn.render.mermaid import mermaid_diagrams

    return "\n".join(mermaid_diagrams(result, labels, **options))


def engine_record(document: DocumentResult) -> ReadingResult:
    """The engine's record of a targets document written by hand in the view's terms (each
    target one group read by one softmax head), for tests that describe targets that way."""
    groups = []
    for target in document.targets:
        cands = target.candidates
        head = HeadResult(
            name=target.target,
            column="score",
            given=False,
            values=tuple(c.score for c in cands),
            weights=tuple(c.weight for c in cands),
            context=target.context,
            shift=target.shift,
            groups=target.groups,
        )
        lines = tuple(
            Line(token=c.token, role=c.role, row=i, cells=(), vector=c.vector, index=c.index)
            for i, c in enumerate(cands)
        )
        groups.append(
            GroupResult(
                name=target.target,
                lines=lines,
                baseline=document.baseline,
                heads=(head,),
                separations=((0.0,),),
                index=target.target_index,
            )
        )
    return ReadingResult(
        source=document.source,
        layout="targets",
        csv_rows=document.csv_rows,
        document=document.document,
        document_rows=document.document_rows,
        columns=(),
        axes=tuple((column, (column,)) for column in document.vector_columns),
        temperature=document.temperature,
        groups=tuple(groups),
        warnings=document.warnings,
    )


def compute_document(table: Table, document: str, **options: Any) -> DocumentResult:
    """The targets engine's record of ``document`` as the targets views read it (tests that
    check the document → target → candidate numbers)."""
    return document_of(compute_targets(table, document, **options))
