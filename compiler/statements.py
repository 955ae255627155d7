"""Code generation for JS statements (ECMA-262 14) into Python statements.

Blocks get their own scope for ``let``/``const`` (14.2); loops charge one step per
iteration; ``for(;;)`` runs its update through a first-iteration flag so that ``continue``
still updates (14.7.4.2). At the script's top level, expression statements record the
completion value (``_c``) that the script returns, as goja's RunString does.
"""

from __future__ import annotations

import ast
from typing import Any

from syncpatch.grammar import ast as A
from syncpatch.grammar.ast import walk

from . import pyast as P
from .accounting import charge_step
from .base import GenBase
from .scope import Scope, function_decls, lexical_decls, var_names

__all__ = ["StmtGen"]

_BREAKABLE = (A.ForStatement, A.ForInStatement, A.ForOfStatement, A.WhileStatement, A.DoWhileStatement,
              A.SwitchStatement)


class StmtGen(GenBase):
    """Mixin: statements, blocks, hoisting, loops, try, switch."""

    def statements(self, body: tuple[Any, ...]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for s in body:
            saved = self.pre
            self.pre = []
            compiled = self.stmt(s)
            out.extend(self.pre)
            out.extend(compiled)
            self.pre = saved
        return out

    def stmt(self, s: Any) -> list[ast.stmt]:
        depth = len(self.breakables)
        out = self._stmt(s)
        if isinstance(s, _BREAKABLE):
            out.extend(self.label_checks(depth))
        for node in out:
            node.lineno, node.col_offset = s.span.line, s.span.column - 1
        return out

    def _stmt(self, s: Any) -> list[ast.stmt]:  # noqa: C901 - one dispatch over the union
        match s:
            case A.ExpressionStatement():
                return self.expression_statement(s.expression)
            case A.VariableDeclaration():
                return self.declaration(s)
            case A.FunctionDeclaration() | A.EmptyStatement():
                return []
            case A.BlockStatement():
                return self.block(s.body)
            case A.IfStatement():
                orelse = self.sub_statement(s.alternate) if s.alternate is not None else []
                node = ast.If(test=self.test(s.test), body=self.sub_statement(s.consequent) or [ast.Pass()],
                              orelse=orelse)
                return [*self.reset_completion(), node]
            case A.ForStatement():
                return self.for_statement(s)
            case A.ForInStatement() | A.ForOfStatement():
                return self.for_each(s)
            case A.WhileStatement():
                body = self.loop_body(s.body)
                test = self.loop_exit(s.test)
                return [*self.reset_completion(), ast.While(test=P.const(True), body=[*test, *body], orelse=[])]
            case A.DoWhileStatement():
                body = self.loop_body(s.body)
                until = self.loop_exit(s.test)
                flag = self.fresh("_first")
                head = ast.If(test=P.name(flag), body=[P.assign(flag, P.const(False))], orelse=until)
                loop = ast.While(test=P.const(True), body=[head, *body], orelse=[])
                return [*self.reset_completion(), P.assign(flag, P.const(True)), loop]
            case A.BreakStatement():
                return self.jump(s, ast.Break())
            case A.ContinueStatement():
                return self.jump(s, ast.Continue())
            case A.ReturnStatement():
                if self.frame.parent is None:
                    raise self.fail("Illegal return statement", s)
                return [P.ret(self.expr(s.argument) if s.argument is not None else P.name("UNDEFINED"))]
            case A.ThrowStatement():
                return [P.raise_call(P.call("JSThrow", self.expr(s.argument)))]
            case A.TryStatement():
                return [*self.reset_completion(), self.try_statement(s)]
            case A.SwitchStatement():
                return [*self.reset_completion(), *self.switch(s)]
            case A.LabeledStatement():
                return self.labeled(s)
            case A.WithStatement():
                return self.with_statement(s)
            case _:
                raise self.fail(f"unsupported statement {type(s).__name__}", s)

    # -- expression statements and declarations ------------------------------------------------
    def expression_statement(self, e: Any) -> list[ast.stmt]:
        if isinstance(e, A.AssignmentExpression) and e.operator == "=" and not isinstance(
                e.left, (A.Identifier, A.MemberExpression)):
            src = self.fresh("_s")
            out = [P.assign(src, self.expr(e.right)), *self.bind_pattern(e.left, P.name(src), "assign")]
            if self.completion:
                out.append(P.assign("_c", P.name(src)))
            return out
        if self.completion:
            return [P.assign("_c", self.expr(e))]
        if isinstance(e, A.AssignmentExpression) and e.operator == "=" and isinstance(e.left, A.Identifier):
            b = self.scope.lookup(e.left.name)
            if b is not None and b.kind != "const" and b.mapped is None and not self.with_temps(e.left.name) \
                    and not (b.tdz and b.frame is self.frame) and not self.early_closure_store(b, e.left):
                self.mark_write(b)
                return [P.assign(b.pyname, self.named_value(e.right, e.left.name))]
        return [P.expr_stmt(self.expr(e))]

    def declaration(self, s: A.VariableDeclaration) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for d in s.declarations:
            saved, self.pre = self.pre, []  # a closure in one initialiser sees the names bound before it
            try:
                compiled = self.declarator(s, d)
                out.extend(self.pre)
            finally:
                self.pre = saved
            out.extend(compiled)
            for ident in _names(d.id):  # initialised from here on (14.3.1.2)
                b = self.scope.lookup(ident.name)
                if b is not None:
                    b.tdz = False
        return out

    def declarator(self, s: A.VariableDeclaration, d: A.VariableDeclarator) -> list[ast.stmt]:
        """One ``name = init`` or ``pattern = init`` of a declaration (14.3.1.2, 14.3.2.1)."""
        if not isinstance(d.id, A.Identifier):
            if d.init is None:
                raise self.fail("Missing initializer in destructuring declaration", d)
            return self.bind_pattern(d.id, self.expr(d.init), s.kind)
        if d.init is None and s.kind == "var":
            return []
        b = self.scope.lookup(d.id.name)
        value = self.named_value(d.init, d.id.name) if d.init is not None else P.name("UNDEFINED")
        if b is None or b.mapped is not None or self.with_temps(d.id.name):  # sloppy eval code's var (the
            return [P.expr_stmt(self.store_ident(d.id, value))]  # caller's binding), an aliased parameter, or a with-bound name
        self.mark_write(b)
        return [P.assign(b.pyname, value)]

    def declares_in_caller(self) -> bool:
        """At the top level of sloppy eval code: declarations go to the caller's var scope."""
        return self.dynamic and not self.strict and self.frame.parent is None

    def eval_vars(self, body: tuple[Any, ...]) -> set[str]:
        """The ``var`` names of sloppy eval code's top level that declare in the caller's scope:
        those of plain ``var name = init`` declarations (patterns and loop heads stay local)."""
        if not self.declares_in_caller():
            return set()
        plain: set[str] = set()
        other: set[str] = set()
        for node in walk(body, prune=A.FUNCTIONS):
            if isinstance(node, A.VariableDeclaration) and node.kind == "var":
                for d in node.declarations:
                    (plain if isinstance(d.id, A.Identifier) else other).update(i.name for i in _names(d.id))
            elif isinstance(node, (A.ForInStatement, A.ForOfStatement)) and isinstance(node.left, A.VariableDeclaration):
                other.update(i.name for d in node.left.declarations for i in _names(d.id))
        return plain - other

    def leaked_functions(self, functions: list[A.FunctionDeclaration]) -> list[ast.stmt]:
        """Function declarations of sloppy eval code's top level: declared in the caller's
        var scope first (a clash with a caller's ``let`` is a SyntaxError before any runs),
        then each function object stored there (19.2.1.3 steps 8 and 17)."""
        out: list[ast.stmt] = [P.expr_stmt(P.call("eval_declare", P.const(name)))
                               for name in dict.fromkeys(f.id.name for f in functions)]
        last = {fn.id.name: fn for fn in functions}  # a repeated name: the last declaration wins
        for fn in functions:
            if last[fn.id.name] is not fn:
                continue
            saved = self.pre
            self.pre = []
            value = self.function_value(fn, fn.id.name)
            out.extend(self.pre)
            self.pre = saved
            out.append(P.expr_stmt(P.call("global_set", P.const(fn.id.name), value)))
        return out

    def reset_completion(self) -> list[ast.stmt]:
        """A compound statement's completion is undefined unless a statement inside sets it."""
        return [P.assign("_c", P.name("UNDEFINED"))] if self.completion else []

    # -- blocks and hoisting -------------------------------------------------------------------
    def block(self, body: tuple[Any, ...]) -> list[ast.stmt]:
        saved = self.scope
        self.scope = Scope(parent=saved, frame=self.frame)
        try:
            out = self.hoist(body, function_level=False)
            out.extend(self.statements(body))
        finally:
            self.scope = saved
        return out

    def sub_statement(self, s: Any) -> list[ast.stmt]:
        if isinstance(s, A.BlockStatement):
            return self.block(s.body)
        return self.block((s,))

    def hoist(self, body: tuple[Any, ...], function_level: bool) -> list[ast.stmt]:
        """Declare a block's bindings before its statements run (10.2.11, 14.2.3)."""
        out: list[ast.stmt] = []
        scope = self.scope
        if function_level:
            leaking = self.eval_vars(body)
            for ident in var_names(body):
                if ident.name in leaking:  # sloppy eval code: var declares in the caller (19.2.1.3)
                    leaking.discard(ident.name)
                    out.append(P.expr_stmt(P.call("eval_declare", P.const(ident.name))))
                    continue
                if scope.lookup(ident.name) is not None and (ident.name in scope.bindings or (
                        self.is_script_global(ident.name) and self.frame.parent is None)):
                    continue
                b = scope.bindings[ident.name] = self.new_binding(ident.name, "var")
                out.append(P.assign(b.pyname, P.name("UNDEFINED")))
        for ident, kind in lexical_decls(body):
            old = scope.bindings.get(ident.name)
            if old is not None and (old.kind in ("let", "const") or old.kind == "var"):
                raise self.fail(f"Identifier '{ident.name}' has already been declared", ident)
            binding = scope.bindings[ident.name] = self.new_binding(ident.name, kind, ident)
            binding.tdz = True
        functions = function_decls(body)
        if function_level and functions and self.declares_in_caller():
            # sloppy eval code: its function declarations land in the caller's var scope too
            out.extend(self.leaked_functions(functions))
            functions = []
        for fn in functions:
            found = scope.bindings.get(fn.id.name)
            if found is None or found.kind not in ("var", "function", "param"):
                if found is not None and found.kind in ("let", "const"):
                    raise self.fail(f"Identifier '{fn.id.name}' has already been declared", fn.id)
                scope.bindings[fn.id.name] = self.new_binding(fn.id.name, "function")
        for fn in functions:
            b = scope.bindings[fn.id.name]
            saved = self.pre
            self.pre = []
            value = self.function_value(fn, fn.id.name)
            out.extend(self.pre)
            self.pre = saved
            self.mark_write(b)
            out.append(P.assign(b.pyname, value))
        return out

    # -- loops ---------------------------------------------------------------------------------
    def loop_body(self, body: Any, kind: str = "loop") -> list[ast.stmt]:
        self.breakables.append(kind)
        self.frame.loop_depth += 1
        implicit = f"#{len(self.breakables) - 1}"
        try:
            compiled = self.sub_statement(body)
        finally:
            self.breakables.pop()
            self.frame.loop_depth -= 1
            self.labels.pop(implicit, None)
            self.open_jumps.discard(implicit)
        flag = self.label_flags.pop(implicit, None)
        if flag is not None:
            compiled.insert(0, P.assign(flag, P.const(None)))
        return [*charge_step(), *compiled]

    def loop_exit(self, test: Any) -> list[ast.stmt]:
        """``if not test: break``, with what the test needs first (a closure's def) inside the
        loop, so that a closure made in a loop head sees that iteration's bindings."""
        saved, self.pre = self.pre, []
        try:
            check = ast.If(test=P.not_(self.test(test)), body=[ast.Break()], orelse=[])
            return [*self.pre, check]
        finally:
            self.pre = saved

    def for_statement(self, s: A.ForStatement) -> list[ast.stmt]:
        saved = self.scope
        self.scope = Scope(parent=saved, frame=self.frame)
        try:
            out = self.reset_completion()
            if isinstance(s.init, A.VariableDeclaration):
                self.frame.loop_depth += 1
                try:
                    out.extend(self.hoist((s.init,), function_level=False))
                finally:
                    self.frame.loop_depth -= 1
                out.extend(self.statements((s.init,)))
            elif s.init is not None:
                out.append(P.expr_stmt(self.expr(s.init)))
            head: list[ast.stmt] = []
            if s.update is not None:
                flag = self.fresh("_first")
                out.append(P.assign(flag, P.const(True)))
                saved_pre, self.pre = self.pre, []
                update = P.expr_stmt(self.expr(s.update))
                update_pre, self.pre = self.pre, saved_pre
                head.append(ast.If(test=P.name(flag), body=[P.assign(flag, P.const(False))],
                                   orelse=[*update_pre, update]))
            if s.test is not None:
                head.extend(self.loop_exit(s.test))
            body = self.loop_body(s.body)
            out.append(ast.While(test=P.const(True), body=[*head, *body], orelse=[]))
            return out
        finally:
            self.scope = saved

    def for_each(self, s: Any) -> list[ast.stmt]:
        saved = self.scope
        if isinstance(s.left, A.VariableDeclaration) and s.left.kind != "var" and _mentions(
                s.right, {i.name for d in s.left.declarations for i in _names(d.id)}):
            # the head's expression sees the loop's let/const names uninitialised (14.7.5.6 TDZ)
            self.scope = Scope(parent=saved, frame=self.frame)
            self.hoist((s.left,), function_level=False)
        try:
            right = self.expr(s.right)
        finally:
            self.scope = saved
        source = P.call("forin_keys" if isinstance(s, A.ForInStatement) else "iterate", right)
        self.scope = Scope(parent=saved, frame=self.frame)
        try:
            item = self.fresh("_e")
            if isinstance(s.left, A.VariableDeclaration):
                self.frame.loop_depth += 1
                try:
                    self.hoist((s.left,), function_level=False)
                finally:
                    self.frame.loop_depth -= 1
                target = s.left.declarations[0].id
                for ident in _names(target):
                    found = self.scope.lookup(ident.name)
                    if found is not None:
                        found.tdz = False
            else:
                target = s.left
            saved_pre, self.pre = self.pre, []  # what the binding needs runs in each iteration
            try:
                bind = self.bind_pattern(target, P.name(item), s.left.kind if target is not s.left else "assign")
                bind = [*self.pre, *bind]
            finally:
                self.pre = saved_pre
            body = self.loop_body(s.body)
            if isinstance(s, A.ForInStatement):
                loop = ast.For(target=P.store(item), iter=source, body=[*bind, *body], orelse=[])
                return [*self.reset_completion(), loop]
            # for-of: an iterator left early (break, return, throw) is closed (14.7.5.7 IteratorClose)
            it = self.fresh("_i")
            loop = ast.For(target=P.store(item), iter=P.name(it), body=[*bind, *body], orelse=[])
            guarded = ast.Try(body=[loop], handlers=[], orelse=[],
                              finalbody=[P.expr_stmt(P.call("iter_close", P.name(it)))])
            return [*self.reset_completion(), P.assign(it, source), guarded]
        finally:
            self.scope = saved

    def jump(self, s: Any, node: ast.stmt) -> list[ast.stmt]:
        """break/continue; to an outer label via a flag checked after each inner loop."""
        is_break = isinstance(node, ast.Break)
        if s.label is not None:
            target = self.labels.get(s.label.name)
            if target is None:
                raise self.fail(f"Undefined label '{s.label.name}'", s.label)
            if not is_break and self.breakables[target] != "loop":
                raise self.fail(f"Illegal continue statement: '{s.label.name}' does not denote an iteration "
                                "statement", s)
            if target != len(self.breakables) - 1:
                flag = self.label_flags[s.label.name]
                self.open_jumps.add(s.label.name)
                return [P.assign(flag, P.const("break" if is_break else "continue")), ast.Break()]
            return [node]
        kinds = ("loop", "switch") if is_break else ("loop",)
        targets = [i for i, k in enumerate(self.breakables) if k in kinds]
        if not targets:
            raise self.fail("Illegal break statement" if is_break else
                            "Illegal continue statement: no surrounding iteration statement", s)
        if targets[-1] != len(self.breakables) - 1:
            # the innermost construct is a switch or labelled block: leave it through a flag
            label = f"#{targets[-1]}"
            self.labels.setdefault(label, targets[-1])
            flag = self.label_flags.setdefault(label, self.fresh("_jump"))
            self.open_jumps.add(label)
            return [P.assign(flag, P.const("break" if is_break else "continue")), ast.Break()]
        return [node]

    def label_checks(self, depth: int) -> list[ast.stmt]:
        """After a loop/switch at ``depth``: act on flags set by jumps to enclosing labels."""
        out: list[ast.stmt] = []
        for label in sorted(self.open_jumps):
            target = self.labels.get(label)
            if target is None or target >= depth:
                continue
            flag = self.label_flags[label]
            pending = ast.Compare(left=P.name(flag), ops=[ast.IsNot()], comparators=[P.const(None)])
            if target == depth - 1:
                for kind, jump in (("break", ast.Break()), ("continue", ast.Continue())):
                    test = ast.Compare(left=P.name(flag), ops=[ast.Eq()], comparators=[P.const(kind)])
                    out.append(ast.If(test=test, body=[P.assign(flag, P.const(None)), jump], orelse=[]))
            else:
                out.append(ast.If(test=pending, body=[ast.Break()], orelse=[]))
        return out

    def labeled(self, s: A.LabeledStatement) -> list[ast.stmt]:
        body = s.body
        name = s.label.name
        if isinstance(body, _BREAKABLE):
            flag = self.label_flags[name] = self.fresh("_jump")
            self.labels[name] = len(self.breakables)
            try:
                out = self.stmt(body)
            finally:
                self.labels.pop(name, None)
                self.open_jumps.discard(name)
            used = any(isinstance(n, ast.Name) and n.id == flag for st in out for n in ast.walk(st))
            return [P.assign(flag, P.const(None)), *out] if used else out
        if not _breaks_to(body, name):
            return self.stmt(body)
        # a labelled block left by `break name`: a one-pass loop (14.13.4 LabelledEvaluation)
        depth = len(self.breakables)
        self.breakables.append("block")
        self.labels[name] = depth
        self.label_flags[name] = flag = self.fresh("_jump")
        try:
            inner = self.sub_statement(body)
        finally:
            self.breakables.pop()
            self.labels.pop(name, None)
            self.open_jumps.discard(name)
        out = [ast.While(test=P.const(True), body=[*inner, ast.Break()], orelse=[])]
        out.extend(self.label_checks(depth))
        implicit = self.label_flags.pop(f"#{depth}", None)
        used = any(isinstance(n, ast.Name) and n.id == flag for st in out for n in ast.walk(st))
        return [*([P.assign(flag, P.const(None))] if used else []),
                *([P.assign(implicit, P.const(None))] if implicit else []), *out]

    # -- try / switch --------------------------------------------------------------------------
    def try_statement(self, s: A.TryStatement) -> ast.Try:
        handlers: list[ast.ExceptHandler] = []
        if s.handler is not None:
            exc = self.fresh("_x")
            saved = self.scope
            self.scope = Scope(parent=saved, frame=self.frame)
            try:
                bind: list[ast.stmt] = []
                if isinstance(s.handler.param, A.Identifier):  # eval code may redeclare it with var (B.3.4)
                    self.simple_catch_scopes = {**self.simple_catch_scopes, id(self.scope): self.scope}
                if s.handler.param is not None:
                    for ident in _names(s.handler.param):
                        self.scope.bindings[ident.name] = self.new_binding(ident.name, "let")
                    bind = self.bind_pattern(s.handler.param, P.attr(P.name(exc), "value"), "let")
                body = self.block(s.handler.body.body)
            finally:
                self.scope = saved
            # A TDZ read surfaces as a Python NameError: JS code can catch it as a ReferenceError.
            self.uses_names = True
            value = self.fresh("_e")
            caught = P.assign(value, P.call("caught_value", P.name(exc), P.name("_names")))
            bind = [_ALIVE(), caught, *_rebind(bind, exc, value)]
            handlers.append(ast.ExceptHandler(type=P.tuple_(P.name("JSThrow"), P.name("NAME_ERROR")), name=exc,
                                              body=[*bind, *body] or [ast.Pass()]))
        saved_completion = self.completion
        self.completion = False
        try:
            final = self.block(s.finalizer.body) if s.finalizer is not None else []
        finally:
            self.completion = saved_completion
        finalbody = [_ALIVE(), *final] if s.finalizer is not None else []
        return ast.Try(body=self.block(s.block.body) or [ast.Pass()], handlers=handlers, orelse=[],
                       finalbody=finalbody)

    def switch(self, s: A.SwitchStatement) -> list[ast.stmt]:
        disc, index = self.fresh("_w"), self.fresh("_n")
        out: list[ast.stmt] = [P.assign(disc, self.expr(s.discriminant))]
        default = next((i for i, c in enumerate(s.cases) if c.test is None), len(s.cases))
        chain: ast.expr = P.const(default)
        for i in reversed(range(len(s.cases))):
            case = s.cases[i]
            if case.test is not None:
                chain = P.ifexp(P.call("strict_eq", P.name(disc), self.expr(case.test)), P.const(i), chain)
        out.append(P.assign(index, chain))
        saved = self.scope
        self.scope = Scope(parent=saved, frame=self.frame)
        self.breakables.append("switch")
        try:
            all_body = tuple(st for c in s.cases for st in c.consequent)
            body: list[ast.stmt] = self.hoist(all_body, function_level=False)
            for i, case in enumerate(s.cases):
                stmts = self.statements(case.consequent)
                if stmts:
                    test = ast.Compare(left=P.name(index), ops=[ast.LtE()], comparators=[P.const(i)])
                    body.append(ast.If(test=test, body=stmts, orelse=[]))
        finally:
            self.breakables.pop()
            self.scope = saved
        implicit = self.label_flags.pop(f"#{len(self.breakables)}", None)
        self.labels.pop(f"#{len(self.breakables)}", None)
        self.open_jumps.discard(f"#{len(self.breakables)}")
        if implicit is not None:
            out.append(P.assign(implicit, P.const(None)))
        out.append(ast.While(test=P.const(True), body=[*body, ast.Break()], orelse=[]))
        return out


def _breaks_to(node: Any, label: str) -> bool:
    """Does ``break label`` occur inside ``node`` (not inside nested functions)?"""
    return any(isinstance(n, A.BreakStatement) and n.label is not None and n.label.name == label
               for n in walk(node, prune=A.FUNCTIONS))


def _rebind(stmts: list[ast.stmt], exc: str, value: str) -> list[ast.stmt]:
    """Point the catch-parameter binding at the caught JS value instead of ``exc.value``."""
    for node in stmts:
        for sub in ast.walk(node):
            for field, child in ast.iter_fields(sub):
                if isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name) and child.value.id == exc:
                    setattr(sub, field, P.name(value))
    return stmts


def _mentions(node: Any, names: set[str]) -> bool:
    """Whether an identifier in ``node`` (nested functions included) is one of ``names``."""
    return any(isinstance(n, A.Identifier) and n.name in names for n in walk((node,)))


def _names(p: Any) -> list[A.Identifier]:
    from .scope import pattern_names

    return list(pattern_names(p))


def _ALIVE() -> ast.stmt:
    """``_realm.alive()``: a ``catch`` or ``finally`` never runs once a budget ran out."""
    return P.expr_stmt(P.call(P.attr(P.name("_realm"), "alive")))
