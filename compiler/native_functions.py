"""Native-tier function literals called where they stand: ``(v => { ...; return v; })(value)``.

Such a call is inlined: its arguments are computed once, its parameters name them (a
parameter passed a script input itself is that input, so writes through it are writes to the
script's own copy of ``value``), and its body is translated in their scope. A body with
statements other than a final ``return`` (declarations, member writes, ``??=``) is inlined
only where the call is a whole top-level statement or initialiser: its statements then run
before the rest of that statement, which is where JS runs them.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from syncpatch.grammar import ast as A
from syncpatch.grammar.ast import walk

from .native import _ALIAS, _INPUTS, Unsupported
from .native_statements import function_body, held_match, needs_statements
from .native_templates import expr as E

if TYPE_CHECKING:
    from .native import NativeGen

__all__ = ["inline_call"]

#: script inputs a parameter may stand for (``valueExists`` and ``undefined`` are copied)
_ALIASED_INPUTS = ("value", "context")


def inline_call(gen: "NativeGen", node: A.CallExpression, statement: bool) -> tuple[ast.expr, str]:
    fn = node.callee
    assert isinstance(fn, (A.ArrowFunctionExpression, A.FunctionExpression))
    names = [p.name if isinstance(p, A.Identifier) else None for p in fn.params]
    if None in names and statement:
        return _with_patterns(gen, node, fn)
    if None in names or len(set(names)) != len(names) or len(node.arguments) > len(names) \
            or any(isinstance(a, A.SpreadElement) for a in node.arguments):
        raise Unsupported  # (patterns, defaults, rest parameters, spread or extra arguments)
    if any(isinstance(n, (A.ThisExpression, A.MetaProperty)) for n in walk(fn.body)):
        raise Unsupported  # (``this`` of a function expression is its own)
    try:
        statements, returned = _body(fn)
    except Unsupported:  # (if, loops, reassignment: statements, where a whole statement stands)
        if not (statement and isinstance(fn.body, A.BlockStatement)):
            raise
        statements, returned = None, None
    if statements and not statement:
        raise Unsupported
    scope: dict[str, tuple[str, str]] = {}
    bindings: list[ast.expr] = []
    for i, name in enumerate(names):
        assert name is not None
        arg = node.arguments[i] if i < len(node.arguments) else None
        if arg is None:
            scope[name] = ("UNDEFINED", "undef")
            continue
        aliased = next((n for n in _ALIASED_INPUTS if gen.is_input(arg, n)), None)
        if aliased is not None:
            scope[name] = (_ALIAS + aliased, "any")
            continue
        e, ty = gen.expr(arg)
        if isinstance(e, ast.Name):
            scope[name] = (e.id, ty)
            continue
        t = gen.tmp()
        if statement:
            gen.pre.append(ast.Assign(targets=[ast.Name(id=t, ctx=ast.Store())], value=e))
        else:
            bindings.append(E("(T := X)", T=t, X=e))
        scope[name] = (t, ty)
    gen.scopes.append(scope)
    try:
        if statements is None:
            assert isinstance(fn.body, A.BlockStatement)
            return function_body(gen, fn.body.body)  # (no bindings: statement is True)
        for i, s in enumerate(statements):
            rest = [*statements[i + 1:], *([returned] if returned is not None else [])]
            _statement(gen, held_match(s, frozenset(), rest) or s if isinstance(s, A.VariableDeclaration) else s)
            gen.promote()
        result: tuple[ast.expr, str] = gen.expr(returned) if returned is not None else (E("UNDEFINED"), "undef")
    finally:
        gen.scopes.pop()
    if not bindings:
        return result
    return ast.Subscript(value=ast.Tuple(elts=[*bindings, result[0]], ctx=ast.Load()), slice=ast.Constant(-1),
                         ctx=ast.Load()), result[1]


def _with_patterns(gen: "NativeGen", node: A.CallExpression,
                   fn: A.ArrowFunctionExpression | A.FunctionExpression) -> tuple[ast.expr, str]:
    """A function whose parameters are patterns or have defaults
    (``(({ metadata: { name, labels = {} } }) => ...)(value)``), called as a whole statement:
    its body with a ``let`` declaration of each parameter from its argument first, which binds
    alike (a default where the argument is undefined, a missing argument undefined; a
    parameter ``a = d`` as ``let [a = d] = [arg]``). Refused where the declarations' scope
    could tell: an argument naming something the parameters name, or a default naming
    something they or the body's top level declare (JS gives parameters a scope of their own)."""
    params, args = fn.params, node.arguments
    if len(args) > len(params) or any(isinstance(a, A.SpreadElement) for a in args) \
            or any(isinstance(p, A.RestElement) for p in params) \
            or any(isinstance(n, (A.ThisExpression, A.MetaProperty)) for n in walk(fn.body)):
        raise Unsupported
    statements = list(fn.body.body) if isinstance(fn.body, A.BlockStatement) else \
        [A.ReturnStatement(argument=fn.body, span=fn.body.span)]
    bound = {n.name for n in walk(params) if isinstance(n, A.Identifier)}  # (keys too: a wider net)
    declared = {n.name for s in statements if isinstance(s, (A.VariableDeclaration, A.FunctionDeclaration))
                for n in walk(s.declarations if isinstance(s, A.VariableDeclaration) else s.id)
                if isinstance(n, A.Identifier)}
    defaults = {n.name for p in params for d in walk(p) if isinstance(d, A.AssignmentPattern)
                for n in walk(d.right) if isinstance(n, A.Identifier)}
    if any(isinstance(n, A.Identifier) and n.name in bound for n in walk(args)) or defaults & (bound | declared):
        raise Unsupported
    declarations: list[Any] = []
    for i, p in enumerate(params):
        arg: Any = args[i] if i < len(args) else A.Identifier(name="undefined", span=p.span)
        if isinstance(p, A.AssignmentPattern):
            p, arg = A.ArrayPattern(elements=(p,), span=p.span), A.ArrayExpression(elements=(arg,), span=arg.span)
        declarations.append(A.VariableDeclaration(kind="let", span=p.span, declarations=(
            A.VariableDeclarator(id=p, init=arg, span=p.span),)))
    gen.scopes.append({})
    try:
        return function_body(gen, [*declarations, *statements])
    finally:
        gen.scopes.pop()


