"""The command line: the chapter's printout byte for byte, JSON and markdown, and exit codes.

Exit codes are part of the interface for CI scripts: 0 success, 1 a data problem (one line on
stderr, never a traceback), 2 a usage problem (argparse's own message).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_selfattn.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
COURSE = "docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"
GOLDEN = ROOT / "tests" / "golden" / "seed_printout.txt"
INDEXED = str(ROOT / "data" / "edge" / "index_columns_repeated_tokens.csv")
SEED_ARGS = [
    "run",
    COURSE,
    "--document", "memo_cap_missing",
    "--target", "그것",
    "--target", "씌우지",
    "--display", "배터리팩=电池包",
    "--display", "분리=分离",
    "--display", "절연캡=绝缘帽",
    "--display", "씌우지=未套上",
    "--display", "그것=它",
    "--display", "위험=风险",
    "--group", "cap_plus_not_applied=절연캡,씌우지",
]  # fmt: skip


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # The golden command names the CSV relative to the repository root.
    monkeypatch.chdir(ROOT)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def usage_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as caught:
        main(list(args))
    assert caught.value.code == 2
    return capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# The printout.


def test_seed_printout_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *SEED_ARGS)
    assert (code, err) == (0, "")
    assert out.encode("utf-8") == GOLDEN.read_bytes()


@pytest.mark.slow
def test_seed_printout_as_a_real_process() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs_selfattn", *SEED_ARGS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.stderr == b""
    assert done.returncode == 0
    assert done.stdout == GOLDEN.read_bytes()


@pytest.mark.slow
def test_data_error_as_a_real_process() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs_selfattn", "run", COURSE, "--document", "nope"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == b""
    assert done.stderr.decode().count("\n") == 1
    assert b"Traceback" not in done.stderr


def test_default_targets_are_all_in_csv_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", COURSE, "--document", "memo_pressure_hold")
    assert code == 0
    targets = [line for line in out.splitlines() if line.startswith("target_token = ")]
    assert targets == ["target_token = 그것", "target_token = 재기동"]
    assert out.startswith("csv_rows = 36\nfocus_document_rows = 12\n")


def test_targets_in_the_order_asked(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys, "run", COURSE, "--document", "memo_flow_alarm", "--target", "해제",
        "--target", "그것",
    )  # fmt: skip
    targets = [line for line in out.splitlines() if line.startswith("target_token = ")]
    assert targets == ["target_token = 해제", "target_token = 그것"]


def test_temperature_changes_the_printout(capsys: pytest.CaptureFixture[str]) -> None:
    _, cold, _ = run(capsys, "run", COURSE, "--document", "memo_cap_missing")
    _, hot, _ = run(capsys, "run", COURSE, "--document", "memo_cap_missing", "--temperature", "2")
    assert cold != hot
    assert "절연캡 weight = 0.43 " in cold


# ---------------------------------------------------------------------------------------------
# JSON and markdown.

SPEC_KEYS = ["csv_rows", "document", "document_rows", "vector_columns", "baseline", "targets"]
TARGET_KEYS = ["target", "target_index", "candidates", "context", "shift", "top", "groups"]
CANDIDATE_KEYS = ["token", "index", "role", "score", "weight", "vector"]


def test_json_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "run", COURSE, "--document", "memo_cap_missing", "--format", "json",
        "--group", "cap=절연캡,씌우지",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert all(key in data for key in SPEC_KEYS)
    assert [k for k in data if k in SPEC_KEYS] == SPEC_KEYS
    assert data["csv_rows"] == 36
    assert data["document"] == "memo_cap_missing"
    assert data["document_rows"] == 12
    assert data["vector_columns"] == ["evidence_pack", "evidence_cap", "evidence_action"]
    # Full precision: the exact float, not the printout's three digits.
    assert data["baseline"][0] == (0.9 + 0.8 + 0.1 + 0.0 + 0.3 + 0.2) / 6 == 0.38333333333333336
    assert len(data["baseline"]) == 3
    assert [t["target"] for t in data["targets"]] == ["그것", "씌우지"]
    first = data["targets"][0]
    assert all(key in first for key in TARGET_KEYS)
    assert first["target_index"] is None  # no index columns in the course file
    assert first["top"] == "절연캡"
    assert set(first["groups"]) == {"cap"}
    assert len(first["candidates"]) == 6
    candidate = first["candidates"][0]
    assert all(key in candidate for key in CANDIDATE_KEYS)
    assert candidate["token"] == "배터리팩"
    assert candidate["index"] is None
    assert candidate["role"] == "equipment"
    assert candidate["score"] == 0.2
    assert candidate["vector"] == [0.9, 0.1, 0.0]
    assert candidate["weight"] != round(candidate["weight"], 3)
    assert round(candidate["weight"], 3) == 0.048
    assert sum(c["weight"] for c in first["candidates"]) == pytest.approx(1.0, abs=1e-15)
    assert not out.isascii()  # Korean stays readable, not \\uXXXX


def test_json_carries_positions_with_index_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", INDEXED, "--document", "memo", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert [t["target_index"] for t in data["targets"]] == [2, 5]
    assert [c["index"] for c in data["targets"][0]["candidates"]] == [0, 1, 2, 5]


@pytest.mark.parametrize("fmt", ["markdown", "text"])
def test_a_token_at_two_positions_is_told_apart_as_on_the_page(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every layout's tables and printout use the example's labels: a targets token at two
    positions is ``token@N`` in the terminal too, as on the page."""
    code, out, _ = run(capsys, "run", INDEXED, "--document", "memo", "--format", fmt)
    assert code == 0
    assert "그것@2" in out
    assert "그것@5" in out


