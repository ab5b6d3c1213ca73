"""Benchmark whole `mkdocs build` runs: the selfattn plugin against no plugin and markdown-exec.

    python bench/bench_build.py                  # 100 chapters, 5 rounds (takes minutes)
    python bench/bench_build.py --quick          # 10 chapters, 2 rounds (smoke test)
    python bench/bench_build.py --chapters 50 --runs 3 --json bench/out/result.json

Everything is generated afresh under bench/out/ (gitignored): one course of N chapters in three
variants that differ only in how the chapter's example is written.

* plain:   the example block is an inert ```yaml fence; plugins: [search]
* plugin:  the example is a ```selfattn block (output, table, mermaid, chart);
           plugins: [search, selfattn] with cache_dir: .selfattn-cache
* mdexec:  the example is two markdown-exec blocks (```python exec="true"): one reads the CSV with
           the csv module and prints the softmax tables, one draws the grouped bar chart with
           matplotlib and prints the SVG; plugins: [search, markdown-exec]

Every chapter has prose, one hand-written mermaid flowchart and its own copy of the course CSV.
The copies differ in one score (chapter i adds i/1000 to one row), so that no two chapters have the
same content: a content-addressed cache cannot turn N computations into one, and the cold build
really computes N examples.

Each round builds, in a deterministic per-round order of the three units below:

* plain   (variant plain)
* chain   cold  — variant plugin with its cache folder deleted first
          warm  — the same again right after, nothing changed
          edit  — one chapter's CSV changed (a value never used before), cache kept
* mdexec  (variant mdexec)

Each build is a fresh process `python -m mkdocs build -q -f <yml> -d <empty site dir>`, timed
with time.perf_counter around the whole process. Before the timed rounds, one untimed build of
each variant runs without -q, to warm the OS file cache and to collect any warnings.

Checks: the cold build starts from an absent cache folder and fills it; the warm build sees the
same docs tree and writes no cache entry; the edit build writes new entries. Every chapter page is
compared byte for byte across cold, warm and edit: unchanged chapters must be identical, the edited
chapter must differ.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
COURSE_CSV = ROOT / "docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"
CSV_NAME = "memo.csv"
CACHE_DIR = ".selfattn-cache"
DOCUMENT = "memo_cap_missing"
TARGETS = ("그것", "씌우지")
DISPLAY = {
    "배터리팩": "电池包",
    "분리": "分离",
    "절연캡": "绝缘帽",
    "씌우지": "未套上",
    "그것": "它",
    "위험": "风险",
}
GROUPS = {"cap_plus_not_applied": ("절연캡", "씌우지")}
# Row whose score makes each chapter's copy unique, and row changed by the one-edit build.
VARY_ROW = (DOCUMENT, "그것", "분리")
EDIT_ROW = (DOCUMENT, "씌우지", "절연캡")

CASES = ("plain", "cold", "warm", "edit", "mdexec")
LABELS = {
    "plain": "plain (no plugin)",
    "cold": "selfattn, cold cache",
    "warm": "selfattn, warm cache",
    "edit": "selfattn, one CSV edited",
    "mdexec": "markdown-exec",
}
VARIANTS = ("plain", "plugin", "mdexec")


# ---------------------------------------------------------------------------------------------
# Course generation

MKDOCS_YML = """\
site_name: selfattn build bench ({variant})
docs_dir: docs
theme:
  name: material
  language: zh
