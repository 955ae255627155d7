"""Map and Set (ECMA-262 24.1, 24.2) as special classes of the engine protocol.

Entries live in an append-only list of cells plus an index from a normalized key to the
cell. SameValueZero is the key equality: NaN is one key, -0 is stored as +0, ``1`` and
``"1"`` and ``true`` differ, objects are keyed by identity (the cell keeps them alive).
Deleting marks a cell dead; iterators walk the cell list by position, so entries added
during iteration are visited and deleted ones skipped, as the spec's List semantics say.
Dead cells are compacted only while no iterator is live.
"""

from __future__ import annotations

from typing import Any, Iterator, cast

from ..convert import ordered_keys, typeof
from ..realm import PATCHED_REALMS
from ..subclasses import foreign, plain_value
from ..values import MISSING, UNDEFINED, JSFunction, JSIterator, JSSymbol, type_error
from .array_support import describe, members, require_callable
from .registry import GLOBALS, method, native
from .symbol import SYMBOL_ITERATOR, is_registered

__all__ = ["JSMap", "JSSet", "JSWeakMap", "JSWeakSet", "map_key"]

_NAN_KEY = ("nan",)
_NULL_KEY = ("null",)


def map_key(v: Any) -> Any:
    """A hashable Python key with SameValueZero equality for the JS value ``v``."""
    t = type(v)
    if t is str:
        return v
    if t is int:
        return v
    if t is float:
        return _NAN_KEY if v != v else v  # -0.0 == 0 hashes as 0
    if t is bool:
        return ("b", v)
    if v is None:
        return _NULL_KEY
    if foreign(t):  # caller data of a subclass: keyed by its plain value (a container: its one copy)
        return map_key(plain_value(v))
    return ("o", id(v))  # undefined, symbols and objects: identity


class _Store:
    """Insertion-ordered cells ``[key, value, alive]`` with a key index."""

    __slots__ = ("cells", "index", "iterators", "dead")

    def __init__(self) -> None:
        self.cells: list[list[Any]] = []
        self.index: dict[Any, list[Any]] = {}
        self.iterators = 0
        self.dead = 0

    def get(self, key: Any) -> Any:
        cell = self.index.get(map_key(key))
        return MISSING if cell is None else cell[1]

    def put(self, key: Any, value: Any) -> None:
        k = map_key(key)
        cell = self.index.get(k)
        if cell is not None:
            cell[1] = value
            return
        if type(key) is float and key == 0:
            key = 0
        cell = [key, value, True]
        self.index[k] = cell
        self.cells.append(cell)

    def remove(self, key: Any) -> bool:
        cell = self.index.pop(map_key(key), None)
        if cell is None:
            return False
        cell[2] = False
        self.dead += 1
        self._maybe_compact()
        return True

    def clear(self) -> None:
        for cell in self.cells:
            cell[2] = False
        self.dead = len(self.cells)
        self.index.clear()
        self._maybe_compact()

    def _maybe_compact(self) -> None:
        if self.iterators == 0 and self.dead > 32 and self.dead * 2 > len(self.cells):
            self.cells = [c for c in self.cells if c[2]]
            self.dead = 0

    def walk(self) -> Iterator[list[Any]]:
        """Live cells in order, including ones added while walking."""
        self.iterators += 1
        try:
            i = 0
            while i < len(self.cells):
                cell = self.cells[i]
                i += 1
                if cell[2]:
                    yield cell
        finally:
            self.iterators -= 1

    def __len__(self) -> int:
        return len(self.index)


class _Collection:
    """Shared part of the Map and Set objects: own properties and the store."""

    JS_CLASS = "Object"
    JS_PROTO: dict[str, JSFunction] = {}
    __slots__ = ("store", "props")

    def __init__(self) -> None:
        self.store = _Store()
        self.props: dict[str, Any] | None = None

    def js_get_own(self, key: Any) -> Any:
        if self.props is not None and key in self.props:
            return self.props[key]
        return MISSING  # ``size`` is an accessor of the prototype (24.1.3.10), not own

    def js_set_own(self, key: Any, value: Any) -> bool:
        if self.props is None:
            self.props = {}
        self.props[key] = value
        return True

    def js_own_keys(self) -> list[str]:
        return ordered_keys(self.props) if self.props else []


