"""Block and inline-value syntax: where they are found, and how option errors are located.

Every error must carry the *page* line (1-based, counted from the top of the markdown file), since
the plugin logs it as ``docs/PAGE.md:LINE: selfattn: …``.
"""

from __future__ import annotations

import re

import pytest

from mkdocs_selfattn.blocks.markdown_scan import RawBlock, find_blocks
from mkdocs_selfattn.blocks.spec import MAX_BODY_BYTES, BlockSpec, parse_block
from mkdocs_selfattn.build.inline import InlineValue, find_inline_values
from mkdocs_selfattn.errors import BlockError

# ---------------------------------------------------------------------------------------------
# find_blocks


def _lines(text: str) -> list[str]:
    return text.split("\n")


def test_top_level_block_lines_and_body() -> None:
    page = "# Title\n\nIntro.\n\n```selfattn\ncsv: a.csv\ndocument: d\n```\n\nAfter.\n"
    [raw] = find_blocks(page)
    assert raw.start == 5
    assert raw.end == 8
    assert raw.indent == ""
    assert raw.body == "csv: a.csv\ndocument: d"
    assert _lines(page)[raw.start - 1] == "```selfattn"
    assert _lines(page)[raw.end - 1] == "```"


@pytest.mark.parametrize(
    ("opener", "indent"),
    [
        ('!!! note "In an admonition"', "    "),
        ('=== "In a content tab"', "    "),
        ("- in a list item", "    "),
        ("1. in a numbered list item", "    "),
        ('??? tip "collapsible"', "    "),
    ],
)
def test_indented_blocks_are_found_and_dedented(opener: str, indent: str) -> None:
    page = (
        "# T\n\n"
        f"{opener}\n\n"
        f"{indent}Some text.\n\n"
        f"{indent}```selfattn\n"
        f"{indent}use: memo\n"
        f"{indent}show: [table, compare]\n"
        f"{indent}text:\n"
        f"{indent}  document: memo\n"
        f"{indent}```\n\n"
        "After.\n"
    )
    [raw] = find_blocks(page)
    assert raw.indent == indent
    assert raw.start == 7
    assert raw.end == 12
    # Dedented by the fence's indent; nested YAML indentation survives.
    assert raw.body == "use: memo\nshow: [table, compare]\ntext:\n  document: memo"
    spec = parse_block(raw)
    assert spec.use == "memo"
    assert spec.view.show == ("table", "compare")
    assert dict(spec.view.text) == {"document": "memo"}


def test_doubly_nested_block_keeps_its_full_indent() -> None:
    page = (
        '!!! note "outer"\n\n    === "tab"\n\n        ```selfattn\n        use: memo\n        ```\n'
    )
    [raw] = find_blocks(page)
    assert raw.indent == " " * 8
    assert raw.start == 5
    assert raw.body == "use: memo"


@pytest.mark.parametrize("outer", ["````", "`````", "~~~~", "~~~"])
def test_block_shown_inside_an_outer_fence_is_left_alone(outer: str) -> None:
    inner = "```selfattn\ncsv: a.csv\ndocument: d\n```"
    page = f"# Syntax\n\n{outer}markdown\n{inner}\n{outer}\n\nText.\n"
    assert find_blocks(page) == []


def test_outer_fence_in_an_admonition_hides_its_selfattn_example() -> None:
    page = (
        '!!! example "How to write a block"\n\n'
        "    ````markdown\n"
        "    ```selfattn\n"
        "    use: memo\n"
        "    ```\n"
        "    ````\n\n"
        "```selfattn\n"
        "use: real\n"
        "```\n"
    )
    blocks = find_blocks(page)
    assert [b.body for b in blocks] == ["use: real"]
    assert blocks[0].start == 9


def test_tilde_fences_are_blocks_too() -> None:
    page = "Intro\n\n~~~selfattn\nuse: memo\n~~~\n\n~~~~ selfattn\nuse: other\n~~~~\n"
    blocks = find_blocks(page)
    assert [(b.start, b.end, b.body) for b in blocks] == [
        (3, 5, "use: memo"),
        (7, 9, "use: other"),
    ]


def test_a_backtick_line_does_not_close_a_tilde_fence() -> None:
    page = "~~~selfattn\nuse: memo\n```\ntitle: x\n~~~\n"
    [raw] = find_blocks(page)
    assert raw.end == 5
    assert raw.body == "use: memo\n```\ntitle: x"


