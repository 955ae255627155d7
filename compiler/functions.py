"""Code generation for functions and binding patterns (ECMA-262 10.2, 15.2-15.3, 8.6).

A JS function becomes a Python ``def _fN(_this, p0=UNDEFINED, ..., *_rest)`` wrapped in a
``JSFunction``. Missing arguments are ``UNDEFINED``; extra ones are accepted and dropped.
Defaults are evaluated at call time when the argument is undefined (10.2.11 step 24).
Every call charges the realm: its entry counts a step and checks the call depth (inline, see
``accounting.py``).
"""

from __future__ import annotations

import ast
from typing import Any

from syncpatch.grammar import ast as A
from syncpatch.grammar.early_errors import has_use_strict
from syncpatch.grammar.ast import walk
from syncpatch.grammar.errors import Span

from . import pyast as P
from .accounting import charge_step, enter_call, leave_call
from .base import GenBase
from .scope import Binding, FunctionFrame, Scope

__all__ = ["FuncGen"]


def _uses_arguments(node: Any) -> bool:
    """Does a non-arrow function (its parameters and body) mention ``arguments`` or call
    ``eval`` directly (not inside nested non-arrow functions)?"""
    for n in walk((node.params, node.body), prune=(A.FunctionExpression, A.FunctionDeclaration)):
        if isinstance(n, A.Identifier) and n.name == "arguments":
            return True
        if isinstance(n, A.CallExpression) and isinstance(n.callee, A.Identifier) and n.callee.name == "eval":
            return True
    return False


def _calls_nothing(node: Any) -> bool:
    """A leaf function makes no calls, so it cannot recurse: it only charges its step, with
    no call-depth accounting. Implicit calls through user
    ``valueOf``/``toString`` that recurse end in Python's recursion limit, which the
    facade reports as the same RangeError."""
    return not any(isinstance(n, (A.CallExpression, A.NewExpression, A.TaggedTemplateExpression))
                   for n in walk((node.params, node.body)))


def expected_argument_count(params: tuple[Any, ...]) -> int:
    """ExpectedArgumentCount (15.1.5): parameters before the first default or rest."""
    n = 0
    for p in params:
        if isinstance(p, (A.AssignmentPattern, A.RestElement)):
            break
        n += 1
    return n


def has_direct_eval(node: Any) -> bool:
    """Does a function's own code (parameters and body, not nested functions) call ``eval``
    by that name (a direct eval, which may declare ``var``s in the function)?"""
    return any(isinstance(n, A.CallExpression) and isinstance(n.callee, A.Identifier) and n.callee.name == "eval"
               for n in walk((node.params, node.body), prune=A.FUNCTIONS))


#: ``this`` and the most arguments a built-in callback method passes (``reduce``'s four)
_PASSED_BY_CALLBACKS = 5


