"""The try view's Python half: its HTML and data (golden), escaping, cell spans, and a real build
that publishes the script, the stylesheet and the results only where the view is used."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sites import COURSE_CSV, seed_block
from test_views_golden import HOSTILE, _load, _view, check_golden, project  # noqa: F401

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.spec import parse_block
from mkdocs_selfattn.core.results import document_of
from mkdocs_selfattn.errors import BlockError
from mkdocs_selfattn.render.try_csv import field_spans, utf16_slice
from mkdocs_selfattn.render.try_view import WORDS, script_json, view_words

DATA = re.compile(r'data-selfattn-data="([^"]*)"')


def _data(text: str) -> dict[str, object]:
    match = DATA.search(text)
    assert match, text[:200]
    parsed: dict[str, object] = json.loads(html.unescape(match.group(1)))
    return parsed


def test_try_view_golden(project: Path, update_goldens: bool) -> None:  # noqa: F811
    pipeline, example = _load(project)
    kind, out = _view(pipeline, example, "try")
    assert kind == "late"
    check_golden("try.html", out, update_goldens)
    _, korean = _view(pipeline, example, "try", language="ko")
    check_golden("try_ko.html", korean, update_goldens)
    data = _data(out)
    groups = data["groups"]
    assert isinstance(groups, list)
    assert len(groups) == 2
    # The initial numbers are the core's, bit for bit.
    first = document_of(example.result).targets[0]
    head = groups[0]["heads"][0]
    assert head["initial"]["weights"] == [c.weight for c in first.candidates]
    assert head["values"] == [c.score for c in first.candidates]
    # Each score cell span reads back the CSV's own text of that score.
    text = example.csv_bytes.decode("utf-8-sig")
    for span, cand in zip(head["cells"], first.candidates, strict=True):
        assert float(utf16_slice(text, tuple(span))) == cand.score


def test_hostile_text_cannot_leave_the_data_script(project: Path) -> None:  # noqa: F811
    pipeline, example = _load(project, HOSTILE)
    _, out = _view(pipeline, example, "try")
    assert "<script" not in out  # Material's instant navigation would run it as code
    blobs = re.findall(r'data-selfattn-(?:data|result)="([^"]*)"', out)
    assert len(blobs) == 2
    for blob in blobs:
        # Only the escapes of '"' and of '&' itself: no markup, no character reference in it.
        assert "<" not in blob
        assert ">" not in blob
        assert set(re.findall(r"&[a-z#0-9]+;", blob)) <= {"&quot;"}
        assert "<script>" not in html.unescape(blob)
        json.loads(html.unescape(blob))
    data = _data(out)
    tokens = [row["raw"] for row in data["groups"][0]["rows"]]  # type: ignore[index]
    assert "<script>alert(1)</script>" in tokens
    assert data["groups"][0]["rows"][0]["label"] == "<b>bold</b> | pipe"  # type: ignore[index]


def test_script_json_escapes_line_separators() -> None:
    out = script_json({"a": "x\u2028y\u2029</script><!--&"})
    assert "\u2028" not in out
    assert "\u2029" not in out
    assert json.loads(out) == {"a": "x\u2028y\u2029</script><!--&"}


def test_number_formats_the_browser_cannot_reproduce_are_refused(project: Path) -> None:  # noqa: F811
    pipeline, example = _load(project)
    _view(pipeline, example, "try", number_format=".1%")
    with pytest.raises(BlockError, match=r"'\.Nf' or '\.N%'"):
        _view(pipeline, example, "try", number_format=".2e")


def test_words_cover_every_language_and_text_overrides(project: Path) -> None:  # noqa: F811
    assert set(WORDS["zh"]) == set(WORDS["en"]) == set(WORDS["ko"])
    pipeline, example = _load(project)
    _, out = _view(pipeline, example, "try", text={"score": "logit"}, language="ko-KR")
    words = _data(out)["words"]
    assert isinstance(words, dict)
    assert words["score"] == "logit"
    assert words["reset"] == WORDS["ko"]["reset"]
    assert words["weight"] == "가중치"  # the table view's word, so both views agree
    assert WORDS["ko"]["nojs"] in out
    _, out = _view(pipeline, example, "try", language="fr")
    assert _data(out)["words"]["reset"] == WORDS["en"]["reset"]  # type: ignore[index]


def test_show_try_validates() -> None:
    [raw] = find_blocks(seed_block(show="[table, try]", extra="temperature: 0.5"))
    assert parse_block(raw).view.show == ("table", "try")
    [raw] = find_blocks(seed_block(show="[trys]"))
    with pytest.raises(BlockError, match="did you mean 'try'"):
        parse_block(raw)


_cell = st.text(alphabet=st.sampled_from(list('ab,"\r\n 1😀é')), max_size=6)


@given(st.lists(st.lists(_cell, min_size=1, max_size=4), min_size=1, max_size=5))
def test_field_spans_agree_with_the_csv_module(rows: list[list[str]]) -> None:
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    text = buffer.getvalue()
    expected = [r for r in csv.reader(io.StringIO(text, newline="")) if r]
    spans = field_spans(text)
    got = []
    for record in spans:
        cells = []
        for span in record:
            raw = utf16_slice(text, span)
            cells.append(raw[1:-1].replace('""', '"') if raw.startswith('"') else raw)
        got.append(cells)
    # The csv module keeps records of one empty field as [''], and drops truly empty lines.
    assert [r for r in got if r != [""]] == [r for r in expected if r != [""]]


# ---------------------------------------------------------------------------------------------
# A real build


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("try-build")
    docs = root / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "memo.csv").write_bytes(COURSE_CSV.read_bytes())
    (docs / "sub" / "try.md").write_text(
        "# Try\n\n" + seed_block(csv="../memo.csv", show="[table, try]"), encoding="utf-8"
    )
    (docs / "plain.md").write_text(
        "# Plain\n\n" + seed_block(csv="memo.csv", show="[table]"), encoding="utf-8"
    )
    (root / "mkdocs.yml").write_text(
        "site_name: t\ntheme: {name: material, language: ko, font: false}\n"
        "markdown_extensions:\n  - pymdownx.superfences:\n      custom_fences:\n"
        "        - name: mermaid\n          class: mermaid\n          format: !!python/name:"
        "pymdownx.superfences.fence_code_format\n"
        "plugins:\n  - search\n  - selfattn: {cache_dir: .cache/selfattn}\n",
        encoding="utf-8",
    )
    # Twice: the second build takes every page from the page memo and must publish the same.
    for site in ("site", "warm-site"):
        subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(root / site)],
            cwd=root,
            check=True,
            capture_output=True,
        )
    return root


@pytest.mark.slow
def test_build_publishes_results_and_loads_assets_only_where_used(built: Path) -> None:
    site = built / "site"
    page = (site / "sub" / "try" / "index.html").read_text(encoding="utf-8")
    plain = (site / "plain" / "index.html").read_text(encoding="utf-8")
    script = "../../assets/javascripts/selfattn/selfattn-try.js"
    assert f'<script src="{script}" data-selfattn-asset></script>' in page
    assert 'href="../../assets/stylesheets/selfattn-try.css"' in page
    assert "selfattn-try" not in plain
    assert (site / "assets/javascripts/selfattn/selfattn-try.js").is_file()
    # The results copy the page carried is gone; the link points at the published file.
    assert "selfattn-try-result" not in page
    [href] = re.findall(r'<a class="selfattn-try-json" href="([^"]+)"', page)
    published = (site / "sub" / "try" / href).resolve()
    cli = subprocess.run(
        [
            *(sys.executable, "-m", "mkdocs_selfattn", "run", str(built / "docs" / "memo.csv")),
            *("--document", "memo_cap_missing", "--target", "그것", "--target", "씌우지"),
            *("--group", "cap_plus_not_applied=절연캡,씌우지", "--format", "json"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert published.read_text(encoding="utf-8") == cli.stdout
    # The warm build (pages from the memo) is the same site, results file included.
    warm = built / "warm-site"
    assert (warm / "sub" / "try" / "index.html").read_text(encoding="utf-8") == page
    assert (warm / "sub" / "try" / href).resolve().read_text(encoding="utf-8") == cli.stdout


@pytest.mark.slow
def test_the_package_ships_the_assets() -> None:
    """hatchling includes non-Python files of the package; a wheel built here must hold them."""
    from hatchling.builders.wheel import WheelBuilder

    builder = WheelBuilder(str(Path(__file__).resolve().parents[2]))
    names = {f.distribution_path for f in builder.recurse_included_files()}
    assert "mkdocs_selfattn/assets/try/selfattn-try.js" in names
    assert "mkdocs_selfattn/assets/try/selfattn-try.css" in names


def test_score_cells_found_through_bom_crlf_quotes_and_astral_text() -> None:
    from mkdocs_selfattn.core.csv_read import parse_table
    from mkdocs_selfattn.core.document_results import compute_targets
    from mkdocs_selfattn.render.labels import Labels
    from mkdocs_selfattn.render.try_data import try_data

    data = (
        "\ufeffdocument_id,target_token,candidate_token,candidate_role,v,score\r\n"
        'd,"it, 😀",a😀,"r ""q""",1.0,"2.50"\r\n'
        "\r\n"
        'd,"it, 😀","b\r\nline",r,2.0, 1e0\r\n'
        "e,x,c,r,3.0,0.5\r\n"
    ).encode()
    result = compute_targets(parse_table(data, source="x.csv"), "d")
    out = try_data(
        result,
        Labels(),
        data,
        source="x.csv",
        columns={},
        groups={},
        number_format=None,
        words=view_words(None, {}),
        csv_href=None,
        csv_name="x.csv",
    )
    cells = out["groups"][0]["heads"][0]["cells"]
    text = data.decode("utf-8-sig")
    assert [utf16_slice(text, tuple(c)) for c in cells] == ['"2.50"', " 1e0"]
    assert out["csv"]["bom"] is True
    assert out["csv"]["text"] == text


