"""The command line for the questions and heads layouts: ``run`` (text, json, markdown, exit
codes) and ``check`` of a site with such blocks, as real processes where the exit code matters."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reading_fixtures import HEADS_CSV, MANUAL_CSV, manual_reading, report_reading
from test_reading_build import ASSETS, _without_script, draft_block

from mkdocs_selfattn.cli.main import main
from tests.sites import new_site

REPO = Path(__file__).resolve().parents[2]
MANUAL_ARGS = [
    "run", str(MANUAL_CSV),
    "--column", "candidate=line_id", "--column", "role=section",
    "--vectors", "evidence_signal",
    "--query", "What is the pressure-release holding time?=score_pressure_hold",
    "--query", "What is the coolant-flow criterion?=score_flow_limit",
    "--query", "What are the restart approval conditions?=score_restart_permission",
]  # fmt: skip
HEADS_ARGS = [
    "run", str(HEADS_CSV), "--document", "ops_pressure_return",
    "--column", "document=report_id", "--column", "group=scenario",
    "--column", "candidate=token", "--column", "role=relation_role",
    "--head", "single_head=single_weight", "--head", "head1=head1_weight",
    "--head", "head2=head2_weight",
    "--axis", "decision_axis=decision_axis",
    "--axis", "evidence_condition_axis=evidence_axis,condition_axis",
]  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_the_reading_at_full_precision(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *MANUAL_ARGS, "--format", "json")
    assert (code, err) == (0, "")
    expected = manual_reading().to_dict()
    assert json.loads(out) == json.loads(json.dumps(expected))
    code, out, _ = run(capsys, *HEADS_ARGS, "--format", "json")
    assert json.loads(out) == json.loads(json.dumps(report_reading().to_dict()))


def test_text_is_the_chapters_printout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *HEADS_ARGS)
    assert code == 0
    assert out.startswith(
        "csv_rows = 36\nfocus_report_rows = 9\n"
        "context_axes = ['decision_axis', 'evidence_condition_axis']\n\n[balanced_heads]\n"
    )
    assert "head1_context       = [1.2, 0.85]\n" in out
    assert "head_separation = 1.14\n" in out
    code, out, _ = run(capsys, *MANUAL_ARGS, "--top", "1")
    assert code == 0
    assert "L10 pressure weight = 0.092 signal = 2.9\n\nquestion = What is the coolant" in out


def test_a_template_file_sets_the_printout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    template = tmp_path / "t.j2"
    template.write_text(
        "{% for g in groups %}{{ g.name }} {{ g.separation('head1', 'head2') | r3 }}\n{% endfor %}",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, *HEADS_ARGS, "--template", str(template))
    assert code == 0
    assert out == (
        "balanced_heads 0.335\ndecision_vs_condition_split 1.14\ncondition_heavy_both_heads 0.25\n"
    )


def test_markdown_lists_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *MANUAL_ARGS, "--format", "markdown")
    assert code == 0
    assert out.count("| L10 ") >= 1
    assert "|" in out.splitlines()[2]


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--target", "x"], "--target"),
        (["--normalise"], "--normalise"),
        (["--axis", "a=evidence_signal"], "--vectors with --axis"),
        (["--head", "h=score_flow_limit"], "not allowed with argument --query"),
        (["--top", "0"], "--top below 1"),
    ],
)
def test_mixed_layout_options_are_usage_errors(
    capsys: pytest.CaptureFixture[str], extra: list[str], words: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        main([*MANUAL_ARGS, *extra])
    assert caught.value.code == 2
    assert words in capsys.readouterr().err


def test_heads_take_no_temperature_and_targets_need_a_document(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for args in ([*HEADS_ARGS, "--temperature", "2"], ["run", str(MANUAL_CSV)]):
        with pytest.raises(SystemExit) as caught:
            main(args)
        assert caught.value.code == 2
    assert "run needs --document" in capsys.readouterr().err


@pytest.mark.slow
def test_a_wrong_weight_sum_exits_1_with_one_line(tmp_path: Path) -> None:
    text = HEADS_CSV.read_text(encoding="utf-8")
    header, first, *rest = text.split("\n")
    cells = first.split(",")
    cells[-1] = "0.5"  # head2_weight of the first row: its group no longer sums to 1
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join([header, ",".join(cells), *rest]), encoding="utf-8")
    args = [a if a != str(HEADS_CSV) else str(bad) for a in HEADS_ARGS]
    args[args.index("ops_pressure_return")] = cells[0]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs_selfattn", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert f"group '{cells[1]}', head 'head2': the weights in 'head2_weight' sum to" in done.stderr
    assert "normalise" in done.stderr


@pytest.mark.slow
def test_check_computes_the_new_blocks_and_reports_their_mistakes(tmp_path: Path) -> None:
    site = new_site(tmp_path, course_csv=False)
    for source in (MANUAL_CSV, HEADS_CSV):
        (site.root / ASSETS).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, site.root / ASSETS / source.name)
    manual = _without_script(draft_block("p5-13-1-attention.md", "manual"))
    heads = _without_script(draft_block("p5-13-3-qkv-multihead.md", "heads"))
    site.page("index.md", "# A\n\n" + manual + "\n" + heads)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(REPO)
    command = [sys.executable, "-m", "mkdocs_selfattn", "check", "-f", str(site.config_file)]

    def check() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, cwd=site.root, capture_output=True, text=True, env=env, timeout=180,
            check=False,
        )  # fmt: skip

    done = check()
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "mkdocs-selfattn check: 1 page, 2 blocks, 0 inline values: no problems\n"
    site.page("index.md", "# A\n\n" + manual + "\n" + heads.replace("head2_weight}", "x}"))
    done = check()
    assert done.returncode == 1
    assert "column(s) 'x' not in the header" in done.stdout
