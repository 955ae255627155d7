"""The state and services every code generation mixin shares (declared once for the type
checker; ``codegen.Codegen`` provides them)."""

from __future__ import annotations

import ast
from typing import Any, Callable

from syncpatch.grammar import ast as A
from syncpatch.grammar.errors import Span

from .errors import CompileError
from .scope import Binding, FunctionFrame, Scope

__all__ = ["GenBase"]


class GenBase:
    """Attributes and cross-mixin methods of the code generator (see ``codegen.Codegen``)."""

    source: str
    origin: str
    dynamic: bool
    plain_reads: bool
    fast_paths: bool
    names: dict[str, str]
    free_globals: dict[str, Span]
    uses_names: bool
    pre: list[ast.stmt]
    breakables: list[str]
    labels: dict[str, int]
    label_flags: dict[str, str]
    open_jumps: set[str]
    completion: bool
    strict: bool
    frame: FunctionFrame
    scope: Scope
    #: the Python names of the objects holding the ``var``s sloppy direct eval adds to a
    #: function (each a ``with``-like scope just outside the function's own bindings)
    eval_var_objects: frozenset[str] = frozenset()
    with_active: int
    #: the scopes of ``catch (e)`` clauses with a plain name (B.3.4), by ``id`` (the values
    #: keep them alive, so an id is never reused while compiling)
    simple_catch_scopes: dict[int, Scope] = {}
    #: the function whose parameter list is being compiled (eval there conflicts with them)
    params_of: FunctionFrame | None = None

    @property
    def setm_name(self) -> str:
        """The runtime's member store: strict code throws where sloppy code drops a write."""
        return "setm_strict" if self.strict else "setm"

    def param_store(self, b: Binding, value: ast.expr) -> ast.expr:
        """A write to a parameter a mapped arguments object aliases (its value)."""
        assert b.mapped is not None
        return ast.Call(func=ast.Name(id="param_set", ctx=ast.Load()),
                        args=[ast.Name(id=b.mapped[0], ctx=ast.Load()), ast.Constant(value=b.mapped[2]), value],
                        keywords=[])

    def fresh(self, prefix: str) -> str:
        raise NotImplementedError

    def tmp(self) -> str:
        raise NotImplementedError

    def new_binding(self, name: str, kind: str, node: Any = None) -> Binding:
        raise NotImplementedError

    def mark_write(self, b: Binding) -> None:
        raise NotImplementedError

    def note_capture(self, b: Binding) -> None:
        raise NotImplementedError

    def fail(self, message: str, node: Any) -> CompileError:
        raise NotImplementedError

    def is_script_global(self, name: str) -> bool:
        raise NotImplementedError

    def this_expr(self, node: A.ThisExpression) -> ast.expr:
        raise NotImplementedError

    def direct_eval(self, node: A.CallExpression) -> ast.expr:
        raise NotImplementedError

    def new_target(self, node: A.MetaProperty) -> ast.expr:
        raise NotImplementedError

    def expr(self, node: Any) -> ast.expr:
        raise NotImplementedError

    def test(self, node: Any) -> ast.expr:
        raise NotImplementedError

    def load_ident(self, node: A.Identifier) -> ast.expr:
        raise NotImplementedError

    def store_ident(self, node: A.Identifier, value: ast.expr) -> ast.expr:
        raise NotImplementedError

    def early_closure_store(self, b: Any, node: A.Identifier) -> bool:
        raise NotImplementedError

    def member_key(self, node: A.MemberExpression) -> ast.expr:
        raise NotImplementedError

    def literal_key(self, p: A.Property) -> ast.expr:
        raise NotImplementedError

    def chain(self, node: Any) -> ast.expr:
        raise NotImplementedError

    def call_with(self, callee: Any, args: list[ast.expr], _: Any) -> ast.expr:
        raise NotImplementedError

    def new(self, node: A.NewExpression) -> ast.expr:
        raise NotImplementedError

    def assignment(self, node: A.AssignmentExpression) -> ast.expr:
        raise NotImplementedError

    def named_value(self, node: Any, name: str) -> ast.expr:
        raise NotImplementedError

    def destructure_expr(self, pattern: Any, right: Any) -> ast.expr:
        raise NotImplementedError

    def function_value(self, node: Any, name: str, method: bool = False, span: Span | None = None) -> ast.expr:
        raise NotImplementedError

    def bind_pattern(self, pattern: Any, value: ast.expr, mode: str) -> list[ast.stmt]:
        raise NotImplementedError

    def function_def(self, node: Any, fname: str, is_arrow: bool) -> ast.FunctionDef:
        raise NotImplementedError

    def hoist(self, body: tuple[Any, ...], function_level: bool) -> list[ast.stmt]:
        raise NotImplementedError

    def statements(self, body: tuple[Any, ...]) -> list[ast.stmt]:
        raise NotImplementedError

    def stmt(self, s: Any) -> list[ast.stmt]:
        raise NotImplementedError

    def reset_completion(self) -> list[ast.stmt]:
        raise NotImplementedError

    def sub_statement(self, s: Any) -> list[ast.stmt]:
        raise NotImplementedError

    def unary(self, node: A.UnaryExpression) -> ast.expr:
        raise NotImplementedError

    def delete(self, arg: Any) -> ast.expr:
        raise NotImplementedError

    # -- names inside `with` bodies (``with_names.WithGen``) -------------------------------------
    def with_temps(self, name: str) -> list[str]:
        raise NotImplementedError

    def with_statement(self, s: A.WithStatement) -> list[ast.stmt]:
        raise NotImplementedError

    def env_function(self) -> str:
        raise NotImplementedError

    def args(self, nodes: tuple[Any, ...]) -> list[ast.expr]:
        raise NotImplementedError

    def with_direct_eval(self, node: A.CallExpression, temps: list[str]) -> ast.expr:
        raise NotImplementedError

    def with_visible(self, scope: Scope) -> str:
        raise NotImplementedError

    def with_env_lookup(self, temps: list[str], op: str, key: str, value: str) -> list[ast.stmt]:
        raise NotImplementedError

    def with_load(self, node: A.Identifier, temps: list[str]) -> ast.expr:
        raise NotImplementedError

    def with_callee(self, node: A.Identifier, temps: list[str]) -> tuple[ast.expr, ast.expr]:
        raise NotImplementedError

    def with_store(self, node: A.Identifier, temps: list[str], value: Callable[[ast.expr], ast.expr]) -> ast.expr:
        raise NotImplementedError

    def with_update(self, node: A.UpdateExpression, temps: list[str]) -> ast.expr:
        raise NotImplementedError

    def with_logical_assign(self, node: A.AssignmentExpression, temps: list[str]) -> ast.expr:
        raise NotImplementedError

    def with_typeof(self, node: A.UnaryExpression, temps: list[str]) -> ast.expr:
        raise NotImplementedError

    def with_delete(self, node: A.Identifier, temps: list[str]) -> ast.expr:
        raise NotImplementedError
