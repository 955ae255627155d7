"""Static facts about expressions: the text V8 shows for a callee, and a coarse static type.

``callee_text`` renders ``value.map`` for "value.map is not a function"; ``static_type``
lets codegen skip ToBoolean on comparisons and pick string fast paths.
"""

from __future__ import annotations

from typing import Any

from syncpatch.grammar import ast as A

__all__ = ["callee_text", "static_type"]

_BOOL_OPS = {"<", ">", "<=", ">=", "==", "!=", "===", "!==", "in", "instanceof"}


def callee_text(node: Any) -> str:
    """How V8 names a callee in "... is not a function" (its source form, abbreviated)."""
    match node:
        case A.Identifier():
            return str(node.name)
        case A.MemberExpression(property=A.PropertyName(name=name)):
            return f"{callee_text(node.object)}.{name}"
        case A.MemberExpression():
            prop = node.property
            inner = repr(prop.value).replace("'", '"') if isinstance(prop, A.Literal) else "..."
            return f"{callee_text(node.object)}[{inner}]"
        case A.CallExpression():
            return f"{callee_text(node.callee)}(...)"
        case A.ThisExpression():
            return "this"
        case A.MetaProperty():
            return "new.target"
        case A.ChainExpression():
            return callee_text(node.expression)
        case A.Literal():
            return str(node.raw)
        case _:
            return "(intermediate value)"


def static_type(node: Any, depth: int = 0) -> str | None:
    """"bool", "str", "num" when the expression's JS type is known at compile time (looked
    for at most 24 levels deep, so long ``+`` chains stay linear to compile)."""
    if depth > 24:
        return None
    match node:
        case A.Literal():
            v = node.value
            if type(v) is bool:
                return "bool"
            if type(v) is str:
                return "str"
            if type(v) in (int, float):
                return "num"
            return None
        case A.TemplateLiteral():
            return "str"
        case A.BinaryExpression():
            if node.operator in _BOOL_OPS:
                return "bool"
            if node.operator == "+":
                if static_type(node.left, depth + 1) == "str" or static_type(node.right, depth + 1) == "str":
                    return "str"
                return None
            return "num"
        case A.UnaryExpression():
            if node.operator in ("!", "delete"):
                return "bool"
            if node.operator == "typeof":
                return "str"
            if node.operator in ("-", "+", "~"):
                return "num"
            return None
        case _:
            return None