def test_longer_closing_fence_closes_and_shorter_does_not() -> None:
    page = "````selfattn\nuse: a\n```\n`````\nafter\n"
    [raw] = find_blocks(page)
    assert raw.end == 4
    assert raw.body == "use: a\n```"


@pytest.mark.parametrize("info", ["selfattn", " selfattn", "{.selfattn}", "selfattn title=x"])
def test_info_string_variants(info: str) -> None:
    [raw] = find_blocks(f"```{info}\nuse: m\n```\n")
    assert raw.body == "use: m"


@pytest.mark.parametrize("info", ["python", "selfattn-demo", "text selfattn", "", "yaml"])
def test_other_fences_are_not_blocks(info: str) -> None:
    assert find_blocks(f"```{info}\nuse: m\n```\n") == []


def test_other_fences_before_a_block_do_not_shift_its_lines() -> None:
    page = "```python\nprint(1)\n```\n\n~~~\nx\n~~~\n\n```selfattn\nuse: m\n```\n"
    [raw] = find_blocks(page)
    assert raw.start == 9


def test_several_blocks_in_page_order() -> None:
    page = "```selfattn\nuse: a\n```\n\ntext\n\n    ```selfattn\n    use: b\n    ```\n"
    assert [(b.start, b.body) for b in find_blocks(page)] == [(1, "use: a"), (7, "use: b")]


# ---------------------------------------------------------------------------------------------
# parse_block: good blocks


SEED_BODY = """\
id: memo
csv: ../assets/memo.csv
document: memo_cap_missing
targets: [그것, 씌우지]
display: {배터리팩: 电池包, 분리: 分离, 절연캡: 绝缘帽, 씌우지: 未套上, 그것: 它, 위험: 风险}
groups: {cap_plus_not_applied: [절연캡, 씌우지]}
temperature: 0.5
script: ../examples/memo.py
show: [output, table, chart, code]
top: 2
number_format: ".1%"
text: {document: 备忘录, axis_weight: 权重}
title: 注意力"""


def _page_with(body: str, before: int = 4, indent: str = "") -> tuple[str, RawBlock]:
    """A page with ``before`` lines of prose, then the block; returns (page, its RawBlock)."""
    prose = [f"line {n}" for n in range(1, before + 1)]
    fence = [f"{indent}```selfattn", *(indent + line for line in body.split("\n")), f"{indent}```"]
    page = "\n".join([*prose, *fence, "", "after"]) + "\n"
    [raw] = find_blocks(page)
    assert raw.start == before + 1
    return page, raw


def test_full_block_parses() -> None:
    _, raw = _page_with(SEED_BODY)
    spec = parse_block(raw)
    assert isinstance(spec, BlockSpec)
    assert spec.use is None
    assert spec.line == 5
    example = spec.example
    assert example is not None
    assert example.id == "memo"
    assert example.csv == "../assets/memo.csv"
    assert example.document == "memo_cap_missing"
    assert example.targets == ("그것", "씌우지")
    assert dict(example.display)["절연캡"] == "绝缘帽"
    assert dict(example.groups) == {"cap_plus_not_applied": ("절연캡", "씌우지")}
    assert example.temperature == 0.5
    assert example.script == "../examples/memo.py"
    assert example.line_of("csv") == 7
    assert example.line_of("script") == 13
    assert spec.view.show == ("output", "table", "chart", "code")
    assert spec.view.top == 2
    assert spec.view.number_format == ".1%"
    assert dict(spec.view.text) == {"document": "备忘录", "axis_weight": "权重"}
    assert spec.view.title == "注意力"


def test_defaults() -> None:
    _, raw = _page_with("csv: a.csv\ndocument: d")
    spec = parse_block(raw)
    assert spec.view.show == ("output",)
    assert spec.view.top == 3
    assert spec.view.number_format is None
    assert spec.example is not None
    assert spec.example.id is None
    assert spec.example.targets is None
    assert spec.example.temperature == 1.0
    assert spec.example.script is None


def test_show_accepts_a_single_view_name() -> None:
    _, raw = _page_with("csv: a.csv\ndocument: d\nshow: mermaid")
    assert parse_block(raw).view.show == ("mermaid",)


def test_use_block_with_view_keys() -> None:
    _, raw = _page_with("use: memo\nshow: [mermaid]\ntop: 1\nnumber_format: .2f\ntitle: T")
    spec = parse_block(raw)
    assert spec.use == "memo"
    assert spec.example is None
    assert spec.view.show == ("mermaid",)
    assert spec.view.top == 1
    assert spec.view.number_format == ".2f"
    assert spec.view.title == "T"


