"""Checks the drafts against tests/reference_layouts.py before the engine exists: each
`template:`, filled from the reference, must print exactly what its script prints (the double-entry
check the engine will make), and every inline value must name something that exists.

    python drafts/check_templates.py          (from the repository root; exits 1 on a problem)
    python drafts/check_templates.py --show   (also prints each prose line with its values filled)
"""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from reference_layouts import head_layout, question_layout  # noqa: E402

sys.path.insert(0, str(ROOT / "drafts"))
from inline_values import evaluate  # noqa: E402


def r3(value: Any) -> Any:
    """`round(x, 3)` as the scripts print it, also for lists."""
    if isinstance(value, list | tuple):
        return [r3(v) for v in value]
    return round(value, 3)


def environment() -> jinja2.Environment:
    """The template environment these drafts assume the engine uses."""
    env = jinja2.Environment(
        trim_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
    )
    env.filters["r3"] = r3
    return env


def first_block(page: Path) -> dict[str, Any]:
    text = page.read_text(encoding="utf-8")
    match = re.search(r"^```selfattn\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    assert match, f"{page}: no selfattn block"
    block: dict[str, Any] = yaml.safe_load(match.group(1))
    return block


def read(csv_url: str) -> list[dict[str, str]]:
    path = ROOT / "docs" / csv_url.lstrip("/")
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def question_variables(block: Mapping[str, Any]) -> dict[str, Any]:
    rows = read(block["csv"])
    value = block["vectors"][0]
    results = question_layout(rows, block["queries"], value, block.get("top", 3))
    queries = [
        {
            "label": label,
            "column": q["score_column"],
            "context": q["context"],
            "shift": q["shift"],
            "weights": q["weights"],
            "top": [{"cells": rows[i], "weight": q["weights"][i]} for i in q["top"]],
        }
        for label, q in results["questions"].items()
    ]
    return {"csv_rows": len(rows), "baseline": results["baseline"], "queries": queries}


def separation(group: Mapping[str, Any]) -> Callable[[str, str], float]:
    def between(a: str, b: str) -> float:
        found: float = group["separations"][a, b]
        return found

    return between


def head_variables(block: Mapping[str, Any]) -> dict[str, Any]:
    rows = read(block["csv"])
    columns = block["columns"]
    focus = [row for row in rows if row[columns["document"]] == block["document"]]
    results = head_layout(focus, block["heads"], block["axes"], columns["group"])
    groups: list[dict[str, Any]] = []
    for name, g in results["groups"].items():
        members: Sequence[Mapping[str, str]] = g["rows"]
        candidates = [
            {
                "token": row[columns["candidate"]],
                "cells": row,
                "vector": g["vectors"][i],
                "weights": {head: g["weights"][head][i] for head in block["heads"]},
            }
            for i, row in enumerate(members)
        ]
        groups.append(
            {
                "name": name,
                "candidates": candidates,
                "contexts": g["contexts"],
                "differences": g["differences"],
                "difference": [x for d in g["differences"].values() for x in d],
                "separation": separation(g),
            }
        )
    return {
        "csv_rows": len(rows),
        "document_rows": len(focus),
        "axes": list(block["axes"]),
        "heads": list(block["heads"]),
        "groups": groups,
    }


def script_output(block: Mapping[str, Any]) -> str:
    script = ROOT / "docs" / block["script"].lstrip("/")
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, check=True)
    return done.stdout.decode("utf-8")


def main() -> int:
    env = environment()
    failed = 0
    pages = {
        "p5-13-1-attention.md": question_variables,
        "p5-13-3-qkv-multihead.md": head_variables,
    }
    for page, variables in pages.items():
        block = first_block(ROOT / "drafts" / page)
        filled = env.from_string(block["template"]).render(variables(block))
        printed = script_output(block)
        same = filled == printed
        failed += not same
        print(f"{page}: template {'matches' if same else 'DIFFERS from'} {block['script']}")
        if not same:
            print(repr(filled[:400]), repr(printed[:400]), sep="\n")
        try:
            lines = evaluate(ROOT / "drafts" / page)
        except KeyError as error:
            failed += 1
            print(error.args[0])
            continue
        print(f"{page}: {len(lines)} prose lines with inline values, all resolved")
        if "--show" in sys.argv:
            for n, line in lines:
                print(f"  {n:4}: {line.strip()}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
