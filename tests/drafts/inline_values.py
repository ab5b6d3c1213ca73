"""The drafts' inline values, evaluated with tests/reference_layouts.py: a stand-in for the engine's
quantities (see README.md) so every placeholder is known to name a real question, line, scenario,
head, token, axis or group, and the prose can be proofread with the numbers in place."""

from __future__ import annotations

import csv
import re
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from reference_layouts import head_layout, question_layout  # noqa: E402

INLINE = re.compile(r"`\{selfattn\} ([^`]+)`")
Quantity = Callable[[list[str]], Any]


def defining_blocks(text: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for body in re.findall(r"^```selfattn\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        block = yaml.safe_load(body)
        if "id" in block:
            found[block["id"]] = block
    return found


def read(csv_url: str) -> list[dict[str, str]]:
    path = ROOT / "docs" / csv_url.lstrip("/")
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def pick(name: str, choices: Mapping[str, Any], labels: Mapping[str, str], what: str) -> Any:
    """A question, head, token … named by its key, its column value or its display label."""
    for key, value in choices.items():
        if name in (key, value if isinstance(value, str) else None, labels.get(key)):
            return key
    raise KeyError(f"no {what} {name!r} (have {list(choices)})")


def question_quantities(block: Mapping[str, Any]) -> dict[str, Quantity]:
    rows = read(block["csv"])
    temperature = float(block.get("temperature", 1))
    queries: dict[str, str] = block["queries"]
    if temperature != 1:
        rows = [
            {**row, **{c: repr(float(row[c]) / temperature) for c in queries.values()}}
            for row in rows
        ]
    results = question_layout(rows, queries, block["vectors"][0], block.get("top", 3))
    labels = block.get("display", {})
    line = block["columns"]["candidate"]
    index = {row[line]: i for i, row in enumerate(rows)}
    groups: dict[str, list[str]] = block.get("groups", {})

    def q(name: str) -> dict[str, Any]:
        found: dict[str, Any] = results["questions"][pick(name, queries, labels, "question")]
        return found

    def at(name: str) -> int:
        return index[name] if name in index else index[pick(name, index, {}, "line")]

    def group(a: list[str]) -> float:
        weights = q(a[0])["weights"]
        return sum(weights[at(member)] for member in groups[a[1]])

    return {
        "csv_rows": lambda a: len(rows),
        "baseline": lambda a: results["baseline"],
        "baseline_weight": lambda a: 1 / len(rows),
        "context": lambda a: q(a[0])["context"],
        "shift": lambda a: q(a[0])["shift"],
        "weight": lambda a: q(a[0])["weights"][at(a[1])],
        "score": lambda a: float(rows[at(a[1])][q(a[0])["score_column"]]),
        "top": lambda a: rows[q(a[0])["top"][int(a[1]) - 1 if len(a) > 1 else 0]][line],
        "group": group,
        "group_size": lambda a: len(groups[a[0]]),
    }


def head_quantities(block: Mapping[str, Any]) -> dict[str, Quantity]:
    rows = read(block["csv"])
    columns = block["columns"]
    focus = [row for row in rows if row[columns["document"]] == block["document"]]
    results = head_layout(focus, block["heads"], block["axes"], columns["group"])
    labels = block.get("display", {})
    axes = list(block["axes"])

    def g(name: str) -> dict[str, Any]:
        found: dict[str, Any] = results["groups"][pick(name, results["groups"], labels, "group")]
        return found

    def head(name: str) -> str:
        found: str = pick(name, block["heads"], labels, "head")
        return found

    def token(group: dict[str, Any], name: str) -> int:
        tokens = {row[columns["candidate"]]: i for i, row in enumerate(group["rows"])}
        return tokens[pick(name, tokens, labels, "token")]

    def axis(values: Sequence[float], a: list[str], at: int) -> Any:
        return values[axes.index(a[at])] if len(a) > at else values

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


def shown(value: Any, spec: str | None) -> str:
    if isinstance(value, list):
        return str([round(v, 3) for v in value])
    if isinstance(value, str):
        return value
    return format(value, spec) if spec else str(round(value, 3))


def evaluate(page: Path) -> list[tuple[int, str]]:
    """Each prose line holding inline values, with the values filled in; KeyError on a bad one."""
    text = page.read_text(encoding="utf-8")
    examples: dict[str, dict[str, Quantity]] = {}
    for name, block in defining_blocks(text).items():
        layout = question_quantities if "queries" in block else head_quantities
        examples[name] = layout(block)

    def fill(match: re.Match[str]) -> str:
        words = shlex.split(match.group(1))
        spec = words.pop()[1:] if words[-1].startswith(":") else None
        example, quantity, args = words[0], words[1], words[2:]
        try:
            return shown(examples[example][quantity](args), spec)
        except (KeyError, IndexError, ValueError) as error:
            raise KeyError(f"{page.name}: `{match.group(0)}`: {error}") from None

    return [
        (n, INLINE.sub(fill, line))
        for n, line in enumerate(text.splitlines(), start=1)
        if INLINE.search(line) and not line.lstrip().startswith("|")
    ]
