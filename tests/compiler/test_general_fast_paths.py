"""The general tier's fast paths (arrow callbacks run without a function object, inline
element reads) give the same answers as the generic calls, stay under the budgets, and step
aside as soon as a script patches a built-in.

Every expression here is compiled with ``budgets=Budgets()``, which forces the general tier.
"""

from __future__ import annotations

import ast
from typing import Any

import pytest

from syncpatch import Budgets, LimitExceeded, UNDEFINED, compile_expression
from syncpatch.compiler import generate_module

GENERAL = Budgets()


def run(source: str, value: Any = None, budgets: Budgets = GENERAL) -> Any:
    return compile_expression(source, budgets=budgets)(value)


def generated(source: str) -> str:
    return ast.unparse(generate_module(source).module)


CALLBACKS = [
    ("[1, 2, 3].map(x => x * 2)", [2, 4, 6]),
    ("[1, 2, 3].map((x, i, a) => a.length * 10 + i)", [30, 31, 32]),
    ("[0, 1, '', 'a', null].filter(x => x)", [1, "a"]),
    ("let n = 0; [1, 2, 3].forEach(x => { n += x }); n", 6),
    ("[1, 2, 3].some(x => x > 2)", True),
    ("[1, 2, 3].some(x => x > 3)", False),
    ("[1, 2, 3].every(x => x)", True),
    ("[1, 0, 3].every(x => x)", False),
    ("[{a: 1}, {a: 2}].find(o => o.a === 2)", {"a": 2}),
    ("[1, 2].find(x => x > 5)", UNDEFINED),
    ("[1, 2, 3].findIndex(x => x === 3)", 2),
    ("[1, 2, 3].reduce((a, b) => a + b)", 6),
    ("[1, 2, 3].reduce((a, b) => a + b, 10)", 16),
    ("[[1], [2, 3], 4].flatMap(x => x)", [1, 2, 3, 4]),
    ("[1, 2].flatMap(x => [[x]])", [[1], [2]]),
    # the callback shrinks or grows the array: visits stop at the live length, appended
    # elements are not visited (23.1.3.21 with HasProperty)
    ("const a = [1, 2, 3]; a.map(x => a.pop()).length", 3),
    ("const a = [1, 2, 3]; let n = 0; a.forEach(x => { a.push(x); n++ }); [n, a.length]", [3, 6]),
    ("const a = [1, 2, 3]; a.find((x, i) => { a.length = 1; return i === 2 })", UNDEFINED),
    ("[1, 2].map(x => this === globalThis)", [True, True]),
]


@pytest.mark.parametrize(("source", "expected"), CALLBACKS)
def test_arrow_callbacks(source: str, expected: Any) -> None:
    assert run(source) == expected


def test_arrow_callbacks_take_the_fast_call() -> None:
    """The rows above exercise ``invoke_arrow`` (not an ordinary ``invoke``)."""
    text = generated("value.map(x => x).filter(x => x).reduce((a, b) => a + b, 0)")
    assert text.count("invoke_arrow(") == 3 and "JSFunction(" not in text


def test_an_arrow_alone_calls_the_array_loop_directly() -> None:
    """``arr.map(arrow)`` tests its receiver inline and calls the built-in loop; with a second
    argument (which could run a script) the test stays in ``invoke_arrow``, after it."""
    text = generated("value.map(x => x)")
    assert "ARRAY_CALLBACKS['map'](" in text and "invoke_arrow(" in text
    assert "ARRAY_CALLBACKS['reduce'](" in generated("value.reduce((a, b) => a + b, 0)")  # (a literal runs no script)
    assert "ARRAY_CALLBACKS" not in generated("value.reduce((a, b) => a + b, value.length)")


class _Shadowing(list[Any]):  # a caller's list subclass: read as its plain elements, never its overrides
    def __iter__(self) -> Any:
        return iter(["override"])

    def __len__(self) -> int:
        return 1

    def __getitem__(self, i: Any) -> Any:
        return "override"


@pytest.mark.parametrize(("source", "expected"), [
    ("value.map(x => x * 2)", [2, 4]),
    ("value.filter(x => x > 1)", [2]),
    ("value.reduce((a, b) => a + b)", 3),
    ("value.some(x => x === 'override')", False),
    ("value.reduce((a, b) => a + b, 10)", 13),
    ("value.reduce((a, b) => a.concat([b]), [])", [1, 2]),
    ("value.reduce((o, x) => (o['k' + x] = x, o), {})", {"k1": 1, "k2": 2}),
])
def test_a_callers_list_subclass_reads_as_its_plain_elements(source: str, expected: Any) -> None:
    assert run(source, _Shadowing([1, 2])) == expected


