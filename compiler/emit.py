"""The one emitter: a compiled expression as one Python module, for both exits.

``emit_expression`` writes the module; what differs between the exits is only where it runs,
as with fastjsonschema's ``compile`` and ``compile_to_code``:

* in process, ``load_expression`` runs its code in ``runtime.compiled.namespace()``;
* in a ``compile-patches`` artifact, ``EmittedExpression.module`` (its statements after the
  imports that bind the same names) is printed into the artifact, which runs it at import.

The module defines the general tier (``_main``, wrapped by ``general_tier``), the native
tier's regexes, ``_entry`` (the public call: the native statements first, the general tier
on any exception) and ``_invoke`` (the plans' call), and ends with
``_expression = bind_expression(...)``: the :class:`~syncpatch.runtime.compiled.CompiledExpression`
record, with every fact the compiler computed (``checks.input_reads``, ``checks.copy_mask``,
the native tier's result type and regexes) written in as constants.

In process, a script with a native tier may leave its general tier out (``defer_general``):
it is generated on first need, which is most of the compile time saved.
"""

from __future__ import annotations

import ast
from types import CodeType
from typing import Any, Callable, Mapping

import attrs

from syncpatch.grammar import ast as A
from syncpatch.grammar.build import parse
from syncpatch.grammar.errors import GrammarError, Span
from syncpatch.runtime.compiled import PROVIDERS, CompiledExpression, ExpressionFacts, namespace
from syncpatch.runtime.entry import CompiledFunction
from syncpatch.runtime.realm import Budgets

from . import pyast as P
from .checks import check_program, copy_mask, input_reads, uses_dynamic_code
from .codegen import generate
from .errors import CompileError
from .native_program import NativeProgram, native_program
from .native_templates import copy_tree, stmts
from .nesting import MAX_PRINTED_NESTING, may_nest_too_deeply, printed_nesting
from .stackroom import on_big_stack

__all__ = ["EmittedExpression", "emit_expression", "load_expression", "front", "too_deep"]

LoadGeneral = Callable[[], tuple[Callable[..., Any], Mapping[str, str]]]


@attrs.frozen
class EmittedExpression:
    """One expression's module: ``imports`` (the runtime names it uses, by provider) and
    ``body``, compiled as ``code``; ``load_general`` generates the general tier when the body
    leaves it out (in process only: see ``emit_expression``)."""

    source: str
    facts: ExpressionFacts
    imports: tuple[ast.ImportFrom, ...]
    body: tuple[ast.stmt, ...]
    code: CodeType
    load_general: LoadGeneral | None = None

    @property
    def module(self) -> ast.Module:
        """The module as an artifact holds it (imports first)."""
        return ast.Module(body=[*self.imports, *self.body], type_ignores=[])


def too_deep(source: str, origin: str) -> CompileError:
    return CompileError("the expression is nested too deeply to compile", Span(1, 1), source, origin, refused=True)


def chains_too_deep(source: str, origin: str) -> CompileError:
    """A module past ``MAX_PRINTED_NESTING`` (see ``nesting.py``), refused by both exits."""
    return CompileError(f"the expression is nested too deeply to compile (its brackets and its operator and member chains nest "
                        f"more than {MAX_PRINTED_NESTING} levels once compiled; split long chains with variables)",
                        Span(1, 1), source, origin, refused=True)


def _too_deep_to_print(nodes: list[ast.stmt], source: str) -> bool:
    return may_nest_too_deeply(source) and printed_nesting(ast.Module(body=nodes, type_ignores=[])) > \
        MAX_PRINTED_NESTING


#: the longest source compiled (characters): a patch script is a few lines; this bounds
#: compile time and memory (refused in well under a second)
MAX_SOURCE_LENGTH = 100_000
#: the deepest bracket nesting (``(``, ``[``, ``{``, ``${``) and the longest run of prefix
#: operators compiled; deeper sources are refused before parsing
MAX_NESTING = 200
#: the most operators one expression may chain between separators (``,``, ``;``, a line
#: break, a bracket): a compiled chain nests a level or more a link, and far shorter chains
#: already pass ``nesting.MAX_PRINTED_NESTING``; longer ones are refused before parsing,
#: which would take seconds for a 20 000-term ``1+1+…``
MAX_CHAIN = 400
_OPERATOR_CHARS = frozenset("+-*/%&|^<>=!?.:~")


