"""Example scripts that fail, hang, flood or are not scripts at all.

A script runs with the build's Python, in the project folder, bounded by ``script_timeout`` and an
output cap. Every failure is one located error; the build goes on and writes every other page.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from .support import Build, ErrorCase, Project, block, check_error_case

BLOCK = block(
    "csv: /data/good.csv\ndocument: memo_cap_missing\nscript: {script}\nshow: [output]",
    info="selfattn #HERE",
)
QUICK = {"script_timeout": 2}
MAX_RSS_KIB = 600 * 1024
"""Peak memory of a build whose script floods its output (a normal build needs ~150 MiB)."""


def script_block(script: str = "ex.py") -> str:
    return BLOCK.replace("{script}", script)


GRANDCHILD = """\
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
with open(f"grandchild-{os.getpid()}.pid", "w") as handle:
    handle.write(str(child.pid))
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("State:"):
                    return "Z" not in line.split()[1]
    except FileNotFoundError:
        return False
    return True


def _no_orphans(project: Project, build: Build, failures: list[str]) -> None:
    """Processes the timed-out script started are gone too (then end any that are not)."""
    pids = [int(p.read_text()) for p in project.root.glob("grandchild-*.pid")]
    if not pids:
        failures.append("the script did not start its child (no grandchild-*.pid file)")
    for pid in pids:
        if _alive(pid):
            failures.append(f"process {pid}, started by the timed-out script, is still running")
            os.kill(pid, signal.SIGKILL)


def _memory_bounded(project: Project, build: Build, failures: list[str]) -> None:
    if build.run.maxrss_kib > MAX_RSS_KIB:
        failures.append(f"the build peaked at {build.run.maxrss_kib // 1024} MiB of memory")


CASES = [
    ErrorCase(
        "exit-status-with-stderr",
        script_block(),
        r"script docs/ex\.py exited with status 3: .*boom: marker 4711",
        files={"docs/ex.py": 'import sys\nsys.stderr.write("boom: marker 4711\\n")\nsys.exit(3)\n'},
    ),
    ErrorCase(
        "uncaught-exception",
        script_block(),
        r"script docs/ex\.py exited with status 1: .*RuntimeError: kaput",
        files={"docs/ex.py": 'raise RuntimeError("kaput")\n'},
    ),
    ErrorCase(
        "stderr-flood-then-exception",
        script_block(),
        r"script docs/ex\.py exited with status 1: .*KeyError: 'the-real-cause'",
        files={
            "docs/ex.py": "import sys\nfor n in range(20000):\n"
            "    print('warning', n, 'x' * 70, file=sys.stderr)\n"
            "raise KeyError('the-real-cause')\n"
        },
    ),
    ErrorCase(
        "hangs-until-timeout",
        script_block(),
        r"script docs/ex\.py did not finish within 2 s and was stopped",
        files={"docs/ex.py": "import time\ntime.sleep(600)\n"},
        options=QUICK,
        max_seconds=90,
    ),
    ErrorCase(
        "busy-loop-ignoring-sigterm",
        script_block(),
        r"script docs/ex\.py did not finish within 2 s",
        files={
            "docs/ex.py": "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "while True:\n    pass\n"
        },
        options=QUICK,
        max_seconds=90,
    ),
    ErrorCase(
        "hangs-with-a-child-process",
        script_block(),
        r"script docs/ex\.py did not finish within 2 s",
        files={"docs/ex.py": GRANDCHILD},
        options=QUICK,
        max_seconds=90,
        extra_check=_no_orphans,
    ),
    ErrorCase(
        "endless-stdout",
        script_block(),
        r"script docs/ex\.py printed more than 1024 KiB and was stopped",
        files={"docs/ex.py": 'while True:\n    print("x" * 1000)\n'},
        options={"script_timeout": 60},
        max_seconds=90,
        extra_check=_memory_bounded,
    ),
    ErrorCase(
        "endless-stdout-without-newlines",
        script_block(),
        r"printed more than 1024 KiB",
        files={"docs/ex.py": 'import sys\nwhile True:\n    sys.stdout.write("y" * 65536)\n'},
        options={"script_timeout": 60},
        max_seconds=90,
        extra_check=_memory_bounded,
    ),
    ErrorCase(
        "endless-stderr",
        script_block(),
        r"did not finish within 2 s",
        files={"docs/ex.py": 'import sys\nwhile True:\n    sys.stderr.write("e" * 1000 + "\\n")\n'},
        options=QUICK,
        max_seconds=90,
        extra_check=_memory_bounded,
    ),
    # Not run, and not quoted: a failed run printed the file's lines in its traceback.
    ErrorCase(
        "shell-script",
        script_block("ex.sh"),
        r"docs/ex\.sh: is not a Python file \(\.py\)",
        at="script: ",
        files={"docs/ex.sh": "#!/bin/sh\necho 'hello from sh'\nexit 0\n"},
    ),
    ErrorCase(
        "csv-as-script",
        script_block("data/good.csv"),
        r"docs/data/good\.csv: is not a Python file \(\.py\)",
        at="script: ",
    ),
    ErrorCase(
        "binary-script",
        script_block("ex.bin"),
        r"docs/ex\.bin: is not UTF-8 text",
        at="script: ",  # a file the block names: the message points at its key
        files={"docs/ex.bin": b"\x7fELF\x02\x01\x01\x00\xff\xfe\x00\x00"},
    ),
    ErrorCase(
        "script-not-found",
        script_block("missing.py"),
        r"docs/missing\.py: file not found",
        at="script: ",  # a file the block names: the message points at its key
    ),
    ErrorCase(
        "script-is-a-folder",
        script_block("data"),
        r"docs/data: is a folder",
        at="script: ",  # a file the block names: the message points at its key
    ),
    ErrorCase(
        "output-differs-from-csv",
        script_block(),
        r"the output of script docs/ex\.py differs from the numbers computed from the CSV",
        files={"docs/ex.py": 'print("csv_rows = 999")\n'},
    ),
    ErrorCase(
        "output-not-utf8",
        script_block(),
        r"script docs/ex\.py printed bytes that are not UTF-8",
        files={"docs/ex.py": 'import sys\nsys.stdout.buffer.write(b"\\xff\\xfe\\n")\n'},
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_script_failure(tmp_path: Path, case: ErrorCase) -> None:
    check_error_case(tmp_path, case)