markdown_extensions:
  - admonition
  - tables
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
plugins:
{plugins}
"""

PLUGINS = {
    "plain": "  - search",
    "plugin": f"  - search\n  - selfattn:\n      cache_dir: {CACHE_DIR}",
    "mdexec": "  - search\n  - markdown-exec",
}

PROSE_ZH = (
    "这一章继续讨论安全备忘录里的指代问题：同一句话里，“它”究竟指向哪一个候选，"
    "取决于当前 token 要回答什么问题。我们先把句子拆成候选，再给每个候选打分。",
    "打分本身并不神秘：每个候选都有一个 score，softmax 把这些 score 变成加起来等于 1 的权重。"
    "权重越大，说明当前 token 越“在意”这个候选。",
    "请注意，baseline 把所有候选一视同仁地平均，它没有立场；self-attention 的价值正在于"
    "让不同的当前 token 得到不同的混合结果。",
    "在现场记录里，拆下电池包之后没有套上绝缘帽，是最常见的风险来源之一。"
    "这个例子之所以有用，是因为它让数字和直觉可以互相核对。",
    "阅读表格时，先看权重最大的候选，再看“绝缘帽 + 未套上”这一束线索的合计权重，"
    "最后比较两个当前 token 的分布是否真的分开了。",
)
PROSE_EN = (
    "In this chapter we look at the same memo from a slightly different angle: the current token "
    "asks a question, and each candidate answers it with a score. Softmax turns the scores into "
    "weights that sum to one.",
    "The point is not to memorise which weight is the largest, but to check that changing the "
    "current token really changes what the model re-reads. If the example holds, the two "
    "distributions should differ in a way a human reader can explain.",
    "A bundle of clues matters more than a single word: the insulating cap and the missing action "
    "together carry most of the weight for the pronoun, while the action token spreads its "
    "attention over the preceding steps.",
    "Every number on this page is meant to come from the CSV next to it; when the data changes, "
    "the page should change with it, and nothing else should.",
)

MERMAID = """\
```mermaid
flowchart LR
    A["电池包 battery pack"] --> B["分离 detach"]
    B --> C{"绝缘帽 insulating cap? (ch. {i})"}
    C -- "未套上 not applied" --> D["风险 risk"]
    C -- "已套上 applied" --> E["安全 safe"]
    D --> F["它 = ?"]
```"""


def block_body() -> str:
    display = ", ".join(f"{k}: {v}" for k, v in DISPLAY.items())
    groups = ", ".join(f"{k}: [{', '.join(v)}]" for k, v in GROUPS.items())
    return (
        f"csv: {CSV_NAME}\n"
        f"document: {DOCUMENT}\n"
        f"targets: [{', '.join(TARGETS)}]\n"
        f"display: {{{display}}}\n"
        f"groups: {{{groups}}}\n"
        "show: [output, table, mermaid, chart]"
    )


MDEXEC_COMMON = """\
import csv
import math

path = {path!r}
targets = {targets!r}
display = {display!r}
groups = {groups!r}
with open(path, newline="", encoding="utf-8") as handle:
    rows = [r for r in csv.DictReader(handle) if r["document_id"] == {document!r}]
weights = {{}}
for target in targets:
    cands = [(r["candidate_token"], float(r["score"])) for r in rows if r["target_token"] == target]
    top = max(s for _, s in cands)
    exps = [(c, s, math.exp(s - top)) for c, s in cands]
    total = sum(e for _, _, e in exps)
    weights[target] = [(c, s, e / total) for c, s, e in exps]
"""

MDEXEC_TABLE = """\
for target in targets:
    print(f"**{display.get(target, target)}** ({target})")
    print()
    print("| 候选 candidate | score | weight |")
    print("|---|---:|---:|")
    for cand, score, weight in weights[target]:
        print(f"| {display.get(cand, cand)} | {score:g} | {weight:.3f} |")
    for name, members in groups.items():
        share = sum(w for c, _, w in weights[target] if c in members)
        print(f"| *{name}* | | {share:.3f} |")
    print()
"""

MDEXEC_CHART = """\
import io

import matplotlib

matplotlib.use("Agg")
from matplotlib import pyplot as plt

candidates = []
for target in targets:
    for cand, _, _ in weights[target]:
        if cand not in candidates:
            candidates.append(cand)
rc = {
    "svg.fonttype": "none",
    # Matplotlib falls back across font.family entries only (a generic "sans-serif" resolves
    # to one font), so the CJK font is listed there for the Chinese labels.
    "font.family": ["DejaVu Sans", "Noto Sans CJK SC"],
    "font.size": 10,
}
with plt.rc_context(rc):
    fig, ax = plt.subplots(figsize=(7, 3.6))
    width = 0.8 / len(targets)
    for s, target in enumerate(targets):
        w = dict((c, x) for c, _, x in weights[target])
        xs = [p - 0.4 + width * (s + 0.5) for p in range(len(candidates))]
        heights = [w.get(c, 0.0) for c in candidates]
        bars = ax.bar(xs, heights, width=width * 0.92, label=display.get(target, target))
        ax.bar_label(bars, labels=[f"{h:.3f}" for h in heights], fontsize=7, padding=2)
    ax.set_xticks(range(len(candidates)), [display.get(c, c) for c in candidates])
    ax.set_ylabel("attention weight")
    ax.set_xlabel("candidate token")
    ax.legend(loc="upper right", fontsize=8)
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg")
    plt.close(fig)
