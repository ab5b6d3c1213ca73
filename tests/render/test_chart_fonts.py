"""Charts are laid out with the plugin's own font files (matplotlib's DejaVu Sans, the packaged
Noto Sans CJK SC, the site's ``chart_fonts``) and never with the machine's: the same pages with
and without the system's fonts, fonts in every chart's key, a missing glyph message that names
what works, and a font package that arrives after a first build.

The machine's fonts are hidden by a mount namespace (``unshare``) with an empty folder over every
folder matplotlib and fontconfig read fonts from; a fresh ``MPLCONFIGDIR`` makes matplotlib scan
them again. The bundled CJK font is "not installed" when an empty ``noto_cjk_sans_otc`` package
earlier on the path shadows the real one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest
from figure_fixtures import document
from sites import REPO, new_site, seed_block

from mkdocs_selfattn.blocks.spec import ExampleSpec, ViewOptions
from mkdocs_selfattn.build.figure_views import chart_key
from mkdocs_selfattn.render.chart import ChartStyle, render_chart
from mkdocs_selfattn.render.chart_fonts import CJK_PACKAGE, chart_fonts, font_keys
from mkdocs_selfattn.render.font_registry import registered_families
from mkdocs_selfattn.render.glyphs import missing_glyphs
from mkdocs_selfattn.render.labels import Labels

MPL_FONTS = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
EXTRA = MPL_FONTS / "STIXSizFiveSymReg.ttf"
"""A small font (14 KB) with characters the bundled fonts lack, such as ⎴ (U+23B4)."""
OTHER = MPL_FONTS / "STIXSizOneSymBol.ttf"  # none of them
BRACKET = "\u23b4"
STACK = "font-family: 'DejaVu Sans', 'Noto Sans CJK SC', sans-serif"


def _cjk_chart(fonts: tuple[str, ...] = (), label: str = "绝缘帽 절연캡") -> str:
    style = ChartStyle(fonts=chart_fonts(fonts))
    result = document(["it"], ["cap", "pack"])
    return render_chart(result, Labels({"cap": label}), style=style).svg


# -- which files -------------------------------------------------------------------------------


def test_matplotlib_finds_the_plugins_files_whatever_the_machine_has() -> None:
    from matplotlib import font_manager

    fonts = chart_fonts()
    assert [f.family for f in fonts] == ["DejaVu Sans", "Noto Sans CJK SC"]
    assert fonts[0].path == str(MPL_FONTS / "DejaVuSans.ttf")
    assert f"{os.sep}noto_cjk_sans_otc{os.sep}" in fonts[1].path
    for font, name in zip(fonts, registered_families(fonts), strict=True):
        found = font_manager.fontManager.findfont(font_manager.FontProperties(family=name))
        assert str(found) == font.path
    # The machine's own copy of the family (Debian's fonts-noto-cjk, say) is another file.
    system = [e.fname for e in font_manager.fontManager.ttflist if e.name == "Noto Sans CJK SC"]
    assert fonts[1].path not in system


def test_the_svg_names_the_real_families_for_the_browser() -> None:
    svg = _cjk_chart()
    assert STACK in svg
    assert "selfattn " not in svg  # the private names matplotlib was given


def test_a_font_file_of_the_site_adds_the_glyphs_it_has(tmp_path: Path) -> None:
    extra = shutil.copy(EXTRA, tmp_path / "extra.ttf")
    assert missing_glyphs([BRACKET + "帽"], chart_fonts()) == [BRACKET]
    assert missing_glyphs([BRACKET + "帽"], chart_fonts((str(extra),))) == []
    result = document(["it"], ["cap", "pack"])
    bare = render_chart(result, Labels({"cap": BRACKET}), style=ChartStyle())
    assert bare.missing_glyphs == [BRACKET]
    style = ChartStyle(fonts=chart_fonts((str(extra),)))
    drawn = render_chart(result, Labels({"cap": BRACKET}), style=style)
    assert drawn.missing_glyphs == []
    assert f"{STACK.removesuffix(', sans-serif')}, 'STIXSizeFiveSym', sans-serif" in drawn.svg


# -- keys --------------------------------------------------------------------------------------


def _key(fonts: tuple[str, ...]) -> str:
    spec = ExampleSpec(id=None, csv="a.csv", document="m", line=1)
    return chart_key("r", spec, ChartStyle(fonts=chart_fonts(fonts)), None, ViewOptions(), "chart")


def test_a_charts_key_holds_the_fonts_contents_not_their_paths(tmp_path: Path) -> None:
    one = shutil.copy(EXTRA, tmp_path / "one.ttf")
    elsewhere = shutil.copy(EXTRA, tmp_path / "elsewhere.ttf")
    other = shutil.copy(OTHER, tmp_path / "other.ttf")
    assert _key(()) != _key((str(one),))
    assert _key((str(one),)) == _key((str(elsewhere),))  # another machine, another folder
    assert _key((str(one),)) != _key((str(other),))
    keys = font_keys(chart_fonts((str(one),)))
    assert not any(str(tmp_path) in str(part) or "site-packages" in str(part) for part in keys)
    assert keys[1][0].startswith(f"{CJK_PACKAGE} ")


def test_an_edited_font_file_redraws_the_charts_and_pages(tmp_path: Path) -> None:
    site = new_site(
        tmp_path / "project",
        {"index.md": "# F\n\n" + seed_block(show="[chart]").replace("它", BRACKET + "它")},
        plugin_options={"chart_fonts": ["fonts/extra.ttf"], "chart_workers": 0},
    )
    (site.root / "fonts").mkdir()
    shutil.copy(OTHER, site.root / "fonts" / "extra.ttf")  # has no ⎴
    assert any("no glyph for " + BRACKET in m for m in site.build().selfattn())
    shutil.copy(EXTRA, site.root / "fonts" / "extra.ttf")  # same name, a font that has it
    assert site.build(strict=True).selfattn() == []
    assert "'STIXSizeFiveSym', sans-serif" in site.html()


@pytest.mark.parametrize(
    ("write", "said"),
    [
        (None, "chart_fonts: 'fonts/extra.ttf' cannot be read (not found, looked for "),
        (b"not a font", "chart_fonts: 'fonts/extra.ttf' is not a TrueType or OpenType font file"),
    ],
)
def test_a_font_file_that_is_not_one_stops_the_build_at_load(
    tmp_path: Path, write: bytes | None, said: str
) -> None:
    site = new_site(
        tmp_path / "project",
        {"index.md": "# F\n\n" + seed_block(show="[chart]")},
        plugin_options={"chart_fonts": ["fonts/extra.ttf"]},
    )
    if write is not None:
        (site.root / "fonts").mkdir()
        (site.root / "fonts" / "extra.ttf").write_bytes(write)
    done = site.run()
    assert done.returncode != 0
    assert f"selfattn: {said}" in done.stderr
    assert "Traceback" not in done.stderr
    assert not site.html_path("index.md").exists()


# -- machines without the fonts ----------------------------------------------------------------


def _font_folders() -> list[str]:
    """Every folder matplotlib (and so fontconfig's usual folders) reads fonts from."""
    from matplotlib import font_manager

    home = Path.home()
    folders = [*font_manager.X11FontDirectories, home / ".fonts", home / ".local/share/fonts"]
    return sorted({str(Path(f)) for f in folders if Path(f).is_dir()})


def _run(
    command: list[str],
    cwd: Path,
    *,
    mplconfig: Path,
    hide_system_fonts: bool = False,
    shadow: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``command`` with its own matplotlib config; optionally with the machine's fonts hidden
    (a mount namespace: an empty folder over each font folder), and with the bundled CJK font's
    package shadowed by an empty one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    path = [str(shadow)] if shadow is not None else []
    env |= {
        "PYTHONPATH": os.pathsep.join([*path, str(REPO)]),
        "MPLCONFIGDIR": str(mplconfig),
        "NO_MKDOCS_2_WARNING": "1",
    }
    if hide_system_fonts:
        empty = cwd.parent / "no-fonts"
        empty.mkdir(exist_ok=True)
        mounts = "".join(f'mount --bind "{empty}" "{folder}" && ' for folder in _font_folders())
        namespace = ["unshare", "--mount"] + (["--map-root-user"] if os.getuid() else [])
        command = [*namespace, "sh", "-c", mounts + 'exec "$@"', "sh", *command]
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def _shadow(folder: Path) -> Path:
    (folder / "noto_cjk_sans_otc").mkdir(parents=True)
    (folder / "noto_cjk_sans_otc" / "__init__.py").write_text("", encoding="utf-8")
    return folder


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def _probe(tmp_path: Path, code: str, *, hide_system_fonts: bool) -> str:
    """What ``code`` prints in a Python without the bundled CJK font's package."""
    (tmp_path / "work").mkdir()
    done = _run(
        [sys.executable, "-c", code],
        tmp_path / "work",
        mplconfig=tmp_path / "mpl",
        hide_system_fonts=hide_system_fonts,
        shadow=_shadow(tmp_path / "shadow"),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_hiding_works(tmp_path: Path) -> None:
    """The mount namespace hides every font of the machine from matplotlib, and the shadow
    package hides the bundled CJK font: the other tests' "without" means without."""
    code = (
        "from matplotlib import font_manager as fm\n"
        "from mkdocs_selfattn.render.chart_fonts import chart_fonts\n"
        "print(len(fm.findSystemFonts()), [f.family for f in chart_fonts()])\n"
    )
    assert _probe(tmp_path, code, hide_system_fonts=True) == "0 ['DejaVu Sans']\n"


def test_the_missing_package_is_what_the_cjk_advice_names(tmp_path: Path) -> None:
    code = "from mkdocs_selfattn.render.glyphs import glyph_message\nprint(glyph_message(['你']))"
    assert _probe(tmp_path, code, hide_system_fonts=False) == (
        f"the chart font has no glyph for 你; install the chart font's package: pip install "
        f"{CJK_PACKAGE}\n"
    )


def _demo(root: Path) -> Path:
    """The repository's site: the trilingual course (mkdocs-static-i18n) and the plugin's own
    documentation, as they are, so that ``--strict`` holds for the whole site."""
    root.mkdir()
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    return root


BUILD = [sys.executable, "-m", "mkdocs", "build", "--strict"]  # no -q: it would mute --strict


@pytest.mark.slow
def test_the_trilingual_demo_is_the_same_with_and_without_the_machines_fonts(
    tmp_path: Path,
) -> None:
    with_fonts = _demo(tmp_path / "with")
    without = _demo(tmp_path / "without")
    built = _run(BUILD, with_fonts, mplconfig=tmp_path / "mpl-with")
    assert built.returncode == 0, built.stderr
    bare = _run(BUILD, without, mplconfig=tmp_path / "mpl-without", hide_system_fonts=True)
    assert bare.returncode == 0, bare.stderr
    one, other = _files(with_fonts / "site"), _files(without / "site")
    assert sorted(one) == sorted(other)
    assert [name for name in one if one[name] != other[name]] == []
    korean = one["ko/course/part-05/chapter-13/p5-13-2-self-attention/index.html"].decode()
    assert korean.count('class="selfattn-chart selfattn-chart-wide"') >= 2
    assert korean.count('class="selfattn-chart selfattn-chart-narrow"') >= 2
    assert STACK in korean


@pytest.mark.slow
def test_a_font_that_arrives_after_the_first_build_is_used_by_the_next(tmp_path: Path) -> None:
    """First built without any CJK font (none on the machine, the package missing), then with
    the package, keeping matplotlib's config (its font list) and the plugin's cache: the second
    build passes --strict and equals a fresh one."""
    page = "# F\n\n" + seed_block(show="[table, chart]")
    site = new_site(tmp_path / "book", {"index.md": page})
    fresh = new_site(tmp_path / "fresh", {"index.md": page})
    mpl = tmp_path / "mpl"
    first = _run(
        BUILD,
        site.root,
        mplconfig=mpl,
        hide_system_fonts=True,
        shadow=_shadow(tmp_path / "shadow"),
    )
    assert first.returncode != 0
    assert f"; install the chart font's package: pip install {CJK_PACKAGE}" in first.stderr
    second = _run(BUILD, site.root, mplconfig=mpl)
    assert second.returncode == 0, second.stderr
    assert "glyph" not in second.stderr
    third = _run(BUILD, fresh.root, mplconfig=tmp_path / "mpl-fresh")
    assert third.returncode == 0, third.stderr
    assert site.page_bytes() == fresh.page_bytes()
    assert STACK in site.html()


def test_a_fifo_in_place_of_a_font_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    from mkdocs_selfattn.render.chart_fonts import FontFileError, resolve_font_files

    os.mkfifo(tmp_path / "extra.ttf")
    with pytest.raises(FontFileError, match=r"'extra\.ttf' is not a regular file"):
        resolve_font_files(["extra.ttf"], tmp_path)


def test_the_extension_reads_font_files_from_its_project_folder(tmp_path: Path) -> None:
    """Zensical and plain Python-Markdown: ``chart_fonts`` relative to ``project_dir``."""
    from mkdocs_selfattn.errors import SelfAttnError
    from mkdocs_selfattn.extension import SelfAttnExtension

    (tmp_path / "fonts").mkdir()
    shutil.copy(EXTRA, tmp_path / "fonts" / "extra.ttf")
    options = {"project_dir": str(tmp_path), "docs_dir": "."}
    found = SelfAttnExtension(**options, chart_fonts=["fonts/extra.ttf"]).pipeline
    assert found.settings.chart.fonts == chart_fonts((str(tmp_path / "fonts" / "extra.ttf"),))
    missing = SelfAttnExtension(**options, chart_fonts=["fonts/none.ttf"])
    with pytest.raises(SelfAttnError, match=r"selfattn: chart_fonts: 'fonts/none.ttf' cannot be"):
        _ = missing.pipeline
