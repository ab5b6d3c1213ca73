"""Invisible and direction-changing characters in CSV names, block YAML and inline values: refused
with a located message naming the code point, or (free text) shown as ``<U+…>``; never a name
that reverses the text after it or looks like another name. Both readers agree (``csv_paths.both``).

The oracle is Unicode's own data, not the module's table: a character is direction-changing when
its bidi class is an embedding, override or isolate (or it is one of the three marks), and
invisible when its category is Cc, Cf, Zl or Zp, or it is a variation selector or a filler.
"""

from __future__ import annotations

import csv
import io
import sys
import unicodedata

import pytest
from csv_paths import HEADS, QUESTIONS, TARGETS, both
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.spec import parse_block
from mkdocs_selfattn.build.inline import find_inline_values
from mkdocs_selfattn.core.table import Table
from mkdocs_selfattn.errors import BlockError

DIRECTION = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
MARKS = {"\u200e", "\u200f", "\u061c"}
SHOWN_WHITESPACE = "\t\n\r"
"""Tab and line breaks are visible where they stand (a printout breaks the line) and allowed."""


def changes_direction(char: str) -> bool:
    return char in MARKS or unicodedata.bidirectional(char) in DIRECTION


def invisible(char: str) -> bool:
    if char in SHOWN_WHITESPACE:
        return False
    name = unicodedata.name(char, "")
    return (
        unicodedata.category(char) in {"Cc", "Cf", "Zl", "Zp"}
        or name.startswith("VARIATION SELECTOR")
        or name.startswith("MONGOLIAN FREE VARIATION SELECTOR")
        or ("HANGUL" in name and "FILLER" in name)
        or name == "COMBINING GRAPHEME JOINER"
    )


def modifies(char: str) -> bool:
    """A joiner, variation selector or tag: invisible, but part of an emoji or a word's shape."""
    name = unicodedata.name(char, "")
    return name.startswith(("ZERO WIDTH ", "VARIATION SELECTOR", "TAG ", "CANCEL TAG"))


def seen(text: str) -> str:
    """What a reader sees of ``text``: every invisible character gone."""
    return "".join(c for c in text if not invisible(c))


SPECIAL = [
    *"\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
    *"\ufeff\u200b\u200c\u200d\u2060\u2028\u2029\u00ad\u3164\u115f\u034f",
    *"\ufe0f\ufe0e\ufe00\U000e0100\U000e0067\U000e007f\x00\x1b\x7f\x85",
]
HIDDEN = st.one_of(
    st.sampled_from(SPECIAL),
    st.characters(categories=["Cc", "Cf", "Zl", "Zp"], exclude_characters=SHOWN_WHITESPACE),
)
BASES = ["trophy", "그것", "👩💻", "שלום", "1", "🏴", "memo_cap"]


@st.composite
def tokens(draw: st.DrawFn) -> tuple[str, str]:
    """(a visible name, the same name with hidden characters put in, maybe none)."""
    base = draw(st.sampled_from(BASES))
    token = base
    for char in draw(st.lists(HIDDEN, max_size=3)):
        at = draw(st.integers(0, len(token)))
        token = token[:at] + char + token[at:]
    return base, token


NAME_COLUMNS = {
    "targets": ["document_id", "target_token", "candidate_token", "candidate_role"],
    "questions": ["line_id", "section"],
    "heads": ["report_id", "scenario", "token", "relation_role"],
}
HEADERS = {"targets": TARGETS, "questions": QUESTIONS, "heads": HEADS}


def two_rows(layout: str, column: str, first: str, second: str) -> bytes:
    """A file of ``layout`` whose two data rows (lines 2 and 3) differ in ``column`` only."""
    header = HEADERS[layout]
    plain = {name: "0.5" for name in header} | {
        "document_id": "d",
        "target_token": "t",
        "candidate_token": "c",
        "candidate_role": "r",
        "line_id": "L1",
        "section": "s",
        "text": "a line",
        "report_id": "d",
        "scenario": "g",
        "token": "k",
        "relation_role": "r",
    }
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for value in (first, second):
        writer.writerow([value if name == column else plain[name] for name in header])
    return out.getvalue().encode("utf-8", "surrogatepass")


CASES = [(layout, column) for layout, columns in NAME_COLUMNS.items() for column in columns]


