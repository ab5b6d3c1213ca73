"""运行报告里的 multi-head：同样三个 token，两个 head 各按自己给定的权重去读。

只用标准库。请在仓库根目录运行：

    python docs/examples/multihead_report_scenarios.py
"""

import csv
import math
from pathlib import Path

# 数据：每一行 = 某份报告、某个场景里的一个 token，带着意义向量和每个 head 的给定权重。
CSV_FILE = Path("docs/assets/part-05/chapter-13/qkv-multihead-report-scenarios.csv")
REPORT = "ops_pressure_return"

# 上下文空间的两根轴：一根轴可以是几列之和。
AXES = {
    "decision_axis": ("decision_axis",),
    "evidence_condition_axis": ("evidence_axis", "condition_axis"),
}

# 给定的权重（这里没有 softmax）。第一个是参照用的单 head。
HEADS = {
    "single_head": "single_weight",
    "head1": "head1_weight",
    "head2": "head2_weight",
}


def r3(x):
    """和教材的打印方式一致：保留三位小数。"""
    return round(x, 3)


def r3_list(values):
    return [r3(v) for v in values]


def load_report(path, report_id):
    """读入整个 CSV，返回 (总行数, 这份报告的行)。"""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        all_rows = list(csv.DictReader(handle))
    mine = [row for row in all_rows if row["report_id"] == report_id]
    if not mine:
        raise SystemExit(f"{path}: no rows with report_id = {report_id}")
    return len(all_rows), mine


def by_scenario(rows):
    """按场景分组，场景保持在 CSV 里第一次出现的顺序。"""
    groups = {}
    for row in rows:
        groups.setdefault(row["scenario"], []).append(row)
    return groups


def project(row):
    """把一个 token 的向量投到上下文轴上：每根轴 = 它那几列之和。"""
    return [sum(float(row[column]) for column in columns) for columns in AXES.values()]


def head_context(rows, weight_column):
    """一个 head 的上下文 = Σ 权重 × 投影后的向量（从左到右累加）。"""
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
    width = max(len(label) for label in labels)  # 让几行的 “=” 对齐
    for scenario, rows in by_scenario(report_rows).items():
        contexts = [head_context(rows, column) for column in HEADS.values()]
        single, *others = contexts
        print(f"[{scenario}]")
        print("tokens =", [row["token"] for row in rows])
        for label, context in zip(labels, contexts, strict=True):
            print(f"{label:<{width}} =", r3_list(context))
        # 每个 head 与单 head 之差，依次接在一起
        difference = [h - s for other in others for h, s in zip(other, single, strict=True)]
        print("difference_from_single =", r3_list(difference))
        head1, head2 = others[0], others[1]
        separation = math.sqrt(sum((a - b) ** 2 for a, b in zip(head1, head2, strict=True)))
        print("head_separation =", r3(separation))
        print()


if __name__ == "__main__":
    main()
