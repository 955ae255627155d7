"""Lexer readings that depend on context: `/` after a function expression, `#` and hashbangs,
`let` as a name, a trailing comma after a rest element, and identifier characters of node's
Unicode version (grammar/lexer.py, grammar/identifier_chars.py)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from typing import Any

import pytest
import regex

from syncpatch import CompileError, compile_expression
from syncpatch.grammar import identifier_chars
from syncpatch.grammar.lexer import _is_id_char
from syncpatch.runtime.stdlib.regexp_unicode import NEWER_ASSIGNED

from .gen_identifier_chars import NODE_SCRIPT


def run(source: str) -> Any:
    return compile_expression(source)()


# ---------------------------------------------------------------------------- `/` after `}`
@pytest.mark.parametrize(("source", "expected"), [
    ("var f = function () { return 1 } / 2; f", math.nan),  # division: the function is the dividend
    ("(function () { return 1 } / function () { return 1 })", math.nan),
    ("var o, g = 1; o = function () {} / {}\n/1/g; typeof o", "number"),  # JS reads on as division, no ASI
    ("var a = 6, b = 2, g = 3; a = a\n/b/g; a", 1),
    ("function f() {}\n/a/.test('a')", True),  # after a declaration a statement starts: a regex
    ("if (1) /b/.test('b')", True),
    ("var n = 4; ({} / n)", math.nan),
])
def test_slash_after_a_closing_brace(source: str, expected: object) -> None:
    got = run(source)
    if isinstance(expected, float) and math.isnan(expected):
        assert isinstance(got, float) and math.isnan(got)
    else:
        assert got == expected


# ---------------------------------------------------------------------------- `#`
def test_hashbang_is_a_comment_only_at_the_very_start() -> None:
    assert run("#!/usr/bin/env node\n1 + 1") == 2
    assert run("(0, eval)('#!\\n1')") == 1
    for source in ("//\n#!\n1", " #!\n1", "#\\041\n1", "1\n#!"):
        with pytest.raises(CompileError) as info:
            compile_expression(source)
        assert not info.value.refused, source  # a syntax error, not a refused construct
    with pytest.raises(Exception, match="SyntaxError"):
        run("Function('#!\\n_')")


def test_a_hash_outside_a_class_is_a_syntax_error_inside_one_refused() -> None:
    with pytest.raises(CompileError) as info:
        compile_expression("#x")
    assert not info.value.refused
    for source in ("class A { #x = 1 }", "class A { m() { return #x in this } }"):
        with pytest.raises(CompileError) as info:
            compile_expression(source)
        assert info.value.refused, source


# ---------------------------------------------------------------------------- `let`
@pytest.mark.parametrize(("source", "expected"), [
    ("for (var let of [23]) ; let", 23),
    ("var let; for (let in {a: 1}) ; let", "a"),
    ("var let = 1; let", 1),
    ("var let; let = 4; let", 4),
    ("let\nx = 3; x", 3),
    ("let /* c */ y = 2; y", 2),
    ("let [a] = [2]; a", 2),
    ("for (let of of [1]) ; 5", 5),
])
def test_let_is_a_name_where_no_binding_follows(source: str, expected: object) -> None:
    assert run(source) == expected


@pytest.mark.parametrize("source", [
    '"use strict"; for (var let of []) ;',
    "let let = 1",
    "var x; [...x,] = []",
    "var x; for ([...x,] in [[]]) ;",
    "var x; for ([...x,] of [[]]) ;",
    "let [...y,] = []",
    "var f = ([...z,]) => 1",
    "function f(...a,) {}",  # a rest parameter takes no trailing comma
    "var o = {m(...a,) {}}",
    "var af = x\n=> x;",  # no line break before an arrow
    "var af = (x)\n=> x;",
])
def test_syntax_errors(source: str) -> None:
    with pytest.raises(CompileError) as info:
        compile_expression(source)
    assert not info.value.refused


def test_a_trailing_comma_after_a_spread_is_fine_in_a_literal() -> None:
    assert run("var x = [1, 2]; [...x,].length") == 2


# ---------------------------------------------------------------------------- identifiers
@pytest.mark.parametrize("char", ["\U0002ebf0", "\U00031350", "\u2118", "\u00e9", "\U0001e4d0"])
def test_newer_unicode_letters_start_identifiers(char: str) -> None:
    assert run(f"var {char} = 5; {char}") == 5
    assert run(f"var \\u{{{ord(char):x}}} = 6; {char}") == 6


def test_identifier_characters_outside_id_start() -> None:
    assert run("var a\u00b7 = 1; a\u00b7") == 1  # Other_ID_Continue
    assert run("var a\u30fb = 2; a\u30fb") == 2  # ID_Continue since Unicode 15.1
    for source in ("var \u2e2f = 1", "var a\u0558 = 1", "var \u00b7 = 1"):  # Pattern_Syntax; not yet in node's Unicode
        with pytest.raises(CompileError):
            compile_expression(source)


def _ranges(pattern: str) -> list[tuple[int, int]]:
    compiled = regex.compile(pattern)
    out: list[tuple[int, int]] = []
    for cp in range(0x80, 0x110000):
        if not 0xD800 <= cp <= 0xDFFF and compiled.match(chr(cp)):
            if out and out[-1][1] == cp - 1:
                out[-1] = (out[-1][0], cp)
            else:
                out.append((cp, cp))
    return out


def _minus(ranges: list[tuple[int, int]], cut: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    removed = {cp for lo, hi in cut for cp in range(lo, hi + 1)}
    out: list[tuple[int, int]] = []
    for lo, hi in ranges:
        for cp in range(lo, hi + 1):
            if cp in removed:
                continue
            if out and out[-1][1] == cp - 1:
                out[-1] = (out[-1][0], cp)
            else:
                out.append((cp, cp))
    return out


def test_tables_are_the_regex_packages_less_what_node_leaves_unassigned() -> None:
    """The regex package (a newer Unicode) less the code points node does not assign yet
    (the runtime's list, itself read from node) gives exactly the generated tables."""
    assert list(identifier_chars.ID_START) == _minus(_ranges(r"\p{ID_Start}"), NEWER_ASSIGNED)
    assert list(identifier_chars.ID_CONTINUE) == _minus(_ranges(r"\p{ID_Continue}"), NEWER_ASSIGNED)


def test_lookup_agrees_with_the_tables_at_range_edges() -> None:
    for table, start in ((identifier_chars.ID_START, True), (identifier_chars.ID_CONTINUE, False)):
        for lo, hi in table:
            assert _is_id_char(chr(lo), start) and _is_id_char(chr(hi), start)
            for outside in (lo - 1, hi + 1):
                if 0x80 <= outside <= 0x10FFFF and not 0xD800 <= outside <= 0xDFFF:
                    assert not _is_id_char(chr(outside), start), hex(outside)


@pytest.mark.node
def test_tables_match_node() -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not available")
    out = subprocess.run(["node", "-e", NODE_SCRIPT], capture_output=True, text=True, check=True).stdout
    tables = json.loads(out)
    assert identifier_chars.UNICODE_VERSION == tables["unicode"], "regenerate with gen_identifier_chars.py"
    assert [tuple(r) for r in tables["start"]] == list(identifier_chars.ID_START)
    assert [tuple(r) for r in tables["continue"]] == list(identifier_chars.ID_CONTINUE)


# ---------------------------------------------------------------------------- template escapes
def test_template_escapes_keep_a_carriage_return() -> None:
    """A CR written as ``\\r`` stays a CR; a raw CR or CRLF in the source reads as LF."""
    assert run("(s => s[0] === '\\r' && s.raw[0] === '\\\\r')`\\r`") is True
    assert run("`a\r\nb` === 'a\\nb' && `a\rb` === 'a\\nb'") is True
    assert run("`\\r\\n`.length") == 2
