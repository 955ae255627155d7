"""Shared helpers of the Array, Object, Map/Set and Error built-ins.

They cover what ECMA-262 calls ToObject/LengthOfArrayLike/HasProperty/Get for the cases these
built-ins meet (lists, strings, dicts, special classes), V8's rendering of a value in
"x is not a function" messages, relative-index clamping, and the frozen-array checks.
Generic property access for exotic receivers goes through the core's ``members`` module.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from .. import members as _core
from ..convert import strict_equals, to_integer_or_infinity, to_length
from ..describe import describe as describe  # re-exported: the built-ins word errors with it
from ..properties import meta_of
from ..realm import current_realm
from ..subclasses import foreign, plain_value
from ..strings import has_astral, to_units
from ..values import (
    MISSING,
    UNDEFINED,
    JSFunction,
    JSSymbol,
    type_error,
)

def members() -> Any:
    """The core's ``runtime.members`` module (loaded before any built-in: see ``runtime/__init__``)."""
    return _core


def get(obj: Any, key: Any) -> Any:
    """[[Get]] through the core's member dispatch."""
    return members().get_member(obj, key)


def is_frozen(obj: Any) -> bool:
    """The core's frozen flag."""
    return bool(_core.is_frozen(obj))


def require_callable(fn: Any) -> JSFunction:
    """Throw V8's TypeError unless ``fn`` is callable."""
    if type(fn) is not JSFunction:
        raise type_error(f"{describe(fn)} is not a function")
    return fn


def require_object_coercible(this: Any, where: str) -> None:
    """RequireObjectCoercible with V8's ``X called on null or undefined`` text."""
    if this is None or this is UNDEFINED:
        raise type_error(f"{where} called on null or undefined")


def length_of(o: Any) -> int:
    """LengthOfArrayLike (7.3.18)."""
    if isinstance(o, list):
        return len(o)
    if type(o) is str:
        return len(to_units(o)) if has_astral(o) else len(o)
    if (type(o) in (int, float, bool) or type(o) is JSSymbol) and not members().PATCHED_REALMS[0]:
        return 0  # no script gave Number.prototype (etc.) a length
    return to_length(get(o, "length"))


def snapshot(o: Any) -> list[Any]:
    """The elements of an array-like receiver, ``MISSING`` where HasProperty is false.

    A list is returned as is (the live array); other receivers are read once, which is
    observably different from the spec only if a callback mutates a non-array receiver."""
    if isinstance(o, list) and not (members().PATCHED_REALMS[0] and meta_of(o) is not None):
        return o
    if type(o) is str:
        return list(to_units(o)) if has_astral(o) else list(o)
    if type(o) in (int, float, bool) or type(o) is JSSymbol:
        from .wrappers import wrap_primitive

        o = wrap_primitive(o)  # ToObject (7.1.18): its prototype may carry indexes and a length
    n = length_of(o)
    if n == 0:
        return []
    current_realm().check_array(n)
    m = members()
    out: list[Any] = []
    for k in range(n):
        key = str(k)
        out.append(m.get_member(o, key) if m.has_property(o, key) else MISSING)
    return out


class LiveElements:
    """The elements of a receiver that is not a plain list, read when asked: ``view[k]`` is
    HasProperty then [[Get]] on the object each time (``MISSING`` when absent), so getters,
    deletions and additions by a callback are seen as the spec's loops see them; ``len`` is
    the length read once at the start (23.1.3: ``len`` is fixed before the loop)."""

    __slots__ = ("obj", "n")

    def __init__(self, obj: Any, n: int) -> None:
        self.obj, self.n = obj, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k: int) -> Any:
        m = members()
        key = str(k)
        return m.get_member(self.obj, key) if m.has_property(self.obj, key) else MISSING


def live_elements(o: Any) -> Any:
    """The receiver's elements for a loop that reads them one by one: the live list for a
    plain array (no holes, accessors or attributes, while no realm patches built-ins, so no
    index is inherited), else a ``LiveElements`` view (see there) of ToObject(o)."""
    if type(o) is list and not members().PATCHED_REALMS[0] and meta_of(o) is None:
        return o
    return LiveElements(to_object(o), length_of(o))


def to_object(o: Any) -> Any:
    """ToObject (7.1.18) of a receiver already checked not to be null or undefined."""
    if type(o) in (int, float, bool, str) or type(o) is JSSymbol:
        from .wrappers import wrap_primitive

        return wrap_primitive(o)
    return plain_value(o) if foreign(type(o)) else o  # (caller data of a subclass: its plain value)


def relative_index(arg: Any, length: int, default: int = 0) -> int:
    """Clamp a relative start/end argument into ``0..length`` (slice/splice/fill/...)."""
    if arg is UNDEFINED:
        return default
    rel = to_integer_or_infinity(arg)
    if rel < 0:
        return 0 if rel == -math.inf else max(length + int(rel), 0)
    return length if rel == math.inf else min(int(rel), length)


