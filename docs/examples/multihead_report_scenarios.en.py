"""Multi-head attention in an operating report: three tokens, two heads with given weights.

Standard library only. Run it from the repository root:

    python docs/examples/multihead_report_scenarios.en.py
"""

import csv
import math
from pathlib import Path

# Data: one row = one token of one report in one scenario: meaning vector, each head's weight.
CSV_FILE = Path("docs/assets/part-05/chapter-13/qkv-multihead-report-scenarios.csv")
REPORT = "ops_pressure_return"

# The two axes of the context space: an axis may be the sum of several columns.
AXES = {
    "decision_axis": ("decision_axis",),
    "evidence_condition_axis": ("evidence_axis", "condition_axis"),
}

# Given weights (no softmax here). The first is the single head, the reference.
HEADS = {
    "single_head": "single_weight",
    "head1": "head1_weight",
    "head2": "head2_weight",
}


def r3(x):
    """Printed as the book prints numbers: three decimals."""
    return round(x, 3)


def r3_list(values):
    return [r3(v) for v in values]


def load_report(path, report_id):
    """Read the whole CSV; return (all rows counted, this report's rows)."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        all_rows = list(csv.DictReader(handle))
    mine = [row for row in all_rows if row["report_id"] == report_id]
    if not mine:
        raise SystemExit(f"{path}: no rows with report_id = {report_id}")
    return len(all_rows), mine


def by_scenario(rows):
    """Group by scenario, in the order the scenarios first appear in the CSV."""
    groups = {}
    for row in rows:
        groups.setdefault(row["scenario"], []).append(row)
    return groups


def project(row):
    """Project a token's vector onto the context axes: each axis = the sum of its columns."""
    return [sum(float(row[column]) for column in columns) for columns in AXES.values()]


def head_context(rows, weight_column):
    """A head's context = Σ weight × projected vector (summed left to right)."""
    weights = [float(row[weight_column]) for row in rows]
    vectors = [project(row) for row in rows]
    return [
        sum(w * vector[k] for w, vector in zip(weights, vectors, strict=True))
        for k in range(len(AXES))
    ]


def main():
    total_rows, report_rows = load_report(CSV_FILE, REPORT)
    print("csv_rows =", total_rows)
    print("focus_report_rows =", len(report_rows))
    print("context_axes =", list(AXES))
    print()

    labels = [f"{name}_context" for name in HEADS]
    width = max(len(label) for label in labels)  # align the "=" of these lines
    for scenario, rows in by_scenario(report_rows).items():
        contexts = [head_context(rows, column) for column in HEADS.values()]
        single, *others = contexts
        print(f"[{scenario}]")
        print("tokens =", [row["token"] for row in rows])
        for label, context in zip(labels, contexts, strict=True):
            print(f"{label:<{width}} =", r3_list(context))
        # each head minus the single head, one after the other
        difference = [h - s for other in others for h, s in zip(other, single, strict=True)]
        print("difference_from_single =", r3_list(difference))
        head1, head2 = others[0], others[1]
        separation = math.sqrt(sum((a - b) ** 2 for a, b in zip(head1, head2, strict=True)))
        print("head_separation =", r3(separation))
        print()


if __name__ == "__main__":
    main()
