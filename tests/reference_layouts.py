"""Plain-Python definitions of the P5-13.1 and P5-13.3 layouts, for the engine's property tests.

The engine that will compute these layouts is not written yet; these functions fix what it must
agree with, written the way the chapters' scripts compute them (exp after subtracting the
maximum, sums left to right with ``sum``, a stable sort for the top lines, separations as the
square root of a left-to-right sum of squares). The exp is ``exp_scalar``, the core's portable
exp, where the scripts call ``math.exp``: the engine can then be held to these bit for bit, and
the two differ by an ulp at most, far below the printed digits. Rows are ``csv.DictReader``
dicts: cells stay strings and are parsed here, so "3.00" and "3" give the same numbers while the
printout can still show the cell as written.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from mkdocs_selfattn.core.portable_exp import exp_scalar

Row = Mapping[str, str]
SUM_TOLERANCE = 1e-9


class GivenWeightError(ValueError):
    """A head's given weights cannot be used: the message names the group, the head and why."""


def softmax(scores: Sequence[float]) -> list[float]:
    peak = max(scores)
    powers = [exp_scalar(s - peak) for s in scores]
    total = sum(powers)
    return [p / total for p in powers]


def top_k(weights: Sequence[float], k: int) -> list[int]:
    """Indices of the k largest weights; ``sorted`` is stable, so on a tie the earlier row wins."""
    return sorted(range(len(weights)), key=lambda i: weights[i], reverse=True)[:k]


# ----------------------------------------------------------------- P5-13.1: questions over lines


def question_layout(
    rows: Sequence[Row], queries: Mapping[str, str], value: str, k: int = 3
) -> dict[str, Any]:
    """Every question reads all rows: softmax of its score column, context of the value column."""
    if not rows:
        raise ValueError("no rows to read")
    values = [float(row[value]) for row in rows]
    baseline = sum(values) / len(values)
    questions: dict[str, dict[str, Any]] = {}
    for label, column in queries.items():
        weights = softmax([float(row[column]) for row in rows])
        context = sum(w * v for w, v in zip(weights, values, strict=True))
        questions[label] = {
            "score_column": column,
            "weights": weights,
            "context": context,
            "shift": context - baseline,
            "top": top_k(weights, k),
        }
    return {"rows": len(rows), "baseline": baseline, "questions": questions}


def format_questions(
    results: Mapping[str, Any],
    rows: Sequence[Row],
    value: str = "evidence_signal",
    line: str = "line_id",
    section: str = "section",
) -> str:
    """The printout of docs/examples/attention_manual_lines.py, built from the results."""
    out: list[str] = []
    for label, question in results["questions"].items():
        out += [
            f"question = {label}",
            f"csv_rows = {results['rows']}",
            f"baseline_uniform_context = {round(results['baseline'], 3)}",
            f"context = {round(question['context'], 3)}",
            f"shift_from_baseline = {round(question['shift'], 3)}",
        ]
        for i in question["top"]:
            row = rows[i]
            weight = round(question["weights"][i], 3)
            out.append(f"{row[line]} {row[section]} weight = {weight} signal = {row[value]}")
        out.append("")
    return "".join(text + "\n" for text in out)


# ------------------------------------------------------------ P5-13.3: heads with given weights


def given_weights(
    rows: Sequence[Row], column: str, group: str, head: str, normalise: bool = False
) -> list[float]:
    """A head's weights as given: finite, ≥ 0, summing to 1 within 1e-9 unless normalised."""
    weights: list[float] = []
    for n, row in enumerate(rows, start=1):
        cell = row[column]
        try:
            weight = float(cell)
        except ValueError:
            raise GivenWeightError(
                f"group {group!r}, head {head!r}: row {n} of the group has {cell!r} in "
                f"{column!r}, not a number"
            ) from None
        if not math.isfinite(weight) or weight < 0:
            raise GivenWeightError(
                f"group {group!r}, head {head!r}: row {n} of the group has weight {cell!r} in "
                f"{column!r}; a given weight must be finite and ≥ 0"
            )
        weights.append(weight)
    total = sum(weights)
    if abs(total - 1.0) <= SUM_TOLERANCE:
        return weights
    if normalise and total > 0:
        return [w / total for w in weights]
    raise GivenWeightError(
        f"group {group!r}, head {head!r}: the weights in {column!r} sum to {total!r}, not 1 "
        f"(within {SUM_TOLERANCE}); fix them or ask to normalise"
    )


def project(row: Row, axes: Mapping[str, Sequence[str]]) -> list[float]:
    return [sum(float(row[column]) for column in columns) for columns in axes.values()]


def head_layout(
    rows: Sequence[Row],
    heads: Mapping[str, str],
    axes: Mapping[str, Sequence[str]],
    group: str = "scenario",
    normalise: bool = False,
) -> dict[str, Any]:
    """Per group (first-appearance order): each head's context, its difference from the first
    (reference) head, and the distance between every pair of heads."""
    grouped: dict[str, list[Row]] = {}
    for row in rows:
        grouped.setdefault(row[group], []).append(row)
    names = list(heads)
    reference = names[0]
    groups: dict[str, dict[str, Any]] = {}
    for key, members in grouped.items():
        vectors = [project(row, axes) for row in members]
        weights = {
            name: given_weights(members, column, key, name, normalise)
            for name, column in heads.items()
        }
        contexts = {
            name: [
                sum(w * vector[a] for w, vector in zip(ws, vectors, strict=True))
                for a in range(len(axes))
            ]
            for name, ws in weights.items()
        }
        differences = {
            name: [h - r for h, r in zip(contexts[name], contexts[reference], strict=True)]
            for name in names[1:]
        }
        separations = {
            (a, b): math.sqrt(
                sum((x - y) ** 2 for x, y in zip(contexts[a], contexts[b], strict=True))
            )
            for i, a in enumerate(names)
            for b in names[i + 1 :]
        }
        groups[key] = {
            "rows": members,
            "vectors": vectors,
            "weights": weights,
            "contexts": contexts,
            "differences": differences,
            "separations": separations,
        }
    return {"reference": reference, "axes": list(axes), "groups": groups}


def format_heads(
    results: Mapping[str, Any],
    csv_rows: int,
    focus_rows: int,
    token: str = "token",
    pair: tuple[str, str] = ("head1", "head2"),
) -> str:
    """The printout of docs/examples/multihead_report_scenarios.py, built from the results."""
    out = [
        f"csv_rows = {csv_rows}",
        f"focus_report_rows = {focus_rows}",
        f"context_axes = {results['axes']}",
        "",
    ]
    for key, group in results["groups"].items():
        labels = {name: f"{name}_context" for name in group["contexts"]}
        width = max(len(label) for label in labels.values())
        out.append(f"[{key}]")
        out.append(f"tokens = {[row[token] for row in group['rows']]}")
        for name, context in group["contexts"].items():
            out.append(f"{labels[name]:<{width}} = {[round(x, 3) for x in context]}")
        joined = [x for difference in group["differences"].values() for x in difference]
        out.append(f"difference_from_single = {[round(x, 3) for x in joined]}")
        out.append(f"head_separation = {round(group['separations'][pair], 3)}")
        out.append("")
    return "".join(text + "\n" for text in out)