print(buffer.getvalue())
"""


def example_markdown(variant: str, i: int) -> str:
    if variant == "plain":
        return f"```yaml\n{block_body()}\n```"
    if variant == "plugin":
        return f"```selfattn\n{block_body()}\n```"
    common = MDEXEC_COMMON.format(
        path=f"docs/{chapter_dir(i)}/{CSV_NAME}",
        targets=list(TARGETS),
        display=DISPLAY,
        groups={k: list(v) for k, v in GROUPS.items()},
        document=DOCUMENT,
    )
    return (
        f'```python exec="true"\n{common}\n{MDEXEC_TABLE}```\n\n'
        "画成柱状图 / as a chart:\n\n"
        f'```python exec="true" html="true"\n{common}\n{MDEXEC_CHART}```'
    )


def chapter_dir(i: int) -> str:
    return f"chapter-{i:03d}"


def chapter_markdown(variant: str, i: int) -> str:
    zh = [PROSE_ZH[(i + k) % len(PROSE_ZH)] for k in range(3)]
    en = [PROSE_EN[(i + k) % len(PROSE_EN)] for k in range(2)]
    return "\n\n".join(
        [
            f"# 第 {i} 章 · Chapter {i}: 通向 self-attention 的流程",
            zh[0],
            en[0],
            "## 流程 · The flow",
            MERMAID.replace("{i}", str(i)),
            zh[1],
            '!!! note "先猜一猜 · Guess first"\n\n'
            "    当前 token 从“它”换成“未套上”，权重会往哪里聚？"
            "Which candidate will the weight move to?",
            "## 例子 · The example",
            example_markdown(variant, i),
            zh[2],
            en[1],
            "",
        ]
    )


def set_score(data: bytes, row: tuple[str, str, str], value: str) -> bytes:
    """Return the CSV with the score of one (document, target, candidate) row replaced."""
    lines = data.split(b"\n")
    key = ",".join(row).encode()
    hits = 0
    for n, line in enumerate(lines):
        if line.startswith(key + b","):
            head, _, _ = line.rstrip(b"\r").rpartition(b",")
            lines[n] = head + b"," + value.encode() + (b"\r" if line.endswith(b"\r") else b"")
            hits += 1
    if hits != 1:
        raise SystemExit(f"bench: expected one CSV row {row}, found {hits}")
    return b"\n".join(lines)


def score_of(data: bytes, row: tuple[str, str, str]) -> float:
    key = ",".join(row).encode() + b","
    for line in data.split(b"\n"):
        if line.startswith(key):
            return float(line.rstrip(b"\r").rpartition(b",")[2])
    raise SystemExit(f"bench: no CSV row {row}")


def generate(chapters: int) -> dict[str, Path]:
    if OUT.exists():
        shutil.rmtree(OUT)
    base = COURSE_CSV.read_bytes()
    start = score_of(base, VARY_ROW)
    roots: dict[str, Path] = {}
    for variant in VARIANTS:
        root = OUT / variant
        docs = root / "docs"
        docs.mkdir(parents=True)
        (root / "mkdocs.yml").write_text(
            MKDOCS_YML.format(variant=variant, plugins=PLUGINS[variant]), encoding="utf-8"
        )
        (docs / "index.md").write_text(
            "# selfattn build bench\n\n"
            f"{chapters} chapters, variant **{variant}**. 每章都有一个例子和一张流程图。\n",
            encoding="utf-8",
        )
        for i in range(1, chapters + 1):
            folder = docs / chapter_dir(i)
            folder.mkdir()
            (folder / "index.md").write_text(chapter_markdown(variant, i), encoding="utf-8")
            unique = set_score(base, VARY_ROW, f"{start + i / 1000:.3f}")
            (folder / CSV_NAME).write_bytes(unique)
        roots[variant] = root
    return roots


# ---------------------------------------------------------------------------------------------
# Building and checking


class BuildFailedError(Exception):
    """A build exited non-zero; the rounds completed so far are still reported."""


LOADS: list[float] = []
"""1-minute load average before each timed build: other work on the machine skews timings."""


@dataclass
class Build:
    seconds: float
    stderr: str
    cpu: float
    """User + system CPU seconds of the build process and the children it waited for."""


SETTLE_S = 1.0


def settle() -> None:
    """Start every timed build from the same state: the files the previous build wrote (a cold
    build writes hundreds of cache entries and a whole site) flushed to disk, and a moment for
    the kernel's writeback and any exiting processes to finish. Without it, whichever build came
    right after a cold one paid for the cold build's disk writes."""
    os.sync()
    time.sleep(SETTLE_S)


