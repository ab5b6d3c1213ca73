"""The core benchmark's workloads still run against the package: a rename in the core must not
leave ``bench/bench_core.py`` failing unnoticed until someone measures (it did, once)."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("generate_large", ROOT / "data/generate_large.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def small_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bench") / "large.csv"
    generator = _generator()
    generator.generate(path, documents=3, targets=4, candidates=12, vocabulary=60)
    return path


def _child(kind: str, csv: Path) -> float:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench/bench_core.py"),
            "--child",
            kind,
            str(csv),
            "--inner",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    checksum = json.loads(done.stdout)["checksum"]
    assert isinstance(checksum, float)
    return checksum


def test_the_core_workload_computes_what_the_plain_python_one_does(small_csv: Path) -> None:
    core = _child("core", small_csv)
    plain = _child("stdlib", small_csv)
    assert math.isclose(core, plain, rel_tol=1e-12)
    assert core != 0.0
