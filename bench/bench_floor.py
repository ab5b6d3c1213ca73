"""What no plugin can beat on this machine: the floors under issue 18's build-speed targets.

    python bench/bench_floor.py              # 5 and 30 chapters, 5 rounds
    python bench/bench_floor.py 5 30 100 --runs 7

A one-CSV-edit build must draw the edited chapter's chart with matplotlib (the issue keeps
matplotlib for the charts), so some process must import numpy and matplotlib and draw it, and
none of the plugin's code runs before Python imports the plugin, while MkDocs loads its config.
Each round measures, in the same conditions as ``bench_build.py`` (same course, font cache,
bytecode state, a pause before each process):

* plain: the course built without the plugin (wall time, peak PSS);
* first code: a warm plugin build, noting when the plugin's import begins (probe ``first-code``),
  plus a bare interpreter's start, which precedes it;
* the worker's chain in a fresh interpreter (probe ``worker``): import numpy, import matplotlib as
  the worker does, the first result, the first chart, and each further result + chart; and the
  memory that process gained.

From these, per size: the earliest a one-edit build could end if the build process never waited
and the worker started at the plugin's first line (it must still import numpy and matplotlib and
draw one chart), as a ratio to plain; the least memory of a build plus such a worker, as a ratio
to plain; and the least a cold build's worker must spend, against markdown-exec's overhead.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_build
import course
import measure

PROBES = Path(__file__).resolve().parent / "floor_probes.py"


def last_json(text: str) -> dict[str, object]:
    return json.loads(text.strip().splitlines()[-1])  # type: ignore[no-any-return]


def probe(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[dict[str, object], float]:
    os.sync()  # the same settling as every build of bench_build.py
    time.sleep(bench_build.SETTLE_S)
    run = measure.run([sys.executable, str(PROBES), *args], cwd, env)
    if run.returncode != 0:
        raise SystemExit(f"probe failed: {args}\n{run.stderr[-2000:]}")
    return last_json(run.stdout), run.seconds


def bare_start(env: dict[str, str]) -> float:
    return measure.run([sys.executable, "-c", "pass"], Path.cwd(), env).seconds


def one_size(chapters: int, runs: int, env: dict[str, str]) -> dict[str, float]:
    roots = course.generate(chapters, course.OUT / f"floor-{chapters}")
    lab = bench_build.Course(chapters, roots)
    bench_build.warm_up(lab, env)
    plugin = roots["plugin"]
    site = course.OUT / "sites" / "floor"
    page = plugin / "docs" / course.chapter_dir(1) / "index.md"
    csv = plugin / "docs" / course.chapter_dir(1) / course.CSV_NAME
    rows: dict[str, list[float]] = {}

    def keep(name: str, value: float) -> None:
        rows.setdefault(name, []).append(value)

    for r in range(runs):
        plain = bench_build.build(roots["plain"], site, env)
        mdexec = bench_build.build(roots["mdexec"], site, env)
        keep("plain wall", plain.seconds)
        keep("plain cpu", plain.cpu)
        keep("plain pss", plain.pss_mb)
        keep("mdexec overhead wall", mdexec.seconds - plain.seconds)
        keep("mdexec overhead cpu", mdexec.cpu - plain.cpu)
        keep("bare interpreter", bare_start(env))
        cmd = ["first-code", "mkdocs", "build", "-q", "-f", str(plugin / "mkdocs.yml")]
        first, _ = probe([*cmd, "-d", str(site)], plugin, env)
        keep("plugin import begins", float(first["plugin_import_s"]))  # type: ignore[arg-type]
        work, _ = probe(["worker", str(page), str(csv)], plugin, env)
        for name, seconds in work["steps"].items():  # type: ignore[attr-defined]
            keep(name, seconds)
        keep("worker memory", work["gained_mb"]["Pss"])  # type: ignore[index]
        print(f"{chapters} chapters, round {r + 1}/{runs} done", flush=True)
    return {name: statistics.median(values) for name, values in rows.items()}


def report(chapters: int, m: dict[str, float]) -> None:
    first = m["bare interpreter"] + m["plugin import begins"]
    chain = m["import numpy"] + m["import matplotlib"] + m["each further result + chart"]
    edit_floor = first + chain
    print(f"\n== {chapters} chapters (medians)")
    for name, value in m.items():
        unit = "MB" if name in ("plain pss", "worker memory") else "s"
        print(f"  {name:38s} {value:8.3f} {unit}")
    print(
        f"  one-edit floor: plugin's first code {first:.3f} s + numpy, matplotlib and one chart "
        f"{chain:.3f} s = {edit_floor:.3f} s = {edit_floor / m['plain wall']:.2f} x plain "
        "(target <= 1.10)"
    )
    memory = (m["plain pss"] + m["worker memory"]) / m["plain pss"]
    print(
        f"  memory floor with one worker: (plain {m['plain pss']:.0f} + worker "
        f"{m['worker memory']:.0f} MB) / plain = {memory:.2f} (target <= 3.0)"
    )
    imports = m["import numpy"] + m["import matplotlib"] + m["first result (with its imports)"]
    worker_cpu = imports + chapters * m["each further result + chart"]
    print(
        f"  cold build, the worker's own work: imports {imports:.3f} s + {chapters} x "
        f"{m['each further result + chart']:.4f} s = {worker_cpu:.3f} s; markdown-exec's "
        f"overhead {m['mdexec overhead wall']:.3f} s wall, {m['mdexec overhead cpu']:.3f} s CPU"
    )
    one_worker = first + worker_cpu - m["plain wall"]
    print(
        f"  cold wall overhead floor with one worker: {max(one_worker, 0):.3f} s = "
        f"{max(one_worker, 0) / m['mdexec overhead wall']:.2f} x markdown-exec's (target <= 0.5)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[5, 30])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = bench_build.environment()
    bench_build.byte_compile_package()
    for chapters in args.sizes:
        report(chapters, one_size(chapters, args.runs, env))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