def build(root: Path, site: Path, quiet: bool = True) -> Build:
    if site.exists():
        shutil.rmtree(site)
    cmd = [sys.executable, "-m", "mkdocs", "build", "-f", str(root / "mkdocs.yml"), "-d", str(site)]
    if quiet:
        cmd.insert(4, "-q")
        settle()
        LOADS.append(os.getloadavg()[0])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-25:])
        raise BuildFailedError(f"build failed ({proc.returncode}): {' '.join(cmd)}\n{tail}")
    return Build(seconds, proc.stderr, cpu)


def tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def cache_snapshot(cache: Path) -> dict[str, tuple[int, int]]:
    if not cache.exists():
        return {}
    return {
        p.relative_to(cache).as_posix(): (p.stat().st_mtime_ns, p.stat().st_size)
        for p in cache.rglob("*")
        if p.is_file()
    }


def page(site: Path, i: int) -> bytes:
    return (site / chapter_dir(i) / "index.html").read_bytes()


def other_differences(a: Path, b: Path, chapters: int) -> list[str]:
    """Files (other than chapter pages and the gzip sitemap, which holds a time) that differ."""
    skip = {f"{chapter_dir(i)}/index.html" for i in range(1, chapters + 1)} | {"sitemap.xml.gz"}
    names_a = {p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file()}
    names_b = {p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file()}
    differ = sorted((names_a ^ names_b) - skip)
    for name in sorted((names_a & names_b) - skip):
        if (a / name).read_bytes() != (b / name).read_bytes():
            differ.append(name)
    return differ


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def interesting(stderr: str) -> list[str]:
    """Log lines worth reporting: not mkdocs' routine INFO lines, not mkdocs-material's
    end-of-life banner (printed to stderr on every build, even with -q)."""
    lines = []
    for raw in stderr.splitlines():
        line = _ANSI.sub("", raw).strip()
        if not line or line.startswith(("INFO", "\u2502")) or "NO_MKDOCS_2_WARNING" in line:
            continue
        lines.append(line)
    return lines


@dataclass
class Checks:
    rounds: list[dict[str, Any]] = field(default_factory=list)
    warnings: dict[str, list[str]] = field(default_factory=dict)
    sanity: dict[str, Any] = field(default_factory=dict)

    @property
    def mismatches(self) -> int:
        return sum(r["unchanged_mismatches"] for r in self.rounds)

    @property
    def edited_all_differ(self) -> bool:
        return all(r["edited_differs"] for r in self.rounds)


def warmup(roots: dict[str, Path], chapters: int, checks: Checks) -> None:
    """One untimed, unquiet build per variant: warms the OS cache, collects warnings, sanity."""
    sites = OUT / "sites"
    for variant, root in roots.items():
        if variant == "plugin":
            shutil.rmtree(root / CACHE_DIR, ignore_errors=True)
        site = sites / f"warmup-{variant}"
        result = build(root, site, quiet=False)
        checks.warnings[variant] = interesting(result.stderr)
        html = page(site, 1).decode("utf-8")
        checks.sanity[variant] = {
            "mermaid_pre": html.count('class="mermaid"'),
            "svg": html.count("<svg"),
            "table": html.count("<table"),
            "selfattn_error": html.count("selfattn-error"),
            "unreplaced_slot": html.count("SELFATTNSLOT"),
            "page_kib": round(len(html.encode()) / 1024, 1),
        }
        shutil.rmtree(site)


