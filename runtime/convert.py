"""Abstract operations of ECMA-262 section 7 (type conversion and comparison).

These are the conversions every operator and built-in goes through: ToPrimitive, ToBoolean,
ToNumber, ToString (with Number::toString's exact formatting), ToPropertyKey, the integer
conversions, typeof, and the equality algorithms. Object-to-primitive needs member lookup,
which lives in the core; it is plugged in with ``set_to_primitive_hook`` so this module stays
at the bottom of the import graph.
"""

from __future__ import annotations

import math
import re
import threading
from typing import Any, Callable

from . import stack

from .numbers_canonical import normalize_number
from .subclasses import NOT_FOREIGN, STR as _FOREIGN_STR, foreign, plain_scalar, plain_value
from .values import (
    UNDEFINED,
    JSErrorObject,
    JSFunction,
    JSSymbol,
    type_error,
)

__all__ = [
    "JS_WHITESPACE",
    "MAX_SAFE_INTEGER",
    "normalize_number",
    "to_boolean",
    "to_number",
    "to_numeric",
    "to_string",
    "to_primitive",
    "to_property_key",
    "number_to_string",
    "string_to_number",
    "to_integer_or_infinity",
    "to_int32",
    "to_uint32",
    "to_uint16",
    "to_length",
    "typeof",
    "strict_equals",
    "loose_equals",
    "same_value",
    "same_value_zero",
    "is_array_index",
    "ordered_keys",
    "string_keys",
    "subclass_key",
    "has_index_keys",
    "is_callable",
    "set_to_primitive_hook",
    "js_trim",
]

MAX_SAFE_INTEGER = 2**53 - 1
_TWO_53 = 2**53

#: WhiteSpace and LineTerminator code points (ECMA-262 12.2, 12.3): what trim() and
#: StringToNumber strip. Python's str.strip() set differs (it has \x1c-\x1f, lacks \ufeff).
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)

# [0-9], not \d: \d also matches non-ASCII digits, which JS rejects (Number('١') is NaN).
_DECIMAL_LITERAL = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\Z")
_RADIX_LITERAL = re.compile(r"0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)\Z")


def js_trim(s: str) -> str:
    """String.prototype.trim with JS's whitespace set."""
    return s.strip(JS_WHITESPACE)


# --- ToBoolean / typeof ---------------------------------------------------------------------

def to_boolean(v: Any) -> bool:
    """ToBoolean (7.1.2). Objects (even empty dict/list) are true; strings by length."""
    t = type(v)
    if t is bool:
        flag: bool = v
        return flag
    if t is str:
        text: str = v
        return text != ""
    if t is int:
        number: int = v
        return number != 0
    if t is float:
        return not (v == 0.0 or v != v)
    if v is None or v is UNDEFINED:
        return False
    if t is dict or t is list:
        return True
    kind = foreign(t)  # a str/int/float subclass from the caller: by its plain value
    return to_boolean(plain_scalar(v, kind)) if kind >= _FOREIGN_STR else True


def typeof(v: Any) -> str:
    """The ``typeof`` operator (13.5.3)."""
    t = type(v)
    if t is str:
        return "string"
    if t is int or t is float:
        return "number"
    if t is bool:
        return "boolean"
    if v is UNDEFINED:
        return "undefined"
    if t is JSFunction:
        return "function"
    if t is JSSymbol:
        return "symbol"
    if t is not dict and t is not list and foreign(t) >= _FOREIGN_STR:
        return typeof(plain_scalar(v, foreign(t)))
    return "object"


def is_callable(v: Any) -> bool:
    return type(v) is JSFunction


# --- ToPrimitive ------------------------------------------------------------------------------

def _default_to_primitive(obj: Any, hint: str) -> Any:
    """OrdinaryToPrimitive for built-in object kinds, without user-defined methods.

    The core replaces this with a prototype-aware version (user ``toString``/``valueOf``)."""
    if type(obj) is list:
        return _array_join(obj)
    if isinstance(obj, JSErrorObject):
        if not obj.message:
            return obj.error_name
        return f"{obj.error_name}: {obj.message}" if obj.error_name else obj.message
    if type(obj) is JSFunction:
        if obj.source is not None:
            return obj.source
        return f"function {obj.name}() {{ [native code] }}"
    return "[object Object]"


