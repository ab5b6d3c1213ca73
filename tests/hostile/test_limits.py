"""Resource limits: whatever a page asks for, a build ends soon, within its memory, with one
located message that fails ``--strict``.

Templates (compile-time folding, arithmetic, format widths, captured text, loops over strings,
nesting, callables printed), YAML alias bombs under every key and in shared files, format widths
in every place that takes one, special files (FIFOs) named by ``csv:``, ``script:`` and ``from:``,
a view repeated by ``show:``. Each case is a real ``mkdocs build`` (strict and not) under a time and
address-space guard, with its peak memory checked (``support.check_error_case``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from .support import (
    GOOD_CSV,
    GOOD_CSV_PATH,
    ErrorCase,
    Finished,
    Project,
    Running,
    alias_bomb,
    ascii_csv,
    block,
    check_error_case,
    good_block,
    kill_group,
)
from .test_serve import free_port

GOOD = "csv: /data/good.csv\ndocument: memo_cap_missing\n"
SECONDS = 60.0
"""A case may take this long (the builds themselves take a few seconds); on the old code the
hanging ones are killed here."""
RSS_MIB = 900
"""Peak memory of a build: a healthy one stays near 200 MiB; the old code reached 2-3 GiB."""

_BOMB, _ALIAS = alias_bomb()
_MAP_BOMB, _MAP_ALIAS = alias_bomb(mapping=True)


def _template(text: str) -> str:
    """A block whose ``template:`` (marked #HERE) is ``text``, a YAML double-quoted string."""
    quoted = text.replace("\\", "\\\\").replace('"', '\\"')
    return block(GOOD + f'template: "{quoted}"  #HERE\nshow: [output]')


def _case(case_id: str, chunk: str, message: str, **options: object) -> ErrorCase:
    settings: dict[str, object] = {"max_seconds": SECONDS, "max_rss_mib": RSS_MIB}
    settings.update(options)
    return ErrorCase(case_id, chunk, message, **settings)  # type: ignore[arg-type]


def _fifo(relative: str) -> Callable[[Project], None]:
    def make(project: Project) -> None:
        path = project.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)

    return make


TEMPLATES = [
    _case(
        "power-folded-while-compiling",
        _template("{{ (9 ** (9 ** 9)) % 7 }}"),
        r"template line 1 .*the power has more than 4,096 bits",
    ),
    _case(
        "repeated-text",
        _template('{{ "x" * 3000000000 }}'),
        r"the repeated text or list would be longer than",
    ),
    _case(
        "percent-width",
        _template('{{ "%2500000000d" | format(1) }}'),
        r"'%2500000000d' asks for more than 100 characters or digits",
    ),
    _case(
        "percent-operator-star-width",
        _template('{{ "%*d" % (2500000000, 1) }}'),
        r"a width or precision taken from the arguments",
    ),
    _case(
        "str-format-width",
        _template('{{ "{:>300000000}".format(1) }}'),
        r"format spec '>300000000' asks for more than 100",
    ),
    _case(
        "ljust-width",
        _template('{{ "a".ljust(300000000) }}'),
        r"ljust\(300000000\) is wider than 100",
    ),
    _case(
        "center-filter-width",
        _template('{{ "a" | center(300000000) }}'),
        r"center\(300000000\) is wider than 100",
    ),
    _case(
        "captured-text",
        _template(
            "{% set a %}{% for i in range(1000000) %}"
            + "x" * 3000
            + "{% endfor %}{% endset %}{{ a | length }}"
        ),
        r"a captured block or macro writes more than 16,777,216 characters",
    ),
    _case(
        "doubling-a-namespace-text",
        _template(
            '{% set ns = namespace(s="x") %}{% for i in range(64) %}'
            "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}"
        ),
        r"the joined text \('~'\) would be longer than",
    ),
    _case(
        "replace-grows-text",
        _template('{{ ("x" * 1000000) | replace("x", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx") }}'),
        r"the replaced text would be longer than",
    ),
    _case(
        "join-of-repeated-references",
        _template('{{ (["x" * 1000000] * 1000) | join }}'),
        r"would be longer than|builds more than",
    ),
    _case(
        "loops-over-strings",
        _template('{% for a in "x" * 30000 %}{% for b in "x" * 30000 %}{% endfor %}{% endfor %}'),
        r"the template reads more than 20,000,000 items",
    ),
    _case(
        "macro-calls-doubling",
        _template(
            "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
            "{{ f(60) }}"
        ),
        r"the template reads more than 20,000,000 items",
        max_seconds=150,
    ),
    _case(
        "nested-parentheses",
        _template("{{ " + "(" * 80 + "1" + ")" * 80 + " }}"),
        r"brackets nested more than 30 deep",
    ),
    _case(
        "chained-operators",
        _template("{{ " + "+".join(["1"] * 3000) + " }}"),
        r"nested or chained too deeply",
    ),
    _case(
        "printed-method",
        _template("{% for t in targets %}{{ t.groups.items }}{% endfor %}"),
        r"'items' is a method or function, not a value; call it: items\(\)",
    ),
    _case(
        "printed-generator",
        _template("{{ targets | map(attribute='token') }}"),
        r"a sequence read one item at a time .* add \| list",
    ),
    _case(
        "sum-of-lists",
        _template("{{ [[1]] * 1000000 | sum(start=[]) }}"),
        r"sum adds numbers",
    ),
]

