"""The parser driver: Lark LALR fed by the state-aware lexer, with automatic semicolon insertion.

ASI (ECMA-262 12.10) is done here, where the parser rejects a token: a ``;`` is inserted when
the rejected token follows a line break, is ``}``, or is the end of input, and the state
accepts ``;``. Restricted productions (``return``/``break``/``continue``/``throw`` then a
line break, ``++``/``--`` on a new line) insert the ``;`` eagerly. Every Lark or lexer failure
becomes a ``GrammarError`` here and nowhere else.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import Lexer as LarkLexer, PatternStr
from lark.parsers.lalr_analysis import Shift

from .errors import GrammarError, Span, describe_terminal, hint_for
from .lexer import KEYWORD_TYPES, PUNCTUATORS, LexError, Lexer

__all__ = ["parse_tree", "grammar_parser"]

_COMPOSITE = {
    "+": "ADD_OP", "-": "ADD_OP", "*": "MUL_OP", "/": "MUL_OP", "%": "MUL_OP",
    "===": "EQ_OP", "!==": "EQ_OP", "==": "EQ_OP", "!=": "EQ_OP",
    "<": "REL_OP", ">": "REL_OP", "<=": "REL_OP", ">=": "REL_OP",
    "<<": "SHIFT_OP", ">>": "SHIFT_OP", ">>>": "SHIFT_OP", "++": "INCDEC", "--": "INCDEC",
    "~": "UNARY_OP", "?.": "QDOT",
    **{op: "ASSIGN_OP" for op in "+= -= *= /= %= **= <<= >>= >>>= &= |= ^= &&= ||= ??=".split()},
}
_RESTRICTED = {"RETURN", "BREAK", "CONTINUE", "THROW"}
_OPENERS = {"LPAR", "LSQB", "LBRACE", "BLOCK_LBRACE", "TEMPLATE_HEAD"}
_CLOSERS = {"RPAR", "RSQB", "RBRACE", "TEMPLATE_TAIL"}


class _NoLexer(LarkLexer):
    """Placeholder: tokens are fed by ``Lexer`` through the interactive parser."""

    def __init__(self, conf: Any) -> None:
        pass

    def lex(self, *args: Any) -> Any:  # pragma: no cover - never called
        return iter(())


def _cache_path(grammar_text: str) -> str | bool:
    """Where Lark caches the LALR tables (building them takes ~1 s; loading, milliseconds).

    Keyed by the grammar text and the Lark version, in the user's cache directory; when that
    is not writable, Lark's own temp-dir cache (``True``)."""
    import hashlib
    import os

    import lark as lark_module

    key = hashlib.sha256(f"{lark_module.__version__}\0{grammar_text}".encode()).hexdigest()[:16]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "syncpatch")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return True
    return os.path.join(folder, f"es-grammar-{key}.lark-cache")


@functools.lru_cache(maxsize=1)
def grammar_parser() -> tuple[Lark, dict[str, str], dict[str, str], dict[str, str]]:
    """The Lark parser plus token maps (punctuator -> terminal, keyword -> terminal, words)."""
    text = (Path(__file__).parent / "es.lark").read_text(encoding="utf-8")
    lark = Lark(text, parser="lalr", lexer=_NoLexer, maybe_placeholders=False, propagate_positions=True,
                cache=_cache_path(text))
    punct: dict[str, str] = {}
    keywords: dict[str, str] = dict(KEYWORD_TYPES)
    patterns: dict[str, str] = {}
    for term in lark.terminals:
        if isinstance(term.pattern, PatternStr):
            value = term.pattern.value
            patterns[term.name] = value
            if value.isidentifier():
                keywords.setdefault(value, term.name)
            else:
                punct[value] = term.name
    for p in PUNCTUATORS:
        if p in _COMPOSITE:
            punct[p] = _COMPOSITE[p]
    return lark, punct, keywords, patterns


def _span_of(tok: Token) -> Span:
    return Span(tok.line or 1, tok.column or 1, tok.end_line, tok.end_column)


def _end_position(source: str) -> Span:
    """The position just after the last token (for errors at end of input)."""
    stripped = source.rstrip()
    line = stripped.count("\n") + 1
    column = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return Span(line, column)


def _semicolon(tok: Token, after: Token | None = None) -> Token:
    """An inserted ``;``: zero width, just after the previous token (or at ``tok``)."""
    at = after if after is not None and after.end_line is not None else None
    if at is None:
        return Token("SEMICOLON", ";", start_pos=tok.start_pos, line=tok.line, column=tok.column,
                     end_line=tok.line, end_column=tok.column, end_pos=tok.start_pos)
    return Token("SEMICOLON", ";", start_pos=at.end_pos, line=at.end_line, column=at.end_column,
                 end_line=at.end_line, end_column=at.end_column, end_pos=at.end_pos)


