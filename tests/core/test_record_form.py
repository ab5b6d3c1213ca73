"""The one plain form of every result record (``core/record_form.py``): the JSON view is held to
goldens written by the hand-made serialisers it replaced, loading is the exact inverse of the
cache's payload for any record, and a payload of the wrong shape is a cache miss, never an
exception."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reading_fixtures import manual_reading, report_reading
from sites import COURSE_CSV, REPO, SEED_GROUPS, SEED_TARGETS

from mkdocs_selfattn.build.pipeline import cached_result
from mkdocs_selfattn.core.csv_read import read_table
from mkdocs_selfattn.core.document_results import compute_targets
from mkdocs_selfattn.core.readings import GroupResult, HeadResult, Line, ReadingResult
from mkdocs_selfattn.core.record_form import from_plain, payload, to_plain
from mkdocs_selfattn.core.results import (
    CandidateResult,
    DocumentResult,
    TargetResult,
    document_of,
)
from mkdocs_selfattn.render.jsonout import render_json

GOLDEN = Path(__file__).parents[1] / "golden" / "json"
INDEXED = REPO / "data" / "edge" / "index_columns_repeated_tokens.csv"


def _seed() -> ReadingResult:
    table = read_table(str(COURSE_CSV), display_path="memo.csv")
    groups = {name: list(members) for name, members in SEED_GROUPS.items()}
    return compute_targets(table, "memo_cap_missing", targets=SEED_TARGETS, groups=groups)


def _indexed() -> ReadingResult:
    return compute_targets(read_table(str(INDEXED), display_path="indexed.csv"), "memo")


def _json_record(result: ReadingResult) -> DocumentResult | ReadingResult:
    """The record a layout's JSON view is the form of: the targets' document view, else the
    result itself."""
    return document_of(result) if result.layout == "targets" else result


RESULTS = {
    "targets": _seed,
    "targets_indexed": _indexed,
    "questions": manual_reading,
    "heads": report_reading,
}


@pytest.mark.parametrize("name", list(RESULTS))
def test_the_json_view_is_the_golden_one(name: str, update_goldens: bool) -> None:
    path = GOLDEN / f"{name}.json"
    text = render_json(RESULTS[name]())
    if update_goldens:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", list(RESULTS))
def test_a_golden_loads_back_to_the_record(name: str) -> None:
    record = _json_record(RESULTS[name]())
    plain = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    loaded = from_plain(type(record), {**plain, "source": record.source})
    assert loaded == record


# ---------------------------------------------------------------------------------------------
# Any record comes back as itself

_TEXT = st.text(max_size=6)
_NUMBER = st.floats(allow_nan=False, allow_infinity=False, width=64)
_VECTOR = st.lists(_NUMBER, max_size=3).map(tuple)
_PAIRS = st.lists(st.tuples(_TEXT, _NUMBER), max_size=2, unique_by=lambda p: p[0]).map(tuple)
_INDEX = st.none() | st.integers(-(2**40), 2**40)

_CANDIDATE = st.builds(CandidateResult, _TEXT, _INDEX, _TEXT, _NUMBER, _NUMBER, _VECTOR)
_TARGET = st.builds(
    TargetResult,
    _TEXT,
    _INDEX,
    st.lists(_CANDIDATE, max_size=3).map(tuple),
    _VECTOR,
    _VECTOR,
    _TEXT,
    _INDEX,
    _PAIRS,
)
DOCUMENTS = st.builds(
    DocumentResult,
    source=_TEXT,
    csv_rows=st.integers(0, 10**9),
    document=_TEXT,
    document_rows=st.integers(0, 10**9),
    vector_columns=st.lists(_TEXT, max_size=3).map(tuple),
    temperature=_NUMBER,
    baseline=_VECTOR,
    targets=st.lists(_TARGET, max_size=3).map(tuple),
    warnings=st.lists(_TEXT, max_size=2).map(tuple),
)
_LINE = st.builds(
    Line,
    _TEXT,
    _TEXT,
    st.integers(0, 10**9),
    st.lists(_TEXT, max_size=3).map(tuple),
    _VECTOR,
    _INDEX,
)
_HEAD = st.builds(
    HeadResult, _TEXT, _TEXT, st.booleans(), _VECTOR, _VECTOR, _VECTOR, _VECTOR, _PAIRS, _VECTOR
)
_GROUP = st.builds(
    GroupResult,
    _TEXT,
    st.lists(_LINE, max_size=3).map(tuple),
    _VECTOR,
    st.lists(_HEAD, max_size=3).map(tuple),
    st.lists(_VECTOR, max_size=3).map(tuple),
    _INDEX,
)
READINGS = st.builds(
    ReadingResult,
    source=_TEXT,
    layout=st.sampled_from(["targets", "questions", "heads"]),
    csv_rows=st.integers(0, 10**9),
    document=st.none() | _TEXT,
    document_rows=st.integers(0, 10**9),
    columns=st.lists(_TEXT, max_size=3).map(tuple),
    axes=st.lists(
        st.tuples(_TEXT, st.lists(_TEXT, max_size=2).map(tuple)),
        max_size=2,
        unique_by=lambda p: p[0],
    ).map(tuple),
    temperature=_NUMBER,
    groups=st.lists(_GROUP, max_size=2).map(tuple),
    warnings=st.lists(_TEXT, max_size=2).map(tuple),
)


@settings(max_examples=200, deadline=None)
@given(result=READINGS)
def test_the_cache_form_through_json_is_the_record_bit_for_bit(result: ReadingResult) -> None:
    stored = json.loads(json.dumps(payload(result)))
    loaded = cached_result(stored, result.layout)
    assert loaded == result
    # The JSON view is the payload without where the file was and the doubts.
    assert to_plain(result) == {
        k: v for k, v in payload(result).items() if k not in ("source", "warnings")
    }


@settings(max_examples=100, deadline=None)
@given(document=DOCUMENTS)
def test_the_targets_json_form_loads_back_bit_for_bit(document: DocumentResult) -> None:
    loaded = from_plain(DocumentResult, json.loads(json.dumps(to_plain(document))))
    assert loaded == dataclasses.replace(document, source="", warnings=())


def test_a_position_is_written_only_where_the_layout_has_one() -> None:
    """A field whose default is None is left out while None: the indexed targets' lines carry
    their positions, a reading's lines add nothing to their form."""
    targets = payload(RESULTS["targets_indexed"]())
    assert all("index" in group for group in targets["groups"])
    assert all("index" in line for group in targets["groups"] for line in group["lines"])
    for name in ("targets", "questions", "heads"):
        plain = payload(RESULTS[name]())
        assert not any("index" in group for group in plain["groups"]), name
        assert not any("index" in line for g in plain["groups"] for line in g["lines"]), name


