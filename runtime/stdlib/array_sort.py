"""Array.prototype.sort and toSorted (ECMA-262 23.1.3.30, 23.1.3.35).

SortIndexedProperties reads the elements, sorts a copy and writes it back. ``undefined``
always goes last and never reaches the comparator. Without a comparator the order is that of
the elements' ToString as UTF-16 code-unit sequences (V8's default), so astral characters
sort as their surrogates. With one, Python's stable TimSort (the algorithm V8 ports) is
driven through ``cmp_to_key``; a NaN result counts as 0, and an inconsistent comparator gives
some permutation rather than an error.
"""

from __future__ import annotations

import functools
import operator
from typing import Any, Callable

from ..convert import to_number, to_string
from ..realm import current_realm
from ..strings import has_astral, to_units
from ..values import MISSING, UNDEFINED, JSFunction, type_error
from ..properties import meta_of
from ..realm import PATCHED_REALMS
from .array_generic import check_array_create, length_of_object
from .array_support import checked_map, length_of, members, require_object_coercible, snapshot, to_object
from .registry import ARRAY_PROTO, method

__all__ = ["sort_values"]


def _string_key(v: Any) -> str:
    s = to_string(v)
    return to_units(s) if has_astral(s) else s


_FIRST = operator.itemgetter(0)
_ONLY_STR = {str}
_SECOND = operator.itemgetter(1)


def _keyed(v: Any) -> tuple[str, Any]:
    return (_string_key(v), v)


def _comparator_key(fn: JSFunction) -> Callable[[Any], Any]:
    call = fn.call

    def compare(a: Any, b: Any) -> int:
        r = to_number(call(UNDEFINED, a, b))
        if r != r or r == 0:
            return 0
        return -1 if r < 0 else 1

    return functools.cmp_to_key(compare)


def sort_values(items: list[Any], comparefn: Any) -> list[Any]:
    """SortIndexedProperties + CompareArrayElements on a copy (23.1.3.30.1-2)."""
    defined = [v for v in items if v is not UNDEFINED and v is not MISSING]
    undefined_count = len(items) - len(defined)
    n = len(defined)
    if n > 1:
        realm = current_realm()
        # comparator calls are charged by the callee; ToString keys and C comparisons here
        realm.bulk(16 * n if comparefn is not UNDEFINED else 2 * n * n.bit_length())  # n / (n log n) / 8 steps
        if comparefn is UNDEFINED and set(map(type, defined)) == _ONLY_STR and "".join(defined).isascii():
            defined.sort()  # ASCII strings: code points order them as UTF-16 units do (C-speed tests)
            realm.check_time()
        elif comparefn is UNDEFINED:
            keyed = checked_map(_keyed, defined)
            keyed.sort(key=_FIRST)
            realm.check_time()
            defined = checked_map(_SECOND, keyed)
        else:
            defined.sort(key=_comparator_key(comparefn))
    return defined + [UNDEFINED] * undefined_count


#: the longest array ``array_sort``'s fast path sorts (no look at the clock after it)
_SHORT = 64


def _check_comparefn(comparefn: Any) -> None:
    if comparefn is not UNDEFINED and type(comparefn) is not JSFunction:
        raise type_error("The comparison function must be either a function or undefined")


@method(ARRAY_PROTO, "sort", 1)
def array_sort(this: Any, comparefn: Any = UNDEFINED, *_: Any) -> Any:
    """Array.prototype.sort (23.1.3.30): in place, returns the receiver."""
    if comparefn is UNDEFINED and type(this) is list and not PATCHED_REALMS[0] and 1 < len(this) <= _SHORT:
        # a short unpatched array of ASCII strs (keys, names): sorted in place, charged as
        # sort_values charges (whose charge looks at the clock: a sort this short ends at once)
        for v in this:
            if type(v) is not str:
                break
        else:
            if "".join(this).isascii():
                n = len(this)
                current_realm().bulk(2 * n * n.bit_length())
                this.sort()
                return this
    _check_comparefn(comparefn)
    require_object_coercible(this, "Array.prototype.sort")
    if isinstance(this, list) and (not PATCHED_REALMS[0] or meta_of(this) is None):
        this[:] = sort_values(list(this), comparefn)  # a plain array: every index an own data property
        return this
    return _sort_generic(this, comparefn)


def _sort_generic(this: Any, comparefn: Any) -> Any:
    """sort on any other receiver (23.1.3.30 steps 3-8): the present elements are read
    (HasProperty, then [[Get]]: accessors run once each, holes read through the prototype),
    sorted, written back by strict [[Set]], and the indexes left over are deleted."""
    o = to_object(this)
    n = length_of_object(o)
    if n < 2:
        return o  # nothing to order: V8 writes nothing back (a frozen [x] sorts quietly)
    m = members()
    realm = current_realm()
    items = []
    for k in range(n):
        realm.charge()
        key = str(k)
        if m.has_property(o, key):
            items.append(m.get_member(o, key))
    result = sort_values(items, comparefn)
    for j, v in enumerate(result):
        m.set_member(o, str(j), v, True)
    for j in range(len(result), n):
        realm.charge()
        m.delete_member(o, str(j), True)
    return o


@method(ARRAY_PROTO, "toSorted", 1)
def array_to_sorted(this: Any, comparefn: Any = UNDEFINED, *_: Any) -> list[Any]:
    """Array.prototype.toSorted (23.1.3.35): a sorted copy."""
    _check_comparefn(comparefn)
    require_object_coercible(this, "Array.prototype.toSorted")
    if not isinstance(this, list):
        check_array_create(length_of(to_object(this)))
    return sort_values(list(snapshot(this)), comparefn)
