"""The generated course of the build benchmark: N chapters in three variants.

Every chapter has prose, a hand-written mermaid flowchart and its own copy of the course CSV. The
copies differ in one score (chapter i adds i/1000 to one row), so that no two chapters have the same
content: a content-addressed cache cannot turn N computations into one, and a cold build really
computes N examples. The variants differ only in how the chapter's example is written:

* plain:   the example block is an inert ```yaml fence; plugins: [search]
* plugin:  the example is a ```selfattn block (output, table, mermaid, chart);
           plugins: [search, selfattn] with cache_dir: .selfattn-cache
* mdexec:  two markdown-exec blocks (```python exec="true"): one reads the CSV with the csv module
           and prints the softmax tables, one draws the grouped bar chart with matplotlib (the same
           DejaVu Sans + Noto Sans CJK fonts) and prints the SVG; plugins: [search, markdown-exec]
"""

from __future__ import annotations

import shutil
from pathlib import Path

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


def generate(chapters: int, out: Path) -> dict[str, Path]:
    if out.exists():
        shutil.rmtree(out)
    base = COURSE_CSV.read_bytes()
    start = score_of(base, VARY_ROW)
    roots: dict[str, Path] = {}
    for variant in VARIANTS:
        root = out / variant
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