# ---------------------------------------------------------------------------------------------
# A payload of the wrong shape is a cache miss


def _broken(name: str) -> list[Any]:
    plain = payload(RESULTS[name]())
    first = "targets" if "targets" in plain else "groups"
    nested = plain[first][0]
    return [
        "not a mapping",
        {k: v for k, v in plain.items() if k != "csv_rows"},  # a field missing
        {**plain, "csv_rows": "many"},  # not a number
        {**plain, "baseline" if "baseline" in plain else "columns": "abc"},  # text for a list
        {**plain, first: [{**nested, "context" if "context" in nested else "lines": None}]},
        {**plain, first: ["not a record"]},
        {**plain, "layout": "pictures"} if "layout" in plain else {**plain, "temperature": []},
    ]


@pytest.mark.parametrize("name", list(RESULTS))
def test_a_payload_of_the_wrong_shape_is_a_miss(name: str) -> None:
    layout = RESULTS[name]().layout
    for broken in _broken(name):
        assert cached_result(broken, layout) is None, broken


@pytest.mark.parametrize("name", list(RESULTS))
def test_a_payload_of_another_layout_is_a_miss(name: str) -> None:
    """The block's layout says which record an entry holds; a sound record of another layout
    (another version's entry, or one written by hand) is not taken for it."""
    result = RESULTS[name]()
    stored = json.loads(json.dumps(payload(result)))
    assert cached_result(stored, result.layout) == result
    for other in sorted({"targets", "questions", "heads"} - {result.layout}):
        assert cached_result(stored, other) is None, other


def test_a_missing_field_with_a_default_takes_it() -> None:
    result = RESULTS["heads"]()
    plain = payload(result)
    assert "warnings" not in plain  # written only when there are some
    for group in plain["groups"]:
        for head in group["heads"]:
            del head["difference"]
    loaded = from_plain(ReadingResult, plain)
    assert all(h.difference == () for g in loaded.groups for h in g.heads)


@pytest.mark.parametrize("name", list(RESULTS))
def test_the_json_view_loads_back_without_its_source(name: str) -> None:
    result = RESULTS[name]()
    record = _json_record(result)
    loaded = from_plain(type(record), json.loads(render_json(result)))
    assert loaded == dataclasses.replace(record, source="", warnings=())


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "1e400", "1" + "0" * 400 + ".0"])
def test_an_infinite_or_huge_whole_number_is_a_miss(number: str) -> None:
    plain = payload(RESULTS["targets_indexed"]())
    plain["groups"][0]["lines"][0]["index"] = json.loads(number)
    assert cached_result(plain, "targets") is None
    plain = payload(RESULTS["heads"]())
    plain["csv_rows"] = json.loads(number)
    assert cached_result(plain, "heads") is None


def test_a_field_of_a_kind_the_form_does_not_know_fails_loudly_not_as_a_miss() -> None:
    @dataclasses.dataclass(frozen=True)
    class Odd:
        pair: tuple[str, str]

    with pytest.raises(NotImplementedError):
        from_plain(Odd, {"pair": ["a", "b"], "source": ""})
