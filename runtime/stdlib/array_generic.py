"""The Array.prototype mutators as ECMA-262 writes them (23.1.3), property by property.

``array.py`` runs a mutator on the Python list itself when the receiver is a plain array.
Every other receiver goes through here: array-likes (``Array.prototype.pop.call(obj)``),
primitives (their wrapper object, 7.1.18 ToObject) and arrays a script gave holes, accessors
or attributes. Each step is a HasProperty, [[Get]], [[Set]] (strict: a refused write throws)
or DeletePropertyOrThrow on the object, so getters, setters, frozen elements and indexes
inherited through holes behave as the spec says, and an array-like with a huge ``length``
costs only the indexes the method really touches (nothing is copied into a list first).
Each visited index is charged one step, so a loop over 2**53 indexes meets the step budget.
"""

from __future__ import annotations

from typing import Any

from ..convert import to_integer_or_infinity, to_length
from ..properties import Holes, ensure_meta
from ..realm import current_realm
from ..values import UNDEFINED, range_error, type_error
from .array_support import members, relative_index, to_object

__all__ = [
    "MAX_LENGTH", "check_array_create", "generic_copy_within", "generic_fill", "generic_pop", "generic_push",
    "generic_reverse", "generic_shift", "generic_splice", "generic_unshift", "length_of_object",
]

#: 2**53 - 1, the largest length of an array-like (7.1.22 ToLength)
MAX_LENGTH = 9007199254740991


def length_of_object(o: Any) -> int:
    """LengthOfArrayLike (7.3.18) of an object."""
    return to_length(members().get_member(o, "length"))


def check_array_create(n: int) -> None:
    """ArrayCreate's RangeError (10.4.2.2 step 1) for a length above 2**32 - 1."""
    if n > 4294967295:
        raise range_error("Invalid array length")


def _has(o: Any, k: int) -> bool:
    return bool(members().has_property(o, str(k)))


def _get(o: Any, k: Any) -> Any:
    return members().get_member(o, str(k) if type(k) is int else k)


def _set(o: Any, k: Any, v: Any) -> None:
    members().set_member(o, str(k) if type(k) is int else k, v, True)


def _delete(o: Any, k: int) -> None:
    members().delete_member(o, str(k), True)


def _move(o: Any, frm: int, to: int) -> None:
    """One step of the shifting loops: copy index ``frm`` to ``to``, or delete ``to``."""
    current_realm().charge()
    if _has(o, frm):
        _set(o, to, _get(o, frm))
    else:
        _delete(o, to)


def _too_long(n: int) -> None:
    if n > MAX_LENGTH:
        raise type_error(f"Pushing {n - MAX_LENGTH} elements on an array-like of length {MAX_LENGTH} "
                         "is disallowed, as the total surpasses 2**53-1")


def generic_push(this: Any, items: tuple[Any, ...]) -> int:
    """Array.prototype.push (23.1.3.23)."""
    o = to_object(this)
    n = length_of_object(o)
    _too_long(n + len(items))
    for v in items:
        _set(o, n, v)
        n += 1
    _set(o, "length", n)
    return n


def generic_pop(this: Any) -> Any:
    """Array.prototype.pop (23.1.3.22)."""
    o = to_object(this)
    n = length_of_object(o)
    if n == 0:
        _set(o, "length", 0)
        return UNDEFINED
    element = _get(o, n - 1)
    _delete(o, n - 1)
    _set(o, "length", n - 1)
    return element


def generic_shift(this: Any) -> Any:
    """Array.prototype.shift (23.1.3.27)."""
    o = to_object(this)
    n = length_of_object(o)
    if n == 0:
        _set(o, "length", 0)
        return UNDEFINED
    first = _get(o, 0)
    for k in range(1, n):
        _move(o, k, k - 1)
    _delete(o, n - 1)
    _set(o, "length", n - 1)
    return first


def generic_unshift(this: Any, items: tuple[Any, ...]) -> int:
    """Array.prototype.unshift (23.1.3.37)."""
    o = to_object(this)
    n = length_of_object(o)
    count = len(items)
    if count:
        _too_long(n + count)
        for k in range(n, 0, -1):
            _move(o, k - 1, k + count - 1)
        for j, v in enumerate(items):
            _set(o, j, v)
    _set(o, "length", n + count)
    return n + count


