"""What a printout template may cost: its budgets, and the sandbox that holds it to them.

A template is author text run at build time, so nothing in it may make the build hang or take the
machine's memory, neither while it is compiled nor while it is filled. Jinja2's sandbox keeps
templates away from files and private attributes, not from ``"x" * 3000000000``, ``9 ** 9 ** 9``
(which Jinja2 even evaluates while *compiling*, to fold constants), ``"%2500000000d" | format(1)``,
text captured by ``{% set %}`` in a loop, or loops nested over long strings. Here every operation
that can make a large value checks its size first, every loop item and call is counted, and every
piece of text written (printed or captured) is counted as it is written:

* **steps**: loop items, calls and filters, :data:`MAX_STEPS` in all (time);
* **text made**: characters (and list items) of every value the template builds, printed or not,
  :data:`MAX_MADE` in all (memory);
* **printout**: :data:`MAX_OUTPUT` characters, and no captured block or macro longer than that;
* **numbers**: whole numbers of at most :data:`MAX_INT_BITS` bits; widths and precisions of
  format specs at most :data:`~mkdocs_selfattn.render.format_spec.MAX_FORMAT_WIDTH`;
* **nesting**: brackets and blocks at most :data:`MAX_NESTING` deep (deeper, Jinja2's parser
  runs out of Python's stack).

A limit hit raises :class:`LimitError`, which the caller turns into one located message.
"""

from __future__ import annotations

import contextvars
import operator
from collections.abc import (
    Callable,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    Mapping,
    Sequence,
    ValuesView,
)
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedFormatter

from mkdocs_selfattn.render.format_spec import MAX_FORMAT_WIDTH, percent_problem, width_problem

MAX_OUTPUT = 16 * 1024 * 1024
"""Characters a printout (or one captured block, or one macro's output) may have. Not a script's
1 MiB: the default printout of a large file lists every row (a 20,000-row example prints more
than 1 MiB) and is filled whatever the block shows; the text a template makes is held to
:data:`MAX_MADE` besides, so this bounds the page, not the memory."""

MAX_STEPS = 20_000_000
"""Loop items, calls and filters a printout may run, all together: a million lines read by three
questions is 3,000,000; two loops nested over them would never end."""

MAX_MADE = 32 * 1024 * 1024
"""Characters and list items of all the values a printout builds, printed or thrown away: a
template cannot take more than a few hundred MB, however it loops."""

MAX_INT_BITS = 4096
"""Bits of a whole number a template may compute (about 1,200 digits)."""

MAX_NESTING = 30
"""Brackets and blocks (``for``, ``if``, ``macro`` …) inside each other."""

MAX_TEMPLATE_BYTES = 64 * 1024
"""A template file given to ``run --template`` (a block's ``template:`` is held to the block's
64 KiB)."""

_WIDTH_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})
_WIDTH_FILTERS = frozenset({"center", "indent", "slice"})
_NO_METHODS = frozenset({"translate"})
_SIZE_FREE_FILTERS = frozenset(
    {
        "abs", "attr", "batch", "count", "d", "default", "dictsort", "first", "float", "groupby",
        "int", "items", "last", "length", "list", "map", "max", "min", "r3", "reject",
        "rejectattr", "reverse", "round", "select", "selectattr", "slice", "sort", "sum",
        "unique",
    }
)  # fmt: skip
"""Filters that do not turn their whole input into text (the others' input is measured first)."""
_CHECKED_FILTERS = frozenset({"slice", "sum"})
"""Filters among those with arguments that are checked all the same."""


# Tuples, not ``X | Y`` unions: isinstance() on a union builds it on every call, and these
# checks run for every value a template prints or builds.
_SIZED = (str, bytes, list, tuple, dict)
_TEXTS = (str, bytes)
_SEQUENCES = (list, tuple)
_JOINABLE = (list, tuple, str)
_VIEWED = (list, tuple, KeysView, ValuesView, ItemsView)
_COLLECTIONS = (list, tuple, set, frozenset)
_NUMBERS = (bool, int, float)
CALL_STEPS = 20
"""Steps a call (a macro, a method) costs: about twenty loop items' time."""
FILTER_STEPS = 4
"""Steps a filter costs."""


