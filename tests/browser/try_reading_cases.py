"""The questions and heads layouts' try-view examples, and the core's numbers for any edit of them.

The core here is the plugin's own pipeline, run in the test process on the edited CSV: the block
is parsed as the build parses it and the CSV computed as the build computes it, so a page that
agrees with these numbers agrees with the build.
"""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path
from typing import Any

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.spec import parse_block
from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.example import Example, ResolvedFile
from mkdocs_selfattn.build.pipeline import Pipeline
from mkdocs_selfattn.build.settings import Settings
from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.errors import SelfAttnError
from mkdocs_selfattn.render.labels import format_value, py_round

CHAPTER = Path(__file__).resolve().parents[2] / "docs/assets/part-05/chapter-13"
MANUAL_CSV = CHAPTER / "attention-operating-manual-candidates.csv"
HEADS_CSV = CHAPTER / "qkv-multihead-report-scenarios.csv"

MANUAL_BLOCK = """\
```selfattn
id: ID
csv: CSV
columns: {candidate: line_id, role: section}
vectors: [evidence_signal]
queries:
  "What is the pressure-release holding time?": score_pressure_hold
  "What is the coolant-flow criterion?": score_flow_limit
  "What are the restart approval conditions?": score_restart_permission
display:
  "What is the pressure-release holding time?": 泄压后要保持多久？
  "What is the coolant-flow criterion?": 冷却水流量的标准是什么？
  "What are the restart approval conditions?": 重新启动需要满足哪些条件？
groups:
  pressure_lines: [L04, L05, L06, L07, L08, L09, L10, L11, L12]
  coolant_lines: [L13, L14, L15, L16, L17, L18, L19, L20]
top: 3
EXTRA
show: [try]
```
"""

HEADS_BLOCK = """\
```selfattn
id: ID
csv: CSV
columns: {document: report_id, group: scenario, candidate: token, role: relation_role}
document: ops_pressure_return
heads: {single_head: single_weight, head1: head1_weight, head2: head2_weight}
axes:
  decision_axis: [decision_axis]
  evidence_condition_axis: [evidence_axis, condition_axis]
display:
  정지결정: 停机决定
  압력이상: 压力异常
  복귀조건: 恢复条件
  balanced_heads: 两个 head 均衡
  head1: head 1
EXTRA
show: [try]
```
"""

SPLIT_BLOCK = """\
```selfattn
id: ID
csv: CSV
columns: {candidate: line_id, group: section}
vectors: [evidence_signal]
queries: {pressure: score_pressure_hold, restart: score_restart_permission}
groups: {early: [L01, L02, L03, L04, L05]}
number_format: '.1%'
top: 2
show: [try]
```
"""

BIG_BLOCK = """\
```selfattn
id: ID
csv: CSV
columns: {candidate: line_id, role: section}
vectors: [evidence_signal]
queries: {first: score_a, second: score_b}
top: 3
show: [try]
```
"""


def big_manual(n: int, seed: int = 200) -> bytes:
    """A questions file with ``n`` lines and two score columns."""
    rng = random.Random(seed)
    out = ["line_id,section,text,evidence_signal,score_a,score_b"]
    for k in range(n):
        out.append(
            f'L{k:05d},s{k % 9},"line {k}, as written",{round(rng.uniform(0, 12), 1)},'
            f"{round(rng.uniform(-3, 3), 2)},{round(rng.uniform(-3, 3), 1)}"
        )
    return ("\n".join(out) + "\n").encode()


class _Resolver:
    def __init__(self, docs: Path) -> None:
        self.project_root = docs.parent
        self.docs = docs

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        return ResolvedFile(path=self.docs / raw.lstrip("/"), display=raw, link=raw)