def check_size(source: str, origin: str) -> None:
    """Refuse a source too long or too deeply nested to compile promptly (a linear scan)."""
    if len(source) > MAX_SOURCE_LENGTH:
        raise CompileError(f"the expression is too long to compile ({len(source)} characters; the limit is "
                           f"{MAX_SOURCE_LENGTH})", Span(1, 1), source, origin, refused=True)
    depth = run = 0
    chain, chains = 0, []  # operators in the current bracket frame; the enclosing frames' counts
    line, line_start, i, n = 1, 0, 0, len(source)
    quote = ""
    while i < n:
        c = source[i]
        if c == "\n":
            line, line_start = line + 1, i + 1
            chain = 0
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
            elif quote == "`" and c == "$" and source.startswith("{", i + 1):
                depth += 1
                i += 1
                quote = ""
        elif c in "'\"`":
            quote = c
        elif c == "/" and source.startswith(("//", "/*"), i):
            end = source.find("\n" if source[i + 1] == "/" else "*/", i + 2)
            i = n if end < 0 else end
            continue
        elif c in "([{":
            depth += 1
            chains.append(chain)
            chain = 0
        elif c in ")]}":
            depth -= 1
            chain = chains.pop() if chains else 0
        elif c in ",;":
            chain = 0
        elif c in _OPERATOR_CHARS and source[i - 1:i] not in _OPERATOR_CHARS:  # one operator a run
            chain += 1
            if chain > MAX_CHAIN:
                raise CompileError(f"the expression is nested too deeply to compile (more than {MAX_CHAIN} "
                                   "operators in one chain; split it with variables)", Span(line, i - line_start + 1),
                                   source, origin, refused=True)
        if c in "!~+-":
            run += 1
        elif not c.isspace():
            run = 0
        if depth > MAX_NESTING or run > MAX_NESTING:
            raise CompileError(f"the expression is nested too deeply to compile (more than {MAX_NESTING} "
                               "levels of brackets or prefix operators)", Span(line, i - line_start + 1), source,
                               origin, refused=True)
        i += 1


def _parser_error(exc: Exception, source: str, origin: str) -> CompileError:
    """A parser failure the grammar stage did not name, in JS terms with its position."""
    token = getattr(exc, "token", None)
    line, column = getattr(exc, "line", -1), getattr(exc, "column", -1)
    at_end = token is None or getattr(token, "type", "") == "$END" or \
        getattr(token, "start_pos", 0) >= len(source.rstrip()) or not isinstance(line, int) or line < 1
    if at_end:
        lines = source.rstrip().split("\n")
        return CompileError("Unexpected end of input", Span(len(lines), len(lines[-1]) + 1), source, origin)
    return CompileError(f"Unexpected token '{getattr(token, 'value', '')}'", Span(line, max(1, column)), source, origin)


def front(source: str, origin: str) -> A.Program:
    """Parse and check (every compile error that a script can have is raised here)."""
    if not isinstance(source, str):
        raise CompileError("the expression must be a string", Span(1, 1), "", origin)
    check_size(source, origin)
    try:
        program = parse(source, origin)
        check_program(program, source, origin)
    except GrammarError as error:
        raise CompileError.from_grammar(error) from None
    except RecursionError:
        raise too_deep(source, origin) from None
    except CompileError:
        raise
    except Exception as exc:  # noqa: BLE001 - no parser exception reaches a user as itself
        raise _parser_error(exc, source, origin) from None
    return program


def emit_expression(source: str, origin: str = "<expression>", *, native: bool = True,
                    defer_general: bool = False) -> EmittedExpression:
    """Source text -> the expression's module (raises ``CompileError``).

    ``native=False`` leaves the native tier out (every call takes the general tier, as custom
    budgets need); ``defer_general`` leaves the general tier out when there is a native tier,
    for ``load_expression`` to generate on first need. Runs where the C stack has room
    (``stackroom``)."""
    return on_big_stack(lambda: _emit_expression(source, origin, native, defer_general))


