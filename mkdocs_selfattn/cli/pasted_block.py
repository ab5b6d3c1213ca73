"""How ``inspect`` spells the words of a block and an inline value it prints, so that the text
pasted into a page reads back as the same strings."""

from __future__ import annotations

import json
import re

import yaml

ID_PATTERN = re.compile(r"^[A-Za-z_][\w-]*$")
"""An example id a block may give as it is."""


def scalar(text: str) -> str:
    """``text`` plain when YAML reads it back as the same string in a flow list, else quoted."""
    if text and not any(ch in text for ch in ",[]{}#&*!|>'\"%@`:") and text == text.strip():
        try:
            if yaml.safe_load(text) == text:
                return text
        except yaml.YAMLError:
            pass
    return json.dumps(text, ensure_ascii=False)


def word(text: str) -> str:
    """An inline value's argument: quoted when it has spaces (inline values split like a shell)."""
    if text and not any(ch.isspace() or ch in "'\"\\`" for ch in text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
