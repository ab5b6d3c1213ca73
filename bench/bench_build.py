"""Benchmark whole `mkdocs build` runs: the selfattn plugin against plain MkDocs and markdown-exec.

    python bench/bench_build.py                    # 5, 30 and 100 chapters, 7 rounds each
    python bench/bench_build.py 5 30 --runs 3      # quicker
    python bench/bench_build.py --serve 5 30       # edit-to-visible under `mkdocs serve`
    python bench/bench_build.py --json bench/out/build.json

For every size a course is generated under bench/out/<size>/ (see course.py: every chapter has
its own data). Each round runs five builds, each a fresh `python -m mkdocs build -q` process, in
an order that rotates from round to round:

* plain   the course without the plugin (MkDocs + Material + search)
* cold    the plugin, its cache folder deleted first
* warm    the plugin, nothing changed since its last build
* edit    the plugin after one chapter's CSV got a value it never had
* mdexec  markdown-exec drawing the same table and chart

Every build of a round is paired with the plain build of the same round: the report gives the
median over rounds of each ratio, with its spread (min–max). Every build gets the same state: the
plugin's bytecode compiled beforehand (as pip does), no bytecode written by any build
(PYTHONDONTWRITEBYTECODE), one matplotlib config folder whose font cache the untimed warm-up
builds fill (the markdown-exec peer draws the same CJK fonts as the plugin), and `os.sync()` plus
a pause before each build, so that no build pays for the disk writes of the one before.

Checks: the cold build fills the cache folder; a warm build writes no entry; an edit build writes
new ones; every chapter page is byte-identical in every plugin build that saw the same CSV for
that chapter, and the edited chapter's page changes. Exit status 1 if a check or a build fails.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import course
import measure

ROOT = course.ROOT
OUT = course.OUT
CASES = ("plain", "cold", "warm", "edit", "mdexec")
BASELINE_CASES = ("cold_b", "warm_b", "edit_b")
"""With ``--baseline CHECKOUT``: the plugin's builds again, from that checkout's package (on a
copy of the plugin course), in the same rounds: what a change bought, measured side by side."""
TARGETS = {"cold_wall": 0.5, "cold_cpu": 1.0, "warm": 1.03, "edit": 1.10, "memory": 3.0}
SETTLE_S = 0.5


class BuildFailedError(Exception):
    """A build exited non-zero; the rounds completed so far are still reported."""


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["MPLCONFIGDIR"] = str(OUT / "mplconfig")
    env["NO_MKDOCS_2_WARNING"] = "1"  # mkdocs-material's banner, on stderr in every build
    return env


def byte_compile_package() -> None:
    """As pip does when it installs the wheel: MkDocs and the other plugins run from bytecode."""
    import compileall

    compileall.compile_dir(str(ROOT / "mkdocs_selfattn"), quiet=1)


def build(root: Path, site: Path, env: dict[str, str], quiet: bool = True) -> measure.Run:
    if site.exists():
        shutil.rmtree(site)
    cmd = [sys.executable, "-m", "mkdocs", "build", "-f", str(root / "mkdocs.yml"), "-d", str(site)]
    if quiet:
        cmd.insert(4, "-q")
    os.sync()
    time.sleep(SETTLE_S)
    run = measure.run(cmd, root, env)
    if run.returncode != 0:
        tail = "\n".join((run.stdout + run.stderr).splitlines()[-25:])
        raise BuildFailedError(f"build failed ({run.returncode}): {' '.join(cmd)}\n{tail}")
    return run


def cache_snapshot(cache: Path) -> dict[str, tuple[int, int]]:
    if not cache.exists():
        return {}
    return {
        p.relative_to(cache).as_posix(): (p.stat().st_mtime_ns, p.stat().st_size)
        for p in cache.rglob("*")
        if p.is_file()
    }


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Course:
    """One size: its variants and what its plugin builds must agree on."""

    chapters: int
    roots: dict[str, Path]
    cases: tuple[str, ...] = CASES
    pages: dict[tuple[int, str], str] = field(default_factory=dict)
    """(chapter, digest of its CSV) → digest of its page, over every plugin build."""
    problems: list[str] = field(default_factory=list)
    edits: dict[str, int] = field(default_factory=dict)

    def plugin(self, case: str = "cold") -> Path:
        return self.roots["plugin_b" if case.endswith("_b") else "plugin"]

    def csv(self, i: int, case: str = "cold") -> Path:
        return self.plugin(case) / "docs" / course.chapter_dir(i) / course.CSV_NAME

    def check_pages(self, site: Path, case: str) -> None:
        for i in range(1, self.chapters + 1):
            state = digest(self.csv(i, case).read_bytes())
            got = digest((site / course.chapter_dir(i) / "index.html").read_bytes())
            seen = self.pages.setdefault((i, state), got)
            if seen != got:
                self.problems.append(f"{case}: chapter {i} differs from an earlier build")


def run_case(case: str, r: int, lab: Course, env: dict[str, str]) -> measure.Run:
    site = OUT / "sites" / case
    root = lab.plugin(case)
    cache = root / course.CACHE_DIR
    if case in ("plain", "mdexec"):
        return build(lab.roots[case], site, env)
    kind = case.removesuffix("_b")
    if kind == "cold":
        shutil.rmtree(cache, ignore_errors=True)
    before = cache_snapshot(cache)
    edited = old_page = None
    if kind == "edit":
        count = lab.edits.get(case, 0)
        lab.edits[case] = count + 1
        edited = (count * 37 + 11) % lab.chapters + 1
        path = lab.csv(edited, case)
        data = path.read_bytes()
        old_page = lab.pages.get((edited, digest(data)))
        value = course.score_of(data, course.EDIT_ROW) + 0.017 * (count + 1)
        path.write_bytes(course.set_score(data, course.EDIT_ROW, f"{value:.3f}"))
    run = build(root, site, env)
    after = cache_snapshot(cache)
    written = {k for k in after if before.get(k) != after[k]}
    if kind == "cold" and not after:
        lab.problems.append(f"round {r + 1}: the cold build wrote no cache entry")
    if kind == "warm" and written:
        lab.problems.append(f"round {r + 1}: the warm build wrote {len(written)} cache entries")
    if kind == "edit" and not written:
        lab.problems.append(f"round {r + 1}: the edit build wrote no cache entry")
    lab.check_pages(site, case)
    if edited is not None:
        new_page = (site / course.chapter_dir(edited) / "index.html").read_bytes()
        if old_page == digest(new_page):
            lab.problems.append(f"round {r + 1}: the edited chapter {edited} did not change")
    return run


def warm_up(lab: Course, env: dict[str, str]) -> dict[str, list[str]]:
    """One untimed build of each variant without -q: the OS file cache, the font cache, the
    plugin's cache folder (so a first warm or edit build has one), and any warnings."""
    notes: dict[str, list[str]] = {}
    for variant, root in lab.roots.items():
        shutil.rmtree(root / course.CACHE_DIR, ignore_errors=True)
        site = OUT / "sites" / f"warmup-{variant}"
        run = build(root, site, measure.env_of(variant, env), quiet=False)
        notes[variant] = [
            line
            for line in run.stderr.splitlines()
            if line.strip() and not line.lstrip().startswith(("INFO", "DEBUG"))
        ][:5]
        if variant.startswith("plugin"):
            case = "cold_b" if variant == "plugin_b" else "cold"
            lab.check_pages(OUT / "sites" / f"warmup-{variant}", case)
    return notes


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summarise(rounds: list[dict[str, measure.Run]], chapters: int) -> dict[str, Any]:
    def per_round(fn: Any) -> dict[str, float]:
        return spread([fn(r) for r in rounds])

    out: dict[str, Any] = {"chapters": chapters, "rounds": len(rounds), "cases": {}}
    for case in rounds[0]:
        out["cases"][case] = {
            "wall_s": per_round(lambda r, c=case: r[c].seconds),
            "cpu_s": per_round(lambda r, c=case: r[c].cpu),
            "pss_mb": per_round(lambda r, c=case: r[c].pss_mb),
            "hwm_mb": per_round(lambda r, c=case: r[c].hwm_mb),
            "wall_x": per_round(lambda r, c=case: r[c].seconds / r["plain"].seconds),
            "cpu_x": per_round(lambda r, c=case: r[c].cpu / r["plain"].cpu),
            "pss_x": per_round(lambda r, c=case: r[c].pss_mb / r["plain"].pss_mb),
            "hwm_x": per_round(lambda r, c=case: r[c].hwm_mb / r["plain"].hwm_mb),
            "extra_ms": per_round(lambda r, c=case: (r[c].seconds - r["plain"].seconds) * 1000),
            # Fastest round of each against plain's fastest: on a loaded machine, the rounds
            # that other work left alone.
            "best_x": min(r[case].seconds for r in rounds)
            / min(r["plain"].seconds for r in rounds),
        }

    def overhead(r: dict[str, measure.Run], attr: str, cold: str) -> float:
        base = getattr(r["plain"], attr)
        return (getattr(r[cold], attr) - base) / (getattr(r["mdexec"], attr) - base)

    def best(case: str) -> float:
        return min(r[case].seconds for r in rounds)

    out["cold_wall_best"] = (best("cold") - best("plain")) / (best("mdexec") - best("plain"))
    out["cold_wall"] = per_round(lambda r: overhead(r, "seconds", "cold"))
    out["cold_cpu"] = per_round(lambda r: overhead(r, "cpu", "cold"))
    if "cold_b" in rounds[0]:
        out["cold_wall_b"] = per_round(lambda r: overhead(r, "seconds", "cold_b"))
        out["cold_wall_best_b"] = (best("cold_b") - best("plain")) / (
            best("mdexec") - best("plain")
        )
        out["cold_cpu_b"] = per_round(lambda r: overhead(r, "cpu", "cold_b"))
    return out