def _emit_expression(source: str, origin: str, native: bool, defer_general: bool) -> EmittedExpression:
    program = front(source, origin)
    try:
        return _emit_program(program, source, origin, native, defer_general)
    except RecursionError:  # any stage after parsing (checks, either tier, the retry below)
        raise too_deep(source, origin) from None


def _emit_program(program: A.Program, source: str, origin: str, native: bool,
                  defer_general: bool) -> EmittedExpression:
    reads = input_reads(program)
    mask = copy_mask(program, reads)
    translated = native_program(program, mask, source) if native and not uses_dynamic_code(program) else None
    deferred = defer_general and translated is not None
    general = None if deferred and not may_nest_too_deeply(source) else _general(program, source, origin)
    if general is not None and _too_deep_to_print(general.statements, source):
        raise chains_too_deep(source, origin)  # (measured even when deferred: an artifact holds it)
    emitted = _emit(program, source, origin, reads, mask, translated, None if deferred else general, general)
    if emitted is None and translated is not None:  # the native tier is too deep for CPython
        emitted = _emit(program, source, origin, reads, mask, None, general or _general(program, source, origin))
    if emitted is None:
        raise too_deep(source, origin)
    return emitted


def load_expression(emitted: EmittedExpression, budgets: Budgets | None = None) -> CompiledExpression:
    """The in-process exit: run the emitted module and return its record. ``budgets``: the
    limits every call of the general tier starts from (the module must have no native tier)."""
    ns = namespace()
    if emitted.load_general is not None:
        ns["_general"] = CompiledFunction.deferred(emitted.load_general, emitted.facts.copy_mask, emitted.source)
    if budgets is not None:
        def general_tier(main: Callable[..., Any], names: Mapping[str, str], mask: int, source: str) -> CompiledFunction:
            return CompiledFunction(main, names, mask, source, budgets)

        ns["general_tier"] = general_tier
    exec(emitted.code, ns)  # noqa: S102 - compiler-made code, no Python builtins
    record: CompiledExpression = ns["_expression"]
    return record


class _General:
    """The general tier's code and names (``codegen.generate``), checked to compile."""

    def __init__(self, program: A.Program, source: str, origin: str) -> None:
        generated = generate(program, source, origin)
        if _too_deep_to_print(generated.module.body, source):
            # inline fast paths print deeper than calls: a long chain that fits as calls keeps them
            generated = generate(program, source, origin, fast_paths=False)
        self.statements = generated.module.body
        self.names = generated.names
        self.free_globals = tuple(generated.free_globals)
        self.program, self.source, self.origin = program, source, origin

    def load(self) -> tuple[Callable[..., Any], Mapping[str, str]]:
        """``_main`` run in the runtime namespace, and its names (for a deferred tier)."""
        ns = namespace()
        exec(_compile(self.statements, self.source, self.origin), ns)  # noqa: S102 - compiler-made code
        return ns["_main"], self.names


def _general(program: A.Program, source: str, origin: str) -> _General:
    return _General(program, source, origin)


def _deferred(program: A.Program, source: str, origin: str, generated: _General | None) -> LoadGeneral:
    def generate_and_load() -> tuple[Callable[..., Any], Mapping[str, str]]:
        if generated is not None:  # generated already (to measure its nesting), compiled now
            return generated.load()
        try:
            general = _General(program, source, origin)
        except RecursionError:  # pragma: no cover - the native tier refuses what is this deep
            raise too_deep(source, origin) from None
        return general.load()

    return lambda: on_big_stack(generate_and_load)


def _compile(statements: list[ast.stmt], source: str, origin: str) -> CodeType:
    try:
        return compile(ast.Module(body=statements, type_ignores=[]), filename=f"<js {origin}>", mode="exec")
    except RecursionError:
        raise too_deep(source, origin) from None
    except (SyntaxError, ValueError, MemoryError) as exc:  # pragma: no cover - a codegen bug
        raise CompileError(f"the expression is too complex to compile ({type(exc).__name__})",
                           Span(1, 1), source, origin) from None


