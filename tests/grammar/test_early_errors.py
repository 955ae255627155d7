"""Early errors checked on the tree (grammar/early_errors.py) and the identifier lexer fixes."""

from __future__ import annotations

import pytest

from syncpatch import CompileError, compile_expression

VALID = [
    ("var a; var a; a", None),
    ("function f(a, a) { return a } f(1, 2)", 2),  # sloppy duplicate parameters: the last one binds
    ("let x = 1; { let x = 2; } x", 1),
    ("try { throw 1 } catch (e) { var e = 2 } 3", 3),  # Annex B: var may redeclare a plain catch parameter
    ("{ function g() {} function g() {} } 1", 1),  # sloppy: duplicate block functions
    ("var o = {static: 1}; o.static", 1),
    ("label: function h() {} 1", 1),
    ("if (1) function k() {} 2", 2),  # Annex B, sloppy only
    ("for (let i = 0; i < 2; i++) { let i = 5 } 3", 3),
    ("switch (1) { case 1: let q = 1; break; default: } 4", 4),
    ('"\\0".length', 1),
    ("var x = 1; x\u00a0+ 1", 2),  # non-ASCII white space ends an identifier
    ("var x = 1; x\u3000+\u30001", 2),
    ("var \\u0078 = 2; x", 2),
    ("var a\u200cb = 3; a\u200cb", 3),
    ("var \u2118 = 4; \u2118", 4),  # Other_ID_Start
    ("({\\u0069f: 1}).if", 1),  # an escaped reserved word names a property
    ("var o = {if: 5}; o.\\u0069f", 5),
    ("var \\u{1d4d0} = 7; \\u{1d4d0}", 7),
]

INVALID = [
    "let a; var a;",
    "let a; let a;",
    "{ let b; var b; }",
    "{ let b; { var b; } }",
    "if (1) let c = 1;",
    "while (0) const d = 1;",
    "x: let y;",
    "while (1) l: function f() {}",
    "function f(a) { let a; }",
    "try {} catch (e) { let e; }",
    "try {} catch ([e]) { var e; }",
    "for (let i;;) { var i; }",
    "const a = 1; function a() {}",
    "switch (1) { case 1: let q; case 2: let q; }",
    "let let = 1",
    "(a, a) => 1",
    "function f(a = 1) { 'use strict' }",
    '"use strict"; 010',
    '"use strict"; 08',
    '"use strict"; "\\01"',
    '"use strict"; var x; delete x;',
    '"use strict"; var static;',
    '"use strict"; function f(a, a) {}',
    '"use strict"; if (1) function f() {}',
    '"use strict"; label: function f() {}',
    "function f() { 'use strict'; var implements; }",
    "tru\\u0065",
    "var x = n\\u0075ll",
    "\\u0061sync function f() {}",
    "for (var x o\\u0066 []) ;",
    "var \\u0030x",
    "var a\\u00a0",
]


@pytest.mark.parametrize(("source", "expected"), VALID)
def test_valid_scripts_still_run(source: str, expected: object) -> None:
    result = compile_expression(source)()
    if expected is not None:
        assert result == expected


@pytest.mark.parametrize("source", INVALID)
def test_early_errors_are_syntax_errors(source: str) -> None:
    with pytest.raises(CompileError) as info:
        compile_expression(source)
    assert not info.value.refused, info.value.message


def test_refused_constructs_are_marked() -> None:
    for source in ("class A { #x = 1 }", "async function f() {}", "function* g() {}"):
        with pytest.raises(CompileError) as info:
            compile_expression(source)
        assert info.value.refused, source


MORE_INVALID = [
    "var x = ({ c\\u0061se }) => {};",
    "var x = { voi\\u0064 } = { void: 42 };",
    "var enum = 1",
    "var af = enum => 1;",
    "var f = ([...x = []]) => 1;",
    '"use strict"; arguments--;',
    '"use strict"; eval++;',
    "for(\n;\n) { break }",
    "for(\nfalse\nfalse\nfalse\n) { break }",
    "/\u2028/",
]


@pytest.mark.parametrize("source", MORE_INVALID)
def test_more_early_errors(source: str) -> None:
    with pytest.raises(CompileError):
        compile_expression(source)


def test_asi_still_works_inside_a_for_body() -> None:
    assert compile_expression("for (var i = 0; i < 2; i++) {\n var a = 1\n var b = [1\n,2]\n}\n 5")() == 5
    assert compile_expression("var n = 0; for (var k in {a: 1}) { n = `x${ {a: 1}.a }`\n n }\n n")() == "x1"
