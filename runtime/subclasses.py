"""Caller data built from subclasses of dict, list, str, int and float, read as plain data.

YAML loaders hand such instances to the engine (ruamel.yaml's round-trip maps, sequences and
scalars; ``OrderedDict``; users' own classes). JS sees the value of the base type, read through
the base type's own storage (``dict.items(d)``, ``list.__iter__(l)``, ``str.__str__(s)``,
``int.__int__(i)``, ``float.__float__(f)``), never through the subclass's Python methods: so no
override can make the tiers disagree, and no hook (``__missing__``...) can change the input.

The runtime's fast paths test exact types (``type(x) is dict``) and stay as they are; a
subclass instance fails them and reaches a slow path, which asks ``plain_value`` here. A
container met there is copied once per evaluation (a plain dict or list holding the same
children, subclass scalars made plain), so reading it twice gives the same object; its
subclass children are made plain in turn where they are met.
"""

from __future__ import annotations

from typing import Any

from .numbers_canonical import normalize_number
from .realm import current_realm
from .strings import from_units

__all__ = ["foreign", "plain_value", "plain_scalar", "plain_key", "plain_container"]

#: the runtime's own subclasses of the data types are not caller data (JSObject, Error
#: objects, built-in namespaces, regex match arrays, arguments objects...)
_OWN_PREFIX = __name__.rpartition(".")[0] + "."
_verdicts: dict[type, int] = {}
#: what ``foreign`` answers: not caller data of a subclass, or which base type it has
NOT_FOREIGN, DICT, LIST, STR, INT, FLOAT = 0, 1, 2, 3, 4, 5


def foreign(t: type) -> int:
    """The base data type of caller class ``t`` (``DICT``...), or ``NOT_FOREIGN`` for exact
    types, bool, the runtime's own classes and everything else (tuple, set, Mapping...)."""
    verdict = _verdicts.get(t)
    if verdict is None:
        verdict = _verdicts[t] = _judge(t)
    return verdict


def _judge(t: type) -> int:
    if t in (dict, list, str, int, float, bool) or t.__module__.startswith(_OWN_PREFIX):
        return NOT_FOREIGN
    if issubclass(t, dict):
        return DICT
    if issubclass(t, list):
        return LIST
    if issubclass(t, str):
        return STR
    if issubclass(t, int):
        return INT
    if issubclass(t, float):
        return FLOAT
    return NOT_FOREIGN


def plain_scalar(v: Any, kind: int) -> Any:
    """The plain str/int/float of a subclass scalar, by the base type's own conversion
    (an integral float within +-2**53 becomes an int, as everywhere in the runtime)."""
    if kind == STR:
        text = str.__str__(v)
        return text if text.isascii() else from_units(text)
    if kind == INT:
        return int.__int__(v)
    return normalize_number(float.__float__(v))


def plain_key(k: Any) -> Any:
    """A key of a caller's dict: a str subclass key is its plain str (others as they are)."""
    return str.__str__(k) if type(k) is not str and isinstance(k, str) else k


def _plain_member(x: Any) -> Any:
    t = type(x)
    if t is str or t is dict or t is list or t is int or t is bool or x is None:
        return x
    kind = foreign(t)
    return plain_scalar(x, kind) if kind >= STR else x


def plain_container(v: Any, kind: int) -> Any:
    """A new plain dict or list with the members of subclass container ``v`` (read from its
    storage); its subclass scalars made plain, its containers shared."""
    if kind == DICT:
        return {plain_key(k): _plain_member(x) for k, x in dict.items(v)}
    return [_plain_member(x) for x in list.__iter__(v)]


def plain_value(v: Any) -> Any:
    """``v`` itself unless it is caller data of a subclass; then its plain value (a container:
    the one copy this evaluation made of it, so identity holds between reads)."""
    kind = foreign(type(v))
    if kind == NOT_FOREIGN:
        return v
    if kind >= STR:
        return plain_scalar(v, kind)
    copies = current_realm().extra.setdefault("plain_copies", {})
    entry = copies.get(id(v))
    if entry is None or entry[0] is not v:
        entry = copies[id(v)] = (v, plain_container(v, kind))  # (the original kept: its id stays its own)
    return entry[1]