YAML = [
    _case(
        "alias-bomb-in-queries",
        block(f"csv: /data/good.csv\nqueries: {{a: score, b: {_BOMB}}}  #HERE"),
        r"'queries': the YAML holds more than 100,000 values once its aliases",
    ),
    _case(
        "alias-bomb-in-heads",
        block(f"csv: /data/good.csv\nheads: {{a: score, b: {_MAP_BOMB}}}  #HERE"),
        r"'heads': the YAML holds more than 100,000 values once its aliases",
    ),
    _case(
        "alias-bomb-in-a-shared-file",
        block("use: bomb\nfrom: /shared.yml  #HERE\nshow: [table]"),
        r"docs/shared.yml:1: 'bomb': the YAML holds more than 100,000 values",
        files={
            "docs/shared.yml": (
                f"bomb:\n  csv: data/good.csv\n  queries: {{a: score, b: {_BOMB}}}\n"
            )
        },
        at=None,
    ),
]

WIDTHS = [
    _case(
        "block-number-format-width",
        block(GOOD + 'number_format: ">100000000"  #HERE\nshow: [table]'),
        r"'number_format': '>100000000' asks for more than 100 characters or digits",
    ),
    _case(
        "show-repeats-a-view",
        block(GOOD + "show: [output, table, output]  #HERE"),
        r"'show': 'output' is listed twice",
    ),
]

SPECIAL_FILES = [
    _case(
        "csv-is-a-fifo",
        block("csv: ../pipes/pipe.csv  #HERE\ndocument: memo_cap_missing\nshow: [table]"),
        r"pipes/pipe.csv: cannot be read \(it is a named pipe \(FIFO\), not a regular file\)",
        setup=_fifo("pipes/pipe.csv"),
    ),
    _case(
        "script-is-a-fifo",
        block(GOOD + "script: ../pipes/pipe.py  #HERE\nshow: [output]"),
        r"pipes/pipe.py: cannot be read \(it is a named pipe \(FIFO\)",
        setup=_fifo("pipes/pipe.py"),
    ),
    _case(
        "shared-file-is-a-fifo",
        block("use: memo\nfrom: ../pipes/pipe.yml  #HERE\nshow: [table]"),
        r"pipes/pipe.yml: cannot be read \(it is a named pipe \(FIFO\)",
        setup=_fifo("pipes/pipe.yml"),
        at=None,
    ),
]

CASES = TEMPLATES + YAML + WIDTHS + SPECIAL_FILES


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_limit_is_one_located_message(tmp_path: Path, case: ErrorCase) -> None:
    check_error_case(tmp_path, case)


def test_template_cases_hold_the_template_as_written() -> None:
    import yaml

    text = '{{ "%5d\\n" | format(1) }}'
    body = _template(text).split("\n")[1:-2]
    assert yaml.safe_load("\n".join(body))["template"] == text


