"""The demo chapters P5-13.1 and P5-13.3 in their three languages: where their sources and pages
are, what their scripts print, what each inline value of their prose should show (from the
plain-Python reference, tests/reference_layouts.py) and what the built page shows in its place.

Shared by tests/plugin/test_course_chapters.py (the built HTML) and
tests/browser/test_browser_chapters.py (what Chromium renders).
"""

from __future__ import annotations

import ast
import csv
import functools
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from html_tree import Node, parse_html
from reference_layouts import head_layout, question_layout

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ASSETS = DOCS / "assets/part-05/chapter-13"
LANGUAGES = ("zh", "ko", "en")  # zh is the default language, served at /
CHAPTERS = {  # page stem -> (shared examples file, example that has the script)
    "p5-13-1-attention": ("p5-13-1-examples.yml", "manual"),
    "p5-13-3-qkv-multihead": ("p5-13-3-examples.yml", "heads"),
}
SECTION_IDS = {"p5-13-1-attention": "P5-13.1", "p5-13-3-qkv-multihead": "P5-13.3"}


def source(stem: str, language: str) -> Path:
    suffix = "" if language == "zh" else f".{language}"
    return DOCS / f"course/part-05/chapter-13/{stem}{suffix}.md"


def url(stem: str, language: str) -> str:
    return ("" if language == "zh" else f"{language}/") + f"course/part-05/chapter-13/{stem}/"


def definition(stem: str, example: str, language: str) -> dict[str, Any]:
    """A shared example as the page in ``language`` sees it (display labels of that language)."""
    shared = yaml.safe_load((ASSETS / CHAPTERS[stem][0]).read_text(encoding="utf-8"))
    found = dict(shared[example])
    found["display"] = (found.get("display") or {}).get(language) or {}
    return found


def script(stem: str, language: str) -> Path:
    """The script a page in ``language`` runs: ``name.LANG.py`` when it exists."""
    default = DOCS / str(definition(stem, CHAPTERS[stem][1], language)["script"]).lstrip("/")
    localised = default.with_suffix(f".{language}.py")
    return localised if localised.is_file() else default


def run_script(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, str(path)],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        check=False,
        env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    return done.stdout.decode("utf-8")


# -- the scripts' printouts, read back ----------------------------------------------------------


def parse_questions(printout: str) -> dict[str, dict[str, Any]]:
    """question -> {context, shift, baseline, csv_rows, top: [(line, weight)]}."""
    found: dict[str, dict[str, Any]] = {}
    for block in printout.strip("\n").split("\n\n"):
        lines = block.split("\n")
        head = dict(line.split(" = ", 1) for line in lines[:5])
        top = [re.fullmatch(r"(\S+) \S+ weight = (\S+) signal = \S+", line) for line in lines[5:]]
        assert all(top), block
        found[head["question"]] = {
            "csv_rows": int(head["csv_rows"]),
            "baseline": float(head["baseline_uniform_context"]),
            "context": float(head["context"]),
            "shift": float(head["shift_from_baseline"]),
            "top": [(m[1], float(m[2])) for m in top if m],
        }
    return found


def parse_heads(printout: str) -> dict[str, Any]:
    """{csv_rows, focus_report_rows, axes, groups: {scenario: {contexts, difference, …}}}."""
    header, *blocks = printout.strip("\n").split("\n\n")
    head = dict(line.split(" = ", 1) for line in header.split("\n"))
    groups: dict[str, dict[str, Any]] = {}
    for block in blocks:
        name, *lines = block.split("\n")
        values = {k.strip(): ast.literal_eval(v) for k, v in (line.split("=", 1) for line in lines)}
        groups[name.strip("[]")] = {
            "tokens": values["tokens"],
            "contexts": {
                k.removesuffix("_context"): v for k, v in values.items() if k.endswith("_context")
            },
            "difference": values["difference_from_single"],
            "separation": values["head_separation"],
        }
    return {
        "csv_rows": int(head["csv_rows"]),
        "focus_report_rows": int(head["focus_report_rows"]),
        "axes": ast.literal_eval(head["context_axes"]),
        "groups": groups,
    }


# -- inline values of the page's markdown ---------------------------------------------------------

