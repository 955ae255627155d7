"""Small builders for Python ``ast`` nodes, so codegen reads as the JS it compiles.

User text only ever enters as ``ast.Constant``; every identifier is compiler-made or an ABI
name. Non-finite floats have no literal form, so they are emitted as the ABI names
``NAN``/``INF``.
"""

from __future__ import annotations

import ast
import math
from typing import Any

__all__ = ["locate", "name", "store", "const", "call", "attr", "assign", "expr_stmt", "walrus", "ifexp",
           "is_", "type_is", "and_", "or_", "not_", "subscript", "tuple_", "list_", "ret", "raise_call"]


def name(n: str) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Load())


def store(n: str) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Store())


def const(v: Any) -> ast.expr:
    if type(v) is float:
        if v != v:
            return name("NAN")
        if v == math.inf:
            return name("INF")
        if v == -math.inf:
            return ast.UnaryOp(op=ast.USub(), operand=name("INF"))
    return ast.Constant(value=v)


def call(fn: str | ast.expr, *args: ast.expr, starred: ast.expr | None = None) -> ast.Call:
    func = name(fn) if isinstance(fn, str) else fn
    all_args: list[ast.expr] = list(args)
    if starred is not None:
        all_args.append(ast.Starred(value=starred, ctx=ast.Load()))
    return ast.Call(func=func, args=all_args, keywords=[])


def attr(obj: ast.expr, a: str) -> ast.Attribute:
    return ast.Attribute(value=obj, attr=a, ctx=ast.Load())


def assign(target: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[store(target)], value=value)


def expr_stmt(e: ast.expr) -> ast.Expr:
    return ast.Expr(value=e)


def walrus(target: str, value: ast.expr) -> ast.NamedExpr:
    return ast.NamedExpr(target=store(target), value=value)


def ifexp(test: ast.expr, body: ast.expr, orelse: ast.expr) -> ast.IfExp:
    return ast.IfExp(test=test, body=body, orelse=orelse)


def is_(a: ast.expr, b: ast.expr) -> ast.Compare:
    return ast.Compare(left=a, ops=[ast.Is()], comparators=[b])


def type_is(e: ast.expr, typename: str) -> ast.Compare:
    """``TYPE(e) is STR`` (the ABI binds ``TYPE``/``STR``/``INT``/... since builtins are empty)."""
    return is_(call(name("TYPE"), e), name(typename.upper()))


def and_(*values: ast.expr) -> ast.expr:
    return values[0] if len(values) == 1 else ast.BoolOp(op=ast.And(), values=list(values))


def or_(*values: ast.expr) -> ast.expr:
    return values[0] if len(values) == 1 else ast.BoolOp(op=ast.Or(), values=list(values))


def not_(e: ast.expr) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.Not(), operand=e)


def subscript(obj: ast.expr, key: ast.expr) -> ast.Subscript:
    return ast.Subscript(value=obj, slice=key, ctx=ast.Load())


def tuple_(*elts: ast.expr) -> ast.Tuple:
    return ast.Tuple(elts=list(elts), ctx=ast.Load())


def list_(elts: list[ast.expr]) -> ast.List:
    return ast.List(elts=elts, ctx=ast.Load())


def ret(e: ast.expr | None) -> ast.Return:
    return ast.Return(value=e)


def raise_call(e: ast.expr) -> ast.Raise:
    return ast.Raise(exc=e, cause=None)


_RANGED = (ast.expr, ast.stmt, ast.arg, ast.excepthandler, ast.keyword)


def locate(tree: ast.AST) -> None:
    """``ast.fix_missing_locations`` (a node without a position takes its parent's), then
    start <= end on every node (JS spans of synthesized nodes may not be), in one iterative
    walk: the two standard walks cost more than generating the code did."""
    stack: list[tuple[ast.AST, int, int, int, int]] = [(tree, 1, 0, 1, 0)]
    while stack:
        node, lineno, col, end_lineno, end_col = stack.pop()
        if "lineno" in node._attributes:
            if hasattr(node, "lineno"):
                lineno = node.lineno
            else:
                node.lineno = lineno  # type: ignore[attr-defined]
            if hasattr(node, "col_offset"):
                col = node.col_offset
            else:
                node.col_offset = col  # type: ignore[attr-defined]
            end = getattr(node, "end_lineno", None)
            if end is None:
                node.end_lineno = end_lineno  # type: ignore[attr-defined]
            else:
                end_lineno = end
            end = getattr(node, "end_col_offset", None)
            if end is None:
                node.end_col_offset = end_col  # type: ignore[attr-defined]
            else:
                end_col = end
            if isinstance(node, _RANGED) and (node.end_lineno or node.lineno, node.end_col_offset or 0) < (
                    node.lineno, node.col_offset):
                node.end_lineno, node.end_col_offset = node.lineno, node.col_offset
        for field in node._fields:
            child = getattr(node, field, None)
            if isinstance(child, ast.AST):
                stack.append((child, lineno, col, end_lineno, end_col))
            elif type(child) is list:
                for item in child:
                    if isinstance(item, ast.AST):
                        stack.append((item, lineno, col, end_lineno, end_col))