def test_a_patch_made_by_the_receiver_is_seen() -> None:
    """The receiver runs before the inline test: a patch it makes takes the generic call."""
    assert run("(Array.prototype.map = function (f) { return ['mine', f(1)] }, [1, 2]).map(x => x + 1)") == ["mine", 2]
    assert run("(Array.prototype.reduce = function (f, a) { return ['mine', a] }, [1, 2]).reduce((a, b) => a + b, 0)") \
        == ["mine", 0]


@pytest.mark.parametrize("source", [
    "''.map(x => x)", "({}).map(x => x)", "(5).filter(x => x)", "null.map(x => x)", "value.map(x => x)",
    "[].reduce((a, b) => a)",
])
def test_non_arrays_and_errors_take_the_generic_path(source: str) -> None:
    with pytest.raises(Exception) as info:
        run(source, UNDEFINED)
    assert "TypeError" in str(info.value)


def test_other_receivers_get_a_function_object() -> None:
    """An object's own ``map`` receives the arrow as a real function."""
    assert run("({map(f) { return [typeof f, f.length, f.name, f(2)] }}).map((x, y) => x * 3)") == ["function", 2, "", 6]
    assert run("({length: 2, 0: 'a', 1: 'b'}) && Array.prototype.map.call({length: 2, 0: 'a', 1: 'b'}, s => s + '!')") \
        == ["a!", "b!"]


def test_patched_builtin_is_called_and_the_next_evaluation_is_pristine() -> None:
    patched = compile_expression(
        "Array.prototype.map = function (f) { return ['mine', f(20)] }; value.map(x => x + 1)", budgets=GENERAL)
    assert patched([1, 2]) == ["mine", 21]
    assert patched([1, 2]) == ["mine", 21]  # the same script again: its own write is made afresh
    plain = compile_expression("value.map(x => x + 1)", budgets=GENERAL)
    assert plain([1, 2]) == [2, 3]
    assert run("[1, 2].filter(x => x > 1)") == [2]


def test_patch_made_inside_a_callback_reaches_the_next_call() -> None:
    source = ("const out = [1].map(x => { Array.prototype.filter = () => 'patched'; return x }); "
              "[out, [1, 2].filter(x => true)]")
    assert run(source) == [[1], "patched"]
    assert run("[1, 2].filter(x => true)") == [1, 2]


def test_array_own_method_wins() -> None:
    assert run("const a = [1, 2]; a.map = function (f) { return f(7) }; a.map(x => x * 2)") == 14


STEPS = Budgets(steps=2_000, wall_time=30.0)
BIG = list(range(10_000))


@pytest.mark.parametrize("source", [
    "value.map(x => 1).length", "value.filter(x => true).length", "value.forEach(x => 1)",
    "value.some(x => false)", "value.every(x => true)", "value.find(x => false)", "value.findIndex(x => false)",
    "value.reduce((a, b) => a, 0)", "value.flatMap(x => x).length",
])
def test_each_visit_is_charged_a_step(source: str) -> None:
    with pytest.raises(LimitExceeded) as info:
        run(source, BIG, STEPS)
    assert info.value.budget == "steps"
    run(source, BIG[:100], STEPS)  # the same call on a small array stays inside the budget


ELEMENTS = [
    ("value[1]", [5, 6], 6),
    ("value[2]", [5, 6], UNDEFINED),
    ("value[0]", "ab", "a"),
    ("value[0]", {"0": "zero"}, "zero"),
    ("value['a-b']", {"a-b": 1}, 1),
    ("value['length']", [1, 2, 3], 3),
    ("value['missing']", {}, UNDEFINED),
    ("value['toString'] === Object.prototype.toString", {}, True),
    ("Array.prototype[1] = 'p'; [value[1], [1, , 3][1]]", [0], ["p", "p"]),
    ("Object.defineProperty(value, 0, {get() { return 'g' }}); value[0]", [1], "g"),
    ("value.split('.')[1] ?? 'none'", "a.b", "b"),
    ("value.split('.')[1] ?? 'none'", "a", "none"),
]


@pytest.mark.parametrize(("source", "value", "expected"), ELEMENTS)
def test_inline_element_reads(source: str, value: Any, expected: Any) -> None:
    assert run(source, value) == expected


def test_element_read_of_nullish_is_a_type_error() -> None:
    with pytest.raises(Exception) as info:
        run("value[0]", None)
    assert "Cannot read properties of null (reading '0')" in str(info.value)