@pytest.mark.slow
def test_inline_format_width_is_refused_before_formatting(tmp_path: Path) -> None:
    """``:>200000000`` allocated 200 MB per value (and a page of them, gigabytes)."""
    project = Project(tmp_path, {"chart_workers": 0})
    project.write(GOOD_CSV_PATH, GOOD_CSV)
    values = " ".join("`{selfattn} memo weight 그것 절연캡 :>200000000`" for _ in range(20))
    text = "# Home\n\n" + good_block("memo") + "\n" + values + "\n"
    project.page("index.md", text)
    project.configure()
    build = project.build(strict=True, timeout=SECONDS)
    assert not build.run.timed_out, build.describe()
    assert build.run.maxrss_kib < RSS_MIB * 1024, f"{build.run.maxrss_kib // 1024} MiB"
    assert build.returncode != 0
    reports = build.problems()
    assert reports, build.describe()
    line = text.split("\n").index(values) + 1
    assert all(p.page == "docs/index.md" and p.line == line for p in reports), reports
    assert "':>200000000' asks for more than 100 characters or digits" in reports[0].message


# ---------------------------------------------------------------------------------------------
# The command line: special files and file content written to a terminal


def _command(cwd: Path, *args: str) -> Finished:
    command = [sys.executable, "-m", "mkdocs_selfattn", *args]
    return Running(command, cwd=cwd, timeout=SECONDS, memory_limit=2 * 1024**3).wait()


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_inspect_refuses_what_is_not_a_regular_file(tmp_path: Path, special: str) -> None:
    """A FIFO blocked ``inspect`` forever; ``/dev/zero`` was read until memory ran out."""
    path = special
    if special == "fifo":
        os.mkfifo(tmp_path / "pipe.csv")
        path = "pipe.csv"
    run = _command(tmp_path, "inspect", path)
    assert not run.timed_out, "inspect did not end"
    assert run.returncode == 1
    assert f"{path}: cannot be read (it is a " in run.stderr
    assert "not a regular file" in run.stderr
    assert "Traceback" not in run.output


def test_inspect_escapes_control_characters_from_the_csv(tmp_path: Path) -> None:
    """A token with an escape sequence recoloured the terminal; one with a newline wrote a line
    that looked like the build's own ``WARNING -``."""
    forged = "WARNING -  Doc file 'x.md' contains a forged line"
    rows = [
        "document_id,target_token,candidate_token,candidate_role,a,score",
        "d1,it,red\x1b[31mtext\x1b]0;title\x07,r,0.1,1",
        f'd1,it,"cap\n{forged}",r,0.2,2',
        "d1,it,it,current_token,0.3,0.5",
    ]
    (tmp_path / "data.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    # Names with control characters are refused (issue 25, class 1); the refusal itself quotes the
    # name, and must neither colour the terminal nor start a line of its own.
    for args in (("inspect", "data.csv"), ("run", "data.csv", "--document", "d1")):
        run = _command(tmp_path, *args)
        assert run.returncode != 0, run.output
        assert "\x1b" not in run.output
        assert "\x07" not in run.output
        assert not any(line.startswith("WARNING") for line in run.output.splitlines())
        assert "<U+001B>" in run.output


# ---------------------------------------------------------------------------------------------
# mkdocs serve stopped by a signal


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_serve_stopped_by_a_signal_releases_its_semaphores(
    tmp_path: Path, signum: signal.Signals
) -> None:
    """SIGTERM ended ``serve`` before its worker pool was shut down: the resource tracker then
    printed "There appear to be 5 leaked semaphore objects"."""
    project = Project(tmp_path, {"chart_workers": 1, "cache_dir": ".cache/s"})
    project.write(GOOD_CSV_PATH, ascii_csv())
    project.page("index.md", "# Home\n\n" + good_block("home", targets="[it]", show="[chart]"))
    project.configure()
    port = free_port()
    command = [sys.executable, "-m", "mkdocs", "serve", "-f", str(project.root / "mkdocs.yml")]
    server = Running([*command, "-a", f"127.0.0.1:{port}"], cwd=project.root, timeout=240)
    try:
        deadline = time.monotonic() + 180
        served = False
        while not served and time.monotonic() < deadline:
            assert server.process.poll() is None, "serve ended before serving"
            url = f"http://127.0.0.1:{port}/"
            with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=5) as page:
                served = b"<svg" in page.read()
            time.sleep(0.3)
        assert served, "the chart page was not served"
        os.kill(server.pid, signum)
        stopped = time.monotonic()
        run = server.wait()
    finally:
        kill_group(server.pid)
    assert not run.timed_out, "serve did not end after the signal"
    assert run.seconds - (stopped - server.started) < 30, "serve took long to end"
    assert "leaked semaphore" not in run.stderr, run.stderr[-2000:]
    assert "Traceback" not in run.stderr, run.stderr[-2000:]


