"""Records for the figure tests: targets-layout results of any size (without a CSV) and
measurements of the texts in a drawn chart."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from mkdocs_selfattn.core.results import CandidateResult, DocumentResult, TargetResult

SVG = "{http://www.w3.org/2000/svg}"


def softmax(scores: Sequence[float]) -> list[float]:
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def document(targets: Sequence[str], candidates: Sequence[str], *, seed: int = 7) -> DocumentResult:
    """A document whose targets each re-read every candidate, with deterministic scores that
    spread the weights (some large, many tiny)."""
    rows = []
    for t, target in enumerate(targets):
        scores = [((i * 37 + t * 11 + seed) % 101) / 9.0 for i in range(len(candidates))]
        weights = softmax(scores)
        cands = tuple(
            CandidateResult(token=c, index=None, role="", score=s, weight=w, vector=(w,))
            for c, s, w in zip(candidates, scores, weights, strict=True)
        )
        best = max(range(len(cands)), key=lambda i: (weights[i], -i))
        rows.append(
            TargetResult(
                target=target,
                target_index=None,
                candidates=cands,
                context=(0.5,),
                shift=(0.0,),
                top=candidates[best],
                top_index=None,
                groups=(),
            )
        )
    return DocumentResult(
        source="synthetic.csv",
        csv_rows=len(targets) * len(candidates),
        document="doc",
        document_rows=len(targets) * len(candidates),
        vector_columns=("x",),
        baseline=(0.5,),
        targets=tuple(rows),
        temperature=1.0,
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
