"""The JS value model: how every JS value is represented in Python.

The representation is chosen so that JSON-like data crosses the boundary with no conversion:

| JS              | Python                                                              |
|-----------------|---------------------------------------------------------------------|
| undefined       | ``UNDEFINED`` (singleton, falsy)                                     |
| null            | ``None``                                                            |
| boolean         | ``bool``                                                            |
| number          | ``int`` (integral, within +-2**53, never -0) or ``float``           |
| string          | ``str`` of code points; surrogate pairs are always joined (see      |
|                 | ``strings.py``), lone surrogates may appear                         |
| plain object    | ``dict`` with ``str`` keys (Object.prototype is implied)            |
| other objects   | ``JSObject`` (a dict with an explicit prototype, or none)           |
| array           | ``list``                                                            |
| function        | ``JSFunction``                                                      |
| Error objects   | ``JSErrorObject`` (a dict: own enumerable props; name/message slots) |

``bool`` is a subclass of ``int`` in Python: code must test numbers with ``type(x) is int`` /
``type(x) is float`` (or ``is_number``), never ``isinstance(x, int)``.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

__all__ = [
    "UNDEFINED",
    "MISSING",
    "UndefinedType",
    "JSFunction",
    "JSObject",
    "JSErrorObject",
    "JSSymbol",
    "JSThrow",
    "is_number",
    "make_error",
    "throw_error",
    "type_error",
    "range_error",
    "reference_error",
    "syntax_error",
    "uri_error",
]


class UndefinedType:
    """JS ``undefined``: a falsy singleton that survives copy and pickle as itself."""

    __slots__ = ()
    _instance: "UndefinedType | None" = None

    def __new__(cls) -> "UndefinedType":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "undefined"

    def __reduce__(self) -> str:
        return "UNDEFINED"

    def __copy__(self) -> "UndefinedType":
        return self

    def __deepcopy__(self, memo: Any) -> "UndefinedType":
        return self


UNDEFINED = UndefinedType()


class _Missing:
    """Internal sentinel for "no such property" (distinct from a property holding undefined)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()


def is_number(x: Any) -> bool:
    """True for JS numbers (``int`` or ``float``), false for ``bool``."""
    t = type(x)
    return t is int or t is float


class JSFunction:
    """A JS function object, native or compiled.

    ``call(this, *args)`` runs it. ``construct(*args)``, when set, runs it under ``new``.
    ``props`` holds own properties other than ``name`` and ``length`` (created lazily).
    Built-in function objects are shared between evaluations, so writes to them must go
    through the realm (see ``realm.py``), never into ``props`` directly.
    """

    __slots__ = ("call", "name", "length", "props", "construct", "kind", "builtin", "source")

    def __init__(
        self,
        call: Callable[..., Any],
        name: str = "",
        length: int = 0,
        construct: Callable[..., Any] | None = None,
        kind: str = "native",
        props: dict[str, Any] | None = None,
        builtin: bool = False,
        source: str | None = None,
    ) -> None:
        # Positional-or-keyword, so generated code can pass everything positionally (cheaper).
        self.call = call
        self.name = name
        self.length = length
        self.construct = construct
        self.kind = kind  # "native", "arrow", "function", "method", "bound"
        self.props = props
        self.builtin = builtin
        self.source = source  # the JS source text of a compiled function (for toString)

    def __repr__(self) -> str:
        return f"[Function: {self.name or '(anonymous)'}]"


class JSObject(dict):  # type: ignore[type-arg]
    """An ordinary object whose prototype is not the implicit Object.prototype.

    ``proto`` is another object (dict/JSObject) or ``None`` for ``Object.create(null)``.
    """

    __slots__ = ("proto",)

    def __init__(self, proto: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.proto = proto


class JSErrorObject(dict):  # type: ignore[type-arg]
    """An Error instance. Own enumerable properties live in the dict; ``name`` (from the
    prototype) and ``message`` (own, non-enumerable) live in slots, so that
    ``JSON.stringify(new Error('x'))`` is ``"{}"`` as in V8."""

    __slots__ = ("error_name", "message", "proto")

    def __init__(self, error_name: str, message: str, proto: Any = None) -> None:
        super().__init__()
        self.error_name = error_name
        self.message = message
        self.proto = proto

    def __repr__(self) -> str:
        return f"{self.error_name}: {self.message}" if self.message else self.error_name


class JSSymbol:
    """A JS Symbol. Only identity and description are modelled."""

    __slots__ = ("description",)

    def __init__(self, description: Any = UNDEFINED) -> None:
        self.description = description

    def __repr__(self) -> str:
        d = "" if self.description is UNDEFINED else str(self.description)
        return f"Symbol({d})"


class JSThrow(Exception):
    """A JS exception in flight. ``value`` is the thrown JS value (usually a JSErrorObject).

    Only this type is caught by a JS ``try``/``catch``; budget exhaustion (``LimitExceeded``)
    is deliberately not a JSThrow, so scripts cannot swallow it.
    """

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.value = value


def make_error(name: str, message: str) -> JSErrorObject:
    """Create an Error object as the built-in constructor ``name`` would."""
    return JSErrorObject(name, message)


def throw_error(name: str, message: str) -> JSThrow:
    """Build (not raise) a JSThrow carrying a new ``name`` error: ``raise throw_error(...)``."""
    return JSThrow(JSErrorObject(name, message))


def type_error(message: str) -> JSThrow:
    return JSThrow(JSErrorObject("TypeError", message))


def range_error(message: str) -> JSThrow:
    return JSThrow(JSErrorObject("RangeError", message))


def reference_error(message: str) -> JSThrow:
    return JSThrow(JSErrorObject("ReferenceError", message))


def syntax_error(message: str) -> JSThrow:
    return JSThrow(JSErrorObject("SyntaxError", message))


def uri_error(message: str) -> JSThrow:
    return JSThrow(JSErrorObject("URIError", message))


class JSIterator:
    """A JS iterator object over a Python iterator (array/string/Map iterators, matchAll).

    ``next()`` from JS returns ``{value, done}``; Python code iterates it directly.
    """

    __slots__ = ("it", "tag")

    def __init__(self, it: Iterator[Any], tag: str = "Iterator") -> None:
        self.it = it
        self.tag = tag

    def __iter__(self) -> Iterator[Any]:
        return self.it

    def js_iterator(self) -> Iterator[Any]:
        return self.it
