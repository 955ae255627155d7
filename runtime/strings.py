"""JS strings are UTF-16; Python strings are code points. How we bridge the two.

A JS string is held as a Python ``str`` in *canonical form*: every valid surrogate pair is
joined into one astral code point, and lone surrogates stay as they are. So JSON-like input
needs no conversion, and equality/hashing of JS strings is Python's.

UTF-16 semantics (``length``, indexes, ``charCodeAt``, non-``u`` regexes) are computed on the
*unit form*: the same text with every astral code point split into its two surrogates. For
BMP-only text (the common case; ``str.isascii()`` is the fast check) both forms are the same
string, so methods take the fast path.

Invariant every producer of strings must keep: never return a string in which a high
surrogate is directly followed by a low surrogate. Concatenation is the main place where two
halves can meet; use ``concat``/``join_units`` rather than ``+`` unless one side is known not
to start/end with a surrogate.
"""

from __future__ import annotations

import re

__all__ = [
    "has_astral",
    "to_units",
    "from_units",
    "js_len",
    "concat",
    "unit_at",
    "code_unit",
    "is_canonical",
]

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def _split_astral(m: re.Match[str]) -> str:
    o = ord(m.group()) - 0x10000
    return chr(0xD800 + (o >> 10)) + chr(0xDC00 + (o & 0x3FF))


def _join_pair(m: re.Match[str]) -> str:
    pair = m.group()
    hi, lo = pair[0], pair[1]
    return chr(0x10000 + ((ord(hi) - 0xD800) << 10) + (ord(lo) - 0xDC00))


def has_astral(s: str) -> bool:
    """True when ``s`` holds a code point above U+FFFF (its unit form differs)."""
    return not s.isascii() and _ASTRAL.search(s) is not None


def to_units(s: str) -> str:
    """Canonical form -> unit form (one Python character per UTF-16 code unit)."""
    if s.isascii():
        return s
    return _ASTRAL.sub(_split_astral, s)


def from_units(u: str) -> str:
    """Unit form (or any string) -> canonical form: join every surrogate pair."""
    if u.isascii():
        return u
    return _PAIR.sub(_join_pair, u)


def js_len(s: str) -> int:
    """The JS ``length``: the number of UTF-16 code units."""
    if s.isascii():
        return len(s)
    return len(s) + len(_ASTRAL.findall(s))


_BIG = 4096
#: the longest ``a + b`` joined without the string budget's look (the general tier's inline ``+`` too)
UNCHECKED_CONCAT = _BIG


def _check_length(n: int) -> None:
    from .realm import current_realm

    current_realm().check_string(n)


def concat(a: str, b: str) -> str:
    """``a + b`` keeping canonical form (a trailing high + leading low surrogate join).

    Results over a million characters are checked against the string budget first, so a
    doubling loop stops with LimitExceeded instead of exhausting memory."""
    if len(a) + len(b) > _BIG:
        _check_length(len(a) + len(b))
    if a and b and "\ud800" <= a[-1] <= "\udbff" and "\udc00" <= b[0] <= "\udfff":
        return a[:-1] + chr(0x10000 + ((ord(a[-1]) - 0xD800) << 10) + (ord(b[0]) - 0xDC00)) + b[1:]
    return a + b


def unit_at(s: str, i: int) -> str | None:
    """The code unit at UTF-16 index ``i`` as a 1-char string, or None when out of range."""
    if s.isascii() or not has_astral(s):
        return s[i] if 0 <= i < len(s) else None
    u = to_units(s)
    return u[i] if 0 <= i < len(u) else None


def code_unit(s: str, i: int) -> int | None:
    """``charCodeAt``: the UTF-16 code unit value at index ``i``, or None when out of range."""
    c = unit_at(s, i)
    return None if c is None else ord(c)


def is_canonical(s: str) -> bool:
    """True when no surrogate pair is left unjoined (the invariant above)."""
    return s.isascii() or _PAIR.search(s) is None
