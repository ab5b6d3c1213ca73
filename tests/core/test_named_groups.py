"""The named-groups check every layout shares: one message, the same words in each layout."""

from __future__ import annotations

import pytest

from mkdocs_selfattn.blocks.spec import ExampleSpec
from mkdocs_selfattn.build.jobs import ComputeRequest, compute
from mkdocs_selfattn.core.named_groups import check_named_groups
from mkdocs_selfattn.errors import DataError, listing

MANUAL = "line_id,section,evidence_signal,s\nL01,a,1,0.5\nL02,a,2,1.5\nL03,b,3,2.5\n"


def test_listing_names_the_first_then_counts() -> None:
    assert listing(["a", "b"], quote=True) == "'a', 'b'"
    assert listing([str(i) for i in range(25)], limit=2, quote=True) == "'0', '1' … and 23 more"
    assert listing(str(i) for i in range(3)) == "0, 1, 2"


@pytest.mark.parametrize(
    ("members", "message"),
    [
        (("L01", "L01"), "group 'g' names 'L01' twice; list each candidate once"),
        (("L01", "L9"), "group 'g' names 'L9', which is not a candidate of the file"),
    ],
)
def test_a_questions_example_checks_its_groups_like_a_targets_one(
    members: tuple[str, ...], message: str
) -> None:
    spec = ExampleSpec(
        id=None,
        csv="m.csv",
        document=None,
        line=1,
        queries={"q": "s"},
        vectors=("evidence_signal",),
        columns={"candidate": "line_id", "role": "section"},
        groups={"g": members},
    )
    request = ComputeRequest.of("k", spec, MANUAL.encode(), "m.csv")
    with pytest.raises(DataError) as caught:
        compute(request)
    assert message in str(caught.value)


def test_every_candidate_known_passes() -> None:
    check_named_groups("f.csv", "the file", {"g": ["a", "b"]}, ["a", "b", "c"])
