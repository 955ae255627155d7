"""The grammar stage on its own: parsing, AST shape (snapshots), ASI, early errors."""

from __future__ import annotations

import pickle

import pytest

from syncpatch.grammar import ast as A
from syncpatch.grammar.build import parse
from syncpatch.grammar.errors import GrammarError, hint_for

SNAPSHOT_SOURCES = [
    "value.a?.b[0]",
    '"p-" + value',
    "({a, b: [c = 1], ...rest}) => a + c",
    "value['k'] = 'v'; value",
    "{a: 1}",
    "`x${value.name}y`",
    "for (const [k, v] of Object.entries(value)) { if (!v) continue }",
    "let a = 1\nlet b = a\n/2/1",
    "try { f() } catch ({message}) { message } finally { g() }",
]


@pytest.mark.parametrize("source", SNAPSHOT_SOURCES)
def test_ast_dump(source: str, snapshot: object) -> None:
    assert A.dump(parse(source)) == snapshot


@pytest.mark.parametrize(
    "source",
    [
        "1", "a.b.c", "a?.b?.()", "new Date(0)", "new a.b.C", "a => b => c", "(a, b) => {}",
        "(...r) => r", "async", "x = y = z", "a ? b : c ? d : e", "a ?? (b || c)", "(a || b) ?? c",
        "[, , 1, ...x,]", "({get: 1, set: 2, of: 3, default: 4, if: 5})", "a.default + a.if", "/[/]/.test(x)",
        "x / y / z", "function f() { return }", "label: for (;;) break label", "do x++; while (x < 3)",
        "switch (x) { case 1: default: }", "var {a = 1, b: {c}} = o", "0x1F + 0o7 + 0b1 + 1_000 + .5e-3",
        "'\\x41\\u0041\\u{1F600}\\0'", "`a${`b${c}`}`", "String.raw`\\unicode`", "a\n++b", "if (a) b; else c",
    ],
)
def test_accepts(source: str) -> None:
    assert isinstance(parse(source), A.Program)


@pytest.mark.parametrize(
    ("source", "line", "column", "fragment"),
    [
        ("({a:})", 1, 5, "Unexpected token"),
        ("1 2", 1, 3, "Unexpected number"),
        ("a || b ?? c", 1, 8, "'??'"),
        ("=> 1", 1, 1, "Unexpected token '=>'"),
        ("'\\u{110000}'", 1, 1, "Undefined Unicode code-point"),
        ("`\\unicode`", 1, 1, "Invalid Unicode escape"),
        ("let a = 1;\nlet a = 2", 2, 5, "already been declared"),
        ("value +", 1, 8, "Unexpected end of input"),
        ("x = {\n  a: 1,\n  b: ,\n}", 3, 6, "Unexpected token ','"),
        ("throw\nx", 2, 1, "Illegal newline after throw"),
        ("({a = 1})", 1, 3, "Invalid shorthand property initializer"),
        ("1 = 2", 1, 1, "Invalid destructuring assignment target"),
        ("a?.b = 1", 1, 1, "Invalid left-hand side"),
        ("class A {\n  #x = 1\n}", 2, 3, "private class members"),
        ("function* g() {}", 1, 1, "generator"),
        ("async () => 1", 1, 1, "async"),
        ("import('x')", 1, 1, "import"),
        ("'use strict'; with (a) {}", 1, 15, "Strict mode code may not include a with statement"),
        ("x.y\ndebugger", 2, 1, "debugger"),
        ("1n", 1, 1, "BigInt"),
        ("'abc", 1, 1, "unterminated string"),
        ("/(/", 1, 1, "Invalid regular expression"),
        ("/(?<=a/", 1, 1, "Invalid regular expression"),
        ("value.map(x => /(/)", 1, 16, "Invalid regular expression"),
        ("return 1", 1, 1, "Illegal return"),
        ("break", 1, 1, "Illegal break"),
    ],
)
def test_compile_errors_have_positions(source: str, line: int, column: int, fragment: str) -> None:
    from syncpatch import CompileError, compile_expression

    with pytest.raises(CompileError) as info:
        compile_expression(source)
    err = info.value
    assert (err.line, err.column) == (line, column), str(err)
    assert fragment in str(err)


