"""Lark tree -> typed AST (``grammar.ast``), with the early errors of ECMA-262 that need shape.

Covers are resolved here: a parenthesised list followed by ``=>`` becomes arrow parameters,
object/array literals on the left of ``=`` become patterns (13.15.5 destructuring
assignment), and what cannot be reinterpreted is a GrammarError at its position.
"""

from __future__ import annotations

from typing import Any

import attrs

from lark import Token, Transformer, Tree
from lark.exceptions import VisitError

from . import ast as A
from .errors import GrammarError, Span
from .literals import number_value, string_value, template_value
from .parser import parse_tree

__all__ = ["parse", "build_ast"]


class _Fail(Exception):
    def __init__(self, message: str, span: Span) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


def _span_of(x: Any) -> Span | None:
    if isinstance(x, Token):
        if x.line is None:
            return None
        return Span(x.line, x.column or 1, x.end_line, x.end_column)
    return getattr(x, "span", None)


def _join(*items: Any) -> Span:
    spans = [s for s in (_span_of(i) for i in items) if s is not None]
    if not spans:
        return Span(1, 1)
    a, b = spans[0], spans[-1]
    return Span(a.line, a.column, b.end_line, b.end_column)


def _nodes(children: list[Any]) -> list[Any]:
    return [c for c in children if not isinstance(c, Token)]


class _Cover:
    """A parenthesised list: an expression, or arrow parameters if ``=>`` follows."""

    def __init__(self, items: list[Any], span: Span, trailing: bool) -> None:
        self.items = items
        self.span = span
        self.trailing = trailing


class _CoverRest:
    def __init__(self, target: Any, span: Span) -> None:
        self.target = target
        self.span = span


class _CoverInit:
    """``{a = 1}`` inside an object literal: valid only as a pattern."""

    def __init__(self, name: A.Identifier, value: Any, span: Span) -> None:
        self.name = name
        self.value = value
        self.span = span


def to_pattern(node: Any) -> Any:
    """Reinterpret an expression as an assignment/binding pattern (13.15.5.1)."""
    match node:
        case A.Identifier() | A.MemberExpression(optional=False):
            return node  # eval/arguments as targets: strict code only (early_errors.py)
        case A.AssignmentExpression(operator="="):
            return A.AssignmentPattern(left=to_pattern(node.left), right=node.right, span=node.span)
        case A.ArrayExpression():
            elems: list[Any] = []
            for i, e in enumerate(node.elements):
                if isinstance(e, A.SpreadElement):
                    if i != len(node.elements) - 1:
                        raise _Fail("Rest element must be last element", e.span)
                    elems.append(A.RestElement(argument=to_pattern(e.argument), span=e.span))
                else:
                    elems.append(None if e is None else to_pattern(e))
            return A.ArrayPattern(elements=tuple(elems), span=node.span)
        case A.ObjectExpression():
            return _object_pattern(node)
        case A.ArrayPattern() | A.ObjectPattern() | A.AssignmentPattern() | A.RestElement():
            return node
        case _CoverInit():
            return A.AssignmentPattern(left=node.name, right=node.value, span=node.span)
    raise _Fail("Invalid destructuring assignment target", _span_of(node) or Span(1, 1))


def _object_pattern(node: A.ObjectExpression) -> A.ObjectPattern:
    props: list[Any] = []
    for i, p in enumerate(node.properties):
        if isinstance(p, A.SpreadElement):
            if i != len(node.properties) - 1:
                raise _Fail("Rest element must be last element", p.span)
            props.append(A.RestElement(argument=to_pattern(p.argument), span=p.span))
        elif isinstance(p, A.Property) and not p.method:
            props.append(A.Property(key=p.key, value=to_pattern(p.value), computed=p.computed,
                                    shorthand=p.shorthand, method=False, span=p.span))
        else:
            raise _Fail("Invalid destructuring assignment target", p.span)
    return A.ObjectPattern(properties=tuple(props), span=node.span)


def _check_expression(node: Any) -> Any:
    """Reject covers that are only valid as patterns when used as expressions."""
    if isinstance(node, _CoverInit):
        raise _Fail("Invalid shorthand property initializer", node.span)
    if isinstance(node, _Cover):
        return _cover_expression(node)
    return node


def _cover_expression(cover: _Cover) -> Any:
    if not cover.items:
        raise _Fail("Unexpected token ')'", Span(cover.span.end_line, max(1, cover.span.end_column - 1)))
    for item in cover.items:
        if isinstance(item, _CoverRest):
            raise _Fail("Unexpected token '...'", item.span)
    if cover.trailing:
        raise _Fail("Unexpected token ')'", Span(cover.span.end_line, max(1, cover.span.end_column - 1)))
    items = [_deep_check(_check_expression(i)) for i in cover.items]
    inner = items[0] if len(items) == 1 else A.SequenceExpression(expressions=tuple(items), span=cover.span)
    if _has_optional(inner):
        return A.ChainExpression(expression=inner, span=cover.span)
    return inner