def _emit(program: A.Program, source: str, origin: str, reads: frozenset[str], mask: int,
          translated: NativeProgram | None, general: _General | None,
          generated: _General | None = None, fuse: bool = True) -> EmittedExpression | None:
    """The module with the given tiers, or None when CPython cannot compile it (a native tier
    nested past its limits: the caller retries without one). A general tier fused into its
    entry (``_FUSED``) that CPython cannot compile is emitted again unfused."""
    free = tuple(translated.free_globals) if translated is not None else general.free_globals if general else ()
    regexes = tuple((name, pattern, bool(ignore_case)) for name, (pattern, ignore_case) in
                    (translated.constants.items() if translated is not None else ()))
    facts = ExpressionFacts(reads_value="value" in reads, reads_context="context" in reads,
                            reads_value_exists="valueExists" in reads, copy_mask=mask, free_globals=free,
                            native_result=translated.result_type if translated is not None else "any",
                            regexes=regexes)
    body: list[ast.stmt] = [P.assign("_source", P.const(source))]
    if general is not None:
        body.extend(general.statements)
        body.append(P.assign("_general", P.call("general_tier", P.name("_main"), _literal(general.names),
                                                  P.const(mask), P.name("_source"))))
    for name, pattern, ignore_case in regexes:
        body.append(P.assign(name, P.call("compile_regex", P.const(pattern), P.const(ignore_case))))
    entry = _entry(translated.body if translated is not None else None,
                   _fusable(general.statements, mask, source) if fuse and general is not None and translated is None else None,
                   _plain_result(program))
    body.extend(entry)
    P.locate(ast.Module(body=entry, type_ignores=[]))  # (positions, which unparse needs)
    try:
        native_text = None if translated is None else ast.unparse(ast.Module(body=translated.body, type_ignores=[]))
    except RecursionError:
        return None
    body.append(P.assign("_expression", P.call(
        "bind_expression", P.name("_entry"), P.name("_invoke"), P.name("_general"), _facts(facts),
        P.name("_source"), P.const(origin), P.const(native_text),
        ast.Dict(keys=[P.const(name) for name, _, _ in regexes], values=[P.name(name) for name, _, _ in regexes]))))
    module = ast.Module(body=body, type_ignores=[])
    P.locate(module)
    _try_on_its_first_line(entry)
    if translated is not None and _too_deep_to_print(translated.body, source):
        return None  # the general tier alone (measured by the caller) stays within the limit
    try:
        code = compile(module, filename=f"<js {origin}>", mode="exec")
    except (RecursionError, SyntaxError, ValueError, MemoryError):
        if fuse and translated is None and general is not None:  # (the fused copy nests two levels deeper)
            return _emit(program, source, origin, reads, mask, translated, general, generated, fuse=False)
        if translated is None:
            raise too_deep(source, origin) from None
        return None
    load = _deferred(program, source, origin, generated) if general is None else None
    return EmittedExpression(source, facts, _imports(module), tuple(body), code, load)


def _literal(value: Mapping[str, str]) -> ast.expr:
    items = sorted(value.items())
    return ast.Dict(keys=[P.const(k) for k, _ in items], values=[P.const(v) for _, v in items])


def _facts(facts: ExpressionFacts) -> ast.expr:
    """``ExpressionFacts(...)`` with every field written as a literal."""
    keywords = [ast.keyword(arg=field.name, value=_constant(getattr(facts, field.name)))
                for field in attrs.fields(ExpressionFacts)]
    return ast.Call(func=P.name("ExpressionFacts"), args=[], keywords=keywords)


def _constant(value: Any) -> ast.expr:
    if type(value) is tuple:
        return ast.Tuple(elts=[_constant(v) for v in value], ctx=ast.Load())
    return ast.Constant(value=value)


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
_GENERAL_ONLY = ast.parse("_entry = _general.entry()\n_invoke = _general.invoke").body

