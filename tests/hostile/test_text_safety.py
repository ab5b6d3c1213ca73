"""Real builds: names with hidden characters, files that are not CSVs, and many typos against many
names each end in one short, located message; nothing a reader sees is reversed, doubled or a
secret.

- direction-changing and invisible characters in CSV names, BOMs inside a file, two BOMs at its
  start, in block YAML and inline values: refused, located, ``--strict`` fails (``ErrorCase``);
- a free-text column shows them as ``<U+…>`` in the table, the CSV view, the printout and the prose;
- ``csv:`` naming a file that is not a CSV (``/../.env``, a text file in docs, a binary file):
  refused without quoting it; the secret is nowhere in the log, the page, the site or the cache;
- twenty inline typos against 100,000 candidates: the log and the page stay small, under the
  suite's time and memory guard.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from .support import (
    GOOD_CSV,
    GOOD_CSV_PATH,
    ErrorCase,
    Project,
    block,
    check_error_case,
    good_block,
    problems,
    yaml_str,
)

HEADER = "document_id,target_token,candidate_token,candidate_role,v1,v2,score\n"
GOOD_ROWS = (
    "trophy_big,it,trophy,object,0.9,0.1,2.3\n"
    "trophy_big,it,suitcase,container,0.2,0.9,1.1\n"
    "trophy_big,it,big,size,0.1,0.1,1.6\n"
)


def csv_block(example_id: str, path: str, *, at_csv: bool = False) -> str:
    """A block reading ``path``; ``#HERE`` on its fence, or (``at_csv``) on its ``csv:`` line."""
    here = "  #HERE" if at_csv else ""
    return block(
        f"id: {example_id}\ncsv: {path}{here}\ndocument: trophy_big\nshow: [output, table]",
        info="selfattn" if at_csv else "selfattn #HERE",
    )


