"""Character classes under the ``v`` flag (ECMA-262 22.2.1 ClassSetExpression): nested
classes, ``--`` subtraction, ``&&`` intersection and ``\\q{...}`` string alternatives.

Sets are computed here as code-point range lists (a ``\\p{...}`` is enumerated once with the
regex package and cached) and emitted as one regex class, preceded by the set's strings,
longest first. Under ``i`` every operand is closed under simple case folding before the
set operations, which is what MaybeSimpleCaseFolding plus a folded AllCharacters amount to.
"""

from __future__ import annotations

from typing import Protocol

from .regexp_charsets import CLASS_ESCAPES, MAX_CP, case_close, class_text, complement, merge
from .regexp_unicode import corrected

__all__ = ["parse_v_class", "property_set", "property_ranges"]

Ranges = list[tuple[int, int]]
_SYNTAX = "()[]{}/-\\|"
_DOUBLE = "&!#$%*+,.:;<=>?@^`~"
_RESERVED_ESCAPES = "&-!#%,:;<=>@`~"
_property_cache: dict[str, Ranges] = {}
_every: str | None = None  # every code point, to enumerate properties against


class _Parser(Protocol):
    """What a class parse needs of the pattern parser (``regexp_syntax._Parser`` provides it,
    and calls in here: this module depends on the interface, not on the parser)."""

    src: str
    pos: int
    fold: bool
    last_was_range: bool

    def error(self, msg: str) -> Exception: ...
    def peek(self, k: int = 0) -> str: ...
    def eat(self, s: str) -> bool: ...
    def literal(self, cp: int) -> str: ...
    def class_escape(self, c: str) -> list[tuple[int, int]]: ...
    def character_escape(self, in_class: bool) -> int: ...
    def property_escape(self) -> str: ...


class VSet:
    """A v-mode class value: code points (as ranges) and strings (length != 1)."""

    __slots__ = ("ranges", "strings")

    def __init__(self, ranges: Ranges, strings: frozenset[str] = frozenset()) -> None:
        self.ranges = ranges
        self.strings = strings


def _intersect(a: Ranges, b: Ranges) -> Ranges:
    return complement(merge(complement(a) + complement(b)))


def _property_ranges(text: str) -> Ranges:
    """The code points of a ``\\p{...}`` class, enumerated once (about 0.2 s) and cached."""
    hit = _property_cache.get(text)
    if hit is None:
        import regex

        global _every
        if _every is None:
            _every = "".join(map(chr, range(MAX_CP + 1)))
        hit = merge([(m.start(), m.end() - 1) for m in regex.finditer(f"[{text}]+", _every)])
        hit = corrected(text[3:-1], hit)  # V8's Unicode version
        if len(_property_cache) >= 64:  # keyed by script text: bounded, like every runtime memo
            _property_cache.clear()
        _property_cache[text] = hit
    return hit


def parse_v_class(p: "_Parser") -> str:
    """Parse ``[...]`` at p.pos (v flag) and return its regex-package spelling."""
    value = _class(p)
    ranges = value.ranges
    strings = sorted(value.strings, key=len, reverse=True)
    if not strings:
        return class_text(ranges)
    alts = ["".join(p.literal(ord(c)) for c in s) for s in strings if s]
    if ranges:
        alts.append(class_text(ranges))
    if "" in value.strings:
        alts.append("")
    return "(?:" + "|".join(alts) + ")"


def _class(p: "_Parser") -> VSet:
    p.pos += 1  # "["
    negate = p.eat("^")
    value = _contents(p)
    if not p.eat("]"):
        raise p.error("Unterminated character class")
    if negate:
        if value.strings:
            raise p.error("Negated character class may contain strings")
        return VSet(complement(value.ranges))
    return value


def _contents(p: "_Parser") -> VSet:
    if p.peek() == "]":
        return VSet([])
    p.last_was_range = False
    first = _operand(p, allow_range=True)
    first_was_range, p.last_was_range = p.last_was_range, False
    op = p.src[p.pos : p.pos + 2]
    if op in ("&&", "--"):
        if first is None or first_was_range:
            raise p.error("Invalid set operation in character class")
        result = first
        while p.src.startswith(op, p.pos):
            p.pos += 2
            rhs = _operand(p, allow_range=False)
            if rhs is None:
                raise p.error("Invalid set operation in character class")
            result = _combine(result, rhs, op)
        if p.peek() != "]":
            raise p.error("Invalid set operation in character class")
        return result
    items = [first]
    while p.peek() != "]" and p.pos < len(p.src):
        if p.src.startswith(("&&", "--"), p.pos):
            raise p.error("Invalid set operation in character class")
        items.append(_operand(p, allow_range=True))
    ranges: Ranges = []
    strings: set[str] = set()
    for item in items:
        if item is not None:
            ranges += item.ranges
            strings |= item.strings
    return VSet(merge(ranges), frozenset(strings))


