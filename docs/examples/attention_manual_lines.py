"""操作手册里的 attention：一个问题面对 40 行手册，权重决定这一次该读哪几行。

只用标准库。请在仓库根目录运行：

    python docs/examples/attention_manual_lines.py
"""

import csv
import math
from pathlib import Path

# 数据：每一行 = 手册里的一行文字；每个问题各有一列相关性分数（softmax 之前）。
CSV_FILE = Path("docs/assets/part-05/chapter-13/attention-operating-manual-candidates.csv")
VALUE = "evidence_signal"  # 每一行带进上下文的那一个数
TOP_K = 3

# 三个问题，按这个顺序提问；每个问题读自己的分数列。
QUESTIONS = (
    ("What is the pressure-release holding time?", "score_pressure_hold"),
    ("What is the coolant-flow criterion?", "score_flow_limit"),
    ("What are the restart approval conditions?", "score_restart_permission"),
)


def r3(x):
    """和教材的打印方式一致：保留三位小数。"""
    return round(x, 3)


def load_lines(path):
    """读入整个 CSV；utf-8-sig 让文件开头有没有 BOM 都一样读。"""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def stable_softmax(scores):
    """先减去最大值再取 exp，数值上更稳定；结果加起来等于 1。"""
    peak = max(scores)
    powers = [math.exp(s - peak) for s in scores]
    total = sum(powers)
    return [p / total for p in powers]


def ask(lines, score_column):
    """一个问题读遍所有行：权重、加权后的上下文、权重最大的几行。"""
    weights = stable_softmax([float(line[score_column]) for line in lines])
    signals = [float(line[VALUE]) for line in lines]
    context = sum(w * s for w, s in zip(weights, signals, strict=True))
    # sorted 是稳定排序：权重相同时，CSV 里靠前的行排在前面。
    order = sorted(range(len(lines)), key=lambda i: weights[i], reverse=True)
    return weights, context, order[:TOP_K]


def main():
    lines = load_lines(CSV_FILE)
    # baseline：不看问题，每一行的权重完全相同。
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
            # signal 按 CSV 里写的样子原样打印
            print(
                f"{line['line_id']} {line['section']} weight = {r3(weights[i])}"
                f" signal = {line[VALUE]}"
            )
        print()


if __name__ == "__main__":
    main()