class LimitError(Exception):
    """A template past one of its limits (raised through Jinja2, reported as one message)."""


class Budget:
    """What one compile or one fill has spent so far."""

    def __init__(self) -> None:
        self.steps = 0
        self.made = 0


_budget: contextvars.ContextVar[Budget] = contextvars.ContextVar("template_budget")


def start() -> contextvars.Token[Budget]:
    """A fresh budget for one compile or fill; pass the token to :func:`stop`."""
    return _budget.set(Budget())


def stop(token: contextvars.Token[Budget]) -> None:
    _budget.reset(token)


def spend(count: int = 1) -> None:
    """Count steps; past :data:`MAX_STEPS` the printout stops with a message."""
    budget = _budget.get(None)
    if budget is None:
        return
    budget.steps += count
    if budget.steps > MAX_STEPS:
        raise LimitError(f"the template reads more than {MAX_STEPS:,} items; loop over fewer lines")


def made(value: Any) -> Any:
    """Count the size of a value the template has built; returns it."""
    if isinstance(value, _SIZED):
        _add_made(len(value))
    elif isinstance(value, int) and not isinstance(value, bool):
        check_int(value)
    return value


def _add_made(size: int) -> None:
    budget = _budget.get(None)
    if budget is None:
        return
    budget.made += size
    if budget.made > MAX_MADE:
        raise LimitError(
            f"the template builds more than {MAX_MADE:,} characters of text in all; "
            "print fewer lines (loop over q.top, not every line)"
        )


def _refuse_size(size: int, what: str, limit: int = MAX_MADE) -> None:
    if size > limit:
        raise LimitError(f"{what} would be longer than {limit:,} characters")


def check_int(value: int) -> None:
    if value.bit_length() > MAX_INT_BITS:
        raise LimitError(f"a whole number of more than {MAX_INT_BITS:,} bits")


# --------------------------------------------------------------------------------------------
# Sizes and printable values


def size_of(value: Any, limit: int = MAX_MADE) -> int:
    """About how many characters ``str(value)`` has, without building it; stops counting past
    ``limit`` (so a list of a million references to one long string costs ``limit``, not more)."""
    total = 0
    stack = [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, _TEXTS):
            total += len(item) + 2
        elif isinstance(item, bool) or item is None:
            total += 5
        elif isinstance(item, int):
            total += item.bit_length() // 3 + 2
        elif isinstance(item, float):
            total += 24
        elif isinstance(item, Mapping):
            total += 2
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, _COLLECTIONS):
            total += 2 + len(item)
            stack.extend(item)
        else:
            total += 16
    return total


def printable(value: Any) -> Any:
    """The finalize hook: what ``{{ … }}`` prints must be a value, not a method, a generator or an
    object whose text carries its memory address (a different page on every build)."""
    if isinstance(value, jinja2.Undefined):
        return value  # printing it raises the message that says which name is missing
    size = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            size += len(item)
        elif isinstance(item, _NUMBERS) or item is None:
            size += 8
            if isinstance(item, int) and not isinstance(item, bool):
                check_int(item)
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, _VIEWED):
            stack.extend(item)
            size += 2 * len(item)
        elif isinstance(item, jinja2.Undefined):
            str(item)  # raises the message that says which name is missing
        else:
            size += 16
            _check_leaf(item)
        if size > MAX_OUTPUT:
            raise LimitError(f"the value printed is longer than {MAX_OUTPUT:,} characters")
    _add_made(size)
    return value


_OBJECT_REPR: Any = object.__repr__


def _check_leaf(item: Any) -> None:
    if callable(item):
        name = getattr(item, "__name__", type(item).__name__)
        raise LimitError(f"'{name}' is a method or function, not a value; call it: {name}()")
    if isinstance(item, Iterator | range | Counted) or type(item).__module__ == "jinja2.runtime":
        raise LimitError(
            "a sequence read one item at a time (map, select, range …) prints no values; "
            "add | list, or | join(', ')"
        )
    own = type(item).__module__.startswith("mkdocs_selfattn.")
    if not own or type(item).__repr__ is _OBJECT_REPR:
        raise LimitError(
            f"a {type(item).__name__} object has no text to print (only its address); "
            "print one of its values"
        )


