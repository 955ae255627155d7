"""The code generator: typed AST -> one Python module defining ``_main``.

``_main(_realm, value, context, valueExists)`` runs the script and returns its completion
value. Names are compiler-made and numbered in traversal order, so the same source always
gives the same code (tested byte for byte). ``names`` maps each Python name back to its JS
name for messages (TDZ errors surface as Python NameErrors on ``_vN``).
"""

from __future__ import annotations

import ast
from typing import Any

import attrs

from syncpatch.grammar import ast as A
from syncpatch.grammar.early_errors import has_use_strict
from syncpatch.grammar.errors import Span

from . import pyast as P
from .calls import CallGen, reads_run_no_script
from .checks import SCRIPT_GLOBALS, uses_dynamic_code
from .classes import ClassGen, MethodHome
from .errors import CompileError
from .expressions import ExprGen
from .functions import FuncGen
from .scope import Binding, FunctionFrame, Scope
from .statements import StmtGen
from .with_names import WithGen

__all__ = ["Codegen", "GeneratedCode", "generate"]

@attrs.frozen
class GeneratedCode:
    """The general tier of one script: the Python module defining ``_main``, the name side
    table (compiler-made names -> JS names) and the undeclared globals it reads, with spans."""

    module: ast.Module
    names: dict[str, str]
    free_globals: dict[str, Span]


