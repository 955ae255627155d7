"""Callback-driven Array.prototype methods, flat/flatMap and the array iterators
(ECMA-262 23.1.3 and 23.1.5).

Every method reads the length first and re-checks ``k < len(o)`` before each visit: that
is the spec's HasProperty test for an array without holes, so elements removed by a callback
are skipped and elements appended are not visited. Other receivers (array-likes, arrays with
holes or accessors) are read live, element by element (``array_support.LiveElements``). Callbacks are charged by the callee.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, cast

from ..convert import to_boolean, to_integer_or_infinity
from ..realm import PATCHED_REALMS, current_realm
from ..subclasses import plain_value
from ..errors import LimitExceeded
from ..properties import Holes, ensure_meta
from ..values import MISSING, UNDEFINED, JSFunction, JSIterator, range_error, type_error
from .array_support import live_elements, members, require_callable, require_object_coercible, snapshot
from .registry import ARRAY_PROTO, ITERATOR_PROTO, PLAIN_CALLBACK_METHODS, method, native
from .symbol import SYMBOL_ITERATOR

__all__ = ["array_iterator", "PLAIN_CALLBACK_METHODS"]


def species_create(o: Any, n: int) -> Any:
    """ArraySpeciesCreate (10.4.2.3): None for a plain new array (the answer whenever the
    receiver is not an array or no realm patches built-ins, so nothing can have changed its
    ``constructor``), else the object ``new C(n)`` made by the receiver's species ``C``."""
    m = members()
    if not isinstance(o, list) or not m.PATCHED_REALMS[0]:
        return None
    from .registry import GLOBALS
    from .symbol import WELL_KNOWN

    c = m.get_member(o, "constructor")
    if c is GLOBALS["Array"]:
        return None
    if m._is_object(c):
        c = m.get_member(c, WELL_KNOWN["species"])
        if c is None:
            c = UNDEFINED
    if c is UNDEFINED:
        return None
    if type(c) is not JSFunction or c.kind in ("arrow", "method") or (c.builtin and c.construct is None):
        raise type_error("object.constructor[Symbol.species] is not a constructor")
    from .. import callops

    return callops.construct(c, "species", n)


def create_data_property(o: Any, key: str, value: Any) -> None:
    """CreateDataPropertyOrThrow (7.3.7) on an object a species constructor made."""
    from .descriptors import define_or_throw

    define_or_throw(o, key, {"value": value, "writable": True, "enumerable": True, "configurable": True})


def _setup(this: Any, name: str, fn: Any) -> tuple[Any, list[Any], int]:
    """Receiver, its element view and length; the callback is checked after the length."""
    if type(this) is list and type(fn) is JSFunction and not PATCHED_REALMS[0]:
        return this, this, len(this)  # a plain array (no holes or accessors while unpatched)
    require_object_coercible(this, f"Array.prototype.{name}")
    o = live_elements(this)
    require_callable(fn)
    return (this if o is this else o.obj), o, len(o)


def _present(o: list[Any], recv: Any, n: int) -> Iterator[tuple[int, Any]]:
    """(k, element) for k < n while HasProperty(O, k) holds, read live.

    For a real array the list iterator does exactly the spec's per-step ``k < len`` check
    and reads the current element; ``range(n)`` stops at the snapshotted length."""
    if o is recv:
        return zip(range(n), o)
    return _visits(o, range(n))


def _visits(o: Any, order: range) -> Iterator[tuple[int, Any]]:
    """(k, element) for each k of ``order`` that is present, each element read once."""
    for k in order:
        if k < len(o):
            v = o[k]
            if v is not MISSING:
                yield k, v


# --- plain arrays while no realm patches built-ins ----------------------------------------------
# A real list is an array without holes or accessors while unpatched (see ``_setup``), so the
# spec's per-step HasProperty test is the list iterator's own ``k < len`` check. These take the
# callback as a Python callable ``call(this, element, index, array)``: the built-ins pass a
# function object's ``call``, and compiled code passes an arrow's closure directly
# (``callops.invoke_arrow``), which never needs its function object. The callback charges
# its own step per visit, as any compiled function does.
#
# Each visits as ``zip(range(n), arr)`` would (the live list iterator, stopped at the length
# read first), with the index counted by hand: making the zip and range objects cost more than
# a short array's whole loop.

