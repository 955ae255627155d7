"""URI handling functions (ECMA-262 19.2.6) and Annex B escape/unescape (B.2.1).

Encoding works on the UTF-16 unit form so that a lone surrogate is seen as such (URIError
"URI malformed", as V8 says); decoding validates UTF-8 strictly (no overlongs, no encoded
surrogates, nothing above U+10FFFF).
"""

from __future__ import annotations

from typing import Any

from ..convert import to_string
from ..realm import current_realm
from ..strings import from_units, has_astral, to_units
from ..values import UNDEFINED, uri_error
from .registry import GLOBALS, native

__all__ = ["encode_uri_component", "encode_uri", "decode_uri_component", "decode_uri", "escape", "unescape"]

_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_UNRESERVED_MARKS = "-_.!~*'()"
_RESERVED = ";/?:@&=+$,"
_COMPONENT_SAFE = frozenset(_ALNUM + _UNRESERVED_MARKS)
_URI_SAFE = frozenset(_ALNUM + _UNRESERVED_MARKS + _RESERVED + "#")
_DECODE_KEEP_URI = frozenset(_RESERVED + "#")
_ESCAPE_SAFE = frozenset(_ALNUM + "@*_+-./")
_HEX = "0123456789abcdefABCDEF"


def _units(s: str) -> str:
    return s if s.isascii() or not has_astral(s) else to_units(s)


def _encode(s: str, safe: frozenset[str]) -> str:
    """Encode (19.2.6.5.1)."""
    if all(c in safe for c in s):
        return s
    u = _units(s)
    out: list[str] = []
    i = 0
    n = len(u)
    realm = current_realm()
    while i < n:
        c = u[i]
        if c in safe:
            out.append(c)
            i += 1
            continue
        realm.charge(1)  # long inputs: the step budget, and the wall-time check it makes
        cp = ord(c)
        if 0xDC00 <= cp <= 0xDFFF:
            raise uri_error("URI malformed")
        if 0xD800 <= cp <= 0xDBFF:
            if i + 1 >= n or not 0xDC00 <= ord(u[i + 1]) <= 0xDFFF:
                raise uri_error("URI malformed")
            cp = 0x10000 + ((cp - 0xD800) << 10) + (ord(u[i + 1]) - 0xDC00)
            i += 1
        out.append("".join(f"%{b:02X}" for b in chr(cp).encode("utf-8")))
        i += 1
    current_realm().check_string(sum(len(p) for p in out))
    return "".join(out)


def _hex_byte(u: str, k: int) -> int:
    if k + 2 >= len(u) or u[k] != "%" or u[k + 1] not in _HEX or u[k + 2] not in _HEX:
        raise uri_error("URI malformed")
    return int(u[k + 1 : k + 3], 16)


def _utf8_length(b: int) -> int:
    if b & 0xE0 == 0xC0:
        return 2
    if b & 0xF0 == 0xE0:
        return 3
    if b & 0xF8 == 0xF0:
        return 4
    raise uri_error("URI malformed")


def _decode(s: str, keep: frozenset[str]) -> str:
    """Decode (19.2.6.5.2)."""
    if "%" not in s:
        return s
    u = _units(s)
    out: list[str] = []
    k = 0
    n = len(u)
    while k < n:
        c = u[k]
        if c != "%":
            out.append(c)
            k += 1
            continue
        start = k
        b = _hex_byte(u, k)
        k += 3
        if b < 0x80:
            ch = chr(b)
            out.append(u[start:k] if ch in keep else ch)
            continue
        length = _utf8_length(b)
        octets = [b]
        for _ in range(length - 1):
            octets.append(_hex_byte(u, k))
            k += 3
        try:
            text = bytes(octets).decode("utf-8")
        except UnicodeDecodeError:
            raise uri_error("URI malformed") from None
        out.append(text)
    result = "".join(out)
    return result if result.isascii() else from_units(result)


def encode_uri_component(this: Any, value: Any = UNDEFINED, *_: Any) -> str:
    """encodeURIComponent (19.2.6.4)."""
    return _encode(to_string(value), _COMPONENT_SAFE)


def encode_uri(this: Any, value: Any = UNDEFINED, *_: Any) -> str:
    """encodeURI (19.2.6.3)."""
    return _encode(to_string(value), _URI_SAFE)


def decode_uri_component(this: Any, value: Any = UNDEFINED, *_: Any) -> str:
    """decodeURIComponent (19.2.6.2)."""
    return _decode(to_string(value), frozenset())


def decode_uri(this: Any, value: Any = UNDEFINED, *_: Any) -> str:
    """decodeURI (19.2.6.1): escapes of reserved characters and '#' stay escaped."""
    return _decode(to_string(value), _DECODE_KEEP_URI)


def escape(this: Any, value: Any = UNDEFINED, *_: Any) -> str:
    """escape (B.2.1.1): %XX below 256, %uXXXX above, per UTF-16 code unit."""
    s = to_string(value)
    out: list[str] = []
    for c in _units(s):
        if c in _ESCAPE_SAFE:
            out.append(c)
        elif ord(c) < 256:
            out.append(f"%{ord(c):02X}")
        else:
            out.append(f"%u{ord(c):04X}")
    current_realm().check_string(sum(len(p) for p in out))  # up to sixfold the input
    return "".join(out)


def unescape(this: Any, value: Any = UNDEFINED, *_: Any) -> str:
    """unescape (B.2.1.2): %uXXXX and %XX are decoded, anything else is kept."""
    s = to_string(value)
    if "%" not in s:
        return s
    u = _units(s)
    out: list[str] = []
    k = 0
    n = len(u)
    while k < n:
        c = u[k]
        if c == "%":
            h4 = u[k + 2 : k + 6]
            if u[k + 1 : k + 2] == "u" and len(h4) == 4 and all(x in _HEX for x in h4):
                out.append(chr(int(h4, 16)))
                k += 6
                continue
            h2 = u[k + 1 : k + 3]
            if len(h2) == 2 and all(x in _HEX for x in h2):
                out.append(chr(int(h2, 16)))
                k += 3
                continue
        out.append(c)
        k += 1
    result = "".join(out)
    return result if result.isascii() else from_units(result)


for _name, _fn in (
    ("encodeURIComponent", encode_uri_component),
    ("encodeURI", encode_uri),
    ("decodeURIComponent", decode_uri_component),
    ("decodeURI", decode_uri),
    ("escape", escape),
    ("unescape", unescape),
):
    GLOBALS[_name] = native(_fn, _name, 1)
