"""Attention over an operating manual: one question faces 40 lines, the weights say which to read.

Standard library only. Run it from the repository root:

    python docs/examples/attention_manual_lines.en.py
"""

import csv
import math
from pathlib import Path

# Data: one row = one line of the manual; each question has its own score column (pre-softmax).
CSV_FILE = Path("docs/assets/part-05/chapter-13/attention-operating-manual-candidates.csv")
VALUE = "evidence_signal"  # the one number each line brings into the context
TOP_K = 3

# Three questions, asked in this order; each reads its own score column.
QUESTIONS = (
    ("What is the pressure-release holding time?", "score_pressure_hold"),
    ("What is the coolant-flow criterion?", "score_flow_limit"),
    ("What are the restart approval conditions?", "score_restart_permission"),
)


def r3(x):
    """Printed as the book prints numbers: three decimals."""
    return round(x, 3)


def load_lines(path):
    """Read the whole CSV; utf-8-sig reads it the same with or without a BOM."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def stable_softmax(scores):
    """Subtract the largest score before exp, so nothing overflows; the weights sum to 1."""
    peak = max(scores)
    powers = [math.exp(s - peak) for s in scores]
    total = sum(powers)
    return [p / total for p in powers]


def ask(lines, score_column):
    """One question reads every line: weights, weighted context, the lines weighted most."""
    weights = stable_softmax([float(line[score_column]) for line in lines])
    signals = [float(line[VALUE]) for line in lines]
    context = sum(w * s for w, s in zip(weights, signals, strict=True))
    # sorted is stable: on equal weights the earlier line of the CSV comes first.
    order = sorted(range(len(lines)), key=lambda i: weights[i], reverse=True)
    return weights, context, order[:TOP_K]


def main():
    lines = load_lines(CSV_FILE)
    # baseline: no question, every line weighs the same.
    baseline = sum(float(line[VALUE]) for line in lines) / len(lines)

    for question, score_column in QUESTIONS:
        weights, context, top = ask(lines, score_column)
        print("question =", question)
        print("csv_rows =", len(lines))
        print("baseline_uniform_context =", r3(baseline))
        print("context =", r3(context))
        print("shift_from_baseline =", r3(context - baseline))
        for i in top:
            line = lines[i]
            # signal is printed as the CSV writes it
            print(
                f"{line['line_id']} {line['section']} weight = {r3(weights[i])}"
                f" signal = {line[VALUE]}"
            )
        print()


if __name__ == "__main__":
    main()