def _deep_check(node: Any) -> Any:
    if isinstance(node, A.ObjectExpression):
        for p in node.properties:
            if isinstance(p, A.Property) and isinstance(p.value, _CoverInit):
                raise _Fail("Invalid shorthand property initializer", p.value.span)
    return node


def _has_optional(node: Any) -> bool:
    while isinstance(node, (A.MemberExpression, A.CallExpression)):
        if node.optional:
            return True
        node = node.object if isinstance(node, A.MemberExpression) else node.callee
    return False


def _finish_chain(node: Any) -> Any:
    """Wrap a completed optional chain in ChainExpression (ESTree)."""
    return A.ChainExpression(expression=node, span=node.span) if _has_optional(node) else node


_BINARY_LOGICAL = {"&&", "||", "??"}


class _Builder(Transformer):  # type: ignore[type-arg]
    """One method per grammar rule/alias; children are AST nodes or tokens."""

    def __init__(self) -> None:
        super().__init__()
        #: spans of spread elements a trailing comma follows (`[...x,]`), checked in patterns
        self._spreads_before_comma: list[Span] = []

    def _call_userfunc(self, tree: Tree[Any], new_children: Any = None) -> Any:
        """Build the node, then give it the rule's full source span (keywords included)."""
        result = super()._call_userfunc(tree, new_children)  # type: ignore[no-untyped-call]
        meta = tree.meta
        if meta.empty:
            return result
        span = Span(meta.line, meta.column, meta.end_line, meta.end_column)
        if tree.data == "params" and result and isinstance(result[-1], A.RestElement) \
                and (result[-1].span.end_line, result[-1].span.end_column) != (meta.end_line, meta.end_column):
            # the list ends after its rest parameter: a trailing comma (15.1: none after a rest)
            raise _Fail("A rest parameter or binding pattern may not have a trailing comma", result[-1].span)
        if isinstance(result, (_Cover, _CoverRest, _CoverInit)):
            result.span = span
        elif hasattr(result, "__attrs_attrs__") and getattr(result, "span", span) != span:
            result = attrs.evolve(result, span=span)
        return result

    # -- program and statements ----------------------------------------------------------------
    def start(self, c: list[Any]) -> A.Program:
        return A.Program(body=tuple(c), span=_join(*c) if c else Span(1, 1))

    def block(self, c: list[Any]) -> A.BlockStatement:
        return A.BlockStatement(body=tuple(_nodes(c)), span=_join(*c))

    function_body = block

    def empty_statement(self, c: list[Any]) -> A.EmptyStatement:
        return A.EmptyStatement(span=_join(*c))

    def expression_statement(self, c: list[Any]) -> A.ExpressionStatement:
        return A.ExpressionStatement(expression=c[0], span=_join(*c))

    def variable_statement(self, c: list[Any]) -> A.VariableDeclaration:
        return A.VariableDeclaration(kind=str(c[0]), declarations=tuple(_nodes(c[1:])), span=_join(*c))

    def declarator(self, c: list[Any]) -> A.VariableDeclarator:
        init = _check_expression(c[1]) if len(c) > 1 else None
        return A.VariableDeclarator(id=c[0], init=init, span=_join(*c))

    def if_statement(self, c: list[Any]) -> A.IfStatement:
        return A.IfStatement(test=c[0], consequent=c[1], alternate=c[2] if len(c) > 2 else None,
                             span=_join(*c))

    def for_statement(self, c: list[Any]) -> A.ForStatement:
        parts: dict[str, Any] = {"init": None, "test": None, "update": None}
        for x in c[:-1]:
            if isinstance(x, tuple):
                parts[x[0]] = x[1]
        return A.ForStatement(body=c[-1], span=_join(*c), **parts)

    def for_init_decl(self, c: list[Any]) -> tuple[str, Any]:
        return ("init", A.VariableDeclaration(kind=str(c[0]), declarations=tuple(_nodes(c[1:])), span=_join(*c)))

    def for_init_expr(self, c: list[Any]) -> tuple[str, Any]:
        return ("init", c[0])

    def for_test(self, c: list[Any]) -> tuple[str, Any]:
        return ("test", c[0])

    def for_update(self, c: list[Any]) -> tuple[str, Any]:
        return ("update", c[0])

    def _for_decl(self, c: list[Any]) -> A.VariableDeclaration:
        decl = A.VariableDeclarator(id=c[1], init=None, span=_join(c[1]))
        return A.VariableDeclaration(kind=str(c[0]), declarations=(decl,), span=_join(c[0], c[1]))

    def for_in_decl(self, c: list[Any]) -> A.ForInStatement:
        return A.ForInStatement(left=self._for_decl(c), right=c[2], body=c[3], span=_join(*c))

    def for_of_decl(self, c: list[Any]) -> A.ForOfStatement:
        return A.ForOfStatement(left=self._for_decl(c), right=_check_expression(c[2]), body=c[3], span=_join(*c))

    def for_in_lhs(self, c: list[Any]) -> A.ForInStatement:
        return A.ForInStatement(left=to_pattern(c[0]), right=c[1], body=c[2], span=_join(*c))

    def for_of_lhs(self, c: list[Any]) -> A.ForOfStatement:
        return A.ForOfStatement(left=to_pattern(c[0]), right=_check_expression(c[1]), body=c[2], span=_join(*c))

    def while_statement(self, c: list[Any]) -> A.WhileStatement:
        return A.WhileStatement(test=c[0], body=c[1], span=_join(*c))

    def with_statement(self, c: list[Any]) -> A.WithStatement:
        return A.WithStatement(object=c[0], body=c[1], span=_join(*c))

    def do_while_statement(self, c: list[Any]) -> A.DoWhileStatement:
        n = _nodes(c)
        return A.DoWhileStatement(body=n[0], test=n[1], span=_join(*c))

    def _label(self, c: list[Any]) -> A.Identifier | None:
        ids = [t for t in c if isinstance(t, Token) and t.type == "IDENT"]
        return A.Identifier(name=str(ids[0]), span=_join(ids[0])) if ids else None

    def continue_statement(self, c: list[Any]) -> A.ContinueStatement:
        return A.ContinueStatement(label=self._label(c), span=_join(*c))

    def break_statement(self, c: list[Any]) -> A.BreakStatement:
        return A.BreakStatement(label=self._label(c), span=_join(*c))

    def return_statement(self, c: list[Any]) -> A.ReturnStatement:
        n = _nodes(c)
        return A.ReturnStatement(argument=n[0] if n else None, span=_join(*c))

    def throw_statement(self, c: list[Any]) -> A.ThrowStatement:
        return A.ThrowStatement(argument=c[0], span=_join(*c))

    def try_statement(self, c: list[Any]) -> A.TryStatement:
        handler = next((x for x in c if isinstance(x, A.CatchClause)), None)
        fin = [x for x in c[1:] if isinstance(x, A.BlockStatement)]
        return A.TryStatement(block=c[0], handler=handler, finalizer=fin[0] if fin else None, span=_join(*c))

    def catch_clause(self, c: list[Any]) -> A.CatchClause:
        n = _nodes(c)
        return A.CatchClause(param=n[0] if len(n) > 1 else None, body=n[-1], span=_join(*c))

    def finally_clause(self, c: list[Any]) -> A.BlockStatement:
        return c[0]  # type: ignore[no-any-return]

    def switch_statement(self, c: list[Any]) -> A.SwitchStatement:
        n = _nodes(c)
        return A.SwitchStatement(discriminant=n[0], cases=tuple(n[1:]), span=_join(*c))

    def case_clause(self, c: list[Any]) -> A.SwitchCase:
        return A.SwitchCase(test=c[0], consequent=tuple(c[1:]), span=_join(*c))

    def default_clause(self, c: list[Any]) -> A.SwitchCase:
        return A.SwitchCase(test=None, consequent=tuple(c), span=_join(*c) if c else Span(1, 1))

    def labeled_statement(self, c: list[Any]) -> A.LabeledStatement:
        return A.LabeledStatement(label=A.Identifier(name=str(c[0]), span=_join(c[0])), body=c[1], span=_join(*c))

    def function_declaration(self, c: list[Any]) -> A.FunctionDeclaration:
        return A.FunctionDeclaration(id=A.Identifier(name=str(c[1]), span=_join(c[1])), params=c[2], body=c[3],
                                     span=_join(*c))

    # -- classes (15.7) --------------------------------------------------------------------------
    def class_declaration(self, c: list[Any]) -> A.ClassDeclaration:
        heritage = next((x[1] for x in c if isinstance(x, tuple)), None)
        return A.ClassDeclaration(id=A.Identifier(name=str(c[1]), span=_join(c[1])), superClass=heritage, body=c[-1],
                                  span=_join(c[0], c[-1]))

    def class_expression(self, c: list[Any]) -> A.ClassExpression:
        ident = A.Identifier(name=str(c[0]), span=_join(c[0])) if isinstance(c[0], Token) else None
        heritage = next((x[1] for x in c if isinstance(x, tuple)), None)
        return A.ClassExpression(id=ident, superClass=heritage, body=c[-1], span=c[-1].span)

    def class_body(self, c: list[Any]) -> A.ClassBody:
        elements = [x for x in c if x is not None and not isinstance(x, Token)]
        constructors = [e for e in elements if isinstance(e, A.MethodDefinition) and e.kind == "constructor"]
        if len(constructors) > 1:
            raise _Fail("A class may only have one constructor", constructors[1].key.span)
        for e in elements:
            if e.computed or not isinstance(e.key, A.Literal):
                continue
            if e.static and e.key.value == "prototype":
                raise _Fail("Classes may not have a static property named 'prototype'", e.key.span)
            if not e.static and e.key.value == "constructor" and not isinstance(e, A.MethodDefinition):
                raise _Fail("Classes may not have a field named 'constructor'", e.key.span)
            if not e.static and e.key.value == "constructor" and e.kind in ("get", "set"):
                raise _Fail("Class constructor may not be an accessor", e.key.span)
        return A.ClassBody(body=tuple(elements), span=_join(*c) if c else Span(1, 1))

    class_declaration_body = class_body

    def class_heritage(self, c: list[Any]) -> tuple[str, Any]:
        return ("heritage", _check_expression(_nodes(c)[0]))

    def class_element(self, c: list[Any]) -> Any:
        return c[0]

    def static_element(self, c: list[Any]) -> Any:
        element = _nodes(c)[0]
        kind = {"kind": "method"} if isinstance(element, A.MethodDefinition) and element.kind == "constructor" else {}
        return attrs.evolve(element, static=True, **kind)

    def empty_element(self, c: list[Any]) -> None:
        return None

    def _class_method(self, c: list[Any], kind: str, params: Any) -> A.MethodDefinition:
        key, computed = next(x for x in c if isinstance(x, tuple))
        n = _nodes(c)
        if params is None:
            params = n[-2]
        fn = A.FunctionExpression(id=None, params=params, body=n[-1], span=_join(*c))
        if kind == "method" and not computed and isinstance(key, A.Literal) and key.value == "constructor":
            kind = "constructor"
        return A.MethodDefinition(key=key, value=fn, computed=computed, static=False, kind=kind, span=_join(*c))

    def class_method(self, c: list[Any]) -> A.MethodDefinition:
        return self._class_method(c, "method", None)

    def class_getter(self, c: list[Any]) -> A.MethodDefinition:
        return self._class_method(c, "get", ())

    def class_setter(self, c: list[Any]) -> A.MethodDefinition:
        return self._class_method(c, "set", None)

    def field_definition(self, c: list[Any]) -> A.PropertyDefinition:
        key, computed = c[0]
        value = _check_expression(c[1]) if len(c) > 1 else None
        return A.PropertyDefinition(key=key, value=value, computed=computed, static=False, span=_join(*c))

    def super_dot(self, c: list[Any]) -> A.MemberExpression:
        key = A.PropertyName(name=str(c[-1]), span=_join(c[-1]))
        return A.MemberExpression(object=A.Super(span=_join(c[0])), property=key, computed=False, optional=False,
                                  span=_join(*c))

    def super_index(self, c: list[Any]) -> A.MemberExpression:
        return A.MemberExpression(object=A.Super(span=_join(c[0])), property=_check_expression(_nodes(c)[0]),
                                  computed=True, optional=False, span=_join(*c))

    def super_call(self, c: list[Any]) -> A.CallExpression:
        return A.CallExpression(callee=A.Super(span=_join(c[0])), arguments=c[-1], optional=False, span=_join(*c))

    def function_expression(self, c: list[Any]) -> A.FunctionExpression:
        ident = A.Identifier(name=str(c[0]), span=_join(c[0])) if isinstance(c[0], Token) else None
        n = _nodes(c)
        return A.FunctionExpression(id=ident, params=n[0], body=n[1], span=_join(*c))

    # -- bindings ------------------------------------------------------------------------------
    def binding_ident(self, c: list[Any]) -> A.Identifier:
        return A.Identifier(name=str(c[0]), span=_join(c[0]))

    def object_pattern(self, c: list[Any]) -> A.ObjectPattern:
        return A.ObjectPattern(properties=tuple(_nodes(c)), span=_join(*c))

    def pattern_prop_kv(self, c: list[Any]) -> A.Property:
        key, computed = c[0]
        return A.Property(key=key, value=c[1], computed=computed, shorthand=False, method=False, span=_join(key, c[1]))

    def pattern_prop_short(self, c: list[Any]) -> A.Property:
        ident = A.Identifier(name=str(c[0]), span=_join(c[0]))
        value: Any = ident
        if len(c) > 1:
            value = A.AssignmentPattern(left=ident, right=_check_expression(c[1]), span=_join(*c))
        return A.Property(key=ident, value=value, computed=False, shorthand=True, method=False, span=_join(*c))

    def pattern_prop_rest(self, c: list[Any]) -> A.RestElement:
        ident = A.Identifier(name=str(c[0]), span=_join(c[0]))
        return A.RestElement(argument=ident, span=_join(*c))

    def array_pattern(self, c: list[Any]) -> A.ArrayPattern:
        elems = list(c)
        if elems and elems[-1] is None:
            elems.pop()
            if elems and isinstance(elems[-1], A.RestElement):  # `let [...x,] = a` (14.3.3)
                raise _Fail("Rest element must be last element", elems[-1].span)
        for e in elems[:-1]:
            if isinstance(e, A.RestElement):
                raise _Fail("Rest element must be last element", e.span)
        return A.ArrayPattern(elements=tuple(elems), span=_join(*c) if _nodes(c) else Span(1, 1))

    def pattern_elem(self, c: list[Any]) -> Any:
        return c[0]

    def pattern_rest(self, c: list[Any]) -> A.RestElement:
        return A.RestElement(argument=c[0], span=_join(*c))

    def pattern_hole(self, c: list[Any]) -> None:
        return None

    def binding_element(self, c: list[Any]) -> Any:
        if len(c) == 1:
            return c[0]
        return A.AssignmentPattern(left=c[0], right=_check_expression(c[1]), span=_join(*c))

    def params(self, c: list[Any]) -> tuple[Any, ...]:
        items = [x for x in c if x is not None]
        for p in items[:-1]:
            if isinstance(p, A.RestElement):
                raise _Fail("Rest parameter must be last formal parameter", p.span)
        return tuple(items)

    def param(self, c: list[Any]) -> Any:
        return c[0]

    def rest_param(self, c: list[Any]) -> A.RestElement:
        return A.RestElement(argument=c[0], span=_join(*c))

    # -- expressions ---------------------------------------------------------------------------
    def expression(self, c: list[Any]) -> Any:
        items = [_check_expression(x) for x in c]
        if len(items) == 1:
            return items[0]
        return A.SequenceExpression(expressions=tuple(items), span=_join(*items))

    def assignment(self, c: list[Any]) -> A.AssignmentExpression:
        target, op, value = c
        if not isinstance(target, (A.Identifier, A.MemberExpression)) or _has_optional(target):
            raise _Fail("Invalid left-hand side in assignment", _join(target))
        return A.AssignmentExpression(operator=str(op), left=target, right=_check_expression(value),
                                      span=_join(target, value))

    def plain_assignment(self, c: list[Any]) -> A.AssignmentExpression:
        target, value = c
        if isinstance(target, _Cover):
            if len(target.items) != 1 or target.trailing or not isinstance(target.items[0], (A.Identifier, A.MemberExpression)):
                raise _Fail("Invalid left-hand side in assignment", target.span)
            target = target.items[0]
        if _has_optional(target):
            raise _Fail("Invalid left-hand side in assignment", _join(target))
        pattern = to_pattern(target)
        return A.AssignmentExpression(operator="=", left=pattern, right=_check_expression(value),
                                      span=_join(target, value))

    def arrow_ident(self, c: list[Any]) -> A.ArrowFunctionExpression:
        param = A.Identifier(name=str(c[0]), span=_join(c[0]))
        return self._arrow((param,), c[1], _join(*c))

    def arrow_paren(self, c: list[Any]) -> A.ArrowFunctionExpression:
        cover: _Cover = c[0]
        params: list[Any] = []
        for i, item in enumerate(cover.items):
            if isinstance(item, _CoverRest):
                if i != len(cover.items) - 1 or cover.trailing:
                    raise _Fail("Rest parameter must be last formal parameter", item.span)
                params.append(A.RestElement(argument=item.target, span=item.span))
            else:
                p = to_pattern(item)
                if isinstance(p, A.MemberExpression) or (isinstance(p, A.AssignmentPattern) and isinstance(p.left, A.MemberExpression)):
                    raise _Fail("Invalid destructuring assignment target", p.span)
                params.append(p)
        return self._arrow(tuple(params), c[1], _join(*c))

    def _arrow(self, params: tuple[Any, ...], body: Any, span: Span) -> A.ArrowFunctionExpression:
        if isinstance(body, A.BlockStatement):
            return A.ArrowFunctionExpression(params=params, body=body, expression=False, span=span)
        return A.ArrowFunctionExpression(params=params, body=_check_expression(body), expression=True, span=span)

    def conditional(self, c: list[Any]) -> A.ConditionalExpression:
        test, a, b = (_check_expression(x) for x in _nodes(c))
        return A.ConditionalExpression(test=test, consequent=a, alternate=b, span=_join(test, b))

    def coalesce(self, c: list[Any]) -> A.LogicalExpression:
        left, right = (_check_expression(x) for x in _nodes(c))
        return A.LogicalExpression(operator="??", left=left, right=right, span=_join(left, right))

    def _logical(self, c: list[Any], op: str) -> A.LogicalExpression:
        left, right = _nodes(c)
        return A.LogicalExpression(operator=op, left=_check_expression(left), right=_check_expression(right),
                                   span=_join(left, right))

    def logical_or_expr(self, c: list[Any]) -> A.LogicalExpression:
        return self._logical(c, "||")

    def logical_and_expr(self, c: list[Any]) -> A.LogicalExpression:
        return self._logical(c, "&&")

    def _bitwise(self, c: list[Any], op: str) -> A.BinaryExpression:
        left, right = _nodes(c)
        return A.BinaryExpression(operator=op, left=_check_expression(left), right=_check_expression(right),
                                  span=_join(left, right))

    def bit_or_expr(self, c: list[Any]) -> A.BinaryExpression:
        return self._bitwise(c, "|")

    def bit_xor_expr(self, c: list[Any]) -> A.BinaryExpression:
        return self._bitwise(c, "^")

    def bit_and_expr(self, c: list[Any]) -> A.BinaryExpression:
        return self._bitwise(c, "&")

    def binary(self, c: list[Any]) -> A.BinaryExpression:
        left, op, right = c
        return A.BinaryExpression(operator=str(op), left=_check_expression(left), right=_check_expression(right),
                                  span=_join(left, right))

    def binary_in(self, c: list[Any]) -> A.BinaryExpression:
        left, right = _nodes(c)
        return A.BinaryExpression(operator="in", left=_check_expression(left), right=_check_expression(right),
                                  span=_join(left, right))

    def binary_pow(self, c: list[Any]) -> A.BinaryExpression:
        left, right = _nodes(c)
        return A.BinaryExpression(operator="**", left=_check_expression(left), right=_check_expression(right),
                                  span=_join(left, right))

    def unary(self, c: list[Any]) -> A.UnaryExpression:
        op, arg = c
        arg = _check_expression(arg)
        return A.UnaryExpression(operator=str(op), argument=arg, span=_join(op, arg))

    def unary_not(self, c: list[Any]) -> A.UnaryExpression:
        arg = _check_expression(_nodes(c)[0])
        return A.UnaryExpression(operator="!", argument=arg, span=_join(*c))

    def _update_target(self, arg: Any) -> Any:
        if isinstance(arg, _Cover) and len(arg.items) == 1 and not arg.trailing:
            arg = arg.items[0]
        if not isinstance(arg, (A.Identifier, A.MemberExpression)) or _has_optional(arg):
            raise _Fail("Invalid left-hand side expression in postfix operation", _join(arg))
        return arg

    def postfix_update(self, c: list[Any]) -> A.UpdateExpression:
        arg = self._update_target(c[0])
        return A.UpdateExpression(operator=str(c[1]), prefix=False, argument=arg, span=_join(*c))

    def prefix_update(self, c: list[Any]) -> A.UpdateExpression:
        arg = self._update_target(c[1])
        return A.UpdateExpression(operator=str(c[0]), prefix=True, argument=arg, span=_join(*c))

    def new_noargs(self, c: list[Any]) -> A.NewExpression:
        callee = _check_expression(_nodes(c)[0])
        return A.NewExpression(callee=callee, arguments=(), span=_join(*c))

    def new_args(self, c: list[Any]) -> A.NewExpression:
        n = _nodes(c)
        return A.NewExpression(callee=_check_expression(n[0]), arguments=n[1], span=_join(*c))

    def dot(self, c: list[Any]) -> A.MemberExpression:
        obj = _check_expression(c[0])
        prop = c[-1]
        key = A.PropertyName(name=str(prop), span=_join(prop))
        return A.MemberExpression(object=obj, property=key, computed=False, optional=False, span=_join(obj, prop))

    def index(self, c: list[Any]) -> A.MemberExpression:
        obj = _check_expression(c[0])
        n = _nodes(c)
        return A.MemberExpression(object=obj, property=n[1], computed=True, optional=False, span=_join(*c))

    def call(self, c: list[Any]) -> A.CallExpression:
        callee = _check_expression(c[0])
        return A.CallExpression(callee=callee, arguments=c[1], optional=False, span=_join(*c))

    def arguments(self, c: list[Any]) -> tuple[Any, ...]:
        return tuple(_check_expression(x) for x in _nodes(c))

    def spread(self, c: list[Any]) -> A.SpreadElement:
        arg = _check_expression(_nodes(c)[0])
        return A.SpreadElement(argument=arg, span=_join(*c))

    def tagged(self, c: list[Any]) -> A.TaggedTemplateExpression:
        tag = _check_expression(c[0])
        if _has_optional(tag):
            raise _Fail("Invalid tagged template on optional chain", c[1].span)
        return A.TaggedTemplateExpression(tag=tag, quasi=c[1], span=_join(*c))

    def optional(self, c: list[Any]) -> Any:
        base = _check_expression(c[0])
        kind, payload, last = c[2]
        span = _join(base, last)
        if kind == "call":
            return A.CallExpression(callee=base, arguments=payload, optional=True, span=span)
        return A.MemberExpression(object=base, property=payload, computed=kind == "index", optional=True, span=span)

    def opt_dot(self, c: list[Any]) -> tuple[str, Any, Any]:
        return ("dot", A.PropertyName(name=str(c[0]), span=_join(c[0])), c[0])

    def opt_index(self, c: list[Any]) -> tuple[str, Any, Any]:
        return ("index", _nodes(c)[0], c[-1])

    def opt_call(self, c: list[Any]) -> tuple[str, Any, Any]:
        args = c[0]
        return ("call", args, args[-1] if args else None)

    # -- primaries -----------------------------------------------------------------------------
    def identifier(self, c: list[Any]) -> A.Identifier:
        return A.Identifier(name=str(c[0]), span=_join(c[0]))

    def this(self, c: list[Any]) -> A.ThisExpression:
        return A.ThisExpression(span=_join(*c))

    def new_target(self, c: list[Any]) -> A.MetaProperty:
        if str(c[-1]) != "target":
            raise _Fail(f"Unexpected identifier '{c[-1]}'", _join(c[-1]))
        return A.MetaProperty(meta="new", property="target", span=_join(*c))

    def literal(self, c: list[Any]) -> Any:
        return c[0]

    def number(self, c: list[Any]) -> A.Literal:
        return A.Literal(value=number_value(str(c[0])), raw=str(c[0]), span=_join(c[0]))

    def string(self, c: list[Any]) -> A.Literal:
        try:
            value = string_value(str(c[0]))
        except ValueError as exc:
            raise _Fail(str(exc), _join(c[0])) from None
        return A.Literal(value=value, raw=str(c[0]), span=_join(c[0]))

    def regex(self, c: list[Any]) -> A.RegExpLiteral:
        raw = str(c[0])
        end = raw.rfind("/")
        flags = raw[end + 1:]
        for i, f in enumerate(flags):
            if f not in "dgimsuyv" or f in flags[:i]:
                raise _Fail("Invalid regular expression flags", _join(c[0]))
        return A.RegExpLiteral(pattern=raw[1:end], flags=flags, span=_join(c[0]))

    def null(self, c: list[Any]) -> A.Literal:
        return A.Literal(value=None, raw="null", span=_join(*c))

    def true(self, c: list[Any]) -> A.Literal:
        return A.Literal(value=True, raw="true", span=_join(*c))

    def false(self, c: list[Any]) -> A.Literal:
        return A.Literal(value=False, raw="false", span=_join(*c))

    def template(self, c: list[Any]) -> A.TemplateLiteral:
        raws: list[str] = []
        cooked: list[str | None] = []
        exprs: list[Any] = []
        for x in c:
            if isinstance(x, Token):
                text = str(x)
                body = text[1:]
                body = body[:-2] if body.endswith("${") else body[:-1]
                raws.append(body)
                try:
                    cooked.append(template_value(body))
                except ValueError as exc:
                    cooked.append(None)
                    err = _Fail(str(exc), _join(x))
                    cooked_errors = getattr(self, "_template_errors", [])
                    cooked_errors.append(err)
                    self._template_errors = cooked_errors
            else:
                exprs.append(_check_expression(x))
        return A.TemplateLiteral(quasis=tuple(cooked), raws=tuple(raws), expressions=tuple(exprs), span=_join(*c))

    def paren_cover(self, c: list[Any]) -> _Cover:
        items = _nodes(c)
        toks = [t for t in c if isinstance(t, Token)]
        trailing = len(toks) >= 2 and toks[-2].type == "COMMA" if toks else False
        return _Cover(items, _join(*c), trailing)

    def cover_rest(self, c: list[Any]) -> _CoverRest:
        return _CoverRest(_nodes(c)[0], _join(*c))

    def array_literal(self, c: list[Any]) -> A.ArrayExpression:
        elems = [x for x in c if not isinstance(x, Token)]
        if elems and elems[-1] is None:
            elems.pop()
            if elems and isinstance(elems[-1], A.SpreadElement):  # `[...x,]`: fine, but never a pattern
                self._spreads_before_comma.append(elems[-1].span)
        return A.ArrayExpression(elements=tuple(_deep_check(e) for e in elems), span=_join(*c))

    def array_elem(self, c: list[Any]) -> Any:
        return _check_expression(c[0])

    def hole(self, c: list[Any]) -> None:
        return None

    def object_literal(self, c: list[Any]) -> A.ObjectExpression:
        props = tuple(_nodes(c))
        protos = [p for p in props if isinstance(p, A.Property) and not p.computed and not p.shorthand
                  and not p.method and isinstance(p.key, A.Literal) and p.key.value == "__proto__"]
        if len(protos) > 1:  # an early error (13.2.5.1), unless the literal is a pattern
            self._proto_duplicates = getattr(self, "_proto_duplicates", []) + [protos[1].span]
        return A.ObjectExpression(properties=props, span=_join(*c))

    def prop_kv(self, c: list[Any]) -> A.Property:
        (key, computed), value = c[0], c[1]
        if isinstance(value, _Cover):
            value = _cover_expression(value)
        return A.Property(key=key, value=value, computed=computed, shorthand=False, method=False,
                          span=_join(key, value))

    def prop_short(self, c: list[Any]) -> A.Property:
        ident = A.Identifier(name=str(c[0]), span=_join(c[0]))
        return A.Property(key=ident, value=ident, computed=False, shorthand=True, method=False, span=ident.span)

    def prop_cover_init(self, c: list[Any]) -> A.Property:
        ident = A.Identifier(name=str(c[0]), span=_join(c[0]))
        init = _CoverInit(ident, _check_expression(c[1]), _join(*c))
        return A.Property(key=ident, value=init, computed=False, shorthand=True, method=False,  # type: ignore[arg-type]
                          span=_join(*c))

    def prop_spread(self, c: list[Any]) -> A.SpreadElement:
        arg = _check_expression(_nodes(c)[0])
        return A.SpreadElement(argument=arg, span=_join(*c))

    def prop_method(self, c: list[Any]) -> A.Property:
        (key, computed) = c[0]
        n = _nodes(c)
        fn = A.FunctionExpression(id=None, params=n[1], body=n[2], span=_join(*c))
        return A.Property(key=key, value=fn, computed=computed, shorthand=False, method=True, span=_join(*c))

    def prop_getter(self, c: list[Any]) -> A.Property:
        return self._accessor(c, "get", ())

    def prop_setter(self, c: list[Any]) -> A.Property:
        return self._accessor(c, "set", None)

    def _accessor(self, c: list[Any], kind: str, params: Any) -> A.Property:
        """``get x() {}`` / ``set x(v) {}`` in an object literal (13.2.5, 15.4)."""
        key, computed = next(x for x in c if isinstance(x, tuple))
        n = _nodes(c)
        body = n[-1]
        if params is None:
            params = n[-2]
        fn = A.FunctionExpression(id=None, params=params, body=body, span=_join(*c))
        return A.Property(key=key, value=fn, computed=computed, shorthand=False, method=True, span=_join(*c),
                          kind=kind)

    def key_ident(self, c: list[Any]) -> tuple[Any, bool]:
        return A.Literal(value=str(c[0]), raw=str(c[0]), span=_join(c[0])), False

    def key_string(self, c: list[Any]) -> tuple[Any, bool]:
        lit = self.string(c)
        return lit, False

    def key_number(self, c: list[Any]) -> tuple[Any, bool]:
        lit = self.number(c)
        return lit, False

    def key_computed(self, c: list[Any]) -> tuple[Any, bool]:
        return _check_expression(_nodes(c)[0]), True


