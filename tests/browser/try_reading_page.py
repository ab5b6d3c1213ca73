"""The try view's page, read as numbers: what every test of the questions and heads layouts
checks after an edit, and the downloaded CSV's round trip through the CLI."""

from __future__ import annotations

import csv
import io
import json
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

from try_reading_cases import EXTRA, Case

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.core.record_form import from_plain
from mkdocs_selfattn.render.labels import py_round
from mkdocs_selfattn.render.try_view import reading_words

WORDS = reading_words("zh", {})
METRICS: dict[str, Any] = {}


READ = """
() => Object.fromEntries(Array.from(document.querySelectorAll('.selfattn-try [data-q]'))
  .filter(el => !['input', 'slider', 'refused'].includes(el.dataset.q)).map(el => {
    const d = el.dataset;
    const key = d.q === 'summary' ? `summary/${d.g}` : `${d.q}/${d.g}/${d.h}/${d.i ?? d.a}`;
    return [key, el.textContent];
}))
"""
READ_FULL = """
() => Object.fromEntries(Array.from(document.querySelectorAll('.selfattn-try [data-v]'))
  .filter(el => el.dataset.q !== 'vector').map(el => {
    const d = el.dataset;
    return [`${d.q}/${d.g}/${d.h}/${d.i ?? d.a}`, Number(d.v)];
}))
"""
REFUSED = (
    "() => Array.from(document.querySelectorAll('.selfattn-try [data-q=refused]'), e => !e.hidden)"
)


def _bits(value: float) -> bytes:
    return struct.pack("<d", float(value))


Edits = dict[tuple[int, int, int], str]


def check(page: Any, case: Case, edits: Edits, t: float | None = None, first: int = 0) -> bool:
    """Every shown number is the build's for the edited file; True when the build accepts it.
    A long table draws 100 lines at a time, from line ``first``."""
    example, _ = case.core(edits, t, EXTRA.get(case.name, ""))
    expected = case.expected(example, case.fmt, WORDS)
    if len(case.rows) > 200:
        expected = {k: v for k, v in expected.items() if _drawn(k, first)}
    sums = case.sums(edits)
    expected |= {k: py_round(v) for k, v in sums.items()}
    assert page.evaluate(READ) == expected
    refused = page.evaluate(REFUSED)
    assert refused == [example is None] * len(refused)
    full = page.evaluate(READ_FULL)
    core = (case.full_precision(example) if example else {}) | sums
    if len(case.rows) > 200:
        core = {k: v for k, v in core.items() if _drawn(k, first)}
    differing = {k: (full.get(k), v) for k, v in core.items() if _bits(full.get(k, -1)) != _bits(v)}
    assert differing == {}
    assert set(full) == set(core)
    METRICS[f"{case.name}_values_compared"] = METRICS.get(f"{case.name}_values_compared", 0) + len(
        expected
    )
    return example is not None


def _drawn(key: str, first: int) -> bool:
    return not key.startswith("weight/") or first <= int(key.split("/")[3]) < first + 100


def box(page: Any, s: int, h: int, i: int, q: str = "input") -> Any:
    return page.locator(f'.selfattn-try [data-q={q}][data-g="{s}"][data-h="{h}"][data-i="{i}"]')


def temperature(page: Any) -> Any:
    return page.locator(".selfattn-try-bar input[type=number]").first


