"""Benchmark the questions and heads layouts as ``bench_core.py`` does the targets layout.

    python bench/bench_layouts.py                  # both layouts, 1,000,000 rows each
    python bench/bench_layouts.py --rows 100000 --repeat 5 --layout heads

questions (P5-13.1): a wide file of N lines, one relevance score column per question (3), a
    quoted text column with commas like the course's manual, one value column;
heads (P5-13.3): N rows of given-weight heads, many reports × 3 scenarios × 3 tokens, three
    vector columns projected onto two axes (one the sum of two columns), three weight columns.

Each layout has (a) the chapter's plain-Python way (csv.DictReader + math, for every group), (b)
Arrow's parse of the file as ``csv_front.py`` reads these layouts' files and nothing else, and (c)
the engine: ``parse_reading`` + ``compute_reading`` for every group (validation, the given weights'
checks, projection, weights, contexts, baselines). Checksums are the exactly rounded sum of every
context value, so (a) and (c) must compute the same numbers. As in ``bench_core.py``, every
measurement runs in a fresh interpreter (peak RSS is its own), the kinds interleave round by round,
and the ratios a/c and c/b are taken from the medians of the same run; the records a page then
builds (every line with its cells) are not part of (c), as ``bench_core.py``'s (c) builds none
either. No targets are set for these layouts: the numbers are reported.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

QUERIES = {"pressure": "score_pressure", "flow": "score_flow", "restart": "score_restart"}
HEADS = {"single": "single_weight", "head1": "head1_weight", "head2": "head2_weight"}
AXES = {"decision": ["decision_axis"], "evidence_condition": ["evidence_axis", "condition_axis"]}
HEADS_COLUMNS = {"document": "report_id", "group": "scenario", "candidate": "token",
                 "role": "relation_role"}  # fmt: skip
QUESTION_COLUMNS = {"candidate": "line_id", "role": "section"}
SCENARIOS, TOKENS = 3, 3


def generate_questions(path: Path, lines: int) -> None:
    rng = random.Random(13_1)
    sections = ("pressure", "coolant", "restart", "records")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["line_id", "section", "text", "evidence_signal", *QUERIES.values()])
        for i in range(lines):
            writer.writerow(
                [
                    f"L{i:07d}",
                    sections[i % 4],
                    f"Line {i}, check the panel",
                    f"{rng.uniform(0, 15):.1f}",
                    *(f"{rng.uniform(-3, 3):.2f}" for _ in QUERIES),
                ]
            )


def generate_heads(path: Path, rows: int) -> None:
    rng = random.Random(13_3)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["report_id", "scenario", "token", "relation_role", "decision_axis",
                         "evidence_axis", "condition_axis", *HEADS.values()])  # fmt: skip
        for report in range(max(1, rows // (SCENARIOS * TOKENS))):
            for scenario in range(SCENARIOS):
                # Tenths summing to exactly 10 per head: the sum of the written weights is 1
                # within an ulp or two, as in a hand-made course file.
                shares = [_tenths(rng) for _ in HEADS]
                for token in range(TOKENS):
                    writer.writerow(
                        [f"report_{report:06d}", f"scenario_{scenario}", f"tok_{token}",
                         ("decision", "evidence", "condition")[token],
                         *(f"{rng.uniform(0, 2):.1f}" for _ in range(3)),
                         *(f"{s[token] / 10}" for s in shares)]
                    )  # fmt: skip


def _tenths(rng: random.Random) -> list[int]:
    a = rng.randint(0, 10)
    b = rng.randint(0, 10 - a)
    return [a, b, 10 - a - b]


def default_paths(rows: int) -> dict[str, Path]:
    root = Path(__file__).resolve().parent.parent / "data" / "generated"
    return {
        "questions": root / f"questions_{rows}.csv",
        "heads": root / f"heads_{rows}.csv",
    }


def ensure(layout: str, rows: int) -> Path:
    path = default_paths(rows)[layout]
    if not path.exists():
        print(f"generating {path.name} …", flush=True)
        (generate_questions if layout == "questions" else generate_heads)(path, rows)
    return path


# ---------------------------------------------------------------------------------------------
# (a) the chapters' way, for every group.


def stdlib_questions(path: str) -> float:
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    values = [float(row["evidence_signal"]) for row in rows]
    baseline = sum(values) / len(values)
    contexts = []
    for column in QUERIES.values():
        scores = [float(row[column]) for row in rows]
        peak = max(scores)
        powers = [math.exp(s - peak) for s in scores]
        total = sum(powers)
        weights = [p / total for p in powers]
        context = sum(w * v for w, v in zip(weights, values, strict=True))
        _top = max(range(len(weights)), key=weights.__getitem__)  # the core's top row
        contexts.append((context, context - baseline))
    return math.fsum(c for c, _ in contexts)


def stdlib_heads(path: str) -> float:
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    groups: dict[tuple[str, str], list[dict[str, str]]] = {}
    for row in rows:
        groups.setdefault((row["report_id"], row["scenario"]), []).append(row)
    found: list[float] = []
    for members in groups.values():
        vectors = [[sum(float(row[c]) for c in cols) for cols in AXES.values()] for row in members]
        contexts = {}
        for name, column in HEADS.items():
            weights = [float(row[column]) for row in members]
            if not all(math.isfinite(w) and w >= 0 for w in weights):
                raise ValueError(f"bad weight in {name}")
            if abs(sum(weights) - 1.0) > 1e-9:
                raise ValueError(f"{name} does not sum to 1")
            contexts[name] = [
                sum(w * v[a] for w, v in zip(weights, vectors, strict=True))
                for a in range(len(AXES))
            ]
        reference = contexts["single"]
        _differences = [
            [h - r for h, r in zip(c, reference, strict=True)] for c in contexts.values()
        ]
        _separation = math.sqrt(
            sum(
                (a - b) * (a - b) for a, b in zip(contexts["head1"], contexts["head2"], strict=True)
            )
        )
        for context in contexts.values():
            found.extend(context)
    return math.fsum(found)


# ---------------------------------------------------------------------------------------------
# (b) Arrow's parse only, as csv_front.py reads these layouts' files; (c) the engine.


def parse_only(path: str) -> float:
    try:
        from mkdocs_selfattn.core.csv_header import read_header
    except ImportError:  # an older checkout (--baseline), before the header had its own module
        from mkdocs_selfattn.core.csv_read import read_header

    with open(path, "rb") as handle:
        data = handle.read()
    header = read_header(data, path)
    try:
        from mkdocs_selfattn.core.csv_front import ReadPlan, arrow_table
    except ImportError:  # an older checkout (--baseline), before every layout read through it
        import pyarrow as pa

        from mkdocs_selfattn.core.csv_read import arrow_read  # type: ignore[attr-defined]

        return float(arrow_read(data, header, {h: pa.string() for h in header}, header).num_rows)
    every_cell = ReadPlan(keys=(), identity=(), blocks=(), cells=True)
    return float(arrow_table(data, header, every_cell).num_rows)


def engine(path: str, layout: str) -> float:
    from mkdocs_selfattn.core.reading_engine import compute_reading
    from mkdocs_selfattn.core.reading_table import parse_reading

    with open(path, "rb") as handle:
        data = handle.read()
    if layout == "questions":
        table = parse_reading(
            data, source=path, mapping=QUESTION_COLUMNS, readers=QUERIES, reader_key="queries",
            vectors=["evidence_signal"],
        )  # fmt: skip
        arrays = compute_reading(table, given=False)
    else:
        table = parse_reading(
            data, source=path, mapping=HEADS_COLUMNS, readers=HEADS, reader_key="heads",
            axes=AXES, document=True, given=True,
        )  # fmt: skip
        arrays = compute_reading(table, given=True)
    return math.fsum(arrays.contexts.ravel().tolist())


WORKERS = {
    ("questions", "stdlib"): stdlib_questions,
    ("heads", "stdlib"): stdlib_heads,
    ("questions", "parse"): parse_only,
    ("heads", "parse"): parse_only,
    ("questions", "core"): lambda path: engine(path, "questions"),
    ("heads", "core"): lambda path: engine(path, "heads"),
}

KINDS = ("stdlib", "parse", "core")
LABELS = {
    "stdlib": "(a) stdlib csv + math",
    "parse": "(b) pyarrow parse only",
    "core": "(c) parse_reading + engine",
}
PRELOAD = ("csv", "math", "numpy", "pyarrow", "pyarrow.csv", "pyarrow.compute",
           "mkdocs_selfattn.core.reading_table", "mkdocs_selfattn.core.reading_engine")  # fmt: skip


def child(layout: str, kind: str, path: str) -> None:
    for module in PRELOAD:  # every module loaded before the clock starts, for all kinds alike
        importlib.import_module(module)
    start, start_cpu = time.perf_counter(), time.process_time()
    checksum = WORKERS[(layout, kind)](path)
    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(json.dumps({"seconds": seconds, "cpu": cpu, "checksum": checksum}), flush=True)
    # The report is out: skip the interpreter's teardown, where pyarrow's threads now and then
    # end the process with "terminate called without an active exception".
    os._exit(0)


def measure(layout: str, kind: str, path: Path) -> dict[str, Any]:
    started = time.perf_counter()
    command = [sys.executable, __file__, "--child", layout, kind, str(path)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, cwd=Path(__file__).parent.parent)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{layout} {kind} run failed")
    report: dict[str, Any] = json.loads(out)
    report["process"] = time.perf_counter() - started
    report["peak_mb"] = usage.ru_maxrss / 1024  # Linux reports kilobytes
    return report


def bench(layout: str, rows: int, repeat: int) -> bool:
    """One layout's three measurements and ratios; False if (a) and (c) disagree."""
    path = ensure(layout, rows)
    print(
        f"\n== {layout}: {path.name} ({path.stat().st_size / 1e6:.1f} MB), {repeat} runs each, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} before"
    )
    runs: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
    for _ in range(repeat):  # interleaved: a slow spell of the machine hits every kind
        for kind in KINDS:
            runs[kind].append(measure(layout, kind, path))

    def median(kind: str, key: str) -> float:
        return float(statistics.median(r[key] for r in runs[kind]))

    print(f"{'measurement':<28} {'median s':>9} {'min s':>7} {'max s':>7} {'cpu s':>7} "
          f"{'process s':>9} {'peak RSS MB':>11}")  # fmt: skip
    for kind in KINDS:
        seconds = [r["seconds"] for r in runs[kind]]
        print(
            f"{LABELS[kind]:<28} {median(kind, 'seconds'):>9.3f} {min(seconds):>7.3f} "
            f"{max(seconds):>7.3f} {median(kind, 'cpu'):>7.3f} {median(kind, 'process'):>9.3f} "
            f"{max(r['peak_mb'] for r in runs[kind]):>11.0f}"
        )
    a, b, c = (median(kind, "seconds") for kind in KINDS)
    best = {kind: min(r["seconds"] for r in runs[kind]) for kind in KINDS}
    print(f"load average {os.getloadavg()[0]:.2f} after (other work on the machine skews times)")
    for name, median_ratio, best_ratio in (
        ("a/c (stdlib / core)", a / c, best["stdlib"] / best["core"]),
        ("c/b (core / parse)", c / b, best["core"] / best["parse"]),
    ):
        print(f"{name:<28} {median_ratio:>9.2f}   best of runs {best_ratio:.2f}")
    print(f"{'core peak RSS MB':<28} {max(r['peak_mb'] for r in runs['core']):>9.0f}")
    stdlib_sum, core_sum = runs["stdlib"][0]["checksum"], runs["core"][0]["checksum"]
    agree = abs(stdlib_sum - core_sum) <= 1e-12 * max(1.0, abs(stdlib_sum))
    verdict = "identical" if stdlib_sum == core_sum else "agree" if agree else "DIFFER"
    print(f"{'checksum (a) vs (c)':<28} {verdict} ({stdlib_sum!r} vs {core_sum!r})")
    return agree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the questions and heads layouts.")
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows (lines) per file")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (>= 3)")
    parser.add_argument("--layout", choices=["questions", "heads", "all"], default="all")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    if args.repeat < 3:
        parser.error("--repeat must be at least 3 (the report shows medians)")
    layouts = ("questions", "heads") if args.layout == "all" else (args.layout,)
    return 0 if all([bench(layout, args.rows, args.repeat) for layout in layouts]) else 1


if __name__ == "__main__":
    sys.exit(main())