_VALUE = r"\[[^\]]*\]|-?\d+(?:\.\d+)?(?:e[-+]?\d+)?%?|[^，。；：、,;:()（）\[\]\s\"“”]+"
"""What an inline value shows: a vector, a number, or a label (whitespace removed)."""
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_INLINE = re.compile(r"(?<![`\\])`\{selfattn\} ([^`]*)`(?!`)")


@dataclass
class Inline:
    raw: str
    example: str
    quantity: str
    args: list[str]
    spec: str | None
    prefix: str  # the page text just before it, whitespace removed
    suffix: str  # the page text just after it, whitespace removed
    after_value: bool  # the prefix is all that stands between the previous value and this one


def _plain(markdown: str) -> str:
    """Roughly the text a paragraph's markdown shows, whitespace removed."""
    text = re.sub(r"^\s*(?:[-*+]|\d+\.|>)\s+", "", markdown, flags=re.M)
    text = text.replace("**", "").replace("*", "").replace("`", "").replace("\\", "")
    return re.sub(r"\s+", "", text)


def inline_values(markdown: str) -> list[Inline]:
    """Every inline value of the prose, in order, with the text that surrounds it."""
    paragraphs: list[list[str]] = [[]]
    fenced = None
    for line in markdown.split("\n"):
        fence = _FENCE.match(line)
        if fenced is None and fence:
            fenced = fence[1]
            paragraphs.append([])
        elif fenced is not None:
            if line.strip().startswith(fenced) and not line.strip().strip(fenced[0]):
                fenced = None
        elif line.strip():
            paragraphs[-1].append(line)
        else:
            paragraphs.append([])
    found: list[Inline] = []
    for lines in paragraphs:
        text = "\n".join(lines)
        spans = list(_INLINE.finditer(text))
        for n, span in enumerate(spans):
            before = text[spans[n - 1].end() if n else 0 : span.start()]
            after = text[span.end() : spans[n + 1].start() if n + 1 < len(spans) else None]
            words = shlex.split(span[1])
            spec = words.pop()[1:] if words[-1].startswith(":") else None
            joined = n > 0 and len(_plain(before)) < 8
            prefix = _plain(before) if joined else _plain(before)[-8:]
            found.append(
                Inline(
                    span[0], words[0], words[1], words[2:], spec, prefix, _plain(after)[:3], joined
                )
            )
    return found


# -- what the built page shows --------------------------------------------------------------------


def article(html: str) -> Node:
    return parse_html(html).find("article")


def prose_text(node: Node) -> str:
    """The article's text without figures (SVG), scripts and mermaid sources."""
    parts: list[str] = []
    for child in node.children:
        if isinstance(child, str):
            parts.append(child)
        elif child.tag not in ("svg", "script", "style") and "mermaid" not in child.classes:
            parts.append(prose_text(child))
    return "".join(parts)


def shown_values(values: Sequence[Inline], text: str) -> list[str]:
    """Walk the page text in order and read what stands where each inline value was written."""
    flat = re.sub(r"\s+", "", text)
    position = 0
    shown: list[str] = []
    for item in values:
        assert item.after_value or len(item.prefix) >= 2, f"{item.raw}: no text to find it by"
        pattern = re.compile(re.escape(item.prefix) + f"({_VALUE})" + re.escape(item.suffix))
        if item.after_value:  # right after the previous value: anchored there
            match = pattern.match(flat, position)
        else:
            match = pattern.search(flat, position)
        assert match is not None, (
            f"{item.raw}: no '{item.prefix}…{item.suffix}' after position {position}: "
            f"{flat[position : position + 160]!r}"
        )
        shown.append(match[1])
        position = match.end(1)
    return shown


# -- what each inline value should show: the reference ---------------------------------------------

Quantity = Callable[[list[str]], Any]