def download_runs(page: Any, case: Case, edits: Edits, t: float | None, tmp: Path) -> None:
    """The downloaded file differs from the CSV only in the edited cells, and the CLI gives the
    page's numbers for it."""
    with page.expect_download() as info:
        page.locator(".selfattn-try-download").first.click()
    path = tmp / f"edited-{case.name}.csv"
    info.value.save_as(path)
    got = path.read_bytes().decode("utf-8").splitlines(keepends=True)
    original = case.csv_bytes.decode("utf-8").splitlines(keepends=True)
    assert len(got) == len(original)
    changed = {case.cell[k][0] + 1 for k, v in edits.items()}
    for n, (a, b) in enumerate(zip(original, got, strict=True)):
        if n not in changed:
            assert a == b
    parsed = case.edited(edits)
    assert _rows(path.read_bytes()) == _rows(parsed) or _numbers_equal(path.read_bytes(), parsed)
    example, _ = case.core(edits, t, EXTRA.get(case.name, ""))
    assert example is not None
    recomputed = case.example(path.read_bytes(), t, EXTRA.get(case.name, ""))
    assert isinstance(recomputed.result, ReadingResult)
    assert isinstance(example.result, ReadingResult)
    # Cells as written may differ ("2.50" typed, "2.5" downloaded); every number may not.
    assert [g.heads for g in recomputed.result.groups] == [g.heads for g in example.result.groups]
    args = CLI[case.name] + (["--temperature", repr(t)] if t is not None else [])
    cli = subprocess.run(
        [sys.executable, "-m", "mkdocs_selfattn", "run", str(path), *args, "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert cli.returncode == 0, cli.stderr
    from_cli = from_plain(ReadingResult, json.loads(cli.stdout))
    assert [g.heads for g in from_cli.groups] == [g.heads for g in example.result.groups]
    assert [g.separations for g in from_cli.groups] == [
        g.separations for g in example.result.groups
    ]


_HEADS_CLI = ["--document", "ops_pressure_return", "--column", "document=report_id"]
_HEADS_CLI += ["--column", "group=scenario", "--column", "candidate=token"]
_HEADS_CLI += ["--column", "role=relation_role", "--head", "single_head=single_weight"]
_HEADS_CLI += ["--head", "head1=head1_weight", "--head", "head2=head2_weight"]
_HEADS_CLI += ["--axis", "decision_axis=decision_axis"]
_HEADS_CLI += ["--axis", "evidence_condition_axis=evidence_axis,condition_axis"]
CLI = {
    "manual": [
        "--column=candidate=line_id",
        "--column=role=section",
        "--vectors=evidence_signal",
        "--query=What is the pressure-release holding time?=score_pressure_hold",
        "--query=What is the coolant-flow criterion?=score_flow_limit",
        "--query=What are the restart approval conditions?=score_restart_permission",
        "--group=pressure_lines=L04,L05,L06,L07,L08,L09,L10,L11,L12",
        "--group=coolant_lines=L13,L14,L15,L16,L17,L18,L19,L20",
    ],
    "split": [
        "--column=candidate=line_id",
        "--column=group=section",
        "--vectors=evidence_signal",
        "--query=pressure=score_pressure_hold",
        "--query=restart=score_restart_permission",
        "--group=early=L01,L02,L03,L04,L05",
    ],
    "heads": _HEADS_CLI,
    "norm": [
        *_HEADS_CLI,
        "--normalise",
        "--group=decision=정지결정",
        "--group=rest=압력이상,복귀조건",
    ],
}


def _rows(data: bytes) -> list[list[str]]:

    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def _numbers_equal(a: bytes, b: bytes) -> bool:
    """Cells equal as written, or as numbers where a typed value reads differently."""
    for ra, rb in zip(_rows(a), _rows(b), strict=True):
        for x, y in zip(ra, rb, strict=True):
            if x != y and float(x) != float(y):
                return False
    return True


def published_results(page: Any, case: Case) -> None:
    """The view links the example's full-precision results, the CLI's JSON of the block."""
    from mkdocs_selfattn.render.jsonout import render_json

    link = page.locator("a.selfattn-try-json").first
    href = link.get_attribute("href")
    assert href
    got = page.evaluate("(href) => fetch(href).then(r => r.text())", href)
    example, _ = case.core({}, None, EXTRA.get(case.name, ""))
    assert example is not None
    assert json.loads(got) == json.loads(render_json(example.result))
