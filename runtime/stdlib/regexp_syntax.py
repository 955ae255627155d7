"""JS regular-expression syntax (ECMA-262 22.2.1 with Annex B.1.2) translated to the `regex`
package's syntax.

The JS pattern is parsed by hand rather than passed through, because the two dialects differ
in many small ways that change results: ``\\d``/``\\w``/``\\b`` are ASCII-only in JS, ``\\s``
has JS's set, ``$`` never matches before a trailing newline, ``[^]`` and ``[]`` exist, a
backreference to a group that did not take part matches the empty string, ``{,3}`` is
literal text, legacy octal escapes exist outside ``u`` mode, and so on.

Non-``u`` patterns are parsed in UTF-16 *unit form* (astral characters split into
surrogates) and run against the unit form of the subject, so they match code units as JS
does. ``u`` patterns are parsed and run in canonical form (one Python character per code
point).

``translate(source, flags)`` returns a ``Translation`` or raises ``PatternError`` with V8's
message text.
"""

from __future__ import annotations

from typing import Any, Iterator

from ..strings import to_units
from .regexp_vclass import parse_v_class, property_ranges, property_set
from .regexp_unicode import NEWER_ASSIGNED, holds_unassigned
from .regexp_charsets import (
    BINARY_PROPERTIES,
    GENERAL_CATEGORIES,
    MAX_CP,
    CLASS_ESCAPES,
    CONTROL_ESCAPES,
    LT_CLASS,
    NOT_WORD_BOUNDARY,
    WORD,
    WORD_BOUNDARY,
    UWORD_CLASS,
    boundary,
    case_close,
    class_text,
    complement,
    cp_text,
    fold_groups,
    merge,
)

__all__ = ["PatternError", "Translation", "translate"]

MAX_REPEAT = 4294967294  # the regex package's limit; larger bounds act as "unbounded"
_SYNTAX_CHARS = "^$\\.*+?()[]{}|/"
_LINE_TERMINATORS = "\n\r\u2028\u2029"


class PatternError(Exception):
    """An early error in a JS pattern (SyntaxError at the JS level)."""


class Translation:
    """A translated pattern: regex-package source, capture count, and group names."""

    __slots__ = ("pattern", "ncaps", "names", "enclosing", "gnum", "safe", "fast")

    def __init__(
        self, pattern: str, ncaps: int, names: dict[str, int], enclosing: dict[int, list[tuple[str, int]]]
    ) -> None:
        self.pattern = pattern
        self.ncaps = ncaps
        self.names = names
        #: JS group -> the quantified wrappers around it, outermost first: (group name, min)
        self.enclosing = enclosing
        #: JS group -> the regex package's group number (filled in once compiled)
        self.gnum: list[int] = []
        #: backtracking is at most cubic in the subject (no nested or alternated repetition,
        #: at most two variable quantifiers, no backreferences): short subjects need no
        #: timeout, which costs the regex package several microseconds per call
        self.safe = False
        #: the same pattern compiled by the stdlib ``re`` (only for safe patterns), or None
        self.fast: Any = None


def _is_id_start(c: str) -> bool:
    return c == "$" or c == "_" or c.isidentifier()


def _is_id_part(c: str) -> bool:
    return c in "$_\u200c\u200d" or ("a" + c).isidentifier()


def group_parens(src: str) -> Iterator[int]:
    """Where each ``(`` and ``)`` of a pattern's text stands, escapes and classes skipped:
    the scan that counting groups and finding quantified ones both start from."""
    i = 0
    in_class = False
    while i < len(src):
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(" or c == ")":
            yield i
        i += 1


def _scan_groups(src: str) -> tuple[int, dict[str, int]]:
    """Count capturing groups and find group names (needed before parsing: ``\\10``,
    forward ``\\k<name>``)."""
    n = 0
    names: dict[str, int] = {}
    for i in group_parens(src):
        if src[i] == ")":
            continue
        if not src.startswith("?", i + 1):
            n += 1
        elif src.startswith("?<", i + 1) and not src.startswith(("?<=", "?<!"), i + 1):
            n += 1
            end = src.find(">", i + 3)
            if end > 0:
                names.setdefault(src[i + 3 : end], n)
    return n, names


