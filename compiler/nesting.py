"""How deep the generated module nests once printed as Python source.

A ``compile-patches`` artifact is Python *text*, and CPython's tokenizer refuses text nested
more than 200 brackets deep ("too many nested parentheses"); the in-process exit compiles the
AST directly and has no such limit. A long member or operator chain (``value?.a?.a…``,
``a && b && …``) nests its generated calls one to three levels a link, so without a common
bound a script could run in process and yet produce an artifact that does not load. Both
exits refuse a module past :data:`MAX_PRINTED_NESTING` instead (``emit.py``), so they agree.
"""

from __future__ import annotations

import ast

__all__ = ["MAX_PRINTED_NESTING", "printed_nesting", "may_nest_too_deeply"]

#: the deepest bracket nesting a generated module may print to (CPython's tokenizer allows
#: 200; the artifact adds none around an expression's statements, the margin is for safety)
MAX_PRINTED_NESTING = 180

#: nodes that print inside brackets of their own (a call's argument list, a subscript, a
#: display) or that ``ast.unparse`` may wrap in parentheses for precedence
_BRACKETING = (ast.Call, ast.Subscript, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp,
               ast.DictComp, ast.GeneratorExp, ast.BinOp, ast.BoolOp, ast.Compare, ast.UnaryOp, ast.IfExp,
               ast.Lambda, ast.NamedExpr, ast.Starred, ast.JoinedStr, ast.FormattedValue, ast.arguments)

#: a source this short cannot print deeper than the limit (a link of a chain is at least two
#: characters of source and at most three levels of generated brackets)
_SHORT_SOURCE = MAX_PRINTED_NESTING // 2


def may_nest_too_deeply(source: str) -> bool:
    """Whether the module of ``source`` needs measuring (short sources never do)."""
    return len(source) > _SHORT_SOURCE


def printed_nesting(node: ast.AST, stop: int = MAX_PRINTED_NESTING) -> int:
    """An upper bound of the bracket depth ``ast.unparse(node)`` prints (an iterative walk, so
    a deep tree cannot exhaust the stack); it returns early once the depth passes ``stop``."""
    deepest = 0
    pending: list[tuple[ast.AST, int]] = [(node, 0)]
    while pending:
        current, depth = pending.pop()
        if isinstance(current, _BRACKETING):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop:
                    return deepest
        pending.extend((child, depth) for child in ast.iter_child_nodes(current))
    return deepest