class Codegen(ClassGen, StmtGen, FuncGen, CallGen, ExprGen, WithGen):
    """Generates the module for one script (see module docstring)."""

    def __init__(self, source: str, origin: str, dynamic: bool = False, fast_paths: bool = True) -> None:
        self.dynamic = dynamic  # text compiled at run time by eval/Function (see dynamic.py)
        self.fast_paths = fast_paths  # inline int/str fast paths (off: every operator a runtime call)
        self.source = source
        self.origin = origin
        #: no property read can run script (method calls may then read their method after
        #: arguments that read properties: ``calls.py``, ``method_call``)
        self.plain_reads = not dynamic and reads_run_no_script(source)
        self.counter = 0
        self.names: dict[str, str] = {}
        self.free_globals: dict[str, Span] = {}
        self.uses_names = False
        self.pre: list[ast.stmt] = []
        self.breakables: list[str] = []
        self.labels: dict[str, int] = {}
        self.label_flags: dict[str, str] = {}
        self.open_jumps: set[str] = set()
        self.completion = False
        self.strict = False
        self.frame = FunctionFrame(parent=None, this_name=None)
        self.globals_scope = Scope(parent=None, frame=self.frame)
        self.scope = Scope(parent=self.globals_scope, frame=self.frame)
        self.method_homes: dict[tuple[int, int], MethodHome] = {}  # class and literal methods (classes.py)
        self.field_names: dict[int, str] = {}

    # -- services used by the mixins -----------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def tmp(self) -> str:
        return self.fresh("_t")

    def new_binding(self, name: str, kind: str, node: Any = None) -> Binding:
        py = self.fresh("_v")
        self.names[py] = name
        per_iteration = kind in ("let", "const") and self.frame.loop_depth > 0
        pos = (node.span.line, node.span.column) if node is not None else (0, 0)
        return Binding(name=name, pyname=py, kind=kind, frame=self.frame, per_iteration=per_iteration, decl_pos=pos)

    def note_capture(self, b: Binding) -> None:
        """A closure reads a per-iteration binding: capture its current value when the
        closure is created, so each iteration's closures see their own binding."""
        frame = self.frame
        while frame.parent is not None and frame.parent is not b.frame:
            frame = frame.parent
        if frame.parent is b.frame and frame.start > b.decl_pos:
            frame.by_value.add(b.pyname)

    def mark_write(self, b: Binding) -> None:
        """Writing a binding of an enclosing def needs ``nonlocal`` in this one."""
        if b.frame is not self.frame:
            self.frame.nonlocals.add(b.pyname)

    def is_script_global(self, name: str) -> bool:
        return name in self.globals_scope.bindings

    def fail(self, message: str, node: Any, refused: bool = False) -> CompileError:
        span = getattr(node, "span", None) or Span(1, 1)
        return CompileError(message, span, self.source, self.origin, refused=refused)

    def new_target(self, node: A.MetaProperty) -> ast.expr:
        """``new.target`` (13.3.12.1): the constructor when the enclosing function runs under
        ``new`` (the runtime remembers which object it made for which constructor), else
        undefined; outside any function it is an early SyntaxError (15.1.1)."""
        frame = self.frame
        while frame.is_arrow and frame.parent is not None:
            frame = frame.parent
        if frame.parent is None or self.frame.this_name is None:
            raise self.fail("new.target expression is not allowed here", node)
        in_class = self.class_new_target(frame)
        if in_class is not None:
            return in_class
        return P.call("new_target", self.this_expr(A.ThisExpression(span=node.span)))

    def this_expr(self, node: A.ThisExpression) -> ast.expr:
        script_this = P.call("eval_this") if self.dynamic else P.name("GLOBAL_THIS")  # eval: the caller's
        if self.frame.this_name is None:  # a script's `this` is the global object (9.4.4 GetThisEnvironment)
            return script_this
        frame = self.frame
        while frame.is_arrow and frame.parent is not None:
            frame = frame.parent
        if frame.parent is None:  # an arrow's `this` is the script's, the global object: (() => this)()
            return script_this
        frame.uses_this = True
        if self.is_derived_constructor(frame):  # `this` before super() is a ReferenceError
            return P.call("this_check", P.name(self.frame.this_name))
        return P.name(self.frame.this_name)

    def env_function(self) -> str:
        """A def (put before the current statement) giving code from strings the bindings in
        scope here: ``env(op, name, value)`` reads (op 0), writes (1) or gives ``this`` (2),
        ``MISSING`` for a name it does not bind (see runtime/dynamic_code.py)."""
        visible: dict[str, Binding] = {}
        withs: dict[str, list[str]] = {}  # the `with` objects a name meets before its binding
        passed: list[str] = []
        scope: Scope | None = self.scope
        while scope is not None:
            for name, b in scope.bindings.items():
                if name not in visible:
                    visible[name] = b
                    withs[name] = list(passed)
            if scope.with_obj is not None:
                passed.append(self.with_visible(scope))
            scope = scope.parent
        fname = self.fresh("_env")
        op, key, val = "_op", "_k", "_x"
        body: list[ast.stmt] = []
        writable = sorted({b.pyname for b in visible.values() if b.kind != "const" and b.mapped is None})
        if writable:
            body.append(ast.Nonlocal(names=writable))
        this = self.this_expr(A.ThisExpression(span=Span(1, 1)))
        body.append(ast.If(test=_eq(P.name(op), P.const(2)), body=[P.ret(this)], orelse=[]))
        body.append(ast.If(test=_eq(P.name(op), P.const(3)), body=self.eval_var_declaration(key), orelse=[]))
        for name, b in sorted(visible.items()):
            write: list[ast.stmt]
            read: ast.expr = P.name(b.pyname)
            if b.kind == "const":
                write = [P.ret(P.call("const_assign", P.const(name)))]
            elif b.mapped is not None:
                read = P.subscript(P.name(b.mapped[1]), P.const(b.mapped[2]))
                write = [P.ret(self.param_store(b, P.name(val)))]
            else:
                write = [P.assign(b.pyname, P.name(val)), P.ret(P.name(val))]
            body.append(ast.If(test=_eq(P.name(key), P.const(name)), body=[
                *self.with_env_lookup(withs[name], op, key, val),
                ast.If(test=_eq(P.name(op), P.const(0)), body=[P.ret(read)], orelse=[]), *write],
                orelse=[]))
        if self.frame.arguments_name is not None:
            body.append(ast.If(test=_eq(P.name(key), P.const("arguments")),
                               body=[P.ret(P.name(self.frame.arguments_name))], orelse=[]))
        body.extend(self.with_env_lookup(passed, op, key, val))
        body.append(P.ret(P.name("MISSING")))
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=op), ast.arg(arg=key), ast.arg(arg=val)],
                             vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[P.name("UNDEFINED")])
        self.pre.append(ast.FunctionDef(name=fname, args=args, body=body, decorator_list=[], returns=None))
        return fname

    def eval_var_declaration(self, key: str) -> list[ast.stmt]:
        """The env function's op 3: sloppy eval code declares ``var key`` (19.2.1.3 steps 3
        and 10). ``True`` when a lexical binding between here and the var scope (or, in a
        parameter list, a parameter) has that name: a SyntaxError; ``False`` when the var
        scope has it or now holds it; ``MISSING`` when the var scope is the global one and
        does not bind it (the global object gets it)."""
        lexical: set[str] = set()
        declared: set[str] = set()
        scope: Scope | None = self.scope
        var_frame = self.scope.frame
        holder: str | None = None
        while scope is not None and scope.frame is var_frame:
            if scope.with_obj is not None and scope.with_obj in self.eval_var_objects:
                holder = scope.with_obj
                break
            catch = id(scope) in self.simple_catch_scopes
            for name, b in scope.bindings.items():
                if name in lexical or name in declared:
                    continue
                if (b.kind in ("let", "const") and not catch) or (b.kind == "param" and self.params_of is var_frame):
                    lexical.add(name)
                else:
                    declared.add(name)
            scope = scope.parent
        out: list[ast.stmt] = []
        if lexical:
            out.append(ast.If(test=ast.Compare(left=P.name(key), ops=[ast.In()],
                                               comparators=[P.const(tuple(sorted(lexical)))]),
                              body=[P.ret(P.const(True))], orelse=[]))
        if declared:
            out.append(ast.If(test=ast.Compare(left=P.name(key), ops=[ast.In()],
                                               comparators=[P.const(tuple(sorted(declared)))]),
                              body=[P.ret(P.const(False))], orelse=[]))
        if holder is not None:
            out.append(P.ret(P.call("eval_var_declare", P.name(holder), P.name(key))))
        else:
            out.append(P.ret(P.name("MISSING")))
        return out

    def direct_eval(self, node: A.CallExpression) -> ast.expr:
        """``eval(...)`` as written (19.2.1.1): the caller's bindings and strictness go along."""
        env = self.env_function()
        return P.call("direct_eval", P.call("global_get", P.const("eval")), P.const(self.strict), P.name(env),
                      *self.args(node.arguments))

    # -- the script ----------------------------------------------------------------------------
    def program(self, program: A.Program) -> ast.Module:
        params = []
        for name in SCRIPT_GLOBALS:
            b = self.new_binding(name, "global-arg")
            self.globals_scope.bindings[name] = b
            params.append(ast.arg(arg=b.pyname))
        body = self.script_body(program.body)
        if not self.dynamic and uses_dynamic_code(program):  # indirect eval and Function see the top level
            saved, self.pre = self.pre, []
            env = self.env_function()
            body = [*self.pre, P.expr_stmt(P.call("register_script_env", P.name(env))), *body]
            self.pre = saved
        prologue = [
            P.assign("_enter", P.attr(P.name("_realm"), "enter")),
            P.assign("_leave", P.attr(P.name("_realm"), "leave")),
        ]
        used = {n.id for n in ast.walk(ast.Module(body=body, type_ignores=[])) if isinstance(n, ast.Name)}
        prologue = [s for s in prologue if s.targets[0].id in used]  # type: ignore[attr-defined]
        kwonly: list[ast.arg] = []
        kwdefaults: list[ast.expr | None] = []
        if self.uses_names:  # the side table, for ReferenceErrors caught by JS code
            kwonly = [ast.arg(arg="_names")]
            kwdefaults = [ast.Dict(keys=[P.const(k) for k in self.names], values=[P.const(v) for v in self.names.values()])]
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg="_realm"), *params], vararg=None, kwonlyargs=kwonly,
                             kw_defaults=kwdefaults, kwarg=None, defaults=[])
        main = ast.FunctionDef(name="_main", args=args, body=[*prologue, *body], decorator_list=[], returns=None)
        main.lineno, main.col_offset = 1, 0
        module = ast.Module(body=[main], type_ignores=[])
        P.locate(module)
        return module

    def script_body(self, body: tuple[Any, ...]) -> list[ast.stmt]:
        self.strict = has_use_strict(body)
        if len(body) == 1 and isinstance(body[0], A.ExpressionStatement) and not _is_pattern_assign(body[0]):
            hoisted = self.hoist(body, function_level=True)
            value = self.expr(body[0].expression)
            return [*hoisted, *self.pre, P.ret(value)]
        self.completion = True
        out: list[ast.stmt] = [P.assign("_c", P.name("UNDEFINED"))]
        out.extend(self.hoist(body, function_level=True))
        out.extend(self.statements(body))
        out.append(P.ret(P.name("_c")))
        return out


def _eq(a: ast.expr, b: ast.expr) -> ast.Compare:
    return ast.Compare(left=a, ops=[ast.Eq()], comparators=[b])


def _is_pattern_assign(s: A.ExpressionStatement) -> bool:
    e = s.expression
    return isinstance(e, A.AssignmentExpression) and not isinstance(e.left, (A.Identifier, A.MemberExpression))


def generate(program: A.Program, source: str, origin: str, dynamic: bool = False,
             fast_paths: bool = True) -> GeneratedCode:
    """Typed AST -> the general tier's module (see module docstring); ``dynamic`` for text
    compiled at run time by eval/Function; ``fast_paths=False`` prints every operator as a
    runtime call (one bracket a link), for a script too long-chained for the inline forms."""
    gen = Codegen(source, origin, dynamic, fast_paths)
    module = gen.program(program)
    return GeneratedCode(module, gen.names, gen.free_globals)