GLOBAL_READS = [
    ("Number('12') + Object.keys({a: 1}).length", 13),
    ("globalThis.Number = () => 5; Number('12')", 5),
    ("Object = {keys: () => ['mine']}; Object.keys({a: 1})", ["mine"]),
    ("Object.defineProperty(globalThis, 'JSON', {get() { return {stringify: () => 'got'} }}); JSON.stringify(1)",
     "got"),
    ("Object.keys({a: 1}, Object = null)", ["a"]),  # the callee is read before the arguments run
]


@pytest.mark.parametrize(("source", "expected"), GLOBAL_READS)
def test_builtin_global_reads(source: str, expected: Any) -> None:
    assert run(source) == expected
    assert run("[Number('12'), Object.keys({a: 1}), JSON.stringify(1)]") == [12, ["a"], "1"]


def test_deleted_builtin_global_is_a_reference_error() -> None:
    with pytest.raises(Exception) as info:
        run("delete globalThis.JSON; JSON.stringify(1)")
    assert "ReferenceError" in str(info.value)
    assert run("JSON.stringify(1)") == "1"


BUILTIN_FAST_PATHS = [
    ("['b', 'a', 'B', '10', '9'].sort()", ["10", "9", "B", "a", "b"]),
    ("['\\u{1F600}', '\\uFFFF'].sort()[0] === '\\u{1F600}'", True),  # UTF-16 order, not code points
    ("[3, 'a', 1, undefined, 'A'].sort()", [1, 3, "A", "a", UNDEFINED]),
    ("Object.keys({b: 1, 2: 'x', 1: 'y'})", ["1", "2", "b"]),
    ("const s = Symbol(); Object.keys({a: 1, [s]: 2})", ["a"]),
    ("Object.entries({b: 1, 2: 'x', 1: 'y'})", [["1", "y"], ["2", "x"], ["b", 1]]),
    ("Object.fromEntries([['a', 1], [2, 'b'], ['c']])", {"a": 1, "2": "b", "c": UNDEFINED}),
    ("Object.fromEntries([[{toString() { return 'k' }}, 1]])", {"k": 1}),
    ("Object.keys(Object.fromEntries([['b', 1], ['10', 2], ['2', 3]]))", ["2", "10", "b"]),
    ("'a.b..c'.split('.')", ["a", "b", "", "c"]),
    ("''.split('.')", [""]),
    ("'a.b'.split('')", ["a", ".", "b"]),
    ("'é.b'.split('.')", ["é", "b"]),
    ("String.prototype.split = () => 'mine'; 'a.b'.split('.')", "mine"),
]


@pytest.mark.parametrize(("source", "expected"), BUILTIN_FAST_PATHS)
def test_builtin_fast_paths(source: str, expected: Any) -> None:
    assert run(source) == expected


REGEXP_LITERALS = [
    ("'a/b a/b'.replace(/a[/]b/g, 'x')", "x x"),
    ("'abc'.replace(/b/, m => m.toUpperCase())", "aBc"),
    ("'a1b2'.split(/\\d/)", ["a", "b", ""]),
    ("'a1b2'.match(/\\d/g)", ["1", "2"]),
    ("'a1b2'.search(/b/)", 2),
    ("'aXa'.replaceAll(/a/g, '$&$&')", "aaXaa"),
    ("/a/.test('xa')", True),
    ("const r = /a/g; [r.test('aa'), r.lastIndex]", [True, 1]),
    ("String.prototype.replace = () => 'p'; 'a'.replace(/a/, 'b')", "p"),
    ("RegExp.prototype[Symbol.replace] = () => 'sym'; 'a'.replace(/a/, 'b')", "sym"),
    ("RegExp.prototype.test = () => 'mine'; /a/.test('b')", "mine"),
    ("const r = /a/; r.test = () => 'own'; r.test('b')", "own"),
    ("({replace: (r) => r.source}).replace(/x+/)", "x+"),
]


@pytest.mark.parametrize(("source", "expected"), REGEXP_LITERALS)
def test_regexp_literal_arguments(source: str, expected: Any) -> None:
    assert run(source) == expected
    assert run("'a'.replace(/a/, 'b')") == "b"


def test_regexp_literal_on_nullish_is_a_type_error() -> None:
    for source, shown in (("value.replace(/a/g, 'x')", "null"), ("value.replaceAll(/a/, 'x')", "null")):
        with pytest.raises(Exception) as info:
            run(source, None)
        assert f"Cannot read properties of {shown} (reading 'replace" in str(info.value)


