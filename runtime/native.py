"""Support for the native tier: speculative Python for scripts in a typed subset of JS.

The compiler (``compiler/native.py``) translates a script it fully understands into plain
Python whose every operation is either exactly the JS one for the types it meets, or raises.
The entry function runs that code first and, on *any* exception, runs the general tier
(``entry.CompiledFunction``) from scratch: the general tier stays the single source of truth
for errors, budgets and every rare type. This is safe because native code has no side
effects: it writes only to copies it made itself and calls no user code.

Native code runs no realm and charges no budget, so it only accepts work bounded by the size
of its inputs, and refuses inputs past the limits below (they take the general tier, where
the budgets apply).
"""

from __future__ import annotations

import binascii
import re
from json.encoder import encode_basestring
from typing import Any

from .values import UNDEFINED

__all__ = ["Deopt", "deopt", "namespace", "compile_regex", "HELPERS", "MAX_ITEMS",
           "MAX_TEXT"]

#: longest list or object a native callback loop walks (past it: the general tier, budgets)
MAX_ITEMS = 1000
#: longest string a native base64 or regex operation takes
MAX_TEXT = 1 << 20


class Deopt(Exception):
    """Raised by native code when a guard fails: the general tier takes over."""


def deopt(*_: Any) -> Any:
    raise Deopt


#: types whose Python truth value is their JS ToBoolean (others: ``JS_TRUTHY``)
PLAIN_TRUTH = frozenset([str, int, bool, type(None), type(UNDEFINED)])


def json_string(s: str) -> str:
    """JSON.stringify of an ASCII string: JS and Python escape ASCII alike (short escapes
    for \\b \\t \\n \\f \\r, lowercase ``\\u00XX`` for other controls)."""
    if not s.isascii():
        raise Deopt
    return encode_basestring(s)


def json_scalar(v: Any) -> str:
    """JSON.stringify of a primitive whose text Python and JS agree on."""
    t = type(v)
    if t is str:
        return json_string(v)
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if t is int and -(2**53) <= v <= 2**53:
        return str(v)
    raise Deopt


def add(a: Any, b: Any) -> Any:
    """``a + b`` for operands whose types are known only at run time: two safe integers (a
    safe sum) or two strings (joined as UTF-16 joins them); anything else deoptimises."""
    ta = type(a)
    if ta is int and type(b) is int:
        r = a + b
        if -(2**53) <= r <= 2**53:
            return r
    elif ta is str and type(b) is str:
        from .strings import concat

        return concat(a, b)
    raise Deopt


class LazyRegex:
    """A translated pattern, compiled on its first use: an artifact with hundreds of them
    would otherwise spend its load time in ``re.compile``."""

    __slots__ = ("pattern", "flags", "compiled")

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self.flags = flags
        self.compiled: "re.Pattern[str] | None" = None

    def get(self) -> "re.Pattern[str]":
        if self.compiled is None:
            self.compiled = re.compile(self.pattern, self.flags)
        return self.compiled


def virtual_to_host_dns(name: Any, context: Any) -> str:
    """``virtualToHostDNS(name)`` with the call's context, as the general tier computes it;
    anything it would reject (a non-string, a missing vcluster name, a malformed name) is
    left to the general tier and its error."""
    from .names import virtual_to_host_dns as translate

    vcluster = context.get("vcluster") if type(context) is dict else None
    if type(name) is not str or type(vcluster) is not dict:
        raise Deopt
    vcluster_name, namespace = vcluster.get("name"), vcluster.get("namespace")
    if type(vcluster_name) is not str or type(namespace) is not str:
        raise Deopt
    try:
        return translate(name, vcluster_name=vcluster_name, vcluster_namespace=namespace)
    except ValueError:
        raise Deopt from None


def regex_sub(rx: LazyRegex, limit: int, repl: str, s: str, count: int) -> str:
    """``replace`` with a translated regex on ASCII text no longer than ``limit``."""
    if len(s) > limit or not s.isascii():
        raise Deopt
    return (rx.compiled or rx.get()).sub(repl, s, count)


def regex_test(rx: LazyRegex, limit: int, s: str) -> bool:
    if len(s) > limit or not s.isascii():
        raise Deopt
    return (rx.compiled or rx.get()).search(s) is not None


def _helpers() -> dict[str, Any]:
    from .convert import to_boolean
    from .interop import _PLAIN_LEAVES, _dict_to_python, _small_plain, known_plain_keys, plain_keys, shallow_to_js, to_js, to_python
    from .ops import typeof
    from .strings import concat

    return {
        "UNDEFINED": UNDEFINED, "DEOPT": deopt, "PLAIN_TRUTH": PLAIN_TRUTH, "PLAIN_LEAVES": _PLAIN_LEAVES,
        "JS_TRUTHY": to_boolean, "MAX_ITEMS": MAX_ITEMS, "MAX_TEXT": MAX_TEXT, "B2A": binascii.b2a_base64,
        "A2B": binascii.a2b_base64,
        "JSON_STRING": json_string, "JSON_SCALAR": json_scalar, "VDNS": virtual_to_host_dns, "REGEX_SUB": regex_sub, "REGEX_TEST": regex_test,
        "TO_PYTHON": to_python, "DICT_OUT": _dict_to_python, "SMALL_PLAIN": _small_plain, "CONCAT": concat, "KNOWN_KEYS": known_plain_keys,
        "PLAIN_KEYS": plain_keys, "SHALLOW": shallow_to_js,
        "TO_JS": to_js, "TYPEOF": typeof, "ADD": add, "SIZED": frozenset([str, list, dict]),
    }


#: the names native code uses besides builtins (an artifact imports them from this module)
HELPERS: dict[str, Any] = _helpers()
globals().update(HELPERS)
#: the builtins native code uses (an in-process namespace has no others)
BUILTINS: dict[str, Any] = {
    "type": type, "len": len, "dict": dict, "list": list, "str": str, "int": int, "enumerate": enumerate,
    "Exception": Exception, "any": any, "all": all, "min": min, "tuple": tuple, "bool": bool,
}
globals().update(BUILTINS)  # importable by name: artifacts run with empty __builtins__


def namespace(extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The globals of in-process native code: the few builtins it uses and the helpers."""
    ns: dict[str, Any] = {"__builtins__": {}, **BUILTINS, **HELPERS}
    if extra:
        ns.update(extra)
    return ns


def compile_regex(pattern: str, ignore_case: bool) -> LazyRegex:
    """A translated pattern (``compiler/native_regex.py``), for ASCII text only."""
    return LazyRegex(pattern, re.ASCII | (re.IGNORECASE if ignore_case else 0))
