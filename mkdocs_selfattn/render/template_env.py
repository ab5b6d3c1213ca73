"""The printout templates' Jinja2 environment: sandboxed, deterministic, strict, and failing with
one located message (the block's ``template:`` line, the template line and what to fix).

A template is author text run at build time, so it runs in Jinja2's sandbox (no attribute that
starts with ``_``, no file access, bounded ``range``, no list or mapping changed in place),
without the two nondeterministic helpers Jinja2 ships (``lipsum``, ``random``), and with its
the limits of :mod:`~mkdocs_selfattn.render.template_limits` (time, memory, output, numbers,
nesting): a page build must give the same bytes every time and can never be made to hang or to
take the machine's memory.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import jinja2
from jinja2.exceptions import SecurityError

from mkdocs_selfattn.core.readings import READING_KINDS
from mkdocs_selfattn.errors import BlockError, close_matches, listing
from mkdocs_selfattn.render.template_limits import (
    MAX_OUTPUT,
    LimitedSandbox,
    LimitError,
    bounded_range,
    nesting_problem,
    spend,
    start,
    stop,
)

__all__ = ["MAX_OUTPUT", "Cells", "Described", "Named", "Numbers", "TemplateError", "spend"]

_TEMPLATE_FILE = "<template>"


class TemplateError(BlockError):
    """A ``template:`` that cannot be compiled or filled. ``line`` is the page line of the
    block's ``template:`` key once known (the page puts it there when the caller could not)."""

    key = "template"

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message, line=line)


class Described:
    """A template variable's record: a kind for messages and the fields it offers."""

    kind = "record"
    fields: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"<{self.kind}>"


class Cells(dict[str, str]):
    """A row's cells by column name, as written in the CSV (``line.cells.COLUMN``)."""


class Named(dict[str, Any]):
    """A mapping of head, question or group names (``g.contexts.head1``)."""


class Numbers(list[float]):
    """A head's per-line numbers (``h.weights``): a list that prints as one, whose items a loop
    reads against the :func:`spend` budget."""

    counts_itself = True

    def __iter__(self) -> Iterator[float]:
        for number in super().__iter__():
            spend()
            yield number


def r3(value: Any) -> Any:
    """``round(x, 3)`` as the chapters' scripts print it, element-wise on lists."""
    if isinstance(value, jinja2.Undefined):
        value._fail_with_undefined_error()  # says which name is undefined, as printing would
    if isinstance(value, list | tuple):
        return [r3(v) for v in value]
    if isinstance(value, bool) or not isinstance(value, int | float):
        shown = value if isinstance(value, str | int | float) else type(value).__name__
        raise TypeError(f"r3 rounds numbers or lists of numbers, not {shown!r}")
    return round(value, 3)


def _choices(obj: Any) -> list[str]:
    if isinstance(obj, Described):
        return list(obj.fields)
    if isinstance(obj, Mapping):
        return [str(k) for k in obj]
    return []


class _Undefined(jinja2.StrictUndefined):
    """StrictUndefined whose message names what exists, with "did you mean"."""

    @property
    def _undefined_message(self) -> str:
        name = str(self._undefined_name)
        obj = self._undefined_obj
        if obj is jinja2.utils.missing:
            return _NOT_A_VARIABLE.format(name)
        options = _choices(obj)
        if isinstance(obj, Cells):
            what = f"no CSV column '{name}'"
        elif isinstance(obj, Described):
            what = f"a {obj.kind} has no '{name}'"
        elif isinstance(obj, Mapping):
            what = f"no '{name}' here"
        else:
            return super()._undefined_message
        listed = f"; it has: {listing(options)}" if options else ""
        return f"{what}{_hint(name, options)}{listed}"


def _hint(name: str, options: Iterable[str]) -> str:
    found = close_matches(name, options)
    return f" (did you mean '{found[0]}'?)" if found else ""


_NOT_A_VARIABLE = "'{}' is not a template variable"
_ONE_GROUP = ("queries", "baseline", "lines")
"""Top-level names of a questions example of one group (template_vars.reading_variables)."""


