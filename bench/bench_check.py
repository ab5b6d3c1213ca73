"""Benchmark ``mkdocs-selfattn check`` against ``mkdocs build`` on the demo site, cache cold.

    python bench/bench_check.py              # 5 rounds
    python bench/bench_check.py --runs 3 --json bench/out/check.json

The demo site (the repository's mkdocs.yml and docs/) is copied to bench/out/check-site/, so the
checkout's own cache is never touched. Each round times, in alternating order, two fresh processes
from an absent cache folder (``.cache/selfattn``):

* build: ``python -m mkdocs build -q -d <empty folder>`` (computes, runs scripts, draws charts,
  writes the site)
* check: ``python -m mkdocs_selfattn check`` (computes and runs scripts; no site, no charts)

Both must succeed (check: exit 0). Reported: the median seconds of each and their ratio, measured
in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"


def copy_site() -> Path:
    site = OUT / "check-site"
    if site.exists():
        shutil.rmtree(site)
    site.mkdir(parents=True)
    shutil.copy2(ROOT / "mkdocs.yml", site / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", site / "docs")
    return site


def timed(cmd: list[str], site: Path) -> float:
    cache = site / ".cache"
    if cache.exists():
        shutil.rmtree(cache)
    os.sync()
    time.sleep(0.5)  # the previous run's writes flushed, exiting workers gone
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=site, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    import compileall

    compileall.compile_dir(str(ROOT / "mkdocs_selfattn"), quiet=1)
    site = copy_site()
    out_dir = site.parent / "check-site-html"
    commands = {
        "build": [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(out_dir)],
        "check": [sys.executable, "-m", "mkdocs_selfattn", "check"],
    }
    samples: dict[str, list[float]] = {name: [] for name in commands}
    timed(commands["build"], site)  # untimed: warms the OS file cache
    for run in range(args.runs):
        order = list(commands) if run % 2 == 0 else list(reversed(commands))
        for name in order:
            samples[name].append(timed(commands[name], site))
    build = statistics.median(samples["build"])
    check = statistics.median(samples["check"])
    summary = {
        "runs": args.runs,
        "build_s": round(build, 3),
        "check_s": round(check, 3),
        "build_over_check": round(build / check, 2),
        "samples": samples,
    }
    print(f"demo site, cold cache, median of {args.runs} runs")
    print(f"  mkdocs build          {build:7.3f} s")
    print(f"  mkdocs-selfattn check {check:7.3f} s")
    print(f"  check is {build / check:.1f}x faster than the build")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
