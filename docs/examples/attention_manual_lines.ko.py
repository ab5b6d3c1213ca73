"""운전 설명서의 attention: 질문 하나가 설명서 40줄을 마주하고, 가중치가 이번에 읽을 줄을 정한다.

표준 라이브러리만 쓴다. 저장소 루트에서 실행한다:

    python docs/examples/attention_manual_lines.ko.py
"""

import csv
import math
from pathlib import Path

# 데이터: 한 행 = 설명서의 한 줄. 질문마다 관련도 점수 열이 하나씩 있다(softmax 전).
CSV_FILE = Path("docs/assets/part-05/chapter-13/attention-operating-manual-candidates.csv")
VALUE = "evidence_signal"  # 줄마다 문맥에 가져오는 수 하나
TOP_K = 3

# 세 질문을 이 순서로 묻는다. 질문마다 자기 점수 열을 읽는다.
QUESTIONS = (
    ("What is the pressure-release holding time?", "score_pressure_hold"),
    ("What is the coolant-flow criterion?", "score_flow_limit"),
    ("What are the restart approval conditions?", "score_restart_permission"),
)


def r3(x):
    """교재와 같은 방식으로 출력한다: 소수 셋째 자리까지."""
    return round(x, 3)


def load_lines(path):
    """CSV 전체를 읽는다. utf-8-sig라서 파일 앞에 BOM이 있든 없든 똑같이 읽는다."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def stable_softmax(scores):
    """가장 큰 값을 먼저 빼고 exp를 취해 넘치지 않게 한다. 결과의 합은 1이다."""
    peak = max(scores)
    powers = [math.exp(s - peak) for s in scores]
    total = sum(powers)
    return [p / total for p in powers]


def ask(lines, score_column):
    """질문 하나가 모든 줄을 읽는다: 가중치, 가중한 문맥, 가중치가 가장 큰 줄들."""
    weights = stable_softmax([float(line[score_column]) for line in lines])
    signals = [float(line[VALUE]) for line in lines]
    context = sum(w * s for w, s in zip(weights, signals, strict=True))
    # sorted는 안정 정렬이다: 가중치가 같으면 CSV에서 앞선 줄이 먼저 온다.
    order = sorted(range(len(lines)), key=lambda i: weights[i], reverse=True)
    return weights, context, order[:TOP_K]


def main():
    lines = load_lines(CSV_FILE)
    # baseline: 질문을 보지 않고 모든 줄의 가중치가 같다.
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
            # signal은 CSV에 적힌 그대로 출력한다
            print(
                f"{line['line_id']} {line['section']} weight = {r3(weights[i])}"
                f" signal = {line[VALUE]}"
            )
        print()


if __name__ == "__main__":
    main()