# --------------------------------------------------------------------------------------------
# Counted sequences


class Counted(Sequence[int]):
    """``range`` for templates: the same numbers, each one read counted by :func:`spend`."""

    counts_itself = True

    def __init__(self, numbers: range) -> None:
        self._numbers = numbers

    def __len__(self) -> int:
        return len(self._numbers)

    def __getitem__(self, index: Any) -> Any:
        return self._numbers[index]

    def __iter__(self) -> Iterator[int]:
        for number in self._numbers:
            spend()
            yield number


def bounded_range(*args: int) -> Counted:
    numbers = range(*args)
    if len(numbers) > MAX_STEPS:
        raise LimitError(f"range of {len(numbers):,} numbers; a template may read {MAX_STEPS:,}")
    return Counted(numbers)


def counted(iterable: Iterable[Any]) -> Iterator[Any]:
    """Each item of a loop or a lazy filter result, counted (unless the sequence counts its own:
    the records' line lists, ``range``)."""
    if getattr(type(iterable), "counts_itself", False):
        yield from iterable
        return
    for item in iterable:
        spend()
        yield item


class Captured(list[str]):
    """The text of a ``{% set %}`` block, a macro or a call block, counted as it is written."""

    def __init__(self) -> None:
        super().__init__()
        self.size = 0

    def _grow(self, pieces: Iterable[Any]) -> list[str]:
        texts = [str(piece) for piece in pieces]
        grown = sum(len(text) for text in texts)
        self.size += grown
        if self.size > MAX_OUTPUT:
            raise LimitError(
                f"a captured block or macro writes more than {MAX_OUTPUT:,} characters"
            )
        _add_made(grown)
        return texts

    def append(self, piece: Any) -> None:
        super().extend(self._grow((piece,)))

    def extend(self, pieces: Iterable[Any]) -> None:
        super().extend(self._grow(pieces))


# --------------------------------------------------------------------------------------------
# Operators, calls and filters


def binop(op: str, left: Any, right: Any) -> Any:
    """``*``, ``**``, ``%`` and ``+``, with their result's size checked before it is built."""
    if op == "*":
        _check_product(left, right)
        return made(left * right)
    if op == "**":
        _check_power(left, right)
        return made(left**right)
    if op == "%":
        if isinstance(left, str):
            check_percent(left, right)
        return made(left % right)
    if isinstance(left, _JOINABLE) and isinstance(right, _JOINABLE):
        _refuse_size(len(left) + len(right), "the sum")
    return made(operator.add(left, right))


def _check_product(left: Any, right: Any) -> None:
    for seq, times in ((left, right), (right, left)):
        if isinstance(seq, _TEXTS + _SEQUENCES) and isinstance(times, int):
            _refuse_size(len(seq) * max(times, 0), "the repeated text or list")
    if (
        isinstance(left, int)
        and isinstance(right, int)
        and left.bit_length() + right.bit_length() > MAX_INT_BITS + 1
    ):
        raise LimitError(f"the product has more than {MAX_INT_BITS:,} bits")


def _check_power(base: Any, exponent: Any) -> None:
    if not (isinstance(base, int) and isinstance(exponent, int)) or exponent <= 0:
        return
    if abs(base) > 1 and (exponent > MAX_INT_BITS or base.bit_length() * exponent > MAX_INT_BITS):
        raise LimitError(f"the power has more than {MAX_INT_BITS:,} bits")


def check_percent(template: str, args: Any) -> None:
    """``"%5.1f" % x`` and ``"%5.1f" | format(x)``: widths first, then the text it would make."""
    problem = percent_problem(template)
    if problem is not None:
        raise LimitError(problem)
    positional = list(args) if isinstance(args, tuple) else [args]
    size = len(template)
    index = 0
    for piece in template.split("%")[1:]:
        if not piece or piece.startswith("%"):
            continue
        if piece.startswith("(") and isinstance(args, Mapping):
            value = args.get(piece[1 : piece.find(")")])
        else:
            value = positional[index] if index < len(positional) else None
            index += 1
        size += size_of(value) + MAX_FORMAT_WIDTH
        _refuse_size(size, "the formatted text")