_to_primitive_hook: Callable[[Any, str], Any] = _default_to_primitive
class _Joining(threading.local):
    """The arrays being joined on this thread (per thread: another thread joining the same
    array is no cycle)."""

    def __init__(self) -> None:
        self.ids: set[int] = set()


_joining = _Joining()


def _array_join(arr: list[Any]) -> str:
    """Array.prototype.toString: join with ',' (null/undefined -> ''), cycles -> ''. Each
    nesting level runs through C (``str.join``), so every 16th level reads the C stack."""
    joining = _joining.ids
    key = id(arr)
    if key in joining:
        return ""
    if len(joining) & 15 == 15:
        stack.check()
    joining.add(key)
    try:
        return ",".join("" if (x is None or x is UNDEFINED) else to_string(x) for x in arr)
    finally:
        joining.discard(key)


def set_to_primitive_hook(fn: Callable[[Any, str], Any]) -> None:
    """Install the object-to-primitive conversion (called with ``(obj, hint)``)."""
    global _to_primitive_hook
    _to_primitive_hook = fn


def to_primitive(v: Any, hint: str = "default") -> Any:
    """ToPrimitive (7.1.1); ``hint`` is "default", "number" or "string"."""
    t = type(v)
    if t is str or t is int or t is float or t is bool or v is None or v is UNDEFINED or t is JSSymbol:
        return v
    if t is not dict and t is not list and foreign(t) != NOT_FOREIGN:
        return to_primitive(plain_value(v), hint)
    return _to_primitive_hook(v, hint)


# --- ToNumber ---------------------------------------------------------------------------------

def string_to_number(s: str) -> int | float:
    """StringToNumber (7.1.4.1.1): JS numeric string grammar, not Python's float()."""
    if s.isdigit() and s.isascii() and len(s) <= 15:
        return int(s)  # plain decimal digits (a port, an octet): exact below 10**15 < 2**53
    s = s.strip(JS_WHITESPACE)
    if not s:
        return 0
    if _DECIMAL_LITERAL.match(s):
        try:
            return normalize_number(float(s))
        except OverflowError:  # pragma: no cover - float() returns inf instead
            return math.inf if s[0] != "-" else -math.inf
    if _RADIX_LITERAL.match(s):
        return normalize_number(int(s[2:], {"x": 16, "o": 8, "b": 2}[s[1].lower()]))
    if s in ("Infinity", "+Infinity"):
        return math.inf
    if s == "-Infinity":
        return -math.inf
    return math.nan


def to_number(v: Any) -> int | float:
    """ToNumber (7.1.4)."""
    t = type(v)
    if t is int or t is float:
        return v  # type: ignore[no-any-return]
    if t is str:
        return string_to_number(v)
    if t is bool:
        return 1 if v else 0
    if v is None:
        return 0
    if v is UNDEFINED:
        return math.nan
    if t is JSSymbol:
        raise type_error("Cannot convert a Symbol value to a number")
    return to_number(to_primitive(v, "number"))


to_numeric = to_number  # no BigInt: ToNumeric is ToNumber


# --- ToString ---------------------------------------------------------------------------------

_DECIMAL: Any = None


def _decimal() -> Any:
    """``decimal.Decimal``, imported on first use (decimal costs ~10 ms at start-up)."""
    global _DECIMAL
    if _DECIMAL is None:
        from decimal import Decimal

        _DECIMAL = Decimal
    return _DECIMAL


def number_to_string(x: int | float) -> str:
    """Number::toString(10) (6.1.6.1.20): shortest round-trip digits, JS layout rules."""
    if type(x) is int:
        if -(10**21) < x < 10**21 and -_TWO_53 <= x <= _TWO_53:
            return str(x)
        x = float(x)
    if x != x:
        return "NaN"
    if x == math.inf:
        return "Infinity"
    if x == -math.inf:
        return "-Infinity"
    if x == 0:
        return "0"
    if float.is_integer(x) and abs(x) <= _TWO_53:  # beyond 2**53: shortest digits padded with zeros
        return str(int(x))
    sign = "-" if x < 0 else ""
    _, digit_tuple, exp = _decimal()(repr(abs(x))).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0") or "0"
    n = len(digit_tuple) + int(exp)  # position of the decimal point
    k = len(digits)
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        body = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + body