def run_round(
    r: int, order: tuple[str, ...], roots: dict[str, Path], chapters: int, checks: Checks
) -> tuple[dict[str, float], dict[str, float]]:
    sites = OUT / "sites"
    plugin = roots["plugin"]
    cache = plugin / CACHE_DIR
    times: dict[str, float] = {}
    cpu: dict[str, float] = {}
    info: dict[str, Any] = {"round": r + 1, "order": list(order)}
    extra: dict[str, list[str]] = {}
    for unit in order:
        if unit in ("plain", "mdexec"):
            result = build(roots[unit], sites / unit)
            times[unit] = result.seconds
            cpu[unit] = result.cpu
            extra[unit] = interesting(result.stderr)
            continue
        # cold: really from an empty cache
        shutil.rmtree(cache, ignore_errors=True)
        if cache.exists():
            raise SystemExit(f"bench: could not delete {cache}")
        content = tree_digest(plugin / "docs")
        cold = build(plugin, sites / "cold")
        after_cold = cache_snapshot(cache)
        if not after_cold:
            raise SystemExit("bench: the cold build wrote nothing to the cache folder")
        # warm: same content, right after a complete build
        if tree_digest(plugin / "docs") != content:
            raise SystemExit("bench: the docs tree changed between cold and warm builds")
        warm = build(plugin, sites / "warm")
        after_warm = cache_snapshot(cache)
        warm_new = sorted(set(after_warm) - set(after_cold))
        warm_rewritten = sorted(
            k for k in after_cold if k in after_warm and after_warm[k] != after_cold[k]
        )
        # one CSV edited, with a value this chapter never had
        edited = (r * 37 + 11) % chapters + 1
        csv_path = plugin / "docs" / chapter_dir(edited) / CSV_NAME
        data = csv_path.read_bytes()
        new_value = f"{score_of(data, EDIT_ROW) + 0.017 * (r + 1):.3f}"
        csv_path.write_bytes(set_score(data, EDIT_ROW, new_value))
        edit = build(plugin, sites / "edit")
        after_edit = cache_snapshot(cache)
        times.update(cold=cold.seconds, warm=warm.seconds, edit=edit.seconds)
        cpu.update(cold=cold.cpu, warm=warm.cpu, edit=edit.cpu)
        for name, res in (("cold", cold), ("warm", warm), ("edit", edit)):
            extra[name] = interesting(res.stderr)
        # identical results where the data did not change
        mismatched: list[int] = []
        for i in range(1, chapters + 1):
            a, b, c = page(sites / "cold", i), page(sites / "warm", i), page(sites / "edit", i)
            if i == edited:
                if a != b:
                    mismatched.append(i)
                continue
            if not a == b == c:
                mismatched.append(i)
        edited_differs = page(sites / "warm", edited) != page(sites / "edit", edited)
        info.update(
            cache_entries_cold=len(after_cold),
            cache_entries_warm_new=len(warm_new),
            cache_entries_warm_rewritten=len(warm_rewritten),
            cache_entries_edit_new=len(set(after_edit) - set(after_warm)),
            edited_chapter=edited,
            edited_value=new_value,
            unchanged_mismatches=len(mismatched),
            mismatched_chapters=mismatched[:20],
            edited_differs=edited_differs,
            other_files_cold_vs_warm=other_differences(sites / "cold", sites / "warm", chapters),
        )
    info["times"] = {k: round(v, 4) for k, v in times.items()}
    info["cpu"] = {k: round(v, 4) for k, v in cpu.items()}
    info["log_lines"] = {k: v for k, v in extra.items() if v}
    checks.rounds.append(info)
    return times, cpu


def orders(runs: int) -> list[tuple[str, ...]]:
    perms = list(itertools.permutations(("plain", "chain", "mdexec")))
    random.Random(20240613).shuffle(perms)
    return [perms[r % len(perms)] for r in range(runs)]


# ---------------------------------------------------------------------------------------------
# Report


