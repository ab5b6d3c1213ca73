"""The course's three examples as worker requests (one per layout), for tests and the benchmark
that run them in a fresh interpreter: this module imports nothing heavy itself."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs_selfattn.build.jobs import ComputeRequest

ASSETS = Path(__file__).resolve().parents[1] / "docs/assets/part-05/chapter-13"

BLOCKS = {
    "targets": (
        "self-attention-safety-memo-candidates.csv",
        "id: memo\ncsv: x.csv\ndocument: memo_cap_missing\ntargets: [그것, 씌우지]\n"
        "groups: {cap_plus_not_applied: [절연캡, 씌우지]}\n",
    ),
    "questions": (
        "attention-operating-manual-candidates.csv",
        "id: manual\ncsv: x.csv\ncolumns: {candidate: line_id, role: section}\n"
        "vectors: [evidence_signal]\nqueries:\n"
        "  hold: score_pressure_hold\n  flow: score_flow_limit\n"
        "  restart: score_restart_permission\n",
    ),
    "heads": (
        "qkv-multihead-report-scenarios.csv",
        "id: heads\ncsv: x.csv\ndocument: ops_pressure_return\n"
        "columns: {document: report_id, group: scenario, candidate: token, role: relation_role}\n"
        "heads: {single_head: single_weight, head1: head1_weight, head2: head2_weight}\n"
        "axes: {decision_axis: [decision_axis], "
        "evidence_condition_axis: [evidence_axis, condition_axis]}\n",
    ),
}


def requests() -> dict[str, ComputeRequest]:
    """One ``ComputeRequest`` per layout, with the course file's bytes."""
    from mkdocs_selfattn.blocks.markdown_scan import find_blocks
    from mkdocs_selfattn.blocks.spec import parse_block
    from mkdocs_selfattn.build.jobs import ComputeRequest

    found: dict[str, ComputeRequest] = {}
    for layout, (name, body) in BLOCKS.items():
        spec = parse_block(find_blocks(f"```selfattn\n{body}```\n")[0]).example
        assert spec is not None, layout
        data = (ASSETS / name).read_bytes()
        found[layout] = ComputeRequest.of(layout, spec, data, name)
    return found