#: the general tier's public call with a small ``_main`` written into it (one Python
#: call per evaluation instead of two): ``CompiledFunction.fused`` calls ``_fused`` with the
#: runtime's parts of the per-call wrapper (``entry.py``) and returns ``_fast``, or the plain
#: wrapper where that is needed (CPython 3.13's small stacks). Its checks, realm writes and
#: exits are the wrapper's fast path, line by line; everything else takes ``_entry_slow``, the
#: wrapper itself (call-time budgets, a nested call, a non-canonical input, a thread's first
#: evaluation). The parts only rare paths use are held in one tuple (``_entry_rare``): every
#: closure cell of ``_fast`` is copied into and cleared from its frame on each call.
_FUSED = """
def _fused(_entry_slow, _entry_thread, _entry_budgets, _entry_steps, _entry_depth_check, _entry_watched, _entry_inexact,
           _entry_as_is, _entry_convert, _entry_names, _entry_any_error, _entry_failed, _entry_disarm, _entry_end,
           _entry_unset):
    _entry_rare = (_entry_slow, _entry_convert, _entry_names, _entry_any_error, _entry_failed, _entry_disarm, _entry_end,
                   _entry_unset)  # (_entry_inexact goes unread: the screen names its types, float, tuple and str)
    def _fast(value=UNDEFINED, context=None, value_exists=True, budgets=None):
        try:
            _realm = _entry_thread.realm
        except _entry_rare[7]:  # (AttributeError: this thread's first evaluation, which makes its state)
            return _entry_rare[0](value, context, value_exists, budgets)
        if budgets is not None or _realm.busy or not _realm.is_spare or _realm.extra or \
                value_exists is not True and value_exists is not False or \
                (_entry_type := TYPE(value)) is not DICT and _entry_type is not INT and \
                (not value.isascii() if _entry_type is STR else _entry_type is FLOAT or _entry_type is TUPLE):
            return _entry_rare[0](value, context, value_exists, budgets)
        _realm.budgets = _entry_budgets
        _realm.steps_left = _entry_steps
        _realm.depth_check = _entry_depth_check
        _realm.deadline = 0.0
        _realm.allocated = 0
        _realm.context = context
        _realm.busy = _entry_watched
        try:
            PARAMS
            _entry_result = EXPR
            if _realm.dead:
                _realm.alive()
            if (_entry_type := TYPE(_entry_result)) is STR:
                pass
            elif _entry_type is INT:
                if not -1073741823 <= _entry_result <= 1073741823:
                    _entry_result = _entry_rare[1](_entry_result, _entry_rare[2])
            elif _entry_type not in _entry_as_is and (_entry_type is not FLOAT or _entry_result.is_integer()) and \
                    (_entry_type is not LIST or _entry_result):  # (a fraction, NaN or infinity stays a float; [] stays [])
                _entry_result = _entry_rare[1](_entry_result, _entry_rare[2])
            _realm.busy = False
            if _realm.fired:
                _entry_rare[5](_realm)
        except _entry_rare[3] as _entry_exc:  # (BaseException: generated code has no builtins)
            _realm.busy = False  # (first, before any call: an interrupt due then lands outside)
            raise _entry_rare[4](_realm, _entry_exc, _entry_rare[2]) from None
        if _realm.extra:
            _entry_rare[6](_realm)
        return _entry_result
    return _fast
_entry = _general.fused(_fused)
_invoke = _general.invoke
"""
#: the largest ``_main`` fused (AST nodes): the module holds its code twice
_FUSE_LIMIT = 1500

Fusable = tuple[list[ast.stmt], ast.expr, list[str]]


def _fusable(statements: list[ast.stmt], mask: int, source: str) -> Fusable | None:
    """The leading statements, final expression and parameter names of a ``_main`` that
    ends in its only ``return`` (returns of the functions it defines aside), is small and
    copies no input: what ``_FUSED`` can take; else None."""
    main = next((s for s in statements if isinstance(s, ast.FunctionDef) and s.name == "_main"), None)
    if mask or main is None or not main.body:
        return None
    if may_nest_too_deeply(source) and _block_depth(main) > _FUSE_BLOCK_DEPTH:
        return None  # (its brackets print as in _main, measured already; its blocks indent three levels deeper)
    signature = main.args
    if len(signature.args) != 4 or signature.posonlyargs or signature.vararg or signature.kwonlyargs or signature.kwarg \
            or signature.defaults or main.decorator_list:
        return None  # (a main with keyword parameters, ``_names`` for ``catch``, keeps its own call)
    *leading, last = main.body
    if not isinstance(last, ast.Return) or last.value is None or any(map(_leaves_main, leading)):
        return None
    if sum(1 for _ in ast.walk(main)) > _FUSE_LIMIT:
        return None
    return leading, last.value, [a.arg for a in main.args.args]