def build_ast(tree: Tree[Any], source: str = "", origin: str = "<expression>") -> A.Program:
    """Turn a Lark parse tree into the typed AST; shape errors become GrammarErrors."""
    builder = _Builder()
    try:
        program = builder.transform(tree)
    except VisitError as exc:
        inner = exc.orig_exc
        if isinstance(inner, _Fail):
            raise GrammarError(inner.message, inner.span, source, origin) from None
        if isinstance(inner, GrammarError):
            raise inner from None
        if isinstance(inner, RecursionError):
            raise GrammarError("the expression is nested too deeply to compile", Span(1, 1), source, origin,
                               refused=True) from None
        raise GrammarError(f"cannot build the syntax tree: {inner}", Span(1, 1), source, origin) from None
    except _Fail as exc:
        raise GrammarError(exc.message, exc.span, source, origin) from None
    if builder._spreads_before_comma:
        _check_rest_before_comma(program, builder._spreads_before_comma, source, origin)
    duplicates = getattr(builder, "_proto_duplicates", None)
    if duplicates:
        _check_proto_duplicates(program, duplicates, source, origin)
    errors = getattr(builder, "_template_errors", None)
    if errors:
        _check_templates(program, errors, source, origin)
    return program  # type: ignore[no-any-return]


def _check_rest_before_comma(program: A.Program, spans: list[Span], source: str, origin: str) -> None:
    """``[...x,]`` is an array literal, but as a destructuring target its rest element is not
    last (13.15.5.1: AssignmentRestElement has no trailing comma)."""
    marked = set(spans)
    for node in A.walk(program):
        if isinstance(node, A.ArrayPattern) and node.elements and isinstance(node.elements[-1], A.RestElement) \
                and node.elements[-1].span in marked:
            raise GrammarError("Rest element must be last element", node.elements[-1].span, source, origin)