HIDDEN_CASES = [
    ErrorCase(
        "rlo-in-candidate",
        csv_block("rlo", "data/rlo.csv"),
        r"docs/data/rlo\.csv:3: column 'candidate_token': 'suit<U\+202E>case' holds U\+202E "
        r"\(RIGHT-TO-LEFT OVERRIDE\), which changes the direction",
        files={"docs/data/rlo.csv": HEADER + GOOD_ROWS.replace("suitcase", "suit\u202ecase")},
    ),
    ErrorCase(
        "bom-at-row-start",
        csv_block("bom", "data/bom.csv"),
        r"docs/data/bom\.csv:4: column 'document_id': '<U\+FEFF>trophy_big' holds U\+FEFF .*"
        r"byte order mark",
        files={
            "docs/data/bom.csv": HEADER
            + GOOD_ROWS.replace("\ntrophy_big,it,big", "\n\ufefftrophy_big,it,big")
        },
    ),
    ErrorCase(
        "zwsp-twin",
        csv_block("zw", "data/zw.csv"),
        r"docs/data/zw\.csv:5: column 'candidate_token': 'trophy<U\+200B>' holds U\+200B",
        files={
            "docs/data/zw.csv": HEADER + GOOD_ROWS + "trophy_big,it,trophy\u200b,object,1,1,1\n"
        },
    ),
    ErrorCase(
        "two-boms-at-start",
        csv_block("boms", "data/boms.csv"),
        r"docs/data/boms\.csv:1: the file starts with two byte order marks",
        files={"docs/data/boms.csv": ("\ufeff\ufeff" + HEADER + GOOD_ROWS).encode()},
    ),
    ErrorCase(
        "rlo-in-display-label",
        block(
            "id: lab\ncsv: /data/good.csv\ndocument: memo_cap_missing\n"
            f"display: {{그것: {yaml_str('it' + chr(0x202E) + ' = 1')}}}  #HERE\nshow: [table]"
        ),
        r"'display': 'it<U\+202E> = 1' holds U\+202E",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", HIDDEN_CASES, ids=[c.id for c in HIDDEN_CASES])
def test_hidden_characters_are_refused_where_they_are(tmp_path: Path, case: ErrorCase) -> None:
    check_error_case(tmp_path, case)


@pytest.mark.slow
def test_an_inline_value_with_a_hidden_character_is_refused(tmp_path: Path) -> None:
    """A located message with the value's text made visible; no number is computed from it."""
    project = Project(tmp_path, {"cache_dir": ".cache/selfattn", "chart_workers": 0})
    project.configure()
    project.write(GOOD_CSV_PATH, GOOD_CSV)
    text = "# Home\n\n" + good_block("g") + "\nWeight: `{selfattn} g weight 그것 절연캡\u2067`.\n"
    project.page("index.md", text)
    line = text.count("\n")
    strict = project.build(strict=True, site="strict")
    assert strict.returncode != 0, strict.describe()
    [report] = strict.problems()
    assert (report.page, report.line) == ("docs/index.md", line), report
    assert "U+2067 (RIGHT-TO-LEFT ISOLATE)" in report.message


SECRET = "ghp_DeployToken0123456789abcdefSECRET"

FOREIGN_CASES = [
    ErrorCase(
        "env-beside-mkdocs-yml",
        csv_block("env", "/../.env", at_csv=True),
        r"\.env:1: the first line names none of the columns this example reads .*"
        r"is this the CSV file you meant\?",
        files={".env": f"DEPLOY_TOKEN={SECRET}\nOTHER=1\n"},
        forbidden=(SECRET, "DEPLOY_TOKEN"),
    ),
    ErrorCase(
        "text-file-in-docs",
        # Dot files in docs/ are not published by MkDocs: only a message could leak them.
        csv_block("notes", "data/.notes.txt", at_csv=True),
        r"docs/data/\.notes\.txt:1: the first line names none of the columns",
        files={"docs/data/.notes.txt": f"api_key,{SECRET}\nuser,admin\n"},
        forbidden=(SECRET, "api_key"),
    ),
    ErrorCase(
        "env-as-a-script",
        good_block("scr", extra="script: /../.env  #HERE"),
        r"\.env: is not a Python file \(\.py\)",
        files={".env": f"DEPLOY_TOKEN={SECRET}\n"},
        forbidden=(SECRET, "DEPLOY_TOKEN"),
    ),
    ErrorCase(
        "binary-file-in-docs",
        csv_block("bin", "/.key.bin"),
        r"docs/\.key\.bin:1: byte \d+ of the header is not UTF-8",
        files={"docs/.key.bin": SECRET.encode() + b"\xff\xfe\x00" + SECRET.encode()},
        forbidden=(SECRET,),
    ),
    ErrorCase(
        "secret-with-a-hidden-character",
        csv_block("ctl", "/../id.txt"),
        r"id\.txt:1: header field 1 holds U\+001B",
        files={"id.txt": f"\x1b{SECRET}\n"},
        forbidden=(SECRET,),
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", FOREIGN_CASES, ids=[c.id for c in FOREIGN_CASES])
def test_a_file_that_is_not_a_csv_is_never_quoted(tmp_path: Path, case: ErrorCase) -> None:
    check_error_case(tmp_path, case)


# ---------------------------------------------------------------------------------------------
# Free text is shown with its hidden characters made visible

MANUAL = (
    "line_id,section,text,signal,score\n"
    "L01,intro,weight \u202e0.387,0.5,1.2\n"
    "L02,intro,plain words,0.1,0.3\n"
)


@pytest.mark.slow
def test_free_text_shows_hidden_characters_in_every_view(tmp_path: Path) -> None:
    project = Project(tmp_path, {"cache_dir": ".cache/selfattn", "chart_workers": 0})
    project.configure()
    project.write("docs/data/manual.csv", MANUAL)
    template = "{% for line in lines %}{{ line.cells.text }}|{% endfor %}"
    project.page(
        "index.md",
        "# Manual\n\n"
        + block(
            "id: m\ncsv: data/manual.csv\ncolumns: {candidate: line_id, role: section}\n"
            f"queries: {{q: score}}\nvectors: [signal]\ntemplate: {yaml_str(template)}\n"
            "show: [output, table, csv]"
        )
        + "\nPROSE:`{selfattn} m cell L01 text`:END\n",
    )
    build = project.build(strict=True)
    assert build.returncode == 0, build.describe()
    article = build.article("index.md")
    text = article.text()
    assert "\u202e" not in build.html("index.md")
    assert "PROSE:weight <U+202E>0.387:END" in " ".join(text.split())
    shown = [t for t in text.split("\n") if "<U+202E>0.387" in t]
    assert len(shown) >= 3, shown  # printout, table, CSV view and prose


# ---------------------------------------------------------------------------------------------
# Many typos against many names

CANDIDATES = 100_000
TYPOS = 20


def big_csv() -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["document_id", "target_token", "candidate_token", "candidate_role", "v", "score"]
    )
    for i in range(CANDIDATES):
        writer.writerow(
            ["doc", "it", f"candidate_{i:06d}", "r", f"{i % 7 / 7:.3f}", f"{i % 11 / 5:.2f}"]
        )
    return out.getvalue()


@pytest.mark.slow
def test_many_typos_against_many_names_give_short_messages(tmp_path: Path) -> None:
    project = Project(tmp_path, {"cache_dir": ".cache/selfattn", "chart_workers": 0})
    project.configure()
    project.write("docs/data/big.csv", big_csv())
    typos = "\n".join(
        f"Typo {n}: `{{selfattn}} big weight it candidat_{n * 4999:06d}`" for n in range(TYPOS)
    )
    project.page(
        "index.md",
        "# Many names\n\n"
        + good_block("big", csv="data/big.csv", document="doc", targets="[it]", show="[]")
        + "\n"
        + typos
        + "\n",
    )
    build = project.build(strict=False, timeout=180)
    assert not build.run.timed_out, build.describe()
    assert build.returncode == 0, build.describe()
    reports = [p for p in problems(build.log) if "not a candidate" in p.message]
    assert len(reports) == TYPOS, build.describe()
    for report in reports:
        assert len(report.message) < 1200, report.message[:300]
        assert re.search(r"did you mean 'candidate_\d{6}'\?", report.message), report.message
        assert "… and " in report.message
    assert len(build.log.encode()) < 64 * 1024
    page = build.html_path("index.md").stat().st_size
    assert page < 256 * 1024, page
    assert "candidate_099999" not in build.html("index.md")
