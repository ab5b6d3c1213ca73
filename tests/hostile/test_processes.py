"""A build or ``serve`` that is stopped by a signal leaves nothing running and closes its output.

CI cancellation and container stops end a build with SIGTERM, SIGINT, SIGHUP or SIGKILL, sent to
the build process alone. Whatever it started must go with it, within seconds: chart workers
(forked for ``build``, spawned with a resource tracker for ``serve``), example scripts (which run
in a session of their own) and what those scripts started. And a worker must not hold the build's
stdout: ``mkdocs build | tee log`` has to see end-of-file when the build dies.

Every process the build starts inherits an environment variable holding a token unique to the
test; the processes are found by that token in ``/proc/PID/environ`` (real process listings, no
mocks). The signal goes to the main process only, never to its group.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .support import GOOD_CSV_PATH, Project, ascii_csv, block, build_env, good_block, kill_group
from .test_serve import free_port

pytestmark = pytest.mark.slow

MARK = "SELFATTN_TEST_PROCESS_MARK"
CHART_PAGES = 6
START_SECONDS = 120.0
"""How long the build may take to reach the point where everything is running (busy CI)."""
EXIT_SECONDS = 30.0
"""How long the main process may take to end after a catchable signal."""
GONE_SECONDS = 5.0
"""How long anything it started may outlive it: "a few seconds"."""

SLOW_SCRIPT = """\
import subprocess, sys, time
subprocess.Popen([sys.executable, "-c", "import time\\nwhile True: time.sleep(0.2)", "grandchild"])
while True:
    time.sleep(0.2)
