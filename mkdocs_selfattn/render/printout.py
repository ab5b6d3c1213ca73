"""The chapter-style console printout, byte for byte what the course's example script prints."""

from __future__ import annotations

from mkdocs_selfattn.render.labels import Labels, py_list, py_round
from mkdocs_selfattn.results import DocumentResult


def render_printout(result: DocumentResult, labels: Labels | None = None, digits: int = 3) -> str:
    """Text ending in the blank line that follows the last target, as ``print()`` leaves it."""
    label = labels or Labels()
    lines = [
        f"csv_rows = {result.csv_rows}",
        f"focus_document_rows = {result.document_rows}",
        f"baseline_representation = {py_list(result.baseline, digits)}",
        "",
    ]
    for target in result.targets:
        lines.append(f"target_token = {label(target.target, target.target_index)}")
        for cand in target.candidates:
            lines.append(
                f"{label(cand.token, cand.index)} weight = {py_round(cand.weight, digits)} "
                f"role = {cand.role} vector = {py_list(cand.vector, digits)}"
            )
        lines.append(f"new_representation = {py_list(target.representation, digits)}")
        lines.append(f"representation_shift = {py_list(target.shift, digits)}")
        lines.append(f"top_token = {label(target.top, target.top_index)}")
        for name, weight in target.groups:
            lines.append(f"{name}_weight = {py_round(weight, digits)}")
        lines.append("")
    return "\n".join(lines) + "\n"