def test_a_template_prints_a_targets_example_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    template = tmp_path / "t.j2"
    template.write_text(
        "{% for t in targets %}{{ t.display }} -> {{ t.top.display }}\n{% endfor %}",
        encoding="utf-8",
    )
    args = ("--document", "memo", "--format", "text", "--template", str(template))
    code, out, _ = run(capsys, "run", INDEXED, *args)
    assert code == 0
    assert out == "그것@2 -> 그것@2\n그것@5 -> 그것@2\n"


def test_markdown_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "run", COURSE, "--document", "memo_cap_missing", "--format", "markdown"
    )
    assert code == 0
    assert out.strip()
    lines = out.splitlines()
    assert any(line.startswith("| candidate token |") for line in lines)
    assert any(set(line) <= set("|:- ") and "--" in line for line in lines)  # a separator row
    assert sum(line.startswith("|") for line in lines) > 12
    assert "0.43" in out


VIEW_MARKS = {
    "output": "```text\ncsv_rows = 36\n",
    "table": "<table",
    "compare": "<table",
    "csv": "memo_cap_missing",
    "mermaid": "```mermaid\n",
    "chart": "<svg",
    "try": '<div class="selfattn-try"',
}


def test_run_prints_every_view_a_block_can_show(capsys: pytest.CaptureFixture[str]) -> None:
    from mkdocs_selfattn.build.views import VIEWS

    # The figures of the questions and heads layouts (a targets example has none of them):
    # tests/render/test_figures.py.
    assert set(VIEWS) == {*VIEW_MARKS, "code", "context_chart", "separation_chart", "context_space"}
    for name, mark in VIEW_MARKS.items():
        code, out, err = run(
            capsys, "run", COURSE, "--document", "memo_cap_missing", "--format", name
        )
        assert (code, err) == (0, ""), name
        assert mark in out, name
    # The same view as in a page: a table's numbers are the printout's.
    _, table, _ = run(capsys, "run", COURSE, "--document", "memo_cap_missing", "--format", "table")
    assert "0.43" in table
    # 'code' shows a block's script, which the command line has none of: one clear line.
    code, _, err = run(capsys, "run", COURSE, "--document", "memo_cap_missing", "--format", "code")
    assert code == 1
    assert_one_line_error(err)
    assert "has no 'script:'" in err


# ---------------------------------------------------------------------------------------------
# Errors.


def assert_one_line_error(err: str) -> None:
    assert err.startswith("mkdocs-selfattn: error: ")
    assert err.endswith("\n")
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_unknown_document_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "run", COURSE, "--document", "memo_nope")
    assert (code, out) == (1, "")
    assert_one_line_error(err)
    assert "document 'memo_nope' not found" in err
    assert "'memo_cap_missing'" in err


def test_bad_csv_exits_1_with_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ROOT / "data" / "edge" / "non_numeric_score.csv")
    code, out, err = run(capsys, "run", path, "--document", "memo")
    assert (code, out) == (1, "")
    assert_one_line_error(err)
    assert f"{path}:5: column 'score': 'high' is not a number" in err


def test_missing_file_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "run", str(tmp_path / "none.csv"), "--document", "m")
    assert code == 1
    assert_one_line_error(err)
    assert "file not found" in err


def test_unknown_group_member_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "run", COURSE, "--document", "memo_cap_missing", "--group", "g=펌프")
    assert code == 1
    assert_one_line_error(err)


def test_unknown_vector_column_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "run", COURSE, "--document", "memo_cap_missing", "--vectors", "evidence_x"
    )
    assert code == 1
    assert_one_line_error(err)
    assert "'evidence_x' not in the header" in err


def test_column_mapping_option(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ROOT / "data" / "edge" / "column_mapping_memo.csv")
    code, out, _ = run(capsys, "run", path, "--document", "memo_other", "--column", "document=memo")
    assert code == 0
    assert "focus_document_rows = 1\n" in out


@pytest.mark.parametrize("display", ["배터리팩", "=电池包"])
def test_bad_display_is_a_usage_error(capsys: pytest.CaptureFixture[str], display: str) -> None:
    err = usage_error(capsys, "run", COURSE, "--document", "memo_cap_missing", "--display", display)
    assert "--display must look like KEY=VALUE" in err


@pytest.mark.parametrize("temperature", ["warm", "0", "-1", "nan", "inf"])
def test_bad_temperature_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], temperature: str
) -> None:
    err = usage_error(
        capsys, "run", COURSE, "--document", "memo_cap_missing", "--temperature", temperature
    )
    assert "--temperature needs a number greater than 0" in err


def test_missing_document_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    err = usage_error(capsys, "run", COURSE)
    assert "--document" in err


def test_bad_group_and_column_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert "lists no tokens" in usage_error(
        capsys, "run", COURSE, "--document", "m", "--group", "g="
    )
    assert "role 'doc' is unknown" in usage_error(
        capsys, "run", COURSE, "--document", "m", "--column", "doc=memo"
    )


def test_bad_format_and_missing_command_are_usage_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    usage_error(capsys, "run", COURSE, "--document", "m", "--format", "yaml")
    usage_error(capsys)
