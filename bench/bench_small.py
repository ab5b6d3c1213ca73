"""Small CSV files: the stdlib reader (csv_small) against Arrow's, import included.

    python bench/bench_small.py               # both measurements
    python bench/bench_small.py --rounds 11   # more fresh-process rounds for (a)

(a) ``payload``: ``jobs.compute_payload`` on each course example (targets, questions, heads) in a
    fresh interpreter, the first call timed with whatever it imports (the requests are built,
    and the plugin's light modules loaded, before the clock starts). ``small`` reads with the
    stdlib, ``arrow`` forces Arrow (``csv_size.SMALL_BYTES = 0``); the two alternate, and each
    round's ratio pairs them. Peak RSS is each child's own.
(b) ``sizes``: the course files repeated to larger sizes, parsed by each reader in one warm
    process (best of several passes), plus Arrow's import in a fresh one: where the stdlib
    reader's parse costs what Arrow's import and parse cost is where the two paths cross, which
    is what ``csv_size.SMALL_BYTES`` is chosen from.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def child_payload(mode: str) -> None:
    import course_requests

    from mkdocs_selfattn.build import jobs
    from mkdocs_selfattn.core import csv_size

    requests = course_requests.requests()
    if mode == "arrow":
        csv_size.SMALL_BYTES = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    for request in requests.values():
        jobs.compute_payload(request)
    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(json.dumps({"seconds": seconds, "cpu": cpu, "arrow": "pyarrow" in sys.modules}))


def child_import() -> None:
    import numpy  # noqa: F401

    start, start_cpu = time.perf_counter(), time.process_time()
    import pyarrow.compute
    import pyarrow.csv  # noqa: F401

    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(json.dumps({"seconds": seconds, "cpu": cpu}))


def run_child(*args: str) -> dict[str, float]:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", *args], stdout=subprocess.PIPE, cwd=ROOT
    )
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"child {args} failed")
    report: dict[str, float] = json.loads(out)
    report["peak_mb"] = usage.ru_maxrss / 1024
    return report


def payload(rounds: int) -> None:
    runs: dict[str, list[dict[str, float]]] = {"small": [], "arrow": []}
    for i in range(rounds):
        order = ("small", "arrow") if i % 2 == 0 else ("arrow", "small")
        for mode in order:
            runs[mode].append(run_child("payload", mode))
    assert not any(r["arrow"] for r in runs["small"]), "the small path imported pyarrow"
    assert all(r["arrow"] for r in runs["arrow"])
    print(f"(a) compute_payload x3 course examples, fresh process, {rounds} rounds (median):")
    for key in ("seconds", "cpu", "peak_mb"):
        small = statistics.median(r[key] for r in runs["small"])
        arrow = statistics.median(r[key] for r in runs["arrow"])
        ratios = [s[key] / a[key] for s, a in zip(runs["small"], runs["arrow"], strict=True)]
        print(
            f"    {key:8s} small {small * (1 if key == 'peak_mb' else 1000):8.1f}"
            f"  arrow {arrow * (1 if key == 'peak_mb' else 1000):8.1f}"
            f"  small/arrow median {statistics.median(ratios):.3f}"
            f" (min {min(ratios):.3f}, max {max(ratios):.3f})"
            + ("  [MB]" if key == "peak_mb" else "  [ms]")
        )


def sizes() -> None:
    import course_requests

    from mkdocs_selfattn.build import jobs
    from mkdocs_selfattn.core import csv_size

    imports = [run_child("import") for _ in range(5)]
    import_cpu = statistics.median(r["cpu"] for r in imports)
    print(f"(b) Arrow import (pyarrow.csv + compute), median of 5: {import_cpu * 1000:.1f} ms CPU")
    base = course_requests.requests()
    for layout, request in base.items():
        lines = request.data.splitlines(keepends=True)
        print(f"    {layout}: bytes, stdlib ms, arrow ms (warm), stdlib - arrow - import ms")
        for copies in (1, 4, 16, 64, 256):
            body = [
                line.replace(b",", b"_%d," % k, 1) if k else line
                for k in range(copies)
                for line in lines[1:]
            ]
            data = lines[0] + b"".join(body)
            timed = {}
            for mode, limit in (("stdlib", 1 << 40), ("arrow", 0)):
                csv_size.SMALL_BYTES = limit
                again = type(request)(request.key, request.spec, data, request.source)
                jobs.compute(again)
                best = float("inf")
                for _ in range(5):
                    start = time.process_time()
                    jobs.compute(again)
                    best = min(best, time.process_time() - start)
                timed[mode] = best
            excess = timed["stdlib"] - timed["arrow"] - import_cpu
            print(
                f"      {len(data):9d} {timed['stdlib'] * 1000:8.2f} {timed['arrow'] * 1000:8.2f}"
                f" {excess * 1000:9.1f}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs="+")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", choices=("payload", "sizes"))
    args = parser.parse_args()
    if args.child:
        if args.child[0] == "payload":
            child_payload(args.child[1])
        else:
            child_import()
        return 0
    if args.only != "sizes":
        payload(args.rounds)
    if args.only != "payload":
        sizes()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
