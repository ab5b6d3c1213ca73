"""안전 점검 메모의 self-attention: 같은 메모라도 현재 토큰이 바뀌면 다시 읽는 단서가 바뀐다.

표준 라이브러리만 쓴다. 저장소 루트에서 실행한다:

    python docs/examples/self_attention_memo.ko.py
"""

import csv
import math
from pathlib import Path

# 데이터: 한 행 = 어떤 메모에서 현재 토큰(target)이 후보 토큰과 얼마나 관련되는지의 점수.
CSV_FILE = Path("docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv")
MEMO = "memo_cap_missing"
CURRENT_TOKENS = ("그것", "씌우지")  # 메모를 다시 읽는 두 현재 토큰
AXES = ("evidence_pack", "evidence_cap", "evidence_action")  # 후보 토큰의 작은 의미 벡터

# CSV의 토큰은 한국어 원문 그대로다.
LABEL = {}  # 한국어 페이지는 CSV의 토큰을 그대로 보여 준다.

# "절연캡 + 씌우지" 묶음이 함께 받는 가중치.
CLUE_BUNDLE = ("cap_plus_not_applied", {"절연캡", "씌우지"})


def r3(x):
    """교재의 출력 방식대로 소수 셋째 자리까지."""
    return round(x, 3)


def r3_list(values):
    return [r3(v) for v in values]


def load_memo(path, memo_id):
    """CSV 전체를 읽고 (전체 행 수, 이 메모의 행)을 돌려준다."""
    with path.open(encoding="utf-8", newline="") as handle:
        all_rows = list(csv.DictReader(handle))
    return len(all_rows), [row for row in all_rows if row["document_id"] == memo_id]


def vector_of(row):
    return [float(row[axis]) for axis in AXES]


def stable_softmax(scores):
    """최댓값을 빼고 exp를 취한다(수치적으로 안정). 가중치의 합은 1."""
    peak = max(scores)
    powers = [math.exp(s - peak) for s in scores]
    total = sum(powers)
    return [p / total for p in powers]


def plain_average(rows):
    """baseline: 서로 다른 후보 토큰을 한 번씩, 같은 가중치로 평균한다."""
    first_seen = {}
    for row in rows:
        first_seen.setdefault(row["candidate_token"], vector_of(row))
    vectors = list(first_seen.values())
    return [sum(column) / len(vectors) for column in zip(*vectors, strict=True)]


def reread(rows, current):
    """현재 토큰이 같은 메모의 모든 후보를 다시 읽어 가중치와 새 표현을 얻는다."""
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
        shift = [m - b for m, b in zip(mixed, baseline, strict=True)]  # baseline 대비 변화
        print("representation_shift =", r3_list(shift))

        # 가중치가 가장 큰 후보(같으면 CSV에서 앞선 것)
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
