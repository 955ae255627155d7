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
import json
import math
import re
from json.encoder import encode_basestring
from operator import itemgetter
from urllib.parse import unquote_to_bytes
from typing import Any, Callable

from .interop import _dict_to_python, known_plain_keys, plain_keys, to_python
from .convert import JS_WHITESPACE, is_array_index, normalize_number, number_to_string, string_to_number
from .stdlib.collation import collation_key
from .stdlib.string_case import js_lower, js_upper
from .stdlib.string_regex import get_substitution
from .stdlib.number import parse_int as js_parse_int
from .strings import concat
from .realm import DEFAULT_BUDGETS
from .values import UNDEFINED

__all__ = ["Deopt", "deopt", "namespace", "compile_regex", "HELPERS", "MAX_ITEMS",
           "MAX_TEXT"]

#: longest list or object a native callback loop walks (past it: the general tier, budgets)
MAX_ITEMS = 1000
#: longest string a native base64 or regex operation takes
MAX_TEXT = 1 << 20
#: the default budgets' sizes, for results that can outgrow their inputs (concat, join, JSON
#: text, a global replace): past them the general tier answers, with its RangeError (text
#: past half its budget: the general tier counts UTF-16 units, Python code points)
ARRAY_LIMIT = DEFAULT_BUDGETS.array_length
TEXT_LIMIT = DEFAULT_BUDGETS.string_length // 2


class Deopt(Exception):
    """Raised by native code when a guard fails: the general tier takes over."""


def deopt(*_: Any) -> Any:
    raise Deopt


#: Object.prototype's members (and ``__proto__``): an input object without such an own key
#: still has the member, so native code reads only keys outside this set as absent
PROTO_NAMES = frozenset([
    "constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toString", "toLocaleString",
    "valueOf", "__proto__", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
])

#: the leaf types other than str and int that come back from ``to_python`` as they are
_OTHER_LEAVES = frozenset([bool, type(None), type(UNDEFINED)])

#: types whose Python truth value is their JS ToBoolean (others: ``JS_TRUTHY``)
PLAIN_TRUTH = frozenset([str, int, bool, type(None), type(UNDEFINED)])


def _plain_text(s: str) -> bool:
    """Does ``s`` hold no surrogate? Such text is in canonical form (the general tier's
    conversion leaves it as it is), and JS and Python write, join and compare it alike."""
    return s.isascii() or not _SURROGATE.search(s)


def json_string(s: str) -> str:
    """JSON.stringify of a string without surrogates: JS and Python escape it alike (short
    escapes for \\b \\t \\n \\f \\r, lowercase ``\\u00XX`` for other controls, other text
    as it is; JS escapes only lone surrogates besides)."""
    if not _plain_text(s):
        raise Deopt
    out = encode_basestring(s)
    if len(out) > TEXT_LIMIT:
        raise Deopt
    return out


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
    if t is float:  # (JSON has no NaN or Infinity: JSON.stringify writes null for them)
        return number_to_string(v) if math.isfinite(v) else "null"
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
        return concat(a, b)
    elif ta is float or type(b) is float:
        return add_numbers(a, b)  # (a float met at run time: the double sum)
    return add_text(a, b)


_SAFE = 2**53


def string_of(v: Any) -> str:
    """``String(v)`` of a primitive other than a string (native code passes strings on
    itself, having screened their text; an object would run its own conversion)."""
    t = type(v)
    if t is int and -_SAFE <= v <= _SAFE:
        return str(v)
    if t is int or t is float:
        return number_to_string(v)
    if t is bool:
        return "true" if v else "false"
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    raise Deopt


def add_text(a: Any, b: Any) -> Any:
    """``a + b`` where one side is a number and the other of a type known only at run time:
    a safe integer sum, or the other side a string (then the texts are joined); anything else
    deoptimises."""
    if type(a) is int and type(b) is int:
        r = a + b
        if -_SAFE <= r <= _SAFE:
            return r
    elif type(a) is float and type(b) is not str or type(b) is float and type(a) is not str:
        return add_numbers(a, b)  # (a float met at run time: the double sum)
    elif type(a) is str:
        if type(b) is not str and _plain_text(a):  # (no surrogates: no text form to canonicalise)
            return a + string_of(b)
    elif type(b) is str:
        if _plain_text(b):
            return string_of(a) + b
    if type(a) is float or type(b) is float:  # (a fraction in a sum: the double sum)
        return add_numbers(a, b)
    raise Deopt


def number_of(v: Any) -> int | float:
    """``Number(v)`` of a primitive (JS's numeric string grammar, not Python's)."""
    t = type(v)
    if t is str:
        if v.isdigit() and v.isascii() and len(v) <= 15:  # (the usual port or count: no grammar)
            return int(v)
        return string_to_number(v)
    if t is int or t is float:
        return normalize_number(v)
    if t is bool:
        return 1 if v else 0
    if v is None:
        return 0
    raise Deopt  # (undefined is NaN; an object converts itself: the general tier)


_INT_PREFIX = re.compile(r"([+-]?)([0-9]+)")
#: a quantity's number at the very start ("500m", "1.5Gi", "8080"): at most 15 digits (a safe
#: integer), a fraction, and then nothing a longer numeric prefix would take in
_LEADING_DIGITS = re.compile(r"[0-9]{1,15}(?![0-9])")
_LEADING_DECIMAL = re.compile(r"[0-9]{1,15}(\.[0-9]+)?(?![0-9.eE])")


def parse_int(v: Any) -> int:
    """``parseInt(v)`` (radix 10 or none) when the answer is a safe integer other than -0;
    a hex prefix, NaN and long digit runs are left to the general tier."""
    if type(v) is int and -_SAFE <= v <= _SAFE:
        return v
    if type(v) is not str:
        raise Deopt
    if v.isascii() and v.isdigit() and len(v) <= 15:  # the usual one ("2", "8080"): its digits only
        return int(v)
    m = _LEADING_DIGITS.match(v)
    if m is not None and not v.startswith(("0x", "0X")):  # ("500m", "256Mi": digits and a unit)
        return int(m.group())
    s = v.lstrip(JS_WHITESPACE)
    m = _INT_PREFIX.match(s)
    if m is None or len(m.group(2)) > 15 or (m.group(2) == "0" and s[m.end():m.end() + 1] in ("x", "X")):
        raise Deopt
    n = int(m.group(2))
    if m.group(1) == "-":
        if n == 0:
            raise Deopt  # -0
        return -n
    return n


_FLOAT_PREFIX = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")


def parse_float(v: Any) -> int | float:
    """``parseFloat(v)``: the longest numeric prefix after JS whitespace (NaN: general tier)."""
    if type(v) is int and -_SAFE <= v <= _SAFE:
        return v
    if type(v) is not str:
        raise Deopt
    m = _LEADING_DECIMAL.match(v)
    if m is not None:  # (the usual quantity: no sign, space or exponent)
        return int(m.group()) if m.group(1) is None else normalize_number(float(m.group()))
    m = _FLOAT_PREFIX.match(v.lstrip(JS_WHITESPACE))
    if m is None:
        raise Deopt
    text = m.group()
    if text.endswith("Infinity"):
        return -math.inf if text[0] == "-" else math.inf
    return normalize_number(float(text))


def is_integer(v: Any) -> bool:
    """``Number.isInteger(v)``."""
    t = type(v)
    if t is int:
        return True
    if t is float:
        return v.is_integer()  # type: ignore[no-any-return]
    if t is str or t is bool or t is dict or t is list or v is None or v is UNDEFINED:
        return False
    raise Deopt


