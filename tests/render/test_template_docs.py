"""The printout templates and the inline values are documented completely: every template
variable and field of every layout, the default templates verbatim, every inline quantity."""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs_selfattn.build.layouts import LAYOUTS
from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render import template_targets, template_vars
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.layout_renderers import RENDERERS
from mkdocs_selfattn.render.printout import printout_variables
from mkdocs_selfattn.render.template_env import Described
from tests.reading_fixtures import manual_reading, report_reading

DOCS = Path(__file__).resolve().parents[2] / "docs" / "plugin"
TEMPLATES = (DOCS / "templates.md").read_text(encoding="utf-8")
INLINE = (DOCS / "inline-values.md").read_text(encoding="utf-8")


def test_every_top_level_variable_is_documented() -> None:
    empty = ReadingResult("x", "targets", 0, "d", 0, (), (), 1.0, ())
    names = {
        *printout_variables(empty),
        *printout_variables(manual_reading(), Labels()),
        *printout_variables(report_reading(), Labels()),
    }
    missing = [n for n in sorted(names) if f"| `{n}` |" not in TEMPLATES]
    assert not missing


def test_every_field_of_every_record_is_documented() -> None:
    records = {
        obj
        for module in (template_vars, template_targets)
        for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Described) and obj is not Described
    }
    assert len(records) == 6
    missing = [
        (record.__name__, name)
        for record in records
        for name in record.fields
        if not re.search(rf"`\w+\.{name}(\(|`)", TEMPLATES)
    ]
    assert not missing


def test_the_default_templates_are_shown_verbatim() -> None:
    for text in (entry.template for entry in RENDERERS.values()):
        body = text.replace("\\\n", "")
        assert f"```jinja\n{body}```" in TEMPLATES


def test_every_inline_quantity_of_every_layout_is_documented() -> None:
    forms = [layout.inline for layout in LAYOUTS.values()]
    usages = [form.usage(name) for form in forms for name in form.quantities]
    # a table may write `context TARGET` and `… TARGET COLUMN` as two rows
    missing = [
        u
        for u in usages
        if f"| `{u}` |" not in INLINE and f"| `{u.split(' [')[0]}` |" not in INLINE
    ]
    assert not missing