def summarise(samples: dict[str, list[float]], chapters: int) -> dict[str, Any]:
    med = {k: statistics.median(v) for k, v in samples.items()}
    plain = med["plain"]

    def per_chapter(k: str) -> float:
        return (med[k] - plain) / chapters * 1000

    def ratios_of(t: dict[str, float]) -> dict[str, float]:
        spread = t["mdexec"] - t["plain"]
        return {
            "cold_overhead_vs_mdexec_overhead": (t["cold"] - t["plain"]) / spread
            if spread
            else float("nan"),
            "warm_over_plain": t["warm"] / t["plain"],
            "edit_over_plain": t["edit"] / t["plain"],
        }

    ratios = ratios_of(med)
    rounds = [
        ratios_of({k: v[r] for k, v in samples.items()}) for r in range(len(samples["plain"]))
    ]
    per_round = {k: [x[k] for x in rounds] for k in ratios}
    return {
        "median_s": med,
        "min_s": {k: min(v) for k, v in samples.items()},
        "max_s": {k: max(v) for k, v in samples.items()},
        "per_chapter_overhead_ms": {k: per_chapter(k) for k in CASES if k != "plain"},
        "ratios": ratios,
        "ratios_per_round": per_round,
        "ratios_per_round_median": {k: statistics.median(v) for k, v in per_round.items()},
        "targets": {
            "cold_overhead_vs_mdexec_overhead": 0.5,
            "warm_over_plain": 1.05,
            "edit_over_plain": 1.10,
        },
    }


def print_report(summary: dict[str, Any], checks: Checks, chapters: int, runs: int) -> None:
    med, lo, hi = summary["median_s"], summary["min_s"], summary["max_s"]
    per = summary["per_chapter_overhead_ms"]
    print()
    print(f"mkdocs build, {chapters} chapters, {runs} rounds (wall time of the whole process)")
    print()
    head = (
        f"{'case':<26} {'median s':>9} {'min s':>8} {'max s':>8} {'vs plain':>9} {'ms/chapter':>11}"
    )
    print(head)
    print("-" * len(head))
    for k in CASES:
        ratio = med[k] / med["plain"]
        extra = f"{per[k]:>+11.1f}" if k in per else f"{'':>11}"
        print(f"{LABELS[k]:<26} {med[k]:>9.3f} {lo[k]:>8.3f} {hi[k]:>8.3f} {ratio:>9.3f} {extra}")
    print()
    r, t = summary["ratios"], summary["targets"]
    pr = summary["ratios_per_round_median"]
    print(f"{'ratio':<36} {'medians':>7}   {'target':<10} {'':<6} {'per-round median':>16}")
    rows = (
        ("(cold - plain) / (mdexec - plain)", "cold_overhead_vs_mdexec_overhead"),
        ("warm / plain", "warm_over_plain"),
        ("one-edit / plain", "edit_over_plain"),
    )
    for label, key in rows:
        verdict = "ok" if r[key] <= t[key] else "MISSED"
        print(f"{label:<36} {r[key]:>7.3f}   <= {t[key]:<7} {verdict:<6} {pr[key]:>16.3f}")
    print()
    first = checks.rounds[0] if checks.rounds else {}
    print(
        "cache: cold wrote "
        f"{first.get('cache_entries_cold')} entries; warm wrote "
        f"{sum(x['cache_entries_warm_new'] for x in checks.rounds)} new / rewrote "
        f"{sum(x['cache_entries_warm_rewritten'] for x in checks.rounds)} (all rounds); "
        "one-edit wrote "
        + "/".join(str(x["cache_entries_edit_new"]) for x in checks.rounds)
        + " new (per round)"
    )
    unchanged = runs * (chapters - 1)
    print(
        f"identical pages: {checks.mismatches} mismatches among {unchanged} unchanged chapter "
        f"pages (cold vs warm vs one-edit, all rounds); edited chapter differs in every round: "
        f"{'yes' if checks.edited_all_differ else 'NO'}"
    )
    others = sorted({f for x in checks.rounds for f in x["other_files_cold_vs_warm"]})
    print(
        "other site files differing cold vs warm (sitemap.xml.gz excluded): "
        + (", ".join(others) if others else "none")
    )
    for variant, lines in checks.warnings.items():
        if lines:
            print(f"{len(lines)} log line(s) in the untimed, unquiet {variant} build, e.g.:")
            for line in lines[:3]:
                print(f"    {line[:200]}")
    timed = sorted({k for x in checks.rounds for k in x["log_lines"]})
    if timed:
        print("stderr in timed (-q) builds from: " + ", ".join(timed))
    print("page 1 sanity: " + json.dumps(checks.sanity, ensure_ascii=False))
    if LOADS:
        print(
            f"1-min load average before timed builds: min {min(LOADS):.2f}, "
            f"median {statistics.median(LOADS):.2f}, max {max(LOADS):.2f} "
            f"({os.cpu_count()} cpus)"
        )
    print("round orders: " + "; ".join(" ".join(x["order"]) for x in checks.rounds))


