"""RegExp.prototype[Symbol.match/matchAll/replace/search/split] on any object (22.2.6.8,
22.2.6.9, 22.2.6.11, 22.2.6.12, 22.2.6.14).

The built-in paths in ``string_regex.py`` run the regex engine directly; the spec's
algorithms instead talk to the receiver through properties (``flags``, ``lastIndex``,
``exec``): ``RegExpExec`` calls a user ``exec`` and reads the result object's ``0``,
``index``, ``length``, captures and ``groups``. These versions are used for a receiver that
is not a RegExp, and for any receiver while a realm patches built-ins (a script may have
replaced ``exec`` or ``flags``), so a RegExp-like object sees every step in spec order.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..convert import is_callable, same_value, to_integer_or_infinity, to_length, to_string, to_uint32
from ..realm import current_realm
from ..strings import from_units, to_units
from ..values import UNDEFINED, JSFunction, JSIterator, type_error
from .array_support import members, to_object
from .object_proto import is_object
from .regexp import JSRegExp, regexp_exec
from .registry import GLOBALS
from .string_regex import GENERIC_SYMBOL_METHODS, get_substitution
from .symbol import WELL_KNOWN

__all__ = ["generic_match", "generic_match_all", "generic_replace", "generic_search", "generic_split",
           "regexp_exec_generic", "species_constructor"]


def _require_object(rx: Any, name: str) -> None:
    if not is_object(rx):
        raise type_error(f"Method RegExp.prototype[Symbol.{name}] called on incompatible receiver")


def _set_last_index(rx: Any, value: Any) -> None:
    members().set_member(rx, "lastIndex", value, True)


def regexp_exec_generic(rx: Any, s: str) -> Any:
    """RegExpExec (22.2.7.1): a callable ``exec`` decides (its result must be an object or
    null); otherwise the receiver must be a RegExp."""
    m = members()
    exec_fn = m.get_member(rx, "exec")
    if is_callable(exec_fn):
        result = exec_fn.call(rx, s)
        if result is not None and not is_object(result):
            raise type_error("object.exec result must be an object or null")
        return result
    if not isinstance(rx, JSRegExp):
        raise type_error("RegExp exec method called on incompatible receiver")
    return regexp_exec(rx, s)


def _advance(su: str, index: int, unicode: bool) -> int:
    """AdvanceStringIndex (22.2.7.3) over the subject's code units."""
    if not unicode or index + 1 >= len(su):
        return index + 1
    if "\ud800" <= su[index] <= "\udbff" and "\udc00" <= su[index + 1] <= "\udfff":
        return index + 2
    return index + 1


def _empty_match_advance(rx: Any, su: str, unicode: bool) -> None:
    this_index = to_length(members().get_member(rx, "lastIndex"))
    _set_last_index(rx, _advance(su, this_index, unicode))


def generic_match(rx: Any, string: Any = UNDEFINED, *_: Any) -> Any:
    """RegExp.prototype[Symbol.match] (22.2.6.8)."""
    _require_object(rx, "match")
    s = to_string(string)
    flags = to_string(members().get_member(rx, "flags"))
    if "g" not in flags:
        return regexp_exec_generic(rx, s)
    unicode = "u" in flags or "v" in flags
    _set_last_index(rx, 0)
    su = to_units(s)
    found: list[Any] = []
    realm = current_realm()
    while True:
        result = regexp_exec_generic(rx, s)
        if result is None:
            return found or None
        match_str = to_string(members().get_member(result, "0"))
        found.append(match_str)
        realm.charge()
        if match_str == "":
            _empty_match_advance(rx, su, unicode)


def generic_search(rx: Any, string: Any = UNDEFINED, *_: Any) -> Any:
    """RegExp.prototype[Symbol.search] (22.2.6.12)."""
    _require_object(rx, "search")
    s = to_string(string)
    m = members()
    previous = m.get_member(rx, "lastIndex")
    if not same_value(previous, 0):
        _set_last_index(rx, 0)
    result = regexp_exec_generic(rx, s)
    current = m.get_member(rx, "lastIndex")
    if not same_value(current, previous):
        _set_last_index(rx, previous)
    return -1 if result is None else m.get_member(result, "index")


