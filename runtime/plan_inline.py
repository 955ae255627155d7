"""Native expression bodies written into a generated plan function, so a match costs no call.

Why: a Service's plan calls a dozen compiled expressions per object, and on CPython the call
itself (arguments, defaults, frame) costs about as much as a small native body. A plan whose
every function has a native tier runs a variant of its generated function with each body
written in place (``plan_codegen.compile_plan(..., inline=...)``).

The inlined code is the native body the expression's own entry runs, with its names renamed
(``value`` to the plan's variable, ``context`` to ``ctx``, locals given a per-site prefix,
per-expression constants such as regexes bound under fresh names) and each ``return X``
turned into ``out = X`` followed by the rest of that path. Any exception (a failed guard
included) leaves the plan function; the caller then re-runs the plan with calls, where each
expression falls back on its own (see ``plan._apply``). Native code has no side effects
beyond copies it made, so abandoning a partial run is safe.

Bodies come from the compiled expression's record (``CompiledExpression.native``: the
statements' text and the constants they name); a function without a native tier, or a body
too large or of a shape this transform does not handle, is called as before.
"""

from __future__ import annotations

import ast
import copy
from typing import Any, Callable, Mapping

from .compiled import NativeTier
from .native import BUILTINS, HELPERS

__all__ = ["inline_lines"]

#: inline at most this many AST nodes per site (the return rewrite copies shared tails)
_MAX_NODES = 600


class _NotInlinable(Exception):
    pass


def inline_lines(native: NativeTier, value: str, out: str, prefix: str, names: dict[str, Any],
                 bind: Callable[[Any, str], str], exists: bool = True) -> list[str] | None:
    """Source lines (unindented) that set ``out`` to what the ``native`` tier returns for
    the plan variable ``value`` (``context`` is ``ctx``, ``value_exists`` is ``exists``; a
    missing value is ``value="None", exists=False``), or None when it is not inlined.
    The native helpers go into the plan's globals ``names`` under their own names;
    ``bind(obj, stem)`` names any other global the lines need."""
    constants = native.constants
    try:
        statements = ast.parse(native.text).body
        stmts = _assign_returns(statements, out)
        module = ast.Module(body=stmts, type_ignores=[])
        if sum(1 for _ in ast.walk(module)) > _MAX_NODES:
            return None
        _Rename(value, prefix, _locals(module) - {out}, constants, names, bind, exists).visit(module)  # (out stays)
        ast.fix_missing_locations(module)
        return ast.unparse(module).splitlines()
    except (_NotInlinable, RecursionError, SyntaxError, ValueError):
        return None


def _locals(tree: ast.AST) -> set[str]:
    """Every name the body binds (assignments, walrus targets, loop and comprehension
    variables): renamed per site so two inlined bodies cannot meet."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Global,
                               ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.Await)):
            raise _NotInlinable  # native bodies have none; refuse rather than reason about scopes
    return names


class _Rename(ast.NodeTransformer):
    def __init__(self, value: str, prefix: str, local: set[str], constants: Mapping[str, Any],
                 names: dict[str, Any], bind: Callable[[Any, str], str], exists: bool) -> None:
        self.value = value
        self.exists = exists
        self.prefix = prefix
        self.local = local
        self.constants = constants
        self.names = names
        self.bind = bind
        self.bound: dict[str, str] = {}

    def visit_Name(self, node: ast.Name) -> ast.expr:
        name = node.id
        if name in ("value", "context", "value_exists"):
            if not isinstance(node.ctx, ast.Load):
                raise _NotInlinable
            if name == "value_exists":
                return ast.copy_location(ast.Constant(self.exists), node)
            return ast.copy_location(ast.Name(id=self.value if name == "value" else "ctx", ctx=node.ctx), node)
        if name in self.local:
            return ast.copy_location(ast.Name(id=self.prefix + name, ctx=node.ctx), node)
        if isinstance(node.ctx, ast.Store):
            return node  # the result variable
        if name in self.constants:  # a per-expression constant (a regex): a fresh global
            target = self.bound.get(name) or self.bind(self.constants[name], "k")
            self.bound[name] = target
            return ast.copy_location(ast.Name(id=target, ctx=node.ctx), node)
        obj = HELPERS[name] if name in HELPERS else BUILTINS[name] if name in BUILTINS else self
        if obj is self or self.names.get(name, obj) is not obj:  # (the plan's own names all start with "_")
            raise _NotInlinable
        self.names[name] = obj
        return node


def _assign_returns(stmts: list[ast.stmt], out: str) -> list[ast.stmt]:
    """``stmts`` (a function body) as a block that assigns its return value to ``out``: each
    ``return X`` becomes ``out = X``, and an ``if`` that returns on some path takes the
    statements after it into the branches that fall through."""
    result: list[ast.stmt] = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Return):
            value = stmt.value if stmt.value is not None else ast.Constant(None)
            result.append(ast.Assign(targets=[ast.Name(id=out, ctx=ast.Store())], value=value))
            return result
        if _has_return(stmt):
            if not isinstance(stmt, ast.If):
                raise _NotInlinable  # a return inside a loop or try: not produced by the native tier
            rest = stmts[i + 1:]
            body = stmt.body if _always_returns(stmt.body) else [*stmt.body, *_copies(rest)]
            orelse = stmt.orelse if _always_returns(stmt.orelse) else [*stmt.orelse, *_copies(rest)]
            result.append(ast.If(test=stmt.test, body=_assign_returns(body, out),
                                 orelse=_assign_returns(orelse, out)))
            return result
        result.append(stmt)
    result.append(ast.Assign(targets=[ast.Name(id=out, ctx=ast.Store())], value=ast.Constant(None)))
    return result


def _copies(stmts: list[ast.stmt]) -> list[ast.stmt]:
    return [copy.deepcopy(s) for s in stmts]


def _has_return(stmt: ast.stmt) -> bool:
    return any(isinstance(node, ast.Return) for node in ast.walk(stmt))


def _always_returns(stmts: list[ast.stmt]) -> bool:
    """Whether control never falls off the end of ``stmts``."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return _always_returns(last.body) and _always_returns(last.orelse)
    return False
