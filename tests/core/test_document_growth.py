"""A document's targets are picked, and a named group's tokens checked, in time linear in their
number (a document of 32k targets took 22 s of CPU when each wanted target searched the list of
all). No clock: every comparison of two tokens is counted, at n and 4n; linear work compares
about 4x as often, quadratic work 16x."""

from __future__ import annotations

from dataclasses import replace

from figure_fixtures import compute_document

from mkdocs_selfattn.core.csv_read import parse_table

COMPARED = [0]
GROWTH_BOUND = 6.0


class Token(str):
    def __eq__(self, other: object) -> bool:
        COMPARED[0] += 1
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        COMPARED[0] += 1
        return str.__ne__(self, other)

    __hash__ = str.__hash__


def _comparisons(targets: int, *, listed: bool) -> int:
    lines = ["document_id,target_token,candidate_token,candidate_role,x,score"]
    lines += [f"d,t{t},c{c},r,{c}.5,{t % 7}" for t in range(targets) for c in range(2)]
    table = parse_table(("\n".join(lines) + "\n").encode(), source="many.csv")
    table = replace(table, groups=tuple(Token(t) for t in table.groups))
    # Listed targets are other objects than the table's, as a block's are.
    wanted = [Token(f"t{t}") for t in range(targets)] if listed else None
    COMPARED[0] = 0
    result = compute_document(table, "d", targets=wanted, check=True)
    assert len(result.targets) == targets
    return COMPARED[0]


def test_picking_every_target_grows_linearly() -> None:
    small, large = _comparisons(300, listed=False), _comparisons(1200, listed=False)
    assert large <= GROWTH_BOUND * max(small, 1), (small, large)


def test_picking_listed_targets_grows_linearly() -> None:
    small, large = _comparisons(300, listed=True), _comparisons(1200, listed=True)
    assert large <= GROWTH_BOUND * max(small, 1), (small, large)


def _group_comparisons(members: int) -> int:
    from mkdocs_selfattn.core.named_groups import check_named_groups

    tokens = [Token(f"c{i}") for i in range(members)]
    COMPARED[0] = 0
    check_named_groups("many.csv", "document 'd'", {"g": tokens}, list(tokens))
    return COMPARED[0]


def test_a_named_group_of_many_tokens_is_checked_in_linear_time() -> None:
    small, large = _group_comparisons(500), _group_comparisons(2000)
    assert large <= GROWTH_BOUND * max(small, 1), (small, large)


def test_the_first_repeated_name_is_the_one_a_message_names() -> None:
    from mkdocs_selfattn.errors import first_repeated

    assert first_repeated(["a", "b", "c", "b", "a"]) == "b"
    assert first_repeated(["a", "b", "c"]) is None
    assert first_repeated([]) is None
