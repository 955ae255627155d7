"""Cooking literal tokens into JS values (ECMA-262 12.9: numeric, string, template literals).

Early errors that V8 reports at parse time for literals are raised here as ``ValueError``
(the builder adds the position): ``\\u{110000}``, malformed ``\\x``/``\\u`` escapes, and
octal escapes in templates.
"""

from __future__ import annotations

import re

__all__ = ["number_value", "string_value", "template_value", "join_surrogates"]

_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", '"': '"', "'": "'", "\\": "\\"}
_LINE_CONT = ("\n", "\r", "\u2028", "\u2029")
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def join_surrogates(s: str) -> str:
    """Canonical string form: every surrogate pair joined into one code point."""
    if s.isascii():
        return s
    return _PAIR.sub(lambda m: chr(0x10000 + ((ord(m.group()[0]) - 0xD800) << 10) + (ord(m.group()[1]) - 0xDC00)), s)


def number_value(raw: str) -> int | float:
    """NumericLiteral -> number (int when integral and safe)."""
    text = raw.replace("_", "")
    low = text.lower()
    if low.startswith(("0x", "0o", "0b")):
        value: int | float = int(text[2:], {"x": 16, "o": 8, "b": 2}[low[1]])
    elif len(text) > 1 and text[0] == "0" and text.isdigit():
        value = int(text, 8) if all(c in "01234567" for c in text) else int(text, 10)
    else:
        f = float(text)
        if f.is_integer() and abs(f) <= 2**53:
            return int(f)
        return f
    if isinstance(value, int) and abs(value) > 2**53:
        return float(value)
    return value


def _escape(body: str, i: int, template: bool) -> tuple[str, int]:
    """Decode the escape at body[i] (just after the backslash); returns (text, next index)."""
    c = body[i]
    if c in _SIMPLE:
        return _SIMPLE[c], i + 1
    if c == "\r":
        return "", i + 2 if body[i + 1:i + 2] == "\n" else i + 1
    if c in _LINE_CONT:
        return "", i + 1
    if c == "x":
        h = body[i + 1:i + 3]
        if len(h) != 2 or not all(ch in "0123456789abcdefABCDEF" for ch in h):
            raise ValueError("Invalid hexadecimal escape sequence")
        return chr(int(h, 16)), i + 3
    if c == "u":
        if body[i + 1:i + 2] == "{":
            end = body.find("}", i + 2)
            h = body[i + 2:end] if end > 0 else ""
            if not h or not all(ch in "0123456789abcdefABCDEF" for ch in h):
                raise ValueError("Invalid Unicode escape sequence")
            cp = int(h, 16)
            if cp > 0x10FFFF:
                raise ValueError("Undefined Unicode code-point")
            return chr(cp), end + 1
        h = body[i + 1:i + 5]
        if len(h) != 4 or not all(ch in "0123456789abcdefABCDEF" for ch in h):
            raise ValueError("Invalid Unicode escape sequence")
        return chr(int(h, 16)), i + 5
    if c.isdigit():
        if c == "0" and not body[i + 1:i + 2].isdigit():
            return "\0", i + 1
        if template:
            raise ValueError("Octal escape sequences are not allowed in template strings")
        if c in "89":
            return c, i + 1
        m = re.match(r"[0-3][0-7]{0,2}|[4-7][0-7]?", body[i:])
        assert m is not None
        return chr(int(m.group(), 8)), i + len(m.group())
    return c, i + 1


def _cook(body: str, template: bool) -> str:
    """The value of a literal's body. In a template a CR or CRLF written in the source reads as
    LF (12.9.6), but one spelled ``\\r`` stays a CR, so only the unescaped text is normalized."""
    def literal(text: str) -> str:
        return text.replace("\r\n", "\n").replace("\r", "\n") if template and "\r" in text else text

    if "\\" not in body:
        return join_surrogates(literal(body))
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        j = body.find("\\", i)
        if j < 0:
            out.append(literal(body[i:]))
            break
        out.append(literal(body[i:j]))
        text, i = _escape(body, j + 1, template)
        out.append(text)
    return join_surrogates("".join(out))


def string_value(raw: str) -> str:
    """StringLiteral (12.9.4) -> string, in canonical (surrogates joined) form."""
    return _cook(raw[1:-1], False)


def template_value(raw: str) -> str:
    """A template chunk's cooked value (12.9.6 TV); raises ValueError for invalid escapes."""
    return _cook(raw, True)