"""


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    cmdline: str


def marked(token: str) -> dict[int, Proc]:
    """Live processes whose environment holds ``MARK=token`` (zombies have no environment)."""
    needle = f"{MARK}={token}".encode()
    found: dict[int, Proc] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as handle:
                if needle not in handle.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                stat = handle.read()
            with open(f"/proc/{entry.name}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2 :].split()
        if fields[0] == b"Z":
            continue
        found[int(entry.name)] = Proc(int(entry.name), int(fields[1]), cmdline.strip())
    return found


def _project(root: Path) -> Project:
    """A site whose build blocks in an endless script while workers hold uncached charts."""
    project = Project(root, {"chart_workers": 1, "script_timeout": 600, "cache_dir": ".cache/s"})
    text = ascii_csv()
    project.write(GOOD_CSV_PATH, text)
    row = "memo_cap_missing,it,cap,missing_object,0.1,0.95,0.2,"
    assert row in text
    project.write("docs/slow.py", SLOW_SCRIPT)
    # The script's page first: the look-ahead has sent the charts to the worker by then.
    project.page(
        "index.md",
        "# Slow\n\n"
        + block("csv: data/good.csv\ndocument: memo_cap_missing\nscript: slow.py\nshow: [output]"),
    )
    for i in range(CHART_PAGES):
        project.write(f"docs/data/c{i}.csv", text.replace(row + "2.4", row + f"{2.4 + i / 100}"))
        project.page(
            f"c{i}.md",
            f"# C{i}\n\n" + good_block(f"c{i}", csv=f"data/c{i}.csv", show="[table, chart]"),
        )
    project.configure()
    return project


class Started:
    """``mkdocs build`` or ``serve`` in a session of its own, stdout and stderr into one pipe
    that a thread reads until end-of-file (as ``| tee log`` would)."""

    def __init__(self, project: Project, command: str) -> None:
        self.token = secrets.token_hex(8)
        env = {**build_env(), MARK: self.token}
        args = [sys.executable, "-m", "mkdocs", command, "-f", str(project.root / "mkdocs.yml")]
        if command == "serve":
            args += ["-a", f"127.0.0.1:{free_port()}"]
        else:
            args += ["-d", str(project.root / "site")]
        self.process = subprocess.Popen(
            args,
            cwd=project.root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.output = bytearray()
        self.eof = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        while chunk := self.process.stdout.read1(65536):
            self.output.extend(chunk)
        self.eof.set()

    def log(self) -> str:
        return "\n".join(bytes(self.output).decode("utf-8", "replace").splitlines()[-25:])

    def others(self) -> dict[int, Proc]:
        return {pid: p for pid, p in marked(self.token).items() if pid != self.process.pid}

    def wait_until_running(self) -> dict[int, Proc]:
        """Poll until a worker, the script and the script's child all exist."""
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"the build ended early:\n{self.log()}"
            found = self.others()
            lines = [p.cmdline for p in found.values()]
            worker = any(
                p.ppid == self.process.pid and "slow.py" not in p.cmdline for p in found.values()
            )
            if (
                worker
                and any(line.endswith("slow.py") for line in lines)
                and any(line.endswith("grandchild") for line in lines)
            ):
                return found
            time.sleep(0.1)
        raise AssertionError(
            f"worker, script and its child not all running within {START_SECONDS:g} s: "
            f"{self.others()}\n{self.log()}"
        )

    def cleanup(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        kill_group(self.process.pid)
        for pid in marked(self.token):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self._reader.join(timeout=5)
        if self.process.stdout is not None:
            self.process.stdout.close()


@pytest.fixture
def started(tmp_path: Path) -> Iterator[list[Started]]:
    runs: list[Started] = []
    try:
        yield runs
    finally:
        for run in runs:
            run.cleanup()


def _output_holders(run: Started, found: dict[int, Proc]) -> list[str]:
    """Processes (other than the build) holding the build's own stdout pipe, on any fd.

    The resource tracker of a spawned pool is let off: multiprocessing starts it with the
    build's stdio, and it exits when the last worker has (the end-of-file check covers it)."""
    pipe = os.readlink(f"/proc/{run.process.pid}/fd/1")
    holders = []
    for proc in found.values():
        if "resource_tracker" in proc.cmdline:
            continue
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{proc.pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{proc.pid}/fd/{fd}") == pipe:
                        holders.append(f"fd {fd} of {proc.cmdline}")
    return holders


def _stop_and_check(run: Started, signum: signal.Signals, *, group: bool = False) -> None:
    before = run.wait_until_running()
    holders = _output_holders(run, before)
    assert not holders, f"these hold the build's stdout: {holders}"
    if group:  # as a terminal's Ctrl-C does: the build and its forked workers get it
        os.killpg(run.process.pid, signum)
    else:
        os.kill(run.process.pid, signum)
    try:
        run.process.wait(timeout=EXIT_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the build did not end within {EXIT_SECONDS:g} s of {signum.name}")
    deadline = time.monotonic() + GONE_SECONDS
    left = run.others()
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = run.others()
    assert not left, (
        f"{GONE_SECONDS:g} s after the build ended by {signum.name}, still running: "
        f"{sorted(p.cmdline for p in left.values())} (before the signal: "
        f"{sorted(p.cmdline for p in before.values())})\n{run.log()}"
    )
    assert run.eof.wait(GONE_SECONDS), (
        f"the build's stdout was still open {GONE_SECONDS:g} s after it ended by {signum.name}"
    )


SIGNALS = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL]


@pytest.mark.parametrize("signum", SIGNALS, ids=[s.name for s in SIGNALS])
def test_a_build_stopped_by_a_signal_leaves_nothing_running(
    tmp_path: Path, started: list[Started], signum: signal.Signals
) -> None:
    run = Started(_project(tmp_path / "project"), "build")
    started.append(run)
    _stop_and_check(run, signum)


@pytest.mark.parametrize("signum", SIGNALS, ids=[s.name for s in SIGNALS])
def test_serve_stopped_by_a_signal_leaves_nothing_running(
    tmp_path: Path, started: list[Started], signum: signal.Signals
) -> None:
    run = Started(_project(tmp_path / "project"), "serve")
    started.append(run)
    _stop_and_check(run, signum)


GROUP_SIGNALS = [signal.SIGINT, signal.SIGTERM]


@pytest.mark.parametrize("signum", GROUP_SIGNALS, ids=[s.name for s in GROUP_SIGNALS])
def test_a_build_whose_process_group_is_signalled_leaves_nothing_running(
    tmp_path: Path, started: list[Started], signum: signal.Signals
) -> None:
    run = Started(_project(tmp_path / "project"), "build")
    started.append(run)
    _stop_and_check(run, signum, group=True)
