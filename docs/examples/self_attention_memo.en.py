"""Self-attention in a safety memo: same memo, another current token, other clues re-read.

Standard library only. Run it from the repository root:

    python docs/examples/self_attention_memo.en.py
"""

import csv
import math
from pathlib import Path

# Data: one row = in one memo, how strongly a current token (target) relates to a candidate.
CSV_FILE = Path("docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv")
MEMO = "memo_cap_missing"
CURRENT_TOKENS = ("그것", "씌우지")  # the two current tokens that re-read the memo
AXES = ("evidence_pack", "evidence_cap", "evidence_action")  # each candidate's small meaning vector

# The CSV keeps the Korean tokens; the printout shows English labels.
LABEL = {
    "배터리팩": "battery pack",
    "분리": "removal",
    "절연캡": "insulating cap",
    "씌우지": "not fitted",
    "그것": "it",
    "위험": "risk",
}

# How much weight the bundle "insulating cap + not fitted" gets together.
CLUE_BUNDLE = ("cap_plus_not_applied", {"절연캡", "씌우지"})


def r3(x):
    """Three decimals, as the chapter prints numbers."""
    return round(x, 3)


def r3_list(values):
    return [r3(v) for v in values]


def load_memo(path, memo_id):
    """Read the whole CSV; return (number of rows, the rows of this memo)."""
    with path.open(encoding="utf-8", newline="") as handle:
        all_rows = list(csv.DictReader(handle))
    return len(all_rows), [row for row in all_rows if row["document_id"] == memo_id]


def vector_of(row):
    return [float(row[axis]) for axis in AXES]


def stable_softmax(scores):
    """Subtract the maximum before exp (numerically stable); the weights sum to 1."""
    peak = max(scores)
    powers = [math.exp(s - peak) for s in scores]
    total = sum(powers)
    return [p / total for p in powers]


def plain_average(rows):
    """Baseline: every distinct candidate counted once, all with the same weight."""
    first_seen = {}
    for row in rows:
        first_seen.setdefault(row["candidate_token"], vector_of(row))
    vectors = list(first_seen.values())
    return [sum(column) / len(vectors) for column in zip(*vectors, strict=True)]


def reread(rows, current):
    """The current token re-reads every candidate of the memo: weights and new representation."""
    mine = [row for row in rows if row["target_token"] == current]
    weights = stable_softmax([float(row["score"]) for row in mine])
    mixed = [0.0] * len(AXES)
    for weight, row in zip(weights, mine, strict=True):
        for k, value in enumerate(vector_of(row)):
            mixed[k] += weight * value
    return mine, weights, mixed


def main():
    total_rows, memo_rows = load_memo(CSV_FILE, MEMO)
    baseline = plain_average(memo_rows)

    print("csv_rows =", total_rows)
    print("focus_document_rows =", len(memo_rows))
    print("baseline_representation =", r3_list(baseline))
    print()

    bundle_name, bundle_tokens = CLUE_BUNDLE
    for current in CURRENT_TOKENS:
        mine, weights, mixed = reread(memo_rows, current)
        print("target_token =", LABEL.get(current, current))
        for row, weight in zip(mine, weights, strict=True):
            token = LABEL.get(row["candidate_token"], row["candidate_token"])
            role = row["candidate_role"]
            vector = r3_list(vector_of(row))
            print(f"{token} weight = {r3(weight)} role = {role} vector = {vector}")
        print("new_representation =", r3_list(mixed))
        shift = [m - b for m, b in zip(mixed, baseline, strict=True)]  # change against the baseline
        print("representation_shift =", r3_list(shift))

        # the candidate with the largest weight (on a tie, the first in the CSV)
        best = max(range(len(weights)), key=lambda i: (weights[i], -i))
        top = mine[best]["candidate_token"]
        print("top_token =", LABEL.get(top, top))

        bundle = 0.0
        for row, weight in zip(mine, weights, strict=True):
            if row["candidate_token"] in bundle_tokens:
                bundle += weight
        print(f"{bundle_name}_weight =", r3(bundle))
        print()


if __name__ == "__main__":
    main()
