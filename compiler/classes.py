"""Code generation for classes and ``super`` (ECMA-262 15.7, 13.3.7).

A class definition becomes statements before the current one (``self.pre``): the heritage,
two home-object cells, the constructor's ``def``, ``make_class``, each method defined on the
prototype or the class in source order, then the fields. A method's HomeObject (what ``super``
starts from) is read from a cell that the method's ``def`` captures when it is created, so
each evaluation of a class or object literal in a loop keeps its own. The constructor body
gets new.target as the keyword argument ``_nt``; its ``return``s go through ``ctor_return``.
A derived constructor starts with ``this`` uninitialised: ``super(...)`` binds it, and every
``this`` there is checked (``this_check``).
"""

from __future__ import annotations

import ast
from typing import Any

import attrs

from syncpatch.grammar import ast as A
from syncpatch.grammar.ast import walk

from . import pyast as P
from .base import GenBase
from .expressions import BINARY_FUNCS
from .functions import expected_argument_count
from .scope import FunctionFrame, Scope
from .texts import callee_text

__all__ = ["ClassGen", "MethodHome"]


@attrs.define
class MethodHome:
    """What ``super`` means in one method body: the cell of its HomeObject, the cell of the
    class (for ``super(...)``), and whether the body is a (derived) class constructor."""

    home: str
    klass: str | None = None
    ctor: bool = False
    derived: bool = False


def _uses_super(fn: A.FunctionExpression) -> bool:
    """Does a method's own code (arrows included, nested functions not) mention ``super``?"""
    return any(isinstance(n, A.Super) for n in walk((fn.params, fn.body), prune=(A.FunctionExpression,
                                                                                 A.FunctionDeclaration)))


def _is_super_member(node: Any) -> bool:
    return isinstance(node, A.MemberExpression) and isinstance(node.object, A.Super)


def _body_key(fn: A.FunctionExpression) -> tuple[int, int]:
    return (fn.body.span.line, fn.body.span.column)


