"""One process tree measured: wall time, CPU time and peak memory of a build and its workers.

* wall: ``time.perf_counter`` around the whole process, start to exit;
* CPU: user + system time from ``getrusage(RUSAGE_CHILDREN)``, which covers the build and every
  worker it waited for (the plugin joins its workers before it exits);
* memory: a thread samples the process tree every 20 ms from ``/proc`` (Linux): the peak of the
  summed proportional set size (PSS: a page a forked worker shares with the build counts half in
  each, so the sum is the memory the tree really holds) and, as an upper bound, the sum of every
  process's own peak RSS (``VmHWM``, kept by the kernel, shared pages counted in each process).
"""

from __future__ import annotations

import os
import resource
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SAMPLE_S = 0.02

BASELINE: list[str] = []
"""``--baseline CHECKOUT``, if given: its package comes first on PYTHONPATH for the *_b builds
(kept here, in a module both scripts import once)."""


def env_of(variant_or_case: str, env: dict[str, str]) -> dict[str, str]:
    if not (variant_or_case.endswith("_b") and BASELINE):
        return env
    return {**env, "PYTHONPATH": BASELINE[0]}


@dataclass
class Run:
    seconds: float
    cpu: float
    pss_mb: float
    """Peak of the summed PSS of the build and its workers (sampled)."""
    hwm_mb: float
    """Sum of each process's peak RSS (an upper bound: shared pages counted in each)."""
    stdout: str
    stderr: str
    returncode: int


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_bytes()
        except OSError:
            continue
        fields = stat.rpartition(b")")[2].split()
        if len(fields) > 1:
            tree.setdefault(int(fields[1]), []).append(int(name))
    return tree


def _tree(root: int) -> list[int]:
    tree = _children()
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(tree.get(pid, []))
    return found


def _kib(path: str, field: bytes) -> int | None:
    try:
        for line in Path(path).read_bytes().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


class _Sampler(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.stop = threading.Event()
        self.pss_peak = 0
        self.hwm: dict[int, int] = {}

    def run(self) -> None:
        while not self.stop.is_set():
            total = 0
            for pid in _tree(self.pid):
                pss = _kib(f"/proc/{pid}/smaps_rollup", b"Pss:")
                hwm = _kib(f"/proc/{pid}/status", b"VmHWM:")
                if pss is not None:
                    total += pss
                if hwm is not None:
                    self.hwm[pid] = max(hwm, self.hwm.get(pid, 0))
            self.pss_peak = max(self.pss_peak, total)
            self.stop.wait(SAMPLE_S)


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    sampler = _Sampler(proc.pid)
    sampler.start()
    out, err = proc.communicate()
    seconds = time.perf_counter() - start
    sampler.stop.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(
        seconds=seconds,
        cpu=cpu,
        pss_mb=sampler.pss_peak / 1024,
        hwm_mb=sum(sampler.hwm.values()) / 1024,
        stdout=out,
        stderr=err,
        returncode=proc.returncode,
    )
