"""The Array constructor, its statics, and the non-callback Array.prototype methods
(ECMA-262 23.1). Callback-driven methods live in ``array_iter``, sorting in ``array_sort``.

Arrays are Python lists without holes; a receiver that is not a list (``.call`` on an
array-like) is read through ``array_support.snapshot`` and written back generically.
"""

from __future__ import annotations

import math
from typing import Any

from ..convert import (
    is_callable,
    same_value_zero,
    strict_equals,
    to_integer_or_infinity,
    to_number,
    to_string,
    to_uint32,
)
from .. import stack
from ..strings import UNCHECKED_CONCAT
from ..properties import mark_holes, meta_of
from ..realm import PATCHED_REALMS, current_realm
from ..subclasses import plain_value
from ..values import MISSING, UNDEFINED, JSFunction, range_error, type_error
from .array_generic import (
    MAX_LENGTH,
    check_array_create,
    generic_concat,
    generic_slice,
    generic_copy_within,
    generic_fill,
    generic_pop,
    generic_push,
    generic_reverse,
    generic_shift,
    generic_splice,
    generic_unshift,
)
from .array_support import (
    charge_work,
    checked_chunks,
    checked_map,
    includes_from,
    length_of,
    to_object,
    live_elements,
    members,
    relative_index,
    require_callable,
    require_object_coercible,
    snapshot,
    strict_index,
)
from .registry import ARRAY_PROTO, GLOBALS, method, native

__all__ = ["array_ctor", "array_from", "array_join"]


def _receiver(this: Any, name: str) -> Any:
    require_object_coercible(this, f"Array.prototype.{name}")
    return this


def _items(this: Any, name: str) -> list[Any]:
    """The receiver's elements as a list (the live list for arrays)."""
    return snapshot(_receiver(this, name))


def _plain(v: Any) -> Any:
    return UNDEFINED if v is MISSING else v


# --- constructor and statics ----------------------------------------------------------------

def array_ctor(this: Any, *args: Any) -> list[Any]:
    """Array ( ...values ) (23.1.1.1); called and constructed alike."""
    if len(args) == 1:
        n = args[0]
        if type(n) is int or type(n) is float:
            if to_uint32(n) != n:
                raise range_error("Invalid array length")
            realm = current_realm()
            realm.check_array(int(n))
            realm.allocate(8 * int(n))  # one pointer a slot
            out = [UNDEFINED] * int(n)
            mark_holes(out, 0)  # n holes, no elements (23.1.1.1 step 5)
            return out
        return [n]
    _check_count(len(args))
    return list(args)


def _check_count(n: int) -> None:
    """An array made of a call's arguments (``Array(...a, ...b)``, ``Array.of``): each spread
    was held to the array budget alone, the whole is held here (as ``spread`` does, at most
    64 items are not counted)."""
    if n > 64:
        current_realm().check_array(n)


def array_is_array(this: Any, arg: Any = UNDEFINED, *_: Any) -> bool:
    """Array.isArray (23.1.2.2)."""
    return isinstance(arg, list) and getattr(type(arg), "JS_CLASS", "Array") == "Array"


def array_of(this: Any, *items: Any) -> Any:
    """Array.of (23.1.2.3)."""
    _check_count(len(items))
    return _into_class(this, list(items), (len(items),))


def _into_class(this: Any, out: list[Any], args: tuple[Any, ...]) -> Any:
    """Array.from/of called on another constructor (``class A extends Array``, a plain
    function): the items go into the object it constructs, each by CreateDataPropertyOrThrow,
    then ``length`` by a strict [[Set]] (23.1.2.1 steps 5.a, 12; 23.1.2.3)."""
    from ..classes import _is_constructor, construct_with

    if this is GLOBALS["Array"] or not _is_constructor(this):
        return out
    made = construct_with(this, this, args)
    if type(made) is list and meta_of(made) is None:
        made[:] = out
        return made
    from .array_iter import create_data_property

    for k, v in enumerate(out):
        create_data_property(made, str(k), v)
    members().set_member(made, "length", len(out), True)
    return made


