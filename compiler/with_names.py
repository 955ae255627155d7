"""Code generation for ``with`` (ECMA-262 14.11) and the names written inside its body.

``with (o) body`` evaluates ToObject(o) into a compiler-made local ``_wN`` and compiles the
body in a scope marked with it. An identifier written inside such a body asks the runtime
(``runtime/with_scope.py``) which of the ``with`` objects between it and its binding binds
the name, once per reference, and otherwise acts on the binding as code outside ``with``
would. Only these identifiers pay for the lookup: ``with_temps`` is empty everywhere else,
so scripts without ``with`` compile to the same code as before.

Closures created in the body read the ``with`` objects they see by value (a keyword default
captured when the closure is made), so each loop iteration's closures keep their own object.
"""

from __future__ import annotations

import ast
from contextlib import contextmanager
from typing import Callable, Iterator

from syncpatch.grammar import ast as A

from . import pyast as P
from .base import GenBase
from .scope import FunctionFrame, Scope

__all__ = ["WithGen"]


class WithGen(GenBase):
    """Mixin: the ``with`` statement and the dynamic references inside its body."""

    #: ``with`` bodies being compiled around the current node (any function depth)
    with_active: int = 0
    #: >0 while generating the code a name has outside every ``with`` (the fallback)
    with_bypass: int = 0

    def with_statement(self, s: A.WithStatement) -> list[ast.stmt]:
        obj = self.fresh("_w")
        out: list[ast.stmt] = [*self.reset_completion(), P.assign(obj, P.call("with_object", self.expr(s.object)))]
        saved = self.scope
        self.scope = Scope(parent=saved, frame=self.frame, with_obj=obj)
        self.with_active += 1
        try:
            out.extend(self.sub_statement(s.body))
        finally:
            self.with_active -= 1
            self.scope = saved
        return out

    # -- resolution ----------------------------------------------------------------------------
    def with_temps(self, name: str) -> list[str]:
        """The ``with`` objects (their Python names, innermost first) that may bind ``name``
        before its lexical binding; empty outside ``with`` bodies."""
        if not self.with_active or self.with_bypass:
            return []
        own_arguments = name == "arguments" and self.frame.arguments_name is not None
        temps: list[str] = []
        scope: Scope | None = self.scope
        while scope is not None and name not in scope.bindings:
            if own_arguments and scope.frame is not self.frame:
                break  # the function's own `arguments` binding comes before outer `with`s
            if scope.with_obj is not None:
                temps.append(scope.with_obj)
                if scope.frame is not self.frame:
                    self._capture(scope.with_obj, scope.frame)
            scope = scope.parent
        return temps

    def _capture(self, temp: str, owner: FunctionFrame) -> None:
        """A closure reads the ``with`` object of an enclosing def: take its value when the
        closure is made (the def's local is reassigned by the next run of the statement)."""
        frame = self.frame
        while frame.parent is not None and frame.parent is not owner:
            frame = frame.parent
        if frame.parent is owner:
            frame.by_value.add(temp)

    def with_visible(self, scope: Scope) -> str:
        """The ``with`` object of ``scope`` as code here can read it (captured by closures)."""
        assert scope.with_obj is not None
        if scope.frame is not self.frame:
            self._capture(scope.with_obj, scope.frame)
        return scope.with_obj

    def with_env_lookup(self, temps: list[str], op: str, key: str, value: str) -> list[ast.stmt]:
        """In the environment function code from strings resolves through (``env_function``):
        read (op 0) or write (op 1) the name ``key`` on the first of ``temps`` that binds it."""
        if not temps:
            return []
        ref = self.tmp()
        found = P.call("with_base", P.name(key), *[P.name(t) for t in temps])
        act = P.ifexp(ast.Compare(left=P.name(op), ops=[ast.Eq()], comparators=[P.const(0)]),
                      P.call("with_get", P.name(ref), P.name(key), P.const(self.strict)),
                      P.call("with_set", P.name(ref), P.name(key), P.name(value), P.const(self.strict)))
        test = P.and_(ast.Compare(left=P.name(op), ops=[ast.NotEq()], comparators=[P.const(2)]),
                      ast.Compare(left=P.walrus(ref, found), ops=[ast.IsNot()], comparators=[P.name("MISSING")]))
        return [ast.If(test=test, body=[P.ret(act)], orelse=[])]

    @contextmanager
    def _outside(self) -> Iterator[None]:
        """Generate a name's code as if no ``with`` surrounded it (the fallback branch). A name
        read there is not recorded as a free global: the object may well bind it, so the build
        step must not report it as undeclared."""
        self.with_bypass += 1
        known = set(self.free_globals)
        try:
            yield
        finally:
            self.with_bypass -= 1
            for name in set(self.free_globals) - known:
                del self.free_globals[name]

    def _base(self, name: str, temps: list[str], ref: str) -> ast.expr:
        """``(ref := with_base(name, _w...)) is not MISSING``: resolve once, remember the base."""
        found = P.call("with_base", P.const(name), *[P.name(t) for t in temps])
        return ast.Compare(left=P.walrus(ref, found), ops=[ast.IsNot()], comparators=[P.name("MISSING")])

    def _found(self, ref: str) -> ast.expr:
        return ast.Compare(left=P.name(ref), ops=[ast.IsNot()], comparators=[P.name("MISSING")])

    def _read(self, node: A.Identifier, ref: str, test: ast.expr) -> ast.expr:
        with self._outside():
            outside = self.load_ident(node)
        return P.ifexp(test, P.call("with_get", P.name(ref), P.const(node.name), P.const(self.strict)), outside)

    def _put(self, node: A.Identifier, ref: str, value: str) -> ast.expr:
        with self._outside():
            outside = self.store_ident(node, P.name(value))
        return P.ifexp(self._found(ref), P.call("with_set", P.name(ref), P.const(node.name), P.name(value),
                                                P.const(self.strict)), outside)

    # -- references ----------------------------------------------------------------------------
    def with_load(self, node: A.Identifier, temps: list[str]) -> ast.expr:
        ref = self.tmp()
        return self._read(node, ref, self._base(node.name, temps, ref))

    def with_callee(self, node: A.Identifier, temps: list[str]) -> tuple[ast.expr, ast.expr]:
        """A call through a name: the callee, and its ``this`` (the binding ``with`` object,
        else undefined), to be evaluated in that order."""
        ref = self.tmp()
        return self._read(node, ref, self._base(node.name, temps, ref)), P.call("with_this", P.name(ref))

    def with_store(self, node: A.Identifier, temps: list[str], value: Callable[[ast.expr], ast.expr]) -> ast.expr:
        """PutValue through a resolved reference: the base first, then ``value(read)`` (``read``
        is GetValue of the same reference, for compound forms), then the store."""
        ref, v = self.tmp(), self.tmp()
        resolve = P.walrus(ref, P.call("with_base", P.const(node.name), *[P.name(t) for t in temps]))
        computed = P.walrus(v, value(self._read(node, ref, self._found(ref))))
        return P.subscript(P.tuple_(resolve, computed, self._put(node, ref, v)), P.const(-1))

    def with_direct_eval(self, node: A.CallExpression, temps: list[str]) -> ast.expr:
        """``eval(...)`` inside a ``with`` body: a direct eval when the name still means the
        built-in eval (19.2.1.1: a ``with`` object's binding is not a property reference),
        else a call with the object as ``this``."""
        assert isinstance(node.callee, A.Identifier)
        fn, this = self.with_callee(node.callee, temps)
        env = self.env_function()
        return P.call("with_eval", fn, this, P.const(self.strict), P.name(env), *self.args(node.arguments))

    def with_update(self, node: A.UpdateExpression, temps: list[str]) -> ast.expr:
        """``x++`` and friends on a name a ``with`` object may bind."""
        assert isinstance(node.argument, A.Identifier)
        fn = "inc" if node.operator == "++" else "dec"
        old = self.tmp()
        store = self.with_store(node.argument, temps,
                                lambda read: P.call(fn, P.walrus(old, P.call("to_numeric", read))))
        if node.prefix:
            return store
        return P.subscript(P.tuple_(store, P.name(old)), P.const(-1))

    def with_logical_assign(self, node: A.AssignmentExpression, temps: list[str]) -> ast.expr:
        """``x ??= v`` (and ``||=``, ``&&=``): the store, and ``v``, only when the current value
        does not decide (13.15.2)."""
        left = node.left
        assert isinstance(left, A.Identifier)
        ref, current, v = self.tmp(), self.tmp(), self.tmp()
        resolve = P.walrus(ref, P.call("with_base", P.const(left.name), *[P.name(t) for t in temps]))
        read = P.walrus(current, self._read(left, ref, self._found(ref)))
        keep: ast.expr
        if node.operator == "??=":
            keep = P.not_(P.or_(P.is_(read, P.const(None)), P.is_(P.name(current), P.name("UNDEFINED"))))
        elif node.operator == "||=":
            keep = P.call("truthy", read)
        else:
            keep = P.not_(P.call("truthy", read))
        store = P.subscript(P.tuple_(P.walrus(v, self.named_value(node.right, left.name)), self._put(left, ref, v)),
                            P.const(-1))
        return P.subscript(P.tuple_(resolve, P.ifexp(keep, P.name(current), store)), P.const(-1))

    def with_typeof(self, node: A.UnaryExpression, temps: list[str]) -> ast.expr:
        assert isinstance(node.argument, A.Identifier)
        ref = self.tmp()
        with self._outside():
            outside = self.unary(node)
        inside = P.call("typeof", P.call("with_get", P.name(ref), P.const(node.argument.name), P.const(self.strict)))
        return P.ifexp(self._base(node.argument.name, temps, ref), inside, outside)

    def with_delete(self, node: A.Identifier, temps: list[str]) -> ast.expr:
        ref = self.tmp()
        with self._outside():
            outside = self.delete(node)
        return P.ifexp(self._base(node.name, temps, ref), P.call("with_delete", P.name(ref), P.const(node.name)),
                       outside)
