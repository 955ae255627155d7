"""Tables the built-in library fills and the core's member dispatch reads.

Each stdlib module registers plain Python functions ``fn(this, *args)`` into the prototype
table of a JS type, and its global bindings into ``GLOBALS``. Lookup is by JS property name
only; no Python attribute is ever reached by name.
"""

from __future__ import annotations

from typing import Any, Callable

from ..values import JSFunction

__all__ = [
    "native",
    "method",
    "GLOBALS",
    "STRING_PROTO",
    "NUMBER_PROTO",
    "BOOLEAN_PROTO",
    "SYMBOL_PROTO",
    "OBJECT_PROTO",
    "ARRAY_PROTO",
    "FUNCTION_PROTO",
    "ERROR_PROTO",
    "ITERATOR_PROTO",
    "FUNCTION_PARENTS",
]

# name -> JSFunction (methods of each built-in prototype)
STRING_PROTO: dict[str, JSFunction] = {}
NUMBER_PROTO: dict[str, JSFunction] = {}
BOOLEAN_PROTO: dict[str, JSFunction] = {}
SYMBOL_PROTO: dict[str, JSFunction] = {}
OBJECT_PROTO: dict[str, JSFunction] = {}
ARRAY_PROTO: dict[str, JSFunction] = {}
#: plain-array callback methods taking a bare Python callable, by name (filled by ``array_iter``;
#: ``callops.invoke_arrow`` reads it, which may not import ``array_iter`` itself)
PLAIN_CALLBACK_METHODS: dict[str, Callable[..., Any]] = {}
FUNCTION_PROTO: dict[str, JSFunction] = {}
ERROR_PROTO: dict[str, JSFunction] = {}
ITERATOR_PROTO: dict[str, JSFunction] = {}

# global name -> JS value (constructors, namespaces like Math/JSON, functions like parseInt)
GLOBALS: dict[str, Any] = {}
#: built-in functions whose [[Prototype]] is not Function.prototype, by id (the NativeError
#: constructors inherit from %Error%, 20.5.6.2); built-ins live as long as the process
FUNCTION_PARENTS: dict[int, Any] = {}


def native(fn: Callable[..., Any], name: str, length: int, **kwargs: Any) -> JSFunction:
    """Wrap ``fn(this, *args)`` as a shared built-in function object."""
    return JSFunction(fn, name, length, builtin=True, **kwargs)


def method(table: dict[str, JSFunction], name: str, length: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: register ``fn(this, *args)`` as method ``name`` (``length`` as in the spec)."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        table[name] = native(fn, name, length)
        return fn

    return register


class BuiltinNamespace(dict[str, Any]):
    """A shared built-in namespace object such as ``Math`` or ``JSON``.

    Its entries are its properties. It is shared between evaluations, so the core's
    ``set_member``/``delete_member`` send writes to the realm overlay, never into this dict.
    ``tag`` is what ``Object.prototype.toString`` shows (``[object Math]``).
    """

    __slots__ = ("tag",)

    def __init__(self, tag: str, entries: dict[str, Any] | None = None) -> None:
        super().__init__(entries or {})
        self.tag = tag
