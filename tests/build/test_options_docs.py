"""docs/plugin/configuration.md against SITE_OPTIONS, so the page cannot drift from the code;
and the pipeline's Settings and result key against the tables they are derived from."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from mkdocs_selfattn.blocks.spec import KEYS, NUMBER_KEYS, ExampleSpec
from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.options import PIPELINE_OPTIONS, SITE_OPTIONS, SiteOption
from mkdocs_selfattn.build.pipeline import result_key
from mkdocs_selfattn.build.settings import Settings

PAGE = Path(__file__).parents[2] / "docs" / "plugin" / "configuration.md"
TEXT = PAGE.read_text(encoding="utf-8")


def _example_yaml() -> dict[str, object]:
    """The options of the page's first ``yaml`` fence, which says it shows the defaults."""
    fence = re.search(r"```yaml\n(.*?)```", TEXT, re.DOTALL)
    assert fence is not None, "configuration.md lost its mkdocs.yml example"
    plugins = yaml.safe_load(fence.group(1))["plugins"]
    [options] = [item["selfattn"] for item in plugins if isinstance(item, dict)]
    assert isinstance(options, dict)
    return options


def test_the_example_lists_every_option_with_its_default() -> None:
    shown = _example_yaml()
    assert list(shown) == [option.name for option in SITE_OPTIONS]
    for option in SITE_OPTIONS:
        assert shown[option.name] == option.default, option.name


@pytest.mark.parametrize("option", SITE_OPTIONS, ids=lambda option: option.name)
def test_every_option_has_a_table_row_and_a_section(option: SiteOption) -> None:
    name = option.name
    row = re.search(rf"^\| \[`{name}`\]\(#([a-z_-]+)\) \|", TEXT, re.MULTILINE)
    assert row is not None, f"no table row for {name}"
    heading = re.search(rf"^## `{name}`", TEXT, re.MULTILINE)
    assert heading is not None or name in row.group(1), f"no section for {name}"
    if isinstance(option.default, bool | int | float | str):
        shown = yaml.safe_dump(option.default).removesuffix("\n...\n").strip()
        line = TEXT[row.start() : TEXT.index("\n", row.start())]
        assert f"`{shown}`" in line, f"the table row of {name} does not show its default"


def test_settings_hold_every_pipeline_option_and_refuse_others() -> None:
    settings = Settings(script_timeout=5, number_format="", chart_colors=[])
    assert set(settings.options) == set(PIPELINE_OPTIONS)
    assert settings.script_timeout == 5.0
    assert settings.number_format is None
    assert settings.chart.colors
    assert settings.chart.width * 72 == 760  # the book's figure by default
    with pytest.raises(TypeError, match="on_error"):
        Settings(on_error="fail")
    with pytest.raises(AttributeError):
        _ = settings.on_error


def test_the_result_key_changes_with_number_keys_only() -> None:
    assert tuple(name for name, key in KEYS.items() if key.numbers) == NUMBER_KEYS
    base = ExampleSpec(id=None, csv="a.csv", document="m", line=1)
    key = result_key(base, b"csv")
    changed = {
        "document": "n",
        "targets": ("t",),
        "vectors": ("v",),
        "columns": {"token": "tok"},
        "groups": {"g": ("a",)},
        "temperature": 2.0,
        "queries": {"q": "score"},
        "heads": {"h": "weight"},
        "axes": {"a": ("x", "y")},
        "normalise": True,
    }
    assert set(changed) == set(NUMBER_KEYS)
    for name, value in changed.items():
        assert result_key(_with(base, name, value), b"csv") != key, name
    unchanged = {"csv": "b.csv", "display": {"a": "A"}, "script": "s.py", "template": "{{ x }}"}
    for name, value in unchanged.items():
        assert result_key(_with(base, name, value), b"csv") == key, name
    assert result_key(base, b"other") != key
    assert Cache(None).get("result", key) is None  # a key the store accepts


def _with(spec: ExampleSpec, name: str, value: object) -> ExampleSpec:
    from dataclasses import replace

    return replace(spec, **{name: value})
