"""Code generation for JS expressions (ECMA-262 13) into Python ``ast`` expressions.

Each JS expression becomes one Python expression; evaluation order is kept because Python
evaluates operands and call arguments left to right. Temporaries are walrus targets named
``_tN``. Fast paths are emitted where the static type of an operand is known (string
literals, comparisons), and constants are folded.
"""

from __future__ import annotations

import ast
from typing import Any, Callable

from syncpatch.grammar import ast as A
from syncpatch.runtime import ops as _ops
from syncpatch.runtime import abi as _abi
from syncpatch.runtime.strings import UNCHECKED_CONCAT

from . import pyast as P
from .base import GenBase
from .texts import static_type

__all__ = ["ExprGen", "BINARY_FUNCS"]

BINARY_FUNCS = {
    "+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "**": "power",
    "&": "bit_and", "|": "bit_or", "^": "bit_xor", "<<": "shl", ">>": "sar", ">>>": "shr",
    "<": "lt", ">": "gt", "<=": "le", ">=": "ge", "==": "loose_eq", "!=": "loose_ne",
    "===": "strict_eq", "!==": "strict_ne", "instanceof": "instanceof",
}
_FOLDABLE = {"+", "-", "*", "/", "%", "**", "&", "|", "^", "<<", ">>", ">>>", "<", ">", "<=", ">=",
             "==", "!=", "===", "!=="}
_NO_VALUE = object()


def _literal_value(node: Any, depth: int = 0) -> Any:
    """Constant folding: the JS value of a constant expression, or _NO_VALUE. Bounded in
    depth, so that folding a long operator chain stays linear."""
    if depth > 24:
        return _NO_VALUE
    match node:
        case A.Literal():
            return node.value
        case A.UnaryExpression(operator="-" | "+" | "~" | "!"):
            v = _literal_value(node.argument, depth + 1)
            if v is _NO_VALUE or not (v is None or type(v) in (int, float, str, bool)):
                return _NO_VALUE
            fn: dict[str, Callable[[Any], Any]] = {
                "-": _ops.neg, "+": _ops.pos, "~": _ops.bit_not, "!": lambda x: not _ops.to_boolean(x)}
            return fn[node.operator](v)
        case A.BinaryExpression() if node.operator in _FOLDABLE:
            left = _literal_value(node.left, depth + 1)
            right = _literal_value(node.right, depth + 1) if left is not _NO_VALUE else _NO_VALUE
            if right is _NO_VALUE:
                return _NO_VALUE
            try:
                value = getattr(_ops, BINARY_FUNCS[node.operator])(left, right)
            except Exception:  # noqa: BLE001 - fold only what cannot throw
                return _NO_VALUE
            if type(value) is str and len(value) > 10_000:
                return _NO_VALUE
            return value
        case _:
            return _NO_VALUE


