"""``inspect`` over every layout, as real processes: the block it prints for each CSV of the demo
course builds with ``mkdocs build --strict``, and ``run`` given the block's keys as options prints
the printout the page shows."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from sites import REPO, new_site
from test_commands import cli, pasted_block

pytestmark = pytest.mark.slow

ASSETS = REPO / "docs" / "assets" / "part-05" / "chapter-13"
MANUAL = "attention-operating-manual-candidates.csv"
MEMO = "self-attention-safety-memo-candidates.csv"
HEADS = "qkv-multihead-report-scenarios.csv"


def run_args(block: dict[str, Any]) -> list[str]:
    """``run``'s options for the keys of a pasted block."""
    args = ["run", block["csv"]]
    if "document" in block:
        args += ["--document", block["document"]]
    for role, name in block.get("columns", {}).items():
        args += ["--column", f"{role}={name}"]
    for target in block.get("targets", []):
        args += ["--target", target]
    for key, option in (("queries", "--query"), ("heads", "--head")):
        for name, column in block.get(key, {}).items():
            args += [option, f"{name}={column}"]
    if "vectors" in block:
        args += ["--vectors", ",".join(block["vectors"])]
    return args


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize(
    ("csv", "layout", "header_line"),
    [
        (MEMO, "targets", f"{MEMO}: 36 rows, 3 documents"),
        (MANUAL, "queries", f"{MANUAL}: 40 rows; layout queries"),
        (HEADS, "heads", f"{HEADS}: 36 rows, 4 documents; layout heads"),
    ],
)
def test_the_printed_block_builds_and_run_agrees(
    tmp_path: Path, csv: str, layout: str, header_line: str
) -> None:
    site = new_site(tmp_path / "site", course_csv=False)
    site.docs.mkdir(exist_ok=True)
    shutil.copyfile(ASSETS / csv, site.docs / csv)
    done = cli("inspect", csv, cwd=site.docs)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == header_line
    pasted = pasted_block(done.stdout)
    block = yaml.safe_load(pasted.split("```")[1].removeprefix("selfattn\n"))
    assert layout in block
    site.page("index.md", "# Pasted\n\n" + pasted)
    built = site.run()
    assert built.returncode == 0, built.stderr
    printed = cli(*run_args(block), cwd=site.docs)
    assert printed.returncode == 0, printed.stderr
    assert flat(printed.stdout) in flat(site.article().text())
    inline = pasted.rstrip().splitlines()[-1]
    assert inline.startswith("`{selfattn}")
    assert inline not in site.html()  # replaced by its value


def test_the_heads_file_is_described_in_its_terms(tmp_path: Path) -> None:
    done = cli("inspect", str(ASSETS / HEADS), cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert lines[1] == (
        "columns: report_id (document), scenario (group), token (candidate), relation_role "
        "(role), decision_axis (vector), evidence_axis (vector), condition_axis (vector), "
        "single_weight (weight), head1_weight (weight), head2_weight (weight)"
    )
    assert lines[2] == "heads: single (single_weight), head1 (head1_weight), head2 (head2_weight)"
    assert "document ops_pressure_return (9 rows)" in lines
    assert "  group balanced_heads: 정지결정, 압력이상, 복귀조건" in lines
    assert "`{selfattn} ops_pressure_return weight balanced_heads single 정지결정`" in lines


def test_layout_is_chosen_when_several_fit_and_refused_when_none(tmp_path: Path) -> None:
    both = "line,score_a,a_weight,v\nx,1,0.25,1\ny,2,0.75,2\n"
    (tmp_path / "both.csv").write_text(both, encoding="utf-8")
    default = cli("inspect", "both.csv", cwd=tmp_path)
    assert default.returncode == 0, default.stderr
    assert default.stdout.startswith(
        "both.csv: 2 rows; layout queries (also fits heads: --layout)\n"
    )
    assert "queries: {a: score_a}" in default.stdout
    heads = cli("inspect", "both.csv", "--layout", "heads", cwd=tmp_path)
    assert heads.stdout.startswith("both.csv: 2 rows; layout heads (also fits queries: --layout)")
    assert "heads: {a: a_weight}" in heads.stdout
    assert "vectors: [score_a, v]" in heads.stdout
    wrong = cli("inspect", "both.csv", "--layout", "targets", cwd=tmp_path)
    assert (wrong.returncode, wrong.stdout) == (1, "")
    assert wrong.stderr == (
        "mkdocs-selfattn: error: both.csv:1: missing column(s) 'target_token' and "
        "'candidate_token' for targets; the header has line, score_a, a_weight, v (map other "
        "names with --columns)\n"
    )
    (tmp_path / "none.csv").write_text("name,v\nx,1\n", encoding="utf-8")
    none = cli("inspect", "none.csv", cwd=tmp_path)
    assert none.returncode == 1
    assert none.stderr.count("\n") == 1
    assert "for targets; or numeric score columns (names with 'score') for queries; or " in (
        none.stderr
    )