#: the deepest block nesting of a ``_main`` fused when its source is long: the fused copy
#: indents three levels deeper, and CPython's tokenizer refuses text indented 100 levels
_FUSE_BLOCK_DEPTH = 60


def _block_depth(node: ast.AST) -> int:
    """How many statement blocks (function bodies, ifs, loops, trys) nest in ``node`` at most
    (an iterative walk, so a deep tree cannot exhaust the stack)."""
    deepest = 0
    pending: list[tuple[ast.AST, int]] = [(node, 0)]
    while pending:
        current, depth = pending.pop()
        if isinstance(current, ast.stmt) and any(isinstance(getattr(current, f, None), list) and
                                                 any(isinstance(x, ast.stmt) for x in getattr(current, f))
                                                 for f in ("body", "orelse", "finalbody")):
            depth += 1
            deepest = max(deepest, depth)
        pending.extend((child, depth) for child in ast.iter_child_nodes(current))
    return deepest


def _leaves_main(node: ast.AST) -> bool:
    """Whether a statement of ``_main`` returns from it or names scopes (``global``,
    ``nonlocal``, ``yield``) outside the functions it defines."""
    if isinstance(node, (ast.Return, ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.Await)):
        return True
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
        return False  # (its own returns and scopes; defaults and decorators hold no statements)
    return any(_leaves_main(child) for child in ast.iter_child_nodes(node))


#: JS operators whose result is always a boolean
_BOOLEAN_OPERATORS = frozenset(["===", "!==", "==", "!=", "<", ">", "<=", ">="])


def _plain_result(program: A.Program) -> bool:
    """Whether the script is one expression whose value is always a string or a boolean
    (a template, a comparison, ``!``, ``typeof``, a string literal joined by ``+``, a choice
    between such): a result the fused entry returns without looking at it."""
    if len(program.body) != 1 or not isinstance(program.body[0], A.ExpressionStatement):
        return False
    pending: list[Any] = [program.body[0].expression]
    while pending:
        node = pending.pop()
        if isinstance(node, A.ConditionalExpression):
            pending += [node.consequent, node.alternate]
        elif not (isinstance(node, A.TemplateLiteral) or _a_string(node)
                  or isinstance(node, A.Literal) and type(node.value) is bool
                  or isinstance(node, A.UnaryExpression) and node.operator in ("!", "typeof")
                  or isinstance(node, A.BinaryExpression) and (
                      node.operator in _BOOLEAN_OPERATORS
                      or node.operator == "+" and (_a_string(node.left) or _a_string(node.right)))):
            return False
    return True


def _a_string(node: Any) -> bool:
    """A string literal or a template (``+`` with one is a concatenation, whatever the other)."""
    return isinstance(node, A.TemplateLiteral) or isinstance(node, A.Literal) and type(node.value) is str