def fmt(s: dict[str, float], digits: int = 3) -> str:
    return f"{s['median']:.{digits}f} ({s['min']:.{digits}f}–{s['max']:.{digits}f})"


def print_size(summary: dict[str, Any], loads: list[float], lab: Course) -> None:
    n, runs = summary["chapters"], summary["rounds"]
    print(
        f"\n== {n} chapters, {runs} rounds; 1-min load before builds: "
        f"min {min(loads):.2f}, median {statistics.median(loads):.2f}, max {max(loads):.2f} "
        f"({os.cpu_count()} cpus)"
    )
    head = (
        f"{'build':<7} {'wall s':>7} {'wall/plain (min–max)':>24} {'cpu s':>7} "
        f"{'cpu/plain (min–max)':>24} {'PSS MB':>7} {'PSS/plain':>10} {'ΣHWM/plain':>10} "
        f"{'best/best':>9}"
    )
    print(head)
    print("-" * len(head))
    for case in summary["cases"]:
        c = summary["cases"][case]
        print(
            f"{case:<7} {c['wall_s']['median']:>7.3f} {fmt(c['wall_x']):>24} "
            f"{c['cpu_s']['median']:>7.3f} {fmt(c['cpu_x']):>24} {c['pss_mb']['median']:>7.0f} "
            f"{c['pss_x']['median']:>10.2f} {c['hwm_x']['median']:>10.2f} {c['best_x']:>9.3f}"
        )
    cases = summary["cases"]
    rows = (
        ("cold overhead / mdexec's, wall", summary["cold_wall"], TARGETS["cold_wall"]),
        ("cold overhead / mdexec's, CPU", summary["cold_cpu"], TARGETS["cold_cpu"]),
        ("warm / plain, wall", cases["warm"]["wall_x"], TARGETS["warm"]),
        ("one-edit / plain, wall", cases["edit"]["wall_x"], TARGETS["edit"]),
        ("cold peak PSS / plain", cases["cold"]["pss_x"], TARGETS["memory"]),
    )
    if "cold_b" in cases:
        rows += (
            ("baseline: cold overhead, wall", summary["cold_wall_b"], TARGETS["cold_wall"]),
            ("baseline: cold overhead, CPU", summary["cold_cpu_b"], TARGETS["cold_cpu"]),
            ("baseline: warm / plain, wall", cases["warm_b"]["wall_x"], TARGETS["warm"]),
            ("baseline: one-edit / plain, wall", cases["edit_b"]["wall_x"], TARGETS["edit"]),
            ("baseline: cold peak PSS / plain", cases["cold_b"]["pss_x"], TARGETS["memory"]),
        )
    for label, s, target in rows:
        verdict = "ok" if s["median"] <= target else "MISSED"
        print(f"  {label:<32} {fmt(s):>24}  target <= {target:<5} {verdict}")
    print(
        f"  best rounds (fastest of each): cold overhead / mdexec's {summary['cold_wall_best']:.3f}"
    )
    print(
        f"  one-edit extra over plain: {fmt(cases['edit']['extra_ms'], 0)} ms; "
        f"warm extra: {fmt(cases['warm']['extra_ms'], 0)} ms"
    )
    print(
        "  checks: "
        + (
            "; ".join(lab.problems[:5])
            if lab.problems
            else "cache filled/untouched/extended as expected, pages byte-identical"
        )
    )


