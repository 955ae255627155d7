"""The RegExp protocol of String.prototype.match/matchAll/replace/replaceAll/search/split
(ECMA-262 22.1.3.13 step 2 and friends): an object argument with its own ``[Symbol.match]``
(etc.) method decides the result, whatever kind of object it is.

The built-in methods in ``string_regex.py`` keep their fast paths; this module wraps their
registry entries so that an argument which is neither a string nor an unpatched RegExp is
asked for its protocol method first.
"""

from __future__ import annotations

from typing import Any, Callable

from ..realm import PATCHED_REALMS
from ..values import UNDEFINED, JSFunction, type_error
from .array_support import describe, members
from .object_proto import is_object
from .registry import STRING_PROTO, native
from . import string_regex  # noqa: F401 - registers the methods wrapped here
from .regexp import JSRegExp
from .symbol import WELL_KNOWN

__all__: list[str] = []


def _regexp_method(key: Any) -> Any:
    table: dict[Any, Any] = JSRegExp.JS_PROTO
    return table.get(key)


def _protocol(name: str, symbol: str, builtin: JSFunction) -> JSFunction:
    original: Callable[..., Any] = builtin.call
    key = WELL_KNOWN[symbol]
    #: a RegExp's own protocol method runs the spec's steps (regexp_generic.py) while built-ins
    #: are patched: a script may have replaced its exec or flags
    spec_steps = name in ("match", "replace", "search")

    def string_method(this: Any, arg: Any = UNDEFINED, *rest: Any) -> Any:
        if this is None or this is UNDEFINED:
            raise type_error(f"String.prototype.{name} called on null or undefined")
        if is_object(arg) and (type(arg) is not JSRegExp or PATCHED_REALMS[0] or (spec_steps and arg.props)):
            method = members().get_member(arg, key)
            if method is not UNDEFINED and method is not None:
                if type(method) is not JSFunction:
                    raise type_error(f"{describe(method)} is not a function")
                if not (type(arg) is JSRegExp and method is _regexp_method(key)) or spec_steps:
                    return method.call(arg, this, *rest)
        return original(this, arg, *rest)

    string_method.__doc__ = builtin.call.__doc__
    return native(string_method, name, builtin.length)


for _name, _symbol in (("match", "match"), ("matchAll", "matchAll"), ("replace", "replace"),
                       ("replaceAll", "replace"), ("search", "search"), ("split", "split")):
    STRING_PROTO[_name] = _protocol(_name, _symbol, STRING_PROTO[_name])
