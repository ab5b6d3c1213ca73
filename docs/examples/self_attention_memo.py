"""安全检查备忘录里的 self-attention：同一条备忘录，换一个当前 token，重新参考的线索就换一批。

只用标准库。请在仓库根目录运行：

    python docs/examples/self_attention_memo.py
"""

import csv
import math
from pathlib import Path

# 数据：每一行 = 某条备忘录里，一个当前 token（target）对一个候选 token 的相关性分数。
CSV_FILE = Path("docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv")
MEMO = "memo_cap_missing"
CURRENT_TOKENS = ("그것", "씌우지")  # 要重新阅读的两个当前 token
AXES = ("evidence_pack", "evidence_cap", "evidence_action")  # 候选 token 的小意义向量

# CSV 里保留韩文 token；打印时换成中文标签。
LABEL = {
    "배터리팩": "电池包",
    "분리": "分离",
    "절연캡": "绝缘帽",
    "씌우지": "未套上",
    "그것": "它",
    "위험": "风险",
}

# “绝缘帽 + 未套上”这一束线索合起来占多少权重。
CLUE_BUNDLE = ("cap_plus_not_applied", {"절연캡", "씌우지"})


def r3(x):
    """和教材的打印方式一致：保留三位小数。"""
    return round(x, 3)


def r3_list(values):
    return [r3(v) for v in values]


def load_memo(path, memo_id):
    """读入整个 CSV，返回 (总行数, 这条备忘录的行)。"""
    with path.open(encoding="utf-8", newline="") as handle:
        all_rows = list(csv.DictReader(handle))
    return len(all_rows), [row for row in all_rows if row["document_id"] == memo_id]


def vector_of(row):
    return [float(row[axis]) for axis in AXES]


def stable_softmax(scores):
    """先减去最大值再取 exp，数值上更稳定；结果加起来等于 1。"""
    peak = max(scores)
    powers = [math.exp(s - peak) for s in scores]
    total = sum(powers)
    return [p / total for p in powers]


def plain_average(rows):
    """baseline：每个不同的候选 token 只算一次，权重完全相同。"""
    first_seen = {}
    for row in rows:
        first_seen.setdefault(row["candidate_token"], vector_of(row))
    vectors = list(first_seen.values())
    return [sum(column) / len(vectors) for column in zip(*vectors, strict=True)]


def reread(rows, current):
    """当前 token 重新参考同一备忘录里的所有候选 token，得到权重和新的表示。"""
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
        shift = [m - b for m, b in zip(mixed, baseline, strict=True)]  # 相对 baseline 的变化
        print("representation_shift =", r3_list(shift))

        # 权重最大的候选（并列时取 CSV 里靠前的那个）
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