def check_call(obj: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
    """The string methods whose result can be far larger than their inputs."""
    owner = getattr(obj, "__self__", None)
    if not isinstance(owner, str):
        return
    name = getattr(obj, "__name__", "")
    if name in _NO_METHODS:
        raise LimitError(f"str.{name} is not available in a printout template")
    if name in _WIDTH_METHODS:
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and value > MAX_FORMAT_WIDTH:
                raise LimitError(
                    f"{name}({value}) is wider than {MAX_FORMAT_WIDTH} characters; "
                    "use a narrower width"
                )
    elif name == "replace" and len(args) >= 2:
        _check_replace(owner, args[0], args[1], args[2] if len(args) > 2 else -1)
    elif name == "join" and args:
        _refuse_size(size_of(args[0]) * (1 + len(owner)), "the joined text")


def _check_replace(text: Any, old: Any, new: Any, count: Any) -> None:
    if isinstance(text, str) and isinstance(old, str) and isinstance(new, str):
        found = text.count(old) if old else len(text) + 1
        if isinstance(count, int) and count >= 0:
            found = min(found, count)
        _refuse_size(len(text) + found * len(new), "the replaced text")


def guarded_filter(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (a Jinja2 filter) with a step counted, its input and arguments checked
    first and its result counted; lazy results are counted item by item."""

    skip = 1 if hasattr(function, "jinja_pass_arg") else 0  # the context, eval context or env
    checked = name not in _SIZE_FREE_FILTERS or name in _CHECKED_FILTERS

    def guarded(*args: Any, **kwargs: Any) -> Any:
        spend(FILTER_STEPS)
        if checked:
            _check_filter(name, list(args[skip:]), kwargs)
        result = function(*args, **kwargs)
        if hasattr(type(result), "__next__"):
            return counted(result)
        return made(result)

    # Jinja2 passes the context, eval context or environment by this mark (pass_context …).
    guarded.__dict__.update(getattr(function, "__dict__", {}))
    guarded.__name__ = getattr(function, "__name__", name)
    return guarded


def _check_filter(name: str, values: list[Any], kwargs: Mapping[str, Any]) -> None:
    if not values:
        return
    value, args = values[0], values[1:]
    if name not in _SIZE_FREE_FILTERS:
        _refuse_size(size_of(value), f"the input of '{name}'")
    if name in _WIDTH_FILTERS:
        for width in (*args[:1], kwargs.get("width"), kwargs.get("slices")):
            if isinstance(width, int) and width > MAX_FORMAT_WIDTH:
                raise LimitError(
                    f"{name}({width}) is wider than {MAX_FORMAT_WIDTH}; use a smaller number"
                )
            if isinstance(width, str):
                lines = str(value).count("\n") + 1
                _refuse_size(len(str(value)) + lines * len(width), f"the output of '{name}'")
    if name == "format" and isinstance(value, str):
        check_percent(value, dict(kwargs) if kwargs else tuple(args))
    elif name == "replace" and len(args) >= 2:
        count = args[2] if len(args) > 2 else kwargs.get("count", -1)
        _check_replace(str(value), args[0], args[1], count if count is not None else -1)
    elif name == "join":
        separator = args[0] if args else kwargs.get("d", "")
        _refuse_size(size_of(value) * (1 + len(str(separator))), "the joined text")
    elif name == "wordwrap":
        wrap = args[3] if len(args) > 3 else kwargs.get("wrapstring") or "\n"
        _refuse_size(size_of(value) * (1 + len(str(wrap))), "the wrapped text")
    elif name == "tojson":
        indent = args[0] if args else kwargs.get("indent")
        if isinstance(indent, int) and indent > MAX_FORMAT_WIDTH:
            raise LimitError(f"tojson({indent}) indents more than {MAX_FORMAT_WIDTH}")
        _refuse_size(size_of(value) * (1 + (indent or 0)), "the JSON text")
    elif name == "sum":
        start = args[1] if len(args) > 1 else kwargs.get("start", 0)
        if isinstance(start, bool) or not isinstance(start, int | float):
            raise LimitError("sum adds numbers; its start must be a number")


class LimitedFormatter(SandboxedFormatter):
    """``str.format`` of the sandbox, with each field's spec and size checked before it is
    formatted."""

    def __init__(self, env: jinja2.Environment) -> None:
        super().__init__(env)
        self.size = 0

    def get_field(
        self, field_name: str, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> tuple[Any, str]:
        found = super().get_field(field_name, args, kwargs)
        self.size += size_of(found[0]) + MAX_FORMAT_WIDTH
        _refuse_size(self.size, "the formatted text")
        return found

    def format_field(self, value: Any, format_spec: str) -> Any:
        problem = width_problem(format_spec)
        if problem is not None:
            raise LimitError(f"format spec {format_spec!r} {problem}")
        return super().format_field(value, format_spec)


# --------------------------------------------------------------------------------------------
# Nesting


_OPENING = frozenset({"(", "[", "{"})
_CLOSING = frozenset({")", "]", "}"})
_BLOCKS = frozenset({"for", "if", "macro", "call", "filter", "with", "block", "autoescape"})


def nesting_problem(env: jinja2.Environment, source: str) -> tuple[int, str] | None:
    """The first template line nested deeper than :data:`MAX_NESTING`, and what is nested, or
    None (also when the text does not even lex: the compiler says why)."""
    brackets = blocks = 0
    after_tag = False
    try:
        for line, kind, value in env.lex(source):
            if kind == "operator" and value in _OPENING:
                brackets += 1
            elif kind == "operator" and value in _CLOSING:
                brackets -= 1
            elif after_tag and kind == "name":
                blocks += 1 if value in _BLOCKS else -1 if value.startswith("end") else 0
            after_tag = kind == "block_begin"
            if brackets > MAX_NESTING:
                return line, f"brackets nested more than {MAX_NESTING} deep"
            if blocks > MAX_NESTING:
                return line, f"blocks nested more than {MAX_NESTING} deep"
    except jinja2.TemplateSyntaxError:
        return None
    return None


# --------------------------------------------------------------------------------------------
# The compiler and the sandbox


class LimitedCodeGenerator(CodeGenerator):
    """Jinja2's code generator, with the three places where text and work grow routed through
    the sandbox: captured text, ``~`` and loops."""

    def buffer(self, frame: Frame) -> None:
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = environment.captured()")

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:  # noqa: N802 - Jinja2's
        self.write("environment.joined((")
        for argument in node.nodes:
            self.visit(argument, frame)
            self.write(", ")
        self.write("))")

    def visit_For(self, node: nodes.For, frame: Frame) -> None:  # noqa: N802 - Jinja2's name
        node.iter = nodes.Call(
            nodes.EnvironmentAttribute("loop_items"), [node.iter], [], None, None
        ).set_lineno(node.iter.lineno)
        super().visit_For(node, frame)


class LimitedSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox held to this module's limits."""

    code_generator_class = LimitedCodeGenerator
    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def __init__(self, **options: Any) -> None:
        super().__init__(finalize=printable, **options)
        for name, function in list(self.filters.items()):
            self.filters[name] = guarded_filter(name, function)

    def add_filter(self, name: str, function: Callable[..., Any]) -> None:
        self.filters[name] = guarded_filter(name, function)

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        return binop(operator, left, right)

    def call(
        __self,  # noqa: N805 - Jinja2's name: keyword arguments of the call may be called "self"
        __context: Context,
        __obj: Any,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        spend(CALL_STEPS)
        check_call(__obj, args, kwargs)
        return made(super().call(__context, __obj, *args, **kwargs))

    def getitem(self, obj: Any, argument: Any) -> Any:
        value = super().getitem(obj, argument)
        if isinstance(argument, slice):
            made(value)
        return value

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        text = str(value.__self__)
        is_map = value.__name__ == "format_map"

        def limited(*args: Any, **kwargs: Any) -> str:
            if is_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                return str(made(LimitedFormatter(self).vformat(text, (), args[0])))
            return str(made(LimitedFormatter(self).vformat(text, args, kwargs)))

        return limited

    @staticmethod
    def captured() -> Captured:
        return Captured()

    @staticmethod
    def joined(values: tuple[Any, ...]) -> str:
        size = sum(size_of(value) for value in values)
        _refuse_size(size, "the joined text ('~')")
        return str(made("".join(str(value) for value in values)))

    @staticmethod
    def loop_items(iterable: Iterable[Any]) -> Iterator[Any]:
        return counted(iterable)