def _iterate(items: Any) -> Any:
    """The iteration source of Array.from, or None for array-likes (23.1.2.1 steps 4-5)."""
    if isinstance(items, list):
        # a script that patched a built-in may have replaced Array.prototype[Symbol.iterator]
        return members().js_iterate(items) if PATCHED_REALMS[0] else list(items)
    if type(items) is str:
        return list(items)
    if items is None or items is UNDEFINED:
        shown = "object null" if items is None else "undefined"
        raise type_error(f"{shown} is not iterable (cannot read property Symbol(Symbol.iterator))")
    if hasattr(type(items), "js_iterator"):
        return members().js_iterate(items)
    if isinstance(items, dict) or type(items) is JSFunction:
        from .symbol import SYMBOL_ITERATOR

        method = members().get_member(items, SYMBOL_ITERATOR)
        if method is not UNDEFINED and method is not None:
            return members().js_iterate(items)  # a script's own iterable (23.1.2.1 step 5)
    return None


def array_from(this: Any, items: Any = UNDEFINED, map_fn: Any = UNDEFINED, this_arg: Any = UNDEFINED, *_: Any) -> Any:
    """Array.from (23.1.2.1): iterables first, then array-likes via ``length``."""
    if map_fn is not UNDEFINED:
        require_callable(map_fn)
    items = plain_value(items)  # (caller data of a subclass: its plain value)
    source = _iterate(items)
    array_like = source is None
    if source is None:
        source = [_plain(v) for v in snapshot(items)]
    realm = current_realm()
    if type(source) is list:
        realm.bulk(len(source))
    elif isinstance(items, list):  # an array read through its (possibly patched) iterator
        realm.bulk(len(items))
    out: list[Any] = []
    for k, v in enumerate(source):
        if map_fn is not UNDEFINED:
            v = map_fn.call(this_arg, v, k)
        out.append(v)
        if len(out) & 0xFFF == 0:
            realm.check_array(len(out))
            realm.check_time()  # a long copy stops near its deadline by itself, not by the watchdog
    return _into_class(this, out, (len(out),) if array_like else ())


GLOBALS["Array"] = native(
    array_ctor,
    "Array",
    1,
    construct=lambda *args: array_ctor(UNDEFINED, *args),
    props={
        "isArray": native(array_is_array, "isArray", 1),
        "from": native(array_from, "from", 1),
        "of": native(array_of, "of", 0),
    },
)


# --- access ---------------------------------------------------------------------------------

@method(ARRAY_PROTO, "at", 1)
def array_at(this: Any, index: Any = UNDEFINED, *_: Any) -> Any:
    """Array.prototype.at (23.1.3.1)."""
    o = _items(this, "at")
    rel = to_integer_or_infinity(index)
    k = rel if rel >= 0 else len(o) + rel
    if k < 0 or k >= len(o):
        return UNDEFINED
    return _plain(o[int(k)])


@method(ARRAY_PROTO, "concat", 1)
def array_concat(this: Any, *args: Any) -> list[Any]:
    """Array.prototype.concat (23.1.3.2): arrays are spread, everything else appended."""
    require_object_coercible(this, "Array.prototype.concat")
    if PATCHED_REALMS[0] or not all(type(a) is list or not members()._is_object(a) for a in args) \
            or type(this) is not list:
        return generic_concat(this, args)  # type: ignore[no-any-return]
    first = this  # a primitive receiver stands for its wrapper, which is not spread
    realm = current_realm()
    out: list[Any] = []
    for item in (first, *args):
        if isinstance(item, list):
            realm.check_array(len(out) + len(item))
            charge_work(len(item))
            out.extend(item)
        else:
            out.append(item)
    return out


@method(ARRAY_PROTO, "includes", 1)
def array_includes(this: Any, search: Any = UNDEFINED, from_index: Any = UNDEFINED, *_: Any) -> bool:
    """Array.prototype.includes (23.1.3.16): SameValueZero, holes read as undefined."""
    o = live_elements(_receiver(this, "includes"))
    n = len(o)
    if not n:
        return False  # step 3: before fromIndex is converted ([].includes(1, Symbol()) is false)
    start = _from_start(from_index, n)
    if type(o) is list:
        charge_work(n)
        return includes_from(o if len(o) <= n else o[:n], search, start)
    charge = current_realm().charge  # an array-like: only the indexes visited cost
    for k in range(start, n):
        charge()
        v = o[k]
        if same_value_zero(UNDEFINED if v is MISSING else v, search):
            return True
    return False


def _from_start(from_index: Any, length: int) -> int:
    """The start of indexOf/includes from ``fromIndex`` (23.1.3.17 steps 4-9)."""
    n = to_integer_or_infinity(from_index)
    if n == math.inf:
        return length
    if n >= 0:
        return int(n)
    return 0 if n == -math.inf else max(length + int(n), 0)