def parse_tree(source: str, origin: str = "<expression>") -> Tree[Any]:
    """Parse a script into Lark's tree; every failure is a GrammarError."""
    lark, punct, keywords, patterns = grammar_parser()
    ip = lark.parse_interactive(None)
    def choices() -> set[str]:
        return set(ip.choices())  # type: ignore[no-untyped-call]  # lark leaves InteractiveParser.choices unannotated
    def viable(terminal: str) -> bool:
        return _viable(ip.parser_state, terminal)
    lexer = Lexer(source, punct, keywords, viable)
    prev_type = ""
    brackets: list[bool] = []  # open brackets, innermost last: is it the head of a `for`?
    try:
        while True:
            tok = lexer.next(choices)
            nl = lexer.newline_before
            in_for_head = bool(brackets) and brackets[-1]  # ASI never makes a for head's `;` (12.10)
            if nl and prev_type == "THROW":
                raise GrammarError("Illegal newline after throw", _span_of(tok), source, origin)
            if nl and tok.value == "=>" and tok.type != "STRING":  # no line break before an arrow (15.3)
                raise GrammarError("Unexpected token '=>'", _span_of(tok), source, origin)
            if nl and (prev_type in _RESTRICTED or tok.type == "INCDEC") and "SEMICOLON" in choices() \
                    and not in_for_head:
                ip.feed_token(_semicolon(tok, lexer.before))
            if tok.type == "$END":
                _finish(ip, tok, lexer.prev, source, origin, patterns)
                raise AssertionError("unreachable: _finish raises")  # pragma: no cover
            _feed(ip, tok, nl and not in_for_head, source, origin, patterns, lexer.before)
            if tok.type in _OPENERS:
                brackets.append(tok.type == "LPAR" and prev_type == "FOR")
            elif tok.type in _CLOSERS and brackets:
                brackets.pop()
            prev_type = tok.type
    except _Done as done:
        return done.tree
    except LexError as exc:
        span = _offset_span(source, exc.pos, exc.end)
        raise GrammarError(exc.message, span, source, origin, refused=exc.refused) from None
    except VisitError as exc:  # pragma: no cover - no transformer runs during parsing
        raise GrammarError(str(exc.orig_exc), Span(1, 1), source, origin) from None


def _viable(state: Any, terminal: str) -> bool:
    """Whether the parser, after the reductions a ``terminal`` lookahead would make, shifts it.

    ``choices()`` lists a state's lookaheads before any reduction, and LALR merges the
    lookaheads of states with one core: after the ``}`` of a function body, the set holds
    what may follow a declaration (a regex starting a statement) and what may follow an
    expression (division). Running the reductions on the state stack alone settles which."""
    states = state.parse_conf.states
    stack = list(state.state_stack)
    while True:
        step = states[stack[-1]].get(terminal)
        if step is None:
            return False
        action, arg = step
        if action is Shift:
            return True
        size = len(arg.expansion)
        if size:
            del stack[-size:]
        stack.append(states[stack[-1]][arg.origin.name][1])


class _Done(Exception):
    def __init__(self, tree: Tree[Any]) -> None:
        self.tree = tree


def _feed(ip: Any, tok: Token, nl: bool, source: str, origin: str, patterns: dict[str, str],
          before: Token | None) -> None:
    try:
        ip.feed_token(tok)
        return
    except UnexpectedToken:
        pass
    if (nl or tok.type == "RBRACE") and "SEMICOLON" in ip.choices():
        ip.feed_token(_semicolon(tok, before))
        if tok.value == "function" and "FUNCTION_DECL" in ip.choices():
            # lexed where only an expression could go on; a statement starts here now
            tok = Token.new_borrow_pos("FUNCTION_DECL", tok.value, tok)
        try:
            ip.feed_token(tok)
            return
        except UnexpectedToken:
            pass
    raise _unexpected(ip, tok, source, origin, patterns)


def _finish(ip: Any, tok: Token, last: Token | None, source: str, origin: str, patterns: dict[str, str]) -> None:
    end = Token("$END", "", start_pos=tok.start_pos, line=tok.line, column=tok.column,
                end_line=tok.line, end_column=tok.column, end_pos=tok.start_pos)
    try:
        raise _Done(ip.feed_eof(end))
    except UnexpectedToken:
        pass
    if "SEMICOLON" in ip.choices():
        ip.feed_token(_semicolon(tok, last))
        try:
            raise _Done(ip.feed_eof(end))
        except UnexpectedToken:
            pass
    raise _unexpected(ip, end, source, origin, patterns)


def _unexpected(ip: Any, tok: Token, source: str, origin: str, patterns: dict[str, str]) -> GrammarError:
    expected = sorted({describe_terminal(t, patterns.get(t)) for t in ip.choices() if t.isupper() or t == "$END"})
    if tok.type == "$END":
        span = _end_position(source)
        found = "end of input"
        message = "Unexpected end of input"
    else:
        span = _span_of(tok)
        found = f"'{tok.value}'" if tok.type not in ("STRING", "NUMBER", "IDENT") else str(tok.value)
        message = f"Unexpected token {found}" if tok.type not in ("IDENT",) else f"Unexpected identifier '{tok.value}'"
        if tok.type == "STRING":
            message = "Unexpected string"
        elif tok.type == "NUMBER":
            message = "Unexpected number"
    if expected and len(expected) <= 8:
        message += f"; expected {', '.join(expected[:-1]) + ' or ' + expected[-1] if len(expected) > 1 else expected[0]}"
    offset = tok.start_pos if tok.start_pos is not None else len(source)
    hint = hint_for(source, offset, tok.type if tok.type in ("STRING",) else str(tok.value))
    return GrammarError(message, span, source, origin, hint=hint)


def _offset_span(source: str, pos: int, end: int) -> Span:
    line = source.count("\n", 0, pos) + 1
    col = pos - (source.rfind("\n", 0, pos) + 1) + 1
    end = min(end, len(source))
    end_line = source.count("\n", 0, end) + 1
    end_col = end - (source.rfind("\n", 0, end) + 1) + 1
    return Span(line, col, end_line, end_col if end_line == line else col + 1)


_ = UnexpectedInput