def to_string(v: Any) -> str:
    """ToString (7.1.17)."""
    t = type(v)
    if t is str:
        return v  # type: ignore[no-any-return]
    if t is int:
        if -_TWO_53 <= v <= _TWO_53:
            return str(v)
        return number_to_string(v)
    if t is float:
        return number_to_string(v)
    if t is bool:
        return "true" if v else "false"
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    if t is JSSymbol:
        raise type_error("Cannot convert a Symbol value to a string")
    return to_string(to_primitive(v, "string"))


def to_property_key(v: Any) -> Any:
    """ToPropertyKey (7.1.19): a str, or a JSSymbol."""
    t = type(v)
    if t is str:
        return v
    if t is int:
        return str(v)
    if t is JSSymbol:
        return v
    p = to_primitive(v, "string")
    return p if type(p) is JSSymbol else to_string(p)


# --- integer conversions ----------------------------------------------------------------------

def to_integer_or_infinity(v: Any) -> int | float:
    """ToIntegerOrInfinity (7.1.5): NaN -> 0, +-Infinity kept, else truncated int."""
    n = to_number(v)
    if type(n) is int:
        return n
    if n != n:
        return 0
    if n in (math.inf, -math.inf):
        return n
    return int(n)


def _modular(v: Any, bits: int) -> int:
    n = to_number(v)
    if type(n) is not int:
        if n != n or n in (math.inf, -math.inf):
            return 0
        n = int(n)
    return n & ((1 << bits) - 1)


def to_int32(v: Any) -> int:
    """ToInt32 (7.1.6)."""
    if type(v) is int and -2147483648 <= v <= 2147483647:
        return v
    n = _modular(v, 32)
    return n - 4294967296 if n >= 2147483648 else n


def to_uint32(v: Any) -> int:
    """ToUint32 (7.1.7)."""
    if type(v) is int and 0 <= v <= 4294967295:
        return v
    return _modular(v, 32)


def to_uint16(v: Any) -> int:
    """ToUint16 (7.1.9), as String.fromCharCode uses."""
    return _modular(v, 16)


def to_length(v: Any) -> int:
    """ToLength (7.1.22): clamp to 0 .. 2**53-1."""
    n = to_integer_or_infinity(v)
    if n <= 0:
        return 0
    return int(min(n, MAX_SAFE_INTEGER))


# --- equality ---------------------------------------------------------------------------------

def strict_equals(a: Any, b: Any) -> bool:
    """IsStrictlyEqual (7.2.15). Objects compare by identity, never structurally."""
    ta = type(a)
    tb = type(b)
    if ta is str:
        if tb is str:
            same: bool = a == b
            return same
    elif ta is int or ta is float:
        if tb is int or tb is float:
            same = a == b
            return same
    elif ta is bool:
        if tb is bool:
            same = a == b
            return same
    elif a is b:
        return True
    return _mixed_strict_equals(a, b, ta, tb)


#: exact types of JS values (none a caller's subclass): a mismatch of two is simply false
_JS_TYPES = frozenset([str, int, float, bool, type(None), type(UNDEFINED), dict, list, JSFunction, JSSymbol,
                       JSErrorObject])


def _mixed_strict_equals(a: Any, b: Any, ta: type, tb: type) -> bool:
    """``strict_equals`` of values of different Python types: false, unless one is caller
    data of a str/int/float subclass (compared by its plain value)."""
    if ta in _JS_TYPES and tb in _JS_TYPES:  # (the usual mismatch: undefined against a string)
        return False
    if foreign(ta) or foreign(tb):  # (a container: the one plain copy this evaluation made of it)
        return strict_equals(plain_value(a), plain_value(b))
    return False


def loose_equals(a: Any, b: Any) -> bool:
    """IsLooselyEqual (7.2.14)."""
    ta = type(a)
    tb = type(b)
    a_num = ta is int or ta is float
    b_num = tb is int or tb is float
    if (ta is tb) or (a_num and b_num):
        return strict_equals(a, b)
    a_nullish = a is None or a is UNDEFINED
    b_nullish = b is None or b is UNDEFINED
    if a_nullish or b_nullish:
        return a_nullish and b_nullish
    if foreign(ta) or foreign(tb):  # caller data of a subclass: by its plain value
        return loose_equals(plain_value(a), plain_value(b))
    if a_num and tb is str:
        return a == string_to_number(b)  # type: ignore[no-any-return]
    if ta is str and b_num:
        return string_to_number(a) == b  # type: ignore[no-any-return]
    if ta is bool:
        return loose_equals(1 if a else 0, b)
    if tb is bool:
        return loose_equals(a, 1 if b else 0)
    a_prim = a_num or ta is str or ta is JSSymbol
    b_prim = b_num or tb is str or tb is JSSymbol
    if a_prim and not b_prim:
        return loose_equals(a, to_primitive(b))
    if b_prim and not a_prim:
        return loose_equals(to_primitive(a), b)
    return False