def check_not_frozen(o: Any, index: int | None = None, grow: bool = False) -> None:
    """Refuse a write to a frozen array with V8's message."""
    if not is_frozen(o):
        return
    if grow:
        raise type_error(f"Cannot add property {index}, object is not extensible")
    prop = "length" if index is None else str(index)
    raise type_error(f"Cannot assign to read only property '{prop}' of object '[object Array]'")


def write_back(o: Any, items: list[Any], old_length: int) -> None:
    """Store ``items`` into a non-array receiver (generic mutators): indices, then length."""
    if type(o) is str or type(o) in (int, float, bool):
        raise type_error("Cannot assign to read only property 'length' of object '[object String]'")
    m = members()
    for k, v in enumerate(items):
        m.set_member(o, str(k), UNDEFINED if v is MISSING else v)
    for k in range(len(items), old_length):
        m.delete_member(o, str(k))
    m.set_member(o, "length", len(items))


def generic_mutate(o: Any, op: Callable[[list[Any]], Any]) -> Any:
    """Run a list mutator on an array-like receiver: read, mutate a copy, write back."""
    items = list(snapshot(o))
    old = len(items)
    result = op(items)
    write_back(o, items, old)
    return result


def strict_index(o: list[Any], search: Any, start: int) -> int:
    """First k >= start with o[k] === search (IsStrictlyEqual), skipping MISSING; else -1.

    Type-specialised: Python's ``==`` would equate ``True`` with ``1`` and compare dicts
    structurally, so only strings use ``list.index`` (str == x is False for non-str x)."""
    t = type(search)
    n = len(o)
    if start >= n:
        return -1
    if t is str:
        try:
            k = o.index(search, start)
        except ValueError:
            return _subclass_index(o, search, start)  # (-1 unless the list holds a caller's subclass)
        except Exception:  # noqa: BLE001 - a caller's str subclass whose __eq__ raised
            return _subclass_index(o, search, start)
        # str == str is exact; a match on anything else came from a caller subclass's __eq__
        return k if type(o[k]) is str else _subclass_index(o, search, start)
    if t is int or t is float:
        if search != search:
            return -1
        for k in range(start, n):
            v = o[k]
            tv = type(v)
            if (tv is int or tv is float) and v == search:
                return k
        return _subclass_index(o, search, start)
    if t is bool:
        for k in range(start, n):
            if o[k] is search:  # True/False are singletons
                return k
        return -1
    if foreign(t):  # a caller's str/int/float subclass: its plain value is searched for
        return strict_index(o, plain_value(search), start)
    for k in range(start, n):
        if o[k] is search:
            return k
    return -1


def _subclass_index(o: list[Any], search: Any, start: int) -> int:
    """``strict_index`` after its fast search missed: -1, unless ``o`` holds a caller's
    str/int/float subclass, whose plain value the search then compares (no override runs)."""
    if not any(map(foreign, set(map(type, o)))):
        return -1
    for k in range(start, len(o)):
        v = o[k]
        if v is not MISSING and strict_equals(v, search):
            return k
    return -1


def includes_from(o: list[Any], search: Any, start: int) -> bool:
    """SameValueZero search (Array.prototype.includes): NaN finds NaN, MISSING reads undefined."""
    t = type(search)
    if (t is float and search != search):
        return any(type(v) is float and v != v for v in o[start:])
    if search is UNDEFINED:
        return any(v is UNDEFINED or v is MISSING for v in o[start:])
    return strict_index(o, search, start) != -1


#: elements a native loop handles between two looks at the clock (a few milliseconds of work)
CHECKED_CHUNK = 16384


def checked_map(fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    """``[fn(v) for v in items]``, looking at the wall clock every :data:`CHECKED_CHUNK`
    elements: a long loop inside one built-in otherwise runs past its deadline until the
    watchdog interrupts it, which on a loaded machine takes tens of milliseconds more."""
    if len(items) <= CHECKED_CHUNK:
        return [fn(v) for v in items]
    return checked_chunks(lambda chunk: [fn(v) for v in chunk], items)


def checked_chunks(fn: Callable[[list[Any]], list[Any]], items: list[Any]) -> list[Any]:
    """``fn(items)`` for a list-to-list ``fn`` that works element by element, run over
    :data:`CHECKED_CHUNK`-element slices with a look at the clock before each."""
    if len(items) <= CHECKED_CHUNK:
        return fn(items)
    realm = current_realm()
    out: list[Any] = []
    for start in range(0, len(items), CHECKED_CHUNK):
        realm.check_time()
        out.extend(fn(items[start:start + CHECKED_CHUNK]))
    return out


def charge_work(n: int) -> None:
    """Charge a native loop over ``n`` elements before it runs (``Realm.bulk``: one step per
    16 elements, and a look at the clock ahead for big ones)."""
    if n > 64:
        current_realm().bulk(n)
