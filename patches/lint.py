"""Build-time lint of patch expressions: mistakes that compile but do not do what users mean.

These checks run only in ``compile-patches`` (docs/cli.md, ``undeclared-global``): at run
time ``vcp-eks`` stays ``vcp - eks`` and a ReferenceError, as in vCluster, but a build step can
tell the user before the syncer ever runs. A tiny token scanner is enough here: it needs
identifier positions, string literals and the ``in [`` shape, not a full parse (the compiler
owns the grammar and tells us which identifiers are free).
"""

from __future__ import annotations

import difflib
import re
from typing import Iterable, Iterator

import attrs

__all__ = [
    "Token",
    "tokens",
    "string_literals",
    "identifier_positions",
    "in_array_uses",
    "bare_word_hint",
    "BUILTIN_NAMES",
]

_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"(?:0[xXoObB][\da-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)n?")
_PUNCT = re.compile(r"\?\?=?|\?\.|\.\.\.|===|!==|\*\*=?|=>|<<=|>>>?=?|[-+*/%&|^!<>=]=|&&=?|\|\|=?|\+\+|--|<<|>>|[{}()\[\];,<>+\-*/%&|^!~?:=.@#]")
_BARE_WORDS = re.compile(r"[A-Za-z_$][\w$]*(?:[-./:][A-Za-z0-9_$]+)+|[A-Za-z_$][\w$]*")
_REGEX_AFTER = frozenset({"(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "=>", "&&", "||",
                          "??", "return", "typeof", "in", "of", "+", "-", "*", "%", "<", ">"})

BUILTIN_NAMES = frozenset({"value", "context", "valueExists"})
"""Globals every patch expression sees besides the standard library."""


@attrs.frozen
class Token:
    """One token of an expression: ``kind`` is ident, string, number, punct, template or regex;
    ``line``/``column`` are 1-based in the expression text."""

    kind: str
    text: str
    value: str
    line: int
    column: int
    offset: int


def _line_col(source: str, offset: int) -> tuple[int, int]:
    line = source.count("\n", 0, offset) + 1
    return line, offset - (source.rfind("\n", 0, offset) + 1) + 1


def _string_end(source: str, start: int) -> tuple[int, str]:
    """End offset and decoded value (simple escapes only) of a quoted string at ``start``."""
    quote, i, out = source[start], start + 1, []
    while i < len(source) and source[i] != quote:
        if source[i] == "\\" and i + 1 < len(source):
            out.append({"n": "\n", "t": "\t", "r": "\r"}.get(source[i + 1], source[i + 1]))
            i += 2
            continue
        if source[i] == "\n":
            break
        out.append(source[i])
        i += 1
    return min(i + 1, len(source)), "".join(out)


def _skip_template(source: str, start: int) -> int:
    depth, i = 0, start + 1
    while i < len(source):
        char = source[i]
        if char == "\\":
            i += 2
            continue
        if char == "`" and depth == 0:
            return i + 1
        if source.startswith("${", i):
            depth += 1
            i += 2
            continue
        if char == "}" and depth:
            depth -= 1
        i += 1
    return i


def _skip_regex(source: str, start: int) -> int:
    i, in_class = start + 1, False
    while i < len(source) and source[i] != "\n":
        char = source[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "/" and not in_class:
            match = _IDENT.match(source, i + 1)
            return match.end() if match else i + 1
        i += 1
    return i


def _skip_trivia(source: str, i: int) -> int:
    while i < len(source):
        if source[i].isspace():
            i += 1
        elif source.startswith("//", i):
            end = source.find("\n", i)
            i = len(source) if end < 0 else end
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            i = len(source) if end < 0 else end + 2
        else:
            break
    return i


def _next_token(source: str, i: int, previous: Token | None) -> tuple[str, int, str]:
    """(kind, end, value) of the token at ``i``; unknown characters become one-char puncts."""
    char = source[i]
    if char in "'\"":
        end, value = _string_end(source, i)
        return "string", end, value
    if char == "`":
        return "template", _skip_template(source, i), ""
    if char == "/" and (previous is None or previous.text in _REGEX_AFTER):
        return "regex", _skip_regex(source, i), ""
    for kind, pattern in (("ident", _IDENT), ("number", _NUMBER), ("punct", _PUNCT)):
        match = pattern.match(source, i)
        if match and match.end() > i:
            return kind, match.end(), match.group()
    return "punct", i + 1, char


def tokens(source: str) -> Iterator[Token]:
    """The expression's tokens, skipping white space and comments."""
    i, previous = 0, None
    while True:
        i = _skip_trivia(source, i)
        if i >= len(source):
            return
        kind, end, value = _next_token(source, i, previous)
        line, column = _line_col(source, i)
        previous = Token(kind, source[i:end], value, line, column, i)
        yield previous
        i = end


def string_literals(source: str) -> list[str]:
    """Every quoted string literal, in order of appearance, without duplicates."""
    seen: dict[str, None] = {}
    for token in tokens(source):
        if token.kind == "string":
            seen.setdefault(token.value, None)
    return list(seen)


def identifier_positions(source: str, name: str) -> list[tuple[int, int]]:
    """Where ``name`` is used as a variable: not after ``.``/``?.`` and not as an object key."""
    found = []
    toks = list(tokens(source))
    for index, token in enumerate(toks):
        if token.kind != "ident" or token.text != name:
            continue
        before = toks[index - 1].text if index else ""
        after = toks[index + 1].text if index + 1 < len(toks) else ""
        if before in (".", "?.") or (after == ":" and before in ("{", ",")):
            continue
        found.append((token.line, token.column))
    return found


def in_array_uses(source: str) -> list[tuple[int, int]]:
    """Positions of ``in`` directly followed by an array literal (``value in ["a", "b"]``).

    In JS that tests whether ``value`` is an *index* of the array, so ``"a" in ["a"]`` is false.
    """
    toks = list(tokens(source))
    return [
        (tok.line, tok.column)
        for tok, nxt in zip(toks, toks[1:])
        if tok.kind == "ident" and tok.text == "in" and nxt.text == "["
    ]


def bare_word(source: str) -> str | None:
    """The whole expression when it is a bare word with separators (``vcp-eks``, ``a.b-c``)."""
    text = source.strip()
    if _BARE_WORDS.fullmatch(text) and re.search(r"[-./:]", text):
        return text
    return None


def bare_word_hint(source: str, name: str, known: Iterable[str]) -> str:
    """The hint for an undeclared ``name``: a close known global, or the string meant."""
    close = difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=0.8)
    if close:
        return f"did you mean `{close[0]}`?"
    text = source.strip()
    word = text if _BARE_WORDS.fullmatch(text) and name in re.split(r"[-./:]", text) else name
    quoted = f'"{word}"'
    hint = f"did you mean the string {quoted}? In YAML write it as '{quoted}'"
    if "-" in word:
        hint += f" (unquoted, {word} reads as {' - '.join(word.split('-'))})"
    return hint