def map_plain(arr: list[Any], call: Callable[..., Any], this_arg: Any = UNDEFINED) -> list[Any]:
    n = len(arr)
    out: list[Any] = []
    k = 0
    for v in arr:
        if k == n:
            break
        out.append(call(this_arg, v, k, arr))
        k += 1
    if k < n:  # the array shrank: the rest were never visited
        out.extend([UNDEFINED] * (n - k))
    return out


def filter_plain(arr: list[Any], call: Callable[..., Any], this_arg: Any = UNDEFINED) -> list[Any]:
    n = len(arr)
    out: list[Any] = []
    k = 0
    for v in arr:
        if k == n:
            break
        if (r := call(this_arg, v, k, arr)) is True or (r is not False and to_boolean(r)):
            out.append(v)
        k += 1
    return out


def for_each_plain(arr: list[Any], call: Callable[..., Any], this_arg: Any = UNDEFINED) -> Any:
    n = len(arr)
    k = 0
    for v in arr:
        if k == n:
            break
        call(this_arg, v, k, arr)
        k += 1
    return UNDEFINED


def some_plain(arr: list[Any], call: Callable[..., Any], this_arg: Any = UNDEFINED) -> bool:
    n = len(arr)
    k = 0
    for v in arr:
        if k == n:
            break
        r = call(this_arg, v, k, arr)
        if r is True or (r is not False and to_boolean(r)):
            return True
        k += 1
    return False


def every_plain(arr: list[Any], call: Callable[..., Any], this_arg: Any = UNDEFINED) -> bool:
    n = len(arr)
    k = 0
    for v in arr:
        if k == n:
            break
        r = call(this_arg, v, k, arr)
        if not (r is True or (r is not False and to_boolean(r))):
            return False
        k += 1
    return True


def _find_plain(arr: list[Any], call: Callable[..., Any], this_arg: Any) -> tuple[int, Any]:
    """FindViaPredicate over every index below the length read first (a shrunk array's
    missing tail reads undefined)."""
    for k in range(len(arr)):
        v = arr[k] if k < len(arr) else UNDEFINED
        r = call(this_arg, v, k, arr)
        if r is True or (r is not False and to_boolean(r)):
            return k, v
    return -1, UNDEFINED


def find_plain(arr: list[Any], call: Callable[..., Any], this_arg: Any = UNDEFINED) -> Any:
    return _find_plain(arr, call, this_arg)[1]


def find_index_plain(arr: list[Any], call: Callable[..., Any], this_arg: Any = UNDEFINED) -> int:
    return _find_plain(arr, call, this_arg)[0]


def reduce_plain(arr: list[Any], call: Callable[..., Any], *initial: Any) -> Any:
    n = len(arr)
    elements = iter(arr)
    if initial:
        acc, k = initial[0], 0
    elif n:  # (nothing ran since the length was read: the first element is there)
        acc, k = next(elements), 1
    else:
        raise type_error("Reduce of empty array with no initial value")
    for v in elements:
        if k == n:
            break
        acc = call(UNDEFINED, acc, v, k, arr)
        k += 1
    return acc


def _first_accumulator(pairs: Iterator[tuple[int, Any]], initial: tuple[Any, ...]) -> Any:
    """reduce's start: the initial value when given, else the first element visited (taken
    from ``pairs``); an empty array with no initial value is a TypeError."""
    if initial:
        return initial[0]
    first = next(pairs, None)
    if first is None:
        raise type_error("Reduce of empty array with no initial value")
    return first[1]


