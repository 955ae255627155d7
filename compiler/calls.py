"""Code generation for member chains, calls, ``new`` and assignments (ECMA-262 13.3, 13.15).

A chain ``a?.b.c(d)`` is flattened from its base; an optional link wraps the rest of the
chain in a nullish test, so the whole chain short-circuits to undefined (13.3.9). A member
followed by a call becomes one ``invoke`` (method call with ``this``).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from syncpatch.grammar import ast as A
from syncpatch.runtime import abi as _abi
from syncpatch.runtime.stdlib.array_iter import PLAIN_CALLBACK_METHODS

from . import pyast as P
from .base import GenBase
from .expressions import _NO_VALUE, BINARY_FUNCS, _literal_value
from .texts import callee_text

__all__ = ["CallGen"]


def _plain_text(v: Any) -> bool:
    """A string literal without surrogate code units: matching it against a string gives the
    same answer on code points (Python) as on UTF-16 code units (JS)."""
    return type(v) is str and not any("\ud800" <= c <= "\udfff" for c in v)


def _utf16_length(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _argument_value(node: Any) -> Any:
    """A constant argument's JS value (``"lit".length`` included), or _NO_VALUE."""
    if (isinstance(node, A.MemberExpression) and not node.computed and not node.optional
            and isinstance(node.object, A.Literal) and type(node.object.value) is str
            and isinstance(node.property, A.PropertyName) and node.property.name == "length"):
        return _utf16_length(node.object.value)
    return _literal_value(node)


def _string_method(t: str, method: str, args: list[Any]) -> tuple[ast.expr, bool] | None:
    """Inline Python for ``t.method(*args)`` on a string receiver with literal arguments, and
    whether it needs an ASCII receiver (where code points and UTF-16 units index alike); None
    when no exact inline form exists. Only used while no realm patches built-ins."""
    recv = P.name(t)
    n = len(args)
    if method in ("startsWith", "endsWith", "includes") and n == 1 and _plain_text(args[0]):
        if method == "includes":
            return ast.Compare(left=P.const(args[0]), ops=[ast.In()], comparators=[recv]), False
        py = "startswith" if method == "startsWith" else "endswith"
        return P.call(P.attr(recv, py), P.const(args[0])), False
    if method == "slice" and 1 <= n <= 2 and all(type(a) is int for a in args):
        upper = P.const(args[1]) if n == 2 else None
        return ast.Subscript(value=recv, slice=ast.Slice(lower=P.const(args[0]), upper=upper, step=None),
                             ctx=ast.Load()), True
    if method == "split" and n == 1 and _plain_text(args[0]) and args[0]:
        # ASCII text split by a string: Python's split gives JS's pieces; the built-in charges
        # nothing for a receiver this short (under 1024 characters, so at most 1024 pieces)
        return P.call(P.attr(recv, "split"), P.const(args[0])), True
    if method in ("toUpperCase", "toLowerCase") and n == 0:
        return P.call(P.attr(recv, "upper" if method == "toUpperCase" else "lower")), True
    if method == "trim" and n == 0:
        return P.call(P.attr(recv, "strip"), P.const(" \t\n\v\f\r")), True
    if method == "indexOf" and n == 1 and _plain_text(args[0]):
        return P.call(P.attr(recv, "find"), P.const(args[0])), True
    if method == "replace" and n == 2 and _plain_text(args[0]) and _plain_text(args[1]) and "$" not in args[1]:
        return P.call(P.attr(recv, "replace"), P.const(args[0]), P.const(args[1]), P.const(1)), True
    return None


#: String methods that take a RegExp literal without a detour (``callops.invoke_regexp``)
_REGEXP_METHODS = ("replace", "replaceAll", "match", "search", "split")


def _arrow_object(e: ast.expr) -> bool:
    """Is ``e`` the ``JSFunction(closure, ...)`` an arrow function expression compiles to?"""
    return (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "JSFunction"
            and len(e.args) == 8 and isinstance(e.args[4], ast.Constant) and e.args[4].value == "arrow")