class ExprGen(GenBase):
    """Mixin: expression compilation; the host class provides scope, temps and functions."""

    def expr(self, node: Any) -> ast.expr:  # noqa: C901 - one dispatch over the node union
        e = self._expr(node)
        span = getattr(node, "span", None)
        if span is not None:
            e.lineno, e.col_offset = span.line, span.column - 1
            e.end_lineno, e.end_col_offset = span.end_line, max(span.end_column - 1, 0)
        return e

    def _expr(self, node: Any) -> ast.expr:
        match node:
            case A.Literal():
                return P.const(node.value)
            case A.Identifier():
                return self.load_ident(node)
            case A.TemplateLiteral():
                return self.template(node)
            case A.RegExpLiteral():
                return P.call("new_regexp", P.const(node.pattern), P.const(node.flags))
            case A.ThisExpression():
                return self.this_expr(node)
            case A.MetaProperty():
                return self.new_target(node)
            case A.ArrayExpression():
                return self.array(node)
            case A.ObjectExpression():
                return self.object(node)
            case A.FunctionExpression() | A.ArrowFunctionExpression():
                return self.function_value(node, node.id.name if isinstance(node, A.FunctionExpression) and node.id else "")
            case A.UnaryExpression():
                return self.unary(node)
            case A.UpdateExpression():
                return self.update(node)
            case A.BinaryExpression():
                return self.binary(node)
            case A.LogicalExpression():
                return self.logical(node)
            case A.AssignmentExpression():
                return self.assignment(node)
            case A.ConditionalExpression():
                return P.ifexp(self.test(node.test), self.expr(node.consequent), self.expr(node.alternate))
            case A.MemberExpression() | A.CallExpression():
                return self.chain(node)
            case A.ChainExpression():
                return self.chain(node.expression)
            case A.NewExpression():
                return self.new(node)
            case A.SequenceExpression():
                parts = [self.expr(e) for e in node.expressions]
                return P.subscript(P.tuple_(*parts), P.const(-1))
            case A.TaggedTemplateExpression():
                return self.tagged(node)
            case _:
                raise self.fail(f"unsupported expression {type(node).__name__}", node)

    # -- truthiness ----------------------------------------------------------------------------
    def test(self, node: Any) -> ast.expr:
        """A JS value used as a condition: ToBoolean, skipped when the value is a bool."""
        if static_type(node) == "bool":
            return self.expr(node)
        if isinstance(node, A.UnaryExpression) and node.operator == "!":
            return P.not_(self.test(node.argument))
        if isinstance(node, A.LogicalExpression) and node.operator in ("&&", "||"):
            op = ast.And() if node.operator == "&&" else ast.Or()
            return ast.BoolOp(op=op, values=[self.test(node.left), self.test(node.right)])
        if self.fast_paths:
            t = self.tmp()
            return self.truth(P.walrus(t, self.expr(node)), t)
        return P.call("truthy", self.expr(node))

    def truth(self, value: ast.expr, t: str) -> ast.expr:
        """ToBoolean of ``value`` (which binds ``t``) with the usual answers inline: a bool is
        its own truth (a method's result: includes, startsWith, some), null and undefined
        (a missing key, an optional chain cut short) are false, a string is its length; any
        other value takes ``truthy``."""
        if not self.fast_paths:
            return P.call("truthy", value)
        name = P.name(t)

        def is_not(other: ast.expr) -> ast.expr:
            return ast.Compare(left=P.name(t), ops=[ast.IsNot()], comparators=[other])

        text = P.ifexp(P.type_is(name, "str"), ast.Compare(left=P.name(t), ops=[ast.NotEq()], comparators=[P.const("")]),
                       P.call("truthy", P.name(t)))
        return P.or_(P.is_(value, P.const(True)),
                     P.and_(is_not(P.const(False)), is_not(P.const(None)), is_not(P.name("UNDEFINED")), text))

    # -- identifiers ---------------------------------------------------------------------------
    def load_ident(self, node: A.Identifier) -> ast.expr:
        temps = self.with_temps(node.name)
        if temps:
            return self.with_load(node, temps)
        b = self.scope.lookup(node.name)
        if b is not None:
            if b.tdz and b.kind == "param" and b.frame is self.frame:  # f(a = a) reads a before it is bound
                return P.call("tdz_error", P.const(node.name))
            if b.per_iteration and b.frame is not self.frame:
                self.note_capture(b)
            if b.mapped is not None:
                return P.subscript(P.name(b.mapped[1]), P.const(b.mapped[2]))
            return P.name(b.pyname)
        if node.name == "undefined":
            return P.name("UNDEFINED")
        if node.name == "NaN":
            return P.name("NAN")
        if node.name == "Infinity":
            return P.name("INF")
        if node.name == "arguments" and self.frame.arguments_name is not None:
            return P.name(self.frame.arguments_name)
        self.free_globals.setdefault(node.name, node.span)
        if node.name in _abi.GLOBALS:
            # while no realm patches built-ins, a built-in global is its registry entry
            # (writes and deletes of globals go to a realm overlay, which counts as a patch)
            t = self.tmp()
            found = ast.Compare(left=P.walrus(t, P.call(P.attr(P.name("GLOBALS"), "get"), P.const(node.name))),
                                ops=[ast.IsNot()], comparators=[P.const(None)])
            return P.ifexp(P.and_(P.not_(P.subscript(P.name("PATCHED"), P.const(0))), found),
                           P.name(t), P.call("global_get", P.const(node.name)))
        return P.call("global_get", P.const(node.name))

    def store_ident(self, node: A.Identifier, value: ast.expr) -> ast.expr:
        """Assignment to an identifier as an expression (the assigned value)."""
        temps = self.with_temps(node.name)
        if temps:
            return self.with_store(node, temps, lambda _: value)
        b = self.scope.lookup(node.name)
        if b is None:
            self.free_globals.setdefault(node.name, node.span)
            return P.call("global_set_strict" if self.strict else "global_set", P.const(node.name), value)
        if b.tdz and b.frame is self.frame:  # written before its declaration ran (9.1.1.1.5)
            return P.subscript(P.tuple_(value, P.call("tdz_error", P.const(node.name))), P.const(0))
        if self.early_closure_store(b, node):
            # reading the binding first throws the ReferenceError while it is uninitialised
            value = P.subscript(P.tuple_(value, P.name(b.pyname)), P.const(0))
        if b.kind == "const":
            return P.subscript(P.tuple_(value, P.call("const_assign", P.const(node.name))), P.const(0))
        if b.mapped is not None:
            return self.param_store(b, value)
        self.mark_write(b)
        return P.walrus(b.pyname, value)

    def early_closure_store(self, b: Any, node: A.Identifier) -> bool:
        """A write to a let/const of an enclosing function, written before its declaration:
        the closure may run while the binding is uninitialised (9.1.1.1.5)."""
        return b.kind in ("let", "const") and b.frame is not self.frame and not b.per_iteration \
            and (node.span.line, node.span.column) < b.decl_pos

    # -- templates, arrays, objects ----------------------------------------------------------
    def template(self, node: A.TemplateLiteral) -> ast.expr:
        if not node.expressions:
            return P.const(node.quasis[0])
        if _joins_plainly(node.quasis) and len(node.expressions) <= 4:
            return self.template_inline(node)
        parts: list[ast.expr] = []
        for i, q in enumerate(node.quasis):
            if q:
                parts.append(P.const(q))
            if i < len(node.expressions):
                parts.append(self.expr(node.expressions[i]))
        return P.call("template", *parts)

    def template_inline(self, node: A.TemplateLiteral) -> ast.expr:
        """A template whose substitutions all turn out to be strings, joined with ``+``: a
        text between each two substitutions and no surrogate at a seam (see
        ``_joins_plainly``) leave no halves to pair. Every substitution is evaluated first (``&``
        does not short-circuit), then the test; ``template`` does the rest, and the size check
        it makes on long results (two substitutions can double a string)."""
        names = [self.tmp() for _ in node.expressions]
        tests: list[ast.expr] = [P.type_is(P.walrus(t, self.expr(e)), "str") for t, e in zip(names, node.expressions)]
        test = tests[0]
        for more in tests[1:]:
            test = ast.BinOp(left=test, op=ast.BitAnd(), right=more)
        if len(names) > 1:
            room = _TEMPLATE_INLINE_LIMIT - sum(len(q or "") for q in node.quasis)
            total: ast.expr = P.call("LEN", P.name(names[0]))
            for t in names[1:]:
                total = ast.BinOp(left=total, op=ast.Add(), right=P.call("LEN", P.name(t)))
            test = P.and_(test, ast.Compare(left=total, ops=[ast.LtE()], comparators=[P.const(room)]))
        pieces: list[ast.expr] = []
        parts: list[ast.expr] = []
        for i, q in enumerate(node.quasis):
            if q:
                pieces.append(P.const(q))
                parts.append(P.const(q))
            if i < len(names):
                pieces.append(P.name(names[i]))
                parts.append(P.name(names[i]))
        joined = pieces[0]
        for piece in pieces[1:]:
            joined = ast.BinOp(left=joined, op=ast.Add(), right=piece)
        if len(pieces) == 1:  # `${x}`: the string itself
            joined = pieces[0]
        return P.ifexp(test, joined, P.call("template", *parts))

    def tagged(self, node: A.TaggedTemplateExpression) -> ast.expr:
        q = node.quasi
        strings = P.call("tagged_strings", P.tuple_(*[P.const(s if s is not None else None) for s in q.quasis]),
                         P.tuple_(*[P.const(r) for r in q.raws]), P.const((node.span.line, node.span.column)))
        args = [strings, *[self.expr(e) for e in q.expressions]]
        return self.call_with(node.tag, args, None)

    def array(self, node: A.ArrayExpression) -> ast.expr:
        elts: list[ast.expr] = []
        for e in node.elements:
            if e is None:
                elts.append(P.name("UNDEFINED"))
            elif isinstance(e, A.SpreadElement):
                elts.append(ast.Starred(value=P.call("spread", self.expr(e.argument)), ctx=ast.Load()))
            else:
                elts.append(self.expr(e))
        holes = [i for i, e in enumerate(node.elements) if e is None]
        if holes and not any(isinstance(e, A.SpreadElement) for e in node.elements):
            # elisions are holes (13.2.4.1): absent for `in`, keys and the array methods
            return P.call("array_holes", P.list_(elts), P.tuple_(*[P.const(i) for i in holes]))
        if len(elts) > 1 and any(isinstance(e, A.SpreadElement) for e in node.elements):
            return P.call("array_within", P.list_(elts))  # (the spreads together may pass the array budget)
        return P.list_(elts)

    def object(self, node: A.ObjectExpression) -> ast.expr:
        """An object literal as one Python dict display (13.2.5); ``...x`` is ``**x`` when x
        is a plain dict at run time, else its own enumerable properties (CopyDataProperties)."""
        if any(isinstance(p, A.Property) and p.kind != "init" for p in node.properties):
            return self.object_with_accessors(node)
        keys: list[ast.expr | None] = []
        values: list[ast.expr] = []
        proto: ast.expr | None = None
        for p in node.properties:
            if isinstance(p, A.SpreadElement):
                t = self.tmp()
                keys.append(None)
                values.append(P.ifexp(P.and_(P.type_is(P.walrus(t, self.expr(p.argument)), "dict"),
                                             P.not_(P.subscript(P.name("PATCHED"), P.const(0)))),
                                      P.name(t), P.call("spread_dict", P.name(t))))
                continue
            if not p.computed and not p.shorthand and not p.method and isinstance(p.key, A.Literal) \
                    and p.key.value == "__proto__":
                proto = self.expr(p.value)
                continue
            keys.append(self.literal_key(p))
            name = p.key.value if isinstance(p.key, A.Literal) and isinstance(p.key.value, str) else (
                p.key.name if isinstance(p.key, A.Identifier) else "")
            if isinstance(p.value, (A.FunctionExpression, A.ArrowFunctionExpression)):
                # a method's source text starts at its key (20.2.3.5): ({f(a) {}}).f.toString()
                values.append(self.function_value(p.value, name, method=p.method, span=p.span if p.method else None))
            else:
                values.append(self.expr(p.value))
        result: ast.expr = ast.Dict(keys=keys, values=values)
        if proto is not None:
            result = P.call("set_literal_proto", result, proto)
        return result

    def object_with_accessors(self, node: A.ObjectExpression) -> ast.expr:
        """An object literal with ``get``/``set`` members: each member defined in order on a new
        dict (13.2.5.5), so the accessors land in the runtime's side table."""
        t = self.tmp()
        steps: list[ast.expr] = [P.walrus(t, ast.Dict(keys=[], values=[]))]
        for p in node.properties:
            if isinstance(p, A.SpreadElement):
                steps.append(P.call("literal_spread", P.name(t), self.expr(p.argument)))
                continue
            if p.kind == "init" and not p.computed and not p.shorthand and not p.method \
                    and isinstance(p.key, A.Literal) and p.key.value == "__proto__":
                steps.append(P.call("set_literal_proto", P.name(t), self.expr(p.value)))
                continue
            key = self.literal_key(p)
            name = p.key.value if isinstance(p.key, A.Literal) and isinstance(p.key.value, str) else (
                p.key.name if isinstance(p.key, A.Identifier) else "")
            if p.kind != "init":
                k = self.tmp()
                assert isinstance(p.value, A.FunctionExpression)
                fn = self.function_value(p.value, f"{p.kind} {name}", method=True, span=p.span)
                steps.append(P.call("literal_accessor", P.name(t), P.walrus(k, key), fn, P.const(p.kind)))
                continue
            if isinstance(p.value, (A.FunctionExpression, A.ArrowFunctionExpression)):
                value = self.function_value(p.value, name, method=p.method, span=p.span if p.method else None)
            else:
                value = self.expr(p.value)
            steps.append(P.call("literal_data", P.name(t), key, value))
        steps.append(P.name(t))
        return P.subscript(P.tuple_(*steps), P.const(-1))

    def literal_key(self, p: A.Property) -> ast.expr:
        if not p.computed and isinstance(p.key, A.Identifier):
            return P.const(p.key.name)
        if not p.computed and isinstance(p.key, A.Literal):
            v = p.key.value
            return P.const(v if type(v) is str else _number_key(v))
        return P.call("property_key", self.expr(p.key))

    # -- operators -----------------------------------------------------------------------------
    def unary(self, node: A.UnaryExpression) -> ast.expr:
        op = node.operator
        arg = node.argument
        if op == "!":
            return P.not_(self.test(arg))
        if op == "typeof":
            if isinstance(arg, A.Identifier) and (temps := self.with_temps(arg.name)):
                return self.with_typeof(node, temps)
            if isinstance(arg, A.Identifier) and self.scope.lookup(arg.name) is None and arg.name not in (
                    "undefined", "NaN", "Infinity") and not (arg.name == "arguments" and self.frame.arguments_name):
                return P.call("global_typeof", P.const(arg.name))
            return P.call("typeof", self.expr(arg))
        if op == "void":
            return P.subscript(P.tuple_(self.expr(arg), P.name("UNDEFINED")), P.const(1))
        if op == "delete":
            return self.delete(arg)
        folded = _literal_value(node)
        if folded is not _NO_VALUE:
            return P.const(folded)
        fn = {"-": "neg", "+": "pos", "~": "bit_not"}[op]
        return P.call(fn, self.expr(arg))

    def delete(self, arg: Any) -> ast.expr:
        if isinstance(arg, A.ChainExpression):
            arg = arg.expression
        if isinstance(arg, A.MemberExpression) and not arg.optional:
            return P.call("delm_strict" if self.strict else "delm", self.expr(arg.object), self.member_key(arg))
        if isinstance(arg, A.Identifier) and (temps := self.with_temps(arg.name)):
            return self.with_delete(arg, temps)
        if isinstance(arg, A.Identifier):
            # sloppy mode (13.5.1.2): bindings cannot be deleted; NaN/Infinity/undefined are
            # non-configurable; other globals are left in place (the sandbox keeps them).
            b = self.scope.lookup(arg.name)
            if b is None:
                return P.call("global_delete", P.const(arg.name))
            return P.const(b.kind == "global-arg")
        return P.subscript(P.tuple_(self.expr(arg), P.const(True)), P.const(1))

    def member_key(self, node: A.MemberExpression) -> ast.expr:
        prop = node.property
        if isinstance(prop, A.PropertyName):
            return P.const(prop.name)
        if isinstance(prop, A.Literal) and type(prop.value) is str:
            return P.const(prop.value)
        if isinstance(prop, A.Literal) and type(prop.value) is int and prop.value >= 0:
            return P.const(prop.value)
        return self.expr(prop)

    def binary(self, node: A.BinaryExpression) -> ast.expr:
        op = node.operator
        folded = _literal_value(node)
        if folded is not _NO_VALUE:
            return P.const(folded)
        if op == "in":
            return P.call("in_op", self.expr(node.left), self.expr(node.right))
        if op == "+":
            return self.plus(node)
        if op in ("===", "!==") and (isinstance(node.right, A.Literal) and type(node.right.value) is str):
            return self.string_equals(node.left, node.right.value, op == "===")
        if op in _INT_FAST and self.fast_paths and _shallow(node):
            return self.int_fast(node)
        if op in ("*", "/") and self.fast_paths and _shallow(node) and (scaled := self.scale_fast(node)) is not None:
            return scaled
        return P.call(BINARY_FUNCS[op], self.expr(node.left), self.expr(node.right))

    def int_fast(self, node: A.BinaryExpression) -> ast.expr:
        """``-``, comparisons and ``===`` on two ints without a call (``sub``, ``gt``, ...
        otherwise). A small int constant on one side needs the type test of the other only;
        ``-`` also needs both operands within +-2**30, so that the difference is exact
        within +-2**53 (the rest, floats and other types take the runtime function)."""
        op, fn = _INT_FAST[node.operator], BINARY_FUNCS[node.operator]
        k_left, k_right = _small_int(node.left), _small_int(node.right)
        if node.operator in ("===", "!==") and k_left is None and k_right is None:
            return P.call(fn, self.expr(node.left), self.expr(node.right))  # (ints are rarely compared so)
        left, right = self.expr(node.left), self.expr(node.right)
        a, b = self.tmp(), self.tmp()
        if k_right is not None or k_left is not None:
            t = a if k_right is not None else b
            test: ast.expr = P.type_is(P.walrus(t, left if k_right is not None else right), "int")
            if node.operator == "-":
                test = P.and_(test, _in_compact_range(t))
            x, y = (P.name(t), right) if k_right is not None else (left, P.name(t))
            return P.ifexp(test, _int_op(op, x, y), P.call(fn, x, y))
        both = ast.Compare(left=P.call("TYPE", P.walrus(a, left)), ops=[ast.Is(), ast.Is()],
                           comparators=[P.call("TYPE", P.walrus(b, right)), P.name("INT")])
        test = P.and_(both, _in_compact_range(a), _in_compact_range(b)) if node.operator == "-" else both
        return P.ifexp(test, _int_op(op, P.name(a), P.name(b)), P.call(fn, P.name(a), P.name(b)))

    def scale_fast(self, node: A.BinaryExpression) -> ast.expr | None:
        """``x * k``, ``k * x`` and ``x / k`` for an int ``x`` and an int constant ``k`` in
        1..2**22 without a call (``mul``, ``div`` otherwise): a product of an ``x`` within
        +-2**30 is exact within +-2**53 and never -0 (``k`` is positive); a quotient is ``x // k``
        when exact (never -0 either), else the true quotient, both as ``div`` makes them."""
        k_right = _factor(node.right)
        k_left = _factor(node.left) if node.operator == "*" and k_right is None else None
        if k_right is None and k_left is None:
            return None
        fn = BINARY_FUNCS[node.operator]
        left, right = self.expr(node.left), self.expr(node.right)
        t = self.tmp()
        test: ast.expr = P.type_is(P.walrus(t, left if k_right is not None else right), "int")
        x, y = (P.name(t), right) if k_right is not None else (left, P.name(t))
        if node.operator == "*":
            return P.ifexp(P.and_(test, _in_compact_range(t)), ast.BinOp(left=x, op=ast.Mult(), right=y), P.call(fn, x, y))
        exact = ast.Compare(left=ast.BinOp(left=x, op=ast.Mod(), right=y), ops=[ast.Eq()], comparators=[P.const(0)])
        quotient = P.ifexp(exact, ast.BinOp(left=x, op=ast.FloorDiv(), right=y), ast.BinOp(left=x, op=ast.Div(), right=y))
        return P.ifexp(test, quotient, P.call(fn, x, y))

    def string_equals(self, left: Any, text: str, equal: bool) -> ast.expr:
        """``x === "lit"`` without a call: a str compared to a str constant. Another value but
        undefined takes ``strict_eq`` (a caller's str subclass equals its plain str)."""
        t = self.tmp()
        other = P.and_(ast.Compare(left=P.name(t), ops=[ast.IsNot()], comparators=[P.name("UNDEFINED")]),
                       P.call("strict_eq", P.name(t), P.const(text)))
        check = P.ifexp(P.type_is(P.walrus(t, self.expr(left)), "str"),
                        ast.Compare(left=P.name(t), ops=[ast.Eq()], comparators=[P.const(text)]), other)
        return check if equal else P.not_(check)

    def plus(self, node: A.BinaryExpression) -> ast.expr:
        """``+``: plain str concatenation when one side is a string constant and the other
        turns out to be a str at run time (no surrogate can meet at the junction)."""
        lt, rt = static_type(node.left), static_type(node.right)
        left, right = self.expr(node.left), self.expr(node.right)
        if lt == "str" and isinstance(node.left, A.Literal) and not _ends_high(node.left.value):
            t = self.tmp()
            return P.ifexp(P.type_is(P.walrus(t, right), "str"),
                           ast.BinOp(left=left, op=ast.Add(), right=P.name(t)), P.call("add", left, P.name(t)))
        if rt == "str" and isinstance(node.right, A.Literal) and not _starts_low(node.right.value):
            t = self.tmp()
            return P.ifexp(P.type_is(P.walrus(t, left), "str"),
                           ast.BinOp(left=P.name(t), op=ast.Add(), right=right), P.call("add", P.name(t), right))
        if not (self.fast_paths and _shallow(node)):  # (a long chain: one bracket a link, as the printed-nesting bound counts)
            return P.call("add", left, right)
        if lt == "str" or rt == "str":  # a string expression on one side: no int sum possible
            return self.concat_fast(left, right)
        if _small_int(node.right) is not None or _small_int(node.left) is not None:
            t = self.tmp()
            if _small_int(node.right) is not None:
                x, y = P.walrus(t, left), right
                test = P.and_(P.type_is(x, "int"), _in_compact_range(t))
                return P.ifexp(test, ast.BinOp(left=P.name(t), op=ast.Add(), right=y), P.call("add", P.name(t), y))
            test = P.and_(P.type_is(P.walrus(t, right), "int"), _in_compact_range(t))
            return P.ifexp(test, ast.BinOp(left=left, op=ast.Add(), right=P.name(t)), P.call("add", left, P.name(t)))
        return self.plus_fast(left, right)

    def concat_fast(self, left: ast.expr, right: ast.expr) -> ast.expr:
        """``a + b`` of two strs without a call (see ``plus_fast``), else ``add``."""
        a, b = self.tmp(), self.tmp()
        both = ast.Compare(left=P.call("TYPE", P.walrus(a, left)), ops=[ast.Is(), ast.Is()],
                           comparators=[P.call("TYPE", P.walrus(b, right)), P.name("STR")])
        return P.ifexp(P.and_(both, _plain_junction(a, b)),
                       ast.BinOp(left=P.name(a), op=ast.Add(), right=P.name(b)), P.call("add", P.name(a), P.name(b)))

    def plus_fast(self, left: ast.expr, right: ast.expr) -> ast.expr:
        """``a + b`` without a call when both are ints within +-2**30 (an exact sum, well within
        +-2**53) or both strs that join plainly: one of them ASCII (so no surrogate pair can
        form at the junction) and together short enough not to need the string budget's look
        (``strings.concat``). Everything else (floats, -0, mixed types, objects) takes ``add``."""
        a, b, k = self.tmp(), self.tmp(), self.tmp()
        same = ast.Compare(left=P.walrus(k, P.call("TYPE", P.walrus(a, left))), ops=[ast.Is()],
                           comparators=[P.call("TYPE", P.walrus(b, right))])
        ints = P.and_(P.is_(P.name(k), P.name("INT")), _in_compact_range(a), _in_compact_range(b))
        strs = P.and_(P.is_(P.name(k), P.name("STR")), _plain_junction(a, b))
        return P.ifexp(P.and_(same, P.or_(ints, strs)),
                       ast.BinOp(left=P.name(a), op=ast.Add(), right=P.name(b)), P.call("add", P.name(a), P.name(b)))

    def logical(self, node: A.LogicalExpression) -> ast.expr:
        t = self.tmp()
        left = P.walrus(t, self.expr(node.left))
        right = self.expr(node.right)
        if node.operator == "??":
            nullish = P.or_(P.is_(left, P.const(None)), P.is_(P.name(t), P.name("UNDEFINED")))
            return P.ifexp(nullish, right, P.name(t))
        cond = left if static_type(node.left) == "bool" else self.truth(left, t)
        if node.operator == "&&":
            return P.ifexp(cond, right, P.name(t))
        return P.ifexp(cond, P.name(t), right)

    def update(self, node: A.UpdateExpression) -> ast.expr:
        fn = "inc" if node.operator == "++" else "dec"
        arg = node.argument
        if isinstance(arg, A.Identifier) and (temps := self.with_temps(arg.name)):
            return self.with_update(node, temps)
        if isinstance(arg, A.Identifier):
            if node.prefix:
                return self.store_ident(arg, P.call(fn, self.load_ident(arg)))
            t = self.tmp()
            old = P.walrus(t, P.call("to_numeric", self.load_ident(arg)))
            return P.subscript(P.tuple_(old, self.store_ident(arg, P.call(fn, P.name(t)))), P.const(0))
        assert isinstance(arg, A.MemberExpression)
        return P.call("update_member", self.expr(arg.object), self.member_key(arg),
                      P.const(1 if node.operator == "++" else -1), P.const(node.prefix))


