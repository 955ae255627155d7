"""The ``arguments`` object (ECMA-262 10.4.4): an ordinary object, not an array.

It is a list subclass so that generic array-like code (``Array.prototype.slice.call(arguments)``,
``fn.apply(this, arguments)``, spread) walks it as fast as a list, while member dispatch takes
the special-class path: ``Array.isArray(arguments)`` is false, its prototype is
Object.prototype, ``Object.prototype.toString`` says ``[object Arguments]``, and ``length``,
``callee`` and ``@@iterator`` are own non-enumerable properties.

The list holds the elements passed (``length`` at creation); a deleted element is a hole
(``holes``), and indexes added later live in ``props`` with the other keys, so the list never
grows past the arguments passed.

A sloppy function with a simple parameter list gets a *mapped* object (10.4.4.7): its
parameters live in ``pv`` (the generated code reads ``pv[i]`` and writes through
``param_set``) and, while ``mapped[i]`` holds, element ``i`` and parameter ``i`` are one
value: a write to either shows in the other. Deleting the element, making it an accessor or
non-writable ends the aliasing (10.4.4.2, 10.4.4.5). Strict functions and functions with
defaults, rest or patterns get an unmapped object whose ``callee`` throws (10.4.4.6).
"""

from __future__ import annotations

from typing import Any, Iterator

from .convert import is_array_index
from .properties import ALL, C, W, Accessor, meta_of
from .realm import PATCHED_REALMS
from .stdlib.registry import ARRAY_PROTO, OBJECT_PROTO, native
from .values import MISSING, UNDEFINED, type_error
from .well_known import SYMBOL_ITERATOR

__all__ = ["JSArguments", "mapped_arguments", "param_set"]


def _throw_type_error(_this: Any, *_: Any) -> Any:
    raise type_error("'caller', 'callee', and 'arguments' properties may not be accessed on strict mode "
                     "functions or the arguments objects for calls to them")


#: %ThrowTypeError% (10.2.4.1): the getter and setter of an unmapped object's ``callee``
THROW_TYPE_ERROR = native(_throw_type_error, "", 0)
_STRICT_CALLEE = Accessor(THROW_TYPE_ERROR, THROW_TYPE_ERROR)


def _index(key: Any) -> int:
    """The array index ``key`` names, or -1."""
    if type(key) is int:
        return key if key >= 0 else -1
    if type(key) is str and key[:1].isdigit() and is_array_index(key):
        return int(key)
    return -1


