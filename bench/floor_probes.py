"""The two probes of ``bench_floor.py``, each run as a fresh process of its own.

    python bench/floor_probes.py first-code mkdocs build -q -f SITE/mkdocs.yml -d OUT
        runs MkDocs and prints, as JSON, how long after this process started Python began to
        import the plugin: the earliest moment any code of the plugin can run;
    python bench/floor_probes.py worker CHAPTER.md CSV
        does what a worker must do for one edited chapter, step by step, in a fresh interpreter
        (numpy; matplotlib as the worker imports it; the result; the chart; more charts) and
        prints each step's time and the memory the process gained.

Neither changes what it measures: the import hook only notes the time and declines to load
anything, and the worker probe calls the plugin's own job functions.
"""

from __future__ import annotations

import json
import runpy
import statistics
import sys
import time
from pathlib import Path

START = time.perf_counter()


def memory_kb() -> dict[str, int]:
    found: dict[str, int] = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("Rss", "Pss", "Private_Dirty", "Private_Clean"):
            found[name] = int(rest.split()[0])
    return found


class _Notice:
    """A meta path finder that notes when the plugin's module is first asked for."""

    seen: float | None = None

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "mkdocs_selfattn" and self.seen is None:
            self.seen = time.perf_counter()


def first_code(argv: list[str]) -> None:
    notice = _Notice()
    sys.meta_path.insert(0, notice)  # type: ignore[arg-type]
    sys.argv = argv
    code = 0
    try:
        runpy.run_module("mkdocs", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = int(exc.code or 0)
    seen = -1.0 if notice.seen is None else notice.seen - START
    sys.stdout.write(
        "\n" + json.dumps({"plugin_import_s": seen, "end_s": time.perf_counter() - START})
    )
    sys.exit(code)


def worker(page: Path, csv: Path) -> None:
    before = memory_kb()
    from mkdocs_selfattn.blocks.markdown_scan import find_blocks
    from mkdocs_selfattn.blocks.spec import parse_block
    from mkdocs_selfattn.build import jobs
    from mkdocs_selfattn.build.pipeline import result_key
    from mkdocs_selfattn.build.settings import pipeline_settings

    spec = parse_block(next(iter(find_blocks(page.read_text(encoding="utf-8"))))).example
    assert spec is not None
    settings = pipeline_settings({})
    data = csv.read_bytes()

    def chart_request(salt: str) -> jobs.ChartRequest:
        compute = jobs.ComputeRequest.of(result_key(spec, data) + salt, spec, data, str(csv))
        return jobs.ChartRequest(compute, settings.chart, settings.number_format, (), None)

    steps: dict[str, float] = {}
    rss: dict[str, float] = {}
    t = time.perf_counter()
    import numpy  # noqa: F401

    steps["import numpy"] = time.perf_counter() - t
    rss["import numpy"] = (memory_kb()["Rss"] - before["Rss"]) / 1024
    t = time.perf_counter()
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib import font_manager
    from matplotlib.backends import backend_svg  # noqa: F401
    from matplotlib.figure import Figure  # noqa: F401

    font_manager.findfont("DejaVu Sans")
    steps["import matplotlib"] = time.perf_counter() - t
    rss["import matplotlib"] = (memory_kb()["Rss"] - before["Rss"]) / 1024
    first = chart_request("")
    t = time.perf_counter()
    jobs.compute_payload(first.compute)
    steps["first result (with its imports)"] = time.perf_counter() - t
    rss["first result (with its imports)"] = (memory_kb()["Rss"] - before["Rss"]) / 1024
    t = time.perf_counter()
    jobs.draw_chart(first)
    steps["first chart (with its imports)"] = time.perf_counter() - t
    rss["first chart (with its imports)"] = (memory_kb()["Rss"] - before["Rss"]) / 1024
    more = []
    for i in range(7):
        request = chart_request(f"#{i}")
        t = time.perf_counter()
        jobs.compute_payload(request.compute)
        jobs.draw_chart(request)
        more.append(time.perf_counter() - t)
    steps["each further result + chart"] = statistics.median(more)
    after = memory_kb()
    gained = {name: (after[name] - before.get(name, 0)) / 1024 for name in after}
    print(json.dumps({"steps": steps, "gained_mb": gained, "rss_after_mb": rss}))


if __name__ == "__main__":
    if sys.argv[1] == "first-code":
        first_code(["mkdocs", *sys.argv[3:]])
    else:
        worker(Path(sys.argv[2]), Path(sys.argv[3]))