def test_quoted_yes_and_numbers_are_text() -> None:
    _, raw = _page_with("csv: a.csv\ndocument: 'yes'\ntargets: ['no', '12']")
    spec = parse_block(raw)
    assert spec.example is not None
    assert spec.example.document == "yes"
    assert spec.example.targets == ("no", "12")


# ---------------------------------------------------------------------------------------------
# parse_block: errors, each at the right page line


def _error(body: str, before: int = 4, indent: str = "") -> BlockError:
    _, raw = _page_with(body, before, indent)
    with pytest.raises(BlockError) as caught:
        parse_block(raw)
    return caught.value


# The block's fence is on page line 5, so its body's first line is page line 6.


@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        ("csv: a.csv\ndocument: [x\ntargets: y", 8, ["invalid YAML"]),
        ("csv: a.csv\ndocument: x\n  targets: y", 8, ["invalid YAML"]),
        ("csv: a.csv\n\tdocument: x", 7, ["invalid YAML"]),
        ("csv: a.csv\ndocument: 'unclosed\n", 8, ["invalid YAML"]),
    ],
)
def test_invalid_yaml_is_located(body: str, line: int, words: list[str]) -> None:
    error = _error(body)
    assert error.line == line
    for word in words:
        assert word in str(error)


def test_invalid_yaml_located_inside_an_admonition() -> None:
    error = _error("csv: a.csv\ndocument: [x\ntargets: y", before=10, indent="    ")
    assert error.line == 14


@pytest.mark.parametrize(
    ("key", "suggestion"),
    [
        ("documnet", "document"),
        ("tagrets", "targets"),
        ("shwo", "show"),
        ("temprature", "temperature"),
        ("scirpt", "script"),
        ("diplay", "display"),
    ],
)
def test_unknown_key_with_did_you_mean(key: str, suggestion: str) -> None:
    error = _error(f"csv: a.csv\ndocument: d\nshow: [table]\n{key}: x")
    assert error.line == 9
    assert f"unknown key '{key}'" in str(error)
    assert f"did you mean '{suggestion}'?" in str(error)


def test_unknown_key_without_a_close_match_lists_the_keys() -> None:
    error = _error("csv: a.csv\nzzzzzz: 1\ndocument: d")
    assert error.line == 7
    assert "unknown key 'zzzzzz'" in str(error)
    assert "document" in str(error)
    assert "show" in str(error)


QUOTE_HINT = "quote it"


@pytest.mark.parametrize(
    ("body", "line", "key"),
    [
        ("csv: a.csv\ndocument: yes", 7, "document"),
        ("csv: a.csv\ndocument: 123", 7, "document"),
        ("csv: a.csv\ndocument: null", 7, "document"),
        ("csv: a.csv\ndocument: d\ntargets: [no, 그것]", 8, "targets"),
        ("csv: a.csv\ndocument: d\ndisplay: {on: 켜짐}", 8, "display"),
        ("csv: a.csv\ndocument: d\ndisplay: {그것: 1.5}", 8, "display"),
        ("csv: 12\ndocument: d", 6, "csv"),
        ("csv: a.csv\ndocument: d\ngroups: {g: [yes, 절연캡]}", 8, "groups"),
        ("use: off", 6, "use"),
        ("csv: a.csv\ndocument: d\ntitle: 2024", 8, "title"),
    ],
)
def test_wrong_types_give_the_quote_hint(body: str, line: int, key: str) -> None:
    error = _error(body)
    assert error.line == line
    assert f"'{key}'" in str(error)
    assert QUOTE_HINT in str(error)


@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        ("csv: a.csv\ndocument: d\ntargets: 그것", 8, ["'targets'", "[그것]"]),
        ("csv: a.csv\ndocument: d\ntargets: []", 8, ["'targets'", "empty"]),
        ("csv: a.csv\ndocument: d\ndisplay: [a, b]", 8, ["'display'", "mapping"]),
        ("csv: a.csv\ndocument: d\ngroups: [a]", 8, ["'groups'"]),
        ("csv: a.csv\ndocument: d\ngroups: {g: 절연캡}", 8, ["'groups'", "list"]),
        ("csv: a.csv\ndocument: d\ntop: 0", 8, ["'top'"]),
        ("csv: a.csv\ndocument: d\ntop: true", 8, ["'top'"]),
        ("csv: a.csv\ndocument: d\nnumber_format: .1q", 8, ["'number_format'", ".1q"]),
        ("csv: a.csv\ndocument: d\ntext: {documnet: x}", 8, ["did you mean 'document'?"]),
        ("id: 'two words'\ncsv: a.csv\ndocument: d", 6, ["'id'", "two words"]),
        ("csv: a.csv\ndocument: d\nshow: {a: b}", 8, ["'show'"]),
    ],
)
def test_other_option_errors_are_located(body: str, line: int, words: list[str]) -> None:
    error = _error(body)
    assert error.line == line
    for word in words:
        assert word in str(error)