def test_top_level_this_is_the_global_object() -> None:
    """In a script, top-level ``this`` is the global object (it was refused before)."""
    from syncpatch import compile_expression

    assert compile_expression("typeof this")(None) == "object"
    assert compile_expression("this.JSON === JSON")(None) is True


def test_compile_error_renders_caret_and_pickles() -> None:
    with pytest.raises(GrammarError) as info:
        parse("value.a +\n  * 2", origin="patch.yaml")
    err = info.value
    text = str(err)
    assert text.startswith("patch.yaml:2:3: Unexpected token '*'")
    assert text.splitlines()[1].strip() == "* 2"
    assert text.splitlines()[2].strip() == "^"
    again = pickle.loads(pickle.dumps(err))
    assert str(again) == text and (again.line, again.column) == (2, 3)


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        ("{a: 1, b: 2}", "wrap an object literal in parentheses"),
        ("value.map(x => {a: x, b: 1})", "arrow body"),
        ("vcp-eks foo", "did you mean a string"),
    ],
)
def test_hints_for_common_mistakes(source: str, hint: str) -> None:
    with pytest.raises(GrammarError) as info:
        parse(source)
    assert info.value.hint is not None and hint in info.value.hint


def test_hint_for_nothing_recognisable() -> None:
    assert hint_for("1 2", 2, "2") is None


def test_asi_restricted_return() -> None:
    program = parse("function f() {\n  return\n  1\n}")
    fn = program.body[0]
    assert isinstance(fn, A.FunctionDeclaration)
    ret = fn.body.body[0]
    assert isinstance(ret, A.ReturnStatement) and ret.argument is None


def test_regex_versus_division_by_parser_state() -> None:
    e = parse("a / b / c").body[0]
    assert isinstance(e, A.ExpressionStatement) and isinstance(e.expression, A.BinaryExpression)
    r = parse("x = /b/g").body[0]
    assert isinstance(r, A.ExpressionStatement)
    assert isinstance(r.expression, A.AssignmentExpression) and isinstance(r.expression.right, A.RegExpLiteral)


def test_statement_start_brace_is_a_block() -> None:
    assert isinstance(parse("{a: 1}").body[0], A.BlockStatement)
    assert isinstance(parse("({a: 1})").body[0], A.ExpressionStatement)


def test_every_node_has_a_span() -> None:
    for node in A.walk(parse("const f = ({a}, [b] = [1], ...c) => a ? `${b}` : c?.d ?? new X(...c); f(value)")):
        assert node.span.line >= 1 and node.span.column >= 1


@pytest.mark.parametrize("source", ["(" * 3000 + "1" + ")" * 3000, "[" * 3000 + "]" * 3000,
                                    "+".join(["value"] * 4000), "a" + ".b" * 6000])
def test_deep_nesting_is_a_compile_error_not_a_crash(source: str) -> None:
    from syncpatch import CompileError, compile_expression

    with pytest.raises(CompileError, match="nested too deeply"):
        compile_expression(source)


def test_long_flat_chains_compile() -> None:
    from syncpatch import CompileError, compile_expression

    # a chain compiles to calls nested one a link: 150 terms fit the compiled-form bound
    # (docs/security.md, "The compiled form is bounded too"), 500 are refused naming it
    assert compile_expression("+".join(["value"] * 150))("a") == "a" * 150
    with pytest.raises(CompileError, match="nested too deeply"):
        compile_expression("+".join(["value"] * 500))
    assert compile_expression(";".join(["value.n++"] * 500) + "; value.n")({"n": 0}) == 500
