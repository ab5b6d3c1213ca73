"""How much of an example the ``try`` view holds on one page, and what readers see beyond that.

The view sends every editable value (a score or a given weight) with its row, its cell in the
file and its initial numbers to the browser: at most about 250 bytes of page per value, and as
many again in the published results. A phone must still load the page, so the view holds at
most the site option ``try_values`` values (default 10,000: a page of at most about 2.5 MB). A
larger example shows its first whole sections (targets, or groups of lines) that fit — each
section's numbers are complete, since a section's softmax and sums read its own rows only —
with a notice saying so; when not even the first section fits, the notice replaces the view.
Either way the build warns, at the block, so ``--strict`` fails until the author shows fewer
rows: never a silent cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.render.escape import html_text


@dataclass(frozen=True)
class Fit:
    """What the view shows of an example: its first ``sections`` of ``all_sections``, holding
    ``values`` of its ``all_values`` editable values."""

    sections: int
    all_sections: int
    values: int
    all_values: int
    limit: int

    @property
    def cut(self) -> bool:
        return self.sections < self.all_sections


def fit(result: ReadingResult, limit: int) -> Fit:
    """The first whole sections whose values add up to at most ``limit``."""
    sizes = result.section_sizes()
    values = sections = 0
    for size in sizes:
        if values + size > limit:
            break
        values += size
        sections += 1
    return Fit(sections, len(sizes), values, sum(sizes), limit)


def first_sections(result: ReadingResult, sections: int) -> ReadingResult:
    """The example with only its first ``sections`` (the rest of its record unchanged)."""
    return result.first_sections(sections)


def limit_warning(found: Fit) -> str:
    """The build's message (at the block): what the page shows, and how to show it all."""
    if found.sections:
        shows = (
            f"the page shows its first {found.sections} of {found.all_sections} sections "
            f"({found.values} values)"
        )
    else:
        shows = "the page shows a notice instead"
    return (
        f"the 'try' view holds at most {found.limit} editable values on a page (site option "
        f"'try_values') and this example has {found.all_values}: {shows}; show fewer rows "
        "('document:', fewer 'targets:') or leave 'try' out of 'show:'"
    )


def notice_html(found: Fit, words: dict[str, str]) -> str:
    """The readers' notice, in the page's language."""
    key = "limited" if found.sections else "too_large"
    text = words[key]
    for name, value in (
        ("{shown}", found.sections),
        ("{total}", found.all_sections),
        ("{values}", found.values),
        ("{all}", found.all_values),
        ("{limit}", found.limit),
    ):
        text = text.replace(name, f"{value:,}")
    return f'<p class="selfattn-try-limit" role="note">{html_text(text)}</p>'