def flat_map_plain(arr: list[Any], call: Callable[..., Any], this_arg: Any = UNDEFINED) -> list[Any]:
    out: list[Any] = []
    realm = None
    n = len(arr)
    k = -1
    for v in arr:
        k += 1
        if k == n:
            break
        r = call(this_arg, v, k, arr)
        if type(r) is list and not PATCHED_REALMS[0]:  # (a callback may patch a built-in)
            if realm is None:
                realm = current_realm()
            if realm.dead is not None or len(out) + len(r) > realm.budgets.array_length:
                realm.check_array(len(out) + len(r))  # (check_array's own tests, without its call)
            out.extend(r)  # no holes while unpatched
        elif isinstance(r, list):
            r = plain_value(r)  # (a caller's list subclass: its plain copy)
            if realm is None:
                realm = current_realm()
            realm.check_array(len(out) + len(r))
            out.extend(UNDEFINED if x is MISSING else x for x in r)
        else:
            out.append(r)
    return out


#: the callback methods a plain array runs with a bare callable (``callops.invoke_arrow``)
PLAIN_CALLBACK_METHODS.update({
    "map": map_plain, "filter": filter_plain, "forEach": for_each_plain, "some": some_plain,
    "every": every_plain, "find": find_plain, "findIndex": find_index_plain, "reduce": reduce_plain,
    "flatMap": flat_map_plain,
})