CALLED_ARROWS_AND_LOGICAL_ASSIGNMENT = [
    ("(value => { value.metadata ??= {}; value.metadata.a ??= 1; return value })({})", {"metadata": {"a": 1}}),
    ("((a, ...b) => [a, b, this === globalThis])(...[1, 2, 3])", [1, [2, 3], True]),
    ("(() => typeof arguments)()", "undefined"),
    ("const o = {a: 0}; o.a ||= 5; o.a &&= o.a + 1; o.b ??= 2; o.b ??= 3; o", {"a": 6, "b": 2}),
    ("const o = Object.defineProperty({}, 'a', {get() { return 1 }, set(v) { throw 0 }}); o.a ??= 2; o.a", 1),
]


@pytest.mark.parametrize(("source", "expected"), CALLED_ARROWS_AND_LOGICAL_ASSIGNMENT)
def test_called_arrows_and_logical_assignment(source: str, expected: Any) -> None:
    assert run(source) == expected


def test_logical_assignment_on_nullish_is_a_type_error() -> None:
    with pytest.raises(Exception) as info:
        run("value.metadata ??= {}", None)
    assert "Cannot read properties of null (reading 'metadata')" in str(info.value)


ABSENT_KEYS = [
    ("value.missing", UNDEFINED),
    ("value.toString === Object.prototype.toString", True),
    ("value.constructor === Object", True),
    ("value.__proto__ === Object.prototype", True),
    ("value.hasOwnProperty('a')", True),
    ("Object.prototype.x = 1; value.x", 1),
    ("Object.defineProperty(Object.prototype, 'g', {get() { return 'got' }}); value.g", "got"),
    ("Object.setPrototypeOf(value, {p: 2}); value.p", 2),
]


@pytest.mark.parametrize(("source", "expected"), ABSENT_KEYS)
def test_absent_keys_of_plain_objects(source: str, expected: Any) -> None:
    assert run(source, {"a": 1}) == expected
    assert run("[value.x, value.g, value.p]", {"a": 1}) == [UNDEFINED, UNDEFINED, UNDEFINED]


TEMPLATES = [
    ("`${value.a}/${value.b}`", "x/y"),
    ("`p-${value.a}`", "p-x"),
    ("`${value.a}`", "x"),
    ("`${value.n}/${value.a}`", "1/x"),
    ("`${value.a}${value.b}`", "xy"),
    ("`${'\\uD83D'}${'\\uDE00'}` === '\\u{1F600}'", True),
    ("`${'\\uD83D'}-${'\\uDE00'}`.length", 3),
    ("`${{toString() { return 'o' }}}:${[1, 2]}`", "o:1,2"),
    ("const s = 'ab'.repeat(3000); `${s}-${s}`.length", 12001),
]


@pytest.mark.parametrize(("source", "expected"), TEMPLATES)
def test_templates(source: str, expected: Any) -> None:
    assert run(source, {"a": "x", "b": "y", "n": 1}) == expected


def test_template_of_a_symbol_is_a_type_error() -> None:
    with pytest.raises(Exception) as info:
        run("`${Symbol()}/${'a'}`")
    assert "Cannot convert a Symbol value to a string" in str(info.value)


def test_doubling_templates_meet_the_string_budget() -> None:
    with pytest.raises(LimitExceeded) as info:
        run("let s = 'ab'; for (let i = 0; i < 40; i++) s = `${s}/${s}`; s.length", None,
            Budgets(string_length=100_000, wall_time=30.0))
    assert info.value.budget == "string_length"


PLAIN_CALLS = [
    ("String(5) + Number('2')", "52"),
    ("function f(a) { return a + 1 } f(1)", 2),
    ("(function () { return this })() === globalThis", True),
    ("let n = 0; try { (void 0)(n++) } catch (e) { [e instanceof TypeError, n] }", [True, 1]),
    ("let n = 0; const o = {}; try { o.x(n++) } catch (e) { [e instanceof TypeError, n] }", [True, 1]),
    ("function f() { return f } f()()() === f", True),
]


@pytest.mark.parametrize(("source", "expected"), PLAIN_CALLS)
def test_plain_calls(source: str, expected: Any) -> None:
    assert run(source) == expected


def test_deep_recursion_is_still_the_depth_budget() -> None:
    with pytest.raises(LimitExceeded):
        run("function f(n) { return f(n + 1) } f(0)")


def test_flat_map_checks_the_array_budget_at_its_edge() -> None:
    """flatMap's inline test of the array budget refuses exactly what ``check_array`` refuses."""
    source = "value.flatMap(x => [x, x]).length"
    assert run(source, [1, 2, 3], Budgets(array_length=6)) == 6
    with pytest.raises(LimitExceeded) as info:
        run(source, [1, 2, 3, 4], Budgets(array_length=7))
    assert info.value.budget == "array_length"