class _Parser:
    """Recursive-descent parser that emits regex-package syntax as it goes."""

    def __init__(self, src: str, flags: str) -> None:
        self.u = "u" in flags or "v" in flags
        self.v = "v" in flags
        self.last_was_range = False  # v-mode class parsing: was the last operand a range?
        self.src = src if self.u else to_units(src)
        self.dotall = "s" in flags
        # ignoreCase is done here, not by the regex package: literals and classes are
        # expanded to their case variants under JS's Canonicalize of the mode.
        self.fold = "i" in flags
        self.multiline = "m" in flags
        self.pos = 0
        self.total_caps, self.all_names = _scan_groups(self.src)
        self.has_named = bool(self.all_names)
        self.ncaps = 0
        self.term_caps = 0
        self.term_events = 0
        self.events = 0  # variable quantifiers and alternatives seen
        self.quants = 0  # variable quantifiers seen
        self.risky = False
        self.open_groups: set[int] = set()
        self.nwraps = 0
        self.enclosing: dict[int, list[tuple[str, int]]] = {}
        self.names: dict[str, int] = {}

    # --- helpers -------------------------------------------------------------------------
    def error(self, msg: str) -> PatternError:
        return PatternError(msg)

    def peek(self, k: int = 0) -> str:
        i = self.pos + k
        return self.src[i] if i < len(self.src) else ""

    def eat(self, s: str) -> bool:
        if self.src.startswith(s, self.pos):
            self.pos += len(s)
            return True
        return False

    # --- disjunction / alternative / term -------------------------------------------------
    def parse(self) -> Translation:
        out = self.disjunction()
        if self.pos < len(self.src):
            raise self.error("Unmatched ')'" if self.peek() == ")" else "Unexpected character")
        tr = Translation(out, self.ncaps, self.names, self.enclosing)
        tr.safe = not self.risky and self.quants <= 2
        return tr

    def disjunction(self) -> str:
        alts = [self.alternative()]
        while self.eat("|"):
            self.events += 1
            alts.append(self.alternative())
        return "|".join(alts)

    def alternative(self) -> str:
        parts: list[str] = []
        while self.pos < len(self.src) and self.peek() not in "|)":
            parts.append(self.term())
        return "".join(parts)

    def term(self) -> str:
        self.term_caps = self.ncaps
        self.term_events = self.events
        c = self.peek()
        if c == "^":
            self.pos += 1
            return f"(?:\\A|(?<={LT_CLASS}))" if self.multiline else "\\A"
        if c == "$":
            self.pos += 1
            return f"(?=\\Z|{LT_CLASS})" if self.multiline else "\\Z"
        if c == "\\" and self.peek(1) in ("b", "B"):
            self.pos += 2
            negate = self.src[self.pos - 1] == "B"
            if self.fold and self.u:
                return boundary(UWORD_CLASS, negate)
            return NOT_WORD_BOUNDARY if negate else WORD_BOUNDARY
        if self.src.startswith(("(?<=", "(?<!"), self.pos):
            kind = self.peek(3)
            self.pos += 4
            return self.unquantifiable(f"(?<{kind}{self.group_body()})")
        if c == "(" and self.peek(1) == "?" and self.peek(2) in ("=", "!"):
            kind = self.peek(2)
            self.pos += 3
            atom = f"(?{kind}{self.group_body()})"
            if self.u:
                return self.unquantifiable(atom)
            return self.quantified("(?:" + atom + ")", self.term_caps, self.term_events)
        if c in "*+?":
            raise self.error("Nothing to repeat")
        if c == "{":
            if self.braced_quantifier(peek_only=True) is not None:
                raise self.error("Nothing to repeat")
            if self.u:
                raise self.error("Lone quantifier brackets")
        before, events = self.ncaps, self.events
        return self.quantified(self.atom(), before, events)

    def unquantifiable(self, atom: str) -> str:
        """A lookbehind (or a lookahead under u) may not take a quantifier (V8's message)."""
        if self.peek() in ("*", "+", "?") or (self.peek() == "{" and self.braced_quantifier(peek_only=True)):
            raise self.error("Invalid quantifier")
        return atom

    def quantified(self, atom: str, caps_before: int, events_before: int = 0) -> str:
        """Atom plus quantifier. When the atom holds captures, it is wrapped in a named
        group whose per-iteration spans let the matcher apply JS's rule that captures are
        reset at each iteration (and that an empty iteration past the minimum is dropped)."""
        c = self.peek()
        if c in ("*", "+", "?"):
            self.pos += 1
            q = c
            lo, hi = (1 if c == "+" else 0), (1 if c == "?" else None)
        elif c == "{":
            bounds = self.braced_quantifier()
            if bounds is None:
                return atom
            lo, hi = bounds
            q = "{%d,%s}" % (min(lo, MAX_REPEAT), "" if hi is None or hi > MAX_REPEAT else str(hi))
        else:
            return atom
        if self.eat("?"):
            q += "?"
        if self.peek() in ("*", "+", "?") or (self.peek() == "{" and self.braced_quantifier(peek_only=True)):
            raise self.error("Nothing to repeat")
        if lo != hi:
            if self.events > events_before:
                self.risky = True  # a quantifier over a quantifier or an alternation
            self.events += 1
            self.quants += 1
        if self.ncaps > caps_before and not (lo == 1 and hi == 1):
            self.nwraps += 1
            wrapper = f"w{self.nwraps}"
            for n in range(caps_before + 1, self.ncaps + 1):
                self.enclosing.setdefault(n, []).insert(0, (wrapper, lo))
            atom = f"(?P<{wrapper}>{atom})"
        return atom + q

    def braced_quantifier(self, peek_only: bool = False) -> tuple[int, int | None] | None:
        """Parse ``{n}``, ``{n,}``, ``{n,m}`` at pos; None (pos unchanged) if not one."""
        i = self.pos + 1
        j = i
        while j < len(self.src) and self.src[j].isdigit() and self.src[j].isascii():
            j += 1
        if j == i:
            return None
        lo = int(self.src[i:j])
        hi: int | None = lo
        if self.src.startswith(",", j):
            k = j + 1
            while k < len(self.src) and self.src[k].isdigit() and self.src[k].isascii():
                k += 1
            hi = int(self.src[j + 1 : k]) if k > j + 1 else None
            j = k
        if not self.src.startswith("}", j):
            if self.u and not peek_only:
                raise self.error("Incomplete quantifier")
            return None
        if hi is not None and hi < lo:
            raise self.error("numbers out of order in {} quantifier")
        if not peek_only:
            self.pos = j + 1
        return lo, hi

    # --- atoms ----------------------------------------------------------------------------
    def atom(self) -> str:
        c = self.peek()
        if c == ".":
            self.pos += 1
            return "[\\x00-\\U0010ffff]" if self.dotall else f"[^{LT_CLASS[1:-1]}]"
        if c == "(":
            return self.group()
        if c == "[":
            return parse_v_class(self) if self.v else self.char_class()
        if c == "\\":
            return self.atom_escape()
        if c in ("]", "}") and self.u:
            raise self.error("Lone quantifier brackets")
        self.pos += 1
        return self.literal(ord(c))

    def literal(self, cp: int) -> str:
        """A pattern character; under non-u ignoreCase, the class of its case variants."""
        if self.fold:
            members = fold_groups(self.u).get(cp)
            if members:
                return class_text(merge([(m, m) for m in members]))
        return cp_text(cp)

    def class_escape(self, c: str) -> list[tuple[int, int]]:
        """\\d \\D \\w \\W \\s \\S; under u+i, \\w also holds U+017F and U+212A (their
        simple case folds are s and k), and \\W excludes them (22.2.2.9.3 WordCharacters)."""
        if self.fold and self.u and c in "wW":
            word = case_close(WORD, True)
            return word if c == "w" else complement(word)
        return CLASS_ESCAPES[c]

    def group(self) -> str:
        self.pos += 1
        if self.eat("?:"):
            return "(?:" + self.group_body() + ")"
        if self.eat("?<"):
            name = self.group_name()
            if name in self.names:
                raise self.error("Duplicate capture group name")
            self.ncaps += 1
            self.names[name] = self.ncaps
            return self.capture_group()
        if self.peek() == "?":
            raise self.error("Invalid group")
        self.ncaps += 1
        return self.capture_group()

    def capture_group(self) -> str:
        n = self.ncaps
        self.open_groups.add(n)
        body = self.group_body()
        self.open_groups.discard(n)
        return f"(?P<g{n}>{body})"

    def group_body(self) -> str:
        inner = self.disjunction()
        if not self.eat(")"):
            raise self.error("Unterminated group")
        return inner

    def group_name(self) -> str:
        start = self.pos
        name: list[str] = []
        while True:
            c = self.peek()
            if c == ">":
                break
            if c == "\\" and self.peek(1) == "u":
                self.pos += 2
                cp = self.unicode_escape_body(force_u=True)
                if cp is None:
                    raise self.error("Invalid capture group name")
                c = chr(cp)
                self.pos -= 1
            if not c or not (_is_id_part(c) if name else _is_id_start(c)):
                raise self.error("Invalid capture group name")
            name.append(c)
            self.pos += 1
        self.pos += 1
        if self.pos - 1 == start:
            raise self.error("Invalid capture group name")
        return "".join(name)

    # --- escapes --------------------------------------------------------------------------
    def atom_escape(self) -> str:
        self.pos += 1  # the backslash
        c = self.peek()
        if not c:
            raise self.error("\\ at end of pattern")
        if c in "123456789":
            ref = self.backreference()
            if ref is not None:
                return ref
        if c == "k" and (self.u or self.has_named):
            self.pos += 1
            if not self.eat("<"):
                raise self.error("Invalid named reference")
            name = self.group_name()
            if name not in self.all_names:
                raise self.error("Invalid named capture referenced")
            return self.backref_text(self.all_names[name])
        if c in CLASS_ESCAPES:
            self.pos += 1
            return class_text(self.class_escape(c))
        if c in "pP" and self.v:
            return class_text(property_set(self, self.property_escape()))
        if c in "pP" and self.u:
            text = self.property_escape()
            if self.fold:  # u+i: the property's set (complemented for \P), then closed
                return class_text(case_close(property_ranges(text), True))
            return property_atom(text)
        cp = self.character_escape(in_class=False)
        return self.literal(cp)

    def backreference(self) -> str | None:
        """``\\N``: a backreference when N names a group, else (non-u) a legacy escape."""
        j = self.pos
        while j < len(self.src) and self.src[j] in "0123456789":
            j += 1
        n = int(self.src[self.pos : j])
        if n <= self.total_caps:
            self.pos = j
            return self.backref_text(n)
        if self.u:
            raise self.error("Invalid escape")
        return None

    def backref_text(self, n: int) -> str:
        """JS: a reference to a group that has not captured matches the empty string (a
        group referenced from inside itself never has)."""
        if n in self.open_groups:
            return "(?:)"
        self.risky = True
        ref = f"(?P=g{n})"
        if self.fold:
            ref = f"(?i:{ref})"
        return f"(?(g{n}){ref}|)"

    def legacy_octal(self) -> int:
        """Annex B LegacyOctalEscapeSequence (non-u only); pos is at the first digit."""
        first = self.peek()
        limit = 3 if first in "0123" else 2
        j = self.pos
        while j < len(self.src) and j - self.pos < limit and self.src[j] in "01234567":
            j += 1
        value = int(self.src[self.pos : j], 8)
        self.pos = j
        return value

    def character_escape(self, in_class: bool) -> int:
        """CharacterEscape (22.2.1) with Annex B extensions; pos is after the backslash."""
        c = self.peek()
        if c in CONTROL_ESCAPES:
            self.pos += 1
            return CONTROL_ESCAPES[c]
        if c == "0" and not ("0" <= self.peek(1) <= "9"):
            self.pos += 1
            return 0
        if c in "01234567":
            if self.u:
                raise self.error("Invalid class escape" if in_class else "Invalid decimal escape")
            return self.legacy_octal()
        if c == "c":
            return self.control_escape(in_class)
        if c == "x":
            h = self.src[self.pos + 1 : self.pos + 3]
            if len(h) == 2 and all(ch in "0123456789abcdefABCDEF" for ch in h):
                self.pos += 3
                return int(h, 16)
            if self.u:
                raise self.error("Invalid escape")
            self.pos += 1
            return ord("x")
        if c == "u":
            self.pos += 1
            cp = self.unicode_escape_body()
            if cp is not None:
                return cp
            if self.u:
                raise self.error("Invalid Unicode escape")
            return ord("u")
        self.pos += 1
        if self.u and c not in _SYNTAX_CHARS and not (in_class and c == "-"):
            raise self.error("Invalid escape")
        if not self.u and c == "k" and self.has_named and not in_class:
            raise self.error("Invalid named reference")
        return ord(c)

    def control_escape(self, in_class: bool) -> int:
        """``\\cX``; Annex B: also digits and ``_`` in classes, else a literal backslash."""
        nxt = self.peek(1)
        if nxt.isascii() and (nxt.isalpha() or (in_class and not self.u and (nxt.isdigit() or nxt == "_"))):
            self.pos += 2
            return ord(nxt) % 32
        if self.u:
            raise self.error("Invalid Unicode escape")
        return ord("\\")  # the backslash stands for itself; "c" is read next

    def unicode_escape_body(self, force_u: bool = False) -> int | None:
        """After ``\\u``: ``XXXX`` (a surrogate pair of escapes joins under u) or ``{X...}``."""
        u = self.u or force_u
        if u and self.peek() == "{":
            end = self.src.find("}", self.pos)
            digits = self.src[self.pos + 1 : end] if end > 0 else ""
            if not digits or not all(ch in "0123456789abcdefABCDEF" for ch in digits) or int(digits, 16) > MAX_CP:
                raise self.error("Invalid Unicode escape")
            self.pos = end + 1
            return int(digits, 16)
        h = self.src[self.pos : self.pos + 4]
        if len(h) != 4 or not all(ch in "0123456789abcdefABCDEF" for ch in h):
            return None
        self.pos += 4
        cp = int(h, 16)
        if u and 0xD800 <= cp <= 0xDBFF and self.src.startswith("\\u", self.pos):
            lo = self.src[self.pos + 2 : self.pos + 6]
            if len(lo) == 4 and all(ch in "0123456789abcdefABCDEF" for ch in lo) and 0xDC00 <= int(lo, 16) <= 0xDFFF:
                self.pos += 6
                cp = 0x10000 + ((cp - 0xD800) << 10) + (int(lo, 16) - 0xDC00)
        return cp

    def property_escape(self) -> str:
        """``\\p{...}``/``\\P{...}`` (u only), passed to the regex package's property support."""
        kind = self.peek()
        self.pos += 1
        end = self.src.find("}", self.pos)
        if not self.eat("{") or end < 0:
            raise self.error("Invalid property name")
        body = self.src[self.pos : end]
        self.pos = end + 1
        name, _, value = body.partition("=")
        if value:
            valid = (name in ("General_Category", "gc") and value in GENERAL_CATEGORIES) or (
                name in ("Script", "sc", "Script_Extensions", "scx") and value[:1].isupper() and value.isascii()
            )
        else:
            valid = name in GENERAL_CATEGORIES or name in BINARY_PROPERTIES
        if not valid or not all(ch.isalnum() or ch == "_" for ch in name + value):
            raise self.error("Invalid property name")
        # the regex package reads these aliases as other properties
        body = {"IDC": "ID_Continue", "VS": "Variation_Selector"}.get(body, body)
        text = f"\\{kind}{{{body}}}"
        try:
            import regex

            regex.compile(text)
        except Exception:
            raise self.error("Invalid property name") from None
        return text

    # --- character classes ----------------------------------------------------------------
    def char_class(self) -> str:
        self.pos += 1
        negate = self.eat("^")
        ranges: list[tuple[int, int]] = []
        extra: list[str] = []
        while True:
            if self.pos >= len(self.src):
                raise self.error("Unterminated character class")
            if self.eat("]"):
                break
            a = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                b = self.class_atom()
                if isinstance(a, int) and isinstance(b, int):
                    if a > b:
                        raise self.error("Range out of order in character class")
                    ranges.append((a, b))
                    continue
                if self.u:
                    raise self.error("Invalid character class")
                for item in (a, ord("-"), b):
                    self.add_class_item(item, ranges, extra)
                continue
            self.add_class_item(a, ranges, extra)
        merged = merge(ranges)
        if self.fold:
            merged = case_close(merged, self.u)
            if extra:  # property escapes: let the regex package fold them
                return "(?i:" + class_text(merged, "".join(extra), negate) + ")"
        if extra:  # property escapes in V8's Unicode version: alternatives, not class members
            alts = "|".join(([class_text(merged)] if merged else []) + [property_atom(t) for t in extra])
            return f"(?:(?!{alts})(?s:.))" if negate else f"(?:{alts})"
        return class_text(merged, "".join(extra), negate)

    @staticmethod
    def add_class_item(item: object, ranges: list[tuple[int, int]], extra: list[str]) -> None:
        if isinstance(item, int):
            ranges.append((item, item))
        elif isinstance(item, str):
            extra.append(item)
        else:
            ranges.extend(item)  # type: ignore[arg-type]

    def class_atom(self) -> "int | str | list[tuple[int, int]]":
        """A class member: a code point, a property escape text, or a list of ranges."""
        c = self.peek()
        if c != "\\":
            self.pos += 1
            return ord(c)
        self.pos += 1
        c = self.peek()
        if not c:
            raise self.error("\\ at end of pattern")
        if c == "b":
            self.pos += 1
            return 8
        if c == "-" :
            self.pos += 1
            return ord("-")
        if c in CLASS_ESCAPES:
            self.pos += 1
            return self.class_escape(c)
        if c in "pP" and self.u:
            text = self.property_escape()
            return property_ranges(text) if self.fold else text
        if c in "89" and not self.u:
            self.pos += 1
            return ord(c)
        if c in "123456789" and self.u:
            raise self.error("Invalid class escape")
        if c == "k" and not self.u:
            self.pos += 1
            return ord("k")
        return self.character_escape(in_class=True)


def property_atom(text: str) -> str:
    r"""``\p{...}``/``\P{...}`` outside a class, in V8's Unicode version (see regexp_unicode):
    the regex package's property with the newer code points added or excluded."""
    newer = class_text(list(NEWER_ASSIGNED))
    gains = holds_unassigned(text[3:-1]) == (text[1] == "p")
    if text[3:-1] == "Any":
        return "[" + text + "]"
    if gains:
        return "[" + text + newer[1:]
    return f"(?:(?!{newer}){text})"


def translate(source: str, flags: str) -> Translation:
    """Translate a JS pattern; raises PatternError (message as V8's) when it is invalid."""
    return _Parser(source, flags).parse()
