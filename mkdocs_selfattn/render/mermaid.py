"""A mermaid flowchart of one example: memo → candidates → each target → its top weights → new
representation, the chapter's figure with every number computed and every label escaped."""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs_selfattn.render.escape import mermaid_label
from mkdocs_selfattn.render.labels import Labels, format_value, py_list
from mkdocs_selfattn.results import DocumentResult

DEFAULT_TEXT: Mapping[str, str] = {
    "document": "document",
    "candidates": "candidate tokens",
    "target": "target token",
    "weights": "re-reads most",
    "representation": "new representation",
    "shift": "shift",
}

# Translucent fills and no text colour: Material's mermaid theme colours the labels for the light
# or dark palette, so a fixed light fill would leave pale text on a pale box in dark mode.
_CLASSES = (
    "  classDef input fill:#64748b1f,stroke:#64748b\n"
    "  classDef target fill:#0891b21f,stroke:#0891b2\n"
    "  classDef weight fill:#2563eb1f,stroke:#2563eb\n"
    "  classDef result fill:#16a34a1f,stroke:#16a34a"
)


def _label(*lines: str) -> str:
    return '["' + "<br/>".join(lines) + '"]'


def render_mermaid(
    result: DocumentResult,
    labels: Labels,
    *,
    top: int = 3,
    number_format: str | None = None,
    text: Mapping[str, str] | None = None,
) -> str:
    """Mermaid source (without the fence). Node ids are generated, never taken from the CSV."""
    words = {**DEFAULT_TEXT, **(text or {})}

    def t(key: str) -> str:
        return mermaid_label(words[key])

    candidates: list[tuple[str, int | None]] = []
    for target in result.targets:
        for cand in target.candidates:
            if (cand.token, cand.index) not in candidates:
                candidates.append((cand.token, cand.index))
    lines = [
        "flowchart TD",
        f"  doc{_label(t('document'), mermaid_label(labels(result.document)))}",
        "  cand"
        + _label(
            t("candidates"), " · ".join(mermaid_label(labels(tok, idx)) for tok, idx in candidates)
        ),
        "  doc --> cand",
    ]
    for n, target in enumerate(result.targets):
        ranked = sorted(target.candidates, key=lambda c: -c.weight)[:top]
        weight_lines = [
            f"{mermaid_label(labels(c.token, c.index))} {format_value(c.weight, number_format)}"
            for c in ranked
        ]
        representation = mermaid_label(py_list(target.representation))
        shift = mermaid_label(py_list(target.shift))
        target_label = mermaid_label(labels(target.target, target.target_index))
        lines += [
            f"  cand --> t{n}{_label(t('target') + ': ' + target_label)}",
            f"  t{n} --> w{n}{_label(t('weights'), *weight_lines)}",
            f"  w{n} --> r{n}"
            + _label(t("representation"), representation, f"{t('shift')} {shift}"),
        ]
    lines.append(_CLASSES)
    n_targets = len(result.targets)
    if n_targets:
        lines += [
            "  class doc,cand input",
            "  class " + ",".join(f"t{n}" for n in range(n_targets)) + " target",
            "  class " + ",".join(f"w{n}" for n in range(n_targets)) + " weight",
            "  class " + ",".join(f"r{n}" for n in range(n_targets)) + " result",
        ]
    return "\n".join(lines) + "\n"


def mermaid_html(source: str, element: str = "pre", class_name: str = "mermaid") -> str:
    """What pymdownx.superfences makes of a ``mermaid`` fence (``fence_code_format`` for
    ``pre``, ``fence_div_format`` for ``div``), so the figure can bypass markdown and the search
    index and still read exactly as the fence would."""
    body = source.rstrip("\n").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if element == "div":
        return f'<div class="{class_name}">{body}</div>'
    return f'<pre class="{class_name}"><code>{body}</code></pre>'
