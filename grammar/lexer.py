"""The ECMAScript tokenizer (ECMA-262 12), driven by the LALR parser's state.

JS's lexical grammar is context-dependent: ``/`` starts a regex literal where an expression
may begin and is division elsewhere, ``}`` may resume a template literal, ``{`` opens a block
at statement start and an object literal inside an expression. The parser driver passes the
set of terminals the current parser state accepts (``choices``) and this lexer picks the
reading the parser can take, exactly as Lark's contextual lexer does, plus a template stack.
"""

from __future__ import annotations

import bisect
import re
from typing import Callable

from lark import Token

from .identifier_chars import ID_CONTINUE, ID_START

__all__ = ["Lexer", "LexError", "PUNCTUATORS", "KEYWORD_TYPES"]


class LexError(Exception):
    """A lexical error at ``pos`` (turned into a GrammarError by the parser driver);
    ``refused`` marks a valid construct syncpatch declines rather than a syntax error."""

    def __init__(self, message: str, pos: int, end: int | None = None, *, refused: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.end = pos + 1 if end is None else end
        self.refused = refused


PUNCTUATORS = sorted(
    """{ } ( ) [ ] ; , < > <= >= == != === !== + - * / % ** ++ -- << >> >>> & | ^ ! ~ && || ??
    ? ?. : = += -= *= /= %= **= <<= >>= >>>= &= |= ^= &&= ||= ??= => . ...""".split(),
    key=len,
    reverse=True,
)
#: the longest punctuator at a position, in one regex match
_PUNCTUATOR = re.compile("|".join(re.escape(p) for p in PUNCTUATORS))
#: words that are terminals of their own kind rather than a literal keyword terminal
KEYWORD_TYPES = {
    "var": "VAR_KIND", "let": "VAR_KIND", "const": "VAR_KIND",
    "delete": "UNARY_OP", "void": "UNARY_OP", "typeof": "UNARY_OP",
    "instanceof": "REL_OP",
}
#: reserved words that can never be identifiers (ECMA-262 12.7.2)
RESERVED = frozenset(
    """await break case catch class const continue debugger default delete do else enum export
    extends false finally for function if import in instanceof new null return super switch this
    throw true try typeof var void while with yield let""".split()
)
#: constructs refused at compile time, with the reason shown to the patch author
REFUSED = {
    "async": "async functions are not supported: patch expressions run synchronously",
    "await": "'await' is not supported: patch expressions run synchronously",
    "import": "'import' is not allowed: patch expressions cannot load modules",
    "export": "'export' is not allowed: a patch expression is a script, not a module",
    "debugger": "'debugger' is not allowed in patch expressions",
}
#: tokens that open or close a nesting level (a template's `${` ... `}` included)
_OPENING = frozenset(("LPAR", "LSQB", "LBRACE", "BLOCK_LBRACE", "TEMPLATE_HEAD"))
_CLOSING = frozenset(("RPAR", "RSQB", "RBRACE", "TEMPLATE_TAIL"))
_STRUCTURE = _OPENING | _CLOSING | {"CLASS", "CLASS_DECL"}
_WS = re.compile(r"[\t\v\f \u00a0\ufeff\u1680\u2000-\u200a\u202f\u205f\u3000]+")
_NL = "\n\r\u2028\u2029"
#: a \uXXXX or \u{X...} escape inside an identifier (ECMA-262 12.7.1)
_IDENT_ESCAPE = re.compile(r"\\u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]+)\})")
_NUMBER = re.compile(
    r"0[xX][0-9a-fA-F](?:_?[0-9a-fA-F])*n?|0[oO][0-7](?:_?[0-7])*n?|0[bB][01](?:_?[01])*n?"
    r"|(?:(?:\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?n?"
)
_STRING_BODY = {"'": re.compile(r"(?:[^'\\\n\r]|\\(?:\r\n|[\s\S]))*'"),
                '"': re.compile(r'(?:[^"\\\n\r]|\\(?:\r\n|[\s\S]))*"')}
_TEMPLATE_CHUNK = re.compile(r"(?:[^`\\$]|\\[\s\S]|\$(?!\{))*(`|\$\{)")
_REGEX = re.compile(r"/((?:[^/\\\[\n\r\u2028\u2029]|\\[^\n\r\u2028\u2029]|\[(?:[^\]\\\n\r\u2028\u2029]|\\[^\n\r\u2028\u2029])*\])+)/([A-Za-z0-9_$]*)")

#: what makes `let` a name where a declaration could start: no binding follows it, but an
#: operator, a closing bracket or the end (`let = 1`, `let;`, `for (let in o)`; 13.3.1, 14.7.5)
_LET_AS_NAME = re.compile(r"[ \t]*(?:[=;),.(}:?+\-*%<>|&^!]|$|in(?:stanceof)?(?![\w$]))")
#: the first code point of each range of the identifier tables, for bisection
_START_LOWS = [lo for lo, _ in ID_START]
_CONTINUE_LOWS = [lo for lo, _ in ID_CONTINUE]
#: reserved words that no escape may spell outside a property name (``let``, ``yield`` and
#: ``await`` are identifiers in sloppy scripts)
_ESCAPE_FORBIDDEN = RESERVED - {"let", "yield", "await"}


def _is_id_char(c: str, start: bool) -> bool:
    """May ``c`` (one code point) start (``start``) or continue an identifier? ``$``, ``_``,
    ID_Start, and for a continuation ID_Continue (which holds ZWNJ and ZWJ) too."""
    if c.isascii():
        return c.isalpha() or c == "$" or c == "_" or (not start and c.isdigit())
    cp = ord(c)
    lows, table = (_START_LOWS, ID_START) if start else (_CONTINUE_LOWS, ID_CONTINUE)
    i = bisect.bisect_right(lows, cp) - 1
    return i >= 0 and cp <= table[i][1]


class Lexer:
    """Produces one token at a time; ``next(choices)`` reads the next token for that state."""

    def __init__(self, text: str, punct_types: dict[str, str], keyword_types: dict[str, str],
                 viable: Callable[[str], bool] | None = None) -> None:
        self.text = text
        #: whether the parser takes a terminal once it has reduced (settles a merged state)
        self.viable = viable
        self.pos = 0
        self.line = 1
        self.line_start = 0
        self.punct_types = punct_types
        self.keyword_types = keyword_types
        self.templates: list[int] = []  # brace depth inside each open ${ ... }
        self.newline_before = False
        self.prev: Token | None = None
        self.before: Token | None = None  # the token before ``prev`` (for inserted semicolons)
        # where class bodies are: the parser's choices after a `}` merge the lookaheads of every
        # context (LALR), so `static`, `*` and reserved member names are read by structure
        self.depth = 0  # open ( [ { and ${
        self.class_heads: list[int] = []  # the depth of each `class` whose body has not opened
        self.braces: list[bool] = []  # for each open brace: is it a class body?
        if text.startswith("#!"):  # a hashbang comment (12.5): only at the very start of the text
            while self.pos < len(text) and text[self.pos] not in _NL:
                self.pos += 1

    # -- helpers -----------------------------------------------------------------------------
    def _advance_lines(self, start: int, end: int) -> None:
        text = self.text
        i = start
        while i < end:
            c = text[i]
            if c in _NL:
                if c == "\r" and i + 1 < end and text[i + 1] == "\n":
                    i += 1
                self.line += 1
                self.line_start = i + 1
            i += 1

    def _token(self, type_: str, value: str, start: int, end: int, line: int, col: int) -> Token:
        self._advance_lines(start, end)
        tok = Token(type_, value, start_pos=start, line=line, column=col,
                    end_line=self.line, end_column=end - self.line_start + 1, end_pos=end)
        self.pos = end
        self.before = self.prev
        self.prev = tok
        if type_ in _STRUCTURE:
            self._track(type_)
        return tok

    def _track(self, type_: str) -> None:
        """Keep ``braces`` (which open braces are class bodies) up to date."""
        if type_ in _OPENING:
            body = type_ in ("LBRACE", "BLOCK_LBRACE") and bool(self.class_heads) and self.class_heads[-1] == self.depth
            if body:
                self.class_heads.pop()
            self.braces.append(body)
            self.depth += 1
        elif type_ in _CLOSING:
            if self.braces:
                self.braces.pop()
            self.depth = max(0, self.depth - 1)
        elif type_ == "CLASS" or type_ == "CLASS_DECL":
            self.class_heads.append(self.depth)

    def _member_start(self) -> bool:
        """At the start of a class element: directly in a class body, after `{`, `}` or `;`."""
        return bool(self.braces) and self.braces[-1] and self.prev is not None \
            and self.prev.type in ("LBRACE", "RBRACE", "SEMICOLON", "BLOCK_LBRACE")

    def _skip_trivia(self) -> None:
        text = self.text
        n = len(text)
        self.newline_before = False
        while self.pos < n:
            c = text[self.pos]
            if c in _NL:
                self.newline_before = True
                self._advance_lines(self.pos, self.pos + 1)
                self.pos += 1
            elif m := _WS.match(text, self.pos):
                self.pos = m.end()
            elif text.startswith("//", self.pos):
                end = self.pos + 2
                while end < n and text[end] not in _NL:
                    end += 1
                self.pos = end
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise LexError("unterminated comment", self.pos, n)
                body = text[self.pos:end]
                if any(ch in body for ch in _NL):
                    self.newline_before = True
                self._advance_lines(self.pos, end + 2)
                self.pos = end + 2
            elif text.startswith("<!--", self.pos) or (text.startswith("-->", self.pos) and self.newline_before):
                end = self.pos
                while end < n and text[end] not in _NL:
                    end += 1
                self.pos = end
            else:
                break

    # -- the token reader --------------------------------------------------------------------
    def next(self, choices: Callable[[], set[str]]) -> Token:
        """The next token, or ``$END``; ``choices()`` gives the acceptable terminal names."""
        self._skip_trivia()
        text = self.text
        start = self.pos
        line, col = self.line, start - self.line_start + 1
        if start >= len(text):
            return Token("$END", "", start_pos=start, line=line, column=col,
                         end_line=line, end_column=col, end_pos=start)
        c = text[start]
        if c == "`":
            return self._template(start + 1, start, line, col, "TEMPLATE_FULL", "TEMPLATE_HEAD")
        if c == "}" and self.templates and self.templates[-1] == 0:
            self.templates.pop()
            return self._template(start + 1, start, line, col, "TEMPLATE_TAIL", "TEMPLATE_MIDDLE")
        if c == "'" or c == '"':
            m = _STRING_BODY[c].match(text, start + 1)
            if m is None:
                raise LexError("unterminated string literal", start, len(text))
            return self._token("STRING", text[start:m.end()], start, m.end(), line, col)
        if c.isdigit() or (c == "." and text[start + 1:start + 2].isdigit()):
            return self._number(start, line, col)
        if c == "/" and self._regex_here(choices):
            m = _REGEX.match(text, start)
            if m is None:
                raise LexError("Invalid regular expression: missing /", start, len(text))
            return self._token("REGEX", m.group(), start, m.end(), line, col)
        if c == "\\" or _is_id_char(c, True):
            return self._word(start, line, col, choices)
        if c == "#":
            return self._hash(start)
        return self._punct(start, line, col, choices)

    def _hash(self, start: int) -> Token:
        """``#`` outside a hashbang: a private name inside a class body, which syncpatch
        refuses; anywhere else no token starts with it, so a syntax error."""
        text = self.text
        nxt = text[start + 1:start + 2]
        if any(self.braces) and nxt and (nxt == "\\" or _is_id_char(nxt, True)
                                         or (0xD800 <= ord(nxt) <= 0xDBFF and _is_id_char(_pair(text, start + 1), True))):
            raise LexError("private class members (#x) are not supported; use a public property or a closure",
                           start, refused=True)
        raise LexError("Invalid or unexpected token '#'", start)

    def _regex_here(self, choices: Callable[[], set[str]]) -> bool:
        """A ``/`` starts a regex where the parser takes one and division cannot go on (after
        a function expression's ``}``, the state also lists a regex, as after a declaration)."""
        accepted = choices()
        if "REGEX" not in accepted:
            return False
        return "MUL_OP" not in accepted or self.viable is None or not self.viable("MUL_OP")

    def _template(self, pos: int, start: int, line: int, col: int, done: str, more: str) -> Token:
        m = _TEMPLATE_CHUNK.match(self.text, pos)
        if m is None:
            raise LexError("unterminated template literal", start, len(self.text))
        if m.group(1) == "${":
            self.templates.append(0)
            return self._token(more, self.text[start:m.end()], start, m.end(), line, col)
        return self._token(done, self.text[start:m.end()], start, m.end(), line, col)

    def _number(self, start: int, line: int, col: int) -> Token:
        m = _NUMBER.match(self.text, start)
        assert m is not None
        end = m.end()
        value = m.group()
        if value.endswith("n"):
            raise LexError("BigInt literals are not supported", start, end, refused=True)
        if end < len(self.text) and (_is_id_char(self.text[end], False) or self.text[end] == "\\"):
            raise LexError("Invalid or unexpected token", end)
        if value.startswith("0") and len(value) > 1 and (value[1].isdigit() or value[1] == "_") and "_" in value:
            raise LexError("Numeric separators are not allowed here", start, end)
        return self._token("NUMBER", value, start, end, line, col)

    def _word(self, start: int, line: int, col: int, choices: Callable[[], set[str]]) -> Token:
        word, end = _scan_identifier(self.text, start)
        escaped = end - start != len(word) or "\\" in self.text[start:end]
        after_dot = self.prev is not None and self.prev.type in ("DOT", "QDOT")
        if escaped:  # an escaped word is never a keyword (12.7.2); a reserved one only names a property
            if word in _ESCAPE_FORBIDDEN and not after_dot and not self._key_follows(end, choices):
                raise LexError("Keyword must not contain escaped characters", start, end)
            return self._token("IDENT", word, start, end, line, col)
        kind = self.keyword_types.get(word)
        if not after_dot and word in REFUSED and not self._key_follows(end, choices) and self._refused_here(word, end):
            raise LexError(REFUSED[word], start, end, refused=True)
        if word == "async" and not after_dot and re.match(r"[ \t]*(?:[\w$\[\"'*]|[^\x00-\x7f])", self.text[end:]) \
                and ((self.prev is not None and self.prev.type == "STATIC") or self._member_start()):
            raise LexError("async methods are not supported: patch expressions run synchronously", start, end,
                           refused=True)
        if word == "static" and not after_dot and self._member_start():
            return self._static(start, end, line, col)
        if (word == "get" or word == "set") and not after_dot:
            # an accessor only where the parser takes one and a property name follows
            # (`{get x() {}}`); `{get: 1}`, `{get() {}}` and `get` elsewhere are identifiers
            if word.upper() in choices() and re.match(r"\s*(?:[\w$\[\"'\\]|[^\x00-\x7f])", self.text[end:]) \
                    and not re.match(r"\s*(?:[:,}(=])", self.text[end:]):
                return self._token(word.upper(), word, start, end, line, col)
            return self._token("IDENT", word, start, end, line, col)
        if word == "function" and not after_dot and self.text[end:].lstrip().startswith("*"):
            raise LexError("generator functions are not supported: 'function*' is not allowed in patch expressions",
                           start, end, refused=True)
        if kind is None or after_dot:
            if word == "of" and not after_dot and "OF" in choices():
                return self._token("OF", word, start, end, line, col)
            return self._token("IDENT", word, start, end, line, col)
        accepted = choices()
        if word == "let" and "IDENT" in accepted and _LET_AS_NAME.match(self.text, end):
            kind = "IDENT"  # no binding follows: `let` is a name in sloppy code (`let = 1`, `let;`)
        elif word == "function" and "FUNCTION_DECL" in accepted:
            kind = "FUNCTION_DECL"
        elif word == "class" and "CLASS_DECL" in accepted:
            kind = "CLASS_DECL"
        elif word in RESERVED and self._member_start() and self._key_follows(end, choices):
            kind = "IDENT"  # a class member named by a reserved word: `if() {}` after another member
        elif kind not in accepted and "IDENT" in accepted and (word not in RESERVED or word == "let"
                                                                or self._key_follows(end, choices)):
            # `let` is a name in sloppy code where no declaration may start (`for (var let of x)`)
            kind = "IDENT"
        return self._token(kind, word, start, end, line, col)

    def _refused_here(self, word: str, end: int) -> bool:
        """``async`` is a keyword only before a function, a parameter list or an arrow."""
        if word != "async":
            return True
        rest = self.text[end:end + 60]
        line_rest = rest.split("\n", 1)[0].lstrip()
        return line_rest.startswith(("function", "(")) or bool(re.match(r"[A-Za-z_$][\w$]*\s*=>", line_rest))

    def _key_follows(self, end: int, choices: Callable[[], set[str]] | None = None) -> bool:
        """A reserved word used as a property key (``{default: 1}``, ``{if() {}}``), or as a
        class member's name (``class { static delete() {} }``, ``get if() {}``)."""
        if self.prev is None:
            return False
        rest = self.text[end:end + 40].lstrip()[:1]
        prev = self.prev.type
        if prev in ("LBRACE", "COMMA") and rest in (":", "(", ",", "}"):
            return True
        if prev in ("GET", "SET", "STATIC"):
            return rest == "(" or (prev == "STATIC" and rest in ("=", ";", "}"))
        return rest in ("(", "=", ";", "}") and self._member_start()

    def _static(self, start: int, end: int, line: int, col: int) -> Token:
        """``static`` at the start of a class element: the modifier when a member name follows,
        else a member named ``static`` (``static() {}``, ``static = 1``)."""
        rest = self.text[end:].lstrip()
        if rest[:1] == "{":
            raise LexError("class static blocks ('static { }') are not supported", start, end, refused=True)
        if rest[:1] in ("(", "=", ";", "}", ""):
            return self._token("IDENT", "static", start, end, line, col)
        return self._token("STATIC", "static", start, end, line, col)

    def _punct(self, start: int, line: int, col: int, choices: Callable[[], set[str]]) -> Token:
        text = self.text
        m = _PUNCTUATOR.match(text, start)
        if m is None:
            raise LexError(f"Invalid or unexpected token {text[start]!r}", start)
        p = m.group()
        if p == "?." and text[start + 2:start + 3].isdigit():
            p = "?"
        if p == "/=" and "REGEX" in choices():  # pragma: no cover - regex handled earlier
            p = "/"
        if self.templates:
            if p == "{":
                self.templates[-1] += 1
            elif p == "}":
                self.templates[-1] -= 1
        type_ = self.punct_types[p]
        if p == "*" and ((self.prev is not None and self.prev.type == "STATIC") or self._member_start()):
            raise LexError("generator methods are not supported: '*' methods are not allowed in patch expressions",
                           start, start + 1, refused=True)
        if p == "{":
            accepted = choices()
            if "BLOCK_LBRACE" in accepted and (type_ not in accepted or self._block_preferred()):
                type_ = "BLOCK_LBRACE"
        return self._token(type_, p, start, start + len(p), line, col)

    def _block_preferred(self) -> bool:
        return True


def _scan_identifier(text: str, start: int) -> tuple[str, int]:
    """The identifier name at ``start`` (escapes decoded) and where it ends. Only ID_Start /
    ID_Continue characters belong to it, so ``x\u00a0+ 1`` reads ``x``, white space, ``+``;
    an escape must decode to such a character too."""
    out: list[str] = []
    pos, n = start, len(text)
    while pos < n:
        c = text[pos]
        if c == "\\":
            m = _IDENT_ESCAPE.match(text, pos)
            if m is None:
                raise LexError("Invalid Unicode escape sequence", pos)
            cp = int(m.group(1) or m.group(2), 16)
            if cp > 0x10FFFF:
                raise LexError("Undefined Unicode code-point", pos, m.end())
            decoded = chr(cp)
            if not _is_id_char(decoded, not out):
                raise LexError("Invalid Unicode escape sequence", pos, m.end())
            out.append(decoded)
            pos = m.end()
        elif _is_id_char(c, not out) or (0xD800 <= ord(c) <= 0xDBFF and _is_id_char(_pair(text, pos), not out)):
            width = 2 if 0xD800 <= ord(c) <= 0xDBFF else 1
            out.append(text[pos:pos + width])
            pos += width
        else:
            break
    return "".join(out), pos


def _pair(text: str, pos: int) -> str:
    """The astral character a surrogate pair at ``pos`` spells (or the lone surrogate)."""
    pair = text[pos:pos + 2]
    try:
        return pair.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        return pair[:1]