#: the operators ``int_fast`` emits inline for ints, by their Python operator
_INT_FAST: dict[str, ast.cmpop | ast.operator] = {
    "-": ast.Sub(), "<": ast.Lt(), ">": ast.Gt(), "<=": ast.LtE(), ">=": ast.GtE(), "===": ast.Eq(), "!==": ast.NotEq()}
#: ints up to this size compare at CPython's fastest (one digit) and sum or subtract exactly
#: within +-2**53
_COMPACT = (1 << 30) - 1


#: operator nodes nested deeper than this below one get no inline fast path: each inline
#: link prints two brackets (``TYPE((_t := ...))``) where a call prints one, so long chains
#: keep the calls and stay within ``nesting.MAX_PRINTED_NESTING``
_INLINE_DEPTH = 6


def _shallow(node: A.BinaryExpression) -> bool:
    """Whether ``node``'s operands nest fewer than ``_INLINE_DEPTH`` operators (a bounded walk)."""
    def depth(n: Any, budget: int) -> int:
        if not isinstance(n, A.BinaryExpression) or budget == 0:
            return 0
        left = depth(n.left, budget - 1)
        return 1 + max(left, depth(n.right, budget - 1) if left < budget - 1 else 0)
    return max(depth(node.left, _INLINE_DEPTH), depth(node.right, _INLINE_DEPTH)) < _INLINE_DEPTH