class ClassGen(GenBase):
    """Mixin: class definitions, ``super`` and object-literal HomeObjects."""

    method_homes: dict[tuple[int, int], MethodHome]
    field_names: dict[int, str]  # anonymous functions initialising a field, by node id: the field's name

    # -- dispatch hooks ------------------------------------------------------------------------
    def _stmt(self, s: Any) -> list[ast.stmt]:
        if isinstance(s, A.ClassDeclaration):
            return self.class_declaration(s)
        return super()._stmt(s)  # type: ignore[misc, no-any-return]

    def _expr(self, node: Any) -> ast.expr:
        field = self.field_names.get(id(node))
        if field is not None:  # `f = function () {}` in a class body names the function `f`
            del self.field_names[id(node)]
            return self.named_value(node, field)
        if isinstance(node, A.ClassExpression):
            return self.class_value(node, node.id.name if node.id is not None else "")
        if isinstance(node, A.Super):
            raise self.fail("'super' keyword unexpected here", node)
        if isinstance(node, A.ObjectExpression) and self._literal_uses_super(node):
            return self.object_with_home(node)
        return super()._expr(node)  # type: ignore[misc, no-any-return]

    def named_value(self, node: Any, name: str) -> ast.expr:
        if isinstance(node, A.ClassExpression) and node.id is None:
            return self.class_value(node, name)
        return super().named_value(node, name)

    # -- class definitions ---------------------------------------------------------------------
    def class_declaration(self, s: A.ClassDeclaration) -> list[ast.stmt]:
        b = self.scope.lookup(s.id.name)
        assert b is not None, "class declarations are hoisted as lexical bindings"
        value = self.class_value(s, s.id.name)
        b.tdz = False
        self.mark_write(b)
        return [P.assign(b.pyname, value)]

    def class_value(self, node: A.ClassDeclaration | A.ClassExpression, name: str) -> ast.expr:
        """ClassDefinitionEvaluation (15.7.14): statements into ``self.pre``, the class as value."""
        saved_scope, saved_strict = self.scope, self.strict
        self.scope = Scope(parent=saved_scope, frame=self.frame)
        self.strict = True
        try:
            return self._class_value(node, name)
        finally:
            self.scope, self.strict = saved_scope, saved_strict

    def _class_value(self, node: A.ClassDeclaration | A.ClassExpression, name: str) -> ast.expr:
        inner = None
        if node.id is not None:  # the class's own immutable name binding (15.7.14 step 3)
            inner = self.scope.bindings[node.id.name] = self.new_binding(node.id.name, "const")
            inner.per_iteration = False
        heritage: ast.expr = P.name("MISSING")
        if node.superClass is not None:
            h = self.fresh("_h")
            self.pre.append(P.assign(h, self.expr(node.superClass)))
            heritage = P.name(h)
        proto_cell, class_cell = self.fresh("_home"), self.fresh("_home")
        self.pre.append(P.assign(proto_cell, P.call("home_cell")))
        self.pre.append(P.assign(class_cell, P.call("home_cell")))
        elements = node.body.body
        ctor = next((e for e in elements if isinstance(e, A.MethodDefinition) and e.kind == "constructor"), None)
        body: ast.expr = P.const(None)
        length = 0
        if ctor is not None:
            derived = node.superClass is not None
            self.method_homes[_body_key(ctor.value)] = MethodHome(proto_cell, class_cell, True, derived)
            fname = self.fresh("_f")
            fdef = self.function_def(ctor.value, fname, False)
            _constructor_def(fdef, derived)
            self.pre.append(fdef)
            body = P.name(fname)
            length = expected_argument_count(ctor.value.params)
        cls = self.fresh("_cls")
        source = self.source_text(node.span)  # type: ignore[attr-defined]
        self.pre.append(P.assign(cls, P.call("make_class", body, P.const(name), P.const(length), heritage,
                                             P.const(source))))
        proto = self.fresh("_proto")
        self.pre.append(P.assign(proto, P.call("get", P.name(cls), P.const("prototype"))))
        self.pre.append(P.expr_stmt(P.call("set_home", P.name(proto_cell), P.name(proto))))
        self.pre.append(P.expr_stmt(P.call("set_home", P.name(class_cell), P.name(cls))))
        instance_fields: list[ast.expr] = []
        static_fields: list[tuple[ast.expr, Any]] = []
        for e in elements:
            if e is ctor:
                continue
            target = cls if e.static else proto
            key = self._element_key(e)
            if isinstance(e, A.MethodDefinition):
                home = class_cell if e.static else proto_cell
                self.method_homes[_body_key(e.value)] = MethodHome(home, class_cell)
                label = e.key.value if isinstance(e.key, A.Literal) and not e.computed else ""
                fn = self.function_value(e.value, str(label), method=True, span=e.span)
                self.pre.append(P.expr_stmt(P.call("define_method", P.name(target), key, fn, P.const(e.kind))))
                continue
            init = self._field_initializer(e, class_cell if e.static else proto_cell, class_cell)
            if e.static:
                static_fields.append((key, init))
            else:
                instance_fields.append(P.tuple_(key, init))
        if instance_fields:
            self.pre.append(P.expr_stmt(P.call("set_fields", P.name(cls), P.tuple_(*instance_fields))))
        if inner is not None:
            self.pre.append(P.assign(inner.pyname, P.name(cls)))
        for key, init in static_fields:
            value = P.call(init, P.name(cls)) if not (isinstance(init, ast.Constant) and init.value is None) \
                else P.name("UNDEFINED")
            self.pre.append(P.expr_stmt(P.call("define_field", P.name(cls), key, value)))
        return P.name(cls)

    def _element_key(self, e: A.MethodDefinition | A.PropertyDefinition) -> ast.expr:
        """The element's key, evaluated once, in source order (15.7.14 step 27)."""
        if not e.computed and isinstance(e.key, A.Literal):
            v = e.key.value
            if type(v) is str:
                return P.const(v)
            return P.call("property_key", P.const(v))
        k = self.fresh("_k")
        self.pre.append(P.assign(k, P.call("property_key", self.expr(e.key))))
        return P.name(k)

    def _field_initializer(self, e: A.PropertyDefinition, home: str, klass: str) -> ast.expr:
        """A field's initializer as a function of ``this`` (None without one): compiled as a
        method whose body returns the expression, so ``this``, arrows and ``super.x`` work."""
        if e.value is None:
            return P.const(None)
        if not e.computed and isinstance(e.key, A.Literal) and (
                isinstance(e.value, A.ArrowFunctionExpression) or (
                    isinstance(e.value, (A.FunctionExpression, A.ClassExpression)) and e.value.id is None)):
            self.field_names[id(e.value)] = str(e.key.value) if type(e.key.value) is str else _number_text(e.key.value)
        span = e.value.span
        body = A.BlockStatement(body=(A.ReturnStatement(argument=e.value, span=span),), span=span)
        fn = A.FunctionExpression(id=None, params=(), body=body, span=span)
        self.method_homes[_body_key(fn)] = MethodHome(home, klass)
        fname = self.fresh("_f")
        self.pre.append(self.function_def(fn, fname, False))
        return P.name(fname)

    # -- object literals whose methods use super -----------------------------------------------
    def _literal_uses_super(self, node: A.ObjectExpression) -> bool:
        return any(isinstance(p, A.Property) and (p.method or p.kind != "init")
                   and isinstance(p.value, A.FunctionExpression) and _uses_super(p.value) for p in node.properties)

    def object_with_home(self, node: A.ObjectExpression) -> ast.expr:
        """An object literal with ``super`` in a method: the methods' HomeObject is the literal."""
        cell = self.fresh("_home")
        self.pre.append(P.assign(cell, P.call("home_cell")))
        for p in node.properties:
            if isinstance(p, A.Property) and (p.method or p.kind != "init") and isinstance(p.value, A.FunctionExpression):
                self.method_homes[_body_key(p.value)] = MethodHome(cell)
        value = super()._expr(node)  # type: ignore[misc]
        return P.call("set_home", P.name(cell), value)

    # -- super ---------------------------------------------------------------------------------
    def _method_frame(self) -> tuple[FunctionFrame, MethodHome | None]:
        frame = self.frame
        while frame.is_arrow and frame.parent is not None:
            frame = frame.parent
        return frame, self.method_homes.get(frame.start)

    def _super_parts(self, node: Any) -> tuple[ast.expr, ast.expr]:
        """(``this``, the HomeObject) for a ``super`` reference in the current method."""
        frame, home = self._method_frame()
        if home is None:
            raise self.fail("'super' keyword unexpected here", node)
        frame.by_value.add(home.home)  # the def captures its own cell when it is created
        this = self.this_expr(A.ThisExpression(span=node.span))
        return this, P.subscript(P.name(home.home), P.const(0))

    def is_derived_constructor(self, frame: FunctionFrame) -> bool:
        home = self.method_homes.get(frame.start)
        return home is not None and home.derived

    def class_new_target(self, frame: FunctionFrame) -> ast.expr | None:
        """new.target in a class method or constructor (None: not a class body)."""
        home = self.method_homes.get(frame.start)
        if home is None or home.klass is None:
            return None
        return P.name("_nt") if home.ctor else P.name("UNDEFINED")

    def super_call_expr(self, node: A.CallExpression) -> ast.expr:
        """``super(...args)``: construct with the parent, then bind ``this`` (13.3.7.1)."""
        frame, home = self._method_frame()
        if home is None or not home.derived or home.klass is None or frame.this_name is None:
            raise self.fail("'super' keyword unexpected here", node)
        frame.by_value.add(home.klass)
        if self.frame is not frame:
            self.frame.nonlocals.add(frame.this_name)
        made = P.call("super_call", P.subscript(P.name(home.klass), P.const(0)), P.name("_nt"),
                      *self.args(node.arguments))
        return P.walrus(frame.this_name, P.call("bind_this", made, P.name(frame.this_name)))

    def chain(self, node: Any) -> ast.expr:
        links: list[Any] = []
        cur = node
        while isinstance(cur, (A.MemberExpression, A.CallExpression)):
            links.append(cur)
            cur = cur.object if isinstance(cur, A.MemberExpression) else cur.callee
        if not isinstance(cur, A.Super):
            return super().chain(node)
        links.reverse()
        first = links[0]
        if isinstance(first, A.CallExpression):
            acc = self.super_call_expr(first)
            i = 1
        else:
            this, home = self._super_parts(first.object)
            t = self.tmp()
            key = self.member_key(first)
            nxt = links[1] if len(links) > 1 else None
            if isinstance(nxt, A.CallExpression) and nxt.callee is first and not nxt.optional:
                method = P.call("super_get", P.walrus(t, this), home, key)
                acc = P.call("call_this", method, P.name(t), P.const(callee_text(first)),
                             *self.args(nxt.arguments))
                i = 2
            else:
                acc = P.call("super_get", this, home, key)
                i = 1
        return self.links(acc, None, links, i)  # type: ignore[attr-defined, no-any-return]

    def assignment(self, node: A.AssignmentExpression) -> ast.expr:
        left = node.left
        if not _is_super_member(left):
            return super().assignment(node)
        assert isinstance(left, A.MemberExpression)
        this, home = self._super_parts(left.object)
        if node.operator == "=":
            return P.call("super_set", this, home, self.member_key(left), self.expr(node.right), P.const(self.strict))
        t, k = self.tmp(), self.tmp()
        current = P.call("super_get", P.name(t), home, P.name(k))
        if node.operator in ("&&=", "||=", "??="):
            v = self.tmp()
            store = P.call("super_set", P.name(t), home, P.name(k), self.expr(node.right), P.const(self.strict))
            read = P.walrus(v, current)
            if node.operator == "??=":
                keep: ast.expr = P.not_(P.or_(P.is_(read, P.const(None)), P.is_(P.name(v), P.name("UNDEFINED"))))
            elif node.operator == "||=":
                keep = P.call("truthy", read)
            else:
                keep = P.not_(P.call("truthy", read))
            prepare = P.tuple_(P.walrus(t, this), P.walrus(k, P.call("property_key", self.member_key(left))))
            return P.subscript(P.tuple_(prepare, P.ifexp(keep, P.name(v), store)), P.const(1))
        value = P.call(BINARY_FUNCS[node.operator[:-1]], current, self.expr(node.right))
        return P.call("super_set", P.walrus(t, this), home,
                      P.walrus(k, P.call("property_key", self.member_key(left))), value, P.const(self.strict))

    def update(self, node: A.UpdateExpression) -> ast.expr:
        if not _is_super_member(node.argument):
            return super().update(node)  # type: ignore[misc, no-any-return]
        arg = node.argument
        assert isinstance(arg, A.MemberExpression)
        this, home = self._super_parts(arg.object)
        return P.call("super_update", this, home, self.member_key(arg), P.const(1 if node.operator == "++" else -1),
                      P.const(node.prefix))

    def delete(self, arg: Any) -> ast.expr:
        if not _is_super_member(arg):
            return super().delete(arg)
        this, _ = self._super_parts(arg.object)
        return P.call("super_delete", this)

    def bind_target(self, target: Any, value: ast.expr, mode: str) -> list[ast.stmt]:
        if not _is_super_member(target):
            return super().bind_target(target, value, mode)  # type: ignore[misc, no-any-return]
        this, home = self._super_parts(target.object)
        return [P.expr_stmt(P.call("super_set", this, home, self.member_key(target), value, P.const(self.strict)))]


def _number_text(v: Any) -> str:
    from syncpatch.runtime.convert import to_string

    return str(to_string(v))


def _constructor_def(fdef: ast.FunctionDef, derived: bool) -> None:
    """Make a compiled method body a class constructor body: new.target as ``_nt``, and every
    ``return`` (of this def, not nested ones) through ``ctor_return`` (10.2.2 steps 10-13)."""
    this_name = fdef.args.args[0].arg
    fdef.args.kwonlyargs.append(ast.arg(arg="_nt"))
    fdef.args.kw_defaults.append(P.name("UNDEFINED"))
    stack: list[ast.AST] = list(fdef.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Return):
            value = n.value if n.value is not None else P.name("UNDEFINED")
            n.value = P.call("ctor_return", value, P.name(this_name), P.const(derived))
            continue
        stack.extend(ast.iter_child_nodes(n))
