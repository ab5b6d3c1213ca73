"""Build time of the trilingual demo (zh, ko, en; mkdocs-static-i18n) with and without the plugin.

    python bench/bench_i18n.py              # 3 rounds
    python bench/bench_i18n.py --runs 5

The repository's own site (mkdocs.yml and docs/) is copied twice under bench/out/i18n/:

* plain:  the same site without the plugin (``selfattn`` dropped from ``plugins``, the
          ``mkdocs_selfattn`` extension from ``markdown_extensions``): blocks stay inert fences;
* plugin: the site as it is.

Each round builds, in an order that alternates between rounds: plain; cold (plugin, its cache
folder deleted first); warm (plugin again, nothing changed). Every build is a fresh
``python -m mkdocs build -q`` process, started after ``os.sync()`` and a one-second pause, timed
around the whole process. One untimed build of each variant runs first (OS file cache, bytecode).
The report gives the median of each and the ratios to plain, measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "i18n"


def copy_site(name: str, plugin: bool) -> Path:
    root = OUT / name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    shutil.copytree(ROOT / "docs", root / "docs")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    if not plugin:
        for line in ("  - selfattn\n", "  - mkdocs_selfattn\n"):
            assert line in config, f"{line!r} is not in mkdocs.yml"
            config = config.replace(line, "", 1)
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return root


def build(root: Path, quiet: bool = True) -> float:
    os.sync()
    time.sleep(1.0)
    site = root / "site"
    shutil.rmtree(site, ignore_errors=True)
    command = [sys.executable, "-m", "mkdocs", "build", "-f", str(root / "mkdocs.yml")]
    command += ["-d", str(site)] + (["-q"] if quiet else [])
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    started = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"build of {root} failed:\n{done.stderr}")
    pages = list(site.rglob("index.html"))
    assert any("/ko/" in p.as_posix() for p in pages), "no Korean pages were built"
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    plain, plugin = copy_site("plain", plugin=False), copy_site("plugin", plugin=True)
    cache = plugin / ".cache" / "selfattn"
    build(plain, quiet=False)
    build(plugin, quiet=False)
    samples: dict[str, list[float]] = {"plain": [], "cold": [], "warm": []}
    for n in range(args.runs):
        units = ["plain", "plugin"] if n % 2 == 0 else ["plugin", "plain"]
        for unit in units:
            if unit == "plain":
                samples["plain"].append(build(plain))
            else:
                shutil.rmtree(cache, ignore_errors=True)
                samples["cold"].append(build(plugin))
                samples["warm"].append(build(plugin))
    median = {k: statistics.median(v) for k, v in samples.items()}
    print(f"trilingual demo (zh, ko, en), {args.runs} rounds, median wall time of a build:")
    for name in ("plain", "cold", "warm"):
        ratio = median[name] / median["plain"]
        runs = ", ".join(f"{s:.2f}" for s in samples[name])
        print(f"  {name:5}  {median[name]:6.2f} s   ×{ratio:4.2f} of plain   ({runs})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