def _small_int(node: Any) -> int | None:
    """The value of an int constant operand within +-2**30, else None."""
    v = _literal_value(node)
    return v if type(v) is int and -_COMPACT <= v <= _COMPACT else None


def _factor(node: Any) -> int | None:
    """The value of an int constant operand in 1..2**22 (``scale_fast``), else None."""
    v = _literal_value(node)
    return v if type(v) is int and 1 <= v <= 1 << 22 else None


def _in_compact_range(t: str) -> ast.expr:
    return ast.Compare(left=P.const(-_COMPACT), ops=[ast.LtE(), ast.LtE()], comparators=[P.name(t), P.const(_COMPACT)])


def _int_op(op: ast.cmpop | ast.operator, x: ast.expr, y: ast.expr) -> ast.expr:
    if isinstance(op, ast.operator):
        return ast.BinOp(left=x, op=op, right=y)
    return ast.Compare(left=x, ops=[op], comparators=[y])


def _plain_junction(a: str, b: str) -> ast.expr:
    """Two strs ``a`` and ``b`` that ``+`` joins as ``strings.concat`` would: one of them ASCII
    (no high surrogate ends ``a`` or no low one starts ``b``) and short enough together for no
    string budget look."""
    ascii_ = P.or_(P.call(P.attr(P.name(b), "isascii")), P.call(P.attr(P.name(a), "isascii")))
    short = ast.Compare(left=ast.BinOp(left=P.call("LEN", P.name(a)), op=ast.Add(), right=P.call("LEN", P.name(b))),
                        ops=[ast.LtE()], comparators=[P.const(UNCHECKED_CONCAT)])
    return P.and_(ascii_, short)


def _number_key(v: Any) -> str:
    from syncpatch.runtime.convert import to_string

    return str(to_string(v))


#: the longest result an inline template builds without the string budget's look (as ``template``)
_TEMPLATE_INLINE_LIMIT = 4096


def _joins_plainly(quasis: tuple[Any, ...] | list[Any]) -> bool:
    """Can a template's strings be joined with ``+``? Each two substitutions have text between
    them, and no text ends in a high or starts with a low surrogate (where a substitution's
    lone half could pair up); the texts themselves are constants."""
    inner = quasis[1:-1]
    return (all(type(q) is str for q in quasis) and all(inner)
            and not any(_ends_high(q) or _starts_low(q) for q in quasis))


def _ends_high(s: Any) -> bool:
    return type(s) is str and bool(s) and "\ud800" <= s[-1] <= "\udbff"


def _starts_low(s: Any) -> bool:
    return type(s) is str and bool(s) and "\udc00" <= s[0] <= "\udfff"