def _fused_entry(leading: list[ast.stmt], expression: ast.expr, params: list[str], plain_result: bool) -> list[ast.stmt]:
    """``_FUSED`` with the body of ``_main``; its parameters (but ``_realm``, named alike)
    are bound from the public call's arguments where the body reads them. A ``plain_result``
    (``_plain_result``) skips the result's check and conversion."""
    used = {n.id for node in (*leading, expression) for n in ast.walk(node) if isinstance(n, ast.Name)}
    realm, *inputs = params
    assert realm == "_realm" and len(inputs) == 3, "generated mains take (_realm, value, context, value_exists)"
    binds = [P.assign(name, P.name(public)) for name, public in zip(inputs, ("value", "context", "value_exists"))
             if name in used]
    copied = [copy_tree(stmt) for stmt in leading]
    body = stmts(_FUSED, EXPR=copy_tree(expression))  # type: ignore[arg-type]
    factory = body[0]
    assert isinstance(factory, ast.FunctionDef) and isinstance(factory.body[1], ast.FunctionDef)
    fast = factory.body[1]
    guarded = fast.body[-3]
    assert isinstance(guarded, ast.Try)
    placeholder = guarded.body[0]
    assert isinstance(placeholder, ast.Expr) and isinstance(placeholder.value, ast.Name)
    checked = guarded.body[3]
    assert isinstance(checked, ast.If) and isinstance(checked.test, ast.Compare), "the result's check"
    if plain_result:
        del guarded.body[3]
    guarded.body[0:1] = [*binds, *copied]  # type: ignore[list-item]
    screen = fast.body[1]  # (an input the script never reads needs no canonical form)
    assert isinstance(screen, ast.If) and isinstance(screen.test, ast.BoolOp) and len(screen.test.values) == 6
    screen.test.values = screen.test.values[:4] + [check for check, param in zip(screen.test.values[4:], (inputs[2], inputs[0]))
                                                   if param in used]
    return body


def _entry(native: list[ast.stmt] | None, fusable: Fusable | None = None, plain_result: bool = False) -> list[ast.stmt]:
    """``_entry``, the public call: the native statements first when the script has them,
    the general tier (``_general``) on any exception or without them (written into ``_entry``
    when it is small and ends in its only return: ``_FUSED``). Plans call ``_invoke``:
    ``_entry`` itself when there is a native tier (one call per match; a fallback inside a
    plan runs isolated, as any nested call does), else the general tier's in-plan entry.
    The shell is parsed once and copied (the artifact writer renames names in place)."""
    if native is None and fusable is not None:
        return _fused_entry(*fusable, plain_result)
    if native is None:  # the general tier's own public function (``CompiledFunction.entry``)
        shell: list[ast.stmt] = []
        for node in _GENERAL_ONLY:
            copied = copy_tree(node)
            assert isinstance(copied, ast.stmt)
            shell.append(copied)
        return shell
    entry, invoke = (copy_tree(node) for node in _SHELL)
    assert isinstance(entry, ast.FunctionDef) and isinstance(invoke, ast.stmt)
    if len(native) == 1 and isinstance(native[0], ast.Return) and isinstance(native[0].value, ast.Constant):
        entry.body = native  # a constant: no budget can apply, nothing can fail
    else:
        guarded = entry.body[0]
        assert isinstance(guarded, ast.If) and isinstance(guarded.body[0], ast.Try)
        guarded.body[0].body = native
    return [entry, invoke]


def _try_on_its_first_line(entry: list[ast.stmt]) -> None:
    """Give the native tier's ``try`` the line of its first statement. CPython compiles a
    ``try`` to a NOP that only marks its line for tracing; on a line of its own that NOP runs
    on every call (about 11 machine instructions, a tenth of a one-operation expression's
    whole cost), on the line of the body's first instruction the compiler drops it. Only positions change: the printed
    module (an artifact) is the same text, and nothing reads the lines of generated code."""
    function = entry[0]
    if not isinstance(function, ast.FunctionDef) or not function.body or not isinstance(function.body[0], ast.If):
        return
    guarded = function.body[0].body[0]
    if isinstance(guarded, ast.Try) and guarded.body:
        # (the first instruction comes from some node of the first statement: templates put
        # nearly all on one line; a wrong guess only keeps the NOP)
        line = min(getattr(node, "lineno", guarded.lineno) for node in ast.walk(guarded.body[0]))
        guarded.lineno = line
        guarded.end_lineno = max(guarded.end_lineno or line, line)


def _imports(module: ast.Module) -> tuple[ast.ImportFrom, ...]:
    """One ``from <provider> import ...`` per runtime module, naming exactly what the module
    uses (sorted, so the artifact is deterministic)."""
    used = {n.id for n in ast.walk(module) if isinstance(n, ast.Name)}
    out = []
    for provider, names in PROVIDERS.items():
        found = sorted(used & set(names))
        used -= set(found)
        if found:
            out.append(ast.ImportFrom(module=provider, names=[ast.alias(name=n) for n in found], level=0))
    return tuple(out)