@method(ARRAY_PROTO, "indexOf", 1)
def array_index_of(this: Any, search: Any = UNDEFINED, from_index: Any = UNDEFINED, *_: Any) -> int:
    """Array.prototype.indexOf (23.1.3.17): strict equality, holes skipped."""
    o = live_elements(_receiver(this, "indexOf"))
    n = len(o)
    if not n:
        return -1  # step 3: before fromIndex is converted
    start = _from_start(from_index, n)
    if type(o) is list:  # (the live array: a valueOf of fromIndex may have changed it)
        charge_work(n)
        found = strict_index(o, search, start)
        return found if found < n else -1
    charge = current_realm().charge
    for k in range(start, n):
        charge()
        v = o[k]
        if v is not MISSING and strict_equals(v, search):
            return k
    return -1


@method(ARRAY_PROTO, "lastIndexOf", 1)
def array_last_index_of(this: Any, search: Any = UNDEFINED, *args: Any) -> int:
    """Array.prototype.lastIndexOf (23.1.3.20)."""
    o = live_elements(_receiver(this, "lastIndexOf"))
    length = len(o)
    if length == 0:
        return -1
    plain = type(o) is list
    if plain:
        charge_work(length)
    charge = current_realm().charge
    n = to_integer_or_infinity(args[0]) if args else length - 1
    if n == -math.inf:
        return -1
    k = int(min(n, length - 1)) if n >= 0 else length + int(n)
    while k >= 0:
        if not plain:
            charge()
        v = o[k] if k < len(o) else MISSING
        if v is not MISSING and strict_equals(v, search):
            return k
        k -= 1
    return -1


def _join_parts(o: list[Any]) -> list[str]:
    """ToString of each element; null/undefined as '', nested arrays share the cycle guard."""
    parts: list[str] = []
    append = parts.append
    for v in o:
        t = type(v)
        if t is str:
            append(v)
        elif t is int:
            append(str(v))
        elif v is None or v is UNDEFINED or v is MISSING:
            append("")
        elif t is list:
            append(array_join(v, ","))
        else:
            append(to_string(v))
    return parts


def array_join(o: list[Any], sep: str) -> str:
    """The join loop (23.1.3.18) with V8's cycle rule: an array inside itself joins as ''."""
    realm = current_realm()
    active: set[int] = realm.extra.setdefault("array.join", set())
    key = id(o)
    if key in active:
        return ""
    if PATCHED_REALMS[0] and type(o) is list and meta_of(o) is not None:
        o = snapshot(o)  # holes read through the prototype, accessors run
    charge_work(len(o))
    active.add(key)
    try:
        parts = checked_chunks(_join_parts, o)
    finally:
        active.discard(key)
    realm.check_string(sum(map(len, parts)) + len(sep) * max(len(parts) - 1, 0))
    return sep.join(parts)


@method(ARRAY_PROTO, "join", 1)
def array_join_method(this: Any, separator: Any = UNDEFINED, *_: Any) -> str:
    """Array.prototype.join (23.1.3.18): default ',', null/undefined elements as ''."""
    if type(this) is list and not PATCHED_REALMS[0] and len(this) <= 64 and (type(separator) is str or separator is UNDEFINED):
        # a short unpatched array of strs (split parts, keys): joined at once, as array_join
        # would (no element is an array, so no cycle; each part is itself); a short result
        # needs no string budget look (as strings.concat)
        for v in this:
            if type(v) is not str:
                break
        else:
            joined = ("," if type(separator) is not str else separator).join(this)
            if len(joined) <= UNCHECKED_CONCAT:
                return joined
    o = _items(this, "join")
    sep = "," if separator is UNDEFINED else to_string(separator)
    return array_join(o, sep)


@method(ARRAY_PROTO, "toString", 0)
def array_to_string(this: Any, *_: Any) -> str:
    """Array.prototype.toString (23.1.3.36): calls ``join`` if callable."""
    if isinstance(this, list):
        return array_join(this, ",")
    require_object_coercible(this, "Array.prototype.toString")
    join = members().get_member(this, "join")
    if is_callable(join):
        return to_string(join.call(this))
    from .object_proto import object_to_string

    return object_to_string(this)