def generic_reverse(this: Any) -> Any:
    """Array.prototype.reverse (23.1.3.26)."""
    o = to_object(this)
    n = length_of_object(o)
    realm = current_realm()
    for lower in range(n // 2):
        realm.charge()
        upper = n - lower - 1
        lower_exists = _has(o, lower)
        lower_value = _get(o, lower) if lower_exists else UNDEFINED
        upper_exists = _has(o, upper)
        upper_value = _get(o, upper) if upper_exists else UNDEFINED
        if lower_exists and upper_exists:
            _set(o, lower, upper_value)
            _set(o, upper, lower_value)
        elif upper_exists:
            _set(o, lower, upper_value)
            _delete(o, upper)
        elif lower_exists:
            _delete(o, lower)
            _set(o, upper, lower_value)
    return o


def generic_fill(this: Any, value: Any, start: Any, end: Any) -> Any:
    """Array.prototype.fill (23.1.3.7)."""
    o = to_object(this)
    n = length_of_object(o)
    k = relative_index(start, n)
    final = relative_index(end, n, n)
    realm = current_realm()
    while k < final:
        realm.charge()
        _set(o, k, value)
        k += 1
    return o


def generic_copy_within(this: Any, target: Any, start: Any, end: Any) -> Any:
    """Array.prototype.copyWithin (23.1.3.4)."""
    o = to_object(this)
    n = length_of_object(o)
    to = relative_index(target, n)
    frm = relative_index(start, n)
    final = relative_index(end, n, n)
    count = min(final - frm, n - to)
    step = 1
    if frm < to < frm + count:
        step, frm, to = -1, frm + count - 1, to + count - 1
    while count > 0:
        _move(o, frm, to)
        frm += step
        to += step
        count -= 1
    return o


def generic_splice(this: Any, args: tuple[Any, ...]) -> Any:
    """Array.prototype.splice (23.1.3.31), with ArraySpeciesCreate for the removed part."""
    from .array_iter import create_data_property, species_create

    o = to_object(this)
    n = length_of_object(o)
    start = relative_index(args[0] if args else UNDEFINED, n)
    if not args:
        count = 0
    elif len(args) == 1:
        count = n - start
    else:
        count = int(min(max(to_integer_or_infinity(args[1]), 0), n - start))
    items = args[2:]
    _too_long(n + len(items) - count)
    target = species_create(o, count)
    if target is None and type(o) is list and not _has_meta(o):  # a plain array, no species
        realm = current_realm()
        realm.check_array(n - count + len(items))
        realm.bulk(n)
        removed: Any = o[start:start + count]
        o[start:start + count] = items
        return removed
    if target is None:
        check_array_create(count)
        current_realm().check_array(count)
        removed = [UNDEFINED] * count
        for k in range(count):
            if _has(o, start + k):
                removed[k] = _get(o, start + k)
            else:
                m = ensure_meta(removed)
                if m.holes is None:
                    m.holes = Holes()
                m.holes.add(k)
    else:
        removed = target
        for k in range(count):
            if _has(o, start + k):
                create_data_property(target, str(k), _get(o, start + k))
        _set(target, "length", count)
    added = len(items)
    if added < count:
        for k in range(start, n - count):
            _move(o, k + count, k + added)
        for k in range(n, n - count + added, -1):
            current_realm().charge()
            _delete(o, k - 1)
    elif added > count:
        for k in range(n - count, start, -1):
            _move(o, k + count - 1, k + added - 1)
    for j, v in enumerate(items):
        _set(o, start + j, v)
    _set(o, "length", n - count + added)
    return removed


def _is_concat_spreadable(v: Any) -> bool:
    """IsConcatSpreadable (23.1.3.2.1)."""
    from ..convert import to_boolean
    from ..well_known import WELL_KNOWN

    m = members()
    if not m._is_object(v):
        return False
    spreadable = m.get_member(v, WELL_KNOWN["isConcatSpreadable"])
    if spreadable is not UNDEFINED:
        return bool(to_boolean(spreadable))
    return isinstance(v, list) and getattr(type(v), "JS_CLASS", "Array") == "Array"


class _Collector:
    """Where concat/slice put their elements: the species' object, or a new list whose
    skipped indexes are recorded as holes."""

    __slots__ = ("target", "out", "holes")

    def __init__(self, target: Any) -> None:
        self.target = target
        self.out: list[Any] = []
        self.holes: list[int] = []

    def put(self, k: int, v: Any) -> None:
        from .array_iter import create_data_property

        if self.target is not None:
            create_data_property(self.target, str(k), v)
            return
        self.pad(k)
        self.out.append(v)

    def pad(self, k: int) -> None:
        """Holes up to index ``k`` (the absent elements skipped so far)."""
        out = self.out
        if k > len(out):
            current_realm().check_array(k + 1)
            self.holes.extend(range(len(out), k))
            out.extend([UNDEFINED] * (k - len(out)))

    def finish(self, n: int) -> Any:
        if self.target is not None:
            _set(self.target, "length", n)
            return self.target
        out = self.out
        self.pad(n)
        if self.holes:
            m = ensure_meta(out)
            m.holes = Holes(self.holes)
        return out


def generic_concat(this: Any, args: tuple[Any, ...]) -> Any:
    """Array.prototype.concat (23.1.3.2): Symbol.isConcatSpreadable, the species, holes."""
    from .array_iter import species_create

    o = to_object(this)
    into = _Collector(species_create(o, 0))
    realm = current_realm()
    n = 0
    for item in (o, *args):
        if _is_concat_spreadable(item):
            length = length_of_object(item)
            if n + length > MAX_LENGTH:
                raise type_error("Invalid array length")
            if type(item) is list and into.target is None and not _has_meta(item):
                realm.check_array(n + length)
                realm.bulk(length)
                into.pad(n)
                into.out.extend(item)  # a plain array: every index present
                n += length
                continue
            for k in range(length):
                realm.charge()
                if _has(item, k):
                    into.put(n, _get(item, k))
                n += 1
        else:
            if n >= MAX_LENGTH:
                raise type_error("Invalid array length")
            into.put(n, item)
            n += 1
    return into.finish(n)


def _has_meta(o: Any) -> bool:
    from ..properties import meta_of

    return meta_of(o) is not None


def generic_slice(this: Any, start: Any, end: Any) -> Any:
    """Array.prototype.slice (23.1.3.28), with ArraySpeciesCreate and holes kept."""
    from .array_iter import species_create

    o = to_object(this)
    n = length_of_object(o)
    k = relative_index(start, n)
    final = relative_index(end, n, n)
    count = max(final - k, 0)
    target = species_create(o, count)
    if target is None:
        check_array_create(count)
        current_realm().check_array(count)
        if type(o) is list and not _has_meta(o):  # a plain array, no species: copy the slice
            current_realm().bulk(count)
            return o[k:final]
    into = _Collector(target)
    realm = current_realm()
    i = 0
    while k < final:
        realm.charge()
        if _has(o, k):
            into.put(i, _get(o, k))
        k += 1
        i += 1
    return into.finish(i)
