"""The ``arguments`` object (ECMA-262 10.4.4): an ordinary object, not an array.

It is a list subclass so that generic array-like code (``Array.prototype.slice.call(arguments)``,
``fn.apply(this, arguments)``, spread) walks it as fast as a list, while member dispatch takes
the special-class path: ``Array.isArray(arguments)`` is false, its prototype is
Object.prototype, ``Object.prototype.toString`` says ``[object Arguments]``, and ``length`` is
an own non-enumerable property. It is unmapped (as in strict code): a write to a parameter
does not change ``arguments[i]``.
"""

from __future__ import annotations

from typing import Any, Iterator

from .convert import is_array_index
from .stdlib.registry import OBJECT_PROTO
from .values import MISSING, UNDEFINED
from .well_known import SYMBOL_ITERATOR

__all__ = ["JSArguments"]


class JSArguments(list[Any]):
    """An unmapped arguments exotic-free object (10.4.4.6 CreateUnmappedArgumentsObject)."""

    __slots__ = ("props", "length")
    JS_CLASS = "Arguments"
    JS_PROTO = OBJECT_PROTO

    def __init__(self, items: tuple[Any, ...]) -> None:
        super().__init__(items)
        self.props: dict[Any, Any] | None = None
        self.length: Any = MISSING  # MISSING: the live element count; else a value a script wrote

    def js_get_own(self, key: Any) -> Any:
        if type(key) is int:
            return self[key] if 0 <= key < len(self) else MISSING
        if type(key) is str and key[:1].isdigit() and is_array_index(key):
            i = int(key)
            return self[i] if i < len(self) else MISSING
        if key == "length":
            return len(self) if self.length is MISSING else self.length
        if self.props is not None:
            return self.props.get(key, MISSING)
        if key == SYMBOL_ITERATOR:
            return _array_values()
        return MISSING

    def js_set_own(self, key: Any, value: Any) -> bool:
        if type(key) is str and key[:1].isdigit() and is_array_index(key):
            key = int(key)
        if type(key) is int:
            if key < len(self):
                self[key] = value
            else:
                self.extend([UNDEFINED] * (key - len(self)))
                self.append(value)
            return True
        if key == "length":
            self.length = value
            return True
        if self.props is None:
            self.props = {SYMBOL_ITERATOR: _array_values()}
        self.props[key] = value
        return True

    def js_own_keys(self) -> list[str]:
        keys = [str(i) for i in range(len(self))]
        if self.props:
            keys += [k for k in self.props if type(k) is str]
        return keys

    def js_iterator(self) -> Iterator[Any]:
        return iter(self)


def _array_values() -> Any:
    from .stdlib.registry import ARRAY_PROTO

    return ARRAY_PROTO["values"]