class JSArguments(list[Any]):
    """An arguments exotic object (see the module docstring)."""

    __slots__ = ("props", "holes", "pv", "mapped", "cell")
    JS_CLASS = "Arguments"
    JS_PROTO = OBJECT_PROTO

    def __init__(self, items: tuple[Any, ...], cell: list[Any] | None = None) -> None:
        super().__init__(items)
        self.props: dict[Any, Any] = {"length": len(items), "callee": _STRICT_CALLEE if cell is None else MISSING,
                                      SYMBOL_ITERATOR: ARRAY_PROTO["values"]}
        self.holes: set[int] | None = None
        self.pv: list[Any] | None = None  # a mapped object's parameter values
        self.mapped: list[bool] | None = None  # which elements still alias their parameter
        self.cell = cell  # holds the function object, once made (a mapped object's callee)

    # -- the special-class protocol (docs/engine.md) --------------------------------------------
    def js_get_own(self, key: Any) -> Any:
        i = _index(key)
        if 0 <= i < len(self):
            if self.holes is not None and i in self.holes:
                return MISSING
            return list.__getitem__(self, i)
        if i >= 0:
            key = str(i)
        if key == "callee" and self.props.get("callee") is MISSING:
            return self.cell[0] if self.cell else UNDEFINED
        return self.props.get(key, MISSING)

    def js_set_own(self, key: Any, value: Any) -> bool:
        i = _index(key)
        if 0 <= i < len(self):
            if self.holes is not None:
                self.holes.discard(i)
            list.__setitem__(self, i, value)
            if self.mapped is not None and i < len(self.mapped) and self.mapped[i]:
                assert self.pv is not None
                self.pv[i] = value
            return True
        self.props[str(i) if i >= 0 else key] = value
        return True

    def js_own_keys(self) -> list[str]:
        """The enumerable own string keys (the script-added ones are enumerable)."""
        return self.js_all_keys(enumerable_only=True)

    def js_all_keys(self, enumerable_only: bool = False) -> list[Any]:
        """Every own key in [[OwnPropertyKeys]] order: indexes, then the rest by creation."""
        holes = self.holes or ()
        keys: list[Any] = [str(i) for i in range(len(self)) if i not in holes]
        extra = [k for k in self.props if type(k) is str and _index(k) >= 0]
        keys += sorted(extra, key=int)
        for k in self.props:
            if enumerable_only and (type(k) is not str or self.js_default_flags(k) != ALL):
                continue
            if not (type(k) is str and _index(k) >= 0):
                keys.append(k)
        return keys

    def js_default_flags(self, key: Any) -> int:
        if key == "callee":
            return 0 if self.props.get("callee") is _STRICT_CALLEE else W | C
        if key == "length" or key is SYMBOL_ITERATOR:
            return W | C
        return ALL

    def js_delete(self, key: Any) -> None:
        """[[Delete]] of an own configurable property (10.4.4.5): also ends the aliasing."""
        i = _index(key)
        if 0 <= i < len(self):
            if self.holes is None:
                self.holes = set()
            self.holes.add(i)
            list.__setitem__(self, i, UNDEFINED)
            self.unmap(i)
            return
        self.props.pop(str(i) if i >= 0 else key, None)

    def js_defined(self, key: Any, desc: dict[str, Any]) -> None:
        """After [[DefineOwnProperty]] succeeded (10.4.4.2 steps 6-7): an accessor or a
        non-writable element no longer aliases its parameter."""
        i = _index(key)
        if i < 0 or i >= len(self):
            return
        if "get" in desc or "set" in desc:
            if self.holes is None:
                self.holes = set()
            self.holes.add(i)  # the accessor (in the side table) is the element now
            self.unmap(i)
        elif desc.get("writable") is False:
            self.unmap(i)

    def unmap(self, i: int) -> None:
        if self.mapped is not None and i < len(self.mapped):
            self.mapped[i] = False

    def js_iterator(self) -> Iterator[Any]:
        if self.holes is None and self.props.get("length") == len(self) and not PATCHED_REALMS[0]:
            return iter(self)
        from .members import get_member
        from .convert import to_length

        n = to_length(get_member(self, "length"))
        return (get_member(self, i) for i in range(n))


def mapped_arguments(args: tuple[Any, ...], cell: list[Any], names: tuple[int, ...], count: int) -> JSArguments:
    """CreateMappedArgumentsObject (10.4.4.7): ``count`` parameters; ``names`` the indexes
    that alias their element (a repeated name maps its last position only)."""
    obj = JSArguments(args, cell)
    pv = list(args[:count])
    if len(pv) < count:
        pv.extend([UNDEFINED] * (count - len(pv)))
    obj.pv = pv
    mapped = [False] * min(count, len(args))
    for i in names:
        if i < len(mapped):
            mapped[i] = True
    obj.mapped = mapped
    return obj


def param_set(obj: JSArguments, i: int, value: Any) -> Any:
    """A write to parameter ``i`` of a function with a mapped arguments object; the value."""
    pv = obj.pv
    assert pv is not None
    pv[i] = value
    mapped = obj.mapped
    if mapped is not None and i < len(mapped) and mapped[i]:
        if PATCHED_REALMS[0]:
            m = meta_of(obj)
            if m is not None and (not m.flags.get(str(i), W) & W or str(i) in m.accessors):
                mapped[i] = False  # frozen or redefined outside [[DefineOwnProperty]]
                return value
        list.__setitem__(obj, i, value)
    return value