@method(ARRAY_PROTO, "toLocaleString", 0)
def array_to_locale_string(this: Any, *_: Any) -> str:
    """Array.prototype.toLocaleString (23.1.3.35): each element's toLocaleString, joined by ','."""
    o = _items(this, "toLocaleString")
    stack.check()  # nested arrays recurse through here and C: a deep one must not overflow the stack
    m = members()
    parts = []
    for v in o:
        if v is None or v is UNDEFINED or v is MISSING:
            parts.append("")
        else:
            parts.append(to_string(m.call_method(v, "toLocaleString")))
    return ",".join(parts)


@method(ARRAY_PROTO, "slice", 2)
def array_slice(this: Any, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> Any:
    """Array.prototype.slice (23.1.3.28)."""
    if not _plain_receiver(this, "slice") or PATCHED_REALMS[0]:
        return generic_slice(this, start, end)
    o = this
    length = len(o)
    k = relative_index(start, length)
    final = relative_index(end, length, length)
    charge_work(final - k)
    return checked_map(_plain, o[k:final]) if k < final else []


# --- mutators -------------------------------------------------------------------------------

def _plain_receiver(this: Any, name: str) -> bool:
    """True when a mutator may work on the Python list itself: an array with no holes,
    accessors or attributes (every index an own writable data property). Everything else
    goes through ``array_generic``, property by property."""
    require_object_coercible(this, f"Array.prototype.{name}")
    return isinstance(this, list) and (not PATCHED_REALMS[0] or meta_of(this) is None)


@method(ARRAY_PROTO, "push", 1)
def array_push(this: Any, *items: Any) -> int:
    """Array.prototype.push (23.1.3.23)."""
    if not _plain_receiver(this, "push") or (PATCHED_REALMS[0] and items):
        return generic_push(this, items)  # (patched: an inherited index setter may see the write)
    if items:
        current_realm().check_array(len(this) + len(items))
        this.extend(items)
    return len(this)


@method(ARRAY_PROTO, "pop", 0)
def array_pop(this: Any, *_: Any) -> Any:
    """Array.prototype.pop (23.1.3.22)."""
    if not _plain_receiver(this, "pop"):
        return generic_pop(this)
    return this.pop() if this else UNDEFINED


@method(ARRAY_PROTO, "shift", 0)
def array_shift(this: Any, *_: Any) -> Any:
    """Array.prototype.shift (23.1.3.27)."""
    if not _plain_receiver(this, "shift"):
        return generic_shift(this)
    return this.pop(0) if this else UNDEFINED


@method(ARRAY_PROTO, "unshift", 1)
def array_unshift(this: Any, *items: Any) -> int:
    """Array.prototype.unshift (23.1.3.37)."""
    if not _plain_receiver(this, "unshift") or (PATCHED_REALMS[0] and items):
        return generic_unshift(this, items)
    if items:
        current_realm().check_array(len(this) + len(items))
        this[0:0] = items
    return len(this)


@method(ARRAY_PROTO, "reverse", 0)
def array_reverse(this: Any, *_: Any) -> Any:
    """Array.prototype.reverse (23.1.3.26): in place, returns the receiver."""
    if not _plain_receiver(this, "reverse"):
        return generic_reverse(this)
    this.reverse()
    return this


@method(ARRAY_PROTO, "fill", 1)
def array_fill(this: Any, value: Any = UNDEFINED, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> Any:
    """Array.prototype.fill (23.1.3.7). An array whose only oddity is holes (``new
    Array(n).fill(0)``) is filled in place too, the filled holes forgotten."""
    plain = _plain_receiver(this, "fill")
    m = None if plain or type(this) is not list else meta_of(this)
    holes_only = m is not None and not (m.flags or m.accessors) and m.extensible
    if not plain and not holes_only:
        return generic_fill(this, value, start, end)
    o: list[Any] = this
    k = relative_index(start, len(o))
    final = relative_index(end, len(o), len(o))
    if k < final:
        o[k:final] = [value] * (final - k)
        if m is not None and m.holes:
            m.holes.clear(k, final, len(o))
    return o


@method(ARRAY_PROTO, "copyWithin", 2)
def array_copy_within(this: Any, target: Any = UNDEFINED, start: Any = UNDEFINED, *args: Any) -> Any:
    """Array.prototype.copyWithin (23.1.3.4)."""
    end = args[0] if args else UNDEFINED
    if not _plain_receiver(this, "copyWithin"):
        return generic_copy_within(this, target, start, end)
    o: list[Any] = this
    length = len(o)
    to = relative_index(target, length)
    frm = relative_index(start, length)
    final = relative_index(end, length, length)
    count = min(final - frm, length - to)
    if count > 0:
        o[to:to + count] = o[frm:frm + count]
    return o


def _splice_bounds(length: int, args: tuple[Any, ...]) -> tuple[int, int]:
    """actualStart and actualDeleteCount of splice/toSpliced (23.1.3.31 steps 3-8)."""
    start = relative_index(args[0] if args else UNDEFINED, length)
    if not args:
        return start, 0
    if len(args) == 1:
        return start, length - start
    dc = to_integer_or_infinity(args[1])
    return start, int(min(max(dc, 0), length - start))


@method(ARRAY_PROTO, "splice", 2)
def array_splice(this: Any, *args: Any) -> Any:
    """Array.prototype.splice (23.1.3.31)."""
    if not _plain_receiver(this, "splice") or PATCHED_REALMS[0]:
        return generic_splice(this, args)  # (a patched realm: the species may matter)
    o: list[Any] = this
    start, count = _splice_bounds(len(o), args)
    items = args[2:]
    if count or items:
        current_realm().check_array(len(o) - count + len(items))
    removed = o[start:start + count]
    o[start:start + count] = items
    return removed


# --- copying methods (ES2023) -----------------------------------------------------------------

def _copy_source(this: Any, name: str, new_array: bool = True) -> tuple[Any, int, Any]:
    """The receiver of a copying method, its length and its [[Get]] by index. A plain array
    is read as the list; anything else is ToObject'd and read element by element (holes
    through the prototype), after ArrayCreate's RangeError (10.4.2.2) for a length above
    2**32 - 1, so no element is read before it."""
    require_object_coercible(this, f"Array.prototype.{name}")
    if isinstance(this, list) and (not PATCHED_REALMS[0] or meta_of(this) is None):
        return this, len(this), None
    o = to_object(this)
    n = length_of(o)
    if new_array:  # (toSpliced checks the length it makes instead)
        check_array_create(n)
        current_realm().check_array(n)
    get = members().get_member
    return o, n, lambda k: get(o, str(k))


def _read_range(o: Any, get: Any, start: int, stop: int, step: int = 1) -> list[Any]:
    """The elements ``range(start, stop, step)`` of a ``_copy_source`` (a slice of a list)."""
    if get is None:
        return o[start:stop]  # type: ignore[no-any-return]
    charge = current_realm().charge
    out = []
    for k in range(start, stop, step):
        charge()
        out.append(get(k))
    return out


@method(ARRAY_PROTO, "toReversed", 0)
def array_to_reversed(this: Any, *_: Any) -> list[Any]:
    """Array.prototype.toReversed (23.1.3.33)."""
    o, n, get = _copy_source(this, "toReversed")
    charge_work(n)
    if get is None:
        return o[::-1]  # type: ignore[no-any-return]
    return _read_range(o, get, n - 1, -1, -1)


@method(ARRAY_PROTO, "toSpliced", 2)
def array_to_spliced(this: Any, *args: Any) -> list[Any]:
    """Array.prototype.toSpliced (23.1.3.34): the skipped elements are never read."""
    o, n, get = _copy_source(this, "toSpliced", new_array=False)
    start, count = _splice_bounds(n, args)
    items = list(args[2:])
    new_length = n - count + len(items)
    if new_length > MAX_LENGTH:
        raise type_error("Invalid array length")
    check_array_create(new_length)
    current_realm().check_array(new_length)
    charge_work(new_length)
    return _read_range(o, get, 0, start) + items + _read_range(o, get, start + count, n)


@method(ARRAY_PROTO, "with", 2)
def array_with(this: Any, index: Any = UNDEFINED, value: Any = UNDEFINED, *_: Any) -> list[Any]:
    """Array.prototype.with (23.1.3.39): RangeError for an index outside the array; the
    replaced element is never read."""
    o, n, get = _copy_source(this, "with")
    rel = to_integer_or_infinity(index)
    k = rel if rel >= 0 else n + rel
    if k >= n or k < 0:
        raise range_error(f"Invalid index : {to_string(to_number(rel))}")
    k = int(k)
    charge_work(n)
    return _read_range(o, get, 0, k) + [value] + _read_range(o, get, k + 1, n)


def _register_extras() -> None:
    """Import the sibling modules that register the rest of Array.prototype."""
    from . import array_iter, array_sort  # noqa: F401


_register_extras()
