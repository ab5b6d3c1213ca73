"""Benchmark the core against the chapter's plain-Python way and against parsing alone.

    python bench/bench_core.py              # 1,000,000 rows (generated on first use)
    python bench/bench_core.py --rows 100000 --repeat 5

Three measurements, each repeated in a fresh interpreter so that every peak RSS belongs to one
measurement and no run warms the interpreter for the next (the file itself is in the page cache
for all of them alike):

(a) ``stdlib``: csv.DictReader + math, every group's softmax, representation, baseline, shift and
    top computed the way the chapter's script does it, only for every group instead of one;
(b) ``parse``:  pyarrow reading the file exactly as ``csv_front.py`` does (its own functions, so the
    options can never drift apart) and nothing else;
(c) ``core``:   ``read_table`` + ``compute`` for every group: validation, encoding and all numbers.

Times are taken inside the child around the work only (imports are done before the clock starts,
for all three alike): "median/min/max s" are wall-clock, "cpu s" the CPU time of all the child's
threads (less sensitive to other load on the machine, and showing how much ran in parallel);
"process s" is the whole child's wall time including interpreter start-up.
Peak RSS comes from ``os.wait4`` on each child, so it is the child's own high-water mark.
The targets: a/c >= 4 (the core is worth having), c/b <= 1.3 (the core adds at most 30 % to what
parsing costs), and core peak RSS < 600 MB. Each child runs its workload once untimed, then
``--inner`` times (3), and reports its fastest pass; the c/b ratio is also given per round.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGETS, CANDIDATES = 10, 100
KINDS = ("stdlib", "parse", "core")
LABELS = {
    "stdlib": "(a) stdlib csv + math",
    "parse": "(b) pyarrow parse only",
    "core": "(c) read_table + compute",
}


# ---------------------------------------------------------------------------------------------
# The three workloads (run in the child). Each returns a checksum so the parent can check that
# (a) and (c) computed the same numbers, i.e. that the comparison is fair: the exactly rounded
# sum (math.fsum) of every context value (the new representation), which does not depend on the
# order of groups.


def run_stdlib(path: str) -> float:
    import csv
    import math

    required = ("document_id", "target_token", "candidate_token", "candidate_role", "score")
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = list(reader.fieldnames or [])
        rows = list(reader)
    vector_columns = [c for c in header if c not in required]

    groups: dict[tuple[str, str], list[dict[str, str]]] = {}
    first_vectors: dict[str, dict[str, list[float]]] = {}
    for row in rows:
        document = row["document_id"]
        groups.setdefault((document, row["target_token"]), []).append(row)
        seen = first_vectors.setdefault(document, {})
        if row["candidate_token"] not in seen:
            seen[row["candidate_token"]] = [float(row[c]) for c in vector_columns]
    dims = range(len(vector_columns))
    baselines = {
        document: [sum(v[j] for v in vectors.values()) / len(vectors) for j in dims]
        for document, vectors in first_vectors.items()
    }

    results = []
    for (document, target), members in groups.items():
        scores = [float(r["score"]) for r in members]
        largest = max(scores)
        exps = [math.exp(s - largest) for s in scores]
        total = sum(exps)
        weights = [e / total for e in exps]
        vectors = [[float(r[c]) for c in vector_columns] for r in members]
        representation = [
            sum(w * v[j] for w, v in zip(weights, vectors, strict=True))
            for j in range(len(vector_columns))
        ]
        shift = [r - b for r, b in zip(representation, baselines[document], strict=True)]
        top = members[max(range(len(weights)), key=weights.__getitem__)]["candidate_token"]
        results.append((document, target, weights, representation, shift, top))
    return math.fsum(v for result in results for v in result[3])


def run_parse(path: str) -> float:
    from mkdocs_selfattn.core import csv_read as core_table

    with open(path, "rb") as handle:
        data = handle.read()
    from mkdocs_selfattn.core.column_map import ColumnMap

    cols = ColumnMap()
    header = core_table.read_header(data, path)
    vector_columns = core_table._vector_columns(header, cols, None, path)
    has_index = core_table._index_columns_present(header, cols, path)
    plan = getattr(core_table, "table_plan", None)
    if plan is None:
        # Before every layout read through csv_front (--baseline runs of an older checkout).
        arrow = core_table._parse_with_arrow(data, header, cols, vector_columns, has_index, path)
    else:
        from mkdocs_selfattn.core.csv_front import arrow_table

        arrow = arrow_table(data, header, plan(cols, vector_columns, has_index))
    return float(arrow.num_rows)


def run_core(path: str) -> float:
    import math

    from mkdocs_selfattn.core.attention import compute
    from mkdocs_selfattn.core.csv_read import read_table

    results = compute(read_table(path))
    # "representation" before the quantity took its one name, so --baseline-style A/B runs
    # (PYTHONPATH=OLD_CHECKOUT) still measure an older package.
    context = getattr(results, "context", None)
    if context is None:
        context = results.representation
    return math.fsum(context.ravel().tolist())


WORKERS = {"stdlib": run_stdlib, "parse": run_parse, "core": run_core}
PRELOAD = (
    "csv",
    "math",
    "numpy",
    "pyarrow",
    "pyarrow.csv",
    "pyarrow.compute",
    "mkdocs_selfattn.core.csv_read",
    "mkdocs_selfattn.core.attention",
)


INNER = 3
"""Timed passes in each child after one untimed pass; the child reports its fastest. The first
pass pays for what only happens once in a process (page faults of a fresh heap, pyarrow's thread
pool, lazily imported submodules) and made single-pass ratios swing between 1.13 and 1.55."""


def child(kind: str, path: str, inner: int = INNER) -> None:
    # Load every module before the clock starts, for all kinds alike.
    for module in PRELOAD:
        importlib.import_module(module)

    checksum = WORKERS[kind](path)  # the untimed pass
    best = (float("inf"), 0.0)
    for _ in range(inner):
        start, start_cpu = time.perf_counter(), time.process_time()
        checksum = WORKERS[kind](path)
        seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        best = min(best, (seconds, cpu))
    print(json.dumps({"seconds": best[0], "cpu": best[1], "checksum": checksum}))


# ---------------------------------------------------------------------------------------------
# The parent: generate, measure, report.


def measure(kind: str, path: Path, inner: int = INNER) -> dict[str, Any]:
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", kind, str(path), "--inner", str(inner)],
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{kind} run failed with exit code {proc.returncode}")
    report: dict[str, Any] = json.loads(out)
    report["process"] = wall
    report["peak_mb"] = usage.ru_maxrss / 1024  # Linux reports kilobytes
    return report


def ensure_file(rows: int) -> Path:
    script = ROOT / "data" / "generate_large.py"
    spec = importlib.util.spec_from_file_location("generate_large", script)
    assert spec is not None
    assert spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    documents = max(1, round(rows / (TARGETS * CANDIDATES)))
    path: Path = generator.default_path(documents, TARGETS, CANDIDATES)
    if not path.exists():
        print(f"generating {path.relative_to(ROOT)} …", flush=True)
        generator.generate(path, documents=documents, targets=TARGETS, candidates=CANDIDATES)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the mkdocs-selfattn core.")
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows (multiple of 1,000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (>= 3)")
    parser.add_argument(
        "--inner", type=int, default=INNER, help=f"timed passes per child, fastest kept ({INNER})"
    )
    parser.add_argument("--child", nargs=2, metavar=("KIND", "CSV"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child, inner=max(1, args.inner))
        return 0
    if args.repeat < 3:
        parser.error("--repeat must be at least 3 (the report shows medians)")

    path = ensure_file(args.rows)
    size_mb = path.stat().st_size / 1e6
    print(
        f"file: {path.relative_to(ROOT)} ({size_mb:.1f} MB), {args.repeat} runs each, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} before"
    )
    runs: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
    # Interleave the kinds so a slow spell of the machine does not land on one kind only.
    for _ in range(args.repeat):
        for kind in KINDS:
            runs[kind].append(measure(kind, path, args.inner))

    def median(kind: str, key: str) -> float:
        return float(statistics.median(r[key] for r in runs[kind]))

    print()
    print(
        f"{'measurement':<28} {'median s':>9} {'min s':>7} {'max s':>7} {'cpu s':>7} "
        f"{'process s':>9} {'peak RSS MB':>11}"
    )
    for kind in KINDS:
        seconds = [r["seconds"] for r in runs[kind]]
        print(
            f"{LABELS[kind]:<28} {median(kind, 'seconds'):>9.3f} {min(seconds):>7.3f} "
            f"{max(seconds):>7.3f} {median(kind, 'cpu'):>7.3f} {median(kind, 'process'):>9.3f} "
            f"{max(r['peak_mb'] for r in runs[kind]):>11.0f}"
        )

    a, b, c = (median(kind, "seconds") for kind in KINDS)
    core_peak = max(r["peak_mb"] for r in runs["core"])
    # Paired within each round (the kinds of a round ran one after the other): the spread of
    # these is how stable the ratio is.
    paired = [
        core["seconds"] / parse["seconds"]
        for core, parse in zip(runs["core"], runs["parse"], strict=True)
    ]
    checks = [
        ("a/c (stdlib / core)", a / c, ">= 4", a / c >= 4),
        ("c/b (core / parse)", c / b, "<= 1.3", c / b <= 1.3),
        ("core peak RSS MB", core_peak, "< 600", core_peak < 600),
    ]
    print(f"\nload average {os.getloadavg()[0]:.2f} after (other work on the machine skews times)")
    for name, value, target, ok in checks:
        print(f"{name:<28} {value:>9.2f}   target {target:<7} {'ok' if ok else 'MISSED'}")
    print(
        f"{'c/b per round':<28} median {statistics.median(paired):.2f}, min {min(paired):.2f}, "
        f"max {max(paired):.2f} over {len(paired)} rounds"
    )
    # Best-of-N ratios: less sensitive to other load, shown for context only (targets are medians).
    best = {kind: min(r["seconds"] for r in runs[kind]) for kind in KINDS}
    print(
        f"{'(best of runs: a/c, c/b)':<28} {best['stdlib'] / best['core']:>9.2f} "
        f"{best['core'] / best['parse']:>6.2f}"
    )

    stdlib_sum = runs["stdlib"][0]["checksum"]
    core_sum = runs["core"][0]["checksum"]
    agree = abs(stdlib_sum - core_sum) <= 1e-12 * max(1.0, abs(stdlib_sum))
    verdict = "identical" if stdlib_sum == core_sum else "agree" if agree else "DIFFER"
    print(f"{'checksum (a) vs (c)':<28} {verdict} ({stdlib_sum!r} vs {core_sum!r})")
    return 0 if agree and all(ok for *_, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