def print_table(summaries: list[dict[str, Any]]) -> None:
    print(
        "\n| chapters | cold overhead / markdown-exec's (wall; CPU) | warm / plain | "
        "one-CSV-edit / plain | one-edit extra ms | cold peak memory / plain (PSS; ΣHWM) | "
        "best rounds: cold overhead; warm; edit |"
    )
    print("|---|---|---|---|---|---|---|")
    for s in summaries:
        c = s["cases"]
        for tag, b in (("", ""), (" (baseline)", "_b")):
            if "cold" + b not in c:
                continue
            print(
                f"| {s['chapters']}{tag} | {fmt(s['cold_wall' + b], 2)}; "
                f"{fmt(s['cold_cpu' + b], 2)} | {fmt(c['warm' + b]['wall_x'])} | "
                f"{fmt(c['edit' + b]['wall_x'])} | {fmt(c['edit' + b]['extra_ms'], 0)} | "
                f"{c['cold' + b]['pss_x']['median']:.2f}; {c['cold' + b]['hwm_x']['median']:.2f} | "
                f"{s['cold_wall_best' + b]:.2f}; {c['warm' + b]['best_x']:.3f}; "
                f"{c['edit' + b]['best_x']:.3f} |"
            )


def bench_size(chapters: int, runs: int, env: dict[str, str]) -> tuple[dict[str, Any], Course]:
    roots = course.generate(chapters, OUT / str(chapters))
    cases = CASES
    if measure.BASELINE:
        roots["plugin_b"] = roots["plugin"].with_name("plugin_b")
        shutil.copytree(roots["plugin"], roots["plugin_b"])
        cases = CASES + BASELINE_CASES
    lab = Course(chapters, roots, cases)
    notes = warm_up(lab, env)
    for variant, lines in notes.items():
        for line in lines:
            print(f"  [{variant} warm-up] {line[:160]}")
    rounds: list[dict[str, measure.Run]] = []
    loads: list[float] = []
    for r in range(runs):
        order = cases[r % len(cases) :] + cases[: r % len(cases)]
        result: dict[str, measure.Run] = {}
        for case in order:
            loads.append(os.getloadavg()[0])
            try:
                result[case] = run_case(case, r, lab, measure.env_of(case, env))
            except BuildFailedError as exc:
                lab.problems.append(str(exc))
                print(f"bench: {exc}", file=sys.stderr)
                break
        if len(result) < len(cases):
            break
        rounds.append({case: result[case] for case in cases})
        shown = "  ".join(f"{c} {result[c].seconds:.2f}s" for c in cases)
        print(f"{chapters} chapters, round {r + 1}/{runs} ({' '.join(order)}): {shown}", flush=True)
    if not rounds:
        raise SystemExit(f"bench: no round completed at {chapters} chapters")
    summary = summarise(rounds, chapters)
    summary["load"] = spread(loads)
    summary["samples"] = {
        case: {
            "wall_s": [r[case].seconds for r in rounds],
            "cpu_s": [r[case].cpu for r in rounds],
            "pss_mb": [r[case].pss_mb for r in rounds],
            "hwm_mb": [r[case].hwm_mb for r in rounds],
        }
        for case in cases
    }
    summary["problems"] = lab.problems
    print_size(summary, loads, lab)
    return summary, lab


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[5, 30, 100], help="chapters")
    parser.add_argument("--runs", type=int, default=7, help="rounds per size (7)")
    parser.add_argument("--serve", action="store_true", help="edit-to-visible under serve")
    parser.add_argument("--edits", type=int, default=4, help="edits per serve session (4)")
    parser.add_argument("--json", type=Path, help="also write the numbers to this file")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="another checkout: its plugin's cold, warm and edit builds run in the same rounds",
    )
    args = parser.parse_args(argv)
    if args.baseline is not None:
        measure.BASELINE.append(str(args.baseline.resolve()))
        import compileall

        compileall.compile_dir(str(args.baseline / "mkdocs_selfattn"), quiet=1)
    if any(n < 2 for n in args.sizes) or args.runs < 1:
        parser.error("need at least 2 chapters and 1 round")
    started = time.perf_counter()
    byte_compile_package()
    env = environment()
    (OUT / "mplconfig").mkdir(parents=True, exist_ok=True)
    if args.serve:
        import serve_mode

        summaries = [serve_mode.bench(n, args.runs, args.edits, env) for n in args.sizes]
        serve_mode.print_table(summaries)
        failed = any(s["problems"] for s in summaries)
    else:
        results = [bench_size(n, args.runs, env) for n in args.sizes]
        summaries = [s for s, _ in results]
        print_table(summaries)
        failed = any(lab.problems for _, lab in results)
    print(
        f"\ntotal bench time {time.perf_counter() - started:.0f}s; load now "
        f"{os.getloadavg()[0]:.2f}"
    )
    if args.json:
        payload = {
            "mode": "serve" if args.serve else "build",
            "sizes": summaries,
            "environment": {
                "python": platform.python_version(),
                "platform": platform.platform(),
                "cpus": os.cpu_count(),
            },
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")
        print(f"wrote {args.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
