"""The String global and String.prototype (ECMA-262 22.1).

Every index is a UTF-16 code-unit index: methods work on the *unit form* of a string
(``strings.to_units``) and turn results back into canonical form with ``from_units``. For
BMP-only strings both forms are the same object, so the common case pays nothing.

The regex-based methods (match, matchAll, replace, replaceAll, search, split) live in
``string_regex.py``; localeCompare in ``collation.py``.
"""

from __future__ import annotations

import math
import re
from typing import Any, cast

from ..convert import (
    JS_WHITESPACE,
    to_integer_or_infinity,
    to_length,
    to_number,
    to_string,
    to_uint16,
)
from ..realm import current_realm
from ..strings import from_units, has_astral, js_len, to_units
from ..properties import ALL, E
from ..values import MISSING, UNDEFINED, JSIterator, JSSymbol, range_error, type_error
from .registry import GLOBALS, STRING_PROTO, method, native
from .string_case import js_lower, js_upper
from .string_normalize import js_normalize
from ..well_known import SYMBOL_ITERATOR

__all__ = ["this_string", "units_of", "is_regexp", "string_ctor", "StringObject"]


def this_string(this: Any, name: str) -> str:
    """RequireObjectCoercible(this) then ToString, with V8's message."""
    if type(this) is str:
        return this
    if this is None or this is UNDEFINED:
        raise type_error(f"String.prototype.{name} called on null or undefined")
    if isinstance(this, StringObject):
        return this.value
    return to_string(this)


def units_of(s: str) -> str:
    """The unit form (one character per UTF-16 code unit); ``s`` itself when BMP-only."""
    return s if s.isascii() or not has_astral(s) else to_units(s)


def _canon(u: str) -> str:
    """Unit form -> canonical form (join surrogate pairs)."""
    return u if u.isascii() else from_units(u)


def is_regexp(v: Any) -> bool:
    """IsRegExp (7.2.8) for our value model: only RegExp objects qualify."""
    t = type(v)
    if t is str or t is int or t is float or t is bool or v is None or v is UNDEFINED:
        return False  # primitives: no import on the hot path (startsWith, includes, ...)
    from .regexp import JSRegExp

    return isinstance(v, JSRegExp)


def _clamp(v: Any, length: int, default: int) -> int:
    """ToIntegerOrInfinity then clamp to 0..length (undefined -> default)."""
    if v is UNDEFINED:
        return default
    n = to_integer_or_infinity(v)
    return int(min(max(n, 0), length))


def _relative(v: Any, length: int, default: int) -> int:
    """A relative index (negative counts from the end), clamped to 0..length."""
    if v is UNDEFINED:
        return default
    n = to_integer_or_infinity(v)
    if n < 0:
        return int(max(length + n, 0))
    return int(min(n, length))


# --- access ---------------------------------------------------------------------------------

@method(STRING_PROTO, "at", 1)
def string_at(this: Any, index: Any = UNDEFINED, *_: Any) -> Any:
    """String.prototype.at (22.1.3.1)."""
    u = units_of(this_string(this, "at"))
    rel = to_integer_or_infinity(index)
    k = rel if rel >= 0 else len(u) + rel
    if k < 0 or k >= len(u):
        return UNDEFINED
    return u[int(k)]


