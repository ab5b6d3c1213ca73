"""Resource limits: whatever a page asks for, a build ends soon, within its memory, with one
located message that fails ``--strict``.

Templates (compile-time folding, arithmetic, format widths, captured text, loops over strings,
nesting, callables printed), YAML alias bombs under every key and in shared files, format widths
in every place that takes one, special files (FIFOs) named by ``csv:``, ``script:`` and ``from:``,
a view repeated by ``show:``. Each case is a real ``mkdocs build`` (strict and not) under a time and
address-space guard, with its peak memory checked (``support.check_error_case``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from .support import (
    GOOD_CSV,
    GOOD_CSV_PATH,
    ErrorCase,
    Project,
    alias_bomb,
    block,
    check_error_case,
    good_block,
)

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
        r"a captured block or macro writes more than 1,048,576 characters",
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
        _template(
            '{% for a in "x" * 30000 %}{% for b in "x" * 30000 %}{% endfor %}{% endfor %}'
        ),
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
                "bomb:\n"
                f"  csv: data/good.csv\n  queries: {{a: score, b: {_BOMB}}}\n"
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