class JSMap(_Collection):
    """A JS Map object."""

    JS_CLASS = "Map"
    JS_PROTO: dict[str, JSFunction] = {}
    __slots__ = ()

    def js_iterator(self) -> Iterator[Any]:
        return ([c[0], c[1]] for c in self.store.walk())

    def __repr__(self) -> str:
        return f"Map({len(self.store)})"


class JSSet(_Collection):
    """A JS Set object."""

    JS_CLASS = "Set"
    JS_PROTO: dict[str, JSFunction] = {}
    __slots__ = ()

    def js_iterator(self) -> Iterator[Any]:
        return (c[0] for c in self.store.walk())

    def __repr__(self) -> str:
        return f"Set({len(self.store)})"


def _receiver(this: Any, cls: type[_Collection], name: str) -> _Collection:
    if type(this) is not cls:
        raise type_error(f"Method {cls.JS_CLASS}.prototype.{name} called on incompatible receiver {describe(this)}")
    result: _Collection = this
    return result


def _callback_text(fn: Any) -> str:
    """V8's ``typeof value`` rendering in Map/Set forEach messages."""
    if type(fn) is str:
        return f'string "{fn}"'
    if fn is UNDEFINED:
        return "undefined"
    kind = typeof(fn)
    return "object" if kind == "object" and fn is not None else f"{kind} {describe(fn)}"


def _require_callback(fn: Any) -> JSFunction:
    if type(fn) is not JSFunction:
        raise type_error(f"{_callback_text(fn)} is not a function")
    return fn


def _iterator(store: _Store, kind: str, tag: str) -> JSIterator:
    if kind == "keys":
        it: Iterator[Any] = (c[0] for c in store.walk())
    elif kind == "values":
        it = (c[1] for c in store.walk())
    else:
        it = ([c[0], c[1]] for c in store.walk())
    return JSIterator(it, tag)


# --- Map ------------------------------------------------------------------------------------

_M = JSMap.JS_PROTO


@method(_M, "get", 1)
def map_get(this: Any, key: Any = UNDEFINED, *_: Any) -> Any:
    """Map.prototype.get (24.1.3.6)."""
    v = _receiver(this, JSMap, "get").store.get(key)
    return UNDEFINED if v is MISSING else v


@method(_M, "set", 2)
def map_set(this: Any, key: Any = UNDEFINED, value: Any = UNDEFINED, *_: Any) -> Any:
    """Map.prototype.set (24.1.3.9): returns the map."""
    _receiver(this, JSMap, "set").store.put(key, value)
    return this


@method(_M, "has", 1)
def map_has(this: Any, key: Any = UNDEFINED, *_: Any) -> bool:
    """Map.prototype.has (24.1.3.7)."""
    return _receiver(this, JSMap, "has").store.get(key) is not MISSING


@method(_M, "delete", 1)
def map_delete(this: Any, key: Any = UNDEFINED, *_: Any) -> bool:
    """Map.prototype.delete (24.1.3.3)."""
    return _receiver(this, JSMap, "delete").store.remove(key)


@method(_M, "clear", 0)
def map_clear(this: Any, *_: Any) -> Any:
    """Map.prototype.clear (24.1.3.1)."""
    _receiver(this, JSMap, "clear").store.clear()
    return UNDEFINED


