"""Broken block bodies: every one fails alone, on its own line, with a message that says what to do.

Each case is a chunk of ``docs/bad.md`` in a three-page site (see ``support.check_error_case``):
``--strict`` must fail, the non-strict build must write every page, show the error in an
admonition on the broken page and still render the good example after it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .support import ErrorCase, Project, alias_bomb, block, check_error_case, chunk_line, good_block

GOOD = "csv: /data/good.csv\ndocument: memo_cap_missing\n"

_DUP_KEY = block(
    "csv: /data/good.csv  #FIRST\ndocument: memo_cap_missing\ncsv: /data/other.csv  #HERE"
)
_DUP_ID = (
    good_block("dup")
    + "\n"
    + block("id: dup  #HERE\ncsv: /data/good.csv\ndocument: memo_cap_missing\nshow: [table]")
)
_USE_LATER = block("use: later\nshow: [table]", info="selfattn #HERE") + "\n" + good_block("later")
_LIST_BOMB, _LIST_ALIAS = alias_bomb()
_MAP_BOMB, _MAP_ALIAS = alias_bomb(mapping=True)


def _no_marker_file(project: Project, build: object, failures: list[str]) -> None:
    if (project.root / "PWNED").exists():
        failures.append("a YAML tag ran a command: PWNED was created")


CASES = [
    # -- malformed YAML ---------------------------------------------------------------------
    ErrorCase(
        "malformed-unclosed-flow",
        block("csv: [unclosed\ndocument: memo_cap_missing"),
        r"invalid YAML",
        at=None,
    ),
    ErrorCase(
        "malformed-unterminated-quote",
        block('csv: /data/good.csv\ndocument: "open'),
        r"invalid YAML",
        at=None,
    ),
    ErrorCase(
        "malformed-bad-indent",
        block("csv: /data/good.csv\n  document: memo_cap_missing  #HERE"),
        r"invalid YAML: mapping values are not allowed",
    ),
    ErrorCase(
        "malformed-tab-indent",
        block("csv: /data/good.csv\ndocument:\n\t- memo_cap_missing  #HERE"),
        r"invalid YAML",
    ),
    ErrorCase(
        "not-a-mapping-list",
        block("- csv\n- document", info="selfattn #HERE"),
        r"must be a YAML mapping",
    ),
    ErrorCase(
        "not-a-mapping-scalar",
        block("just some words", info="selfattn #HERE"),
        r"must be a YAML mapping",
    ),
    ErrorCase(
        "python-tag-refused",
        block(GOOD + "title: !!python/object/apply:os.system ['touch PWNED']  #HERE"),
        r"invalid YAML: could not determine a constructor",
        extra_check=_no_marker_file,
    ),
    ErrorCase(
        "complex-mapping-key",
        block("? [a, b]  #HERE\n: x\n" + GOOD),
        r"(?i)(invalid YAML|key)",
        at=None,
    ),
    # -- empty blocks -----------------------------------------------------------------------
    ErrorCase("empty", "```selfattn #HERE\n```\n", r"the block is empty"),
    ErrorCase("blank-lines", "```selfattn #HERE\n   \n\t\n```\n", r"the block is empty"),
    ErrorCase(
        "only-a-comment",
        "```selfattn #HERE\n# nothing here\n```\n",
        r"the block is empty|must be a YAML mapping",
    ),
    ErrorCase("yaml-null", "```selfattn #HERE\n~\n```\n", r"must be a YAML mapping"),
    ErrorCase(
        "missing-document",
        block("csv: /data/good.csv", info="selfattn #HERE"),
        r"missing key 'document:'",
    ),
    # -- wrong types ------------------------------------------------------------------------
    ErrorCase(
        "targets-string",
        block(GOOD + "targets: 그것  #HERE"),
        r"'targets': expected a list such as \[그것\]",
    ),
    ErrorCase(
        "vectors-string",
        block(GOOD + "vectors: evidence_pack  #HERE"),
        r"'vectors': expected a list such as \[evidence_pack\]",
    ),
    ErrorCase("show-number", block(GOOD + "show: 5  #HERE"), r"'show': expected a list of views"),
    ErrorCase("top-text", block(GOOD + "top: three  #HERE"), r"'top': expected a whole number"),
    ErrorCase("top-zero", block(GOOD + "top: 0  #HERE"), r"'top': expected a whole number ≥ 1"),
    ErrorCase(
        "top-huge-integer",
        block(GOOD + "top: 1" + "0" * 5000 + "  #HERE"),
        r"'top'|invalid YAML",
    ),
    ErrorCase(
        "temperature-text",
        block(GOOD + "temperature: hot  #HERE"),
        r"'temperature': expected a number, got text",
    ),
    ErrorCase(
        "temperature-zero",
        block(GOOD + "temperature: 0  #HERE"),
        r"'temperature': must be a finite number greater than 0",
    ),
    ErrorCase(
        "temperature-nan",
        block(GOOD + "temperature: .nan  #HERE"),
        r"'temperature': must be a finite number greater than 0",
    ),
    ErrorCase(
        "display-list",
        block(GOOD + "display: [a, b]  #HERE"),
        r"'display': expected a mapping",
    ),
    ErrorCase(
        "columns-list",
        block(GOOD + "columns: [document_id]  #HERE"),
        r"'columns': expected a mapping",
    ),
    ErrorCase(
        "groups-member-string",
        block(GOOD + "groups: {g: 절연캡}  #HERE"),
        r"'groups': group 'g' needs a list of candidate tokens",
    ),
    ErrorCase(
        "csv-list",
        block("csv: [a.csv, b.csv]  #HERE\ndocument: memo_cap_missing"),
        r"'csv': expected a file path, got a list",
    ),
    ErrorCase(
        "document-number",
        block("csv: /data/good.csv\ndocument: 123  #HERE"),
        r"'document': expected a text value, got a number 123 \(YAML reads .*quote it\)",
    ),
    ErrorCase(
        "document-yes",
        block("csv: /data/good.csv\ndocument: yes  #HERE"),
        r"'document': expected a text value, got a boolean True .*quote it",
    ),
    ErrorCase(
        "id-with-space",
        block("id: has space  #HERE\n" + GOOD),
        r"'id': 'has space' is not a simple name",
    ),
    ErrorCase(
        "number-format-invalid",
        block(GOOD + 'number_format: "%q"  #HERE'),
        r"'number_format': '%q' is not a format spec",
    ),
    # -- unknown keys -----------------------------------------------------------------------
    ErrorCase(
        "unknown-key-did-you-mean",
        block(GOOD + "targts: [그것]  #HERE"),
        r"unknown key 'targts'; did you mean 'targets'\?",
    ),
    ErrorCase(
        "unknown-key-no-match",
        block(GOOD + "xyzzy: red  #HERE"),
        r"unknown key 'xyzzy'; keys: use, id, csv, document",
    ),
    ErrorCase(
        "unknown-view-did-you-mean",
        block(GOOD + "show: [tabel]  #HERE"),
        r"'show': unknown view 'tabel'; did you mean 'table'\?",
    ),
    ErrorCase(
        "unknown-text-key-did-you-mean",
        block(GOOD + "text: {axis_weigth: w}  #HERE"),
        r"unknown text key 'axis_weigth'; did you mean 'axis_weight'\?",
    ),
    ErrorCase(
        "unknown-column-role-did-you-mean",
        block(GOOD + "columns: {documnt: document_id}  #HERE"),
        r"documnt.*did you mean 'document'\?",
    ),
    ErrorCase(
        "unknown-key-in-use-block",
        good_block("base") + "\n" + block("use: base\nshwo: [table]  #HERE"),
        r"unknown key 'shwo'; did you mean 'show'\?",
    ),
    # -- duplicates -------------------------------------------------------------------------
    ErrorCase(
        "duplicate-key",
        _DUP_KEY,
        # If the message points at the first occurrence, it must use the page's line number.
        rf"duplicate key 'csv'(?!.*first on line (?!{chunk_line(_DUP_KEY, '#FIRST')}\b))",
    ),
    ErrorCase(
        "duplicate-id",
        _DUP_ID,
        r"id 'dup' is already used by a block above",
    ),
    # -- use --------------------------------------------------------------------------------
    ErrorCase(
        "use-defined-later",
        _USE_LATER,
        rf"'use: later' comes before the block that defines it \(line "
        rf"{chunk_line(_USE_LATER, '```selfattn', 2)}\)",
    ),
    ErrorCase(
        "use-undefined",
        block("use: nowhere\nshow: [table]", info="selfattn #HERE"),
        r"'use: nowhere' names no example defined above",
    ),
    ErrorCase(
        "use-with-data-keys",
        good_block("base") + "\n" + block("use: base\ncsv: /data/good.csv  #HERE"),
        r"a 'use:' block shows an example defined earlier and cannot change its data",
    ),
    ErrorCase(
        "use-of-a-broken-example",
        # One mistake, one message: the log says once that the use was skipped, at the key of
        # the broken definition; the page marks the use itself.
        block("id: broken\ncsv: /data/missing.csv  #HERE\ndocument: memo_cap_missing")
        + "\n"
        + block("use: broken\nshow: [table]"),
        r"1 more use of example 'broken' on this page skipped"
        r"|'use: broken' shows the example of line \d+, which failed",
    ),
    # -- bombs and sizes --------------------------------------------------------------------
    ErrorCase(
        "alias-bomb-in-document",
        block(f"csv: /data/good.csv\ndocument: {_LIST_BOMB}  #HERE"),
        r"'document'",
        max_seconds=60,
    ),
    ErrorCase(
        "alias-bomb-in-show",
        # The anchors' own values expand first: the first key past the limit is named.
        block(f"csv: /data/good.csv\ndocument: {_LIST_BOMB}  #HERE\nshow: [{_LIST_ALIAS}]"),
        r"'document': the YAML holds more than 100,000 values",
        max_seconds=60,
    ),
    ErrorCase(
        "alias-bomb-in-top",
        block(f"csv: /data/good.csv\ndocument: {_LIST_BOMB}  #HERE\ntop: {_LIST_ALIAS}"),
        r"'document': the YAML holds more than 100,000 values",
        max_seconds=60,
    ),
    ErrorCase(
        "alias-bomb-of-mappings-in-display",
        block(f"csv: /data/good.csv\ndocument: {_MAP_BOMB}\ndisplay: {{k: {_MAP_ALIAS}}}  #HERE"),
        r"'display'|'document'",
        at=None,
        max_seconds=60,
    ),
    ErrorCase(
        "oversized-body-one-line",
        block(GOOD + "title: " + "x" * 70_000, info="selfattn #HERE"),
        r"the block body is larger than 64 KiB",
    ),
    ErrorCase(
        "oversized-body-many-lines",
        block(
            GOOD + "\n".join(f"# filler line {n:05d} " + "y" * 40 for n in range(2000)),
            info="selfattn #HERE",
        ),
        r"the block body is larger than 64 KiB",
    ),
    ErrorCase(
        "deeply-nested-sequences",
        block(GOOD + "title: " + "[" * 5000 + "]" * 5000),
        # libyaml parses it; then the type check says what is wrong, with a bounded preview.
        r"(?i)yaml|nest|deep|'title': expected a text value",
        at=None,
        max_seconds=60,
    ),
    ErrorCase(
        "deeply-nested-mappings",
        block(GOOD + "title: " + "{a: " * 3000 + "b" + "}" * 3000),
        r"(?i)yaml|nest|deep",
        at=None,
        max_seconds=60,
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_broken_block(tmp_path: Path, case: ErrorCase) -> None:
    check_error_case(tmp_path, case)