@method(STRING_PROTO, "charAt", 1)
def string_char_at(this: Any, pos: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.charAt (22.1.3.2)."""
    u = units_of(this_string(this, "charAt"))
    k = to_integer_or_infinity(pos)
    return u[int(k)] if 0 <= k < len(u) else ""


@method(STRING_PROTO, "charCodeAt", 1)
def string_char_code_at(this: Any, pos: Any = UNDEFINED, *_: Any) -> Any:
    """String.prototype.charCodeAt (22.1.3.3)."""
    u = units_of(this_string(this, "charCodeAt"))
    k = to_integer_or_infinity(pos)
    return ord(u[int(k)]) if 0 <= k < len(u) else math.nan


@method(STRING_PROTO, "codePointAt", 1)
def string_code_point_at(this: Any, pos: Any = UNDEFINED, *_: Any) -> Any:
    """String.prototype.codePointAt (22.1.3.4): a lead surrogate followed by a trail one
    gives the pair's code point; a lone half gives itself."""
    u = units_of(this_string(this, "codePointAt"))
    k = to_integer_or_infinity(pos)
    if not 0 <= k < len(u):
        return UNDEFINED
    k = int(k)
    c = ord(u[k])
    if 0xD800 <= c <= 0xDBFF and k + 1 < len(u) and 0xDC00 <= ord(u[k + 1]) <= 0xDFFF:
        return 0x10000 + ((c - 0xD800) << 10) + (ord(u[k + 1]) - 0xDC00)
    return c


@method(STRING_PROTO, "concat", 1)
def string_concat(this: Any, *args: Any) -> str:
    """String.prototype.concat (22.1.3.5)."""
    parts = [this_string(this, "concat")] + [to_string(a) for a in args]
    total = sum(len(p) for p in parts)
    current_realm().check_string(total)
    out = "".join(parts)
    return out if out.isascii() else from_units(out)


def _search_arg(v: Any, name: str) -> str:
    if type(v) is str:
        return v
    if is_regexp(v):
        raise type_error(f"First argument to String.prototype.{name} must not be a regular expression")
    return to_string(v)


@method(STRING_PROTO, "endsWith", 1)
def string_ends_with(this: Any, search: Any = UNDEFINED, end_position: Any = UNDEFINED, *_: Any) -> bool:
    """String.prototype.endsWith (22.1.3.7)."""
    u = units_of(this_string(this, "endsWith"))
    needle = units_of(_search_arg(search, "endsWith"))
    end = _clamp(end_position, len(u), len(u))
    start = end - len(needle)
    return start >= 0 and u[start:end] == needle


@method(STRING_PROTO, "includes", 1)
def string_includes(this: Any, search: Any = UNDEFINED, position: Any = UNDEFINED, *_: Any) -> bool:
    """String.prototype.includes (22.1.3.8)."""
    u = units_of(this_string(this, "includes"))
    needle = units_of(_search_arg(search, "includes"))
    return u.find(needle, _clamp(position, len(u), 0)) >= 0


@method(STRING_PROTO, "indexOf", 1)
def string_index_of(this: Any, search: Any = UNDEFINED, position: Any = UNDEFINED, *_: Any) -> int:
    """String.prototype.indexOf (22.1.3.9)."""
    u = units_of(this_string(this, "indexOf"))
    needle = units_of(to_string(search))
    return u.find(needle, _clamp(position, len(u), 0))


@method(STRING_PROTO, "lastIndexOf", 1)
def string_last_index_of(this: Any, search: Any = UNDEFINED, position: Any = UNDEFINED, *_: Any) -> int:
    """String.prototype.lastIndexOf (22.1.3.11): NaN position means +Infinity."""
    u = units_of(this_string(this, "lastIndexOf"))
    needle = units_of(to_string(search))
    num = to_number(position)
    pos = math.inf if num != num else to_integer_or_infinity(num)
    start = int(min(max(pos, 0), len(u)))
    return u.rfind(needle, 0, start + len(needle))


@method(STRING_PROTO, "startsWith", 1)
def string_starts_with(this: Any, search: Any = UNDEFINED, position: Any = UNDEFINED, *_: Any) -> bool:
    """String.prototype.startsWith (22.1.3.23)."""
    if type(this) is str and type(search) is str and position is UNDEFINED and this.isascii():
        return this.startswith(search)
    u = units_of(this_string(this, "startsWith"))
    needle = units_of(_search_arg(search, "startsWith"))
    start = _clamp(position, len(u), 0)
    return u.startswith(needle, start)


# --- slicing --------------------------------------------------------------------------------

@method(STRING_PROTO, "slice", 2)
def string_slice(this: Any, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.slice (22.1.3.22)."""
    if type(this) is str and type(start) is int and end is UNDEFINED and this.isascii():
        return this[start:] if start >= 0 or -start <= len(this) else this
    u = units_of(this_string(this, "slice"))
    a = _relative(start, len(u), 0)
    b = _relative(end, len(u), len(u))
    return _canon(u[a:b]) if a < b else ""


@method(STRING_PROTO, "substring", 2)
def string_substring(this: Any, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.substring (22.1.3.25): bounds clamp, then swap if reversed."""
    u = units_of(this_string(this, "substring"))
    a = _clamp(start, len(u), 0)
    b = _clamp(end, len(u), len(u))
    if a > b:
        a, b = b, a
    return _canon(u[a:b])


@method(STRING_PROTO, "substr", 2)
def string_substr(this: Any, start: Any = UNDEFINED, length: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.substr (B.2.2.1)."""
    u = units_of(this_string(this, "substr"))
    a = _relative(start, len(u), 0)
    n = len(u) - a if length is UNDEFINED else to_integer_or_infinity(length)
    b = int(min(a + max(n, 0), len(u)))
    return _canon(u[a:b]) if a < b else ""


# --- padding, repeating, trimming --------------------------------------------------------

def _pad(this: Any, max_length: Any, fill: Any, name: str, at_start: bool) -> str:
    """StringPad (22.1.3.17.2)."""
    s = this_string(this, name)
    u = units_of(s)
    target = to_length(max_length)
    if target <= len(u):
        return s
    filler = " " if fill is UNDEFINED else units_of(to_string(fill))
    if not filler:
        return s
    current_realm().check_string(target)
    need = target - len(u)
    pad = (filler * (need // len(filler) + 1))[:need]
    return _canon(pad + u if at_start else u + pad)


@method(STRING_PROTO, "padStart", 1)
def string_pad_start(this: Any, max_length: Any = UNDEFINED, fill: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.padStart (22.1.3.17)."""
    return _pad(this, max_length, fill, "padStart", True)


@method(STRING_PROTO, "padEnd", 1)
def string_pad_end(this: Any, max_length: Any = UNDEFINED, fill: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.padEnd (22.1.3.16)."""
    return _pad(this, max_length, fill, "padEnd", False)


@method(STRING_PROTO, "repeat", 1)
def string_repeat(this: Any, count: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.repeat (22.1.3.18)."""
    s = this_string(this, "repeat")
    n = to_integer_or_infinity(count)
    if n < 0 or n == math.inf:
        raise range_error(f"Invalid count value: {to_string(to_number(count))}")
    if n == 0 or not s:
        return ""
    u = units_of(s)
    current_realm().check_string(len(u) * int(n))
    return _canon(u * int(n)) if not s.isascii() else s * int(n)


@method(STRING_PROTO, "trim", 0)
def string_trim(this: Any, *_: Any) -> str:
    """String.prototype.trim (22.1.3.32): JS WhiteSpace and LineTerminator only."""
    return this_string(this, "trim").strip(JS_WHITESPACE)


@method(STRING_PROTO, "trimStart", 0)
def string_trim_start(this: Any, *_: Any) -> str:
    """String.prototype.trimStart (22.1.3.34)."""
    return this_string(this, "trimStart").lstrip(JS_WHITESPACE)


@method(STRING_PROTO, "trimEnd", 0)
def string_trim_end(this: Any, *_: Any) -> str:
    """String.prototype.trimEnd (22.1.3.33)."""
    return this_string(this, "trimEnd").rstrip(JS_WHITESPACE)


STRING_PROTO["trimLeft"] = native(string_trim_start, "trimStart", 0)
STRING_PROTO["trimRight"] = native(string_trim_end, "trimEnd", 0)


# --- case and form ------------------------------------------------------------------------

@method(STRING_PROTO, "toLowerCase", 0)
def string_to_lower_case(this: Any, *_: Any) -> str:
    """String.prototype.toLowerCase (22.1.3.28): full Unicode mappings incl. SpecialCasing
    and Final_Sigma, as V8 (ICU) does (see string_case.py)."""
    if type(this) is str and this.isascii():
        return this.lower()
    return _grown_checked(js_lower(this_string(this, "toLowerCase")), this)


@method(STRING_PROTO, "toUpperCase", 0)
def string_to_upper_case(this: Any, *_: Any) -> str:
    """String.prototype.toUpperCase (22.1.3.30)."""
    if type(this) is str and this.isascii():
        return this.upper()
    return _grown_checked(js_upper(this_string(this, "toUpperCase")), this)


def _grown_checked(mapped: str, before: Any) -> str:
    """A case mapping can lengthen a string up to threefold ('ß' -> 'SS', 'ΐ' -> three), so a
    result longer than its input meets the string budget like any other built string."""
    if type(before) is not str or len(mapped) > len(before):
        current_realm().check_string(js_len(mapped))
    return mapped


_LANGUAGE_TAG = re.compile(
    r"(?:[a-z]{2,3}|[a-z]{5,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*"
    r"(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?",
    re.IGNORECASE,
)


def requested_locales(locales: Any) -> list[str]:
    """CanonicalizeLocaleList (ECMA-402 9.2.1), structurally: the language tags asked for,
    with V8's errors for malformed ones. Only the language subtag is used afterwards."""
    if locales is UNDEFINED:
        return []
    if locales is None:
        raise type_error("Cannot convert undefined or null to object")
    items = [locales] if type(locales) is str else locales if isinstance(locales, list) else []
    tags = []
    for tag in items:
        if type(tag) is not str:
            raise type_error("Language ID should be string or object.")
        if not _LANGUAGE_TAG.fullmatch(tag):
            if re.fullmatch(_LANGUAGE_TAG.pattern + r"(?:-[a-z0-9])?-?", tag, re.IGNORECASE):
                raise range_error(f"Invalid language tag: {tag.lower()}")
            raise range_error("Incorrect locale information provided")
        tags.append(tag)
    return tags


def _locale_lang(locales: Any) -> str:
    tags = requested_locales(locales)
    return tags[0].split("-")[0].lower() if tags else ""


@method(STRING_PROTO, "toLocaleLowerCase", 0)
def string_to_locale_lower_case(this: Any, locales: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.toLocaleLowerCase (22.1.3.26); Turkish/Azeri dotted-I rules."""
    s = this_string(this, "toLocaleLowerCase")
    if _locale_lang(locales) in ("tr", "az"):
        s = s.replace("I\u0307", "i").replace("\u0130", "i").replace("I", "\u0131")
    return _grown_checked(js_lower(s), s)


@method(STRING_PROTO, "toLocaleUpperCase", 0)
def string_to_locale_upper_case(this: Any, locales: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.toLocaleUpperCase (22.1.3.27); Turkish/Azeri dotted-i rules."""
    s = this_string(this, "toLocaleUpperCase")
    if _locale_lang(locales) in ("tr", "az"):
        s = s.replace("i", "\u0130")
    return _grown_checked(js_upper(s), s)


_FORMS = ("NFC", "NFD", "NFKC", "NFKD")


@method(STRING_PROTO, "normalize", 0)
def string_normalize(this: Any, form: Any = UNDEFINED, *_: Any) -> str:
    """String.prototype.normalize (22.1.3.15)."""
    s = this_string(this, "normalize")
    f = "NFC" if form is UNDEFINED else to_string(form)
    if f not in _FORMS:
        raise range_error("The normalization form should be one of NFC, NFD, NFKC, NFKD.")
    if len(s) > 4096 and not s.isascii():  # (ASCII text is its own normal form, at C speed)
        current_realm().bulk(4 * len(s))  # decomposition and recomposition: a few passes a character
    return js_normalize(s, f)


def _lone_surrogates(s: str) -> bool:
    return not s.isascii() and any("\ud800" <= c <= "\udfff" for c in s)


@method(STRING_PROTO, "isWellFormed", 0)
def string_is_well_formed(this: Any, *_: Any) -> bool:
    """String.prototype.isWellFormed (22.1.3.10): no lone surrogates (canonical form joins
    every pair, so any surrogate left is lone)."""
    return not _lone_surrogates(this_string(this, "isWellFormed"))


@method(STRING_PROTO, "toWellFormed", 0)
def string_to_well_formed(this: Any, *_: Any) -> str:
    """String.prototype.toWellFormed (22.1.3.31): lone surrogates become U+FFFD."""
    s = this_string(this, "toWellFormed")
    if not _lone_surrogates(s):
        return s
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in s)


def _this_string_value(this: Any, name: str) -> str:
    """thisStringValue (22.1.3.35.1)."""
    if type(this) is str:
        return this
    if isinstance(this, StringObject):
        return this.value
    raise type_error(f"String.prototype.{name} requires that 'this' be a String")


@method(STRING_PROTO, "toString", 0)
def string_to_string(this: Any, *_: Any) -> str:
    """String.prototype.toString (22.1.3.29)."""
    return _this_string_value(this, "toString")


@method(STRING_PROTO, "valueOf", 0)
def string_value_of(this: Any, *_: Any) -> str:
    """String.prototype.valueOf (22.1.3.35)."""
    return _this_string_value(this, "valueOf")


# --- the String constructor and its statics ---------------------------------------------

class StringObject:
    """A String wrapper object (``new String("ab")``): ``length`` and index properties."""

    __slots__ = ("value", "props")
    JS_CLASS = "String"
    JS_PROTO = STRING_PROTO

    def __init__(self, value: str) -> None:
        self.value = value
        self.props: dict[str, Any] = {}

    def js_get_own(self, key: Any) -> Any:
        u = units_of(self.value)
        if key == "length":
            return len(u)
        if type(key) is str and key.isdigit() and (key == "0" or key[0] != "0") and int(key) < len(u):
            return u[int(key)]
        return self.props.get(key, MISSING)

    def js_set_own(self, key: Any, value: Any) -> bool:
        if key == "length" or (type(key) is str and key.isdigit() and int(key) < len(units_of(self.value))):
            return False  # read-only (10.4.3): a strict write throws
        self.props[key] = value
        return True

    def js_own_keys(self) -> list[str]:
        return [str(i) for i in range(len(units_of(self.value)))] + list(self.props)

    def js_all_keys(self) -> list[Any]:
        return [str(i) for i in range(len(units_of(self.value)))] + ["length"] + list(self.props)

    def js_default_flags(self, key: Any) -> int:
        """The string's indexes are read-only and enumerable, ``length`` read-only and hidden
        (10.4.3.5 StringGetOwnProperty, 10.4.3.4 StringCreate)."""
        if key == "length":
            return 0
        if key not in self.props and self.js_get_own(key) is not MISSING:
            return E
        return ALL


def string_ctor(this: Any, *args: Any) -> str:
    """String(value) called as a function (22.1.1.1): a Symbol gives its description."""
    if not args:
        return ""
    v = args[0]
    t = type(v)
    if t is str:  # (to_string's commonest answers, without its call)
        return v  # type: ignore[no-any-return]
    if t is int and -9007199254740992 <= v <= 9007199254740992:  # a safe integer's digits
        return str(v)
    if v is None:
        return "null"
    if t is JSSymbol:
        d = "" if v.description is UNDEFINED else to_string(v.description)
        return f"Symbol({d})"
    return to_string(v)


def string_construct(*args: Any) -> StringObject:
    """``new String(value)`` (22.1.1.1)."""
    return StringObject(to_string(args[0]) if args else "")


def string_from_char_code(this: Any, *codes: Any) -> str:
    """String.fromCharCode (22.1.2.1)."""
    return _canon("".join(chr(to_uint16(c)) for c in codes))


def string_from_code_point(this: Any, *cps: Any) -> str:
    """String.fromCodePoint (22.1.2.2)."""
    out = []
    for c in cps:
        n = to_number(c)
        if n != n or n in (math.inf, -math.inf) or n != int(n) or not 0 <= n <= 0x10FFFF:
            raise range_error(f"Invalid code point {to_string(n)}")
        out.append(chr(int(n)))
    return _canon("".join(out))


def _get(obj: Any, key: str) -> Any:
    from ..members import get_member  # the core's member dispatch (late: avoids a cycle)

    return get_member(obj, key)


def string_raw(this: Any, template: Any = UNDEFINED, *subs: Any) -> str:
    """String.raw (22.1.2.4)."""
    if template is None or template is UNDEFINED:
        raise type_error("Cannot convert undefined or null to object")
    raw = _get(template, "raw")
    if raw is None or raw is UNDEFINED:
        raise type_error("Cannot convert undefined or null to object")
    n = to_length(_get(raw, "length"))
    out: list[str] = []
    for i in range(n):
        out.append(units_of(to_string(_get(raw, str(i)))))
        if i + 1 < n and i < len(subs):
            out.append(units_of(to_string(subs[i])))
    return _canon("".join(out))


GLOBALS["String"] = native(
    string_ctor,
    "String",
    1,
    construct=string_construct,
    props={
        "fromCharCode": native(string_from_char_code, "fromCharCode", 1),
        "fromCodePoint": native(string_from_code_point, "fromCodePoint", 1),
        "raw": native(string_raw, "raw", 1),
    },
)

def string_iterator(this: Any, *_: Any) -> JSIterator:
    """String.prototype[Symbol.iterator] (22.1.3.36): code points (lone surrogates alone)."""
    return JSIterator(iter(this_string(this, "[Symbol.iterator]")), "String Iterator")


cast("dict[Any, Any]", STRING_PROTO)[SYMBOL_ITERATOR] = native(string_iterator, "[Symbol.iterator]", 0)