def same_value_zero(a: Any, b: Any) -> bool:
    """SameValueZero (7.2.11): like === but NaN equals NaN (includes, Map, Set)."""
    ta = type(a)
    if (ta is float or ta is int) and (type(b) is float or type(b) is int):
        return a == b or (a != a and b != b)
    return strict_equals(a, b)


def same_value(a: Any, b: Any) -> bool:
    """SameValue (7.2.10): Object.is; distinguishes +0 and -0, NaN equals NaN."""
    ta = type(a)
    if (ta is float or ta is int) and (type(b) is float or type(b) is int):
        if a == 0 and b == 0:
            return math.copysign(1.0, a) == math.copysign(1.0, b)
        return a == b or (a != a and b != b)
    return strict_equals(a, b)


# --- property keys ----------------------------------------------------------------------------

def is_array_index(key: str) -> bool:
    """A canonical array index string: "0".."4294967294", no leading zeros or signs."""
    return (
        key.isascii()
        and key.isdigit()
        and (key == "0" or key[0] != "0")
        and (len(key) < 10 or int(key) < 4294967295)
    )


def has_index_keys(d: dict[str, Any]) -> bool:
    """Might ``d`` hold an integer-like key (one that JS enumerates first)?"""
    for k in d:
        if type(k) is str:
            if k and "0" <= k[0] <= "9":
                return True
        elif subclass_key(k):
            return True  # a caller's str-subclass key: ``ordered_keys`` looks at its plain str
    return False


#: exact str keys met so far that start with no digit (``interop.plain_keys`` fills it, up to
#: a bound): a dict whose keys are all here has no index key, told by one C-level test
PLAIN_KEYS_SEEN: set[str] = set()
PLAIN_KEYS_LIMIT = 4096
PLAIN_KEY_LENGTH = 253  # a DNS name's length: label and annotation keys fit (the memo stays under ~1 MB)
_known_plain_keys = PLAIN_KEYS_SEEN.issuperset


def ordered_keys(d: dict[str, Any]) -> list[str]:
    """OrdinaryOwnPropertyKeys (10.1.11.1) for string keys: integer-like keys first in
    ascending numeric order, then the rest in insertion order."""
    if _known_plain_keys(d):
        return list(d)
    if not has_index_keys(d):
        if len(PLAIN_KEYS_SEEN) < PLAIN_KEYS_LIMIT:  # (as interop.plain_keys: short exact strs only)
            PLAIN_KEYS_SEEN.update(k for k in d if type(k) is str and len(k) <= PLAIN_KEY_LENGTH)
        return list(d)
    keys = list(d)
    ints: list[str] = []
    rest: list[str] = []
    for k in keys:  # is_array_index inlined (a call per key cost more than the test): digits only, no leading 0
        if type(k) is not str and subclass_key(k):
            k = str.__str__(k)  # a caller's str-subclass key is its plain str
        if type(k) is str and k.isdigit() and k.isascii() and (k[0] != "0" or k == "0") \
                and (len(k) < 10 or int(k) < 4294967295):
            ints.append(k)
        else:
            rest.append(k)
    if not ints:
        return rest
    if len(ints) > 1:
        ints.sort(key=int)
    return ints + rest


_ONLY_STR = frozenset([str])


def string_keys(d: dict[str, Any]) -> list[str]:
    """The string keys of ``d`` in JS order (``ordered_keys`` without symbols); a caller's
    str-subclass key comes as its plain str."""
    keys = ordered_keys(d)
    if _ONLY_STR.issuperset(map(type, keys)):  # (one look at C speed; ``keys`` is a fresh list)
        return keys
    return [k if type(k) is str else str.__str__(k) for k in keys if type(k) is str or subclass_key(k)]


def subclass_key(k: Any) -> bool:
    """Is ``k`` a key of a caller's dict that is a str subclass (read as its plain str)?"""
    return type(k) is not str and type(k) is not JSSymbol and isinstance(k, str)