@method(ARRAY_PROTO, "forEach", 1)
def array_for_each(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> Any:
    """Array.prototype.forEach (23.1.3.15)."""
    recv, o, n = _setup(this, "forEach", fn)
    call = fn.call
    for k, v in _present(o, recv, n):
        call(this_arg, v, k, recv)
    return UNDEFINED


@method(ARRAY_PROTO, "map", 1)
def array_map(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> Any:
    """Array.prototype.map (23.1.3.21); skipped indices stay undefined (no holes)."""
    if type(this) is list and type(fn) is JSFunction and not PATCHED_REALMS[0]:
        return map_plain(this, fn.call, this_arg)
    recv, o, n = _setup(this, "map", fn)
    call = fn.call
    if n > 4294967295:
        raise range_error("Invalid array length")  # ArrayCreate (10.4.2.2) of a non-array's length
    target = species_create(this, n) if PATCHED_REALMS[0] else None
    if target is not None:
        for k, v in _present(o, recv, n):
            create_data_property(target, str(k), call(this_arg, v, k, recv))
        return target
    if o is recv:
        out = [call(this_arg, v, k, recv) for k, v in zip(range(n), o)]
        if len(out) < n:  # the array shrank: the rest were never visited
            out.extend([UNDEFINED] * (n - len(out)))
        return out
    current_realm().check_array(n)
    out = [UNDEFINED] * n
    holes: list[int] = []
    for k in range(n):
        v = o[k] if k < len(o) else MISSING
        if v is MISSING:
            holes.append(k)  # never visited: stays a hole (23.1.3.21 step 6.c)
        else:
            out[k] = call(this_arg, v, k, recv)
    if holes:
        ensure_meta(out).holes = Holes(holes)
    return out


@method(ARRAY_PROTO, "filter", 1)
def array_filter(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> Any:
    """Array.prototype.filter (23.1.3.8)."""
    if type(this) is list and type(fn) is JSFunction and not PATCHED_REALMS[0]:
        return filter_plain(this, fn.call, this_arg)
    recv, o, n = _setup(this, "filter", fn)
    call = fn.call
    target = species_create(this, 0) if PATCHED_REALMS[0] else None
    if target is None:
        return [v for k, v in _present(o, recv, n)
                if (r := call(this_arg, v, k, recv)) is True or (r is not False and to_boolean(r))]
    to = 0
    for k, v in _present(o, recv, n):
        if _truthy(call(this_arg, v, k, recv)):
            create_data_property(target, str(to), v)
            to += 1
    return target


def _truthy(r: Any) -> bool:
    return r is True or (r is not False and to_boolean(r))


@method(ARRAY_PROTO, "some", 1)
def array_some(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> bool:
    """Array.prototype.some (23.1.3.29)."""
    recv, o, n = _setup(this, "some", fn)
    call = fn.call
    for k, v in _present(o, recv, n):
        if _truthy(call(this_arg, v, k, recv)):
            return True
    return False


@method(ARRAY_PROTO, "every", 1)
def array_every(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> bool:
    """Array.prototype.every (23.1.3.6)."""
    recv, o, n = _setup(this, "every", fn)
    call = fn.call
    for k, v in _present(o, recv, n):
        if not _truthy(call(this_arg, v, k, recv)):
            return False
    return True


def _find(this: Any, name: str, fn: Any, this_arg: Any, reverse: bool) -> tuple[int, Any]:
    """FindViaPredicate (23.1.3.12.1): every index is visited, absent ones read undefined."""
    recv, o, n = _setup(this, name, fn)
    call = fn.call
    for k in range(n - 1, -1, -1) if reverse else range(n):
        v = o[k] if k < len(o) else UNDEFINED
        if v is MISSING:
            v = UNDEFINED
        if to_boolean(call(this_arg, v, k, recv)):
            return k, v
    return -1, UNDEFINED


@method(ARRAY_PROTO, "find", 1)
def array_find(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> Any:
    """Array.prototype.find (23.1.3.9)."""
    return _find(this, "find", fn, this_arg, False)[1]


@method(ARRAY_PROTO, "findIndex", 1)
def array_find_index(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> int:
    """Array.prototype.findIndex (23.1.3.10)."""
    return _find(this, "findIndex", fn, this_arg, False)[0]


@method(ARRAY_PROTO, "findLast", 1)
def array_find_last(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> Any:
    """Array.prototype.findLast (23.1.3.11)."""
    return _find(this, "findLast", fn, this_arg, True)[1]


@method(ARRAY_PROTO, "findLastIndex", 1)
def array_find_last_index(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> int:
    """Array.prototype.findLastIndex (23.1.3.12)."""
    return _find(this, "findLastIndex", fn, this_arg, True)[0]


def _reduce(this: Any, name: str, fn: Any, args: tuple[Any, ...], reverse: bool) -> Any:
    """The shared loop of reduce/reduceRight (23.1.3.24-25)."""
    recv, o, n = _setup(this, name, fn)
    if reverse:
        pairs: Iterator[tuple[int, Any]] = _visits(o, range(n - 1, -1, -1))
    else:
        pairs = _present(o, recv, n)
    acc = _first_accumulator(pairs, args)
    call = fn.call
    for k, v in pairs:
        acc = call(UNDEFINED, acc, v, k, recv)
    return acc


@method(ARRAY_PROTO, "reduce", 1)
def array_reduce(this: Any, fn: Any = UNDEFINED, *args: Any) -> Any:
    """Array.prototype.reduce (23.1.3.24)."""
    return _reduce(this, "reduce", fn, args[:1], False)


@method(ARRAY_PROTO, "reduceRight", 1)
def array_reduce_right(this: Any, fn: Any = UNDEFINED, *args: Any) -> Any:
    """Array.prototype.reduceRight (23.1.3.25)."""
    return _reduce(this, "reduceRight", fn, args[:1], True)


# --- flat / flatMap -------------------------------------------------------------------------

_MAX_FLAT_DEPTH = 10_000


def _flatten_into(out: list[Any], source: list[Any], depth: float) -> None:
    """FlattenIntoArray (23.1.3.13.1) with an explicit stack (deep nesting, cycles)."""
    realm = current_realm()
    limit = realm.budgets.array_length
    stack: list[tuple[list[Any], int, float]] = [(source, 0, depth)]
    while stack:
        arr, i, d = stack.pop()
        while i < len(arr):
            v = arr[i]
            i += 1
            realm.charge()
            if v is MISSING:
                continue
            if d > 0 and isinstance(v, list):
                v = plain_value(v)  # (a caller's list subclass: its plain copy)
                if len(stack) >= _MAX_FLAT_DEPTH:
                    raise LimitExceeded("Maximum call stack size exceeded", budget="call_depth")
                stack.append((arr, i, d))
                arr, i, d = v, 0, d - 1
                continue
            out.append(v)
            if len(out) > limit:
                realm.check_array(len(out))


@method(ARRAY_PROTO, "flat", 0)
def array_flat(this: Any, depth: Any = UNDEFINED, *_: Any) -> list[Any]:
    """Array.prototype.flat (23.1.3.13): depth defaults to 1, Infinity flattens fully."""
    require_object_coercible(this, "Array.prototype.flat")
    o = snapshot(this)
    d = 1 if depth is UNDEFINED else to_integer_or_infinity(depth)
    out: list[Any] = []
    _flatten_into(out, o, max(d, 0))
    return out


@method(ARRAY_PROTO, "flatMap", 1)
def array_flat_map(this: Any, fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> Any:
    """Array.prototype.flatMap (23.1.3.14): map, then flatten one level."""
    recv, o, n = _setup(this, "flatMap", fn)
    call = fn.call
    target = species_create(this, 0) if PATCHED_REALMS[0] else None
    realm = current_realm()
    out: list[Any] = []
    for k in range(n):
        if k < len(o) and (v := o[k]) is not MISSING:
            r = call(this_arg, v, k, recv)
            if isinstance(r, list):
                r = plain_value(r)  # (a caller's list subclass: its plain copy)
                realm.check_array(len(out) + len(r))
                if type(r) is list and not PATCHED_REALMS[0]:
                    out.extend(r)  # no holes while unpatched
                else:
                    out.extend(UNDEFINED if x is MISSING else x for x in r)
            else:
                out.append(r)
    if target is not None:
        for k, v in enumerate(out):
            create_data_property(target, str(k), v)
        return target
    return out


# --- iterators ------------------------------------------------------------------------------

def _live(o: Any, kind: str) -> Iterator[Any]:
    """CreateArrayIterator (23.1.5.1): re-reads the length on every step, like V8."""
    k = 0
    while True:
        view = snapshot(o) if not isinstance(o, list) else o
        if k >= len(view):
            return
        v = view[k]
        v = UNDEFINED if v is MISSING else v
        yield k if kind == "keys" else v if kind == "values" else [k, v]
        k += 1


def array_iterator(o: Any, kind: str = "values") -> JSIterator:
    """A JS Array Iterator over ``o`` ("keys", "values" or "entries")."""
    return JSIterator(_live(o, kind), "Array Iterator")


@method(ARRAY_PROTO, "keys", 0)
def array_keys(this: Any, *_: Any) -> JSIterator:
    """Array.prototype.keys (23.1.3.19)."""
    require_object_coercible(this, "Array.prototype.keys")
    return array_iterator(this, "keys")


@method(ARRAY_PROTO, "values", 0)
def array_values(this: Any, *_: Any) -> JSIterator:
    """Array.prototype.values (23.1.3.38)."""
    require_object_coercible(this, "Array.prototype.values")
    return array_iterator(this, "values")


@method(ARRAY_PROTO, "entries", 0)
def array_entries(this: Any, *_: Any) -> JSIterator:
    """Array.prototype.entries (23.1.3.5)."""
    require_object_coercible(this, "Array.prototype.entries")
    return array_iterator(this, "entries")


def iterator_next(this: Any, *_: Any) -> dict[str, Any]:
    """%ArrayIteratorPrototype%.next (23.1.5.2.1), shared by every built-in JSIterator
    (Map/Set/RegExp String iterators): ``{value, done}``."""
    if type(this) is not JSIterator:
        from .array_support import describe

        raise type_error(f"Method Array Iterator.prototype.next called on incompatible receiver {describe(this)}")
    try:
        value = next(this.it)
    except StopIteration:
        return {"value": UNDEFINED, "done": True}
    return {"value": value, "done": False}


def iterator_self(this: Any, *_: Any) -> Any:
    """%IteratorPrototype% [ @@iterator ] (27.1.2.1): returns this."""
    return this


# The iterator prototype has no other owner; keep a core-provided ``next`` if there is one.
ITERATOR_PROTO.setdefault("next", native(iterator_next, "next", 0))
# Symbol-keyed entries: the core's prototype lookup finds them once it accepts symbol keys.
cast("dict[Any, JSFunction]", ITERATOR_PROTO)[SYMBOL_ITERATOR] = native(iterator_self, "[Symbol.iterator]", 0)
cast("dict[Any, JSFunction]", ARRAY_PROTO)[SYMBOL_ITERATOR] = ARRAY_PROTO["values"]
