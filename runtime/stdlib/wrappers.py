"""Number, Boolean and Symbol wrapper objects (ECMA-262 21.1.1.1, 20.3.1.1, 20.4.1; ToObject
7.1.18): ``new Number(1)``, ``Object(true)``, ``Object(Symbol())``.

Primitives stay primitives everywhere else; a wrapper exists only when a script asks for one.
Each wrapper carries its primitive in ``value`` (what thisNumberValue and friends read) and
the properties a script gives it in ``props``; its prototype is the primitive's.
(``new String("ab")`` is ``string.StringObject``, which also has index properties.)
"""

from __future__ import annotations

from typing import Any

from ..values import MISSING, JSSymbol
from .registry import BOOLEAN_PROTO, NUMBER_PROTO, SYMBOL_PROTO

__all__ = ["NumberObject", "BooleanObject", "SymbolObject", "wrap_primitive", "unwrap"]


class _Wrapper:
    """The shared shape: no own properties but those a script adds."""

    __slots__ = ("value", "props")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.props: dict[Any, Any] = {}

    def js_get_own(self, key: Any) -> Any:
        return self.props.get(key, MISSING)

    def js_set_own(self, key: Any, value: Any) -> bool:
        self.props[key] = value
        return True

    def js_own_keys(self) -> list[str]:
        return [k for k in self.props if type(k) is str]


class NumberObject(_Wrapper):
    """``new Number(x)``: [[NumberData]] in ``value``."""

    __slots__ = ()
    JS_CLASS = "Number"
    JS_PROTO = NUMBER_PROTO


class BooleanObject(_Wrapper):
    """``new Boolean(x)``: [[BooleanData]] in ``value`` (the object itself is truthy)."""

    __slots__ = ()
    JS_CLASS = "Boolean"
    JS_PROTO = BOOLEAN_PROTO


class SymbolObject(_Wrapper):
    """``Object(sym)``: [[SymbolData]] in ``value``."""

    __slots__ = ()
    JS_CLASS = "Symbol"
    JS_PROTO = SYMBOL_PROTO


def wrap_primitive(v: Any) -> Any:
    """ToObject (7.1.18) for a primitive; objects are returned as they are."""
    t = type(v)
    if t is int or t is float:
        return NumberObject(v)
    if t is bool:
        return BooleanObject(v)
    if t is JSSymbol:
        return SymbolObject(v)
    if t is str:
        from .string import StringObject

        return StringObject(v)
    return v


def unwrap(v: Any) -> Any:
    """The primitive inside a wrapper, else ``v`` itself."""
    return v.value if isinstance(v, _Wrapper) else v
