"""The leader of an example script's session: it ends the whole session when the build ends.

A script runs in a session of its own, so that a timeout can stop everything it started; but
then nothing ties it to the build, and a build killed with SIGKILL (a CI cancellation) would
leave the script and its children running. This process sits between the build and the script.
On Linux the kernel sends it SIGTERM when the build dies (``PR_SET_PDEATHSIG``); everywhere a
thread also checks its parent twice a second. On SIGTERM, SIGHUP or SIGINT it kills its process
group, which holds the script and whatever the script started (unless that left the group). It
ends with the script's own status, so the build reads the same exit code or signal.

Run as a file by its path, ``python -I -S script_guard.py BUILD_PID SCRIPT``, so it starts fast
and imports nothing but the standard library (the package may not be on that Python's path).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from types import FrameType

PR_SET_PDEATHSIG = 1


def _end_group(signum: int = signal.SIGTERM, frame: FrameType | None = None) -> None:
    os.killpg(0, signal.SIGKILL)  # this process included


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    _end_group()


def _die_with(parent: int) -> None:
    if sys.platform == "linux":
        import ctypes

        with contextlib.suppress(OSError, AttributeError):  # no prctl: the watch remains
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the build died before the request above took effect
        _end_group()


def main(argv: list[str]) -> int:
    parent, script = int(argv[1]), argv[2]
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, _end_group)
    _die_with(parent)
    # Python ignores SIGPIPE and SIGXFSZ; the script starts with the defaults, as under Popen.
    defaults = [getattr(signal, name) for name in ("SIGPIPE", "SIGXFSZ") if hasattr(signal, name)]
    pid = os.posix_spawn(sys.executable, [sys.executable, script], os.environ, setsigdef=defaults)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # ended by a signal: end by the same one, without a core file of our own
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        with contextlib.suppress(OSError, ValueError):  # SIGKILL keeps its default anyway
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        return 128 - code
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
