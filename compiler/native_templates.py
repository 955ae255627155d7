"""Python snippets for the native tier, written as Python and filled with AST nodes.

``expr("A + B", A=left, B=right)`` parses the compiler-authored template and replaces each
placeholder name: with an AST node (an operand), or with a string (a fresh temporary's name,
which keeps the placeholder's load/store context, so ``(T := A)`` works). User text never
enters a template; it arrives only inside the operand nodes, as ``ast.Constant``.
"""

from __future__ import annotations

import ast
from typing import Union

__all__ = ["expr", "stmts", "Sub"]

Sub = Union[ast.expr, str]


class _Fill(ast.NodeTransformer):
    def __init__(self, subs: dict[str, Sub]) -> None:
        self.subs = subs

    def visit_Name(self, node: ast.Name) -> ast.AST:
        sub = self.subs.get(node.id)
        if sub is None:
            return node
        if isinstance(sub, str):
            return ast.Name(id=sub, ctx=node.ctx)
        return sub


def expr(template: str, **subs: Sub) -> ast.expr:
    node = ast.parse(template, mode="eval").body
    out = _Fill(subs).visit(node)
    assert isinstance(out, ast.expr)
    return out


def stmts(template: str, **subs: Sub) -> list[ast.stmt]:
    module = ast.parse(template, mode="exec")
    filled = _Fill(subs).visit(module)
    assert isinstance(filled, ast.Module)
    return filled.body
