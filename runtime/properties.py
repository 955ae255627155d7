"""Property attributes and accessors (ECMA-262 6.1.7.1, 10.1.6): the side table.

JSON-shaped values stay plain ``dict``/``list`` with every property writable, enumerable and
configurable, so the common paths never look anything up. Only when a script gives an object
something richer (``Object.defineProperty``, a getter in a literal, ``Object.freeze``, a named
property on an array) does the object get a ``PropMeta`` here, in the evaluation's realm,
keyed by identity. Registering one marks the realm patched (``PATCHED_REALMS``), which is the
single flag the fast paths test before consulting this table; it dies with the evaluation.

In a ``PropMeta``: ``flags`` holds the attributes of keys that differ from the kind's default
(``default_flags``); ``accessors`` holds accessor properties, which are never stored in the
object's own dict (so a plain read of the dict never sees one); ``named`` holds the non-index
properties of an array; ``extensible`` is [[Extensible]].
"""

from __future__ import annotations

from typing import Any

from .realm import PATCHED_REALMS, current_realm
from .values import JSFunction, JSSymbol

__all__ = [
    "W", "E", "C", "ALL",
    "Accessor", "Holes", "PropMeta", "note_accessor", "is_hole", "mark_holes", "ordered_own", "meta_of", "ensure_meta", "default_flags", "flags_of", "is_extensible",
]

W, E, C = 1, 2, 4
ALL = W | E | C


class Accessor:
    """An accessor property's functions: ``get``/``set`` are JS functions or ``UNDEFINED``."""

    __slots__ = ("get", "set")

    def __init__(self, get: Any, set: Any) -> None:
        self.get = get
        self.set = set

    def __repr__(self) -> str:
        return "[Getter/Setter]"


class Holes:
    """The holes of one array: indexes listed one by one (``delete a[i]``, ``[1, , 3]``) plus
    an open tail, so that ``new Array(n)`` or ``a.length = n`` records its ``n`` new holes in
    constant space: every index from ``tail`` on is a hole unless a write since ``filled`` it
    (``is_hole`` also asks the slot to hold the undefined put there)."""

    __slots__ = ("listed", "tail", "filled")

    def __init__(self, listed: Any = ()) -> None:
        self.listed: set[int] = set(listed)
        self.tail: int | None = None
        self.filled: set[int] = set()

    def __contains__(self, i: int) -> bool:
        if i in self.listed:
            return True
        return self.tail is not None and i >= self.tail and i not in self.filled

    def __bool__(self) -> bool:
        return bool(self.listed) or self.tail is not None

    def add(self, i: int) -> None:
        self.listed.add(i)
        self.filled.discard(i)

    def discard(self, i: int) -> None:
        self.listed.discard(i)
        if self.tail is not None and i >= self.tail:
            self.filled.add(i)

    def clear(self, start: int, stop: int, length: int) -> None:
        """A built-in wrote the slots ``start..stop`` of an array of ``length`` directly."""
        if self.listed:
            self.listed = {i for i in self.listed if not start <= i < stop}
        if self.tail is None or stop <= self.tail:
            return
        if start <= self.tail and stop >= length:
            self.tail, self.filled = None, set()
            return
        self.filled.update(range(max(start, self.tail), stop))

    def open_from(self, start: int) -> None:
        """Every index from ``start`` on is new (the array just grew from length ``start``)."""
        if self.tail is None or start < self.tail:
            self.tail = start
        if self.filled:
            self.filled = {i for i in self.filled if i < start}


class PropMeta:
    """The richer half of one object (see the module docstring)."""

    __slots__ = ("obj", "flags", "accessors", "named", "extensible", "order", "holes")

    def __init__(self, obj: Any) -> None:
        self.obj = obj  # a strong reference keeps the identity key valid for the realm's life
        self.flags: dict[Any, int] = {}
        self.accessors: dict[Any, Accessor] = {}
        self.named: dict[Any, Any] | None = None
        self.extensible = True
        self.order: list[Any] | None = None  # creation order of keys, once accessors exist
        self.holes: Holes | None = None  # an array's deleted/elided/unwritten indexes (slots hold undefined)


def is_hole(m: PropMeta, obj: Any, i: int) -> bool:
    """A hole of an array: recorded, and its slot still holds the undefined put there (a
    built-in that later wrote the slot directly has filled it)."""
    from .values import UNDEFINED

    return m.holes is not None and i in m.holes and 0 <= i < len(obj) and obj[i] is UNDEFINED


def mark_holes(obj: list[Any], start: int, end: int | None = None) -> None:
    """Record the slots ``start..end`` of ``obj`` (to its end by default), just added, as
    holes (a write past the end, a longer ``length``, ``new Array(n)``): absent for ``in``,
    keys and the array methods, and Array.prototype's indexes show through them (10.4.2)."""
    stop = len(obj) if end is None else end
    if start >= stop:
        return
    m = ensure_meta(obj)
    if m.holes is None:
        m.holes = Holes()
    if stop - start <= 8:
        for i in range(start, stop):
            m.holes.add(i)
        return
    m.holes.open_from(start)
    for i in range(stop, len(obj)):  # the written slots after the gap (one, for a[i] = v)
        m.holes.discard(i)