def _body(fn: A.ArrowFunctionExpression | A.FunctionExpression) -> tuple[list[Any], Any]:
    """The statements before the returned expression, and that expression (None: undefined)."""
    body = fn.body
    if not isinstance(body, A.BlockStatement):
        return [], body
    statements: list[Any] = [s for s in body.body if not isinstance(s, A.EmptyStatement)]
    returned = None
    if statements and isinstance(statements[-1], A.ReturnStatement):
        returned = statements.pop().argument
    for i, s in enumerate(statements):
        if isinstance(s, A.VariableDeclaration):
            _check_declaration(s, statements[:i])
        elif not isinstance(s, A.ExpressionStatement) or needs_statements(s.expression, {
                d.id.name for b in statements[:i] if isinstance(b, A.VariableDeclaration)
                for d in b.declarations if isinstance(d.id, A.Identifier)}):
            raise Unsupported  # (``if``, loops, an early ``return``: native_statements, or the general tier)
    return statements, returned


def _check_declaration(s: A.VariableDeclaration, before: list[Any]) -> None:
    """``const``/``let`` of plain names no statement before reads (a read before the
    declaration is a ReferenceError in JS; an outer name of that name must not stand in)."""
    if s.kind not in ("const", "let"):
        raise Unsupported
    for d in s.declarations:
        if not isinstance(d.id, A.Identifier) or d.init is None or d.id.name in _INPUTS:
            raise Unsupported
        name = d.id.name
        if any(isinstance(n, A.Identifier) and n.name == name for b in [*before, d.init] for n in walk(b)):
            raise Unsupported


def _statement(gen: "NativeGen", s: Any) -> None:
    if isinstance(s, A.VariableDeclaration):
        scope = gen.scopes[-1]
        for d in s.declarations:
            assert isinstance(d.id, A.Identifier) and d.init is not None
            if d.id.name in scope:
                raise Unsupported  # (a redeclaration is a compile error: the general tier says so)
            node, ty = gen.expr(d.init)
            name = gen.tmp()
            gen.pre.append(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=node))
            gen.pre.extend(gen.bounded(node, name, ty))
            scope[d.id.name] = (name, ty)
        return
    e = s.expression
    if isinstance(e, A.AssignmentExpression):
        gen.assignment(e)
        return
    node, _ty = gen.expr(e)
    gen.pre.append(ast.Assign(targets=[ast.Name(id=gen.tmp(), ctx=ast.Store())], value=node))
