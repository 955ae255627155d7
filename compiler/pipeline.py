"""The compiler's entry points: source -> checked AST -> Python code, with two exits.

1. In process: ``compile_program`` compiles the generated module and ``bind_main`` runs it in
   a fresh globals dict holding only ``{"__builtins__": {}}`` plus the runtime ABI names.
2. Artifact: ``compile_to_module_source`` renders the same module as Python source text with
   one ``from syncpatch.runtime.abi import ...`` line, the ABI version and a source hash, for
   the ``compile-patches`` build step.
"""

from __future__ import annotations

import ast
import copy
import hashlib
from types import CodeType
from typing import Any, Callable

from syncpatch.grammar import ast as A
from syncpatch.grammar.build import parse
from syncpatch.grammar.errors import CompileError, Span
from syncpatch.runtime import abi

from .checks import check_program, mutates_inputs, only_writes_value_members
from .codegen import GeneratedCode, generate
from .native import native_program
from .pyast import locate

__all__ = ["CompiledProgram", "NativeFirstProgram", "compile_native_first", "compile_program", "bind_main", "bind_entry", "entry_module", "generate_module", "compile_to_module_source",
           "source_hash"]


class CompiledProgram:
    """A compiled script: the code object of the module defining ``_main``, and its facts."""

    __slots__ = ("source", "origin", "code", "names", "free_globals", "mutates_inputs", "copy_mask", "module",
                 "entry_code", "native_constants", "native_body", "native_result", "has_native")

    def __init__(self, source: str, origin: str, code: CodeType, generated: GeneratedCode) -> None:
        self.source = source
        self.origin = origin
        self.code = code
        self.names = generated.names
        self.free_globals = generated.free_globals
        self.mutates_inputs = generated.mutates_inputs
        self.copy_mask = generated.copy_mask
        self.module = generated.module
        self.has_native = generated.native is not None
        self.native_constants: dict[str, Any] = generated.native[1] if generated.native else {}
        self.native_body: list[ast.stmt] | None = generated.native[0] if generated.native else None
        self.native_result: str = getattr(generated, "native_result", "any")
        self.entry_code = _entry_code(self.native_body, origin)
        if self.entry_code is None:  # too deep for Python's compiler: the general tier only
            self.has_native = False
            self.native_constants = {}
            self.native_body = None
            self.entry_code = _entry_code(None, origin)


def _entry_code(native: list[ast.stmt] | None, origin: str) -> Any:
    try:
        return compile(entry_module(native), filename=f"<js {origin}>", mode="exec")
    except (RecursionError, SyntaxError, ValueError, MemoryError):
        if native is None:  # pragma: no cover - the fixed entry always compiles
            raise
        return None


def _without_native(program: CompiledProgram) -> CompiledProgram:
    """A copy of ``program`` whose entry runs the general tier only."""
    out = copy.copy(program)
    out.has_native = False
    out.native_constants = {}
    out.native_body = None
    out.entry_code = _entry_code(None, program.origin)
    return out


def generate_module(source: str, origin: str = "<expression>") -> GeneratedCode:
    """Parse, check and generate (no Python compile)."""
    if not isinstance(source, str):
        raise CompileError("the expression must be a string", Span(1, 1), "", origin)
    try:
        program = parse(source, origin)
        check_program(program, source, origin)
        return generate(program, source, origin)
    except RecursionError:
        raise _too_deep(source, origin) from None


def _too_deep(source: str, origin: str) -> CompileError:
    return CompileError("the expression is nested too deeply to compile", Span(1, 1), source, origin, refused=True)


def compile_program(source: str, origin: str = "<expression>") -> CompiledProgram:
    """Source text -> CompiledProgram (raises CompileError)."""
    return _compile_generated(generate_module(source, origin), source, origin)


def _compile_generated(generated: GeneratedCode, source: str, origin: str) -> CompiledProgram:
    try:
        code = compile(generated.module, filename=f"<js {origin}>", mode="exec")
    except RecursionError:
        raise _too_deep(source, origin) from None
    except (SyntaxError, ValueError, MemoryError) as exc:  # pragma: no cover - a codegen bug
        raise CompileError(f"the expression is too complex to compile ({type(exc).__name__})",
                           Span(1, 1), source, origin) from None
    return CompiledProgram(source, origin, code, generated)


class NativeFirstProgram:
    """A script with a native tier, compiled now, and a general tier generated (and compiled)
    the first time it is needed: a failed guard, custom budgets, an error to report. Most
    calls never need it, and generating it was half of compile time. Compile errors are not
    deferred: parsing and the early-error checks run first, and a script the native tier
    accepts has no construct the general code generator could still refuse (a redeclared
    binding, the one such case in the subset, keeps the script on the eager path)."""

    def __init__(self, source: str, origin: str, tree: Any, copy_mask: int, translated: Any, entry_code: Any) -> None:
        self.source = source
        self.origin = origin
        self.tree = tree
        self.copy_mask = copy_mask
        self.has_native = True
        self.native_constants: dict[str, Any] = translated.constants
        self.native_body: list[ast.stmt] = translated.body
        self.native_result: str = translated.result_type
        self.free_globals: dict[str, Span] = translated.free_globals
        self.entry_code = entry_code
        self.reads_context = "context" in _input_names(tree)  # what plans need to know for context.path

    def general(self) -> tuple[Callable[..., Any], dict[str, str]]:
        """The general tier's ``_main`` and its name table."""
        try:
            generated = generate(self.tree, self.source, self.origin, with_native=False)
        except RecursionError:  # pragma: no cover - the native tier refuses what is this deep
            raise _too_deep(self.source, self.origin) from None
        compiled = _compile_generated(generated, self.source, self.origin)
        return bind_main(compiled.code), dict(generated.names)


