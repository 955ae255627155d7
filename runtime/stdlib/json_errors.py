"""JSON.parse's error path: an exact JSON grammar over UTF-16 code units that raises the
SyntaxError V8 gives for a text (message and position), used once the fast C scanner in
``json.py`` has refused the text.
"""

from __future__ import annotations

import re
from typing import NoReturn

from ..realm import current_realm
from ..strings import from_units
from ..values import syntax_error

__all__ = ["Diagnose"]

_TOKENS = {'"': "STRING", "-": "NUMBER", "t": "TRUE", "f": "FALSE", "n": "NULL", " ": "WS", "\t": "WS",
           "\n": "WS", "\r": "WS", ":": "COLON", ",": "COMMA", "[": "LBRACK", "]": "RBRACK",
           "{": "LBRACE", "}": "RBRACE"}
_TOKENS.update({d: "NUMBER" for d in "0123456789"})
_SPECIAL_SOURCES = ("[object Object]", "undefined", "Infinity", "NaN")
_LITERALS = {"TRUE": "true", "FALSE": "false", "NULL": "null"}
_HEX = set("0123456789abcdefABCDEF")
_CONTEXT = 10
_WHITESPACE = re.compile("[ \t\n\r]*")
# a valid JSON number not followed by a digit (a leading zero must stand alone)
_NUMBER = re.compile("-?(?:0(?![0-9])|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![.eE0-9])")
_STRING_STOP = re.compile('["\\\\\x00-\x1f]')


class Diagnose:
    """An exact JSON grammar over UTF-16 units that raises V8's SyntaxError (JsonParser)."""

    def __init__(self, units: str) -> None:
        self.src = units
        self.pos = 0
        self.realm = current_realm()

    def token(self) -> str:
        if self.pos >= len(self.src):
            return "EOS"
        return _TOKENS.get(self.src[self.pos], "ILLEGAL")

    def peek(self) -> str:
        src = self.src
        if self.pos < len(src) and src[self.pos] in " \t\n\r":
            self.pos = _WHITESPACE.match(src, self.pos).end()  # type: ignore[union-attr]
        return self.token()

    def fail(self, token: str, message: str | None = None) -> NoReturn:
        pos = self.pos
        if message is not None:
            where = "" if message.endswith("after JSON") else " in JSON"
            text = f"{message}{where} at position {pos}"
        elif token == "EOS":
            text = "Unexpected end of JSON input"
        elif token in ("NUMBER", "STRING"):
            text = f"Unexpected {token.lower()} in JSON at position {pos}"
        elif self.src in _SPECIAL_SOURCES:
            text = f'"{self.src}" is not valid JSON'
        else:
            text = self._context_message(pos)
        raise syntax_error(from_units(text))

    def _context_message(self, pos: int) -> str:
        char, src, n = self.src[pos], self.src, len(self.src)
        if n < 2 * _CONTEXT + 1:
            return f"Unexpected token '{char}', \"{src}\" is not valid JSON"
        if pos < _CONTEXT:
            return f"Unexpected token '{char}', \"{src[:pos + _CONTEXT]}\"... is not valid JSON"
        if pos < n - _CONTEXT:
            return f"Unexpected token '{char}', ...\"{src[pos - _CONTEXT:pos + _CONTEXT]}\"... is not valid JSON"
        return f"Unexpected token '{char}', ...\"{src[pos - _CONTEXT:]}\" is not valid JSON"

    def expect(self, token: str, message: str | None = None) -> None:
        got = self.peek()
        if got != token:
            self.fail(got, message)
        self.pos += 1

    def document(self) -> None:
        self.value()
        if self.peek() != "EOS":
            self.fail(self.token(), "Unexpected non-whitespace character after JSON")

    def value(self) -> None:
        self.realm.charge(1)
        token = self.peek()
        if token == "STRING":
            self.string()
        elif token == "NUMBER":
            self.number()
        elif token in _LITERALS:
            self.literal(_LITERALS[token])
        elif token == "LBRACE":
            self.object()
        elif token == "LBRACK":
            self.array()
        else:
            self.fail(token)

    def object(self) -> None:
        self.pos += 1
        if self.peek() == "RBRACE":
            self.pos += 1
            return
        self.expect("STRING", "Expected property name or '}'")
        self.pos -= 1
        self.string()
        self.expect("COLON", "Expected ':' after property name")
        while True:
            self.value()
            if self.peek() == "COMMA":
                self.pos += 1
                self.expect("STRING", "Expected double-quoted property name")
                self.pos -= 1
                self.string()
                self.expect("COLON")
                continue
            self.expect("RBRACE", "Expected ',' or '}' after property value")
            return

    def array(self) -> None:
        self.pos += 1
        if self.peek() == "RBRACK":
            self.pos += 1
            return
        while True:
            self.value()
            if self.peek() == "COMMA":
                self.pos += 1
                continue
            self.expect("RBRACK", "Expected ',' or ']' after array element")
            return

    def literal(self, word: str) -> None:
        src = self.src
        for ch in word[1:]:
            self.pos += 1
            if self.pos >= len(src):
                self.fail("EOS")
            if src[self.pos] != ch:
                self.fail(self.token())
        self.pos += 1

    def string(self) -> None:
        src, n = self.src, len(self.src)
        self.pos += 1
        while True:
            m = _STRING_STOP.search(src, self.pos)
            if m is None:
                self.pos = n
                self.fail("EOS", "Unterminated string")
            self.pos = m.start()
            c = src[self.pos]
            if c == '"':
                self.pos += 1
                return
            if c < " ":
                self.fail("ILLEGAL", "Bad control character in string literal")
            self.pos += 1
            self.escape()

    def escape(self) -> None:
        src = self.src
        if self.pos >= len(src):
            self.fail("EOS")
        c = src[self.pos]
        if c == "u":
            for _ in range(4):
                self.pos += 1
                if self.pos >= len(src) or src[self.pos] not in _HEX:
                    self.fail("ILLEGAL", "Bad Unicode escape")
        elif c > "\xff":
            self.fail("ILLEGAL")  # V8 reports characters outside Latin-1 as unexpected tokens
        elif c not in '"\\/bfnrt':
            self.fail("ILLEGAL", "Bad escaped character")
        self.pos += 1

    def digits(self) -> int:
        start = self.pos
        while self.pos < len(self.src) and "0" <= self.src[self.pos] <= "9":
            self.pos += 1
        return self.pos - start

    def number(self) -> None:
        m = _NUMBER.match(self.src, self.pos)
        if m is not None:
            self.pos = m.end()
            return
        self._bad_number()

    def _bad_number(self) -> None:
        """Walk an invalid number to the point where V8 reports it."""
        src, n = self.src, len(self.src)
        if src[self.pos] == "-":
            self.pos += 1
        if self.pos < n and src[self.pos] == "0":
            self.pos += 1
            if self.pos < n and "0" <= src[self.pos] <= "9":
                self.fail("NUMBER")
        elif not self.digits():
            self.fail(self.token(), "No number after minus sign")
        if self.pos < n and src[self.pos] == ".":
            self.pos += 1
            if not self.digits():
                self.fail(self.token(), "Unterminated fractional number")
        if self.pos < n and src[self.pos] in "eE":
            self.pos += 1
            if self.pos < n and src[self.pos] in "+-":
                self.pos += 1
            if not self.digits():
                self.fail(self.token(), "Exponent part is missing a number")
