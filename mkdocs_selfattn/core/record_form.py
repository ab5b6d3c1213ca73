"""One plain form for every result record: the cache's payload, what a worker sends back and the
JSON view (``mkdocs-selfattn run --format json``, and the file the try view publishes beside a
page), derived from the records' own fields and types, so a record family can never drift from
its form and a new field needs no code here.

The rules, by a field's type: numbers, text and None as they are, except that a field whose
default is None is left out while it is None (a detail only some layouts have, such as a token's
position, adds nothing to the others' form); a record as a mapping of its fields in declaration
order; a tuple of (text, value) pairs, such as a reader's named groups or a reading's axes, as a
mapping; any other tuple as a list. Reading it back casts every number and
text to its type, so a payload loaded from JSON or from the cache is the record the engine made,
bit for bit; a wrong shape raises ``KeyError``, ``TypeError``, ``ValueError`` or
``OverflowError`` (an infinite or huge number where a whole one belongs): a cache miss.

Each record type's converters are built once from its type hints, and the loaded form is read by
plain comprehensions: a warm build reads large cached results with no per-value type lookup.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Hashable, Mapping
from functools import cache
from typing import Any, Literal, TypeVar

R = TypeVar("R")
Convert = Callable[[Any], Any]

OUTSIDE: tuple[str, ...] = ("source", "warnings")
"""Fields of a whole result that its JSON view leaves out: where the file is on this machine,
and the doubts a page shows as messages. The cache's payload keeps them (``warnings`` only when
there are any)."""


def to_plain(record: object) -> dict[str, Any]:
    """The JSON view of a result: every field but :data:`OUTSIDE`, numbers at full precision."""
    plain = _dumper(typing.cast(Hashable, type(record)))(record)
    for name in OUTSIDE:
        plain.pop(name, None)
    return plain


def payload(record: object) -> dict[str, Any]:
    """The cache's form of a result (also what a worker sends back): the JSON view, then where
    the file was and, when there are any, the doubts."""
    plain = _dumper(typing.cast(Hashable, type(record)))(record)
    source, warnings = plain.pop("source"), plain.pop("warnings")
    plain["source"] = source
    if warnings:
        plain["warnings"] = warnings
    return plain


def from_plain(cls: type[R], data: Mapping[str, Any]) -> R:
    """Inverse of :func:`payload`, and of :func:`to_plain` (the JSON view, which has no
    ``source``: it loads as ""); a missing field with a default takes it."""
    if isinstance(data, dict) and "source" not in data:
        data = {**data, "source": ""}
    loaded: R = _loader(typing.cast(Hashable, cls))(data)
    return loaded


# ---------------------------------------------------------------------------------------------
# Converters, built once per type


@cache
def _dumper(cls: type) -> Callable[[Any], dict[str, Any]]:
    # None for a field kept as it is: skipping the call is most of the cost of a large result.
    fields = [(f.name, _dump(hint), f.default is None) for f, hint in _fields(cls)]
    plain = [(name, None if dump is _same else dump, quiet) for name, dump, quiet in fields]

    def dump(record: Any) -> dict[str, Any]:
        out = {}
        for name, convert, quiet in plain:
            value = getattr(record, name)
            if quiet and value is None:
                continue
            out[name] = value if convert is None else convert(value)
        return out

    return dump


@cache
def _loader(cls: type) -> Convert:
    fields = [(f.name, _load(hint), _default(f)) for f, hint in _fields(cls)]
    # A field whose default is None is read with get: it is left out while None (see _dumper).
    quiet = {f.name for f in dataclasses.fields(cls) if f.default is None}
    every = [(name, convert, name in quiet) for name, convert, _ in fields]
    optional = [n for n, _, default in fields if default is not _MISSING and n not in quiet]

    def load(data: Mapping[str, Any]) -> Any:
        if type(data) is not dict:
            raise TypeError(f"{cls.__name__}: expected a mapping")
        if not optional or all(name in data for name in optional):
            return cls(*[convert(data.get(n) if q else data[n]) for n, convert, q in every])
        values = []
        for name, convert, default in fields:
            if name in data:
                values.append(convert(data[name]))
            elif default is _MISSING:
                raise KeyError(name)
            else:
                values.append(default())
        return cls(*values)

    return load


_MISSING = object()


def _default(field: dataclasses.Field[Any]) -> Any:
    """A zero-argument maker of the field's default (a factory runs for each record loaded)."""
    if field.default is not dataclasses.MISSING:
        value = field.default
        return lambda: value
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory
    return _MISSING


def _fields(cls: type) -> list[tuple[dataclasses.Field[Any], Any]]:
    hints = typing.get_type_hints(cls)
    return [(f, hints[f.name]) for f in dataclasses.fields(cls)]


def _dump(hint: Any) -> Convert:
    if dataclasses.is_dataclass(hint):
        return _dumper(typing.cast(Hashable, hint))
    item = _items(hint)
    if item is None:
        return _same
    pair = _pair(item)
    if pair is not None:
        value = _dump(pair)
        return lambda pairs: {key: value(v) for key, v in pairs}
    each = _dump(item)
    if each is _same:
        return list
    return lambda values: [each(v) for v in values]


def _load(hint: Any) -> Convert:
    if dataclasses.is_dataclass(hint):
        return _loader(typing.cast(type, hint))
    item = _items(hint)
    if item is None:
        return _scalar(hint)
    pair = _pair(item)
    if pair is not None:
        value = _load(pair)
        return lambda mapping: tuple((str(key), value(v)) for key, v in mapping.items())
    each = _load(item)

    def many(values: Any) -> tuple[Any, ...]:
        # A text would otherwise be taken for a tuple of its characters.
        if type(values) in _NOT_LISTS:
            raise TypeError("expected a list")
        return tuple(map(each, values))

    return many


_NOT_LISTS = (str, bytes, dict)


def _items(hint: Any) -> Any:
    """The item type of ``tuple[X, ...]``; None for any other type."""
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0]
    return None


def _pair(hint: Any) -> Any:
    """The value type of a ``tuple[str, V]`` pair; None for any other type."""
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[0] is str and args[1] is not Ellipsis:
            return args[1]
    return None


def _same(value: Any) -> Any:
    return value


def _scalar(hint: Any) -> Convert:
    """A number, text, flag, a literal's value, or one of them or None."""
    if hint in (int, float, str):
        return typing.cast(Convert, hint)
    if hint is bool:
        return _flag
    origin = typing.get_origin(hint)
    if origin is Literal:
        allowed = typing.get_args(hint)

        def literal(value: Any) -> Any:
            if value not in allowed:
                raise ValueError(f"{value!r} is not one of {allowed!r}")
            return value

        return literal
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(options) == 1:
            inner = _scalar(options[0])
            return lambda value: None if value is None else inner(value)
    # Not a cache miss but the code's mistake (a record field of a new kind): say so loudly.
    raise NotImplementedError(f"no plain form for {hint!r}")


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("expected true or false")
    return value