def generic_replace(rx: Any, string: Any = UNDEFINED, replace_value: Any = UNDEFINED, *_: Any) -> str:
    """RegExp.prototype[Symbol.replace] (22.2.6.11)."""
    _require_object(rx, "replace")
    m = members()
    s = to_string(string)
    su = to_units(s)
    functional = is_callable(replace_value)
    template = "" if functional else to_string(replace_value)
    flags = to_string(m.get_member(rx, "flags"))
    is_global = "g" in flags
    unicode = "u" in flags or "v" in flags
    if is_global:
        _set_last_index(rx, 0)
    realm = current_realm()
    results: list[Any] = []
    while True:
        result = regexp_exec_generic(rx, s)
        if result is None:
            break
        results.append(result)
        realm.charge()
        if not is_global:
            break
        if to_string(m.get_member(result, "0")) == "":
            _empty_match_advance(rx, su, unicode)
    pieces: list[str] = []
    next_position = 0
    for result in results:
        n_captures = max(to_length(m.get_member(result, "length")) - 1, 0)
        matched = to_string(m.get_member(result, "0"))
        match_length = len(to_units(matched))
        position = to_integer_or_infinity(m.get_member(result, "index"))
        position = int(max(min(position, len(su)), 0)) if not math.isnan(position) else 0
        captures: list[Any] = []
        for n in range(1, n_captures + 1):
            cap = m.get_member(result, str(n))
            captures.append(cap if cap is UNDEFINED else to_string(cap))
            realm.charge()
        groups = m.get_member(result, "groups")
        if functional:
            args = [matched, *captures, position, s]
            if groups is not UNDEFINED:
                args.append(groups)
            call: Callable[..., Any] = replace_value.call if type(replace_value) is JSFunction else replace_value
            replacement = to_string(call(UNDEFINED, *args))
        else:
            if groups is not UNDEFINED:
                groups = to_object(groups)
            replacement = get_substitution(matched, su, position, captures, groups, template)
        if position >= next_position:
            pieces.append(su[next_position:position])
            pieces.append(to_units(replacement))
            next_position = position + match_length
    if next_position < len(su):
        pieces.append(su[next_position:])
    realm.check_string(sum(map(len, pieces)))  # the string budget, before the result is built
    return from_units("".join(pieces))


def species_constructor(o: Any, default: JSFunction) -> JSFunction:
    """SpeciesConstructor (7.3.22): ``o.constructor[Symbol.species]``, or ``default``."""
    m = members()
    c = m.get_member(o, "constructor")
    if c is UNDEFINED:
        return default
    if not is_object(c):
        raise type_error("The .constructor property is not an object")
    s = m.get_member(c, WELL_KNOWN["species"])
    if s is UNDEFINED or s is None:
        return default
    if type(s) is not JSFunction or s.kind in ("arrow", "method") or (s.builtin and s.construct is None):
        raise type_error("object.constructor[Symbol.species] is not a constructor")
    return s


def _construct(c: JSFunction, *args: Any) -> Any:
    from .. import callops

    return callops.construct(c, "species", *args)


def generic_split(rx: Any, string: Any = UNDEFINED, limit: Any = UNDEFINED, *_: Any) -> list[Any]:
    """RegExp.prototype[Symbol.split] (22.2.6.14): a sticky clone made by the receiver's
    species is run at every position."""
    _require_object(rx, "split")
    m = members()
    s = to_string(string)
    c = species_constructor(rx, GLOBALS["RegExp"])
    flags = to_string(m.get_member(rx, "flags"))
    unicode = "u" in flags or "v" in flags
    splitter = _construct(c, rx, flags if "y" in flags else flags + "y")
    out: list[Any] = []
    lim = 2**32 - 1 if limit is UNDEFINED else to_uint32(limit)
    if lim == 0:
        return out
    su = to_units(s)
    size = len(su)
    if size == 0:
        return out if regexp_exec_generic(splitter, s) is not None else [s]
    realm = current_realm()
    p = q = 0
    while q < size:
        realm.charge()
        _set_last_index(splitter, q)
        z = regexp_exec_generic(splitter, s)
        if z is None:
            q = _advance(su, q, unicode)
            continue
        e = min(to_length(m.get_member(splitter, "lastIndex")), size)
        if e == p:
            q = _advance(su, q, unicode)
            continue
        out.append(from_units(su[p:q]))
        if len(out) == lim:
            return out
        p = e
        for i in range(1, max(to_length(m.get_member(z, "length")) - 1, 0) + 1):
            out.append(m.get_member(z, str(i)))
            if len(out) == lim:
                return out
        realm.check_array(len(out))
        q = p
    out.append(from_units(su[p:]))
    return out


def generic_match_all(rx: Any, string: Any = UNDEFINED, *_: Any) -> JSIterator:
    """RegExp.prototype[Symbol.matchAll] (22.2.6.9): a clone made by the receiver's species,
    walked lazily by a RegExp String Iterator (22.2.9)."""
    _require_object(rx, "matchAll")
    m = members()
    s = to_string(string)
    c = species_constructor(rx, GLOBALS["RegExp"])
    flags = to_string(m.get_member(rx, "flags"))
    matcher = _construct(c, rx, flags)
    _set_last_index(matcher, to_length(m.get_member(rx, "lastIndex")))
    return JSIterator(_string_iterator(matcher, s, "g" in flags, "u" in flags or "v" in flags),
                      "RegExp String Iterator")


def _string_iterator(matcher: Any, s: str, is_global: bool, unicode: bool) -> Any:
    """%RegExpStringIteratorPrototype%.next (22.2.9.2.1) as a generator."""
    su: str | None = None
    while True:
        result = regexp_exec_generic(matcher, s)
        if result is None:
            return
        current_realm().charge()
        if not is_global:
            yield result
            return
        if to_string(members().get_member(result, "0")) == "":
            if su is None:
                su = to_units(s)
            _empty_match_advance(matcher, su, unicode)
        yield result


GENERIC_SYMBOL_METHODS.update(match=generic_match, search=generic_search, replace=generic_replace,
                              split=generic_split, matchAll=generic_match_all)