def note_accessor(m: PropMeta, stored: Any, key: Any) -> None:
    """Remember where a new accessor sits among the keys stored in ``stored`` (the object's
    dict, or an array's named properties), so key order stays creation order (10.1.11)."""
    if m.order is None:
        m.order = list(stored)
    if key not in m.order:
        m.order.append(key)


def ordered_own(m: PropMeta, stored: Any) -> list[Any]:
    """The keys in ``stored`` plus the accessors, in creation order."""
    if not m.accessors:
        return list(stored)
    if m.order is None:
        return list(stored) + [k for k in m.accessors if k not in stored]
    out = [k for k in m.order if k in stored or k in m.accessors]
    seen = set(out)
    out += [k for k in stored if k not in seen]
    out += [k for k in m.accessors if k not in seen and k not in stored]
    return out


def meta_of(obj: Any) -> PropMeta | None:
    """The object's PropMeta in this evaluation, or None (the fast answer while unpatched)."""
    if not PATCHED_REALMS[0]:
        return None
    table = current_realm().extra.get("props")
    if not table:
        return None
    m = table.get(id(obj))
    return m if m is not None and m.obj is obj else None


def ensure_meta(obj: Any) -> PropMeta:
    """The object's PropMeta, created (and the realm marked patched) on first need."""
    realm = current_realm()
    realm.patched()
    table: dict[int, PropMeta] = realm.extra.setdefault("props", {})
    m = table.get(id(obj))
    if m is None or m.obj is not obj:
        m = table[id(obj)] = PropMeta(obj)
    return m


#: non-writable, non-enumerable, non-configurable values of built-in namespaces and
#: constructors (Math.PI, Number.MAX_VALUE...): 21.1.2, 21.3.1
_CONSTANT_NAMES = frozenset((
    "E", "LN10", "LN2", "LOG10E", "LOG2E", "PI", "SQRT1_2", "SQRT2",
    "EPSILON", "MAX_SAFE_INTEGER", "MIN_SAFE_INTEGER", "MAX_VALUE", "MIN_VALUE", "NaN",
    "NEGATIVE_INFINITY", "POSITIVE_INFINITY",
))

#: the global object's value properties, read-only and permanent (19.1)
_GLOBAL_CONSTANTS = frozenset(("undefined", "NaN", "Infinity"))


def default_flags(obj: Any, key: Any) -> int:
    """The attributes an own property ``key`` of ``obj`` has unless a script changed them."""
    t = type(obj)
    if t is dict:
        return ALL
    if t is list:
        return W if key == "length" else ALL
    if t is str:
        return 0 if key == "length" else E
    if t is JSFunction:
        if key == "name" or key == "length":
            return C
        if key == "prototype":
            return 0 if obj.builtin or obj.kind == "class" else W
        if obj.builtin and type(key) is JSSymbol and ("constructor " + obj.name, key) in BUILTIN_ACCESSORS:
            return C  # get Map[Symbol.species]
        if obj.builtin and obj.props is not None and key in obj.props:
            if type(obj.props[key]) is JSSymbol:
                return 0  # Symbol.iterator, Symbol.species... (20.4.2)
            return 0 if key in _CONSTANT_NAMES and type(key) is str else W | C
        return ALL
    name = t.__name__
    if type(key) is JSSymbol and key.description in ("Symbol.toStringTag", "Symbol.unscopables", "Symbol.toPrimitive") \
            and (name == "BuiltinNamespace" or name == "BuiltinProto"):
        return C
    if name == "BuiltinNamespace":
        if key not in obj:
            return ALL  # added by the script
        if key in _CONSTANT_NAMES and getattr(obj, "tag", "") == "Math":
            return 0
        if key in _GLOBAL_CONSTANTS and getattr(obj, "tag", "") == "global":
            return 0
        return W | C
    if name == "BuiltinProto":
        if type(key) is JSSymbol and key.description == "Symbol.hasInstance":
            return 0  # Function.prototype[Symbol.hasInstance] (20.2.3.6)
        if (obj.tag, key) in BUILTIN_ACCESSORS and key not in obj.table:
            return C  # a built-in accessor (RegExp.prototype.global, Function.prototype.caller)
        return W | C if key in obj.table or key == "constructor" else ALL
    if name == "JSErrorObject":
        return W | C if key in ("message", "stack") else ALL
    if name == "JSObject":
        return ALL
    if getattr(t, "JS_CLASS", None) == "RegExp" and key == "lastIndex":
        return W
    special = getattr(t, "js_default_flags", None)  # an arguments object's length and callee
    if special is not None:
        return special(obj, key)  # type: ignore[no-any-return]
    return ALL


def flags_of(obj: Any, key: Any) -> int:
    """The attributes of the own property ``key`` (which the caller knows exists)."""
    m = meta_of(obj)
    if m is not None:
        f = m.flags.get(key)
        if f is not None:
            return f
    return default_flags(obj, key)


def is_extensible(obj: Any) -> bool:
    """[[IsExtensible]] (10.1.3)."""
    m = meta_of(obj)
    return m is None or m.extensible


#: accessor properties of shared built-in prototypes, by (prototype tag, key): the getters of
#: RegExp.prototype.global, Map.prototype.size... (filled by ``stdlib/builtin_accessors.py``)
BUILTIN_ACCESSORS: dict[tuple[str, Any], Accessor] = {}
#: the keys of ``BUILTIN_ACCESSORS``, so that a write can skip the prototype walk for others
BUILTIN_ACCESSOR_KEYS: set[Any] = set()