class Case:
    """One block of the test site, and the core's numbers for any version of its CSV.

    A page number is keyed ``QUANTITY/SECTION/HEAD/INDEX`` as the view's data attributes name
    it; an edit ``(section, head, line) -> text`` is what a reader typed into that box.
    """

    def __init__(self, name: str, block: str, csv_name: str, csv_bytes: bytes, work: Path):
        self.name = name
        self.block = block.replace("ID", name).replace("CSV", csv_name)
        self.csv_name = csv_name
        self.csv_bytes = csv_bytes
        self.docs = work / name / "docs"
        self.docs.mkdir(parents=True)
        text = csv_bytes.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text, newline="")))
        self.header, self.rows = rows[0], rows[1:]
        first = self.example(csv_bytes, None)
        assert isinstance(first.result, ReadingResult)
        self.layout = first.result.layout
        self.cell: dict[tuple[int, int, int], tuple[int, int]] = {}
        for s, group, heads in self.sections(first.result):
            for h, head in enumerate(heads):
                for i, line in enumerate(group.lines):
                    self.cell[(s, h, i)] = (line.row, self.header.index(head.column))

    def markdown(self, extra: str = "") -> str:
        return self.block.replace("EXTRA\n", extra)

    def example(self, csv_bytes: bytes, temperature: float | None, extra: str = "") -> Example:
        path = self.docs / self.csv_name.lstrip("/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(csv_bytes)
        if temperature is not None and temperature != 1.0:
            extra += f"temperature: {temperature!r}\n"
        [raw] = find_blocks(self.markdown(extra))
        spec = parse_block(raw)
        assert spec.example is not None
        pipeline = Pipeline(Settings(), Cache(None))
        return pipeline.load(spec.example, _Resolver(self.docs))

    def sections(self, result: ReadingResult) -> list[tuple[int, Any, list[Any]]]:
        """The view's sections: a question (per group) each, or a scenario each."""
        if result.layout == "heads":
            return [(s, g, list(g.heads)) for s, g in enumerate(result.groups)]
        found = []
        for group in result.groups:
            for head in group.heads:
                found.append((len(found), group, [head]))
        return found

    def edited(self, edits: dict[tuple[int, int, int], str]) -> bytes:
        rows = [list(r) for r in self.rows]
        for key, value in edits.items():
            row, col = self.cell[key]
            rows[row][col] = value
        out = io.StringIO(newline="")
        csv.writer(out, lineterminator="\n").writerows([self.header, *rows])
        return out.getvalue().encode()

    def core(
        self, edits: dict[tuple[int, int, int], str], t: float | None, extra: str = ""
    ) -> tuple[Example | None, str | None]:
        """The build's example for the edited file, or the build's refusal."""
        try:
            return self.example(self.edited(edits), t, extra), None
        except SelfAttnError as exc:
            return None, str(exc)

    @property
    def fmt(self) -> str | None:
        """The block's number_format, which the page's weights follow."""
        found = [line for line in self.block.splitlines() if line.startswith("number_format:")]
        return found[0].split(":", 1)[1].strip().strip("'") if found else None

    @property
    def top(self) -> int:
        found = [line for line in self.block.splitlines() if line.startswith("top:")]
        return int(found[0].split(":", 1)[1]) if found else 3

    def expected(self, example: Example | None, fmt: str | None, words: dict[str, str]) -> Any:
        """Every number the view shows, as text, for the build's example (None: refused)."""
        first = self.example(self.csv_bytes, None) if example is None else example
        result = first.result
        assert isinstance(result, ReadingResult)
        labels = first.labels
        out: dict[str, str] = {}
        for s, group, heads in self.sections(result):
            if self.layout == "heads":
                for i, line in enumerate(group.lines):
                    for a, v in enumerate(line.vector):
                        out[f"vector/{s}/0/{i}/{a}"] = py_round(v)
            parts = []
            for h, head in enumerate(heads):
                for a in range(len(head.context)):
                    out[f"context/{s}/{h}/{a}"] = py_round(head.context[a])
                    if self.layout == "heads" and h > 0:
                        out[f"difference/{s}/{h}/{a}"] = py_round(head.difference[a])
                    if self.layout == "questions":
                        out[f"shift/{s}/{h}/{a}"] = py_round(head.shift[a])
                        out[f"baseline/{s}/0/{a}"] = py_round(group.baseline[a])
                        out[f"ocontext/{s}/0/{a}"] = py_round(head.context[a])
                        out[f"oshift/{s}/0/{a}"] = py_round(head.shift[a])
                if self.layout == "questions":
                    for i, w in enumerate(head.weights):
                        out[f"weight/{s}/{h}/{i}"] = format_value(w, fmt)
                k = 1 if self.layout == "heads" else self.top
                who = f" ({labels(head.name)})" if len(heads) > 1 else ""
                tops = ", ".join(labels(group.lines[i].token) for i in head.top(k))
                parts.append(f"{words['top']}{who}: {tops}")
                for x in range(h + 1, len(heads)):
                    out[f"separation/{s}/{h}/{x}"] = py_round(group.separations[h][x])
            for head in heads:
                who = f" ({labels(head.name)})" if len(heads) > 1 else ""
                for name, weight in head.groups:
                    parts.append(f"{labels(name)}{who}: {format_value(weight, fmt)}")
            out[f"summary/{s}"] = " · " + " · ".join(parts)
        if example is None:  # refused: the inputs and their sums stay, every output is a dash
            dash = {k: " · —" if k.startswith("summary/") else "—" for k in out}
            return {k: v if k.startswith("vector/") else dash[k] for k, v in out.items()}
        return out

    def full_precision(self, example: Example) -> dict[str, float]:
        result = example.result
        assert isinstance(result, ReadingResult)
        out: dict[str, float] = {}
        for s, group, heads in self.sections(result):
            for h, head in enumerate(heads):
                for a, v in enumerate(head.context):
                    out[f"context/{s}/{h}/{a}"] = v
                    if self.layout == "questions":
                        out[f"shift/{s}/{h}/{a}"] = head.shift[a]
                        out[f"ocontext/{s}/0/{a}"] = v
                        out[f"oshift/{s}/0/{a}"] = head.shift[a]
                    elif h > 0:
                        out[f"difference/{s}/{h}/{a}"] = head.difference[a]
                if self.layout == "questions":
                    for i, w in enumerate(head.weights):
                        out[f"weight/{s}/{h}/{i}"] = w
                for x in range(h + 1, len(heads)):
                    out[f"separation/{s}/{h}/{x}"] = group.separations[h][x]
        return out

    def sums(self, edits: dict[tuple[int, int, int], str]) -> dict[str, float]:
        """Each head's given weights summed left to right, as the core checks them."""
        out: dict[str, float] = {}
        if self.layout != "heads":
            return out
        for (s, h, i), (row, col) in sorted(self.cell.items()):
            value = float(edits.get((s, h, i), self.rows[row][col]))
            key = f"sum/{s}/{h}/0"
            out[key] = out.get(key, 0) + value
        return out


ASSETS = "assets/part-05/chapter-13/"

YML = """\
site_name: try readings
site_url: http://127.0.0.1:PORT/
theme:
  name: material
  language: zh
  font: false
  features: [navigation.instant]
  palette:
    - scheme: default
      toggle: {icon: material/weather-night, name: dark}
    - scheme: slate
      toggle: {icon: material/weather-sunny, name: light}
plugins:
  - selfattn:
      cache_dir: ""
nav: [manual.md, heads.md, norm.md, split.md, other.md, big200.md, big3000.md]
"""

EXTRA = {
    "heads": "text: {sum: 总和, reset: 重来}\n",
    "norm": "normalise: true\ngroups: {decision: [정지결정], rest: [압력이상, 복귀조건]}\n",
}
"""Block keys a page adds to its case's block."""


def all_cases(work: Path) -> dict[str, Case]:
    """Every example of the test site, by page name."""
    manual, heads = MANUAL_CSV.read_bytes(), HEADS_CSV.read_bytes()
    return {
        "manual": Case("manual", MANUAL_BLOCK, "/" + ASSETS + MANUAL_CSV.name, manual, work),
        "heads": Case("heads", HEADS_BLOCK, "/" + ASSETS + HEADS_CSV.name, heads, work),
        "norm": Case("norm", HEADS_BLOCK, "/" + ASSETS + HEADS_CSV.name, heads, work),
        "split": Case("split", SPLIT_BLOCK, "/" + ASSETS + MANUAL_CSV.name, manual, work),
        "big200": Case("big200", BIG_BLOCK, "big200.csv", big_manual(200), work),
        "big3000": Case("big3000", BIG_BLOCK, "big3000.csv", big_manual(3000), work),
    }


def write_project(project: Path, cases: dict[str, Case], port: int) -> Path:
    """The test site's sources: the course CSVs at their course path, one page per case."""
    docs = project / "docs"
    (docs / ASSETS).mkdir(parents=True)
    for path in (MANUAL_CSV, HEADS_CSV):
        (docs / ASSETS / path.name).write_bytes(path.read_bytes())
    for name in ("big200", "big3000"):
        (docs / f"{name}.csv").write_bytes(cases[name].csv_bytes)
    for name, case in cases.items():
        link = "\n[另一页](other.md)\n" if name == "manual" else ""
        (docs / f"{name}.md").write_text(
            f"# {name}\n\n" + case.markdown(EXTRA.get(name, "")) + link, encoding="utf-8"
        )
    (docs / "other.md").write_text("# 另一页\n\n[回到手册](manual.md)\n", encoding="utf-8")
    (project / "mkdocs.yml").write_text(YML.replace("PORT", str(port)), encoding="utf-8")
    return project
