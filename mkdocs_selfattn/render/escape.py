"""Escaping CSV-derived text for each place it lands. CSV text is data, never markup.

Markdown cells use numeric character references for every ASCII punctuation mark: Python-Markdown
and the pymdown extensions (emoji ``:x:``, critic ``{++``, smarty ``--``, tables ``|``) all leave
``&#NN;`` alone, so no extension a site enables can reinterpret a token.
"""

from __future__ import annotations

import html
import string

_PUNCT = frozenset(string.punctuation)
# Marks no markdown or pymdown inline syntax starts with in running text; kept readable.
_MD_PUNCT = _PUNCT - set(".,;/?%")
_MERMAID_PUNCT = _PUNCT - set(".,:/?%!+=_-@")
# Marks that start inline syntax in CommonMark mid-line (emphasis, code, links, HTML, tables,
# strike-through): a copied cell never begins a line, so "-", "+", ":" and "=" stay as typed.
_MD_BACKSLASHED = frozenset("\\`*_{}[]()<>#!|~&^$")


def md_text(text: str) -> str:
    """Text for a markdown paragraph or table cell: shows literally, breaks no table."""
    out: list[str] = []
    for ch in text:
        if ch in _MD_PUNCT:
            out.append(f"&#{ord(ch)};")
        elif ch == "\n":
            out.append("<br>")
        elif ch in "\r\t\f\v":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def md_escape(text: str) -> str:
    """Text for markdown a person copies (the command line's ``--format markdown``): marks
    escaped with a backslash as CommonMark (GitHub, most editors) defines it, so the copy reads
    as typed and carries no character references."""
    out: list[str] = []
    for ch in text:
        if ch in _MD_BACKSLASHED:
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("<br>")
        elif ch in "\r\t\f\v":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def html_text(text: str) -> str:
    """Text for HTML element content or a quoted attribute value."""
    return html.escape(text, quote=True)


def mermaid_label(text: str) -> str:
    """Text for inside a double-quoted mermaid label.

    Mermaid decodes ``#NN;`` entity codes after parsing, so quotes, brackets, arrows, pipes and
    HTML cannot end the label or reach the diagram as markup.
    """
    out: list[str] = []
    for ch in text:
        if ch in _MERMAID_PUNCT:
            out.append(f"#{ord(ch)};")
        elif ch in "\r\n\t\f\v":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def terminal_text(text: str, *, keep_newlines: bool = False) -> str:
    """Text for a terminal or a log, from a file: control characters (escape sequences that
    recolour or clear the screen, a newline that starts a forged ``WARNING -`` line, line and
    paragraph separators) written as ``repr`` writes them (``\\x1b``, ``\\n``), as the build's
    messages quote file content. ``keep_newlines`` keeps the lines of a multi-line printout."""
    if text.isprintable() or all(_printable(ch, keep_newlines) for ch in text):
        return text
    return "".join(ch if _printable(ch, keep_newlines) else repr(ch)[1:-1] for ch in text)


def _printable(ch: str, keep_newlines: bool) -> bool:
    return ch.isprintable() or (keep_newlines and ch == "\n") or ch == " " or ch == "\t"