def divide(a: int, b: int) -> int | float:
    """``a / b`` of safe integers: one correctly rounded division either way."""
    if b == 0:
        raise Deopt  # Infinity or NaN
    r = a / b
    if r.is_integer() and (r or (a >= 0) == (b > 0)):  # (an exact quotient, not -0: an int)
        return int(r)
    return r


def number_value(v: Any) -> int | float:
    """``v`` where a JS number is wanted without conversion: a safe int or a float below
    2**53 in size, or NaN (a bool, anything larger, which the general tier may hold as an
    exact int, or anything else deoptimises)."""
    t = type(v)
    if t is float and not abs(v) >= _SAFE or t is int and -_SAFE <= v <= _SAFE:
        return v  # type: ignore[no-any-return]
    raise Deopt


def add_numbers(a: Any, b: Any) -> int | float:
    """``a + b`` of two numbers, one maybe a fraction: the double sum (Python's float
    addition is IEEE's, as JS's; a safe int converts to float exactly), in to_python's form."""
    return normalize_number(number_value(a) + number_value(b))


def subtract_numbers(a: Any, b: Any) -> int | float:
    return normalize_number(number_value(a) - number_value(b))


def multiply_numbers(a: Any, b: Any) -> int | float:
    """``a * b``: a zero product of two ints is -0 when one factor is negative, as JS's
    double product is (Python's int product has no sign for zero)."""
    x, y = number_value(a), number_value(b)
    r = x * y
    if r == 0 and type(r) is int and (x < 0 or y < 0):
        return -0.0
    return normalize_number(r)


def divide_numbers(a: Any, b: Any) -> int | float:
    """``a / b`` (a zero divisor, Infinity or NaN in JS: the general tier)."""
    x, y = number_value(a), number_value(b)
    if y == 0:
        raise Deopt
    if type(x) is int and type(y) is int:
        return divide(x, y)
    return normalize_number(x / y)


def remainder(a: int, b: int) -> int:
    """``a % b`` of safe integers: the sign of the dividend, as JS (-0 and NaN deoptimise)."""
    if b == 0:
        raise Deopt
    r = abs(a) % abs(b)
    if a < 0:
        if r == 0:
            raise Deopt
        return -r
    return r


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_FORMATS = {2: "b", 8: "o", 10: "d", 16: "x"}


def radix_string(v: Any, radix: int) -> str:
    """``n.toString(radix)`` of a safe integer (fractions are left to the general tier)."""
    if type(v) is not int or not -_SAFE <= v <= _SAFE or not 2 <= radix <= 36:
        raise Deopt
    if radix in _FORMATS:
        return format(v, _FORMATS[radix])
    n, out = abs(v), []
    while True:
        n, d = divmod(n, radix)
        out.append(_DIGITS[d])
        if not n:
            break
    return ("-" if v < 0 else "") + "".join(reversed(out))


def to_fixed(v: Any, digits: int) -> str:
    """``n.toFixed(digits)``: the exact binary value rounded half up (away from zero), as
    ECMA-262 says; Python's own formatting rounds ties to even."""
    t = type(v)
    if t is int and -_SAFE <= v <= _SAFE:
        return f"{v}.{'0' * digits}" if digits else str(v)
    if t is not float or not abs(v) < 1e21:
        raise Deopt  # NaN, infinities and huge numbers print as String(n)
    from decimal import ROUND_HALF_UP, Decimal

    if v == 0:
        v = 0.0  # -0 prints as 0
    return format(Decimal(v).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP), "f")