@functools.cache
def environment() -> LimitedSandbox:
    """Jinja2's sandbox that also refuses to change lists and mappings in place (a template
    reads the results, it cannot edit what the next view of the same example reads), held to
    the limits of :mod:`~mkdocs_selfattn.render.template_limits`."""
    env = LimitedSandbox(
        trim_blocks=True,
        keep_trailing_newline=True,
        undefined=_Undefined,
        autoescape=False,
    )
    env.add_filter("r3", r3)
    del env.filters["random"]
    del env.globals["lipsum"]
    env.globals["range"] = bounded_range
    return env


@functools.lru_cache(maxsize=64)
def _compiled(text: str) -> jinja2.Template | str:
    """The compiled template, or the message saying why it cannot be compiled. Compiling runs
    template code too (Jinja2 folds constant expressions), so it has a budget of its own."""
    env = environment()
    deep = nesting_problem(env, text)
    if deep is not None:
        return _located(text, deep[0], f"{deep[1]}; split it with {{% set %}}")
    token = start()
    try:
        return env.from_string(text)
    except jinja2.TemplateSyntaxError as exc:
        return _syntax_message(text, exc)
    except RecursionError:
        return _located(text, None, "an expression is nested or chained too deeply; split it")
    except MemoryError:
        return _located(text, None, "the template needs too much memory to compile")
    except LimitError as exc:
        return _located(text, None, str(exc))
    finally:
        stop(token)


def fill(text: str, variables: Mapping[str, Any], line: int | None = None) -> str:
    """The template filled with ``variables``; :class:`TemplateError` on any failure."""
    template = _compiled(text)
    if isinstance(template, str):
        raise TemplateError(template, line=line)
    parts: list[str] = []
    size = 0
    token = start()
    try:
        for chunk in template.generate(variables):
            size += len(chunk)
            if size > MAX_OUTPUT:
                raise TemplateError(
                    f"template: the printout is longer than {MAX_OUTPUT:,} characters; "
                    "print fewer lines (loop over q.top, not every line)",
                    line=line,
                )
            parts.append(chunk)
    except TemplateError:
        raise
    except RecursionError:
        raise TemplateError(_located(text, None, "calls itself too deeply"), line=line) from None
    except MemoryError:
        message = "needs more memory than the build has; print fewer lines"
        raise TemplateError(_located(text, None, message), line=line) from None
    except LimitError as exc:
        raise TemplateError(_located(text, _template_line(exc), str(exc)), line=line) from None
    except Exception as exc:  # a template may fail in any way; the author gets one line
        raise TemplateError(
            _located(text, _template_line(exc), _describe(exc, variables)), line=line
        ) from None
    finally:
        stop(token)
    return "".join(parts)


def _describe(exc: Exception, variables: Mapping[str, Any]) -> str:
    if isinstance(exc, jinja2.UndefinedError):
        message = exc.message or "undefined"
        name = message.split("'")[1] if message.count("'") >= 2 else ""
        if message == _NOT_A_VARIABLE.format(name):
            known = sorted(variables, key=str.casefold)
            message += f"{_hint(name, known)}; variables: {listing(known)}"
            kind = READING_KINDS.get(variables.get("layout", ""))
            if name in _ONE_GROUP and kind is not None and not kind.always_grouped:
                message += f" (with several groups: {{% for g in groups %}} and g.{name})"
        return message
    if isinstance(exc, SecurityError):
        return f"not allowed in a printout template ({exc})"
    if isinstance(exc, TypeError | ValueError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def _template_line(exc: BaseException) -> int | None:
    """The template line Jinja2 records in the traceback it rewrites for templates."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == _TEMPLATE_FILE:
            found = tb.tb_lineno
        tb = tb.tb_next
    return found


def _syntax_message(text: str, exc: jinja2.TemplateSyntaxError) -> str:
    message = exc.message or "syntax error"
    if message.startswith("No filter named"):
        filters = sorted(environment().filters)
        wanted = message.split("'")[1] if "'" in message else ""
        message = f"no filter '{wanted}'{_hint(wanted, filters)}; filters: {', '.join(filters)}"
    return _located(text, exc.lineno, message)


def _located(text: str, number: int | None, message: str) -> str:
    if number is None:
        return f"template: {message}"
    lines = text.splitlines()
    shown = lines[number - 1].strip() if 0 < number <= len(lines) else ""
    if len(shown) > 80:
        shown = shown[:77] + "…"
    quoted = f" `{shown}`" if shown else ""
    return f"template line {number}{quoted}: {message}"