def _rows(example: Mapping[str, Any]) -> list[dict[str, str]]:
    with (ASSETS / str(example["csv"])).open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def _pick(name: str, choices: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    """A question, head, token … named by its key, its column or its display label."""
    for key, value in choices.items():
        if name in (key, value if isinstance(value, str) else None, labels.get(key)):
            return str(key)
    raise KeyError(f"no {name!r} among {list(choices)}")


def question_quantities(example: Mapping[str, Any]) -> dict[str, Quantity]:
    rows = _rows(example)
    temperature = float(example.get("temperature", 1))
    queries: dict[str, str] = example["queries"]
    scaled = [
        {**row, **{c: repr(float(row[c]) / temperature) for c in queries.values()}} for row in rows
    ]
    results = question_layout(scaled, queries, example["vectors"][0], 3)
    labels = example["display"]
    line = example["columns"]["candidate"]
    index = {row[line]: i for i, row in enumerate(rows)}
    groups: dict[str, list[str]] = example.get("groups", {})

    def q(name: str) -> dict[str, Any]:
        found: dict[str, Any] = results["questions"][_pick(name, queries, labels)]
        return found

    def group(a: list[str]) -> float:
        return sum(q(a[0])["weights"][index[member]] for member in groups[a[1]])

    return {
        "csv_rows": lambda a: len(rows),
        "baseline": lambda a: results["baseline"],
        "baseline_weight": lambda a: 1 / len(rows),
        "context": lambda a: q(a[0])["context"],
        "shift": lambda a: q(a[0])["shift"],
        "weight": lambda a: q(a[0])["weights"][index[a[1]]],
        "score": lambda a: float(rows[index[a[1]]][q(a[0])["score_column"]]),
        "top": lambda a: rows[q(a[0])["top"][int(a[1]) - 1 if len(a) > 1 else 0]][line],
        "group": group,
        "group_size": lambda a: len(groups[a[0]]),
    }


def head_quantities(example: Mapping[str, Any]) -> dict[str, Quantity]:
    rows = _rows(example)
    columns = example["columns"]
    focus = [row for row in rows if row[columns["document"]] == example["document"]]
    results = head_layout(focus, example["heads"], example["axes"], columns["group"])
    labels = example["display"]
    axes = list(example["axes"])

    def g(name: str) -> dict[str, Any]:
        found: dict[str, Any] = results["groups"][_pick(name, results["groups"], labels)]
        return found

    def token(group: dict[str, Any], name: str) -> int:
        tokens = {row[columns["candidate"]]: i for i, row in enumerate(group["rows"])}
        return tokens[_pick(name, tokens, labels)]

    def axis(values: Sequence[float], a: list[str], at: int) -> Any:
        return values[axes.index(a[at])] if len(a) > at else list(values)

    def head(name: str) -> str:
        return _pick(name, example["heads"], labels)

    def top(a: list[str]) -> str:
        group = g(a[0])
        weights = group["weights"][head(a[1])]
        best = sorted(range(len(weights)), key=lambda i: weights[i], reverse=True)[0]
        name = group["rows"][best][columns["candidate"]]
        return str(labels.get(name, name))

    def separation(a: list[str]) -> float:
        pairs = g(a[0])["separations"]
        key = (head(a[1]), head(a[2]))
        found: float = pairs[key] if key in pairs else pairs[key[::-1]]
        return found

    return {
        "csv_rows": lambda a: len(rows),
        "document_rows": lambda a: len(focus),
        "vector": lambda a: axis(g(a[0])["vectors"][token(g(a[0]), a[1])], a, 2),
        "weight": lambda a: g(a[0])["weights"][head(a[1])][token(g(a[0]), a[2])],
        "top": top,
        "context": lambda a: axis(g(a[0])["contexts"][head(a[1])], a, 2),
        "difference": lambda a: axis(g(a[0])["differences"][head(a[1])], a, 2),
        "separation": separation,
    }


@functools.cache
def quantities(stem: str, example: str, language: str) -> dict[str, Quantity]:
    found = definition(stem, example, language)
    return question_quantities(found) if "queries" in found else head_quantities(found)


def as_shown(value: Any, spec: str | None) -> str:
    """A value as an inline value prints it (round(x, 3) as Python prints it, or the spec)."""
    if isinstance(value, list):
        return str([round(v, 3) for v in value])
    if isinstance(value, str):
        return value
    return format(value, spec) if spec else str(round(value, 3))


def expected(stem: str, language: str, item: Inline) -> str:
    value = quantities(stem, item.example, language)[item.quantity](item.args)
    return re.sub(r"\s+", "", as_shown(value, item.spec))
