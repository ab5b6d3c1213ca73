"""Real builds of the figures of the questions and heads layouts: the drafts' blocks and views
(``chart`` with ``query:``, ``context_chart``, ``separation_chart``, ``context_space``,
``mermaid``) through ``mkdocs build`` in a subprocess, and the one message of a figure that
cannot be drawn."""

from __future__ import annotations

import re
import shutil

import pytest
from reading_fixtures import HEADS_CSV, MANUAL_CSV
from sites import Site, new_site
from test_reading_build import ASSETS, _without_script, draft_block

pytestmark = pytest.mark.slow

VIEWS = """
```selfattn
use: manual
show: [chart]
query: score_pressure_hold
text: {axis_weight: attention 权重, axis_candidate: 手册行}
title: 问“泄压后要保持多久”时，每一行分到的权重
```

```selfattn
use: manual
show: [context_chart, mermaid]
text: {axis_context: 上下文, baseline: 一视同仁的 baseline, query: 问题}
```

```selfattn
use: manual
show: [chart]
```

```selfattn
use: heads
show: [separation_chart, context_space, mermaid, chart]
text: {axis_separation: head 1 与 head 2 的距离, axis_group: 场景, group: 场景}
```
"""


def _copy_data(site: Site) -> None:
    for source in (MANUAL_CSV, HEADS_CSV):
        target = site.root / ASSETS / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def _figures_page(site: Site) -> None:
    """The drafts' two defining blocks and every figure view of :data:`VIEWS` on one page."""
    _copy_data(site)
    manual = _without_script(draft_block("p5-13-1-attention.md", "manual"))
    heads = _without_script(draft_block("p5-13-3-qkv-multihead.md", "heads"))
    site.page("index.md", "# Figures\n\n" + manual + "\n" + heads + VIEWS)


@pytest.fixture(scope="module")
def figures_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    site = new_site(tmp_path_factory.mktemp("figures"), course_csv=False)
    _figures_page(site)
    done = site.run()
    assert done.returncode == 0, done.stderr
    return site


def _svgs(html: str) -> list[str]:
    return re.findall(r'<div class="selfattn-chart-box">(<svg.*?</svg>)', html, re.S)


def test_every_figure_view_is_drawn(figures_site: Site) -> None:
    html = figures_site.html()
    svgs = _svgs(html)
    assert len(svgs) == 6
    question, context, questions, separation, space, heads = svgs
    # Without query: every question (a chart drawn ahead of the page is never the other one).
    assert "-value_2_0" in questions
    assert "泄压后要保持多久？" in questions
    assert "问“泄压后要保持多久”时，每一行分到的权重" in question
    # 40 lines are more than the book's figure holds: the top 20 and "20 others".
    assert ">L10<" in question
    assert ">20 others<" in question
    assert "-value_0_20" in question  # one series: the question 'query:' names, drawn ahead
    assert "-value_1_0" not in question
    assert "泄压后要保持多久？" in context  # the question's display label
    assert ">一视同仁的<" in context  # folded onto two lines
    assert ">baseline<" in context
    # Each box holds the phone drawing after the wide one.
    assert html.count('class="selfattn-chart selfattn-chart-narrow"') == 6
    assert ">9.922<" in context
    assert ">1.14<" in separation
    assert "决定与条件分工" in separation
    assert "单 head (1.3, 0.9)" in space
    assert ">head 2<" in heads
    mermaid = re.findall(r'<pre class="mermaid"><code>(.*?)</code></pre>', html, re.S)
    # A view draws one diagram per row of at most three boxes: questions first, then heads.
    assert len(mermaid) >= 2
    questions = [m for m in mermaid if "问题:" in m]
    heads = [m for m in mermaid if "场景: " in m]
    assert len(questions) + len(heads) == len(mermaid)
    assert "泄压后要保持多久？" in questions[0]
    assert "L10 0.092" in questions[0]
    assert any("场景: 决定与条件分工" in m for m in heads)
    # Every figure's ids are its own.
    ids = re.findall(r'\bid="(sa[0-9a-f]+-[^"]+)"', "".join(svgs))
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    ("views", "message"),
    [
        ("use: manual\nshow: [context_space]", "has one (evidence_signal)"),
        ("use: manual\nshow: [chart]\nquery: score_unknown", "'score_unknown' is not a question"),
        ("use: heads\nshow: [separation_chart]\nquery: head9", "'query': 'head9' is not a head"),
    ],
)
def test_a_figure_that_cannot_be_drawn_is_one_located_message(
    tmp_path_factory: pytest.TempPathFactory, views: str, message: str
) -> None:
    site = new_site(tmp_path_factory.mktemp("figure-error"), course_csv=False)
    _copy_data(site)
    manual = _without_script(draft_block("p5-13-1-attention.md", "manual"))
    heads = _without_script(draft_block("p5-13-3-qkv-multihead.md", "heads"))
    page = "# Errors\n\n" + manual + "\n" + heads + "\n```selfattn\n" + views + "\n```\n"
    site.page("index.md", page)
    done = site.run()
    assert done.returncode != 0
    line = page[: page.rindex("```selfattn")].count("\n") + 1
    assert message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert f"docs/index.md:{line}: selfattn: " in done.stderr, done.stderr


def test_check_tests_the_figures_without_drawing_them(figures_site: Site) -> None:
    """``check`` sees every figure view (their glyphs are tested, nothing is drawn) and the page
    passes; a figure it cannot draw fails there as in the build."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    command = [sys.executable, "-m", "mkdocs_selfattn", "check", "-f"]
    done = subprocess.run(
        [*command, str(figures_site.config_file)],
        cwd=figures_site.root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=180,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    page = figures_site.docs / "index.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text + "\n```selfattn\nuse: manual\nshow: [context_space]\n```\n", "utf-8")
    try:
        failed = subprocess.run(
            [*command, str(figures_site.config_file)],
            cwd=figures_site.root,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=180,
            env=env,
            check=False,
        )
    finally:
        page.write_text(text, "utf-8")
    assert failed.returncode == 1
    assert "has one (evidence_signal)" in failed.stdout + failed.stderr


def test_figures_drawn_in_a_worker_and_in_the_build_are_the_same_bytes(
    figures_site: Site, tmp_path_factory: pytest.TempPathFactory
) -> None:
    site = new_site(
        tmp_path_factory.mktemp("figures-inline"),
        course_csv=False,
        plugin_options={"chart_workers": 0},
    )
    _copy_data(site)
    site.page("index.md", (figures_site.docs / "index.md").read_text(encoding="utf-8"))
    done = site.run()
    assert done.returncode == 0, done.stderr
    assert _svgs(site.html()) == _svgs(figures_site.html())


def test_every_figure_view_is_drawn_ahead_by_the_worker(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The look-ahead sends every figure view (with its ``query:``) to the worker, and every
    page takes what was sent: nothing is drawn twice, nothing is drawn in the build process."""
    site = new_site(tmp_path_factory.mktemp("ahead"), course_csv=False)
    _figures_page(site)
    done = site.run("-v")
    assert done.returncode == 0, done.stderr
    assert "sent 2 results and 6 charts to the worker" in done.stderr
    assert "look-ahead unclaimed: 0 results, 0 charts" in done.stderr
    assert "drew 6 charts" in done.stderr