def _check_proto_duplicates(program: A.Program, spans: list[Span], source: str, origin: str) -> None:
    """Duplicate ``__proto__:`` is an early error in a literal, not in a destructuring pattern."""
    from_patterns = {(p.span.line, p.span.column) for node in A.walk(program) if isinstance(node, A.ObjectPattern)
                     for p in node.properties
                     if isinstance(p, A.Property) and isinstance(p.key, A.Literal) and p.key.value == "__proto__"}
    for span in spans:
        if (span.line, span.column) not in from_patterns:
            raise GrammarError("Duplicate __proto__ fields are not allowed in object literals", span, source, origin)


def _check_templates(program: A.Program, errors: list[_Fail], source: str, origin: str) -> None:
    """Invalid escapes are allowed only in tagged templates (13.2.8.1 / ES2018 revision)."""
    nodes = list(A.walk(program))
    tagged = {id(node.quasi) for node in nodes if isinstance(node, A.TaggedTemplateExpression)}
    for node in nodes:
        if isinstance(node, A.TemplateLiteral) and id(node) not in tagged and any(q is None for q in node.quasis):
            raise GrammarError(errors[0].message, node.span, source, origin)


def parse(source: str, origin: str = "<expression>") -> A.Program:
    """Source text -> typed AST (the grammar stage's one entry point), early errors checked."""
    from . import early_errors

    program = build_ast(parse_tree(source, origin), source, origin)
    try:
        early_errors.check(program, source)
    except early_errors.EarlyError as exc:
        span = getattr(exc.node, "span", None) or Span(1, 1)
        raise GrammarError(exc.message, span, source, origin) from None
    except RecursionError:
        raise GrammarError("the expression is nested too deeply to compile", Span(1, 1), source, origin,
                           refused=True) from None
    return program