@pytest.mark.parametrize("missing", ["csv", "document"])
def test_missing_required_key_points_at_the_fence(missing: str) -> None:
    body = "\n".join(line for line in ("csv: a.csv", "document: d") if not line.startswith(missing))
    error = _error(body)
    assert error.line == 5
    assert f"'{missing}:'" in str(error)


def test_duplicate_key_is_refused_at_the_second_occurrence() -> None:
    error = _error("csv: a.csv\ndocument: d\ncsv: b.csv")
    assert error.line == 8
    assert "duplicate key 'csv'" in str(error)


def _assert_page_lines_only(message: str, first: int) -> None:
    """A line number inside a message is a page line (like the log prefix), not body-relative."""
    for number in re.findall(r"line (\d+)", message):
        assert int(number) == first, message


def test_duplicate_key_message_names_no_body_relative_line() -> None:
    error = _error("csv: a.csv\ndocument: d\ncsv: b.csv")
    # The first 'csv:' is on page line 6 (fence on 5); "line 1" would be body-relative.
    _assert_page_lines_only(str(error), 6)


def test_duplicate_key_in_a_nested_mapping() -> None:
    error = _error("csv: a.csv\ndocument: d\ndisplay:\n  절연캡: a\n  절연캡: b")
    assert error.line == 10
    assert "duplicate key '절연캡'" in str(error)
    _assert_page_lines_only(str(error), 9)


def test_list_as_a_key_is_refused() -> None:
    error = _error("csv: a.csv\ndocument: d\n? [a, b]\n: x")
    assert error.line == 8
    assert "invalid YAML" in str(error)


@pytest.mark.parametrize("script", ["", "script: null\n"])
def test_code_view_needs_a_script(script: str) -> None:
    error = _error(f"csv: a.csv\ndocument: d\n{script}show: [output, code]")
    assert "'show'" in str(error) or "'script'" in str(error)
    assert error.line in (8, 9)


@pytest.mark.parametrize("data_key", ["csv", "document", "targets", "display", "groups", "script"])
def test_use_block_refuses_data_keys(data_key: str) -> None:
    error = _error(f"use: memo\nshow: [table]\n{data_key}: x")
    assert error.line == 8
    assert f"'{data_key}'" in str(error)
    assert "use:" in str(error)


@pytest.mark.parametrize("body", ["", "   ", "\n\n", "\t"])
def test_empty_body(body: str) -> None:
    page = f"intro\n\n```selfattn\n{body}\n```\n"
    [raw] = find_blocks(page)
    with pytest.raises(BlockError, match="empty") as caught:
        parse_block(raw)
    assert caught.value.line == 3


def test_body_that_is_not_a_mapping() -> None:
    error = _error("- csv\n- document")
    assert error.line == 5
    assert "mapping" in str(error)


def test_oversized_body() -> None:
    filler = "# " + "x" * (MAX_BODY_BYTES + 10)
    error = _error(f"csv: a.csv\ndocument: d\n{filler}")
    assert error.line == 5
    assert "larger than" in str(error)


def test_body_just_under_the_limit_parses() -> None:
    filler = "# " + "x" * (MAX_BODY_BYTES - 100)
    _, raw = _page_with(f"csv: a.csv\ndocument: d\n{filler}")
    assert parse_block(raw).example is not None


@pytest.mark.parametrize(
    ("show", "suggestion"),
    [
        ("[outptu]", "output"),
        ("tabel", "table"),
        ("[table, chrat]", "chart"),
        ("[mermiad]", "mermaid"),
    ],
)
def test_bad_show_view_with_did_you_mean(show: str, suggestion: str) -> None:
    error = _error(f"csv: a.csv\ndocument: d\nshow: {show}")
    assert error.line == 8
    assert f"did you mean '{suggestion}'?" in str(error)


def test_bad_show_view_without_close_match_lists_views() -> None:
    error = _error("use: m\nshow: [xyzzy]")
    assert error.line == 7
    for view in ("output", "table", "compare", "csv", "mermaid", "chart", "code"):
        assert view in str(error)


