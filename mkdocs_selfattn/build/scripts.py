"""Run an example script the way a reader would, bounded in time and output.

The script's real stdout is what the ``output`` view shows, so the code on the page and the
numbers on the page cannot drift apart. A runaway script is killed at the timeout and its output
capped, so a student's pull request cannot hang CI or exhaust its memory. The script runs under
a small guard process (``script_guard.py``) that ends the script's session when the build ends,
however it ends: a build stopped by CI leaves no script running.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from mkdocs_selfattn.errors import ScriptError

MAX_STDOUT = 1024 * 1024
MAX_STDERR = 16 * 1024
"""Bytes of stderr kept: the last ones, where a traceback ends."""
MAX_DETAIL = 2000
"""Characters of stderr's tail quoted in the error message."""
GUARD = Path(__file__).resolve().with_name("script_guard.py")


@dataclass(frozen=True)
class ScriptRun:
    stdout: str
    seconds: float


def run_script(
    path: Path, *, cwd: Path, timeout: float, display: str, language: str | None = None
) -> ScriptRun:
    """Run ``path`` with this Python; raise :class:`ScriptError` with stderr's tail on failure.

    ``language`` (the page's) is passed as ``SELFATTN_LANG``, so that one script can print the
    labels of every language its page is published in.
    """
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "SELFATTN_LANG"
    }
    env.update({"PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1", "PYTHONHASHSEED": "0"})
    if language:
        env["SELFATTN_LANG"] = language
    started = time.monotonic()
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-S", str(GUARD), str(os.getpid()), str(path)],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            # Its own process group, so a timeout also stops whatever the script started.
            start_new_session=True,
        )
    except OSError as exc:
        raise ScriptError(
            f"script {display} could not be started ({exc.strerror or exc})"
        ) from None
    try:
        stdout, stderr, status = _collect(process, started + timeout)
    except BaseException:  # KeyboardInterrupt in the build: the script goes first
        _kill_group(process)
        raise
    seconds = time.monotonic() - started
    if status == "timeout":
        raise ScriptError(
            f"script {display} did not finish within {timeout:g} s and was stopped; "
            "make it faster or raise 'script_timeout'"
        )
    if status == "overflow":
        raise ScriptError(
            f"script {display} printed more than {MAX_STDOUT // 1024} KiB and was stopped; "
            "an example should print a short result"
        )
    if process.returncode != 0:
        raise ScriptError(
            f"script {display} exited with status {process.returncode}: {_stderr_tail(stderr)}"
        )
    try:
        text = stdout.decode("utf-8")
    except UnicodeDecodeError:
        raise ScriptError(f"script {display} printed bytes that are not UTF-8") from None
    return ScriptRun(text.replace("\r\n", "\n"), seconds)


def _collect(process: subprocess.Popen[bytes], deadline: float) -> tuple[bytes, bytes, str]:
    """Read both pipes until exit, the deadline, or too much output; kill on the last two."""
    assert process.stdout is not None
    assert process.stderr is not None
    out, err = bytearray(), bytearray()
    status = "ok"
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, out)
        selector.register(process.stderr, selectors.EVENT_READ, err)
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                status = "timeout"
                break
            for key, _ in selector.select(timeout=min(remaining, 0.5)):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                buffer: bytearray = key.data
                if buffer is out and len(out) + len(chunk) > MAX_STDOUT:
                    status = "overflow"
                if buffer is out:
                    out.extend(chunk[: max(0, MAX_STDOUT - len(out))])
                else:  # keep the end: a traceback comes last, after whatever was logged
                    err.extend(chunk)
                    del err[:-MAX_STDERR]
            if status == "overflow":
                break
    if status != "ok":
        _kill_group(process)
    try:
        process.wait(timeout=max(0.1, deadline - time.monotonic()) if status == "ok" else 5)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        process.wait()
        status = "timeout"
    # Anything the script left running in the background goes too: a build leaves nothing behind.
    _kill_group(process)
    process.stdout.close()
    process.stderr.close()
    return bytes(out), bytes(err), status


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        if process.poll() is None:
            process.kill()


def _stderr_tail(stderr: bytes) -> str:
    """The last lines of stderr on one line: the traceback's end names the error."""
    lines = stderr.decode("utf-8", "replace").strip().splitlines()[-6:]
    if not lines:
        return "no error output"
    detail = " | ".join(line.strip() for line in lines)
    return detail if len(detail) <= MAX_DETAIL else "…" + detail[-MAX_DETAIL:]