@pytest.mark.parametrize(("layout", "column"), CASES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=tokens())
def test_a_name_is_refused_at_its_cell_or_shown_as_itself(
    layout: str, column: str, pair: tuple[str, str]
) -> None:
    base, token = pair
    _, result = both(layout, two_rows(layout, column, base, token))
    if isinstance(result, tuple):
        message, _, line, where, _ = result
        assert (line, where) == (3, column), result
        shown = {f"U+{ord(c):04X}" for c in token if invisible(c) or changes_direction(c)}
        assert any(code in message for code in shown), (token, message)
        assert not any(changes_direction(c) for c in message), message
        return
    # Accepted: the name reads as written and cannot pass for another one.
    assert token == base or seen(token) != seen(base), (base, token)
    assert not any(changes_direction(c) for c in token), token


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=tokens())
def test_free_text_shows_hidden_characters(pair: tuple[str, str]) -> None:
    """The questions layout's ``text`` column is only displayed: kept, with ``<U+…>`` marks."""
    from mkdocs_selfattn.core.hidden_text import visible

    _, token = pair
    _, table = both("questions", two_rows("questions", "text", "plain", token))
    assert isinstance(table, Table)
    cell = table.row_cells()[1][QUESTIONS.index("text")]
    assert not any(changes_direction(c) for c in cell), cell
    for char in token:
        if changes_direction(char) or (invisible(char) and not modifies(char)):
            assert f"<U+{ord(char):04X}>" in cell, (token, cell)
    assert cell == visible(token)


def test_every_invisible_character_of_this_python_is_known() -> None:
    """The module's table against the running Python's Unicode data, between ASCII letters."""
    from mkdocs_selfattn.core.hidden_text import first_hidden

    missing = [
        f"U+{cp:04X}"
        for cp in range(sys.maxunicode + 1)
        if (invisible(chr(cp)) or changes_direction(chr(cp)))
        and first_hidden(f"a{chr(cp)}b") is None
    ]
    assert not missing, missing


@pytest.mark.parametrize(
    "name",
    ["👩\u200d💻", "🏳\ufe0f\u200d🌈", "1\ufe0f\u20e3", "\u0645\u06cc\u200c\u062e", "❤\ufe0f"],
)
def test_joiners_and_selectors_between_visible_characters_are_kept(name: str) -> None:
    _, table = both("targets", two_rows("targets", "candidate_token", "plain", name))
    assert not isinstance(table, tuple), table
    assert name in table.encoded.candidates


@pytest.mark.parametrize(
    ("data", "outcome"),
    [
        (b"\xef\xbb\xbf" + two_rows("targets", "candidate_token", "a", "b"), "table"),
        (b"\xef\xbb\xbf" * 2 + two_rows("targets", "candidate_token", "a", "b"), "two byte"),
        (two_rows("targets", "document_id", "d", "\ufeffd"), "U+FEFF"),
        (two_rows("questions", "line_id", "L1", "\ufeffL2"), "U+FEFF"),
    ],
)
def test_byte_order_marks(data: bytes, outcome: str) -> None:
    """One BOM at the start of the file is the encoding's; any other is a hidden character."""
    layout = "questions" if b"line_id" in data else "targets"
    _, result = both(layout, data)
    if outcome == "table":
        assert not isinstance(result, tuple), result
        assert result.documents == ("d",)
    else:
        assert isinstance(result, tuple), result
        assert outcome in result[0]
        assert result[2] in (1, 3)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("display", r'{c: "cup\u202e"}'),
        ("groups", r'{g: ["c\u200b"]}'),
        ("targets", r'["t\ufeff"]'),
        ("title", r'"A \u2067title"'),
        ("queries", r'{"q\u2028": s1}'),
        ("text", r'{target: "\u200fcible"}'),
    ],
)
def test_block_text_with_a_hidden_character_is_refused_at_its_key(key: str, value: str) -> None:
    """YAML escapes (``\\u202e``) reach every text value: labels, names, titles, words."""
    body = f"id: x\ncsv: data/x.csv\ndocument: d\n{key}: {value}\n"
    with pytest.raises(BlockError) as caught:
        parse_block(find_blocks(f"```selfattn\n{body}```\n")[0])
    message = caught.value.message
    assert caught.value.line == 5, message
    assert message.startswith(f"'{key}':"), message
    assert "U+" in message
    assert not any(changes_direction(c) for c in message)


def test_inline_value_with_a_hidden_character_is_refused() -> None:
    found = find_inline_values("Weight `{selfattn} x weight t c\u202e :.2f` here.\n")
    assert len(found) == 1
    assert isinstance(found[0], BlockError)
    assert "U+202E" in found[0].message
    assert "\u202e" not in found[0].message


def test_a_site_number_format_with_a_hidden_fill_is_refused() -> None:
    """A fill character is printed beside every number of the site."""
    from mkdocs_selfattn.build.options import number_format_problem

    problem = number_format_problem("\u202e>8.3f")
    assert problem is not None
    assert "U+202E" in problem
    assert number_format_problem(">8.3f") is None