def _combine(a: VSet, b: VSet, op: str) -> VSet:
    if op == "&&":
        return VSet(_intersect(a.ranges, b.ranges), a.strings & b.strings)
    return VSet(_intersect(a.ranges, complement(b.ranges)), a.strings - b.strings)


def _operand(p: "_Parser", allow_range: bool) -> VSet | None:
    """A nested class, escape, string disjunction, character or range (None at the end)."""
    c = p.peek()
    if not c:
        raise p.error("Unterminated character class")
    if c == "[":
        nested = _fold(p, _class(p))
        p.last_was_range = False
        return nested
    if c == "\\" and p.peek(1) == "q":
        return _strings(p)
    if c == "\\" and (p.peek(1) in CLASS_ESCAPES or p.peek(1) in "pP"):
        p.pos += 1
        e = p.peek()
        if e in "pP":
            return VSet(property_set(p, p.property_escape()))
        p.pos += 1
        if e in "DSW":  # complements are taken after folding (MaybeSimpleCaseFolding)
            return VSet(complement(_fold(p, VSet(p.class_escape(e.lower()))).ranges))
        return _fold(p, VSet(p.class_escape(e)))
    lo = _character(p)
    if allow_range and p.peek() == "-" and p.peek(1) != "-":
        p.pos += 1
        hi = _character(p)
        if lo > hi:
            raise p.error("Range out of order in character class")
        p.last_was_range = True
        return _fold(p, VSet([(lo, hi)]))
    return _fold(p, VSet([(lo, lo)]))


def property_ranges(text: str) -> Ranges:
    r"""The code points of ``\p{...}`` (or of its complement for ``\P{...}``)."""
    ranges = _property_ranges("\\p" + text[2:])
    return complement(ranges) if text.startswith("\\P") else ranges


def property_set(p: "_Parser", text: str) -> Ranges:
    r"""The code points of ``\p{...}``/``\P{...}`` under v; under i, ``\P`` is the
    complement of the folded property (so /\P{Lu}/vi does not match "É")."""
    negated = text.startswith("\\P")
    ranges = _fold(p, VSet(_property_ranges("\\p" + text[2:]))).ranges
    return complement(ranges) if negated else ranges


def _character(p: "_Parser") -> int:
    """ClassSetCharacter."""
    c = p.peek()
    if c == "\\":
        p.pos += 1
        e = p.peek()
        if e == "b":
            p.pos += 1
            return 8
        if e and e in _RESERVED_ESCAPES:
            p.pos += 1
            return ord(e)
        return p.character_escape(in_class=True)
    if not c or c in _SYNTAX:
        raise p.error("Invalid character in character class")
    if c in _DOUBLE and p.peek(1) == c:
        raise p.error("Invalid set operation in character class")
    p.pos += 1
    return ord(c)


def _strings(p: "_Parser") -> VSet:
    r"""``\q{abc|d|}``: alternatives of strings (single characters join the ranges)."""
    p.pos += 2
    if not p.eat("{"):
        raise p.error("Invalid escape")
    alternatives: list[str] = []
    current: list[str] = []
    while True:
        c = p.peek()
        if not c:
            raise p.error("Invalid escape")
        if c == "}":
            p.pos += 1
            alternatives.append("".join(current))
            break
        if c == "|":
            p.pos += 1
            alternatives.append("".join(current))
            current = []
            continue
        current.append(chr(_character(p)))
    singles = [(ord(s), ord(s)) for s in alternatives if len(s) == 1]
    return _fold(p, VSet(merge(singles), frozenset(s for s in alternatives if len(s) != 1)))


def _fold(p: "_Parser", value: VSet) -> VSet:
    """Under i, close the operand under simple case folding (see the module docstring)."""
    if not p.fold:
        return value
    return VSet(case_close(value.ranges, True), value.strings)