def _runs_no_script(node: Any) -> bool:
    """Does evaluating ``node`` run no script (a literal, ``[]`` or ``{}``: a reduce's usual start)?"""
    return isinstance(node, A.Literal) or (isinstance(node, A.ArrayExpression) and not node.elements) or \
        (isinstance(node, A.ObjectExpression) and not node.properties)


#: source text that may make a property read run script: accessors (``get x() {}``, a descriptor's
#: ``get:``), the functions that install them, proxies, ``with`` and code made from strings
_MAY_RUN_ON_READ = re.compile(r"(?<![.\w$])(?:get|set)(?![\w$])|defineProperty|__define|\b(?:create|Proxy|Reflect|with|eval|Function)\b")


def reads_run_no_script(source: str) -> bool:
    """Can no property read in ``source`` run script? (No accessor can exist: caller data
    has none, and the built-ins' own accessors change nothing.)"""
    return _MAY_RUN_ON_READ.search(source) is None


def _only_reads(node: Any, plain_reads: bool) -> bool:
    """Does evaluating ``node`` leave every binding and property as it was? A literal, a
    variable, a function or regex literal, and, where no read can run script
    (``plain_reads``), a member read by name; anything else may run script."""
    if _runs_no_script(node) or isinstance(node, (A.Identifier, A.ArrowFunctionExpression, A.FunctionExpression,
                                                   A.RegExpLiteral, A.ThisExpression)):
        return True
    if isinstance(node, A.TemplateLiteral):
        return not node.expressions
    if isinstance(node, A.UnaryExpression):  # (``-1``; ``!x`` and ``typeof x`` convert nothing that runs script)
        if node.operator in ("-", "+"):
            return isinstance(node.argument, A.Literal) and type(node.argument.value) in (int, float)
        return node.operator in ("!", "typeof", "void") and _only_reads(node.argument, plain_reads)
    return (plain_reads and isinstance(node, A.MemberExpression) and not node.optional
            and (not node.computed or isinstance(node.property, A.Literal)) and _only_reads(node.object, plain_reads))


def _nullish(e: ast.expr, t: str) -> ast.expr:
    return P.or_(P.is_(P.walrus(t, e), P.const(None)), P.is_(P.name(t), P.name("UNDEFINED")))