def int32(v: int) -> int:
    """ToInt32 of an integer."""
    return ((v & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000


def flatten(items: list[Any]) -> list[Any]:
    """One level of ``flat()`` (and of ``flatMap``): arrays spliced in, other values kept."""
    out: list[Any] = []
    for x in items:
        t = type(x)
        if t is list:
            out.extend(x)
        elif t is tuple:
            raise Deopt  # (a tuple from the caller is an array to the general tier)
        else:
            out.append(x)
    if len(out) > MAX_ITEMS * MAX_ITEMS:
        raise Deopt
    return out


def flat_one(v: Any) -> tuple[Any, ...]:
    """A ``flatMap`` callback's result that is not a short list: a value other than an
    array is one element; a long list or a caller's tuple (an array to the general tier)
    deoptimises."""
    t = type(v)
    if t is list or t is tuple:
        raise Deopt
    return (v,)


def concat_arrays(items: list[Any], *parts: Any) -> list[Any]:
    """``items.concat(...parts)`` (arrays spread one level, others appended)."""
    out = list(items)
    for p in parts:
        t = type(p)
        if t is list:
            out.extend(p)
        elif t not in _SCALARS:
            # a caller's tuple is an array, an object may say it spreads, and a caller's
            # subclass is read as its plain value: the general tier knows each
            raise Deopt
        else:
            out.append(p)
    if len(out) > ARRAY_LIMIT:
        raise Deopt
    return out


def includes(items: list[Any], v: Any) -> bool:
    """``items.includes(v)`` (SameValueZero) for a needle Python compares alike."""
    return index_of(items, v) >= 0


def index_of(items: list[Any], v: Any) -> int:
    """``items.indexOf(v)`` (strict equality) for a needle Python compares alike: a string
    (ASCII: no surrogate forms to tell apart), a safe integer (no bool is equal), null, a
    boolean or undefined (an absent label looked up in a selector's values)."""
    t = type(v)
    if t is str and v.isascii():
        for i, x in enumerate(items):
            if x == v and type(x) is str:
                return i
        return -1
    if t is int and -_SAFE < v < _SAFE:  # (an unsafe int element is a double no safe one equals)
        for i, x in enumerate(items):
            if x == v and type(x) is not bool and type(x) is not str:
                return i
        return -1
    if v is None or t is bool or v is UNDEFINED:
        for i, x in enumerate(items):
            if x is v:
                return i
        return -1
    raise Deopt


def sort_default(items: list[Any]) -> list[Any]:
    """``sort()`` without a comparator on an array no one else sees: strings by UTF-16 code
    units, safe integers by their decimal text (as JS compares them); others deoptimise."""
    if set(map(type, items)) <= _STR_TYPE:  # (at C speed: no generator step per element)
        return sort_strings(items)
    if all(type(x) is int and -_SAFE <= x <= _SAFE for x in items):
        return sorted(items, key=str)
    # strings with null and undefined (an optional field read from each element): undefined
    # goes last, unsorted (JS never compares it); null compares as the text "null"
    rest = [x for x in items if x is not UNDEFINED]
    if not all(type(x) is str or x is None for x in rest):
        raise Deopt
    texts = ["null" if x is None else x for x in rest]
    order = sorted(range(len(rest)), key=texts.__getitem__) if "".join(texts).isascii() else \
        sorted(range(len(rest)), key=lambda i: texts[i].encode("utf-16-be", "surrogatepass"))
    return [rest[i] for i in order] + [UNDEFINED] * (len(items) - len(rest))


def sort_strings(items: list[str]) -> list[str]:
    """``sort()`` of strings (``Object.keys``, ``split``): by UTF-16 code units, which is
    code point order for ASCII text."""
    if "".join(items).isascii():
        return sorted(items)
    return sorted(items, key=lambda x: x.encode("utf-16-be", "surrogatepass"))


#: key sets ``sorted_keys`` found to be exact ASCII strings: a key set within them sorts as
#: JS sorts it with one C-level test (``known_ascii_keys``) and ``sorted``
_ASCII_KEYS_SEEN: set[str] = set()
_ASCII_KEYS_LIMIT = 4096
_ASCII_KEY_LENGTH = 253
known_ascii_keys = _ASCII_KEYS_SEEN.issuperset


def sorted_keys(d: Any) -> list[str]:
    """``Object.keys(d).sort()``: the key order does not matter, only the keys' UTF-16
    order. ASCII keys are remembered for the inline test (``known_ascii_keys``)."""
    keys = js_keys(d)  # (refuses what is not a dict of exact-str keys)
    if "".join(keys).isascii():
        if len(_ASCII_KEYS_SEEN) < _ASCII_KEYS_LIMIT:
            _ASCII_KEYS_SEEN.update(k for k in keys if len(k) <= _ASCII_KEY_LENGTH)
        return sorted(keys)
    return sort_strings(keys)


def _sort_keys(items: list[Any], key: str | int | None) -> list[Any]:
    """What a comparator compares of each element: the element, a member of an object, or an
    element of an array (an entry's key or value); anything else (an absent member, another
    type: JS's conversions decide) deoptimises."""
    if key is None:
        return items
    if key == "length":  # (a.length - b.length: strings by their UTF-16 length, arrays by theirs)
        return [len(x) if type(x) is str and x.isascii() or type(x) is list else
                x[key] if type(x) is dict and key in x else deopt() for x in items]
    if type(key) is int:
        return [x[key] if type(x) is list and len(x) > key else deopt() for x in items]
    return [x[key] if type(x) is dict and key in x else deopt() for x in items]


def sort_numbers(items: list[Any], key: str | int | None, descending: bool) -> list[Any]:
    """``sort((a, b) => a - b)`` (``b - a``, ``a.k - b.k``, ``a[1] - b[1]``) on safe integers:
    the difference is exact, so its sign is the order; both sorts are stable."""
    values = _sort_keys(items, key)
    for x in values:
        if type(x) is not int or not -_SAFE <= x <= _SAFE:
            raise Deopt
    if key is None:
        return sorted(items, reverse=descending)
    order = sorted(range(len(items)), key=values.__getitem__, reverse=descending)
    return [items[i] for i in order]


def sort_ordered(items: list[Any], key: str | int | None, descending: bool) -> list[Any]:
    """``sort((a, b) => a.k < b.k ? -1 : a.k > b.k ? 1 : 0)`` and its mirrors: a consistent
    comparator by JS's ``<``, which orders ASCII strings as Python does and numbers (safe ints,
    floats other than NaN) by value. Other keys (absent ones, text beyond ASCII, mixed kinds,
    whose order JS's conversions decide) deoptimise; both sorts are stable."""
    if len(items) > MAX_ITEMS:
        raise Deopt
    values = _sort_keys(items, key)
    if all(type(x) is str and x.isascii() for x in values):
        pass
    elif not all(type(x) is int and -_SAFE <= x <= _SAFE or type(x) is float and x == x for x in values):
        raise Deopt
    order = sorted(range(len(items)), key=values.__getitem__, reverse=descending)
    return [items[i] for i in order]


def unique(items: list[Any]) -> list[Any]:
    """``[...new Set(items)]`` for strings, safe integers, null and undefined (Python's dict
    keys tell them apart as SameValueZero does; a bool would equal 1)."""
    if set(map(type, items)) <= _STR_TYPE:  # (the usual: names, hosts, images; tested at C speed)
        if not "".join(items).isascii():
            raise Deopt
        return list(dict.fromkeys(items))
    for x in items:
        t = type(x)
        if t is not str and x is not None and x is not UNDEFINED and (t is not int or not -_SAFE <= x <= _SAFE):
            raise Deopt
        if t is str and not x.isascii():
            raise Deopt
    return list(dict.fromkeys(items))


_STR_TYPE = frozenset([str])


def sorted_unique(items: list[Any]) -> list[Any]:
    """``[...new Set(items)].sort()`` (``Array.from(new Set(items)).sort()``): for ASCII
    strings, whose code point order is their UTF-16 order, the distinct ones sorted at once
    (the set's first-seen order is moot); others as ``unique`` and ``sort_default`` take them."""
    if set(map(type, items)) <= _STR_TYPE and "".join(items).isascii():
        return sorted(set(items))
    return sort_default(unique(items))




_IS_DIGITS = str.isdigit
#: JS's key order by the key sequence it was worked out for (a pure function of the keys):
#: the same kinds of objects come again and again (a ConfigMap's "10" in every sync)
_ORDERS: dict[tuple[str, ...], tuple[str, ...]] = {}
_ORDERS_LIMIT = 1024
_ORDERED_KEYS = 64  # (longer key sequences are not remembered: the tuple costs as much as the work)


def js_keys(d: dict[Any, Any]) -> list[str]:
    """``Object.keys(d)`` of a dict whose keys may be integer-like: JS's order (array
    indices first, ascending, then the other keys as inserted). The key types and the digit
    keys are looked at C speed, and the order of a key sequence met before is remembered."""
    if type(d) is not dict:
        raise Deopt
    for k in d:  # (a loop costs less than a set of the key types on the usual handful of keys)
        if type(k) is not str:
            raise Deopt  # (another key type, a str subclass among them, is the general tier's)
    seq = tuple(d) if len(d) <= _ORDERED_KEYS else None
    if seq is not None:
        known = _ORDERS.get(seq)
        if known is not None:
            return list(known)
    ints = [k for k in filter(_IS_DIGITS, d)
            if k.isascii() and (k[0] != "0" or k == "0") and (len(k) < 10 or int(k) < 4294967295)]
    keys = list(d)
    if ints:
        ints.sort(key=int)
        if keys[:len(ints)] != ints:
            seen = set(ints)
            keys = ints + [k for k in keys if k not in seen]
    else:
        plain_keys(d)  # (remembers plain keys: next time KNOWN_KEYS answers at C speed)
    if seq is not None and len(_ORDERS) < _ORDERS_LIMIT:
        _ORDERS[seq] = tuple(keys)
    return keys


#: for a key sequence met before whose JS order differs from it: the picker of its entries
#: in JS's order (``itemgetter`` of their positions, at C speed); None: the order is the same
_ITEM_PICKS: dict[tuple[str, ...], Any] = {}


def js_items(d: dict[Any, Any]) -> Any:
    """``Object.entries(d)`` for code that unpacks each entry into its key and value (so no
    entry is seen as an array): ``(key, value)`` pairs in JS's order, with JS_KEYS's guards.
    The usual object with an integer-like key (a ConfigMap's "10") costs one C-level pick of
    its items, not a subscript and a list per key."""
    if type(d) is not dict or len(d) > _ORDERED_KEYS:
        return [(k, d[k]) for k in js_keys(d)]
    for k in d:
        if type(k) is not str:
            raise Deopt  # (as in js_keys: a str subclass equal to a remembered key among them)
    seq = tuple(d)
    pick = _ITEM_PICKS.get(seq, _ITEM_PICKS)
    if pick is _ITEM_PICKS:  # (not met before)
        keys = js_keys(d)
        if keys == list(seq):
            pick = None
        else:  # (two keys at least, so the getter returns a tuple)
            where = {k: i for i, k in enumerate(seq)}
            pick = itemgetter(*[where[k] for k in keys])
        if len(_ITEM_PICKS) < _ORDERS_LIMIT:
            _ITEM_PICKS[seq] = pick
    return d.items() if pick is None else pick(list(d.items()))


def assign_all(target: dict[str, Any], sources: Any) -> dict[str, Any]:
    """``Object.assign(target, ...sources)`` onto an object the script just made: each source
    an object with string keys other than ``__proto__`` (which would set the prototype, not be
    copied), or null or undefined (skipped, as JS skips them); anything else, or more than
    ``MAX_ITEMS`` sources, takes the general tier. Integer-like keys are put in JS's order
    where the result is checked, as for a spread."""
    if type(sources) is not list or len(sources) > MAX_ITEMS:
        raise Deopt
    for d in sources:
        if d is None or d is UNDEFINED:
            continue
        if type(d) is not dict or not (known_plain_keys(d) or plain_keys(d) or js_keys(d)) or "__proto__" in d:
            raise Deopt
        target.update(d)
    return target


def str_keys(d: dict[Any, Any]) -> bool:
    """Whether every key of ``d`` is a ``str`` (``STR_KEYS``): then ``Object.keys(d)`` has one
    key per entry, whatever its order (a key of another type could meet its string form)."""
    for k in d:
        if type(k) is not str:
            return False
    return True


def dict_out(d: dict[Any, Any]) -> Any:
    """A result object that failed the inline test: when only its keys are unusual (a
    ConfigMap's "10"), put them in JS's order here; anything else takes ``to_python``."""
    if known_plain_keys(d) or plain_keys(d):  # (C-speed tests first: the usual big object)
        return d if plain_tree(d) else _dict_to_python(d, 0)
    if type(d) is not dict or not set(map(type, d.values())) <= _LEAF_OR_INT_TYPES:
        return to_python(d)
    for x in d.values():
        if type(x) is int and not -_SAFE <= x <= _SAFE:
            return to_python(d)
    if _in_js_order(d):
        return d
    try:
        keys = js_keys(d)
    except Deopt:
        return to_python(d)
    return d if keys == list(d) else {k: d[k] for k in keys}


def spread_out(d: dict[Any, Any], skip: tuple[str, ...], _type: Any = type, _str: Any = str, _dict: Any = dict,
               _list: Any = list, _int: Any = int, _known: Any = known_plain_keys, _plain: Any = plain_keys,
               _others: Any = _OTHER_LEAVES) -> dict[Any, Any]:
    """The members of ``d``, spread first into a result's object literal (``{...d, k: x}``),
    as the caller gets them: ``d`` itself when ``to_python`` would keep each member the
    literal does not write over (those, in ``skip``, are never seen, so not looked at); else
    a copy with the members converted, in JS's key order (array indices first: the literal's
    own keys are plain, so the result keeps that order). A member that is a list of leaves
    and small objects of leaves (ports, addresses) is looked at here, with no call per
    object; deeper ones take one ``plain_tree`` walk together."""
    # (the defaults bind globals as locals, as in plain_tree)
    if _known(d) or _plain(d):
        below: list[Any] = []
        for k, x in d.items():
            t = _type(x)
            if t is _str or t in _others or k in skip:
                continue
            if t is _list:
                for y in x:
                    t = _type(y)
                    if t is _str or t in _others:
                        continue
                    if t is _dict and _known(y):
                        for z in y.values():  # (a small object of leaves: ports, addresses)
                            t = _type(z)
                            if not (t is _str or t in _others or t is _int and (-1073741823 <= z and z <= 1073741823 or -_SAFE <= z <= _SAFE)):
                                break
                        else:
                            continue
                    elif t is _int and (-1073741823 <= y and y <= 1073741823 or -_SAFE <= y <= _SAFE):
                        continue
                    below.append(x)
                    break
            elif t is _dict:
                if _known(x):
                    for z in x.values():
                        t = _type(z)
                        if not (t is _str or t in _others or t is _int and (-1073741823 <= z and z <= 1073741823 or -_SAFE <= z <= _SAFE)):
                            below.append(x)
                            break
                else:
                    below.append(x)
            elif t is not _int or not (-1073741823 <= x and x <= 1073741823 or -_SAFE <= x <= _SAFE):
                break
        else:
            if not below or plain_tree(below):
                return d
        return {k: x if k in skip else to_python(x) for k, x in d.items()}
    for k in d:
        if type(k) is not str:
            raise Deopt  # (the general tier converts such a key, or says why not)
    return to_python(d)  # type: ignore[no-any-return]


def keys_out(d: dict[Any, Any]) -> dict[Any, Any]:
    """A result object whose values are already as the caller gets them (so not converted
    again: ``to_python`` of a value it made may differ, as 2**53 + 1 -> 2.0**53 -> 2**53),
    with an unusual key: its keys in JS's order."""
    if _in_js_order(d):
        return d
    return {k: d[k] for k in js_keys(d)}  # (a key that is not a string: the general tier)


def _in_js_order(d: dict[Any, Any]) -> bool:
    """Are the keys of ``d`` strings in the order JS enumerates them (array indices first,
    ascending, then the others)? One pass, no sorting: what ``Object.fromEntries`` over
    ``Object.entries`` makes is usually so."""
    last = -1
    for k in d:
        if type(k) is not str:
            return False
        if k.isdigit() and k.isascii() and (k == "0" or k[0] != "0") and (len(k) < 10 or int(k) < 4294967295):
            n = int(k)
            if n <= last:  # (after a named key, last is past every index)
                return False
            last = n
        else:
            last = 1 << 32
    return True


def has_property(key: Any, obj: Any) -> bool:
    """``key in obj`` for an input object or array: own keys only; a name the prototypes
    may hold (or a key of another type) is left to the general tier."""
    t = type(key)
    if t is str:
        if not key.isascii():
            raise Deopt  # (text forms the general tier would make one)
    elif t is int and -_SAFE <= key <= _SAFE:
        key = str(key)
    else:
        if key is None or key is UNDEFINED or t is bool:
            key = string_of(key)
        else:
            raise Deopt
    if type(obj) is dict:
        if key in obj:
            return True
        if key in PROTO_NAMES:
            raise Deopt
        return False
    if type(obj) is list:
        if is_array_index(key):
            return int(key) < len(obj)
        if key == "length":
            return True
        if key in PROTO_NAMES or key in ARRAY_PROTO_NAMES:
            raise Deopt
        return False
    raise Deopt


#: Array.prototype's members (a superset: more names only deoptimise)
ARRAY_PROTO_NAMES = frozenset(
    "at concat copyWithin entries every fill filter find findIndex findLast findLastIndex flat flatMap forEach "
    "includes indexOf join keys lastIndexOf map pop push reduce reduceRight reverse shift slice some sort splice "
    "toReversed toSorted toSpliced unshift values with length constructor toString toLocaleString".split()
)


def strict_equals(a: Any, b: Any) -> bool:
    """``a === b`` for operands whose types are known only at run time: strings (ASCII when
    they differ: other text may be in another form), numbers other than NaN, null, undefined
    and booleans; objects are left to the general tier (their identity is its own)."""
    ta, tb = type(a), type(b)
    if ta is str and tb is str:
        if a == b:
            return True
        if _plain_text(a) and _plain_text(b):
            return False  # (both canonical: unequal texts)
        raise Deopt
    if ta in _SCALARS and tb in _SCALARS:
        if ta is float and a != a or tb is float and b != b:
            raise Deopt  # NaN
        if (ta is bool) != (tb is bool):
            return False
        if ta in _NUMBERS and tb in _NUMBERS or ta is tb:
            return a == b  # type: ignore[no-any-return]
        return False
    raise Deopt


_NUMBERS = frozenset([int, float])
_SCALARS = frozenset([str, int, float, bool, type(None), type(UNDEFINED)])


def unequal_text(v: Any) -> bool:
    """The false side of ``v === 'text'`` for a ``v`` that is no exact str: a caller's str
    subclass is text to the general tier (read as its plain value), so it is sent there."""
    if isinstance(v, str):
        raise Deopt
    return False


def unequal_number(v: Any) -> bool:
    """The false side of ``v === 3`` for a ``v`` that is no exact int or float: a caller's
    int or float subclass is a number to the general tier, so it is sent there."""
    if isinstance(v, (int, float)) and type(v) is not bool:
        raise Deopt
    return False


def not_array(v: Any) -> bool:
    """The false side of ``Array.isArray(v)`` for a ``v`` that is no exact list: a caller's
    list subclass is an array to the general tier, so it is sent there."""
    if isinstance(v, list):
        raise Deopt
    return False


def join(sep: str, items: list[Any]) -> str:
    """``items.join(sep)`` of strings, numbers, null and undefined (as empty strings)."""
    parts = []
    for x in items:
        t = type(x)
        if t is str:
            parts.append(x)
        elif x is None or x is UNDEFINED:
            parts.append("")
        elif t is int or t is float or t is bool:
            parts.append(string_of(x))
        else:
            raise Deopt  # an object or array converts itself
    out = sep.join(parts)
    if len(out) > TEXT_LIMIT:
        raise Deopt
    return out


def _integral(v: Any) -> Any:
    if type(v) is int:
        if -_SAFE <= v <= _SAFE:
            return v
        raise Deopt
    if type(v) is not float or v != v or v in (math.inf, -math.inf):
        raise Deopt
    return None


def _whole(v: Any, rounding: Any) -> int:
    """``v`` rounded by ``rounding`` to a safe integer; a -0 result (a negative fraction
    rounded to zero, or -0 itself), NaN, infinities and results past 2**53 are the general
    tier's."""
    n = _integral(v)
    if n is not None:
        return n  # type: ignore[no-any-return]
    r: int = rounding(v)
    if r == 0 and (v < 0 or math.copysign(1.0, v) < 0) or not -_SAFE <= r <= _SAFE:
        raise Deopt
    return r


def floor(v: Any) -> int:
    """``Math.floor``."""
    return _whole(v, math.floor)


def ceil(v: Any) -> int:
    """``Math.ceil`` (-0.5 -> -0: the general tier)."""
    return _whole(v, math.ceil)


def _half_up(v: float) -> int:
    r = math.floor(v)
    return r + 1 if v - r >= 0.5 else r


def round_half_up(v: Any) -> int:
    """``Math.round``: ties toward +Infinity."""
    return _whole(v, _half_up)


def truncate(v: Any) -> int:
    """``Math.trunc``: toward zero."""
    return _whole(v, math.trunc)


def absolute(v: Any) -> int:
    if type(v) is int and -_SAFE <= v <= _SAFE:
        return abs(v)
    raise Deopt


def _json_constant(name: str) -> Any:
    raise Deopt  # NaN, Infinity: Python's json reads them, JSON.parse does not


def _json_int(text: str) -> int | float:
    n = int(text)
    if n == 0 and text.startswith("-"):
        return -0.0
    return n if -_SAFE <= n <= _SAFE else float(text)


def _json_float(text: str) -> int | float:
    return normalize_number(float(text))


#: one decoder for every call, with JSON.parse's number hooks (it keeps no state between calls)
_JSON_DECODER = json.JSONDecoder(parse_constant=_json_constant, parse_int=_json_int, parse_float=_json_float)


def base64_text(s: str) -> str:
    """``atob`` of canonical base64 whose padding may be left off (as a JWT's segments are:
    forgiving-base64 decodes them alike); whitespace, stray ``=`` or other characters make
    ``a2b_base64`` raise and the general tier decides. The bytes are read as UTF-8. (Native
    code decodes text whose length is a multiple of four inline and calls this for the rest.)"""
    if len(s) > MAX_TEXT:
        raise Deopt
    n = len(s) & 3
    if n > 1 and "=" not in s:
        s += "==" if n == 2 else "="
    return binascii.a2b_base64(s, strict_mode=True).decode("utf-8", "replace")


def json_parse(text: Any) -> Any:
    """``JSON.parse(text)`` of ASCII text (Python's json agrees with JSON.parse there, once
    NaN and Infinity are refused and numbers become what JS holds)."""
    if type(text) is not str or not text.isascii() or len(text) > MAX_TEXT:
        raise Deopt
    if text.count("[") + text.count("{") > _JSON_NESTING and _json_depth(text) > _JSON_NESTING:
        raise Deopt  # (Python's C scanner recurses per level: a small thread stack would overflow)
    try:
        return _JSON_DECODER.decode(text)  # (json.loads with these hooks would build a decoder per call)
    except ValueError:
        raise Deopt from None  # (a SyntaxError: the general tier throws it)


#: the deepest JSON text the native tier parses; deeper text takes the general tier, whose
#: parser is bounded by the call-depth budget
_JSON_NESTING = 64
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_BRACKETS = re.compile(r"[\[\]{}]")


def _json_depth(text: str) -> int:
    """How deep the arrays and objects of JSON ``text`` nest (brackets in strings not counted;
    stops counting past ``_JSON_NESTING``)."""
    depth = deepest = 0
    for m in _JSON_BRACKETS.finditer(_JSON_STRING.sub("", text)):
        depth += 1 if m.group() in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > _JSON_NESTING:
                break
    return deepest


def json_text(v: Any, indent: Any = None) -> Any:
    """``JSON.stringify(v)`` (and ``(v, null, n)``) of JSON data Python writes alike: ASCII
    strings, safe integers, keys no JS object would reorder; undefined at the top is undefined."""
    if v is UNDEFINED:
        return UNDEFINED
    if type(v) is float:  # (a number alone: its JS text; in a container Python's would differ)
        return number_to_string(v) if math.isfinite(v) else "null"
    _json_plain(v, 0)
    if indent is not None and (type(indent) is not int or not 0 <= indent <= 10):
        raise Deopt
    if not indent:
        out = json.dumps(v, separators=(",", ":"), ensure_ascii=False)
    else:
        out = json.dumps(v, indent=indent, separators=(",", ": "), ensure_ascii=False)
    if len(out) > TEXT_LIMIT:
        raise Deopt
    return out


def _json_plain(v: Any, depth: int) -> None:
    t = type(v)
    if t is str:
        if not _plain_text(v):
            raise Deopt
    elif t is int:
        if not -_SAFE <= v <= _SAFE:
            raise Deopt
    elif t is dict:
        if depth > 100:
            raise Deopt
        for k, x in v.items():
            if type(k) is not str or not _plain_text(k) or (k and "0" <= k[0] <= "9"):
                raise Deopt
            _json_plain(x, depth + 1)
    elif t is list:
        if depth > 100:
            raise Deopt
        for x in v:
            _json_plain(x, depth + 1)
    elif not (v is None or t is bool):
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
    vcluster = context.get("vcluster") if type(context) is dict else None
    if type(name) is not str or type(vcluster) is not dict:
        raise Deopt
    vcluster_name, namespace = vcluster.get("name"), vcluster.get("namespace")
    if type(vcluster_name) is not str or type(namespace) is not str:
        raise Deopt
    try:
        return (_DNS or _dns_translation())(name, vcluster_name=vcluster_name, vcluster_namespace=namespace)
    except ValueError:
        raise Deopt from None


#: ``names.virtual_to_host_dns`` once a script first needs it (an ``import`` in the function
#: costs more than the remembered translation it returns; names.py may not ship at all)
_DNS: Callable[..., str] | None = None


def _dns_translation() -> Callable[..., str]:
    global _DNS
    from .names import virtual_to_host_dns

    _DNS = virtual_to_host_dns
    return _DNS


def regex_sub(rx: LazyRegex, limit: int, repl: str, s: str, count: int) -> str:
    """``replace`` with a translated regex on ASCII text no longer than ``limit``."""
    if len(s) > limit or not s.isascii():
        raise Deopt
    return (rx.compiled or rx.get()).sub(repl, s, count)


def regex_sub_expanded(rx: LazyRegex, limit: int, template: Any, s: Any, count: int) -> str:
    """``replace`` with a translated regex and a replacement that may hold ``$1``, ``$&``,
    ``$$`` and the like (a literal one, or one computed at run time): each match's text by
    the general tier's GetSubstitution, on ASCII text and an ASCII template (units are code
    points there). Named groups (``$<name>``) deoptimise."""
    if type(s) is not str or len(s) > limit or not s.isascii() or type(template) is not str \
            or not template.isascii():
        raise Deopt
    compiled = rx.compiled or rx.get()
    if "$" not in template:
        if count == 1:  # (one replacement, the usual rewrite: no call per match at all)
            m = compiled.search(s)
            return s if m is None else s[:m.start()] + template + s[m.end():]
        return compiled.sub(lambda _: template, s, count)  # (no backslash escapes: the text as it is)
    if compiled.groupindex:
        raise Deopt
    key = (template, compiled.groups)
    try:
        layout = _LAYOUTS[key]
    except KeyError:  # (met for the first time)
        layout = replacement_layout(template, compiled.groups)
        if len(_LAYOUTS) < _LAYOUTS_LIMIT and len(template) <= _LAYOUT_LENGTH:
            _LAYOUTS[key] = layout
    if layout is not None:
        expand = layout.format
        if count == 1:
            m = compiled.search(s)
            return s if m is None else s[:m.start()] + expand(m.group(), *m.groups("")) + s[m.end():]
        return compiled.sub(lambda m: expand(m.group(), *m.groups("")), s, count)

    def substitute(m: re.Match[str]) -> str:
        captures = [UNDEFINED if g is None else g for g in m.groups()]
        return get_substitution(m.group(), s, m.start(), captures, UNDEFINED, template)

    return compiled.sub(substitute, s, count)


#: JS replacement templates met before (with the pattern's group count) -> their
#: ``replacement_layout``, or None; bounded, as every memo here
_LAYOUTS: dict[tuple[str, int], str | None] = {}
_LAYOUTS_LIMIT = 1024
_LAYOUT_LENGTH = 256  # (longer templates are laid out again on each call: the memo stays small)


def replacement_layout(template: str, groups: int) -> str | None:
    """A JS replacement template as a ``str.format`` layout over the match (``{0}``) and its
    captures (``{1}``...): the general tier's own GetSubstitution (V8's ``$nn`` rules), run
    once with those fields standing for the match and the captures, over the template with
    its braces doubled; a capture that takes no part is formatted as empty text, as JS gives
    it. One C-level expansion a match then. None for ``$``` and ``$'`` (the text around the
    match: each match's own), or what looks like them."""
    if "$`" in template or "$'" in template:
        return None
    fields = ["{%d}" % n for n in range(1, groups + 1)]
    return get_substitution("{0}", "", 0, fields, UNDEFINED, template.replace("{", "{{").replace("}", "}}"))


def regex_matches(rx: LazyRegex, limit: int, s: Any, count: int) -> list[list[Any]]:
    """The matches a ``replace`` callback is called with (the first, or all with ``count``
    0): ``[match, captures..., offset, s]`` each, a capture that took no part undefined; on
    ASCII text no longer than ``limit`` (offsets in code points are then JS's units), at most
    ``MAX_ITEMS`` of them."""
    if type(s) is not str or len(s) > limit or not s.isascii():
        raise Deopt
    compiled = rx.compiled or rx.get()
    found: list[list[Any]] = []
    for m in compiled.finditer(s):
        if len(found) == MAX_ITEMS:
            raise Deopt  # (a callback per match, as a loop's per element: past the bound, the step budget's)
        found.append([m.group(), *[UNDEFINED if g is None else g for g in m.groups()], m.start(), s])
        if count == 1:
            break
    return found


def regex_stitch(s: str, matches: list[list[Any]], pieces: list[str]) -> str:
    """``s`` with each match (``regex_matches``) replaced by its piece, in order. Text with a
    surrogate (a piece's, which the general tier would join with a neighbouring piece's) is
    left to the general tier."""
    out: list[str] = []
    last = 0
    for match, piece in zip(matches, pieces):
        start = match[-2]
        out.append(s[last:start])
        out.append(piece)
        last = start + len(match[0])
    out.append(s[last:])
    joined = "".join(out)
    if not joined.isascii() and _SURROGATE.search(joined):
        raise Deopt
    return joined


def regex_split(rx: LazyRegex, limit: int, s: str) -> list[str]:
    """``split`` by a translated regex that matches no empty text and captures nothing, on
    ASCII text no longer than ``limit``."""
    if len(s) > limit or not s.isascii():
        raise Deopt
    return (rx.compiled or rx.get()).split(s)


def regex_test(rx: LazyRegex, limit: int, s: str) -> bool:
    if len(s) > limit or not s.isascii():
        raise Deopt
    return (rx.compiled or rx.get()).search(s) is not None


_SURROGATE = re.compile("[\ud800-\udfff]")
#: containers ``plain_tree`` looks at before leaving a result to ``to_python``
_TREE_LIMIT = 100_000
_MAX_DEPTH = 5000  # (to_python's: a deeper result takes it, and its error)


def plain_tree(v: Any, text: bool = False, _type: Any = type, _str: Any = str, _dict: Any = dict, _list: Any = list,
               _int: Any = int, _known: Any = known_plain_keys, _plain: Any = plain_keys,
               _others: Any = _OTHER_LEAVES, _search: Any = _SURROGATE.search) -> bool:
    """Would ``to_python(v)`` return the list or dict ``v`` itself? True when every container
    in it is a plain list or a dict with plain keys (no integer-like key, which JS would
    enumerate first) and every leaf a string, boolean, null, undefined or safe integer.
    One loop over the tree, two levels at a time (an object's members are looked at where it
    is met: the usual list of small objects takes one pass), without a call per container:
    a native result often holds input objects, which have to be looked at, and
    ``to_python``'s recursion costs more than the look. With ``text``, a string must also
    hold no surrogate (which ``to_js`` would join into pairs). Each member costs one type
    test in the usual case (a string, a container), so the names it uses are locals; an int
    is tested against the compact range first (CPython 3.11 compares one-digit ints fastest)."""
    # (the defaults bind globals as locals: a local is the cheapest name to read per member)
    level = [v]
    depth = seen = 0
    while level:
        depth += 2
        seen += len(level)
        if depth > _MAX_DEPTH or seen > _TREE_LIMIT:
            return False
        below: list[Any] = []
        for x in level:
            t = _type(x)
            if t is _dict:
                if not (_known(x) or _plain(x)):
                    return False
                items: Any = x.values()
            elif t is _list:
                items = x
            else:
                return False
            for y in items:
                t = _type(y)
                if t is _str:
                    if text and not y.isascii() and _search(y):
                        return False
                elif t is _dict:
                    if not (_known(y) or _plain(y)):
                        return False
                    for z in y.values():
                        t = _type(z)
                        if t is _str:
                            if text and not z.isascii() and _search(z):
                                return False
                        elif t is _dict or t is _list:
                            below.append(z)
                        elif t not in _others and (t is not _int or not (-1073741823 <= z and z <= 1073741823 or -_SAFE <= z <= _SAFE)):
                            return False
                elif t is _list:
                    below.append(y)
                elif t not in _others and (t is not _int or not (-1073741823 <= y and y <= 1073741823 or -_SAFE <= y <= _SAFE)):
                    return False
        level = below
    return True


def whole_text(s: str) -> str:
    """``s`` when it holds no surrogate (text read as it is: a pair held as two code points
    is one character to the general tier, which gives it joined); else the general tier."""
    if _SURROGATE.search(s):
        raise Deopt
    return s


def upper_text(s: str) -> str:
    """``toUpperCase`` of text that is not ASCII, by the general tier's own mapping (V8's); text
    with surrogates (a pair held as two code points is one character in JS) or a long text
    takes the general tier."""
    return js_upper(whole_text(s) if len(s) <= MAX_TEXT else deopt())


def lower_text(s: str) -> str:
    """``toLowerCase`` of text that is not ASCII (see ``upper_text``)."""
    return js_lower(whole_text(s) if len(s) <= MAX_TEXT else deopt())


def copied_out(v: Any) -> Any:
    """A result that may hold parts of the caller's input the script did not copy (see
    ``compiler/native.py``, ``prologue``): returned as it is when converting those parts
    to JS and back would give them again (plain types, text without surrogates, keys no JS
    object reorders); anything else is left to the general tier."""
    t = type(v)
    if t is str:
        if v.isascii() or not _SURROGATE.search(v):
            return v
    elif t is dict or t is list:
        if plain_tree(v, True):
            return v
        if _copies_alike(v):
            return to_python(v)
    elif t is bool or v is None or v is UNDEFINED or (t is int and -_SAFE <= v <= _SAFE):
        return v
    elif t is int or t is float:
        return to_python(v)
    raise Deopt


def _copies_alike(v: list[Any] | dict[Any, Any]) -> bool:
    """Is ``to_python(v)`` what the general tier's copy of ``v`` (``to_js``, then
    ``to_python``) gives, though ``v`` is no plain tree? So when its containers are plain
    lists and dicts with string keys, and its leaves JSON's types with text that holds no
    surrogate: ``to_python`` then only puts integer-like keys (a ConfigMap's "10") in JS's
    order and numbers in their canonical form (8080.0 -> 8080, 2**53 + 2 -> a float), as the
    round trip through JS values does. Anything else (tuples, subclasses, other key types,
    surrogates, a tree past the walk's bound) is the general tier's."""
    level: list[Any] = [v]
    depth = seen = 0
    while level:
        depth += 1
        seen += len(level)
        if depth > _MAX_DEPTH or seen > _TREE_LIMIT:
            return False
        below: list[Any] = []
        for x in level:
            if type(x) is dict:
                for k in x:
                    if type(k) is not str or (not k.isascii() and _SURROGATE.search(k)):
                        return False
                items: Any = x.values()
            elif type(x) is list:
                items = x
            else:
                return False
            for y in items:
                t = type(y)
                if t is str:
                    if not y.isascii() and _SURROGATE.search(y):
                        return False
                elif t is dict or t is list:
                    below.append(y)
                elif not (t is bool or y is None or y is UNDEFINED or t is int or t is float):
                    return False
        level = below
    return True


def export(v: Any, bounded: bool = True) -> Any:
    """``to_python(v)`` for a native result (``TO_PYTHON``): a plain tree comes back as it
    is after one ``plain_tree`` look, and so does a plain scalar; anything else is converted.
    ``bounded`` (the native tier): a container that would take more than ``_TREE_LIMIT``
    visits to convert is left to the general tier, whose conversion runs under the wall-time
    watchdog (a script can share one array into itself, ``s = [s, s]`` in a loop, and such
    a result expands exponentially)."""
    t = type(v)
    if t is list:
        for x in v:  # first the usual flat result: leaves and small objects of leaves
            tx = type(x)
            if tx is str or tx is bool or x is None or x is UNDEFINED or (tx is int and (-1073741823 <= x and x <= 1073741823 or -_SAFE <= x <= _SAFE)):
                continue
            if tx is dict and len(x) <= 8 and known_plain_keys(x):
                for y in x.values():
                    if type(y) not in _LEAF_TYPES and (type(y) is not int or not (-1073741823 <= y and y <= 1073741823 or -_SAFE <= y <= _SAFE)):
                        break
                else:
                    continue
            break
        else:
            return v
        if plain_tree(v):
            return v
    elif t is dict:
        if len(v) <= 8 and known_plain_keys(v):  # the usual small object of leaves (labels, a selector)
            for x in v.values():
                if type(x) not in _LEAF_TYPES and (type(x) is not int or not (-1073741823 <= x and x <= 1073741823 or -_SAFE <= x <= _SAFE)):
                    break
            else:
                return v
        if plain_tree(v):
            return v
    elif t is int:
        if -_SAFE <= v <= _SAFE:
            return v
    elif t is bool or v is None or v is UNDEFINED:
        return v
    if bounded and (t is list or t is dict) and not _visits_within(v, _TREE_LIMIT):
        raise Deopt
    return to_python(v)


def _visits_within(v: list[Any] | dict[str, Any], limit: int) -> bool:
    """Would a walk of ``v`` visit at most ``limit`` members, counting a shared (or cyclic)
    list or dict once per place it stands?"""
    level: list[Any] = [v]
    seen = 0
    while level:
        below: list[Any] = []
        for x in level:
            items = x.values() if type(x) is dict else x
            seen += len(items)
            if seen > limit:
                return False
            below.extend(y for y in items if type(y) is dict or type(y) is list)
        level = below
    return True


# -- natcover2: collated sorts, regex match groups, URI components, parseInt of a radix --------
def sort_collated(items: list[Any], key: str | int | None, descending: bool) -> list[Any]:
    """``sort((a, b) => a.localeCompare(b))`` (``b.localeCompare(a)``, ``a.k.localeCompare(b.k)``)
    of strings without surrogates (which the general tier would join into pairs): by the root
    collation key its localeCompare compares; equal keys keep their order (both sorts are stable,
    and ``reverse`` keeps the order of equals too)."""
    values = _sort_keys(items, key)
    for x in values:
        if type(x) is not str or not x.isascii() and _SURROGATE.search(x):
            raise Deopt
    order = sorted(range(len(items)), key=lambda i: collation_key(values[i]), reverse=descending)
    return [items[i] for i in order]


def match_group(rx: LazyRegex, limit: int, s: Any, index: int, optional: bool) -> Any:
    """``s.match(rx)[index]`` (``?.[index]`` when ``optional``) of a regex without the g flag
    and without captures inside a repeated group (which JS resets on each repetition): the
    group's text, undefined for a group that took no part or past the last; no match is a
    TypeError (the general tier's) or, optionally, undefined."""
    if type(s) is not str or len(s) > limit or not s.isascii():
        raise Deopt
    m = (rx.compiled or rx.get()).search(s)
    if m is None:
        if optional:
            return UNDEFINED
        raise Deopt
    if index > (m.re.groups or 0):
        return UNDEFINED
    group = m.group(index)
    return UNDEFINED if group is None else group


def match_array(rx: LazyRegex, limit: int, s: Any) -> list[Any] | None:
    """The groups of ``s.match(rx)`` (no g flag, no capture in a repeated group): a list with
    undefined for a group that took no part, or null when nothing matches."""
    if type(s) is not str or len(s) > limit or not s.isascii():
        raise Deopt
    m = (rx.compiled or rx.get()).search(s)
    if m is None:
        return None
    return [UNDEFINED if g is None else g for g in (m.group(0), *m.groups())]


def uri_encode_component(s: Any) -> str:
    """``encodeURIComponent`` of a string: its UTF-8 bytes, each outside the unreserved set
    as ``%XX``, by one C-level ``translate`` of the bytes read as Latin-1 (what the general
    tier's unit loop gives; text that UTF-8 cannot hold, a surrogate, is the general tier's:
    a lone one is its URIError, a pair written as two halves its one character)."""
    if type(s) is not str or len(s) > MAX_TEXT:
        raise Deopt
    if s.isascii():
        return s.translate(_URI_COMPONENT_ESCAPES)
    try:
        return s.encode("utf-8").decode("latin-1").translate(_URI_COMPONENT_ESCAPES)
    except UnicodeEncodeError:
        raise Deopt from None


#: byte (as a Latin-1 character) -> its escape, for every byte ``encodeURIComponent`` escapes
_URI_COMPONENT_ESCAPES = {b: f"%{b:02X}" for b in range(256)
                          if not (chr(b).isascii() and (chr(b).isalnum() or chr(b) in "-_.!~*'()"))}


def uri_decode_component(s: Any) -> str:
    """``decodeURIComponent`` of ASCII text: every escape well formed (checked by one regex),
    the bytes decoded as strict UTF-8, which refuses what the standard's Decode refuses
    (overlong forms, encoded surrogates, code points past U+10FFFF, a cut sequence); any
    refusal is the general tier's URIError, and text that is not ASCII the general tier puts
    in canonical form first."""
    if type(s) is not str or len(s) > MAX_TEXT or not s.isascii():
        raise Deopt
    if "%" not in s:
        return s
    if _WELL_FORMED_ESCAPES.fullmatch(s) is None:
        raise Deopt
    try:
        return unquote_to_bytes(s).decode("utf-8")
    except UnicodeDecodeError:
        raise Deopt from None


_WELL_FORMED_ESCAPES = re.compile("[^%]*(?:%[0-9A-Fa-f]{2}[^%]*)*")


def parse_int_radix(v: Any, radix: int) -> int:
    """``parseInt(v, radix)`` of a string, by the standard library's routine, when the answer
    is a safe integer other than -0 (NaN, -0 and larger numbers are the general tier's)."""
    if type(v) is not str:
        raise Deopt
    n = js_parse_int(v, radix)
    if type(n) is not int or not -_SAFE <= n <= _SAFE:
        raise Deopt
    return n


_LEAF_TYPES = frozenset([str, bool, type(None), type(UNDEFINED)])
_LEAF_OR_INT_TYPES = _LEAF_TYPES | {int}


def _helpers() -> dict[str, Any]:
    from .convert import to_boolean
    from .interop import _PLAIN_LEAVES, _small_plain, shallow_to_js, to_js
    from .ops import typeof

    return {
        "UNDEFINED": UNDEFINED, "DEOPT": deopt, "PLAIN_TRUTH": PLAIN_TRUTH, "PLAIN_LEAVES": _PLAIN_LEAVES,
        "JS_TRUTHY": to_boolean, "MAX_ITEMS": MAX_ITEMS, "MAX_TEXT": MAX_TEXT, "B2A": binascii.b2a_base64,
        "A2B": binascii.a2b_base64, "ATOB": base64_text,
        "JSON_STRING": json_string, "JSON_SCALAR": json_scalar, "VDNS": virtual_to_host_dns, "REGEX_SUB": regex_sub, "REGEX_TEST": regex_test,
        "TO_PYTHON": export, "DICT_OUT": _dict_to_python, "SMALL_PLAIN": _small_plain, "CONCAT": concat, "KNOWN_KEYS": known_plain_keys,
        "PLAIN_KEYS": plain_keys, "SHALLOW": shallow_to_js,
        "TO_JS": to_js, "TYPEOF": typeof, "ADD": add, "SIZED": frozenset([str, list, dict]),
        "PROTO_NAMES": PROTO_NAMES, "STRING_OF": string_of, "ADD_TEXT": add_text, "NUMBER_OF": number_of,
        "PARSE_INT": parse_int, "PARSE_FLOAT": parse_float, "IS_INTEGER": is_integer, "DIVIDE": divide, "REMAINDER": remainder,
        "RADIX_STRING": radix_string, "TO_FIXED": to_fixed, "INT32": int32, "FLATTEN": flatten, "FLAT_ONE": flat_one,
        "INCLUDES": includes, "CONCAT_ARRAYS": concat_arrays, "INDEX_OF": index_of, "SORT_DEFAULT": sort_default, "SORT_STRINGS": sort_strings, "SORT_NUMBERS": sort_numbers,
        "UNIQUE": unique, "SORTED_UNIQUE": sorted_unique, "JS_KEYS": js_keys, "ASSIGN_ALL": assign_all,
        "UPPER_TEXT": upper_text, "LOWER_TEXT": lower_text, "WHOLE_TEXT": whole_text, "JS_ITEMS": js_items, "HAS_PROPERTY": has_property, "ARRAY_NAMES": ARRAY_PROTO_NAMES, "JSON_PARSE": json_parse,
        "JSON_TEXT": json_text, "STRICT_EQUALS": strict_equals, "JOIN": join, "FLOOR": floor,
        "CEIL": ceil, "ROUND": round_half_up, "TRUNC": truncate, "ABS": absolute, "DICT_OUT_KEYS": dict_out, "COPIED_OUT": copied_out,
        "SPREAD_OUT": spread_out, "KEYS_OUT": keys_out,
        "SORT_COLLATED": sort_collated, "MATCH_GROUP": match_group, "URI_ENCODE": uri_encode_component,
        "URI_DECODE": uri_decode_component, "PARSE_INT_RADIX": parse_int_radix, "REGEX_SPLIT": regex_split,
        "MATCH_ARRAY": match_array,
        "SORTED_KEYS": sorted_keys, "KNOWN_ASCII_KEYS": known_ascii_keys, "NUMBER_TYPES": _NUMBERS,
        "UNEQUAL_TEXT": unequal_text, "UNEQUAL_NUMBER": unequal_number, "NOT_ARRAY": not_array,
        "STR_KEYS": str_keys,
        "NUMBER_VALUE": number_value, "ADD_NUMBERS": add_numbers, "SUBTRACT_NUMBERS": subtract_numbers,
        "MULTIPLY_NUMBERS": multiply_numbers, "DIVIDE_NUMBERS": divide_numbers, "SORT_ORDERED": sort_ordered,
        "REGEX_SUB_EXPANDED": regex_sub_expanded, "REGEX_MATCHES": regex_matches, "REGEX_STITCH": regex_stitch,
        # a member of a dict or of a dict subclass's own storage (no override is called),
        # anything else refused with TypeError (compiler/native.py dict_get)
        "DICT_GET": dict.get,
    }


#: the names native code uses besides builtins (an artifact imports them from this module)
HELPERS: dict[str, Any] = _helpers()
globals().update(HELPERS)
#: the builtins native code uses (an in-process namespace has no others)
BUILTINS: dict[str, Any] = {
    "type": type, "len": len, "dict": dict, "list": list, "str": str, "int": int, "enumerate": enumerate,
    "Exception": Exception, "any": any, "all": all, "min": min, "tuple": tuple, "bool": bool, "next": next,
    "max": max, "map": map, "range": range, "sorted": sorted, "zip": zip, "reversed": reversed, "ord": ord, "id": id,
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