# ---------------------------------------------------------------------------------------------
# Generated templates

FUZZ = r"""
import sys
from hypothesis import HealthCheck, given, settings, strategies as st
from mkdocs_selfattn.render.template_env import MAX_OUTPUT, TemplateError, fill

BIG = st.sampled_from([0, 1, 3, 100, 101, 4096, 70000, 10**6, 3 * 10**9, 9**9])
TEXT = st.sampled_from(['"x"', '"%s"', '"ab\\n"', "s", "xs", "words"])


@st.composite
def value(draw, depth=0):
    if depth > 3 or draw(st.booleans()):
        return draw(st.one_of(TEXT, BIG.map(str), st.just("[s] * 3")))
    inner = draw(value(depth + 1))
    n = draw(BIG)
    return draw(st.sampled_from([
        f"({inner} * {n})", f"({n} ** {draw(BIG)})", f"({inner} ~ {inner})",
        f"({inner} + {inner})", f'("%{n}d" % {n})', f'("%{n}s" | format({inner}))',
        f'"{{:>{n}}}".format({inner})', f"({inner} | center({n}))",
        f'({inner} | string | replace("x", {inner} | string))', f"([{inner}] * {n} | join)",
        f'({inner} | string).ljust({n})', f"({inner} | indent({n}))",
        f"({inner} | tojson({n}))", f"(range({n}) | list)", f"({inner} | wordwrap(2))",
        f"({inner} | slice({n}) | list)", f"({inner} | batch(1) | list)",
        f"({inner} | string | list)", f"({inner} | pprint)", f"s.items",
        "(" * n if n < 200 else "(1",
    ]))


@st.composite
def template(draw):
    expr = draw(value())
    n = draw(BIG)
    return draw(st.sampled_from([
        "{{ " + expr + " }}",
        "{% for a in " + expr + " %}{% for b in " + expr + " %}{{ a }}{% endfor %}{% endfor %}",
        "{% set c %}{% for i in range(" + str(n) + ") %}{{ " + expr + " }}{% endfor %}{% endset %}"
        "{{ c | length }}",
        '{% set ns = namespace(v="x") %}{% for i in range(' + str(n) + ") %}"
        "{% set ns.v = ns.v ~ " + expr + " %}{% endfor %}{{ ns.v | length }}",
        "{% macro f(k) %}{% if k %}{{ f(k - 1) }}{{ f(k - 1) }}{% endif %}{{ " + expr
        + " }}{% endmacro %}{{ f(" + str(min(n, 40)) + ") }}",
    ]))


@settings(max_examples=int(sys.argv[1]), deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(template())
def check(text):
    try:
        out = fill(text, {"s": "abc", "xs": [1, 2, 3], "words": ["a", "b"]}, line=3)
    except TemplateError as exc:
        assert exc.line == 3 and len(exc.message) < 2000, exc.message
    else:
        assert len(out) <= MAX_OUTPUT


check()
print("all generated templates ended")
"""


@pytest.mark.slow
def test_generated_templates_end_with_a_printout_or_a_message(tmp_path: Path) -> None:
    """Compositions of the constructs that grow (powers, repeats, widths, captures, joins,
    loops, recursion) either print at most MAX_OUTPUT characters or fail with one message, in
    bounded time and memory (a process of its own, under an address-space limit)."""
    script = tmp_path / "fuzz.py"
    script.write_text(FUZZ, encoding="utf-8")
    run = Running(
        [sys.executable, str(script), "120"],
        cwd=tmp_path,
        timeout=600,
        memory_limit=2 * 1024**3,
    ).wait()
    assert not run.timed_out, f"the generated templates did not end:\n{run.output[-3000:]}"
    assert run.returncode == 0, run.output[-3000:]
    assert "all generated templates ended" in run.stdout