def test_a_sites_colour_roles_reach_the_live_chart() -> None:
    from mkdocs_selfattn.render.defaults import DEFAULT_COLORS
    from mkdocs_selfattn.render.try_view import color_style, css_color

    assert color_style(DEFAULT_COLORS) == ""  # the stylesheet's shades per palette
    assert color_style(list(DEFAULT_COLORS)) == ""
    style = color_style(["#112233", "tab:red", "C2", "#abc", "#445566"])
    assert style == (
        ' style="--selfattn-try-main: #112233; --selfattn-try-emphasis: #d62728; '
        '--selfattn-try-input: #2ca02c; --selfattn-try-axis: #abc"'
    )
    # Roles the site leaves out keep the stylesheet's.
    assert color_style(["#112233"]) == ' style="--selfattn-try-main: #112233"'
    assert css_color("#11223380") == "#11223380"
    assert css_color("blue") == "#0000ff"


@pytest.mark.slow
def test_the_built_try_view_carries_the_sites_colours(tmp_path: Path) -> None:
    from sites import new_site

    site = new_site(
        tmp_path / "project",
        {"index.md": "# T\n\n" + seed_block(show="[try]")},
        plugin_options={"chart_colors": ["#112233", "tab:red"]},
    )
    done = site.run()
    assert done.returncode == 0, done.stderr
    page = (site.site_dir / "index.html").read_text(encoding="utf-8")
    assert (
        'class="selfattn-try" style="--selfattn-try-main: #112233; '
        '--selfattn-try-emphasis: #d62728"'
    ) in page