@method(_M, "forEach", 1)
def map_for_each(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> Any:
    """Map.prototype.forEach (24.1.3.5): callback(value, key, map)."""
    store = _receiver(this, JSMap, "forEach").store
    call = _require_callback(fn).call
    for cell in store.walk():
        call(this_arg, cell[1], cell[0], this)
    return UNDEFINED


@method(_M, "keys", 0)
def map_keys(this: Any, *_: Any) -> JSIterator:
    """Map.prototype.keys (24.1.3.8)."""
    return _iterator(_receiver(this, JSMap, "keys").store, "keys", "Map Iterator")


@method(_M, "values", 0)
def map_values(this: Any, *_: Any) -> JSIterator:
    """Map.prototype.values (24.1.3.11)."""
    return _iterator(_receiver(this, JSMap, "values").store, "values", "Map Iterator")


@method(_M, "entries", 0)
def map_entries(this: Any, *_: Any) -> JSIterator:
    """Map.prototype.entries (24.1.3.4); also Map.prototype[@@iterator]."""
    return _iterator(_receiver(this, JSMap, "entries").store, "entries", "Map Iterator")


def _iterable_source(iterable: Any) -> Iterator[Any] | None:
    """The entries of a constructor argument, or None for undefined/null."""
    if iterable is UNDEFINED or iterable is None:
        return None
    if type(iterable) in (int, float, bool) or (
            isinstance(iterable, dict) and members().get_member(iterable, SYMBOL_ITERATOR) in (UNDEFINED, None)):
        shown = "object" if isinstance(iterable, dict) else f"{typeof(iterable)} {describe(iterable)}"
        raise type_error(f"{shown} is not iterable (cannot read property Symbol(Symbol.iterator))")
    return members().js_iterate(iterable)  # type: ignore[no-any-return]


def _adder(target: Any, name: str) -> JSFunction:
    """The ``set``/``add`` method a constructor feeds its iterable to (24.1.1.1 step 5)."""
    adder = members().get_member(target, name)
    if type(adder) is not JSFunction:
        raise type_error(f"'{describe(adder)}' returned for property '{name}' of object "
                         f"'#<{type(target).JS_CLASS}>' is not a function")
    return adder


def map_construct(iterable: Any = UNDEFINED, *_: Any) -> JSMap:
    """Map ( [ iterable ] ) (24.1.1.1) under ``new``: AddEntriesFromIterable (24.1.1.2)."""
    m = JSMap()
    if iterable is UNDEFINED or iterable is None:
        return m
    adder = _adder(m, "set")
    source = _iterable_source(iterable)
    if source is None:
        return m
    builtin = adder is _M["set"]
    try:
        for entry in source:
            k, v = _entry(entry)
            if builtin:
                m.store.put(k, v)
            else:
                adder.call(m, k, v)
    except members().JSThrow:
        members().iter_close(source)  # IfAbruptCloseIterator (7.4.13): return() runs, the error stays
        raise
    return m


def _entry(entry: Any) -> tuple[Any, Any]:
    """Key and value of one constructor entry (AddEntriesFromIterable 24.1.1.2)."""
    if type(entry) is list and not members().PATCHED_REALMS[0]:  # no accessor or hole can be there
        return (entry[0] if entry else UNDEFINED), (entry[1] if len(entry) > 1 else UNDEFINED)
    if type(entry) in (str, int, float, bool) or entry is None or entry is UNDEFINED or type(entry) is JSSymbol:
        raise type_error(f"Iterator value {describe(entry)} is not an entry object")
    get = members().get_member
    return get(entry, "0"), get(entry, "1")


def _requires_new(name: str) -> Any:
    def call(this: Any, *_: Any) -> Any:
        raise type_error(f"Constructor {name} requires 'new'")

    return call


def map_group_by(this: Any, items: Any = UNDEFINED, fn: Any = UNDEFINED, *_: Any) -> JSMap:
    """Map.groupBy (24.1.2.1): keys by SameValueZero, groups in first-seen order."""
    require_callable(fn)
    m = JSMap()
    for k, v in enumerate(members().js_iterate(items)):
        key = fn.call(UNDEFINED, v, k)
        group = m.store.get(key)
        if group is MISSING:
            group = []
            m.store.put(key, group)
        group.append(v)
    return m


# --- Set ------------------------------------------------------------------------------------

_S = JSSet.JS_PROTO


@method(_S, "add", 1)
def set_add(this: Any, value: Any = UNDEFINED, *_: Any) -> Any:
    """Set.prototype.add (24.2.3.1): returns the set."""
    store = _receiver(this, JSSet, "add").store
    if store.get(value) is MISSING:
        if type(value) is float and value == 0:
            value = 0  # step 4: -0 is stored as +0, in the entry's value too ([...new Set([-0]).entries()])
        store.put(value, value)
    return this


@method(_S, "has", 1)
def set_has(this: Any, value: Any = UNDEFINED, *_: Any) -> bool:
    """Set.prototype.has (24.2.3.7)."""
    return _receiver(this, JSSet, "has").store.get(value) is not MISSING


@method(_S, "delete", 1)
def set_delete(this: Any, value: Any = UNDEFINED, *_: Any) -> bool:
    """Set.prototype.delete (24.2.3.4)."""
    return _receiver(this, JSSet, "delete").store.remove(value)


@method(_S, "clear", 0)
def set_clear(this: Any, *_: Any) -> Any:
    """Set.prototype.clear (24.2.3.2)."""
    _receiver(this, JSSet, "clear").store.clear()
    return UNDEFINED


@method(_S, "forEach", 1)
def set_for_each(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> Any:
    """Set.prototype.forEach (24.2.3.6): callback(value, value, set)."""
    store = _receiver(this, JSSet, "forEach").store
    call = _require_callback(fn).call
    for cell in store.walk():
        call(this_arg, cell[0], cell[0], this)
    return UNDEFINED


@method(_S, "values", 0)
def set_values(this: Any, *_: Any) -> JSIterator:
    """Set.prototype.values (24.2.3.10); also keys and @@iterator."""
    return _iterator(_receiver(this, JSSet, "values").store, "keys", "Set Iterator")


_S["keys"] = _S["values"]  # the same function object, as in V8
cast("dict[Any, JSFunction]", _S)[SYMBOL_ITERATOR] = _S["values"]
cast("dict[Any, JSFunction]", _M)[SYMBOL_ITERATOR] = _M["entries"]


@method(_S, "entries", 0)
def set_entries(this: Any, *_: Any) -> JSIterator:
    """Set.prototype.entries (24.2.3.5): [value, value] pairs."""
    return _iterator(_receiver(this, JSSet, "entries").store, "entries", "Set Iterator")


def set_construct(iterable: Any = UNDEFINED, *_: Any) -> JSSet:
    """Set ( [ iterable ] ) (24.2.1.1) under ``new``."""
    s = JSSet()
    if iterable is UNDEFINED or iterable is None:
        return s
    if type(iterable) is list and not PATCHED_REALMS[0]:
        # unpatched, Set.prototype.add and the array iterator are the built-ins and an array
        # has no holes: AddEntriesFromIterable is the store's own loop, a str or int its own key
        index, cells = s.store.index, s.store.cells
        for v in iterable:
            t = type(v)
            k = v if t is str or t is int else map_key(v)
            if k not in index:
                if t is float and v == 0:
                    v = 0
                index[k] = cell = [v, v, True]
                cells.append(cell)
        return s
    adder = _adder(s, "add")
    source = _iterable_source(iterable)
    if source is None:
        return s
    store = s.store
    builtin = adder is _S["add"]
    try:
        for v in source:
            if not builtin:
                adder.call(s, v)
            elif store.get(v) is MISSING:
                if type(v) is float and v == 0:
                    v = 0
                store.put(v, v)
    except members().JSThrow:
        members().iter_close(source)  # IfAbruptCloseIterator (7.4.13): return() runs, the error stays
        raise
    return s


# --- WeakMap / WeakSet ------------------------------------------------------------------------
# Entries hold their keys strongly: an evaluation is short-lived, and collection is not
# observable from a script (no size, no iteration).


class JSWeakMap(_Collection):
    """A JS WeakMap object (24.3): object and non-registered symbol keys only."""

    JS_CLASS = "WeakMap"
    JS_PROTO: dict[str, JSFunction] = {}
    __slots__ = ()

    def js_get_own(self, key: Any) -> Any:
        return self.props.get(key, MISSING) if self.props is not None else MISSING

    def js_set_own(self, key: Any, value: Any) -> bool:
        if self.props is None:
            self.props = {}
        self.props[key] = value
        return True


class JSWeakSet(JSWeakMap):
    """A JS WeakSet object (24.4)."""

    JS_CLASS = "WeakSet"
    JS_PROTO: dict[str, JSFunction] = {}
    __slots__ = ()


def _weak_key_ok(v: Any) -> bool:
    """CanBeHeldWeakly (9.13): objects and symbols not from Symbol.for."""
    if type(v) is JSSymbol:
        return not is_registered(v)
    return not (v is None or v is UNDEFINED or type(v) in (str, int, float, bool))


_WM = JSWeakMap.JS_PROTO
_WS = JSWeakSet.JS_PROTO


@method(_WM, "get", 1)
def weakmap_get(this: Any, key: Any = UNDEFINED, *_: Any) -> Any:
    """WeakMap.prototype.get (24.3.3.3)."""
    store = _receiver(this, JSWeakMap, "get").store
    v = store.get(key) if _weak_key_ok(key) else MISSING
    return UNDEFINED if v is MISSING else v


@method(_WM, "set", 2)
def weakmap_set(this: Any, key: Any = UNDEFINED, value: Any = UNDEFINED, *_: Any) -> Any:
    """WeakMap.prototype.set (24.3.3.5)."""
    store = _receiver(this, JSWeakMap, "set").store
    if not _weak_key_ok(key):
        raise type_error("Invalid value used as weak map key")
    store.put(key, value)
    return this


@method(_WM, "has", 1)
def weakmap_has(this: Any, key: Any = UNDEFINED, *_: Any) -> bool:
    """WeakMap.prototype.has (24.3.3.4)."""
    store = _receiver(this, JSWeakMap, "has").store
    return _weak_key_ok(key) and store.get(key) is not MISSING


@method(_WM, "delete", 1)
def weakmap_delete(this: Any, key: Any = UNDEFINED, *_: Any) -> bool:
    """WeakMap.prototype.delete (24.3.3.2)."""
    store = _receiver(this, JSWeakMap, "delete").store
    return _weak_key_ok(key) and store.remove(key)


@method(_WS, "add", 1)
def weakset_add(this: Any, value: Any = UNDEFINED, *_: Any) -> Any:
    """WeakSet.prototype.add (24.4.3.1)."""
    store = _receiver(this, JSWeakSet, "add").store
    if not _weak_key_ok(value):
        raise type_error("Invalid value used in weak set")
    store.put(value, value)
    return this


@method(_WS, "has", 1)
def weakset_has(this: Any, value: Any = UNDEFINED, *_: Any) -> bool:
    """WeakSet.prototype.has (24.4.3.4)."""
    store = _receiver(this, JSWeakSet, "has").store
    return _weak_key_ok(value) and store.get(value) is not MISSING


@method(_WS, "delete", 1)
def weakset_delete(this: Any, value: Any = UNDEFINED, *_: Any) -> bool:
    """WeakSet.prototype.delete (24.4.3.3)."""
    store = _receiver(this, JSWeakSet, "delete").store
    return _weak_key_ok(value) and store.remove(value)


def weakmap_construct(iterable: Any = UNDEFINED, *_: Any) -> JSWeakMap:
    """WeakMap ( [ iterable ] ) (24.3.1.1) under ``new``."""
    w = JSWeakMap()
    source = _iterable_source(iterable)
    for entry in source or ():
        k, v = _entry(entry)
        weakmap_set(w, k, v)
    return w


def weakset_construct(iterable: Any = UNDEFINED, *_: Any) -> JSWeakSet:
    """WeakSet ( [ iterable ] ) (24.4.1.1) under ``new``."""
    w = JSWeakSet()
    for v in _iterable_source(iterable) or ():
        weakset_add(w, v)
    return w


class _ClassStatics(dict[str, Any]):
    """Own properties of the Map/Set constructors. ``prototype`` is the core's prototype
    object for the class, fetched on first read: the core builds class prototypes lazily
    and cannot be imported while the stdlib registers."""

    __slots__ = ("cls",)

    def __init__(self, cls: type[_Collection]) -> None:
        super().__init__()
        self.cls = cls

    def get(self, key: Any, default: Any = None) -> Any:
        if key == "prototype" and not dict.__contains__(self, key):
            dict.__setitem__(self, key, members().get_prototype(self.cls()))
        return dict.get(self, key, default)


GLOBALS["Map"] = native(_requires_new("Map"), "Map", 0, construct=map_construct, props=_ClassStatics(JSMap))
GLOBALS["Set"] = native(_requires_new("Set"), "Set", 0, construct=set_construct, props=_ClassStatics(JSSet))
GLOBALS["WeakMap"] = native(
    _requires_new("WeakMap"), "WeakMap", 0, construct=weakmap_construct, props=_ClassStatics(JSWeakMap)
)
GLOBALS["WeakSet"] = native(
    _requires_new("WeakSet"), "WeakSet", 0, construct=weakset_construct, props=_ClassStatics(JSWeakSet)
)
GROUP_BY = native(map_group_by, "groupBy", 2)  # ES2024; node 20 (the oracle) lacks it
