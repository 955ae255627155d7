"""Code generation: snapshots of generated Python, determinism, the two exits, sandboxing."""

from __future__ import annotations

import ast
import copy
import dis
import sys
from typing import Any

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from syncpatch import compile_expression
from syncpatch.compiler import emit_expression, generate_module
from syncpatch.compiler.checks import mutates_inputs
from syncpatch.grammar.build import parse
from syncpatch.runtime import abi
from syncpatch.runtime.compiled import PROVIDERS, CompiledExpression

SOURCES = [
    '"p-" + value',
    "value.metadata.labels",
    "value.spec?.ports?.[0].name ?? 'none'",
    "value.map(p => ({...p, port: p.port + 1}))",
    "value['k'] = 'v'; value",
    "let s = 0; for (let i = 0; i < 3; i++) { if (i % 2) continue; s += i } s",
    "const {a, b: [c = 1]} = value; a + c",
    "function f(n) { return n < 2 ? n : f(n - 1) + f(n - 2) } f(value)",
    "try { JSON.parse(value) } catch (e) { e.name }",
    "switch (value) { case 1: 'one'; break; default: 'other' }",
    "`${value.name}-${context.vcluster.name}`",
    "typeof undeclared === 'undefined' && value !== 'x'",
    "1 + 2 * 3",
]


class TextSnapshot(SingleFileSnapshotExtension):
    """Generated code lives in one .txt file (a .py snapshot would be collected by pytest)."""

    _write_mode = WriteMode.TEXT
    file_extension = "txt"


def _generated(source: str) -> str:
    return ast.unparse(generate_module(source).module)


def _module_text(source: str) -> str:
    """The emitted module as an artifact prints it."""
    return ast.unparse(emit_expression(source).module)


def _run_module_text(text: str) -> CompiledExpression:
    namespace: dict[str, Any] = {}
    exec(compile(text, "<artifact>", "exec"), namespace)  # noqa: S102
    record: CompiledExpression = namespace["_expression"]
    return record


def test_generated_code(snapshot: Any) -> None:
    text = "\n\n".join(f"# ---- {src}\n{_generated(src)}" for src in SOURCES) + "\n"
    assert text == snapshot.use_extension(TextSnapshot)


@pytest.mark.parametrize("source", SOURCES)
def test_codegen_is_deterministic(source: str) -> None:
    assert _module_text(source).encode() == _module_text(source).encode()
    assert _generated(source) == _generated(source)


def test_fast_path_for_string_concat() -> None:
    text = _generated('"p-" + value')
    assert "'p-' + _t" in text and "add('p-'" in text


def test_constants_are_folded() -> None:
    assert "return 7" in _generated("1 + 2 * 3")


def test_user_text_only_as_constants() -> None:
    """A JS name that looks like Python never becomes a Python identifier."""
    source = "let __import__ = 1; let exec = 2; String(__import__ + exec) + value.__class__"
    tree = generate_module(source).module
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "__import__" not in names and "exec" not in names
    assert compile_expression(source)({}) == "3undefined"


def test_generated_code_sees_only_the_abi() -> None:
    namespace = abi.namespace()
    assert namespace["__builtins__"] == {}
    assert set(namespace) == {"__builtins__", *abi.NAMES}


def test_module_exit_imports_only_the_runtime() -> None:
    text = _module_text("value.x + 1")
    imports = [n for n in ast.walk(ast.parse(text)) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert imports and all(isinstance(n, ast.ImportFrom) and n.module in PROVIDERS for n in imports)


def test_module_exit_loads_without_lark() -> None:
    """The artifact text runs with the compiler stages blocked from import."""
    text = _module_text("value.map(x => x * 2)")
    blocked = {name: sys.modules.get(name) for name in ("lark",)}
    try:
        sys.modules["lark"] = None  # type: ignore[assignment]
        record = _run_module_text(text)
    finally:
        for name, module in blocked.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    assert record([1, 2]) == [2, 4]


def test_free_globals_are_reported() -> None:
    expr = compile_expression("vcp-eks + Math.max(value, undeclared)")
    assert set(expr.free_globals) == {"vcp", "eks", "Math", "undeclared"}


@pytest.mark.parametrize(
    ("source", "mutates"),
    [
        ("value.a + 1", False),
        ("value.map(x => x.name)", False),
        ("value.a = 1", True),
        ("value.push(1)", True),
        ("delete value.a", True),
        ("value.sort()", True),
        ("Object.assign(value, {})", True),
        ("value[k]()", True),
        ("value.list.forEach(x => x.seen = true)", True),
        ("let v = value; v.b++", True),
    ],
)
def test_mutation_analysis(source: str, mutates: bool) -> None:
    assert mutates_inputs(parse(source)) is mutates


@pytest.mark.parametrize(("source", "value"), [
    ("let out = {}; for (const [k, v] of Object.entries(value)) out[k.toUpperCase()] = v * 2; out", {"x": 1, "y": 2}),
    ("value.map(x => x * 2)", [1, 2]),
    ("value.k = 1; value", {}),
    ("value.a.b", {}),
    ('"v-" + value', "é"),
])
def test_closure_and_module_exits_agree(source: str, value: Any) -> None:
    """The in-process closure and the printed module (what an artifact holds) are one module."""
    import syncpatch

    closure, module = compile_expression(source), _run_module_text(_module_text(source))
    assert module.facts == closure.compiled.facts
    try:
        expected = closure(copy.deepcopy(value), {})
    except syncpatch.EvaluationError as exc:
        with pytest.raises(syncpatch.EvaluationError) as info:
            module(value, {})
        assert str(info.value) == str(exc)
        return
    original = copy.deepcopy(value)
    assert module(value, {}) == expected
    assert value == original


def test_js_positions_are_stamped_on_generated_code() -> None:
    tree = generate_module("1;\n\n value.x").module
    lines = {getattr(n, "lineno", None) for n in ast.walk(tree)}
    assert 3 in lines


@pytest.mark.parametrize("source", ["value + 1", "value / 2", "String(value)", "JSON.stringify(value)",
                                    '"tenant-" + value', "value ?? context.vcluster.name"])
def test_native_entry_runs_no_nop_for_its_try(source: str) -> None:
    """CPython marks a ``try`` on a line of its own with a NOP that runs on every call; the
    native entry's ``try`` takes its body's first line, so the public call runs none."""
    entry = compile_expression(source)
    assert entry.native
    assert "NOP" not in [i.opname for i in dis.get_instructions(entry)]
    assert entry(8080 if "/" in source or "+ 1" in source else "x", {"vcluster": {"name": "v"}}) is not None
