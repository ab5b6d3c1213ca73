"""Stand-in printouts of the questions and heads layouts until the template module lands.

The printout of every layout, templates included, belongs to ``render/printout.py`` (the
printouts work of issue 13); this keeps the engine's pages building in the meantime with the
courses' default formats (P5-13.1's and P5-13.3's scripts). ``template:`` is not read here.
"""

from __future__ import annotations

from mkdocs_selfattn.readings import ReadingResult
from mkdocs_selfattn.render.labels import Labels, py_list, py_round


def reading_printout(result: ReadingResult, labels: Labels, template: str | None = None) -> str:
    if result.layout == "questions":
        return _questions(result, labels)
    return _heads(result, labels)


def _number(values: tuple[float, ...]) -> str:
    return py_round(values[0]) if len(values) == 1 else py_list(values)


def _questions(result: ReadingResult, labels: Labels) -> str:
    out: list[str] = []
    value_columns = [c for _, cols in result.axes for c in cols]
    where = [result.columns.index(c) for c in value_columns]
    for group in result.groups:
        for head in group.heads:
            out += [
                f"question = {head.name}",
                f"csv_rows = {result.csv_rows}",
                f"baseline_uniform_context = {_number(group.baseline)}",
                f"context = {_number(head.context)}",
                f"shift_from_baseline = {_number(head.shift)}",
            ]
            for i in head.top(3):
                line = group.lines[i]
                signal = " ".join(line.cells[k] for k in where)
                out.append(
                    f"{line.token} {line.role} weight = {py_round(head.weights[i])} "
                    f"signal = {signal}"
                )
            out.append("")
    return "".join(text + "\n" for text in out)


def _heads(result: ReadingResult, labels: Labels) -> str:
    out = [
        f"csv_rows = {result.csv_rows}",
        f"focus_report_rows = {result.document_rows}",
        f"context_axes = {list(result.axis_names)}",
        "",
    ]
    for group in result.groups:
        names = [f"{head.name}_context" for head in group.heads]
        width = max(len(name) for name in names)
        out.append(f"[{group.name}]")
        out.append(f"tokens = {[line.token for line in group.lines]}")
        for name, head in zip(names, group.heads, strict=True):
            out.append(f"{name:<{width}} = {py_list(head.context)}")
        joined = [x for head in group.heads[1:] for x in head.difference]
        out.append(f"difference_from_{group.heads[0].name} = {py_list(joined)}")
        if len(group.heads) >= 3:
            out.append(f"head_separation = {py_round(group.separations[1][2])}")
        elif len(group.heads) == 2:
            out.append(f"head_separation = {py_round(group.separations[0][1])}")
        out.append("")
    return "".join(text + "\n" for text in out)