def compile_native_first(source: str, origin: str = "<expression>") -> "CompiledProgram | NativeFirstProgram":
    """Like ``compile_program``, but a script with a native tier gets a ``NativeFirstProgram``."""
    if not isinstance(source, str):
        raise CompileError("the expression must be a string", Span(1, 1), "", origin)
    try:
        tree = parse(source, origin)
        check_program(tree, source, origin)
        copy_mask = _copy_mask(tree)
        translated = native_program(tree, copy_mask)
        entry_code = _entry_code(translated.body, origin) if translated is not None else None
        if translated is None or entry_code is None:
            return _compile_generated(generate(tree, source, origin), source, origin)
    except RecursionError:
        raise _too_deep(source, origin) from None
    return NativeFirstProgram(source, origin, tree, copy_mask, translated, entry_code)


def _copy_mask(tree: Any) -> int:
    """``GeneratedCode.copy_mask`` without generating code: the inputs a mutating script names.
    (Exact for native scripts, which cannot hide ``value`` or ``context`` behind a binding.)"""
    if not mutates_inputs(tree):
        return 0
    used = _input_names(tree)
    if only_writes_value_members(tree):
        return 5 if "value" in used else 0
    return (1 if "value" in used else 0) | (2 if "context" in used else 0)


def _input_names(node: Any) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, A.Identifier):
            if item.name in ("value", "context"):
                found.add(item.name)
        elif isinstance(item, tuple):
            stack.extend(item)
        elif hasattr(type(item), "__attrs_attrs__"):
            stack.extend(getattr(item, f.name) for f in type(item).__attrs_attrs__ if f.name != "span")
    return found


_ENTRY = """
def _entry(value=UNDEFINED, context=None, value_exists=True, budgets=None):
    if budgets is None:
        try:
            pass
        except Exception:
            pass
    return _general(value, context, value_exists=value_exists, budgets=budgets)

_invoke = _entry
"""


_SHELL = ast.parse(_ENTRY).body
_GENERAL_INVOKE = ast.parse("def _invoke(value, context, value_exists):\n"
                            "    return _general_invoke(value, context, value_exists)").body[0]


def entry_module(native: list[ast.stmt] | None) -> ast.Module:
    """``_entry``, the public call: the native statements first when the script has them,
    the general tier (``_general``) on any exception or without them. Plans call ``_invoke``:
    ``_entry`` itself when there is a native tier (one call per match; a fallback inside a
    plan runs isolated, as any nested call does), else the general tier's in-plan entry.

    The shell is parsed once and copied for each module (the artifact writer renames
    names in place, so no node may be shared)."""
    from .native_templates import copy_tree

    entry, invoke = (copy_tree(node) for node in _SHELL)
    assert isinstance(entry, ast.FunctionDef)
    if native is None:
        entry.body = entry.body[1:]
        invoke = copy_tree(_GENERAL_INVOKE)
    elif len(native) == 1 and isinstance(native[0], ast.Return) and isinstance(native[0].value, ast.Constant):
        entry.body = native  # a constant: no budget can apply, nothing can fail
    else:
        guarded = entry.body[0]
        assert isinstance(guarded, ast.If) and isinstance(guarded.body[0], ast.Try)
        guarded.body[0].body = native
    module = ast.Module(body=[entry, invoke], type_ignores=[])
    locate(module)
    return module


def bind_entry(program: "CompiledProgram", general: Any) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The program's ``_entry`` and ``_invoke`` over ``general`` (a ``CompiledFunction``)."""
    from syncpatch.runtime.native import compile_regex, namespace

    extra: dict[str, Any] = {"_general": general, "_general_invoke": general._invoke}
    for name, (pattern, ignore_case) in program.native_constants.items():
        extra[name] = compile_regex(pattern, ignore_case)
    ns = namespace(extra)
    exec(program.entry_code, ns)  # noqa: S102 - compiler-made code, no builtins beyond the listed few
    return ns["_entry"], ns["_invoke"]


def bind_main(code: CodeType) -> Callable[..., Any]:
    """Run the module code in a sandbox namespace and return its ``_main``."""
    namespace = abi.namespace()
    exec(code, namespace)  # noqa: S102 - compiler-made code, empty builtins
    return namespace["_main"]  # type: ignore[no-any-return]


def source_hash(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()


def compile_to_module_source(source: str, *, origin: str = "<expression>", function_name: str = "_main",
                             header: bool = True) -> str:
    """The artifact form: Python source of a module defining ``function_name``.

    With ``header`` the text starts with the ABI import line, ``ABI_VERSION`` and
    ``SOURCE_HASH``; without it only the function (for artifacts holding many functions,
    which write one header themselves: see ``module_header``).
    """
    generated = generate_module(source, origin)
    main = generated.module.body[0]
    assert isinstance(main, ast.FunctionDef)
    main.name = function_name
    try:
        body = ast.unparse(ast.Module(body=[main], type_ignores=[]))
    except RecursionError:
        raise _too_deep(source, origin) from None
    if not header:
        return body + "\n"
    return module_header([source]) + "\n\n" + body + "\n"


def module_header(sources: list[str]) -> str:
    """The import line and version stamps of an artifact module."""
    names = ", ".join(abi.NAMES)
    digest = hashlib.sha256("\0".join(sources).encode("utf-8", "surrogatepass")).hexdigest()
    return (
        '"""Generated by syncpatch: compiled patch expressions. Do not edit."""\n'
        f"from syncpatch.runtime.abi import ({names})\n\n"
        f"ABI_VERSION = {abi.ABI_VERSION}\n"
        f"SOURCE_HASH = {digest!r}\n"
    )
