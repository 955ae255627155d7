"""The RegExp protocol of String.prototype.match/matchAll/replace/replaceAll/search/split
(ECMA-262 22.1.3.13 step 2 and friends): an object argument with its own ``[Symbol.match]``
(etc.) method decides the result, whatever kind of object it is.

The built-in methods in ``string_regex.py`` keep their fast paths; this module wraps their
registry entries so that an argument which is neither a string nor an unpatched RegExp is
asked for its protocol method first.
"""

from __future__ import annotations

from typing import Any, Callable

from ..convert import to_boolean, to_string
from ..realm import PATCHED_REALMS
from ..values import UNDEFINED, JSFunction, type_error
from .array_support import describe, members
from .object_proto import is_object
from .registry import STRING_PROTO, native
from . import regexp_generic  # noqa: F401 - registers the spec's steps for RegExp-like receivers
from . import string_regex  # noqa: F401 - registers the methods wrapped here
from .regexp import JSRegExp, regexp_create
from .symbol import WELL_KNOWN

__all__: list[str] = []


def _regexp_method(key: Any) -> Any:
    table: dict[Any, Any] = JSRegExp.JS_PROTO
    return table.get(key)


def _is_regexp(arg: Any) -> bool:
    """IsRegExp (7.2.8): an object's ``Symbol.match`` decides, else whether it is a RegExp."""
    matcher = members().get_member(arg, WELL_KNOWN["match"])
    if matcher is not UNDEFINED:
        return to_boolean(matcher)
    return type(arg) is JSRegExp


def _protocol(name: str, symbol: str, builtin: JSFunction) -> JSFunction:
    original: Callable[..., Any] = builtin.call
    key = WELL_KNOWN[symbol]
    #: a RegExp's own protocol method runs the spec's steps (regexp_generic.py) while built-ins
    #: are patched: a script may have replaced its exec or flags
    spec_steps = name in ("match", "replace", "search", "split", "matchAll", "replaceAll")
    #: replaceAll and matchAll refuse a non-global regexp, asking it for its flags (22.1.3.20 step 2.b)
    needs_global = name in ("replaceAll", "matchAll")
    #: match, matchAll and search turn any other argument into a RegExp and invoke its method
    creates_regexp = name in ("match", "matchAll", "search")

    def string_method(this: Any, arg: Any = UNDEFINED, *rest: Any) -> Any:
        if type(arg) is str and type(this) is str:  # no protocol to consult: the usual call
            return original(this, arg, *rest)
        if this is None or this is UNDEFINED:
            raise type_error(f"String.prototype.{name} called on null or undefined")
        if is_object(arg) and (type(arg) is not JSRegExp or PATCHED_REALMS[0]
                               or ((spec_steps or needs_global) and arg.props)):
            if needs_global and _is_regexp(arg):
                flags = members().get_member(arg, "flags")
                if flags is None or flags is UNDEFINED:
                    raise type_error(f"String.prototype.{name} called with a RegExp-like argument whose flags "
                                     "are null or undefined")
                if "g" not in to_string(flags):
                    raise type_error(f"String.prototype.{name} called with a non-global RegExp argument")
            method = members().get_member(arg, key)
            if method is not UNDEFINED and method is not None:
                if type(method) is not JSFunction:
                    raise type_error(f"{describe(method)} is not a function")
                if not (type(arg) is JSRegExp and method is _regexp_method(key)) or spec_steps:
                    return method.call(arg, this, *rest)
        if creates_regexp and PATCHED_REALMS[0]:
            # steps 3-5: a RegExp made from the argument is asked, through its (maybe patched)
            # prototype's protocol method
            s = to_string(this)
            rx = regexp_create(arg, "g" if name == "matchAll" else UNDEFINED)
            return members().call_method(rx, key, s)
        return original(this, arg, *rest)

    string_method.__doc__ = builtin.call.__doc__
    return native(string_method, name, builtin.length)


for _name, _symbol in (("match", "match"), ("matchAll", "matchAll"), ("replace", "replace"),
                       ("replaceAll", "replace"), ("search", "search"), ("split", "split")):
    STRING_PROTO[_name] = _protocol(_name, _symbol, STRING_PROTO[_name])