@pytest.mark.parametrize(
    "value", ["0", "-1", "-0.5", ".nan", ".inf", "-.inf", "hot", "true", "[1]", "'1.0'"]
)
def test_bad_temperature(value: str) -> None:
    error = _error(f"csv: a.csv\ndocument: d\ntemperature: {value}")
    assert error.line == 8
    assert "'temperature'" in str(error)


@pytest.mark.parametrize("value", ["2", "0.25", "1.0e-3"])
def test_good_temperature(value: str) -> None:
    _, raw = _page_with(f"csv: a.csv\ndocument: d\ntemperature: {value}")
    spec = parse_block(raw)
    assert spec.example is not None
    assert spec.example.temperature == float(value)


# ---------------------------------------------------------------------------------------------
# find_inline_values


def _values(text: str) -> list[InlineValue]:
    found = find_inline_values(text)
    assert all(isinstance(v, InlineValue) for v in found), found
    return [v for v in found if isinstance(v, InlineValue)]


def test_inline_value_in_a_paragraph() -> None:
    text = "# T\n\nThe cap gets `{selfattn} memo weight 그것 절연캡` of the weight.\n"
    [value] = _values(text)
    assert value.line == 3
    assert value.example_id == "memo"
    assert value.quantity == "weight"
    assert value.args == ("그것", "절연캡")
    assert value.spec is None
    assert text[value.start : value.end] == "`{selfattn} memo weight 그것 절연캡`"


def test_format_spec() -> None:
    text = (
        "A `{selfattn} memo weight 그것 절연캡 :.1%` and "
        "`{selfattn} memo baseline evidence_cap :.2f`"
    )
    first, second = _values(text)
    assert (first.args, first.spec) == (("그것", "절연캡"), ".1%")
    assert (second.quantity, second.args, second.spec) == ("baseline", ("evidence_cap",), ".2f")


@pytest.mark.parametrize(
    ("content", "quantity", "args"),
    [
        ("memo weight 그것 절연캡", "weight", ("그것", "절연캡")),
        ("memo score 它 绝缘帽", "score", ("它", "绝缘帽")),
        ("memo top 그것", "top", ("그것",)),
        ("memo group 그것 cap_plus_not_applied", "group", ("그것", "cap_plus_not_applied")),
        ("memo representation 그것", "representation", ("그것",)),
        ("memo representation 그것 evidence_cap", "representation", ("그것", "evidence_cap")),
        ("memo shift 씌우지", "shift", ("씌우지",)),
        ("memo shift 씌우지 evidence_pack", "shift", ("씌우지", "evidence_pack")),
        ("memo baseline", "baseline", ()),
        ("memo baseline evidence_action", "baseline", ("evidence_action",)),
        ("memo csv_rows", "csv_rows", ()),
        ("memo document_rows", "document_rows", ()),
        ('memo top "two words"', "top", ("two words",)),
    ],
)
def test_every_quantity(content: str, quantity: str, args: tuple[str, ...]) -> None:
    [value] = _values(f"x `{{selfattn}} {content}` y")
    assert value.quantity == quantity
    assert value.args == args


def test_inline_values_in_list_table_and_admonition_are_found() -> None:
    text = (
        "- item `{selfattn} m top a`\n"
        "\n"
        "| a | b |\n"
        "|---|---|\n"
        "| x | `{selfattn} m csv_rows` |\n"
        "\n"
        '!!! note "n"\n'
        "\n"
        "    In here `{selfattn} m document_rows`.\n"
    )
    assert [(v.line, v.quantity) for v in _values(text)] == [
        (1, "top"),
        (5, "csv_rows"),
        (9, "document_rows"),
    ]


def test_fenced_code_is_skipped() -> None:
    text = (
        "`{selfattn} m csv_rows`\n"
        "```text\n"
        "`{selfattn} m top a`\n"
        "```\n"
        "~~~\n"
        "`{selfattn} m top b`\n"
        "~~~\n"
        '!!! note "n"\n'
        "\n"
        "    ```markdown\n"
        "    `{selfattn} m top c`\n"
        "    ```\n"
        "\n"
        "````markdown\n"
        "```\n"
        "`{selfattn} m top d`\n"
        "```\n"
        "`{selfattn} m top e`\n"
        "````\n"
        "`{selfattn} m document_rows`\n"
    )
    assert [(v.line, v.quantity) for v in _values(text)] == [(1, "csv_rows"), (20, "document_rows")]


