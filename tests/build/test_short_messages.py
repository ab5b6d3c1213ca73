"""Messages stay short whatever the data: capped length, capped name lists, few suggestions, and
"did you mean" over 100,000 names compares a bounded number of them yet finds the close one."""

from __future__ import annotations

import difflib
from typing import Any

import pytest

from mkdocs_selfattn.errors import DataError, close_matches, did_you_mean

MESSAGE_LIMIT, NAMES_SHOWN, SUGGESTIONS, COMPARED = 1000, 12, 3, 2000
"""The documented limits (docs/plugin/errors.md)."""

NAMES = [f"candidate_{i:06d}" for i in range(100_000)]


def test_a_message_is_cut_and_says_how_much() -> None:
    error = DataError("x.csv", "a" * (MESSAGE_LIMIT + 500), line=3)
    assert len(error.message) < MESSAGE_LIMIT + 40
    assert error.message.endswith("… (500 more characters)")
    assert str(error).startswith("x.csv:3: aaa")


def test_a_list_of_names_shows_the_first_and_counts_the_rest() -> None:
    from mkdocs_selfattn.errors import listing

    shown = listing(NAMES)
    assert shown.count("candidate_") == NAMES_SHOWN
    assert shown.endswith(f"… and {len(NAMES) - NAMES_SHOWN} more")
    assert (
        listing(NAMES[:3], quote=True)
        == "'candidate_000000', 'candidate_000001', 'candidate_000002'"
    )


@pytest.mark.parametrize(
    ("typo", "meant"),
    [
        ("candidat_054321", "candidate_054321"),  # an edit in the first half
        ("candidate_05_4321", "candidate_054321"),  # in the second half
        ("candidate-054321", "candidate_054321"),  # in the middle
        ("Candidate_099999", "candidate_099999"),  # case only
        ("xandidate_012345", "candidate_012345"),  # the first character
    ],
)
def test_did_you_mean_over_many_names_compares_few_and_finds_the_close_one(
    typo: str, meant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared: list[int] = []
    original = difflib.get_close_matches

    def spy(word: str, possibilities: Any, *args: Any, **kwargs: Any) -> list[str]:
        compared.append(len(possibilities))
        return original(word, possibilities, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", spy)
    assert did_you_mean(typo, NAMES) == f" (did you mean '{meant}'?)"
    from mkdocs_selfattn import errors

    assert (errors.MESSAGE_LIMIT, errors.NAMES_SHOWN) == (MESSAGE_LIMIT, NAMES_SHOWN)
    assert (errors.SUGGESTIONS, errors.COMPARED) == (SUGGESTIONS, COMPARED)
    assert compared
    assert max(compared) <= COMPARED


def test_suggestions_are_few() -> None:
    assert len(close_matches("candidate_00000", NAMES, n=50)) <= SUGGESTIONS
