"""Who does each target token look at? Softmax over the CSV's scores, with the csv module only.

Run it from the folder of mkdocs.yml, as the plugin does:

    python docs/examples/trophy_attention.py

It prints exactly what the plugin computes for the chapter's block; the build checks the two agree.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

CSV_FILE = Path("docs/data/trophy.csv")
DOCUMENT = "trophy_big"
TARGETS = ("it", "fit")
AXES = ("object", "container", "size")
GROUPS = {"object_and_size": ("trophy", "big")}

Row = dict[str, str]


def read_rows(path: Path) -> list[Row]:
    # utf-8-sig: a CSV saved by a spreadsheet often starts with a byte-order mark, which would
    # otherwise stick to the first column's name.
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def vector(row: Row) -> list[float]:
    return [float(row[axis]) for axis in AXES]


def r3(values: list[float]) -> list[float]:
    return [round(v, 3) for v in values]


def softmax(scores: list[float]) -> list[float]:
    peak = max(scores)
    powers = [math.exp(s - peak) for s in scores]
    total = sum(powers)
    return [p / total for p in powers]


def baseline(rows: list[Row]) -> list[float]:
    """The plain mean of the document's distinct candidates, each counted once."""
    first_seen: dict[str, list[float]] = {}
    for row in rows:
        first_seen.setdefault(row["candidate_token"], vector(row))
    vectors = list(first_seen.values())
    return [sum(column) / len(vectors) for column in zip(*vectors, strict=True)]


def by_target(rows: list[Row]) -> dict[str, list[Row]]:
    """The document's rows grouped by target, each group in CSV order."""
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(row["target_token"], []).append(row)
    return groups


def main() -> None:
    all_rows = read_rows(CSV_FILE)
    rows = [row for row in all_rows if row["document_id"] == DOCUMENT]
    base = baseline(rows)
    print("csv_rows =", len(all_rows))
    print("focus_document_rows =", len(rows))
    print("baseline_representation =", r3(base))
    print()
    groups = by_target(rows)
    for target in TARGETS:
        mine = groups[target]
        weights = softmax([float(row["score"]) for row in mine])
        mixed = [0.0] * len(AXES)
        for weight, row in zip(weights, mine, strict=True):
            for k, value in enumerate(vector(row)):
                mixed[k] += weight * value
        print("target_token =", target)
        for weight, row in zip(weights, mine, strict=True):
            print(
                f"{row['candidate_token']} weight = {round(weight, 3)} "
                f"role = {row['candidate_role']} vector = {r3(vector(row))}"
            )
        print("new_representation =", r3(mixed))
        print("representation_shift =", r3([m - b for m, b in zip(mixed, base, strict=True)]))
        # The largest weight; on a tie, the candidate that comes first in the CSV.
        best = max(range(len(weights)), key=lambda i: (weights[i], -i))
        print("top_token =", mine[best]["candidate_token"])
        for name, members in GROUPS.items():
            total = sum(
                w for w, row in zip(weights, mine, strict=True) if row["candidate_token"] in members
            )
            print(f"{name}_weight =", round(total, 3))
        print()


if __name__ == "__main__":
    main()
