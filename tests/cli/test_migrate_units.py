"""The pieces of ``migrate`` that need no process: printouts compared number by number, the
script/printout pairs of a page, and the literals a script offers as hints."""

from __future__ import annotations

from mkdocs_selfattn.cli.migrate_block import script_hints
from mkdocs_selfattn.cli.migrate_pairs import find_pairs
from mkdocs_selfattn.cli.printout_numbers import NUMBER, NumberChange, WordChange, compare


def test_numbers_are_found_as_python_prints_them_and_not_inside_words() -> None:
    line = "L10 pressure weight = 0.092 signal = 2.9 head1_context = [-0.05, 1e-05, nan]"
    assert NUMBER.findall(line) == ["0.092", "2.9", "-0.05", "1e-05", "nan"]


def test_equal_values_written_differently_are_the_same_number() -> None:
    assert compare("a = 0.430\nb = [1.0, 2]", "a = 0.43\nb = [1.0, 3]\n\n") == [
        NumberChange(line=1, position=2, old="2", new="3")
    ]


def test_other_words_make_it_another_printout_not_a_stale_one() -> None:
    assert compare("a = 1\nb = 2", "a = 1\nc = 2") == WordChange(1, "b = 2", "c = 2")
    assert compare("a = 1", "a = 1\nb = 2") == WordChange(1, None, "b = 2")


def test_a_pair_is_a_python_fence_then_a_printout_fence() -> None:
    page = "\n".join(
        [
            "# Title",
            "```python",
            "print(1)",
            "```",
            "",
            "```text",
            "1",
            "```",
            "## Next",
            "```python",
            "print(2)",
            "```",
            "## A heading between: another subject",
            "```text",
            "2",
            "```",
            "    ```python",
            "    print(3)",
            "    ```",
            "```text",
            "3",
            "```",
        ]
    )
    [pair] = find_pairs(page)
    assert (pair.code_start, pair.code_end, pair.out_start, pair.out_end) == (2, 4, 6, 8)
    assert (pair.script, pair.pasted, pair.prose_between) == ("print(1)\n", "1", False)


def test_a_short_paragraph_between_is_kept_as_prose() -> None:
    page = "```py\nprint(1)\n```\n\nIn the output, first:\n\n```\n1\n```\n"
    [pair] = find_pairs(page)
    assert pair.prose_between
    assert pair.gap == ("", "In the output, first:", "")


def test_a_script_offers_its_literals_whatever_its_constants_are_called() -> None:
    hints = script_hints(
        'DATA = Path("docs/x.csv")\n'
        'WHO = ["그것", "씌우지"]\n'
        'LABEL = {"그것": "it"}\n'
        'PAIRS = (("Q?", "score_q"),)\n'
        'AXES = {"a": ("x", "y")}\n'
        'if token in {"절연캡", "씌우지"}: pass\n'
    )
    assert hints is not None
    assert hints.csv_paths() == ["docs/x.csv"]
    assert ("그것", "씌우지") in hints.sequences
    assert ("절연캡", "씌우지") in hints.sequences
    assert (("그것", "it"),) in hints.mappings
    assert (("Q?", "score_q"),) in hints.mappings
    assert hints.axes == ((("a", ("x", "y")),),)
    assert script_hints("this is not python(") is None