class CallGen(GenBase):
    """Mixin: chains, calls, new, assignment."""

    def args(self, nodes: tuple[Any, ...]) -> list[ast.expr]:
        out: list[ast.expr] = []
        for a in nodes:
            if isinstance(a, A.SpreadElement):
                out.append(ast.Starred(value=P.call("spread", self.expr(a.argument)), ctx=ast.Load()))
            else:
                out.append(self.expr(a))
        return out

    def chain(self, node: Any) -> ast.expr:
        if isinstance(node, A.CallExpression) and isinstance(node.callee, A.Identifier) and not node.optional \
                and node.callee.name == "eval" and self.scope.lookup("eval") is None:
            temps = self.with_temps("eval")
            return self.with_direct_eval(node, temps) if temps else self.direct_eval(node)
        links: list[Any] = []
        cur = node
        while isinstance(cur, (A.MemberExpression, A.CallExpression)):
            links.append(cur)
            cur = cur.object if isinstance(cur, A.MemberExpression) else cur.callee
        links.reverse()
        if isinstance(cur, A.Identifier) and isinstance(links[0], A.CallExpression) \
                and (temps := self.with_temps(cur.name)):
            callee, this = self.with_callee(cur, temps)  # a call through a `with` object's name
            return self.links(callee, this, links, 0)
        if isinstance(cur, A.Identifier) and (called := self.builtin_call(cur, links)) is not None:
            return self.links(called, None, links, 2 if isinstance(links[0], A.MemberExpression) else 1)
        return self.links(self.expr(cur), None, links, 0)

    def builtin_call(self, base: A.Identifier, links: list[Any]) -> ast.expr | None:
        """``Name(...)`` or ``Name.key(...)`` of a built-in global no declaration shadows
        (``String(v)``, ``Number.isInteger(v)``, ``JSON.stringify(v)``, ``Object.keys(v)``):
        while no realm patches built-ins, the function from ``BUILTIN_CALLS`` with its ``this``
        bound, read without ``invoke``'s or the global read's calls; else ``bound_callee``,
        which reads it as ``invoke`` would. Either is chosen before the arguments run, where
        JS reads the callee. None when the chain is no such call."""
        first = links[0]
        if isinstance(first, A.CallExpression):
            key, call = base.name, first
        elif (isinstance(first, A.MemberExpression) and not first.computed and not first.optional
              and isinstance(first.property, A.PropertyName) and len(links) > 1
              and isinstance(links[1], A.CallExpression) and links[1].callee is first):
            key, call = f"{base.name}.{first.property.name}", links[1]
        else:
            return None
        if not self.fast_paths or call.optional or key not in _abi.BUILTIN_CALLS or self.with_temps(base.name) \
                or self.scope.lookup(base.name) is not None:
            return None
        self.free_globals.setdefault(base.name, base.span)
        member = P.const(None) if call is first else P.const(key.partition(".")[2])
        generic = P.call("bound_callee", P.call("global_get", P.const(base.name)), member,
                         P.const(callee_text(call.callee)))
        callee = P.ifexp(P.not_(P.subscript(P.name("PATCHED"), P.const(0))),
                         P.subscript(P.name("BUILTIN_CALLS"), P.const(key)), generic)
        return ast.Call(func=callee, args=self.args(call.arguments), keywords=[])

    def get_expr(self, obj: ast.expr, link: A.MemberExpression) -> ast.expr:
        key = self.member_key(link)
        if (isinstance(obj, ast.Constant) and type(obj.value) is str and isinstance(key, ast.Constant)
                and key.value == "length"):
            return P.const(_utf16_length(obj.value))  # a string's own, unchangeable length
        if not link.computed or (isinstance(key, ast.Constant) and type(key.value) is str):
            t = self.tmp()
            if isinstance(key, ast.Constant) and key.value == "length":
                return self.length_expr(obj, t)
            return P.ifexp(
                P.and_(P.type_is(P.walrus(t, obj), "dict"), ast.Compare(left=key, ops=[ast.In()], comparators=[P.name(t)])),
                P.subscript(P.name(t), key), P.call("get", P.name(t), key))
        if isinstance(key, ast.Constant) and type(key.value) is int and key.value >= 0:
            # ``a[0]``: a list's element while no realm patches built-ins (no holes or
            # accessors can exist then: any side-table entry marks the realm patched)
            t = self.tmp()
            return P.ifexp(
                P.and_(P.type_is(P.walrus(t, obj), "list"), ast.Compare(left=key, ops=[ast.Lt()], comparators=[P.call("LEN", P.name(t))]),
                       P.not_(P.subscript(P.name("PATCHED"), P.const(0)))),
                P.subscript(P.name(t), key), P.call("get", P.name(t), key))
        return P.call("get", obj, key)

    def length_expr(self, obj: ast.expr, t: str) -> ast.expr:
        """``x.length`` without a call for an array (its length is always ``len``) and an
        ASCII string (one UTF-16 unit a character); ``get`` for everything else."""
        key = P.const("length")
        is_ascii = P.call(P.attr(P.name(t), "isascii"))
        return P.ifexp(
            P.type_is(P.walrus(t, obj), "list"), P.call("LEN", P.name(t)),
            P.ifexp(P.and_(P.type_is(P.name(t), "str"), is_ascii), P.call("LEN", P.name(t)),
                    P.call("get", P.name(t), key)))

    def links(self, acc: ast.expr, this: ast.expr | None, links: list[Any], i: int, checked: int = -1) -> ast.expr:
        while i < len(links):
            link = links[i]
            if link.optional and i != checked:
                t = self.tmp()
                rest = self.links(P.name(t), this, links, i, i)
                return P.ifexp(_nullish(acc, t), P.name("UNDEFINED"), rest)
            if isinstance(link, A.MemberExpression):
                nxt = links[i + 1] if i + 1 < len(links) else None
                if isinstance(nxt, A.CallExpression) and nxt.callee is link and not nxt.optional:
                    acc = self.method_call(acc, link, nxt)
                    this = None
                    i += 2
                    continue
                if isinstance(nxt, A.CallExpression) and nxt.callee is link:
                    o = self.tmp()
                    acc_obj = P.walrus(o, acc)
                    acc = P.call("get", acc_obj, self.member_key(link))
                    this = P.name(o)
                    i += 1
                    continue
                acc = self.get_expr(acc, link)
                this = None
                i += 1
                continue
            text = P.const(callee_text(link.callee))
            if this is None and isinstance(link.callee, A.ArrowFunctionExpression) and _arrow_object(acc):
                # ``(x => ...)(v)``: the arrow's closure is called as it is (nothing can see
                # its function object, and an arrow ignores the ``this`` it is passed)
                assert isinstance(acc, ast.Call)
                acc = ast.Call(func=acc.args[0], args=[P.name("UNDEFINED"), *self.args(link.arguments)], keywords=[])
                i += 1
                continue
            if this is not None:
                acc = P.call("call_this", acc, this, text, *self.args(link.arguments))
            else:
                # ``f(args)``: a function object's closure called inline; any other callee is
                # reported once the arguments have run (13.3.6.2 EvaluateCall, step 4 before 5)
                f = self.tmp()
                is_function = P.is_(P.call("TYPE", P.walrus(f, acc)), P.name("JSFunction"))
                target = P.ifexp(is_function, P.attr(P.name(f), "call"), P.call("callee_error", P.name(f), text))
                acc = ast.Call(func=target, args=[P.name("UNDEFINED"), *self.args(link.arguments)], keywords=[])
            this = None
            i += 1
        return acc

    def method_call(self, obj: ast.expr, link: A.MemberExpression, call: A.CallExpression) -> ast.expr:
        """``obj.key(...args)`` as ``invoke``; known String methods with literal arguments are
        inlined for string receivers while no realm patches built-ins (``PATCHED[0] == 0``).
        ``invoke`` reads the method after the arguments ran: when they may change it
        (``o.f((o.f = g, 0))`` calls the old ``f``, 13.3.6.1), ``method_of`` reads it first."""
        key = self.member_key(link)
        text = P.const(callee_text(link))
        plain_reads = self.plain_reads
        if not all(_only_reads(a, plain_reads) for a in call.arguments):
            t = self.tmp()
            return P.call("call_method", P.call("method_of", P.walrus(t, obj), key), P.name(t), text,
                          *self.args(call.arguments))
        if isinstance(key, ast.Constant) and type(key.value) is str:
            values = [_argument_value(a) for a in call.arguments]
            if all(v is not _NO_VALUE for v in values):
                t = self.tmp()
                fast = _string_method(t, key.value, values)
                if fast is not None:
                    inline, ascii_only = fast
                    tests: list[ast.expr] = [P.type_is(P.walrus(t, obj), "str")]
                    if ascii_only:
                        tests.append(P.call(P.attr(P.name(t), "isascii")))
                    if key.value == "split":
                        tests.append(ast.Compare(left=P.call("LEN", P.name(t)), ops=[ast.Lt()], comparators=[P.const(1024)]))
                    tests.append(P.not_(P.subscript(P.name("PATCHED"), P.const(0))))
                    slow = P.call("invoke", P.name(t), key, text, *self.args(call.arguments))
                    return P.ifexp(P.and_(*tests), inline, slow)
            if any(v is _NO_VALUE and not isinstance(a, (A.Identifier, A.ArrowFunctionExpression, A.FunctionExpression, A.RegExpLiteral))
                   for a, v in zip(call.arguments, values)):
                # a null/undefined receiver throws before the arguments run (13.3.6.1: the
                # callee is read first): undefined.f(atob('!')) is a TypeError
                t = self.tmp()
                nullish = P.or_(P.is_(P.walrus(t, obj), P.const(None)), P.is_(P.name(t), P.name("UNDEFINED")))
                obj = P.ifexp(nullish, P.call("get", P.name(t), key), P.name(t))
        arrow = self.arrow_callback_call(obj, key, text, call)
        if arrow is not None:
            return arrow
        if (isinstance(key, ast.Constant) and key.value in _REGEXP_METHODS and call.arguments
                and isinstance(call.arguments[0], A.RegExpLiteral)
                and not any(isinstance(a, A.SpreadElement) for a in call.arguments)):
            made = self.expr(call.arguments[0])
            if isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and made.func.id == "new_regexp":
                return P.call("invoke_regexp", obj, key, text, *made.args, *self.args(call.arguments[1:]))
        return P.call("invoke", obj, key, text, *self.args(call.arguments))

    def arrow_callback_call(self, obj: ast.expr, key: ast.expr, text: ast.expr, call: A.CallExpression) -> ast.expr | None:
        """``obj.map(arrow)`` and the other array callback methods as ``invoke_arrow``, which
        passes the arrow's closure to a plain array's built-in and makes its function object
        only when some other method runs (see ``callops.invoke_arrow``)."""
        args = call.arguments
        if not (isinstance(key, ast.Constant) and key.value in PLAIN_CALLBACK_METHODS and 1 <= len(args) <= 2
                and isinstance(args[0], A.ArrowFunctionExpression)
                and not any(isinstance(a, A.SpreadElement) for a in args)):
            return None
        made = self.expr(args[0])
        if not _arrow_object(made):
            return None  # (an arrow is always a plain JSFunction(...); anything else is left alone)
        assert isinstance(made, ast.Call)
        fn, length, source = made.args[0], made.args[2], made.args[7]
        if len(args) == 1 or _runs_no_script(args[1]):
            # a plain array's method, read before the arguments run, is the built-in loop while
            # no realm patches built-ins; making the closure (and a literal) runs no script, so
            # the test made before them holds at the call (any other second argument could
            # patch a built-in: ``invoke_arrow`` tests after it)
            t = self.tmp()
            direct = P.call(P.subscript(P.name("ARRAY_CALLBACKS"), key), P.name(t), fn, *self.args(args[1:]))
            plain = P.and_(P.type_is(P.walrus(t, obj), "list"), P.not_(P.subscript(P.name("PATCHED"), P.const(0))))
            return P.ifexp(plain, direct, P.call("invoke_arrow", P.name(t), key, text, fn, length, source,
                                                 *self.args(args[1:])))
        return P.call("invoke_arrow", obj, key, text, fn, length, source, *self.args(args[1:]))

    def call_with(self, callee: Any, args: list[ast.expr], _: Any) -> ast.expr:
        """Call ``callee`` (a JS expression) with already-compiled arguments."""
        if isinstance(callee, A.MemberExpression) and not callee.optional:
            return P.call("invoke", self.expr(callee.object), self.member_key(callee), P.const(callee_text(callee)), *args)
        if isinstance(callee, A.Identifier) and (temps := self.with_temps(callee.name)):
            fn, this = self.with_callee(callee, temps)
            return P.call("call_this", fn, this, P.const(callee_text(callee)), *args)
        return P.call("call", self.expr(callee), P.const(callee_text(callee)), *args)

    def new(self, node: A.NewExpression) -> ast.expr:
        return P.call("construct", self.expr(node.callee), P.const(callee_text(node.callee)), *self.args(node.arguments))

    # -- assignment ----------------------------------------------------------------------------
    def assignment(self, node: A.AssignmentExpression) -> ast.expr:
        op = node.operator
        left = node.left
        if op == "=":
            if isinstance(left, A.Identifier):
                return self.store_ident(left, self.assigned_value(node))
            if isinstance(left, A.MemberExpression):
                return P.call(self.setm_name, self.expr(left.object), self.member_key(left), self.expr(node.right))
            return self.destructure_expr(left, node.right)
        temps = self.with_temps(left.name) if isinstance(left, A.Identifier) else []
        if op in ("&&=", "||=", "??="):
            return self.with_logical_assign(node, temps) if temps else self.logical_assign(node)
        fn = BINARY_FUNCS[op[:-1]]
        if temps:
            assert isinstance(left, A.Identifier)
            return self.with_store(left, temps, lambda read: P.call(fn, read, self.expr(node.right)))
        if isinstance(left, A.Identifier):
            return self.store_ident(left, P.call(fn, self.load_ident(left), self.expr(node.right)))
        assert isinstance(left, A.MemberExpression)
        o, k = self.tmp(), self.tmp()
        value = P.call(fn, P.call("get", P.name(o), P.name(k)), self.expr(node.right))
        return P.call(self.setm_name, P.walrus(o, self.expr(left.object)), P.walrus(k, self.reference_key(o, left)), value)

    def reference_key(self, obj: str, left: A.MemberExpression) -> ast.expr:
        """The key of a member both read and written, converted once (see callops)."""
        key = self.member_key(left)
        if isinstance(key, ast.Constant):
            return key
        return P.call("reference_key", P.name(obj), key)

    def logical_assign(self, node: A.AssignmentExpression) -> ast.expr:
        left = node.left
        t = self.tmp()
        if isinstance(left, A.Identifier):
            current = P.walrus(t, self.load_ident(left))
            store = self.store_ident(left, self.assigned_value(node))
        else:
            assert isinstance(left, A.MemberExpression)
            o, k = self.tmp(), self.tmp()
            key = self.reference_key(o, left)
            if isinstance(key, ast.Constant) and type(key.value) is str:  # ``o.k ??= v``: a plain object's own key inline
                read: ast.expr = P.ifexp(
                    P.and_(P.type_is(P.walrus(o, self.expr(left.object)), "dict"),
                           ast.Compare(left=key, ops=[ast.In()], comparators=[P.name(o)])),
                    P.subscript(P.name(o), key), P.call("get", P.name(o), key))
                current = P.walrus(t, read)
                store = P.call(self.setm_name, P.name(o), key, self.expr(node.right))
            else:
                current = P.walrus(t, P.call("get", P.walrus(o, self.expr(left.object)), P.walrus(k, key)))
                store = P.call(self.setm_name, P.name(o), P.name(k), self.expr(node.right))
        keep: ast.expr
        if node.operator == "??=":
            keep = P.not_(P.or_(P.is_(current, P.const(None)), P.is_(P.name(t), P.name("UNDEFINED"))))
        elif node.operator == "||=":
            keep = P.call("truthy", current)
        else:
            keep = P.not_(P.call("truthy", current))
        return P.ifexp(keep, P.name(t), store)

    def assigned_value(self, node: A.AssignmentExpression) -> ast.expr:
        """The right side of ``name = value``: named after ``name`` only when the target is an
        IdentifierRef, not ``(name)`` (13.15.2 step 1.c; a parenthesised target's span starts
        before the assignment's, at its parenthesis)."""
        left = node.left
        assert isinstance(left, A.Identifier)
        if (node.span.line, node.span.column) != (left.span.line, left.span.column):
            return self.expr(node.right)
        return self.named_value(node.right, left.name)

    def named_value(self, node: Any, name: str) -> ast.expr:
        """NamedEvaluation (8.4.5): anonymous functions take the binding's name."""
        if isinstance(node, A.ArrowFunctionExpression) or (isinstance(node, A.FunctionExpression) and node.id is None):
            return self.function_value(node, name)
        return self.expr(node)
