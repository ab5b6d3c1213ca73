"""The readings on their way through the pipeline: a worker's request and payload, the cache's
round trip, and the labels views use."""

from __future__ import annotations

import pickle

from reading_fixtures import HEADS_CSV, MANUAL_CSV, manual_reading, report_reading
from test_reading_engine import spec

from mkdocs_selfattn.build.jobs import ComputeRequest, compute, compute_payload
from mkdocs_selfattn.build.pipeline import cached_result, result_key
from mkdocs_selfattn.render.labels import Labels

HEADS_SPEC = spec(
    document="ops_pressure_return",
    heads={"single_head": "single_weight", "head1": "head1_weight", "head2": "head2_weight"},
    axes={
        "decision_axis": ("decision_axis",),
        "evidence_condition_axis": ("evidence_axis", "condition_axis"),
    },
    columns={
        "document": "report_id",
        "group": "scenario",
        "candidate": "token",
        "role": "relation_role",
    },
)


def test_a_request_pickles_and_its_payload_is_the_cached_result() -> None:
    data = HEADS_CSV.read_bytes()
    request = ComputeRequest.of(result_key(HEADS_SPEC, data), HEADS_SPEC, data, "heads.csv")
    again = pickle.loads(pickle.dumps(request))
    assert again.spec == request.spec
    payload = pickle.loads(pickle.dumps(compute_payload(again)))
    assert cached_result(payload, "heads") == compute(request) == report_reading()


def test_a_damaged_reading_payload_is_a_cache_miss() -> None:
    payload = compute_payload(ComputeRequest.of("k", HEADS_SPEC, HEADS_CSV.read_bytes(), "h"))
    del payload["groups"][0]["heads"]
    assert cached_result(payload, "heads") is None
    assert cached_result({"layout": "rows", "groups": []}, "heads") is None


def test_the_result_key_tells_the_layouts_apart() -> None:
    data = MANUAL_CSV.read_bytes()
    questions = spec(queries={"q": "score_flow_limit"})
    heads = spec(heads={"q": "score_flow_limit"})
    assert result_key(questions, data) != result_key(heads, data)


def test_labels_of_a_reading_mark_a_label_that_reads_like_another_name() -> None:
    result = report_reading()
    labels = Labels({"head1": "head2", "정지결정": "stop"}).for_result(result)
    assert labels("head1") == "head2 (head1)"  # reads like the other head
    assert labels("정지결정") == "stop"
    assert labels("balanced_heads") == "balanced_heads"
    question = manual_reading().groups[0].heads[0].name
    assert Labels({question: "泄压"}).for_result(manual_reading())(question) == "泄压"
