"""Running an example script: real stdout on success, located and bounded failures otherwise."""

from __future__ import annotations

import contextlib
import os
import textwrap
import time
from pathlib import Path

import pytest

from mkdocs_selfattn.build.scripts import MAX_STDOUT, run_script
from mkdocs_selfattn.errors import ScriptError

pytestmark = pytest.mark.slow  # every test starts a Python subprocess


def _script(folder: Path, source: str, name: str = "example.py") -> Path:
    path = folder / "docs" / "examples" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def _run(folder: Path, source: str, timeout: float = 30.0) -> str:
    path = _script(folder, source)
    return run_script(path, cwd=folder, timeout=timeout, display="docs/examples/example.py").stdout


def _fails(folder: Path, source: str, timeout: float = 30.0) -> tuple[str, float]:
    started = time.monotonic()
    with pytest.raises(ScriptError) as caught:
        _run(folder, source, timeout)
    return str(caught.value), time.monotonic() - started


def _assert_dead(pid: int) -> None:
    """Gone within a moment of the run (SIGKILL is delivered, the exit follows). A zombie counts
    as gone: the script runs under a guard process, so init reaps it, which cannot be hurried."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    assert not _alive(pid), f"process {pid} is still running"


def test_success_returns_the_real_stdout(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("绝缘帽 0.43\n", encoding="utf-8")
    out = _run(
        tmp_path,
        """
        from pathlib import Path
        print("target_token =", "它")
        print(Path("data.txt").read_text(encoding="utf-8"), end="")
        print()
        """,
    )
    assert out == "target_token = 它\n绝缘帽 0.43\n\n"


def test_runs_in_the_given_folder(tmp_path: Path) -> None:
    out = _run(tmp_path, "import os\nprint(os.getcwd())\n")
    assert Path(out.strip()).resolve() == tmp_path.resolve()


def test_stdout_is_utf8_and_newlines_normalised(tmp_path: Path) -> None:
    out = _run(tmp_path, 'import sys\nsys.stdout.buffer.write("它\\r\\n风险\\n".encode())\n')
    assert out == "它\n风险\n"


def test_hash_seed_is_fixed_so_set_order_is_reproducible(tmp_path: Path) -> None:
    source = "print(list({'배터리팩', '분리', '절연캡', '씌우지', '그것', '위험'}))\n"
    assert _run(tmp_path, source) == _run(tmp_path, source)


def test_stdin_is_closed(tmp_path: Path) -> None:
    out = _run(tmp_path, "import sys\nprint(repr(sys.stdin.read()))\n", timeout=10)
    assert out == "''\n"


def test_non_zero_exit_reports_the_stderr_tail(tmp_path: Path) -> None:
    message, _ = _fails(
        tmp_path,
        """
        import sys
        print("partial output")
        for n in range(1, 11):
            print(f"err-{n:02d}", file=sys.stderr)
        sys.exit(3)
        """,
    )
    assert "docs/examples/example.py" in message
    assert "status 3" in message
    assert "err-10" in message
    assert "err-05" in message
    assert "err-01" not in message  # only the tail, so the log line stays short


def test_a_failure_after_much_stderr_shows_the_traceback_not_the_start(tmp_path: Path) -> None:
    message, _ = _fails(
        tmp_path,
        """
        import sys
        for n in range(5000):
            print(f"log line {n:05d} " + "." * 60, file=sys.stderr)
        raise LookupError("the-real-cause")
        """,
    )
    assert "LookupError: the-real-cause" in message
    assert "log line 00000" not in message
    assert len(message) < 3000


def test_uncaught_exception_shows_its_last_line(tmp_path: Path) -> None:
    message, _ = _fails(tmp_path, "raise ValueError('boom-marker')\n")
    assert "ValueError: boom-marker" in message
    assert "status 1" in message


def test_a_script_killed_by_a_signal_reports_that_signal(tmp_path: Path) -> None:
    message, _ = _fails(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    assert "exited with status -9" in message


def test_non_zero_exit_without_stderr(tmp_path: Path) -> None:
    message, _ = _fails(tmp_path, "import sys\nsys.exit(2)\n")
    assert "status 2" in message
    assert "no error output" in message


def test_timeout_kills_the_script_in_bounded_time(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    message, seconds = _fails(
        tmp_path,
        f"""
        import os, time
        with open({str(pid_file)!r}, "w") as handle:
            handle.write(str(os.getpid()))
        print("started", flush=True)
        time.sleep(120)
        """,
        timeout=1.5,
    )
    assert "did not finish within 1.5 s" in message
    assert "script_timeout" in message
    assert seconds < 10
    _assert_dead(int(pid_file.read_text()))


def test_timeout_when_the_script_closes_its_pipes_and_hangs(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    message, seconds = _fails(
        tmp_path,
        f"""
        import os, time
        with open({str(pid_file)!r}, "w") as handle:
            handle.write(str(os.getpid()))
        os.close(1)
        os.close(2)
        time.sleep(120)
        """,
        timeout=1.5,
    )
    assert "did not finish" in message
    assert seconds < 10
    _assert_dead(int(pid_file.read_text()))


def test_endless_output_is_capped_and_the_script_stopped(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    message, seconds = _fails(
        tmp_path,
        f"""
        import os, sys
        with open({str(pid_file)!r}, "w") as handle:
            handle.write(str(os.getpid()))
        chunk = "x" * 65536
        while True:
            sys.stdout.write(chunk)
        """,
        timeout=60,
    )
    assert f"more than {MAX_STDOUT // 1024} KiB" in message
    assert seconds < 20  # stopped by the cap, long before the timeout
    _assert_dead(int(pid_file.read_text()))


def test_output_just_under_the_cap_is_kept(tmp_path: Path) -> None:
    size = MAX_STDOUT - 10
    out = _run(tmp_path, f"import sys\nsys.stdout.write('y' * {size})\n")
    assert out == "y" * size


def test_endless_stderr_ends_at_the_timeout(tmp_path: Path) -> None:
    message, seconds = _fails(
        tmp_path,
        """
        import sys
        while True:
            sys.stderr.write("e" * 65536)
        """,
        timeout=1.5,
    )
    assert "did not finish" in message
    assert seconds < 10


def test_output_that_is_not_utf8(tmp_path: Path) -> None:
    message, _ = _fails(tmp_path, "import sys\nsys.stdout.buffer.write(b'\\xff\\xfe')\n")
    assert "not UTF-8" in message


def test_timeout_also_stops_processes_the_script_started(tmp_path: Path) -> None:
    """A runaway script's children must not outlive the build (CI would keep them running)."""
    child_pid_file = tmp_path / "child-pid"
    try:
        message, seconds = _fails(
            tmp_path,
            f"""
            import subprocess, sys, time
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
            with open({str(child_pid_file)!r}, "w") as handle:
                handle.write(str(child.pid))
            time.sleep(120)
            """,
            timeout=2,
        )
        assert "did not finish" in message
        assert seconds < 10
        child_pid = int(child_pid_file.read_text())
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and _alive(child_pid):
            time.sleep(0.1)
        assert not _alive(child_pid), "the script's child process is still running"
    finally:
        if child_pid_file.exists():
            _kill_quietly(int(child_pid_file.read_text()))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its new parent) is not running.
    try:
        status = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return status != "Z"


def _kill_quietly(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, 9)
