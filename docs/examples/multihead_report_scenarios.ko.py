"""운전 보고서의 multi-head: 같은 토큰 셋을 두 head가 각자 주어진 가중치로 읽는다.

표준 라이브러리만 쓴다. 저장소 루트에서 실행한다:

    python docs/examples/multihead_report_scenarios.ko.py
"""

import csv
import math
from pathlib import Path

# 데이터: 한 행 = 어떤 보고서, 어떤 시나리오의 토큰 하나. 의미 벡터와 head마다 주어진 가중치가 있다.
CSV_FILE = Path("docs/assets/part-05/chapter-13/qkv-multihead-report-scenarios.csv")
REPORT = "ops_pressure_return"

# 문맥 공간의 두 축: 한 축은 여러 열의 합일 수 있다.
AXES = {
    "decision_axis": ("decision_axis",),
    "evidence_condition_axis": ("evidence_axis", "condition_axis"),
}

# 주어진 가중치(여기에는 softmax가 없다). 첫째가 기준인 단일 head다.
HEADS = {
    "single_head": "single_weight",
    "head1": "head1_weight",
    "head2": "head2_weight",
}


def r3(x):
    """교재와 같은 방식으로 출력한다: 소수 셋째 자리까지."""
    return round(x, 3)


def r3_list(values):
    return [r3(v) for v in values]


def load_report(path, report_id):
    """CSV 전체를 읽고 (전체 행 수, 이 보고서의 행)을 돌려준다."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        all_rows = list(csv.DictReader(handle))
    mine = [row for row in all_rows if row["report_id"] == report_id]
    if not mine:
        raise SystemExit(f"{path}: no rows with report_id = {report_id}")
    return len(all_rows), mine


def by_scenario(rows):
    """시나리오별로 묶는다. 시나리오는 CSV에 처음 나온 순서를 지킨다."""
    groups = {}
    for row in rows:
        groups.setdefault(row["scenario"], []).append(row)
    return groups


def project(row):
    """토큰 하나의 벡터를 문맥 축에 투영한다: 축마다 = 그 축의 열들의 합."""
    return [sum(float(row[column]) for column in columns) for columns in AXES.values()]


def head_context(rows, weight_column):
    """head 하나의 문맥 = Σ 가중치 × 투영한 벡터(왼쪽에서 오른쪽으로 더한다)."""
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
    width = max(len(label) for label in labels)  # 여러 줄의 "="를 맞춘다
    for scenario, rows in by_scenario(report_rows).items():
        contexts = [head_context(rows, column) for column in HEADS.values()]
        single, *others = contexts
        print(f"[{scenario}]")
        print("tokens =", [row["token"] for row in rows])
        for label, context in zip(labels, contexts, strict=True):
            print(f"{label:<{width}} =", r3_list(context))
        # head마다 단일 head와의 차이를 차례로 잇는다
        difference = [h - s for other in others for h, s in zip(other, single, strict=True)]
        print("difference_from_single =", r3_list(difference))
        head1, head2 = others[0], others[1]
        separation = math.sqrt(sum((a - b) ** 2 for a, b in zip(head1, head2, strict=True)))
        print("head_separation =", r3(separation))
        print()


if __name__ == "__main__":
    main()