def test_selfattn_block_bodies_are_not_inline_values() -> None:
    text = "```selfattn\ntitle: '`{selfattn} m top a`'\n```\n"
    assert find_inline_values(text) == []


def test_double_backtick_span_shows_the_syntax_literally() -> None:
    text = "Write `` `{selfattn} memo weight 그것 절연캡` `` in your page; ``{selfattn} m top a``."
    assert find_inline_values(text) == []


def test_escaped_backtick_is_not_a_span_opener() -> None:
    text = "Not code: \\`{selfattn} m top a\\` here."
    assert find_inline_values(text) == []


def test_double_backtick_span_then_a_real_value() -> None:
    text = "Syntax `` `{selfattn} m top a` ``, value `{selfattn} m csv_rows`."
    [value] = _values(text)
    assert value.quantity == "csv_rows"
    assert text[value.start : value.end] == "`{selfattn} m csv_rows`"


def test_offsets_are_into_the_whole_text() -> None:
    text = "first line\nsecond `{selfattn} m csv_rows` and `{selfattn} m document_rows`\n"
    values = _values(text)
    assert [text[v.start : v.end] for v in values] == [
        "`{selfattn} m csv_rows`",
        "`{selfattn} m document_rows`",
    ]
    assert [v.line for v in values] == [2, 2]


def test_other_code_spans_are_ignored() -> None:
    assert find_inline_values("`print(1)` and `selfattn m top a` and `{other} x`") == []


def _errors(text: str) -> list[BlockError]:
    found = find_inline_values(text)
    assert all(isinstance(v, BlockError) for v in found), found
    return [v for v in found if isinstance(v, BlockError)]


def test_bad_quantity_with_did_you_mean() -> None:
    [error] = _errors("intro\n\nvalue `{selfattn} memo wieght 그것 절연캡` end\n")
    assert error.line == 3
    assert "unknown quantity 'wieght'" in str(error)
    assert "did you mean 'weight'?" in str(error)


def test_bad_quantity_without_close_match_lists_quantities() -> None:
    [error] = _errors("`{selfattn} memo zzzz`")
    assert "unknown quantity 'zzzz'" in str(error)
    for quantity in ("weight", "score", "top", "group", "representation", "shift", "baseline"):
        assert quantity in str(error)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("memo weight 그것", ["weight TARGET CANDIDATE"]),
        ("memo top", ["top TARGET"]),
        ("memo top a b c d", ["top TARGET"]),  # `top Q RANK` is a questions value
        ("memo csv_rows extra", ["csv_rows"]),
        ("memo group 그것", ["group TARGET NAME"]),
        ("memo", ["needs an example id and a quantity"]),
        ("", ["needs an example id and a quantity"]),
        ('memo top "open', ["close the quotes"]),
        ("memo weight 그것 절연캡 :.1q", ["':.1q'", "format spec"]),
    ],
)
def test_malformed_inline_values(content: str, words: list[str]) -> None:
    [error] = _errors(f"line one\n`{{selfattn}} {content}`")
    assert error.line == 2
    for word in words:
        assert word in str(error)


# ---------------------------------------------------------------------------------------------
# The key table


def test_every_key_of_the_table_fills_a_field_of_its_spec() -> None:
    from dataclasses import fields

    from mkdocs_selfattn.blocks.spec import KEYS, ExampleSpec, ViewOptions

    homes = {"define": ExampleSpec, "view": ViewOptions, "use": BlockSpec, "from": BlockSpec}
    renamed = {"from": "source"}
    for name, key in KEYS.items():
        names = {f.name for f in fields(homes[key.scope])}
        assert renamed.get(name, name) in names, name
        assert key.doc
        assert key.kind


def test_spec_defaults_are_the_table_defaults() -> None:
    from mkdocs_selfattn.blocks.spec import KEYS

    spec = parse_block(find_blocks("```selfattn\ncsv: a.csv\ndocument: d\n```\n")[0])
    assert spec.example is not None
    for name, key in KEYS.items():
        if key.scope == "define" and not key.required and name != "document":
            assert getattr(spec.example, name) == key.default, name
        if key.scope == "view":
            assert getattr(spec.view, name) == key.default, name


def test_column_roles_are_the_column_maps_fields() -> None:
    from mkdocs_selfattn.blocks.spec_values import COLUMN_ROLES
    from mkdocs_selfattn.core.column_map import ColumnMap

    # ``group`` is a role of the questions and heads layouts only (see spec_layout.py).
    assert (*ColumnMap.keys(), "group") == COLUMN_ROLES
