"""Python snippets for the native tier, written as Python and filled with AST nodes.

``expr("A + B", A=left, B=right)`` parses the compiler-authored template and replaces each
placeholder name: with an AST node (an operand), or with a string (a fresh temporary's name,
which keeps the placeholder's load/store context, so ``(T := A)`` works). User text never
enters a template; it arrives only inside the operand nodes, as ``ast.Constant``.
"""

from __future__ import annotations

import ast
from typing import Union

__all__ = ["expr", "stmts", "copy_tree", "Sub"]

Sub = Union[ast.expr, str]


_PARSED: dict[tuple[str, str], list[ast.AST]] = {}


def _parsed(template: str, mode: str) -> list[ast.AST]:
    """A template parsed once (``compile`` and the fillers below only read it)."""
    key = (template, mode)
    found = _PARSED.get(key)
    if found is None:
        tree = ast.parse(template, mode=mode)
        found = _PARSED[key] = [tree.body] if isinstance(tree, ast.Expression) else list(tree.body)  # type: ignore[attr-defined]
    return found


def _fill(node: ast.AST, subs: dict[str, Sub]) -> ast.AST:
    """A copy of the template ``node`` with its placeholders replaced (cheaper than parsing
    the template again, which is what made generation slow)."""
    if type(node) is ast.Name:
        sub = subs.get(node.id)
        if sub is not None:
            return ast.Name(id=sub, ctx=node.ctx) if isinstance(sub, str) else sub
    new = node.__class__.__new__(node.__class__)
    target = new.__dict__
    for key, value in node.__dict__.items():
        if isinstance(value, ast.AST) and not isinstance(value, ast.expr_context):
            target[key] = _fill(value, subs)
        elif type(value) is list:
            target[key] = [_fill(v, subs) if isinstance(v, ast.AST) else v for v in value]
        else:
            target[key] = value
    return new


def copy_tree(node: ast.AST) -> ast.AST:
    """A deep copy of an AST (faster than ``copy.deepcopy``)."""
    return _fill(node, {})


def expr(template: str, **subs: Sub) -> ast.expr:
    out = _fill(_parsed(template, "eval")[0], subs)
    assert isinstance(out, ast.expr)
    return out


def stmts(template: str, **subs: Sub) -> list[ast.stmt]:
    out = [_fill(node, subs) for node in _parsed(template, "exec")]
    assert all(isinstance(node, ast.stmt) for node in out)
    return out  # type: ignore[return-value]