def print_cpu(summary: dict[str, Any]) -> None:
    """CPU seconds (process + waited-for children): less swayed by other load than wall time,
    but blind to parallelism (a chart worker on the other core adds CPU, not wall time)."""
    med, per, r = summary["median_s"], summary["per_chapter_overhead_ms"], summary["ratios"]
    print()
    print("CPU time (user + sys of the build and its children), medians:")
    for k in CASES:
        extra = f"{per[k]:>+9.1f} ms/chapter" if k in per else ""
        print(f"  {LABELS[k]:<26} {med[k]:>8.3f} s  {med[k] / med['plain']:>6.3f} x plain {extra}")
    print(
        f"  CPU ratios: (cold-plain)/(mdexec-plain) {r['cold_overhead_vs_mdexec_overhead']:.3f}, "
        f"warm/plain {r['warm_over_plain']:.3f}, one-edit/plain {r['edit_over_plain']:.3f}"
    )


def byte_compile_package() -> None:
    """Compile the plugin's modules to bytecode, as pip does when it installs the wheel.

    MkDocs, mkdocs-material and markdown-exec come from site-packages with their bytecode. This
    checkout is an editable install, and where PYTHONDONTWRITEBYTECODE is set (as on the CI
    machines) Python would compile every plugin module from source in every timed build, about
    40 ms a build that no installed copy pays.
    """
    import compileall

    compileall.compile_dir(str(ROOT / "mkdocs_selfattn"), quiet=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chapters", type=int, default=100, help="chapters per course (100)")
    parser.add_argument("--runs", type=int, default=5, help="rounds (5)")
    parser.add_argument("--quick", action="store_true", help="smoke test: 10 chapters, 2 rounds")
    parser.add_argument("--json", type=Path, help="also write the numbers to this file")
    args = parser.parse_args(argv)
    chapters, runs = (10, 2) if args.quick else (args.chapters, args.runs)
    if chapters < 2 or runs < 1:
        parser.error("need at least 2 chapters and 1 round")

    started = time.perf_counter()
    byte_compile_package()
    roots = generate(chapters)
    checks = Checks()
    print(f"generated {chapters} chapters x {len(VARIANTS)} variants under {OUT}", flush=True)
    try:
        warmup(roots, chapters, checks)
    except BuildFailedError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    samples: dict[str, list[float]] = {k: [] for k in CASES}
    cpu_samples: dict[str, list[float]] = {k: [] for k in CASES}
    failed = None
    for r, order in enumerate(orders(runs)):
        try:
            times, cpu = run_round(r, order, roots, chapters, checks)
        except BuildFailedError as exc:
            failed = str(exc)
            print(f"round {r + 1}/{runs}: bench: {failed}", file=sys.stderr, flush=True)
            break
        for k, v in times.items():
            samples[k].append(v)
            cpu_samples[k].append(cpu[k])
        shown = "  ".join(f"{k} {times[k]:.2f}s" for k in CASES)
        print(f"round {r + 1}/{runs}: {shown}", flush=True)
    if not samples["plain"]:
        return 2
    if failed:
        runs = len(samples["plain"])
        print(f"bench: a build failed; reporting the {runs} completed round(s)", file=sys.stderr)
    summary = summarise(samples, chapters)
    cpu_summary = summarise(cpu_samples, chapters)
    print_report(summary, checks, chapters, runs)
    print_cpu(cpu_summary)
    print(f"\ntotal bench time {time.perf_counter() - started:.0f}s")

    if args.json:
        payload = {
            "chapters": chapters,
            "runs": runs,
            "samples_s": samples,
            **summary,
            "cpu": {"samples_s": cpu_samples, **cpu_summary},
            "checks": {
                "unchanged_mismatches": checks.mismatches,
                "edited_all_differ": checks.edited_all_differ,
                "rounds": checks.rounds,
                "warnings": checks.warnings,
                "sanity": checks.sanity,
            },
            "environment": {
                "python": platform.python_version(),
                "platform": platform.platform(),
                "cpus": os.cpu_count(),
                "load_average_before_builds": LOADS,
            },
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")
        print(f"wrote {args.json}")
    return 0 if not failed and checks.mismatches == 0 and checks.edited_all_differ else 1


if __name__ == "__main__":
    raise SystemExit(main())