class FuncGen(GenBase):
    """Mixin: function values, hoisted declarations and destructuring."""

    def function_value(self, node: Any, name: str, method: bool = False, span: Span | None = None) -> ast.expr:
        fname = self.fresh("_f")
        is_arrow = isinstance(node, A.ArrowFunctionExpression)
        own = node.id if isinstance(node, A.FunctionExpression) and node.id is not None else None
        # a function with an arguments object gets its own function object for ``callee``
        # through a list made afresh with each function object (loops make many)
        cell = self.fresh("_cell") if not is_arrow and _uses_arguments(node) else None
        if cell is not None:
            self.pre.append(P.assign(cell, P.list_([])))
        if own is not None:
            saved = self.scope
            self.scope = Scope(parent=saved, frame=self.frame)
            binding = self.scope.bindings[own.name] = self.new_binding(own.name, "function")
            try:
                self.pre.append(self.function_def(node, fname, is_arrow, cell))
            finally:
                self.scope = saved
            self.pre.append(P.assign(binding.pyname, self.function_object(fname, own.name, node, "function")))
            if cell is not None:
                self.pre.append(P.expr_stmt(P.call(P.attr(P.name(cell), "append"), P.name(binding.pyname))))
            return P.name(binding.pyname)
        self.pre.append(self.function_def(node, fname, is_arrow, cell))
        kind = "arrow" if is_arrow else ("method" if method else "function")
        made = self.function_object(fname, name, node, kind, span)
        if cell is None:
            return made
        fobj = self.fresh("_fo")
        self.pre.append(P.assign(fobj, made))
        self.pre.append(P.expr_stmt(P.call(P.attr(P.name(cell), "append"), P.name(fobj))))
        return P.name(fobj)

    def function_object(self, fname: str, name: str, node: Any, kind: str, span: Span | None = None) -> ast.expr:
        """``JSFunction(call, name, length, construct, kind, props, builtin, source)``."""
        args = [P.name(fname), P.const(name), P.const(expected_argument_count(node.params)), P.const(None), P.const(kind),
                P.const(None), P.const(False), P.const(self.source_text(span or node.span))]
        return ast.Call(func=P.name("JSFunction"), args=args, keywords=[])

    def source_text(self, span: Any) -> str | None:
        """The JS source of a span (Function.prototype.toString shows it, 20.2.3.5)."""
        lines = self.source.split("\n")
        if not (1 <= span.line <= span.end_line <= len(lines)):
            return None
        if span.line == span.end_line:
            return str(lines[span.line - 1][span.column - 1:span.end_column - 1])
        parts = [lines[span.line - 1][span.column - 1:], *lines[span.line:span.end_line - 1],
                 lines[span.end_line - 1][:span.end_column - 1]]
        return "\n".join(parts)

    def function_def(self, node: Any, fname: str, is_arrow: bool, cell: str | None = None) -> ast.FunctionDef:
        this_name = (self.frame.this_name or "_this0") if is_arrow else self.fresh("_this")
        frame = FunctionFrame(parent=self.frame, this_name=this_name, is_arrow=is_arrow,
                              start=(node.body.span.line, node.body.span.column))
        if not is_arrow and _uses_arguments(node):
            frame.arguments_name = self.fresh("_args")
            frame.callee_cell = cell
        saved = (self.frame, self.scope, self.pre, self.completion, self.breakables, self.labels, self.open_jumps,
                 self.strict)
        if isinstance(node.body, A.BlockStatement) and has_use_strict(node.body.body):
            self.strict = True
        self.frame = frame
        # sloppy direct eval may add vars to this function (19.2.1.3): they live in an object
        # looked up like a `with` object, between the function's own bindings and outer ones
        eval_vars = self.fresh("_ev") if not self.strict and has_direct_eval(node) else None
        if eval_vars is not None:
            self.scope = Scope(parent=self.scope, frame=frame, with_obj=eval_vars)
            self.eval_var_objects = self.eval_var_objects | {eval_vars}
            self.with_active += 1
        self.scope = Scope(parent=self.scope, frame=frame)
        self.pre, self.completion, self.breakables, self.labels, self.open_jumps = [], False, [], {}, set()
        saved_params_of, self.params_of = self.params_of, frame
        try:
            args, prologue = self.parameters(node.params, this_name if not is_arrow else self.fresh("_this"))
            self.params_of = saved_params_of
            prologue_pre = self.pre
            self.pre = []
            body = self.function_body(node)
        finally:
            (self.frame, self.scope, self.pre, self.completion, self.breakables, self.labels, self.open_jumps,
             strict) = saved
            self.params_of = saved_params_of
            if eval_vars is not None:
                self.with_active -= 1
        if eval_vars is not None:
            prologue_pre = [P.assign(eval_vars, P.call("eval_var_scope")), *prologue_pre]
        function_strict, self.strict = self.strict, strict
        stmts: list[ast.stmt] = []
        if frame.nonlocals:
            stmts.append(ast.Nonlocal(names=sorted(frame.nonlocals)))
        if frame.uses_this and not is_arrow and not function_strict:
            # sloppy this (10.2.1.2 OrdinaryCallBindThis): undefined/null is the global object,
            # a primitive its wrapper object (ToObject, what with_object does); a dict stays
            boxed = P.ifexp(P.or_(P.is_(P.name(this_name), P.const(None)), P.is_(P.name(this_name), P.name("UNDEFINED"))),
                            P.name("GLOBAL_THIS"), P.call("with_object", P.name(this_name)))
            stmts.append(ast.If(test=ast.Compare(left=P.call("TYPE", P.name(this_name)), ops=[ast.IsNot()],
                                                 comparators=[P.name("DICT")]),
                                body=[P.assign(this_name, boxed)], orelse=[]))
        by_value = sorted(frame.by_value - frame.nonlocals)
        if frame.callee_cell is not None:
            by_value.append(frame.callee_cell)
        if by_value:
            args.kwonlyargs = [ast.arg(arg=n) for n in by_value]
            args.kw_defaults = [P.name(n) for n in by_value]
        inner = [*prologue_pre, *prologue, *body]
        if _calls_nothing(node):
            stmts.extend(charge_step())
            stmts.extend(inner)
        else:
            stmts.extend(enter_call())
            stmts.append(ast.Try(body=inner or [ast.Pass()], handlers=[], orelse=[], finalbody=[leave_call()]))
        fn = ast.FunctionDef(name=fname, args=args, body=stmts, decorator_list=[], returns=None)
        fn.lineno, fn.col_offset = node.span.line, node.span.column - 1
        return fn

    def parameters(self, params: tuple[Any, ...], this_name: str) -> tuple[ast.arguments, list[ast.stmt]]:
        """Python parameters and the prologue binding JS parameters (10.2.11)."""
        scope = self.scope
        for p in params:
            for ident in _names(p):
                scope.bindings[ident.name] = self.new_binding(ident.name, "param")
        try:
            for p in params:  # a default reads the parameters before it, not itself or later ones (10.2.11)
                for ident in _names(p):
                    scope.bindings[ident.name].tdz = True
            return self._parameters(params, this_name)
        finally:
            for p in params:
                for ident in _names(p):
                    scope.bindings[ident.name].tdz = False

    def _initialised(self, p: Any) -> None:
        """Parameter ``p`` is bound: later defaults may read it."""
        for ident in _names(p):
            self.scope.bindings[ident.name].tdz = False

    def _parameters(self, params: tuple[Any, ...], this_name: str) -> tuple[ast.arguments, list[ast.stmt]]:
        scope = self.scope
        posargs = [ast.arg(arg=this_name)]
        defaults: list[ast.expr] = []
        prologue: list[ast.stmt] = []
        vararg: ast.arg | None = None
        if self.frame.arguments_name is not None:
            argv = self.frame.arguments_name
            vararg = ast.arg(arg=argv)
            if "arguments" not in scope.bindings:  # a parameter named so hides the object
                scope.bindings["arguments"] = Binding(name="arguments", pyname=argv, kind="arguments", frame=self.frame)
            if not self.strict and all(isinstance(p, A.Identifier) for p in params):
                return ast.arguments(posonlyargs=[], args=posargs, vararg=vararg, kwonlyargs=[], kw_defaults=[],
                                     kwarg=None, defaults=[]), self.mapped_parameters(params, argv)
            prologue.append(P.assign(argv, P.call("arguments_object", P.name(argv))))
            for i, p in enumerate(params):
                prologue.extend(self.bind_param_from_args(p, i))
                self._initialised(p)
            return ast.arguments(posonlyargs=[], args=posargs, vararg=vararg, kwonlyargs=[], kw_defaults=[],
                                 kwarg=None, defaults=[]), prologue
        last = {p.name: i for i, p in enumerate(params) if isinstance(p, A.Identifier)}  # sloppy f(a, a): the last wins
        for i, p in enumerate(params):
            if isinstance(p, A.RestElement):
                rest = self.fresh("_r")
                vararg = ast.arg(arg=rest)
                prologue.extend(self.bind_pattern(p.argument, P.call("LIST", P.name(rest)), "param"))
                self._initialised(p)
                continue
            target = p.left if isinstance(p, A.AssignmentPattern) else p
            if isinstance(target, A.Identifier) and last.get(target.name, i) == i:
                py = scope.bindings[target.name].pyname
            else:
                py = self.fresh("_p")
            posargs.append(ast.arg(arg=py))
            defaults.append(P.name("UNDEFINED"))
            if isinstance(p, A.AssignmentPattern):
                prologue.append(ast.If(test=P.is_(P.name(py), P.name("UNDEFINED")),
                                       body=[P.assign(py, self.named_value_pre(p.right, target))], orelse=[]))
            if not isinstance(target, A.Identifier):
                prologue.extend(self.bind_pattern(target, P.name(py), "param"))
            self._initialised(p)
        if vararg is None:
            # unread slots up to ``this`` and four arguments: the callback methods pass (value,
            # index, array) or (accumulator, value, index, array), which then fill named
            # parameters instead of making a tuple for ``*rest`` on every call
            while len(posargs) < _PASSED_BY_CALLBACKS:
                posargs.append(ast.arg(arg=self.fresh("_x")))
                defaults.append(P.name("UNDEFINED"))
            vararg = ast.arg(arg=self.fresh("_x"))
        args = ast.arguments(posonlyargs=[], args=posargs, vararg=vararg, kwonlyargs=[], kw_defaults=[],
                             kwarg=None, defaults=defaults)
        return args, prologue

    def mapped_parameters(self, params: tuple[Any, ...], argv: str) -> list[ast.stmt]:
        """A sloppy function with simple parameters: they live in the mapped arguments
        object (10.4.4.7), whose elements alias them (a repeated name: its last position)."""
        pv = self.fresh("_pv")
        last = {p.name: i for i, p in enumerate(params)}
        for name, i in last.items():
            self.scope.bindings[name].mapped = (argv, pv, i)
        cell = self.frame.callee_cell
        made = P.call("mapped_arguments", P.name(argv), P.name(cell) if cell else P.list_([]),
                      P.tuple_(*[P.const(i) for i in sorted(last.values())]), P.const(len(params)))
        return [P.assign(argv, made), P.assign(pv, P.attr(P.name(argv), "pv"))]

    def bind_param_from_args(self, p: Any, i: int) -> list[ast.stmt]:
        argv = P.name(self.frame.arguments_name or "")
        if isinstance(p, A.RestElement):
            value: ast.expr = ast.Subscript(value=argv, slice=ast.Slice(lower=P.const(i), upper=None, step=None),
                                            ctx=ast.Load())
            return self.bind_pattern(p.argument, value, "param")
        item = P.ifexp(ast.Compare(left=P.call("LEN", argv), ops=[ast.Gt()], comparators=[P.const(i)]),
                       P.subscript(argv, P.const(i)), P.name("UNDEFINED"))
        return self.bind_pattern(p, item, "param")

    def named_value_pre(self, node: Any, target: Any) -> ast.expr:
        if isinstance(target, A.Identifier):
            return self.named_value(node, target.name)
        return self.expr(node)

    def function_body(self, node: Any) -> list[ast.stmt]:
        if isinstance(node, A.ArrowFunctionExpression) and node.expression:
            saved = self.pre
            self.pre = []
            value = self.expr(node.body)
            out = [*self.pre, P.ret(value)]
            self.pre = saved
            return out
        body = node.body.body
        out = self.hoist(body, function_level=True)
        out.extend(self.statements(body))
        out.append(P.ret(P.name("UNDEFINED")))
        return out

    # -- destructuring -------------------------------------------------------------------------
    def bind_target(self, target: Any, value: ast.expr, mode: str) -> list[ast.stmt]:
        """Store ``value`` into one target (identifier or member) as statements."""
        if isinstance(target, A.Identifier):
            if mode == "assign" or (mode == "var" and self.with_temps(target.name)):
                return [P.expr_stmt(self.store_ident(target, value))]
            b = self.scope.lookup(target.name)
            assert b is not None
            if b.mapped is not None:
                return [P.expr_stmt(self.param_store(b, value))]
            self.mark_write(b)
            return [P.assign(b.pyname, value)]
        if isinstance(target, A.MemberExpression):
            return [P.expr_stmt(P.call(self.setm_name, self.expr(target.object), self.member_key(target), value))]
        return self.bind_pattern(target, value, mode)

    def bind_pattern(self, pattern: Any, value: ast.expr, mode: str) -> list[ast.stmt]:
        """BindingInitialization / DestructuringAssignmentEvaluation (8.6.2, 13.15.5)."""
        match pattern:
            case A.Identifier() | A.MemberExpression():
                return self.bind_target(pattern, value, mode)
            case A.AssignmentPattern():
                t = self.fresh("_d")
                target: list[ast.stmt] = []
                left = pattern.left
                if isinstance(left, A.MemberExpression):
                    # the target's reference comes before the value and the default (13.15.5.5-6)
                    o, k = self.fresh("_o"), self.fresh("_k")
                    target = [P.assign(o, self.expr(left.object)), P.assign(k, self.member_key(left))]
                    store = [P.expr_stmt(P.call(self.setm_name, P.name(o), P.name(k), P.name(t)))]
                saved, self.pre = self.pre, []  # a closure in the default is made when it runs
                try:
                    default = self.named_value_pre(pattern.right, pattern.left)
                    default_pre = self.pre
                finally:
                    self.pre = saved
                return [*target, P.assign(t, value),
                        ast.If(test=P.is_(P.name(t), P.name("UNDEFINED")), body=[*default_pre, P.assign(t, default)],
                               orelse=[]),
                        *(store if target else self.bind_pattern(left, P.name(t), mode))]
            case A.ObjectPattern():
                return self.bind_object(pattern, value, mode)
            case A.ArrayPattern():
                return self.bind_array(pattern, value, mode)
            case _:
                raise self.fail("Invalid destructuring target", pattern)

    def bind_object(self, pattern: A.ObjectPattern, value: ast.expr, mode: str) -> list[ast.stmt]:
        src = self.fresh("_s")
        out: list[ast.stmt] = [
            P.assign(src, value),
            ast.If(test=P.or_(P.is_(P.name(src), P.const(None)), P.is_(P.name(src), P.name("UNDEFINED"))),
                   body=[P.expr_stmt(P.call("destructure_error", P.name(src)))], orelse=[]),
        ]
        used: list[ast.expr] = []
        for prop in pattern.properties:
            if isinstance(prop, A.RestElement):
                rest = P.call("rest_object", P.name(src), P.tuple_(*used))
                out.extend(self.bind_pattern(prop.argument, rest, mode))
                continue
            if prop.computed:
                k = self.fresh("_k")
                out.append(P.assign(k, P.call("property_key", self.expr(prop.key))))
                key: ast.expr = P.name(k)
            else:
                key = self.literal_key(prop)
            used.append(key)
            out.extend(self.bind_pattern(prop.value, P.call("get", P.name(src), key), mode))
        return out

    def bind_array(self, pattern: A.ArrayPattern, value: ast.expr, mode: str) -> list[ast.stmt]:
        if mode != "assign" and pattern.elements and \
                all(e is None or isinstance(e, A.Identifier) for e in pattern.elements):
            return self.bind_names_from_array(pattern, value, mode)
        return self.bind_iterated(pattern, value, mode)

    def bind_names_from_array(self, pattern: A.ArrayPattern, value: ast.expr, mode: str) -> list[ast.stmt]:
        """``[k, v]`` of plain names: a plain array (while no realm patches built-ins, so its
        iterator is the built-in one and it has no holes) is indexed directly; anything else
        goes through the iterator protocol."""
        src, n = self.fresh("_a"), self.fresh("_n")
        indexed: list[ast.stmt] = [P.assign(n, P.call("LEN", P.name(src)))]
        for i, e in enumerate(pattern.elements):
            if e is not None:
                more = ast.Compare(left=P.name(n), ops=[ast.Gt()], comparators=[P.const(i)])
                item = P.ifexp(more, P.subscript(P.name(src), P.const(i)), P.name("UNDEFINED"))
                indexed.extend(self.bind_pattern(e, item, mode))
        plain = P.and_(P.type_is(P.name(src), "list"), P.not_(P.subscript(P.name("PATCHED"), P.const(0))))
        return [P.assign(src, value),
                ast.If(test=plain, body=indexed, orelse=self.bind_iterated(pattern, P.name(src), mode))]

    def bind_iterated(self, pattern: A.ArrayPattern, value: ast.expr, mode: str) -> list[ast.stmt]:
        """The iterator protocol; an iterator not exhausted is closed when the pattern ends or
        one of its targets, defaults or nested patterns throws (8.6.2, 13.15.5.2 IteratorClose)."""
        it = self.fresh("_i")
        out: list[ast.stmt] = []
        for e in pattern.elements:
            if isinstance(e, A.RestElement):
                out.extend(self.bind_pattern(e.argument, P.call("rest_array", P.name(it)), mode))
                break
            item = P.call("NEXT", P.name(it), P.name("UNDEFINED"))
            if e is None:
                out.append(P.expr_stmt(item))
                continue
            out.extend(self.bind_pattern(e, item, mode))
        closing = ast.Try(body=out or [ast.Pass()], handlers=[], orelse=[],
                          finalbody=[P.expr_stmt(P.call("iter_close", P.name(it)))])
        return [P.assign(it, P.call("iterate", value)), closing]

    def destructure_expr(self, pattern: Any, right: Any) -> ast.expr:
        """A destructuring assignment used as a value: a local helper def returning the rhs."""
        fname = self.fresh("_f")
        src = self.fresh("_s")
        frame = FunctionFrame(parent=self.frame, this_name=self.frame.this_name, is_arrow=True,
                              arguments_name=self.frame.arguments_name)
        saved = (self.frame, self.pre)
        self.frame, self.pre = frame, []
        try:
            body = self.bind_pattern(pattern, P.name(src), "assign")
            body = [*self.pre, *body, P.ret(P.name(src))]
        finally:
            self.frame, self.pre = saved
        if frame.nonlocals:
            body.insert(0, ast.Nonlocal(names=sorted(frame.nonlocals)))
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=src)], vararg=None, kwonlyargs=[], kw_defaults=[],
                             kwarg=None, defaults=[])
        self.pre.append(ast.FunctionDef(name=fname, args=args, body=body, decorator_list=[], returns=None))
        return P.call(fname, self.expr(right))


def _names(p: Any) -> list[A.Identifier]:
    from .scope import pattern_names

    return list(pattern_names(p))
