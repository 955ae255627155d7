"""Native-tier calls: the String, Array, Object, JSON and base64 built-ins patch scripts use,
each translated to the Python that computes the same thing for the guarded types.

Every entry here states why Python agrees with JS: a literal argument without surrogates
compares alike by code points and UTF-16 units; index arithmetic needs ASCII receivers;
callbacks become comprehensions over at most ``MAX_ITEMS`` elements (longer arrays take
the general tier, where the step budget applies).
"""

from __future__ import annotations

import ast
import json
from typing import TYPE_CHECKING, Any

import attrs

from syncpatch.grammar import ast as A
from syncpatch.grammar.ast import walk
from syncpatch.runtime.convert import JS_WHITESPACE
from syncpatch.runtime.native import TEXT_LIMIT
from syncpatch.runtime.stdlib.regexp_syntax import group_parens

from .native import _PROTO_NAMES, SIZE_BOUND, Unsupported, _plain_text, _safe_int, is_function_call
from .native_regex import literal_regex, translate_regex
from .native_statements import bounded as _bounded
from .native_statements import MATCH_GROUPS, is_statement_body, reduce_in_place, writes_accumulator
from .native_templates import expr as E

if TYPE_CHECKING:
    from .native import NativeGen

__all__ = ["call"]

_JS_SPACE = " \t\n\x0b\x0c\r"
_SCRIPT_NAMES = frozenset(["value", "context", "valueExists", "undefined"])


def call(gen: "NativeGen", node: A.CallExpression) -> tuple[ast.expr, str]:
    if node.optional:
        return _optional_method_call(gen, node)
    if any(isinstance(a, A.SpreadElement) for a in node.arguments):
        return _spread_call(gen, node)
    callee = node.callee
    args = node.arguments
    if isinstance(callee, A.Identifier):
        if gen.is_global(callee, "btoa") and len(args) == 1:
            # ASCII text encodes alike as Latin-1, which btoa takes, and as UTF-8; other text
            # fails encode('ascii') and takes the general tier
            return E("B2A(T.encode(), newline=False).decode() if len(T := X) <= MAX_TEXT else DEOPT()",
                     T=gen.tmp(), X=gen.as_text(*gen.expr(args[0], raw=True), screen=False)), "ascii"
        if gen.is_global(callee, "atob") and len(args) == 1:
            # canonical base64, padded or not, decodes alike in both engines; anything else
            # (whitespace, stray padding, text that is not ASCII) makes the helper raise
            return E("A2B(T, strict_mode=True).decode('utf-8', 'replace') if not len(T := X) & 3 "
                     "and len(T) <= MAX_TEXT else ATOB(T)",
                     T=gen.tmp(), X=gen.as_text(*gen.expr(args[0], raw=True), screen=False)), "str"
        if gen.is_global(callee, "virtualToHostDNS") and len(args) == 1:
            return E("VDNS(X, context)", X=gen.expr(args[0])[0]), "str"
        if gen.is_global(callee, "String") and len(args) == 1:
            return gen.to_text(*gen.expr(args[0]))
        if gen.is_global(callee, "Number") and len(args) == 1:
            e, ty = gen.expr(args[0], raw=True)
            return (e, "int") if ty == "int" else (gen.number_of(e, ty), "any")
        if gen.is_global(callee, "Boolean") and len(args) == 1:
            return E("bool(X)", X=gen.condition(args[0])), "bool"
        if gen.is_global(callee, "parseInt"):
            return _parse_int(gen, args)
        if gen.is_global(callee, "encodeURIComponent") and len(args) == 1:
            return E("URI_ENCODE(X)", X=gen.expr(args[0], raw=True)[0]), "ascii"
        if gen.is_global(callee, "decodeURIComponent") and len(args) == 1:
            return E("URI_DECODE(X)", X=gen.expr(args[0], raw=True)[0]), "ascii"
        if gen.is_global(callee, "parseFloat") and len(args) == 1:
            return gen.number(E("PARSE_FLOAT(X)", X=gen.expr(args[0], raw=True)[0])), "any"
        if (gen.is_global(callee, "isNaN") or gen.is_global(callee, "isFinite")) and len(args) == 1:
            # of ToNumber(x): NUMBER_OF's number (undefined and objects: the general tier)
            test = "N != N" if callee.name == "isNaN" else "N - N == 0"
            return E(f"{test} if type(N := NUMBER_OF(X)) is type(F) else {callee.name == 'isFinite'}", N=gen.tmp(),
                     X=gen.expr(args[0], raw=True)[0], F=ast.Constant(0.5)), "bool"
        raise Unsupported
    if is_function_call(node):
        return gen.inline(node, statement=False)
    if not isinstance(callee, A.MemberExpression):
        raise Unsupported
    if callee.optional:
        return _optional_call(gen, node, callee)
    method = gen.static_key(callee)
    if method is None:
        raise Unsupported
    receiver = callee.object
    if gen.is_global(receiver, "Object"):
        return _object_call(gen, method, args)
    if gen.is_global(receiver, "Math") and method in _MATH:
        return _math(gen, method, args)
    if gen.is_global(receiver, "Number") and method == "isInteger" and len(args) == 1:
        subject = gen.expr(args[0], raw=True)[0]
        held = "T" if isinstance(subject, ast.Name) else "(T := X)"  # (a name is read again as it is)
        return E(f"True if type({held}) is int else IS_INTEGER(T)", T=gen.held(subject), X=subject), "bool"
    if gen.is_global(receiver, "Number") and method == "parseInt":
        return _parse_int(gen, args)
    if gen.is_global(receiver, "Number") and method == "parseFloat" and len(args) == 1:  # (the same function)
        return gen.number(E("PARSE_FLOAT(X)", X=gen.expr(args[0], raw=True)[0])), "any"
    if gen.is_global(receiver, "Number") and method == "isFinite" and len(args) == 1:
        # (no conversion: an int is finite, a float unless infinite or NaN, anything else is not)
        return E("True if type(T := X) is int else T - T == 0 if type(T) is type(F) else False "
                 "if T is None or T is UNDEFINED or type(T) is str or type(T) is bool or type(T) is dict "
                 "or type(T) is list else DEOPT()", T=gen.tmp(),
                 X=gen.expr(args[0], raw=True)[0], F=ast.Constant(0.5)), "bool"
    if method == "hasOwnProperty" and len(args) == 1:
        # an object's own key (ASCII text: no text forms to tell apart); an object that has a
        # key of that name itself, another receiver or key: the general tier
        obj, ty = gen.expr(receiver, raw=True)
        gen.consumed(obj)
        return E("K in D if type(D := X) is dict and 'hasOwnProperty' not in D and type(K := Y) is str and K.isascii() "
                 "else DEOPT()", D=gen.tmp(), K=gen.tmp(), X=obj, Y=gen.expr(args[0])[0]), "bool"
    if gen.is_global(receiver, "Number") and method == "isNaN" and len(args) == 1:
        # (no conversion: only a number that is NaN, a float here)
        return E("type(T := X) is type(F) and T != T", T=gen.tmp(), X=gen.expr(args[0], raw=True)[0],
                 F=ast.Constant(0.5)), "bool"  # (float is no name native code sees)
    if gen.is_global(receiver, "JSON") and method == "parse" and len(args) == 1:
        # (ASCII text only, which the helper tests: a raw read of value is as good)
        return E("JSON_PARSE(X)", X=gen.expr(args[0], raw=True)[0]), "any"
    if gen.is_global(receiver, "JSON") and method == "stringify" and (
            len(args) == 1 and not isinstance(args[0], (A.ObjectExpression, A.ArrayExpression, A.Literal))
            or len(args) == 3 and isinstance(args[1], A.Literal) and args[1].value is None):
        indent = ast.Constant(_int_literal(gen, args[2])) if len(args) == 3 else None
        text = "JSON_TEXT(T, I)" if indent is not None else "JSON_TEXT(T)"  # (a plain call: no *args)
        subject = gen.expr(args[0], raw=True)[0]
        held = "T" if isinstance(subject, ast.Name) else "(T := X)"  # (a name is read again as it is)
        if indent is None:
            # a string or a safe integer (the usual scalars) inline, without json.dumps: ASCII
            # text is escaped alike by both (JSON_STRING refuses the rest), an int is its digits
            made = E(f"UNDEFINED if {held} is UNDEFINED else JSON_STRING(T) if (U := type(T)) is str else "
                     f"str(T) if U is int and {_safe_int('T')} else JSON_TEXT(T)", T=gen.held(subject), X=subject,
                     U=gen.tmp())
            assert isinstance(made, ast.IfExp) and isinstance(made.orelse, ast.IfExp) \
                and isinstance(made.orelse.orelse, ast.IfExp)
            gen.ready(made.orelse.body)  # (text, as the caller gets it)
            gen.ready(made.orelse.orelse.body)
            return made, "any"
        return E(f"UNDEFINED if {held} is UNDEFINED else {text}", T=gen.held(subject), X=subject,
                 **({"I": indent} if indent is not None else {})), "any"
    if gen.is_global(receiver, "Array") and method == "from" and len(args) == 1 \
            and isinstance(args[0], A.NewExpression) and _is_new_set(gen, args[0]):
        return _unique(gen, args[0])
    if gen.is_global(receiver, "Array") and method == "from" and len(args) == 2 and _length_only(args[0]) \
            and isinstance(args[1], A.ArrowFunctionExpression) and len(args[1].params) <= 2:
        # Array.from({length: n}, (_, i) => ...): a map over n undefined elements, for a safe
        # integer n from 0 to MAX_ITEMS (JS converts other lengths: the general tier does); its
        # callback is given no third argument (map's would be the array)
        assert isinstance(args[0], A.ObjectExpression) and isinstance(args[0].properties[0], A.Property)
        start = len(gen.pending)
        n = gen.expr(args[0].properties[0].value, raw=True)[0]
        gen.element = "any"
        return _map(gen, E("[UNDEFINED] * N if type(N := X) is int and 0 <= N <= MAX_ITEMS else DEOPT()",
                           N=gen.tmp(), X=n), (args[1],), start)
    if gen.is_global(receiver, "Array") and method == "from" and len(args) == 1 \
            and not isinstance(args[0], (A.ObjectExpression, A.SpreadElement)):
        # Array.from(xs) of an array: a shallow copy (other iterables: the general tier)
        obj, ty = gen.expr(args[0], raw=True)
        return _array_slice(gen, gen.as_list(obj, ty), ty, ())
    if gen.is_global(receiver, "Array") and method == "from" and len(args) == 2 \
            and not isinstance(args[0], A.ObjectExpression) and isinstance(args[1], A.ArrowFunctionExpression) \
            and len(args[1].params) <= 2:
        # Array.from(xs, (x, i) => ...) of an array: its map (iterating an array visits its
        # elements in order); the callback is given no third argument. Other iterables (a
        # string's code points, a Set) and array-likes take the general tier
        start = len(gen.pending)
        obj, ty = gen.expr(args[0], raw=True)
        gen.element = {"strs": "str", "entries": "entry"}.get(ty, "any")
        return _map(gen, gen.as_list(obj, ty), (args[1],), start)
    if gen.is_global(receiver, "Array") and method == "isArray" and len(args) == 1:
        # (not raw: a top-level tuple is an array; an object or a plain leaf is none, with no call)
        return E("type(T := X) is list or type(T) is not dict and type(T) not in PLAIN_TRUTH and NOT_ARRAY(T)",
                 T=gen.tmp(), X=gen.expr(args[0])[0]), "bool"
    if method in ("pop", "shift") and not args and _made_here(gen, receiver):
        # the array was made by this very expression and is dropped after: no one sees the removal
        obj, ty = gen.expr(receiver, raw=True)
        t = gen.tmp()
        index = -1 if method == "pop" else 0
        return E("T[I] if (T := L) else UNDEFINED", T=t, L=gen.as_list(obj, ty), I=ast.Constant(index)), \
            "str" if ty == "strs" else "any"
    if gen.is_global(receiver, "JSON") and method == "stringify" and len(args) == 1:
        return _stringify(gen, args[0]), "str"
    if isinstance(receiver, A.RegExpLiteral) and method == "test" and len(args) == 1:
        literal = literal_regex(receiver.pattern) if not receiver.flags else None
        if literal is not None:  # /^text/ is startsWith, and so on
            anchor, text = literal
            subject = gen.as_text(*gen.expr(args[0], raw=True))
            return E(_LITERAL_TESTS[anchor], X=subject, L=ast.Constant(text)), "bool"
        rx, limit = _regex(gen, receiver, allow_global=False)
        return E("REGEX_TEST(R, N, X)", R=rx, N=ast.Constant(limit), X=gen.expr(args[0], raw=True)[0]), "bool"
    if method == "reduce" and _is_filter_call(gen, receiver) and not _unpacks_entry(args):
        assert isinstance(receiver, A.CallExpression) and isinstance(receiver.callee, A.MemberExpression)
        start = len(gen.pending)
        obj, ty = gen.expr(receiver.callee.object, raw=True)
        gen.element = {"strs": "str", "entries": "entry"}.get(ty, "any")
        return _reduce(gen, gen.as_list(obj, ty), args, start, keep=receiver.arguments[0])
    if method in _FRESH_ONLY:
        # sort and reverse change the array: only one this expression made, which no one else sees
        if not _made_here(gen, receiver):
            raise Unsupported
        obj, ty = gen.expr(receiver, raw=True)
        fresh: tuple[ast.expr, str] = _FRESH_ONLY[method](gen, gen.as_list(obj, ty), ty, args)
        return fresh
    if method in _DUAL_METHODS:
        return _dual(gen, method, receiver, args)
    if method in _NUMBER_METHODS and (args or method == "toFixed"):
        number: tuple[ast.expr, str] = _NUMBER_METHODS[method](gen, *gen.expr(receiver, raw=True), args)
        return number
    if method in _ARRAY_METHODS:
        start = len(gen.pending)
        obj, ty = gen.expr(receiver, raw=True)
        gen.element = {"strs": "str", "entries": "entry"}.get(ty, "any")
        result: tuple[ast.expr, str] = _ARRAY_METHODS[method](gen, gen.as_list(obj, ty), args, start)
        return result
    if method == MATCH_GROUPS and isinstance(callee.property, A.PropertyName):
        return _match_groups(gen, receiver, args)
    if method in _STRING_METHODS:
        obj, ty = gen.expr(receiver, raw=method in _CHECKS_RECEIVER and _regex_first(args))
        result = _STRING_METHODS[method](gen, obj, ty, args)
        return result
    raise Unsupported


#: methods whose native translation returns a new array (or fails)
_NEW_ARRAY_METHODS = frozenset(["split", "slice", "concat", "map", "filter", "flatMap", "flat", "sort", "reverse"])


def _strings(texts: tuple[str, ...]) -> ast.expr:
    """A tuple display of string constants."""
    return ast.Tuple(elts=[ast.Constant(t) for t in texts], ctx=ast.Load())


def _length_only(node: Any) -> bool:
    """``{length: n}`` (or ``{length}``): an object literal with that one plain member."""
    if not (isinstance(node, A.ObjectExpression) and len(node.properties) == 1):
        return False
    p = node.properties[0]
    return isinstance(p, A.Property) and not p.computed and not p.method and p.kind == "init" and (
        isinstance(p.key, A.Identifier) and p.key.name == "length"
        or isinstance(p.key, A.Literal) and p.key.value == "length")


def _made_here(gen: "NativeGen", node: Any) -> bool:
    """Is ``node`` an array this very expression makes, which no one else can see (so a
    method that changes it in JS may return a changed copy here)? (``find`` would return
    an input's own array: not made here.)"""
    if isinstance(node, A.ArrayExpression):
        return True
    if not isinstance(node, A.CallExpression) or node.optional or not isinstance(node.callee, A.MemberExpression):
        return False
    callee = node.callee
    name = gen.static_key(callee)
    if gen.is_global(callee.object, "Object"):
        return name in ("keys", "values", "entries")
    if gen.is_global(callee.object, "Array"):
        return name == "from"  # (every translation of it makes a new list: a copy, a map, a Set's)
    return not callee.computed and name in _NEW_ARRAY_METHODS


def _optional_method_call(gen: "NativeGen", node: A.CallExpression) -> tuple[ast.expr, str]:
    """``s.m?.()`` (``s?.m?.()``) for a method every string has: the same as ``s.m()``
    wherever native code gives an answer, since that translation takes a string (or, for a
    method arrays have too, an array, which has it as well) and refuses any other receiver,
    for which the general tier decides whether ``m`` is there."""
    callee = node.callee
    if not isinstance(callee, A.MemberExpression) or gen.static_key(callee) not in _STRING_METHODS:
        raise Unsupported
    return call(gen, attrs.evolve(node, optional=False))


def _optional_call(gen: "NativeGen", node: A.CallExpression, callee: A.MemberExpression) -> tuple[ast.expr, str]:
    """``xs?.m(...)``: undefined when ``xs`` is null or undefined, else the call. As
    statements (the call may hoist a loop's receiver, which must come after the test), so
    not inside a callback's comprehension."""
    if gen.in_comprehension:
        return _optional_call_in_callback(gen, node, callee)
    obj, ty = gen.expr(callee.object, raw=True)
    out, _, call_ty = gen.unless_nullish(obj, lambda t: _call_on_receiver(gen, node, callee, t, ty))
    if call_ty in _READY_TYPES:
        # undefined or a value of a type the caller gets as it is (``xs?.map(x => `${x.a}`)``,
        # a list of strings): returned with no type test or walk
        gen.ready(out)
    return out, "any"


#: static types whose values are already what the caller gets (as ``NativeGen.result`` returns them)
_READY_TYPES = frozenset(["ascii", "str", "bool", "int", "null", "undef", "strs"])


#: Math functions on numbers: by their helper (one argument) or as min/max of safe integers
_MATH = {"floor": "FLOOR", "ceil": "CEIL", "round": "ROUND", "trunc": "TRUNC", "abs": "ABS", "max": "max", "min": "min"}


def _math(gen: "NativeGen", method: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if method in ("max", "min"):
        if not args:
            raise Unsupported
        values = [gen.as_int(*gen.expr(a)) for a in args]
        if len(values) == 1:
            return values[0], "int"
        return ast.Call(func=ast.Name(id=method, ctx=ast.Load()), args=values, keywords=[]), "int"
    if len(args) != 1:
        raise Unsupported
    e, ty = gen.expr(args[0], raw=True)
    if ty == "int" and method != "abs":
        return e, "int"
    return E(f"{_MATH[method]}(X)", X=e), "int"


def _spread_call(gen: "NativeGen", node: A.CallExpression) -> tuple[ast.expr, str]:
    """``Math.max(...xs)`` (``Math.min``, with other arguments too) of safe integers: no
    number at all (-Infinity), another element type (NaN, strings read as numbers) or a long
    array takes the general tier;
    ``Object.assign({}, ...xs)`` of objects (see ``ASSIGN_ALL``)."""
    callee, args = node.callee, node.arguments
    if isinstance(callee, A.MemberExpression) and not callee.optional and gen.is_global(callee.object, "Object") \
            and gen.static_key(callee) == "assign" and len(args) >= 2 and isinstance(args[0], A.ObjectExpression) \
            and isinstance(args[-1], A.SpreadElement) and not any(isinstance(a, A.SpreadElement) for a in args[:-1]):
        # Object.assign({...}, a, ...xs): the written sources first, then each of xs in turn
        made, _ = _object_call(gen, "assign", args[:-1])
        spread = args[-1]
        assert isinstance(spread, A.SpreadElement)
        return E("ASSIGN_ALL(D, L)", D=made, L=gen.expr(spread.argument, raw=True)[0]), "dict"
    if not (isinstance(callee, A.MemberExpression) and not callee.optional and gen.is_global(callee.object, "Math")
            and gen.static_key(callee) in ("max", "min")):
        raise Unsupported
    fractions = _may_be_fraction(gen, args)
    # (Math.max(0, ...xs): the plain arguments and the spread elements in one list, in order)
    parts: list[ast.expr] = [ast.Starred(value=gen.as_list(*gen.expr(a.argument, raw=True)), ctx=ast.Load())
                             if isinstance(a, A.SpreadElement) else gen.expr(a)[0] if fractions
                             else gen.as_int(*gen.expr(a)) for a in args]
    items = parts[0].value if len(parts) == 1 and isinstance(parts[0], ast.Starred) else \
        ast.List(elts=parts, ctx=ast.Load())
    t, x = gen.tmp(), gen.tmp()
    if fractions:
        # elements that may be fractions or infinities (``p.nodePort ?? Infinity``): a float
        # neither NaN nor integral (so not -0, and never equal to an int) orders as JS's
        # doubles do, and is what the caller gets; an integral float or NaN: the general tier
        made = E(f"{gen.static_key(callee)}(T) if 0 < len(T := L) <= MAX_ITEMS and all(type(X) is int and -S <= X <= S "
                 "or type(X) is type(F) and X == X and not X.is_integer() for X in T) else DEOPT()",
                 T=t, X=x, L=items, S=ast.Constant(2**53), F=ast.Constant(0.5))  # (float: no name native code sees)
        assert isinstance(made, ast.IfExp)
        gen.ready(made.body)
        return gen.number(made), "any"
    return E(f"{gen.static_key(callee)}(T) if 0 < len(T := L) <= MAX_ITEMS and "
             "all(type(X) is int and -S <= X <= S for X in T) else DEOPT()", T=t, X=x, L=items,
             S=ast.Constant(2**53)), "int"


def _may_be_fraction(gen: "NativeGen", args: tuple[Any, ...]) -> bool:
    """Whether Math.max/min's arguments may hold a number that is no integer: they name
    Infinity, hold a float literal, parse a float or divide."""
    for n in walk(args):
        if isinstance(n, A.Identifier) and n.name == "Infinity" and gen.lookup(n.name) is None \
                or isinstance(n, A.Literal) and type(n.value) is float \
                or isinstance(n, A.BinaryExpression) and n.operator == "/" \
                or isinstance(n, (A.Identifier, A.PropertyName)) and n.name == "parseFloat":
            return True
    return False


def _call_on_receiver(gen: "NativeGen", node: A.CallExpression, callee: A.MemberExpression, t: str,
                      ty: Any) -> tuple[ast.expr, str]:
    """The method call of an optional call ``x?.m(...)``, translated with the receiver bound
    to the local ``t`` (already evaluated once); conditional, since it may not run. With
    the call's static type."""
    receiver = A.Identifier(name="#receiver", span=callee.span)
    inner = A.CallExpression(callee=attrs.evolve(callee, object=receiver, optional=False), arguments=node.arguments,
                             optional=False, span=node.span)
    gen.scopes.append({"#receiver": (t, ty)})
    gen.conditional += 1
    try:
        return call(gen, inner)
    finally:
        gen.conditional -= 1
        gen.scopes.pop()


def _optional_call_in_callback(gen: "NativeGen", node: A.CallExpression,
                               callee: A.MemberExpression) -> tuple[ast.expr, str]:
    """``c.env?.find(...)`` in a callback: the receiver is computed first among the outer
    comprehension's conditions, and the receivers of the call's own loops after it, each
    skipped when it is null or undefined."""
    obj, ty = gen.expr(callee.object, raw=True)
    t = gen.tmp()
    gen.hoisted.append(E("((T := X), True)[1]", T=t, X=obj))
    mark = len(gen.hoisted)
    e, _ = _call_on_receiver(gen, node, callee, t, ty)
    gen.hoisted[mark:] = [E("T is None or T is UNDEFINED or H", T=t, H=h) for h in gen.hoisted[mark:]]
    return E("UNDEFINED if T is None or T is UNDEFINED else C", T=t, C=e), "any"


def _parse_int(gen: "NativeGen", args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if len(args) == 2 and isinstance(args[1], A.Literal) and type(args[1].value) is int \
            and 2 <= args[1].value <= 36 and args[1].value != 10:
        return E("PARSE_INT_RADIX(X, R)", X=gen.expr(args[0], raw=True)[0], R=ast.Constant(args[1].value)), "int"
    if not (len(args) == 1 or len(args) == 2 and isinstance(args[1], A.Literal) and args[1].value == 10):
        raise Unsupported
    e, ty = gen.expr(args[0], raw=True)  # (its digits are ASCII, whatever the rest)
    return (e, "int") if ty == "int" else (E("PARSE_INT(X)", X=e), "int")


def _is_new_set(gen: "NativeGen", node: Any) -> bool:
    return (isinstance(node, A.NewExpression) and gen.is_global(node.callee, "Set") and len(node.arguments) == 1
            and not isinstance(node.arguments[0], A.SpreadElement))


def _unique(gen: "NativeGen", node: A.NewExpression) -> tuple[ast.expr, str]:
    """``[...new Set(xs)]`` and ``Array.from(new Set(xs))``: the distinct elements in order."""
    items, ty = gen.expr(node.arguments[0], raw=True)
    return E("UNIQUE(L)", L=gen.as_list(items, ty)), "strs" if ty == "strs" else "list"


def _radix(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``n.toString(radix)`` of a safe integer."""
    if len(args) != 1:
        raise Unsupported
    radix = _int_literal(gen, args[0])
    spec = _PERCENT_RADIX.get(radix)
    if spec is not None and ty == "int":
        return E("F % X", F=ast.Constant(spec), X=obj), "ascii"
    if spec is not None and ty == "any":
        # (inline: a safe int's digits by %-formatting, which writes a minus sign as JS does;
        # a bool, a float or anything else: RADIX_STRING's answer or its refusal)
        gen.consumed(obj)
        return gen.guard(f"F % T if type(T := X) is int and {_safe_int('T')} else RADIX_STRING(T, R)", obj,
                         F=ast.Constant(spec), R=ast.Constant(radix)), "ascii"
    return E("RADIX_STRING(X, R)", X=obj, R=ast.Constant(radix)), "ascii"


#: the radixes %-formatting writes as ``toString(radix)`` does (lower-case digits)
_PERCENT_RADIX = {8: "%o", 10: "%d", 16: "%x"}


def _to_fixed(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    digits = _int_literal(gen, args[0]) if args else 0
    if len(args) > 1 or not 0 <= digits <= 100:
        raise Unsupported
    return E("TO_FIXED(X, D)", X=obj, D=ast.Constant(digits)), "ascii"


_NUMBER_METHODS: dict[str, Any] = {"toString": _radix, "toFixed": _to_fixed}


def _dual(gen: "NativeGen", method: str, receiver: Any, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """A method both strings and arrays have (``includes``, ``indexOf``, ``slice``): by the
    receiver's type, known now or tested when the call runs."""
    obj, ty = gen.expr(receiver)
    array_method = _DUAL_METHODS[method]
    if ty in _LISTS:
        out: tuple[ast.expr, str] = array_method(gen, obj, ty, args)
        return out
    string_method = _STRING_METHODS.get(method, _no_string_method)
    if ty in ("ascii", "str") or ty != "any":
        out = string_method(gen, obj, ty, args)
        return out
    gen.consumed(obj)  # (both branches screen a string's text: ASCII, or a result that is a bool)
    t = gen.held(obj)  # (a name is tested and read as it is: no temporary)
    held = "T" if t == getattr(obj, "id", None) else "(T := X)"
    with gen.branch():
        a, ta = array_method(gen, E("T", T=t), "list", args)
        try:
            b, tb = string_method(gen, E("T", T=t), "str", args)
        except Unsupported:  # (includes(2): a string receiver takes the general tier)
            return E(f"A if type({held}) is list else DEOPT()", A=a, T=t, X=obj), ta
    # a string first: the usual receiver, tested once (its method checks only its text)
    return E(f"B if type({held}) is str else A if type(T) is list else DEOPT()", A=a, B=b, T=t, X=obj), \
        ta if ta == tb else "any"


def _no_string_method(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    raise Unsupported  # (String.prototype.concat: the general tier)


def _array_includes(gen: "NativeGen", items: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if len(args) != 1:
        raise Unsupported
    needle = args[0]
    if isinstance(needle, A.Literal) and type(needle.value) is str:
        # (an element equal to a str is a str; a plain BMP literal matches either text form)
        return E("V in L", V=ast.Constant(_text_literal(needle)), L=items), "bool"
    if isinstance(items, ast.List) and items.elts and all(
            isinstance(x, ast.Constant) and type(x.value) is str and x.value.isascii() for x in items.elts):
        # ['true', '1', 'yes'].includes(s) ("is one of"): a str needle is one of them exactly when
        # equal to one (ASCII texts have one form); any other needle takes INCLUDES (a subclass)
        # or is none of them
        choices = ast.Tuple(elts=items.elts, ctx=ast.Load())
        v, vty = gen.expr(needle)
        if vty in _STR_TYPES:
            return E("V in C", V=v, C=choices), "bool"
        t = gen.tmp()
        return E("T in C if type(T := V) is str else INCLUDES(L, T)", T=t, V=v, C=choices,
                 L=items), "bool"
    return E("INCLUDES(L, V)", L=items, V=gen.expr(needle)[0]), "bool"


def _array_index_of(gen: "NativeGen", items: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if len(args) != 1:
        raise Unsupported
    return E("INDEX_OF(L, V)", L=items, V=gen.expr(args[0])[0]), "int"


def _array_slice(gen: "NativeGen", items: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``slice(a[, b])`` with integers: Python slicing clamps and counts from the end alike."""
    if len(args) > 2:
        raise Unsupported
    bounds = [gen.as_int(*gen.expr(a)) for a in args]
    out_ty = ty if ty in _LISTS else "list"
    if not bounds:
        return E("L[:]", L=items), out_ty
    if len(bounds) == 1:
        return E("L[A:]", L=items, A=bounds[0]), out_ty
    return E("L[A:B]", L=items, A=bounds[0], B=bounds[1]), out_ty


def _at(gen: "NativeGen", items: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``at(i)`` of an integer: Python indexes from the end alike; out of range, undefined."""
    if len(args) != 1:
        raise Unsupported
    x, i = gen.tmp(), gen.tmp()
    return E("X[I] if ((X := L), (I := N))[1] < len(X) and I >= -len(X) else UNDEFINED", X=x, I=i, L=items,
             N=gen.as_int(*gen.expr(args[0]))), "any"


def _string_at(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    return _at(gen, gen.as_ascii(obj, ty), ty, args)  # (ASCII: one code unit a character)


def _concat(gen: "NativeGen", items: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``xs.concat(a, b)``: arrays spliced in, other values appended (a new array). Entries
    or pairs with more pairs (``Object.entries(o).concat([['k', v]])``, each argument an
    array literal of two-element array literals or pairs itself) are pairs still, which
    ``Object.fromEntries`` takes."""
    typed = [gen.expr(a, raw=True) for a in args]
    values = [e for e, _ in typed]
    pairs = ty in ("entries", "pairs") and all(
        t in ("entries", "pairs") or isinstance(a, A.ArrayExpression) and all(
            isinstance(x, A.ArrayExpression) and len(x.elements) == 2
            and not any(y is None or isinstance(y, A.SpreadElement) for y in x.elements) for x in a.elements)
        for a, (_, t) in zip(args, typed))
    return E("CONCAT_ARRAYS(L, *A)", L=items, A=ast.List(elts=values, ctx=ast.Load())), "pairs" if pairs else "list"


_DUAL_METHODS: dict[str, Any] = {"includes": _array_includes, "indexOf": _array_index_of, "slice": _array_slice,
                                 "at": _at, "concat": _concat}
_LISTS = ("list", "strs", "entries", "pairs")
_STR_TYPES = ("ascii", "str")


def _sort(gen: "NativeGen", items: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``sort()``, the numeric comparators ``(a, b) => a - b`` (``b - a``, ``a.k - b.k``) and
    the collating ones ``(a, b) => a.localeCompare(b)`` (``b.localeCompare(a)``, of ``.k``)."""
    out_ty = ty if ty in _LISTS else "list"
    if not args:
        keys = gen.object_keys.get(id(items))
        if keys is not None and keys[0] is items:
            # Object.keys(d).sort(): the keys' order before the sort is moot, so no JS_KEYS;
            # a key set met before as ASCII strings sorts by code points, as by UTF-16 units
            return E("sorted(D) if type(D := X) is dict and KNOWN_ASCII_KEYS(D) else SORTED_KEYS(D)", D=gen.tmp(),
                     X=keys[1]), "strs"
        if isinstance(items, ast.Call) and isinstance(items.func, ast.Name) and items.func.id == "UNIQUE":
            return E("SORTED_UNIQUE(L)", L=items.args[0]), out_ty  # (a Set's elements, sorted in one step)
        return E("SORT_STRINGS(L)" if ty == "strs" else "SORT_DEFAULT(L)", L=items), out_ty
    if len(args) != 1:
        raise Unsupported
    params, body, bound = _comparator(args[0])
    if len(params) == 2 and _collates(body):
        assert isinstance(body, A.CallExpression) and isinstance(body.callee, A.MemberExpression)
        left, right = _sort_operand(body.callee.object, bound), _sort_operand(body.arguments[0], bound)
        if left is None or right is None or left[1] != right[1] or {left[0], right[0]} != set(params):
            raise Unsupported
        return E("SORT_COLLATED(L, K, D)", L=items, K=ast.Constant(left[1]),
                 D=ast.Constant(left[0] == params[1])), out_ty
    ordered = _ordering_comparator(body, params, bound)
    if ordered is not None:
        return E("SORT_ORDERED(L, K, D)", L=items, K=ast.Constant(ordered[0]), D=ast.Constant(ordered[1])), out_ty
    if len(params) != 2 or not isinstance(body, A.BinaryExpression) or body.operator != "-":
        raise Unsupported
    left, right = _sort_operand(body.left, bound), _sort_operand(body.right, bound)
    if left is None or right is None or left[1] != right[1] or {left[0], right[0]} != set(params):
        raise Unsupported
    key = ast.Constant(left[1])
    return E("SORT_NUMBERS(L, K, D)", L=items, K=key, D=ast.Constant(left[0] == params[1])), out_ty


#: what a comparator's operand reads of an element: nothing (the element), a member, an index
SortKey = str | int | None


def _comparator(node: Any) -> tuple[list[Any], Any, dict[str, tuple[str, int]]]:
    """A comparator's two parameters and body, as ``_callback`` gives them; parameters that
    are array patterns (``([a], [b]) => a.localeCompare(b)`` over entries) are given names of
    their own, and each name a pattern binds maps to (that name, its index)."""
    if not isinstance(node, A.ArrowFunctionExpression) or not any(isinstance(p, A.ArrayPattern) for p in node.params):
        plain, body = _callback(node, 2)
        return plain, body, {}
    if len(node.params) != 2 or isinstance(node.body, A.BlockStatement):
        raise Unsupported
    params: list[Any] = []
    bound: dict[str, tuple[str, int]] = {}
    names: list[str | None] = []
    for i, p in enumerate(node.params):
        if isinstance(p, A.Identifier):
            params.append(p.name)
            names.append(p.name)
        else:
            params.append(f"#{i}")  # (no JS name can clash with it)
            pair = _pair_names(p)
            bound.update((name, (params[-1], index)) for index, name in enumerate(pair) if name is not None)
            names.extend(pair)
    _distinct(names)
    return params, node.body, bound


def _pair_names(pattern: Any) -> tuple[str | None, str | None]:
    """The names of an array pattern of an entry, ``[k, v]``, ``[k]`` or ``[, v]`` (None for
    a hole); any other pattern is the general tier's."""
    if not isinstance(pattern, A.ArrayPattern) or not 1 <= len(pattern.elements) <= 2 or \
            not all(e is None or isinstance(e, A.Identifier) for e in pattern.elements):
        raise Unsupported
    names = [e.name if isinstance(e, A.Identifier) else None for e in pattern.elements]
    return names[0], names[1] if len(names) == 2 else None


def _distinct(names: list[str | None]) -> None:
    """Refuse parameters that bind a name twice or hide a script input."""
    given = [n for n in names if n is not None]
    if len(set(given)) != len(given) or _SCRIPT_NAMES.intersection(given):
        raise Unsupported


def _ordering_comparator(body: Any, params: list[Any],
                         bound: dict[str, tuple[str, int]] | None = None) -> tuple[SortKey, bool] | None:
    """``a.k < b.k ? -1 : a.k > b.k ? 1 : 0`` and its mirrors (``>`` first, ``b`` first, a
    descending order, bare ``a`` and ``b``): the key and whether the order descends; None for
    any other body (one that is not a consistent three-way comparison among them)."""
    if len(params) != 2 or not all(isinstance(p, str) for p in params) \
            or not isinstance(body, A.ConditionalExpression) or not isinstance(body.alternate, A.ConditionalExpression):
        return None
    first = _ordering_branch(body.test, body.consequent, params, bound)
    second = _ordering_branch(body.alternate.test, body.alternate.consequent, params, bound)
    zero = body.alternate.alternate
    if first is None or second is None or not (isinstance(zero, A.Literal) and type(zero.value) is int
                                               and zero.value == 0):
        return None
    (key, op, sign), (key2, op2, sign2) = first, second
    if key != key2 or op == op2 or sign == sign2:
        return None
    return key, (op == "<") == (sign > 0)


def _ordering_branch(test: Any, result: Any, params: list[Any],
                     bound: dict[str, tuple[str, int]] | None = None) -> tuple[SortKey, str, int] | None:
    """``a.k < b.k ? -1`` -> ("k", "<", -1), the comparison put as ``a`` against ``b``."""
    sign = _unit_literal(result)
    if sign is None or not isinstance(test, A.BinaryExpression) or test.operator not in ("<", ">"):
        return None
    left, right = _sort_operand(test.left, bound), _sort_operand(test.right, bound)
    if left is None or right is None or left[1] != right[1] or {left[0], right[0]} != set(params):
        return None
    op = test.operator
    if left[0] == params[1]:  # (b.k < a.k is a.k > b.k)
        op = ">" if op == "<" else "<"
    return left[1], op, sign


def _unit_literal(node: Any) -> int | None:
    """1 or -1 as a literal."""
    if isinstance(node, A.Literal) and type(node.value) is int and node.value == 1:
        return 1
    if isinstance(node, A.UnaryExpression) and node.operator == "-" and _unit_literal(node.argument) == 1:
        return -1
    return None


def _collates(body: Any) -> bool:
    """``a.localeCompare(b)`` (of names or members, one argument, no options)."""
    return (isinstance(body, A.CallExpression) and not body.optional and len(body.arguments) == 1
            and isinstance(body.callee, A.MemberExpression) and not body.callee.optional
            and not body.callee.computed and isinstance(body.callee.property, A.PropertyName)
            and body.callee.property.name == "localeCompare")


def _sort_operand(node: Any, bound: dict[str, tuple[str, int]] | None = None) -> tuple[str, SortKey] | None:
    """``a`` -> ("a", None); ``a.k`` -> ("a", "k"); ``a[0]`` -> ("a", 0); a name an array
    pattern binds (``([k], [l]) => ...``) -> its parameter and index."""
    if isinstance(node, A.Identifier) and bound and node.name in bound:
        return bound[node.name]
    if isinstance(node, A.Identifier):
        return node.name, None
    if (isinstance(node, A.MemberExpression) and not node.optional and node.computed
            and isinstance(node.object, A.Identifier) and not (bound and node.object.name in bound)
            and isinstance(node.property, A.Literal) and type(node.property.value) is int
            and 0 <= node.property.value <= 1):
        return node.object.name, node.property.value
    if (isinstance(node, A.MemberExpression) and not node.optional and not node.computed
            and isinstance(node.object, A.Identifier) and not (bound and node.object.name in bound)
            and isinstance(node.property, A.PropertyName) and node.property.name not in _PROTO_KEYS):
        return node.object.name, node.property.name
    return None


_PROTO_KEYS = frozenset(["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"])


def _reverse(gen: "NativeGen", items: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if args:
        raise Unsupported
    return E("L[::-1]", L=items), ty if ty in _LISTS and ty != "pairs" else "list"


_FRESH_ONLY: dict[str, Any] = {"sort": _sort, "reverse": _reverse}


# -- String.prototype ------------------------------------------------------------------------
def _text_literal(node: Any) -> str:
    """A string literal to match against receivers that may hold surrogate pairs as two code
    points (nested input strings are not canonicalised): BMP characters without surrogates
    match alike by code points and by UTF-16 units."""
    if isinstance(node, A.Literal) and type(node.value) is str and _plain_text(node.value) \
            and all(c < "\U00010000" for c in node.value):
        return node.value
    raise Unsupported


def _int_literal(gen: "NativeGen", node: Any) -> int:
    """An argument that is a compile-time integer (``3``, ``-2``, ``"my-prefix-".length``)."""
    e, ty = gen.expr(node)
    if ty == "int" and isinstance(e, ast.Constant) and type(e.value) is int and abs(e.value) < 2**31:
        return e.value
    raise Unsupported


def _needle(gen: "NativeGen", node: Any) -> ast.expr:
    """The text ``startsWith``, ``endsWith`` or ``includes`` looks for: a literal (see
    ``_text_literal``), or text computed when it runs (``name.startsWith(context.vcluster.name)``)
    that is ASCII: it matches alike by code points and by UTF-16 units in any receiver, since
    it can match no part of a surrogate pair. Other needles (numbers, which JS converts,
    regexes, which throw, other text) take the general tier."""
    try:
        return ast.Constant(_text_literal(node))
    except Unsupported:
        pass
    e, ty = gen.expr(node, raw=True)
    if ty == "ascii":
        return e
    gen.consumed(e)
    return E("N if type(N := X) is str and N.isascii() else DEOPT()", N=gen.tmp(), X=e)


def _prefix_test(py: str) -> Any:
    def build(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
        if len(args) != 1:
            raise Unsupported
        return E(f"X.{py}(L)", X=gen.as_text(obj, ty), L=_needle(gen, args[0])), "bool"
    return build


def _includes_text(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if len(args) != 1:
        raise Unsupported
    text = gen.as_text(obj, ty)
    return E("L in X", X=text, L=_needle(gen, args[0])), "bool"


def _index_of(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if len(args) != 1:
        raise Unsupported
    return E("X.find(L)", X=gen.as_ascii(obj, ty), L=ast.Constant(_text_literal(args[0]))), "int"


def _slice(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """slice(a[, b]) with integers: Python slicing clamps and counts from the end alike (other
    numbers are truncated by JS first: the general tier)."""
    return _sliced(*_text_and_int_bounds(gen, obj, ty, args))


def _text_and_int_bounds(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]
                         ) -> tuple[ast.expr, list[ast.expr]]:
    """The ASCII text of ``slice``/``substring`` and its one or two computed integer bounds."""
    if not 1 <= len(args) <= 2:
        raise Unsupported
    return gen.as_ascii(obj, ty), [gen.as_int(*gen.expr(a)) for a in args]


def _sliced(s: ast.expr, bounds: list[ast.expr]) -> tuple[ast.expr, str]:
    """``s[a:]`` or ``s[a:b]``."""
    if len(bounds) == 1:
        return E("X[A:]", X=s, A=bounds[0]), "ascii"
    return E("X[A:B]", X=s, A=bounds[0], B=bounds[1]), "ascii"


def _substring(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if not all(isinstance(a, A.Literal) or isinstance(a, A.UnaryExpression) and isinstance(a.argument, A.Literal)
               or isinstance(a, A.MemberExpression) and gen.static_key(a) == "length"
               and isinstance(a.object, A.Literal) for a in args):
        return _substring_of_ints(gen, obj, ty, args)
    bounds = [_int_literal(gen, a) for a in args]
    if not 1 <= len(bounds) <= 2 or min(bounds) < 0 or (len(bounds) == 2 and bounds[0] > bounds[1]):
        raise Unsupported  # negative or swapped bounds clamp differently from Python slicing
    return _sliced(gen.as_ascii(obj, ty), [ast.Constant(b) for b in bounds])


def _substring_of_ints(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``substring(a[, b])`` of computed safe integers: each clamped at 0 (Python's slice
    clamps at the length), then the smaller one first, as JS does."""
    s, bounds = _text_and_int_bounds(gen, obj, ty, args)
    if len(bounds) == 1:
        return E("X[max(A, 0):]", X=s, A=bounds[0]), "ascii"
    t, a, b = gen.tmp(), gen.tmp(), gen.tmp()
    return E("T[max(min(A, B), 0):max(A, B, 0)] if ((T := X), (A := P), (B := Q)) else ''", T=t, A=a, B=b, X=s,
             P=bounds[0], Q=bounds[1]), "ascii"


def _substr(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``substr(start[, length])`` of ASCII text and safe integers: a start below 0 counts from
    the end (at least 0), a length below 0 is 0; Python's slice clamps at the end."""
    if not 1 <= len(args) <= 2:
        raise Unsupported
    x, a, st = gen.tmp(), gen.tmp(), gen.tmp()
    start = E("(S := (max(len(T) + A, 0) if A < 0 else A))", S=st, T=x, A=a)
    held = E("((T := X), (A := N))", T=x, X=gen.as_ascii(obj, ty), A=a, N=gen.as_int(*gen.expr(args[0])))
    if len(args) == 1:
        return E("H and T[B:]", H=held, T=x, B=start), "ascii"
    n = gen.tmp()
    return E("(H, (L := M)) and T[B:S + max(L, 0)]", H=held, L=n, M=gen.as_int(*gen.expr(args[1])), T=x, B=start,
             S=st), "ascii"


def _repeat(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``repeat(n)`` of ASCII text (no surrogates to join); a negative count is a RangeError
    and a long result passes the text budget: the general tier says so."""
    if len(args) != 1:
        raise Unsupported
    t, n = gen.tmp(), gen.tmp()
    return E("T * N if 0 <= ((T := X), (N := C))[1] and len(T) * N <= MAX_TEXT else DEOPT()", T=t, N=n,
             X=gen.as_ascii(obj, ty), C=gen.as_int(*gen.expr(args[0]))), "ascii"


def _last_index_of(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if len(args) != 1:
        raise Unsupported
    return E("X.rfind(L)", X=gen.as_ascii(obj, ty), L=ast.Constant(_text_literal(args[0]))), "int"


def _char_at(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``charAt(i)``: one ASCII character, or "" out of range (no counting from the end)."""
    x, i = gen.tmp(), gen.tmp()
    n: ast.expr = ast.Constant(0) if not args else gen.as_int(*gen.expr(args[0]))
    if len(args) > 1:
        raise Unsupported
    return E("X[I] if 0 <= ((X := S), (I := N))[1] < len(X) else ''", X=x, I=i, S=gen.as_ascii(obj, ty),
             N=n), "ascii"


def _code_at(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``charCodeAt(i)`` / ``codePointAt(i)`` of ASCII text: the character's code, one UTF-16
    unit and one code point alike (out of range, NaN or undefined: the general tier)."""
    if len(args) > 1:
        raise Unsupported
    x, i = gen.tmp(), gen.tmp()
    n: ast.expr = ast.Constant(0) if not args else gen.as_int(*gen.expr(args[0]))
    return E("ord(X[I]) if 0 <= ((X := S), (I := N))[1] < len(X) else DEOPT()", X=x, I=i, S=gen.as_ascii(obj, ty),
             N=n), "int"


def _pad(py: str) -> Any:
    def build(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
        """``padStart(n, c)`` with one ASCII fill character: Python's rjust (ljust) alike."""
        fill = _text_literal(args[1]) if len(args) == 2 else " "
        if not 1 <= len(args) <= 2 or len(fill) != 1 or not fill.isascii():
            raise Unsupported
        width = gen.as_int(*gen.expr(args[0]))
        return E(f"X.{py}(N, C) if N <= MAX_TEXT else DEOPT()", X=gen.as_ascii(obj, ty), N=width,
                 C=ast.Constant(fill)), "ascii"
    return build


def _case(py: str) -> Any:
    def build(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
        if args:
            raise Unsupported
        if ty == "ascii":
            return E(f"X.{py}()", X=obj), "ascii"
        # other text by the general tier's own mapping (Python's lower and upper agree on
        # ASCII only: node's Unicode data is newer)
        return E(f"T.{py}() if (T := X).isascii() else {py.upper()}_TEXT(T)", T=gen.tmp(),
                 X=gen.as_text(obj, ty)), "str"
    return build


def _trim(py: str) -> Any:
    def build(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
        if args:
            raise Unsupported
        if ty == "ascii":
            return E(f"X.{py}(W)", X=obj, W=ast.Constant(_JS_SPACE)), "ascii"
        # other text by JS's whitespace set, when it holds no surrogate (the result is text
        # as the caller gets it: a pair held as two code points would reach it unjoined)
        return E(f"T.{py}(A) if (T := X).isascii() else WHOLE_TEXT(T).{py}(W)", T=gen.tmp(), X=gen.as_text(obj, ty),
                 A=ast.Constant(_JS_SPACE), W=ast.Constant(JS_WHITESPACE)), "str"
    return build


def _replace(all_matches: bool) -> Any:
    def build(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
        made, out = replaced(gen, obj, ty, args)
        every = all_matches or isinstance(args[0], A.RegExpLiteral) and "g" in args[0].flags
        short = isinstance(args[1], A.Literal) and type(args[1].value) is str and len(args[1].value) <= 1 \
            and "$" not in args[1].value
        if every and not short:
            # every match replaced by a longer text: the result can outgrow its input past the
            # string budget, where the general tier answers (with its RangeError); a match is
            # never empty here, so a replacement of at most one character cannot
            return E("T if len(T := X) <= L else DEOPT()", T=gen.tmp(), X=made, L=ast.Constant(TEXT_LIMIT)), out
        return made, out

    def replaced(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
        if len(args) != 2:
            raise Unsupported
        if not (isinstance(args[1], A.Literal) and type(args[1].value) is str):
            return _replace_computed(gen, obj, ty, args, all_matches)
        replacement = _text_literal(args[1])
        if "$" in replacement and isinstance(args[0], A.RegExpLiteral):
            return _regex_replace_expanded(gen, obj, ty, args, all_matches)
        if "$" in replacement:
            raise Unsupported  # replacement patterns ($&, $1, ...) of a text needle: the general tier
        pattern = args[0]
        if isinstance(pattern, A.RegExpLiteral):
            if all_matches and "g" not in pattern.flags:
                raise Unsupported  # replaceAll with a non-global regex throws
            literal = literal_regex(pattern.pattern) if pattern.flags in ("", "g") else None
            if literal is not None and replacement.isascii() and literal != ("$", "") and literal[0] + literal[1]:
                # an anchored or plain text pattern: string operations, no regex engine (an
                # anchored one matches once even with g; the text is ASCII, so nothing
                # joins at the seams)
                anchor, text = literal
                if anchor:
                    template = _LITERAL_REPLACES[anchor]
                    if not replacement:
                        template = template.replace("R + ", "").replace(" + R", "")
                    out = "ascii" if ty == "ascii" or gen.screened(obj) and not gen.wide_text else "str"
                    return E(template, X=gen.as_text(obj, ty), T=gen.tmp(), L=ast.Constant(text),
                             N=ast.Constant(len(text)), R=ast.Constant(replacement)), out
                return E("X.replace(L, R)" if "g" in pattern.flags else "X.replace(L, R, 1)", X=gen.as_ascii(obj, ty),
                         L=ast.Constant(text), R=ast.Constant(replacement)), "ascii"
            strip = _strip_pattern(pattern.pattern, pattern.flags) if not replacement else None
            if strip is not None:
                # a run of one ASCII character at an end (.replace(/-+$/, '')): str's strip
                # methods (an ASCII character is never half of a surrogate pair, so any text
                # works; the result is ASCII when the text is)
                method, char = strip
                out = "ascii" if ty == "ascii" or gen.screened(obj) and not gen.wide_text else "str"
                return E(f"X.{method}(C)", X=gen.as_text(obj, ty), C=ast.Constant(char)), out
            rx, limit = _regex(gen, pattern, allow_global=True)
            count = 0 if "g" in pattern.flags else 1
            if count == 0 and _nullable(gen.consts[rx.id][0]):  # type: ignore[attr-defined]
                raise Unsupported  # engines step past empty matches differently
            return E("REGEX_SUB(R, N, P, X, C)", R=rx, N=ast.Constant(limit),
                     P=ast.Constant(replacement.replace("\\", "\\\\")), X=obj,
                     C=ast.Constant(count)), "ascii" if replacement.isascii() else "str"
        receiver = gen.as_ascii(obj, ty)  # removing a needle may bring two surrogates together
        out_ty = "ascii" if replacement.isascii() else "str"
        if not isinstance(pattern, A.Literal):
            # a computed needle, after the receiver as in JS: ASCII text (matched alike by
            # code units and code points; anything else, converted in JS, the general tier's)
            found = E("N if type(N := X) is str and N.isascii() else DEOPT()", N=gen.tmp(), X=gen.expr(pattern)[0])
            return E("X.replace(A, B)" if all_matches else "X.replace(A, B, 1)", X=receiver, A=found,
                     B=ast.Constant(replacement)), out_ty
        needle = _text_literal(pattern)
        if all_matches:
            if not needle:
                raise Unsupported
            return E("X.replace(A, B)", X=receiver, A=ast.Constant(needle), B=ast.Constant(replacement)), out_ty
        return E("X.replace(A, B, 1)", X=receiver, A=ast.Constant(needle), B=ast.Constant(replacement)), out_ty
    return build


def _replace_computed(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...],
                      all_matches: bool) -> tuple[ast.expr, str]:
    """``replace(text or /literal/, computed)``: the replacement is computed after the receiver,
    as JS does, and must be ASCII text without ``$`` (no patterns to expand, nothing to join
    at the seams); else the general tier. A function replaces the matches of a regex only
    (``_regex_replace_call``)."""
    pattern = args[0]
    if isinstance(pattern, A.RegExpLiteral):
        if all_matches and "g" not in pattern.flags:
            raise Unsupported
        literal = literal_regex(pattern.pattern) if pattern.flags in ("", "g") else None
        if literal is None or literal == ("$", "") or not literal[0] + literal[1] or \
                isinstance(args[1], (A.ArrowFunctionExpression, A.FunctionExpression)):
            return _regex_replace_expanded(gen, obj, ty, args, all_matches)
        anchor, text = literal
        every = "g" in pattern.flags and not anchor
    else:
        anchor, text, every = "", _text_literal(pattern), all_matches
        if all_matches and not text:
            raise Unsupported
    t, r = gen.tmp(), gen.tmp()
    receiver = gen.as_ascii(obj, ty)
    replacement = gen.as_ascii(*gen.expr(args[1]))
    if anchor:
        template = _LITERAL_REPLACES[anchor].replace("(T := X)", "T")
    else:
        template = "T.replace(L, R)" if every else "T.replace(L, R, 1)"
    return E(f"({template}) if '$' not in ((T := X), (R := Y))[1] else DEOPT()", T=t, R=r, X=receiver, Y=replacement,
             L=ast.Constant(text), N=ast.Constant(len(text))), "ascii"


def _regex_replace_expanded(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...],
                            all_matches: bool) -> tuple[ast.expr, str]:
    """``replace(/re/, r)`` where ``r`` may hold ``$`` patterns or is computed (after the
    receiver, as JS computes it): REGEX_SUB_EXPANDED (ASCII text and replacement; a pattern
    that may match empty text with g is left to the general tier, whose engine steps past
    empty matches as JS does)."""
    pattern = args[0]
    assert isinstance(pattern, A.RegExpLiteral)
    if all_matches and "g" not in pattern.flags:
        raise Unsupported  # (replaceAll with a non-global regex throws)
    if isinstance(args[1], (A.ArrowFunctionExpression, A.FunctionExpression)):
        return _regex_replace_call(gen, obj, ty, pattern, args[1])
    rx, limit = _regex(gen, pattern, allow_global=True)
    count = 0 if "g" in pattern.flags else 1
    if count == 0 and _nullable(gen.consts[rx.id][0]):  # type: ignore[attr-defined]
        raise Unsupported
    receiver = gen.as_text(obj, ty)
    t = gen.tmp()
    replacement = gen.expr(args[1])[0]
    return E("REGEX_SUB_EXPANDED(R, N, Y, X, C)" if isinstance(replacement, ast.Constant) else
             "REGEX_SUB_EXPANDED(R, N, ((T := X), Y)[1], T, C)", R=rx, N=ast.Constant(limit), X=receiver, T=t,
             Y=replacement, C=ast.Constant(count)), "ascii"


def _regex_replace_call(gen: "NativeGen", obj: ast.expr, ty: str, pattern: A.RegExpLiteral,
                        replacer: Any) -> tuple[ast.expr, str]:
    """``replace(/re/, (match, p1, ..., offset, string) => text)``: the matches listed first
    (REGEX_MATCHES: ``[match, captures..., offset, string]`` each, a capture that took no part
    undefined; ASCII text), the callback run over them in order as a map's callback runs over
    its elements, and the ToString of each answer put in its match's place (REGEX_STITCH).
    A pattern that may match empty text with g is the general tier's, as for templates."""
    rx, limit = _regex(gen, pattern, allow_global=True)
    count = 0 if "g" in pattern.flags else 1
    translated = gen.consts[rx.id][0]  # type: ignore[attr-defined]
    if count == 0 and _nullable(translated):
        raise Unsupported
    params, body = _callback(replacer, _group_count(translated) + 3)
    if not all(isinstance(p, str) for p in params):
        raise Unsupported  # (patterns in the parameters: the general tier)
    receiver = gen.as_text(obj, ty)
    text, matches, element = gen.tmp(), gen.tmp(), gen.tmp()
    found = E("REGEX_MATCHES(R, N, T, C)", R=rx, N=ast.Constant(limit), T=text, C=ast.Constant(count))
    spread: list[Any] = [_Fields(tuple(params), tuple(params))]  # (the parameters read one match's list)
    answer, answer_ty = _in_scope(gen, spread, [element], body, "list")
    piece, _ = gen.to_text(answer, answer_ty)
    pieces = ast.ListComp(elt=piece, generators=_generator(matches, [element], gen))
    return E("REGEX_STITCH((T := X), (M := F), P)", T=text, X=receiver, M=matches, F=found, P=pieces), "str"


#: the longest text ``split`` takes natively: its pieces (at most one more than its length)
#: then fit the default array budget; a longer one is the general tier's, with its RangeError
_SPLIT_TEXT = 999_999


def _split(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if len(args) == 2:
        # ``split(sep, n)`` with a literal count: the first n pieces of the whole split (a
        # string separator splits at most n times: the pieces before the rest are the same)
        n = args[1].value if isinstance(args[1], A.Literal) else None
        if type(n) is not int or not 0 <= n < 2**32:
            raise Unsupported
        if not isinstance(args[0], A.RegExpLiteral) and _text_literal(args[0]):
            if n <= _SPLIT_TEXT + 1:  # (JS stops at n pieces: the array never outgrows the budget)
                return E("X.split(S, N)[:N]", X=gen.as_text(obj, ty), S=ast.Constant(_text_literal(args[0])),
                         N=ast.Constant(n)), "strs"
            return E("(T.split(S, N) if len(T := X) <= L else DEOPT())[:N]", T=gen.tmp(), X=gen.as_text(obj, ty),
                     S=ast.Constant(_text_literal(args[0])), N=ast.Constant(n), L=ast.Constant(_SPLIT_TEXT)), "strs"
        return E("X[:N]", X=_split(gen, obj, ty, args[:1])[0], N=ast.Constant(n)), "strs"
    if len(args) != 1:
        raise Unsupported
    if isinstance(args[0], A.RegExpLiteral):
        # a pattern that matches no empty text and captures nothing: JS's split and Python's
        # find the same leftmost matches and keep the text between them alike
        rx, limit = _regex(gen, args[0], allow_global=False)
        pattern = gen.consts[rx.id][0]  # type: ignore[attr-defined]
        if _nullable(pattern) or _group_count(pattern):
            raise Unsupported
        return E("REGEX_SPLIT(R, N, X)", R=rx, N=ast.Constant(min(limit, _SPLIT_TEXT)), X=gen.as_text(obj, ty)), "strs"
    sep = _text_literal(args[0])
    if not sep:  # split("") splits UTF-16 units: ASCII text's are its characters (an array
        # longer than the default array budget is the general tier's, with its RangeError)
        return E("list(T) if len(T := X) <= L else DEOPT()", T=gen.tmp(), X=gen.as_ascii(obj, ty),
                 L=ast.Constant(SIZE_BOUND)), "strs"
    return E("T.split(S) if len(T := X) <= L else DEOPT()", T=gen.tmp(), X=gen.as_text(obj, ty), S=ast.Constant(sep),
             L=ast.Constant(_SPLIT_TEXT)), "strs"


def match_truth(gen: "NativeGen", node: Any) -> ast.expr | None:
    """``s.match(/re/)`` where only its truth is read (``s.match(/re/) ? a : b``, ``!s.match(...)``,
    a filter's callback): a match array is truthy and null is not, so that is whether ``/re/``
    matches ``s``, as ``/re/.test(s)`` answers for text (a literal's search starts at index 0
    either way). REGEX_TEST takes ASCII text only: anything else (null, whose match throws)
    is the general tier's. None when ``node`` is no such call."""
    if not (isinstance(node, A.CallExpression) and not node.optional and isinstance(node.callee, A.MemberExpression)
            and not node.callee.optional and gen.static_key(node.callee) == "match" and len(node.arguments) == 1
            and isinstance(node.arguments[0], A.RegExpLiteral) and "g" not in node.arguments[0].flags):
        return None
    subject = gen.expr(node.callee.object, raw=True)[0]
    rx, limit = _regex(gen, node.arguments[0], allow_global=False)
    return E("REGEX_TEST(R, N, X)", R=rx, N=ast.Constant(limit), X=subject)


def _match_all(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """``s.match(/re/g)``: the matched texts, a plain array (a global match has no index or
    groups), or null for none. A pattern that matches no empty text: JS and Python then
    search again where the last match ended, alike (after an empty match JS steps one unit
    on and Python may match at once). REGEX_MATCHES takes ASCII text within the bound only."""
    if not (len(args) == 1 and isinstance(args[0], A.RegExpLiteral) and "g" in args[0].flags):
        raise Unsupported  # (a match array without g: its index, input and groups; see MATCH_GROUPS)
    rx, limit = _regex(gen, args[0], allow_global=True)
    if _nullable(gen.consts[rx.id][0]):  # type: ignore[attr-defined]
        raise Unsupported
    return E("[M[0] for M in REGEX_MATCHES(R, N, X, 0)] or None", M=gen.tmp(), R=rx, N=ast.Constant(limit),
             X=obj), "any"


def _to_string(gen: "NativeGen", obj: ast.expr, ty: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if args:
        raise Unsupported
    if ty == "int":
        return E("str(X)", X=obj), "ascii"
    if ty == "any":  # a string or a safe integer (a port, a count); others (null throws): general tier
        return E("T if type(T := X) is str else str(T) if type(T) is int and -S <= T <= S else DEOPT()",
                 T=gen.tmp(), X=obj, S=ast.Constant(2**53)), "str"
    return gen.as_text(obj, ty), "ascii" if ty == "ascii" else "str"


_STRING_METHODS: dict[str, Any] = {
    "startsWith": _prefix_test("startswith"),
    "endsWith": _prefix_test("endswith"),
    "includes": _includes_text,
    "indexOf": _index_of,
    "slice": _slice,
    "substring": _substring,
    "substr": _substr,
    "toUpperCase": _case("upper"),
    "toLowerCase": _case("lower"),
    "trim": _trim("strip"),
    "trimStart": _trim("lstrip"),
    "trimEnd": _trim("rstrip"),
    "replace": _replace(False),
    "replaceAll": _replace(True),
    "split": _split,
    "match": _match_all,
    "toString": _to_string,
    "at": _string_at,
    "lastIndexOf": _last_index_of,
    "charAt": _char_at,
    "charCodeAt": _code_at,
    "codePointAt": _code_at,
    "padStart": _pad("rjust"),
    "padEnd": _pad("ljust"),
    "repeat": _repeat,
}


#: methods whose translation checks the receiver's form itself (REGEX_SUB: ASCII only)
_CHECKS_RECEIVER = frozenset(["replace", "replaceAll", "match"])


def _regex_first(args: tuple[Any, ...]) -> bool:
    return bool(args) and isinstance(args[0], A.RegExpLiteral)


# -- regular expressions ---------------------------------------------------------------------
def _regex(gen: "NativeGen", node: A.RegExpLiteral, *, allow_global: bool) -> tuple[ast.expr, int]:
    flags = set(node.flags)
    if not flags <= ({"g", "i"} if allow_global else {"i"}):
        raise Unsupported
    translated = translate_regex(node.pattern, "i" in flags)
    if translated is None:
        raise Unsupported
    pattern, limit = translated
    name = f"_rx{len(gen.consts) + 1}"
    gen.consts[name] = (pattern, "i" in flags)
    return E("R", R=name), limit


#: ``/^L/.test(X)`` and the like, by anchor (see ``literal_regex``)
_LITERAL_TESTS = {"^": "X.startswith(L)", "$": "X.endswith(L)", "^$": "X == L", "": "L in X"}
#: ``X.replace(/^L/, R)`` and the like (``N`` is ``len(L)``; ``$`` takes a non-empty ``L``)
_LITERAL_REPLACES = {
    "^": "R + T[N:] if (T := X).startswith(L) else T",
    "$": "T[:-N] + R if (T := X).endswith(L) else T",
    "^$": "R if (T := X) == L else T",
}


def _group_count(pattern: str) -> int:
    """How many capturing groups a translated pattern has (Python counts JS's groups alike)."""
    import re

    return re.compile(pattern, re.ASCII).groups


def _strip_pattern(pattern: str, flags: str) -> tuple[str, str] | None:
    """``("rstrip", c)`` for ``c+$``, ``("lstrip", c)`` for ``^c+`` and ``("strip", c)`` for
    ``^c+|c+$`` (global only) where ``c`` is one ASCII character, written as itself or escaped:
    the patterns whose removal is a strip of ``c`` (``$`` without the m flag is the end of the
    text only, and the leftmost match of ``c+$`` starts where the last run of ``c`` does)."""
    if flags not in ("", "g"):
        return None
    char = r"(\\[^0-9A-Za-z]|[^\\.^$|?*+()\[\]{}])"
    import re

    forms = [(f"{char}\\+\\$", "rstrip"), (f"\\^{char}\\+", "lstrip")]
    if flags == "g":
        forms.append((f"\\^{char}\\+\\|{char}\\+\\$", "strip"))
    for form, method in forms:
        m = re.fullmatch(form, pattern)
        if m is not None:
            chars = {g[-1] for g in m.groups()}
            if len(chars) == 1:
                c = chars.pop()
                return (method, c) if c.isascii() and c.isprintable() else None
    return None


def _nullable(pattern: str) -> bool:
    import re

    return re.fullmatch(pattern, "", re.ASCII) is not None


# -- Array.prototype with callbacks ------------------------------------------------------------
#: built-in functions passed as callbacks (``map(Number)``): called with the element alone
#: they compute what ``x => F(x)`` does (``parseInt`` is not here: it reads the index as radix)
_CALLBACK_BUILTINS = frozenset(["Number", "String", "Boolean"])


class _Fields:
    """An object pattern parameter ``({name, port}) => ...``: the names of its fields; or an
    array pattern one ``([a, , c]) => ...`` (``indexed``: the names' indices, None for holes)."""

    def __init__(self, names: tuple[str, ...], indexed: tuple[str | None, ...] | None = None,
                 rest: str | None = None) -> None:
        self.names = names
        self.indexed = indexed
        self.rest = rest  # ({a, ...rest}) => ...: the name of the other members' object


def _pattern_in_body(node: Any) -> Any:
    """``({a, r: {b = 1} = {}} = {}) => e``, a first parameter that is a pattern with defaults
    or nested patterns (or has a default itself), as ``(#param) => { const {...} = #param;
    return e; }``: the declaration's translation (native_statements) binds the names, as the
    parameter would (a callback is called with an element, so a parameter default applies
    only to an undefined element)."""
    first = node.params[0]
    param = A.Identifier(name="#param", span=first.span)
    pattern: Any = first
    init: Any = param
    if isinstance(first, A.AssignmentPattern):
        pattern = first.left
        init = A.ConditionalExpression(
            test=A.BinaryExpression(operator="===", left=param, right=A.Identifier(name="undefined", span=first.span),
                                    span=first.span),
            consequent=first.right, alternate=param, span=first.span)
        if not isinstance(pattern, (A.ObjectPattern, A.ArrayPattern, A.Identifier)):
            raise Unsupported
    declaration = A.VariableDeclaration(kind="const", declarations=(
        A.VariableDeclarator(id=pattern, init=init, span=first.span),), span=first.span)
    body = node.body
    statements = body.body if isinstance(body, A.BlockStatement) else (A.ReturnStatement(argument=body, span=body.span),)
    block = A.BlockStatement(body=(declaration, *statements), span=body.span)
    return attrs.evolve(node, params=(param, *node.params[1:]), body=block)


def _object_fields(p: Any) -> _Fields | None:
    """``{a, b}`` and ``{a, ...rest}`` (shorthand names only: no defaults, renames or computed
    keys; a rest name last)."""
    if not isinstance(p, A.ObjectPattern) or not p.properties:
        return None
    names = []
    rest = None
    for n, prop in enumerate(p.properties):
        if isinstance(prop, A.RestElement) and n == len(p.properties) - 1 and isinstance(prop.argument, A.Identifier):
            rest = prop.argument.name
            continue
        if not (isinstance(prop, A.Property) and prop.shorthand and not prop.computed and prop.kind == "init"
                and isinstance(prop.value, A.Identifier)):
            return None
        names.append(prop.value.name)
    return _Fields(tuple(names), rest=rest)


def _callback(node: Any, arity: int, pairs: bool = False, gen: "NativeGen | None" = None,
              fields: bool = False) -> tuple[list[Any], Any]:
    """An arrow function ``(a, b) => expr`` (or ``{ return expr; }``): its parameter names
    and body expression. With ``pairs`` (the elements are ``[key, value]`` entries), the first
    parameter may be ``[k, v]``, ``[k]`` or ``[, v]``: a (k, v) tuple of names (None for a
    hole). ``Number``, ``String`` and ``Boolean`` stand for ``x => Number(x)`` and so on."""
    if isinstance(node, A.Identifier) and gen is not None and node.name in _CALLBACK_BUILTINS \
            and gen.is_global(node, node.name):
        element = A.Identifier(name="#element", span=node.span)  # (no JS name can clash with it)
        return ["#element"], A.CallExpression(callee=node, arguments=(element,), optional=False, span=node.span)
    if isinstance(node, A.FunctionExpression) and node.id is None and not any(
            isinstance(n, (A.ThisExpression, A.MetaProperty)) or isinstance(n, A.Identifier) and n.name == "arguments"
            for n in walk(node)):
        pass  # (function (c) { ... }: without this, arguments or a name of its own, an arrow's equal)
    elif not isinstance(node, A.ArrowFunctionExpression):
        raise Unsupported
    if len(node.params) > arity:
        raise Unsupported
    if fields and node.params and isinstance(node.params[0], A.ObjectPattern) and _object_fields(node.params[0]) is None \
            or fields and node.params and isinstance(node.params[0], A.AssignmentPattern):
        return _callback(_pattern_in_body(node), arity, pairs, gen, fields)
    params: list[Any] = []
    for i, p in enumerate(node.params):
        if isinstance(p, A.Identifier):
            params.append(p.name)
        elif (pairs and i == 0 and isinstance(p, A.ArrayPattern) and 1 <= len(p.elements) <= 2
              and all(e is None or isinstance(e, A.Identifier) for e in p.elements)):
            names = [e.name if isinstance(e, A.Identifier) else None for e in p.elements]
            params.append((names[0], names[1] if len(names) == 2 else None))
        elif fields and i == 0 and _object_fields(p) is not None:
            params.append(_object_fields(p))
        elif fields and i == 0 and isinstance(p, A.ArrayPattern) and p.elements \
                and all(e is None or isinstance(e, A.Identifier) for e in p.elements):
            indexed = tuple(e.name if isinstance(e, A.Identifier) else None for e in p.elements)
            params.append(_Fields(tuple(n for n in indexed if n is not None), indexed))
        else:
            raise Unsupported
    body: Any = node.body
    if isinstance(body, A.BlockStatement) and not is_statement_body(body):
        only: Any = body.body[0]
        body = only.argument  # (a block body otherwise: native_statements.block_value)
    names = [n for p in params for n in (p if isinstance(p, tuple) else (*p.names, p.rest) if isinstance(p, _Fields)
                                         else (p,)) if n is not None]
    if len(set(names)) != len(names) or _SCRIPT_NAMES.intersection(names):
        raise Unsupported  # (a parameter named like a script input would hide it)
    return params, body


def _loop(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...], start: int,
          arity: int = 3, pairs: bool = False) -> tuple[str, list[Any], list[Any], Any]:
    """The callback ``(x, i, xs) => ...`` of a loop over ``items``: its receiver bounded,
    and Python names for its parameters (``xs`` is the receiver's own name)."""
    if len(args) != 1:
        raise Unsupported
    params, body = _callback(args[0], arity, pairs and gen.element == "entry", gen, fields=True)
    unpacked = bool(params) and isinstance(params[0], tuple) and len(params) < 3  # (the array itself unseen)
    source = _bounded(gen, items, start, unpacked)
    pynames = [(gen.tmp(), gen.tmp()) if isinstance(p, tuple) else gen.tmp() for p in params[:2]]
    if len(params) == 3:
        pynames.append(source)
    return source, params, pynames, body


def _in_scope(gen: "NativeGen", params: list[str], pynames: list[str], body: Any, element: str,
              test: bool = False) -> tuple[ast.expr, str]:
    types = ["list" if element == "entry" else element, "int",  # (element, index, array)
             {"str": "strs", "entry": "entries"}.get(element, "list")]
    scope: dict[str, tuple[str, str]] = {}
    loads: list[ast.expr] = []
    for p, py, ty in zip(params, pynames, types):
        if isinstance(p, _Fields) and p.indexed is not None:
            # ([a, b]) => ...: a plain array's elements by index (a string, a tuple: general tier)
            loads.append(E("type(X) is list or DEOPT()", X=py))
            for i, name in enumerate(p.indexed):
                if name is not None:
                    scope[name] = (gen.tmp(), "any")
                    loads.append(E("((F := X[I] if len(X) > I else UNDEFINED), True)[1]", F=scope[name][0], X=py,
                                   I=ast.Constant(i)))
        elif isinstance(p, _Fields) and p.names and p.rest is None and not _PROTO_NAMES.intersection(p.names):
            # ({a, b}) => ...: the element's members, read before the body, each by DICT_GET
            # (which refuses what is no object, as the type test would: gen.dict_get)
            for name in p.names:
                scope[name] = (gen.tmp(), "any")
                loads.append(E("((F := V), True)[1]", F=scope[name][0], V=gen.dict_get(E("X", X=py), name)))
        elif isinstance(p, _Fields):  # ({a, b}) => ...: the element's members, read before the body
            loads.append(E("type(X) is dict or DEOPT()", X=py))
            for name in p.names:
                scope[name] = (gen.tmp(), "any")
                loads.append(E("((F := V), True)[1]", F=scope[name][0], V=gen.load(E("X", X=py), name)))
            if p.rest is not None:
                # the other members in JS's order, which is insertion order for keys that start
                # with no digit; ASCII keys (a surrogate pair held as two code points would be
                # one key in JS); anything else the general tier copies
                scope[p.rest] = (gen.tmp(), "dict")
                # (integer-like keys, a ConfigMap's "10", stay: JS_KEYS refuses keys that are not
                # strings, and the result's check puts such keys in JS's order as the copy would)
                loads.append(E("((F := {K: V for K, V in X.items() if K not in N}) if (PLAIN_KEYS(X) or JS_KEYS(X)) "
                               "and ''.join(X).isascii() else DEOPT(), True)[1]", F=scope[p.rest][0], X=py,
                               K=gen.tmp(), V=gen.tmp(), N=_strings(p.names)))
        elif isinstance(p, tuple):  # [key, value] of an entry
            for name, pyname, part in zip(p, py, ("str", "any")):
                if name is not None:
                    scope[name] = (pyname, part)
        else:
            scope[p] = (py, ty)
    gen.scopes.append(scope)
    gen.in_comprehension += 1
    saved = gen.conditional_floor, gen.loop_names, gen.hoisted, gen.facts
    # facts about this loop's variables hold for the rest of its element, unless a loop in it
    # is hoisted into the conditions, ahead of guards it would count on
    names = set() if _has_loop(body) else {py for py, _ty in scope.values()}
    gen.conditional_floor, gen.loop_names, gen.hoisted = gen.conditional, names, loads
    gen.facts = dict(gen.facts)  # facts about this loop's variables end with it
    try:
        out = (gen.condition(body), "bool") if test else gen.expr(body)
        gen.last_hoisted = gen.hoisted
        return out
    finally:
        gen.conditional_floor, gen.loop_names, gen.hoisted, gen.facts = saved
        gen.in_comprehension -= 1
        gen.scopes.pop()


def _has_loop(node: Any) -> bool:
    """Whether the JS tree ``node`` calls a method this module translates to a loop, or a
    method optionally (both hoist code into the comprehension's conditions)."""
    return any(isinstance(n, A.CallExpression) and isinstance(n.callee, A.MemberExpression)
               and (n.callee.optional or _static_name(n.callee.property) in _LOOP_METHODS)
               for n in walk(node))


def _static_name(node: Any) -> str | None:
    """A member's static name (``obj.name``, or a string literal in ``obj["name"]``)."""
    if isinstance(node, A.PropertyName):
        return node.name
    return node.value if isinstance(node, A.Literal) and type(node.value) is str else None


def _target(pyname: Any) -> ast.expr:
    if isinstance(pyname, tuple):  # an entry is a two-element list: Python unpacks it alike
        return ast.Tuple(elts=[ast.Name(id=n, ctx=ast.Store()) for n in pyname], ctx=ast.Store())
    return ast.Name(id=pyname, ctx=ast.Store())


def _generator(source: str, pynames: list[Any], gen: "NativeGen") -> list[ast.comprehension]:
    """``for x in L`` (``for i, x in enumerate(L)``), with the receivers of the loops in the
    callback as its first conditions (see ``_bounded``)."""
    if len(pynames) >= 2:
        target: ast.expr = ast.Tuple(elts=[_target(pynames[1]), _target(pynames[0])], ctx=ast.Store())
        it: ast.expr = E("enumerate(L)", L=source)
    else:
        target = _target(pynames[0] if pynames else "_")
        it = E("L", L=source)
    ifs, gen.last_hoisted = gen.last_hoisted, []
    return [ast.comprehension(target=target, iter=it, ifs=ifs, is_async=0)]


def _map(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...], start: int) -> tuple[ast.expr, str]:
    element = gen.element
    ordered = id(items) in gen.ordered
    fused = _after_filter(gen, items, args)
    if fused is not None:
        # xs.filter(f).map(x => g): one comprehension, g's element the kept element itself (the
        # filtered array is never seen: map's callback takes no index and no array). The same
        # callbacks run on the same elements (g on those f keeps, in order), and native
        # callbacks have no effects, so only which failing guard fails first could differ, and
        # any failure takes the general tier. No bound of its own: f keeps at most MAX_ITEMS.
        generators, params, pynames, body = fused
    else:
        source, params, pynames, body = _loop(gen, items, args, start, pairs=True)
    elt, ty = _in_scope(gen, params, pynames, body, element)
    if isinstance(body, A.ArrayExpression) and len(body.elements) == 2 and ty == "list":
        ty = "pairs"  # [key, value] per element, for Object.fromEntries
    if fused is not None:
        ifs, gen.last_hoisted = gen.last_hoisted, []  # (the map's own loops' receivers, after f's test)
        generators[-1].ifs.extend(ifs)
        made = ast.ListComp(elt=elt, generators=generators)
    else:
        made = ast.ListComp(elt=elt, generators=_generator(source, pynames, gen))
    if ordered and ty == "pairs" and isinstance(elt, ast.List) and isinstance(elt.elts[0], ast.Name) \
            and isinstance(pynames[0], tuple) and elt.elts[0].id == pynames[0][0]:
        gen.ordered[id(made)] = made  # ([k, v]) => [k, ...]: each entry's own key, in the entries' order
    return made, "strs" if ty in ("ascii", "str") else ("pairs" if ty == "pairs" else "list")


def _filter(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...], start: int) -> tuple[ast.expr, str]:
    element = gen.element
    ordered = id(items) in gen.ordered
    source, params, pynames, body = _loop(gen, items, args, start, pairs=True)
    test, _ = _in_scope(gen, params, pynames, body, element, test=True)
    item = pynames[0] if pynames else gen.tmp()
    if not pynames:
        pynames = [item]
    gens = _generator(source, pynames, gen)
    gens[0].ifs.append(test)
    made = ast.ListComp(elt=_element(item), generators=gens)
    if ordered:
        gen.ordered[id(made)] = made  # (some of the entries, in their order)
    if not gen.in_comprehension and len(gens) == 1 and len(pynames) == 1:
        gen.filtered[id(made)] = (made, item)  # (see _after_filter)
    return made, {"str": "strs", "entry": "entries"}.get(element, "list")


def _after_filter(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...]
                  ) -> tuple[list[ast.comprehension], list[Any], list[Any], Any] | None:
    """For a map over a filter's result (``_filter`` notes those it made outside callbacks):
    the filter's generators (a copy, its test among the conditions) and the map's callback
    with its element bound to the filter's kept element; None when the map cannot run in
    the filter's loop (a callback that reads its index or array, or an element of another
    shape: a plain name for ``[k, v]`` entries, or the reverse)."""
    noted = gen.filtered.get(id(items))
    if noted is None or noted[0] is not items or gen.in_comprehension or len(args) != 1:
        return None
    made, item = noted
    params, body = _callback(args[0], 3, gen.element == "entry", gen, fields=True)
    if len(params) != 1 or isinstance(params[0], tuple) != isinstance(item, tuple):
        return None
    assert isinstance(made, ast.ListComp)
    generators = [ast.comprehension(target=g.target, iter=g.iter, ifs=list(g.ifs), is_async=0)
                  for g in made.generators]
    return generators, params, [item], body


def _quantifier(py: str) -> Any:
    def build(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...], start: int) -> tuple[ast.expr, str]:
        element = gen.element
        source, params, pynames, body = _loop(gen, items, args, start, pairs=True)
        test, _ = _in_scope(gen, params, pynames, body, element, test=True)
        generators = _generator(source, pynames, gen)
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == py \
                and len(test.args) == 1 and isinstance(test.args[0], ast.GeneratorExp) and not test.keywords:
            # xs.some(x => x.ys.some(y => t)): one any() over both loops, not one per x (the
            # same elements in the same order, the same guards, the same first true; so for
            # every in every and the first false)
            inner = test.args[0]
            test, generators = inner.elt, [*generators, *inner.generators]
        return ast.Call(func=ast.Name(id=py, ctx=ast.Load()),
                        args=[ast.GeneratorExp(elt=test, generators=generators)], keywords=[]), "bool"
    return build


def _find(index: bool, last: bool = False) -> Any:
    """``find`` (``findIndex``) as the first element of a generator that passes the test;
    with ``last``, ``findLast`` (``findLastIndex``): the same loop over the array from its
    end, the index counting down (the callback has no effects, so only the order of its
    answers matters)."""
    def build(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...], start: int) -> tuple[ast.expr, str]:
        element = gen.element
        source, params, pynames, body = _loop(gen, items, args, start, pairs=True)
        test, _ = _in_scope(gen, params, pynames, body, element, test=True)
        pynames = (pynames or [gen.tmp()])[:]
        if index and len(pynames) == 1:
            pynames.append(gen.tmp())
        pynames = pynames[:2]
        gens = _generator(source, pynames, gen)
        if last:
            gens[0].iter = E("zip(range(len(L) - 1, -1, -1), reversed(L))" if len(pynames) == 2 else "reversed(L)",
                             L=source)
        gens[0].ifs.append(test)
        if index:
            return E("next(G, -1)", G=ast.GeneratorExp(elt=E("I", I=pynames[1]), generators=gens)), "int"
        return E("next(G, UNDEFINED)", G=ast.GeneratorExp(elt=_element(pynames[0]), generators=gens)), "any"
    return build


def _element(pyname: Any) -> ast.expr:
    """The loop's element (an entry's two names make the [key, value] list again)."""
    if isinstance(pyname, tuple):
        return ast.List(elts=[ast.Name(id=n, ctx=ast.Load()) for n in pyname], ctx=ast.Load())
    return ast.Name(id=pyname, ctx=ast.Load())


def _flat_map(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...], start: int) -> tuple[ast.expr, str]:
    mapped, _ = _map(gen, items, args, start)
    if isinstance(mapped, ast.ListComp) and isinstance(mapped.elt, ast.ListComp):
        # a callback that maps (a fresh array each time): one comprehension over both loops
        # (each bounded by MAX_ITEMS, as FLATTEN's total is)
        inner = mapped.elt
        return ast.ListComp(elt=inner.elt, generators=[*mapped.generators, *inner.generators]), "list"
    if isinstance(mapped, ast.ListComp):
        # any other callback: one comprehension too, a result array's elements taken at C
        # speed; an array past MAX_ITEMS (the total stays within FLATTEN's), a caller's tuple
        # (an array to the general tier) or another value: FLAT_ONE (one element, or refused)
        # (made in an ``if`` of the outer loop: a comprehension's inner iterable cannot bind)
        x, t = gen.tmp(), gen.tmp()
        made = E("type(T := X) is list and len(T) <= MAX_ITEMS or (T := FLAT_ONE(T))", T=t, X=mapped.elt)
        *outer, last = mapped.generators
        last = ast.comprehension(target=last.target, iter=last.iter, ifs=[*last.ifs, made], is_async=0)
        loop = ast.comprehension(target=ast.Name(id=x, ctx=ast.Store()), iter=ast.Name(id=t, ctx=ast.Load()),
                                 ifs=[], is_async=0)
        return ast.ListComp(elt=ast.Name(id=x, ctx=ast.Load()), generators=[*outer, last, loop]), "list"
    return E("FLATTEN(L)", L=mapped), "list"


def _flat(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...], start: int) -> tuple[ast.expr, str]:
    if args and not (isinstance(args[0], A.Literal) and args[0].value == 1 and type(args[0].value) is int):
        raise Unsupported
    return E("FLATTEN(L)", L=items), "list"


def _join_items(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...], start: int) -> tuple[ast.expr, str]:
    if len(args) > 1:
        raise Unsupported
    sep = _text_literal(args[0]) if args else ","
    if gen.element == "str":
        if len(sep) > 1:  # (a longer separator can make the text outgrow its parts: JOIN's check)
            return E("T if len(T := S.join(L)) <= N else DEOPT()", T=gen.tmp(), S=ast.Constant(sep), L=items,
                     N=ast.Constant(TEXT_LIMIT)), "str"
        return E("S.join(L)", S=ast.Constant(sep), L=items), "str"
    return E("JOIN(S, L)", S=ast.Constant(sep), L=items), "str"  # (numbers, null and undefined too)


def _includes_item(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...], start: int) -> tuple[ast.expr, str]:
    if len(args) != 1:
        raise Unsupported
    return E("V in L", V=ast.Constant(_text_literal(args[0])), L=items), "bool"


def _unpacks_entry(args: tuple[Any, ...]) -> bool:
    """``reduce((acc, [k, v]) => ...)``: a callback that unpacks each element (not fused with
    the filter before it, which then makes its array first)."""
    return bool(args) and isinstance(args[0], A.ArrowFunctionExpression) and len(args[0].params) >= 2 \
        and isinstance(args[0].params[1], A.ArrayPattern)


def _is_filter_call(gen: "NativeGen", node: Any) -> bool:
    return (isinstance(node, A.CallExpression) and not node.optional and isinstance(node.callee, A.MemberExpression)
            and not node.callee.optional and gen.static_key(node.callee) == "filter" and len(node.arguments) == 1
            and isinstance(node.arguments[0], A.ArrowFunctionExpression) and len(node.arguments[0].params) <= 1)


def _reduce(gen: "NativeGen", items: ast.expr, args: tuple[Any, ...], start: int,
            keep: Any = None) -> tuple[ast.expr, str]:
    """``reduce((acc, x) => ..., init)`` as a loop (without ``init``, from the first element). When the callback returns
    ``{...acc, <props not reading acc>}`` and ``init`` is a fresh object literal, each step
    writes into one accumulator instead of copying it: no one else can see the old ones.

    ``keep`` is the callback of a ``filter`` this reduce reads (``xs.filter(keep).reduce(...)``):
    both run in one loop. Callbacks here cannot have effects, so only a thrown error could
    tell the orders apart, and any error takes the general tier anyway."""
    if len(args) not in (1, 2) or gen.in_comprehension:
        raise Unsupported  # (its loop is a statement: none can stand in a comprehension)
    if len(args) == 1 and keep is not None:
        raise Unsupported  # (the first element kept would start it)
    if keep is None and len(args) == 2 and writes_accumulator(args[0], args[1]):
        return reduce_in_place(gen, items, args[0], args[1], start)
    params, body = _reduce_callback(gen, args[0])
    unpacked = isinstance(params[1], tuple)  # ((acc, [k, v]) => ...: an entry's key and value)
    if unpacked and keep is not None:
        raise Unsupported
    test_params, test_body = _callback(keep, 1) if keep is not None else ([], None)
    element = gen.element
    source = _bounded(gen, items, start, unpacked)
    acc, item = gen.tmp(), gen.tmp()
    parts = (gen.tmp(), gen.tmp()) if unpacked else None
    own: dict[str, tuple[str, str]] = {params[1]: (item, element)} if parts is None else {
        name: (py, ty) for name, py, ty in zip(params[1], parts, ("str", "any")) if name is not None}
    steps: ast.expr = E("L", L=source)
    if len(args) == 2:
        init, init_ty = gen.expr(args[1])
    else:
        # no initial value: the first element starts, the loop runs over the rest; an empty
        # array is a TypeError, which the general tier raises
        init, init_ty = E("L[0] if L else DEOPT()", L=source), element if element == "str" else "any"
        steps = E("L[1:]", L=source)
    gen.pre.append(ast.Assign(targets=[ast.Name(id=acc, ctx=ast.Store())], value=init))
    gen.conditional += 1  # the loop body may run zero times: its guards establish no facts
    gen.in_loop += 1
    saved_pre, gen.pre = gen.pre, []
    try:
        test = None
        if test_body is not None:
            gen.scopes.append({name: (item, element) for name in test_params})
            try:
                test = gen.truthy(*gen.expr(test_body))
            finally:
                gen.scopes.pop()
            test_pre, gen.pre = gen.pre, []
        typed = None
        if init_ty == "int":
            # a count or a sum from an integer: when the step gives a safe integer whenever the
            # accumulator is one, it is one on every step (no guard on it, no result walk)
            pending, counter = len(gen.pending), gen.counter
            gen.scopes.append({params[0]: (acc, "int"), **own})
            try:
                e, ty = gen.expr(body)
            finally:
                gen.scopes.pop()
            if ty == "int":
                typed = [*gen.pre, ast.Assign(targets=[ast.Name(id=acc, ctx=ast.Store())], value=e)]
            else:
                gen.pre, gen.counter = [], counter
                del gen.pending[pending:]
        gen.scopes.append({params[0]: (acc, "any"), **own})
        try:
            loop_body = typed or _accumulate_in_place(gen, body, params[0], acc,
                                                     len(args) == 2 and isinstance(args[1], A.ObjectExpression))
            result_ty = "int" if typed else "dict" if loop_body is not None else "any"
            if loop_body is None:
                e, _ = gen.expr(body)
                loop_body = [*gen.pre, ast.Assign(targets=[ast.Name(id=acc, ctx=ast.Store())], value=e)]
            elif not typed:
                loop_body = [*gen.pre, *loop_body]
        finally:
            gen.scopes.pop()
        if test is not None:
            loop_body = [*test_pre, ast.If(test=test, body=loop_body, orelse=[])]
    finally:
        gen.conditional -= 1
        gen.in_loop -= 1
        gen.pre = saved_pre
    target: ast.expr = ast.Name(id=item, ctx=ast.Store()) if parts is None else \
        ast.Tuple(elts=[ast.Name(id=py, ctx=ast.Store()) for py in parts], ctx=ast.Store())
    gen.pre.append(ast.For(target=target, iter=steps, body=loop_body, orelse=[]))
    return E("X", X=acc), result_ty


def _reduce_callback(gen: "NativeGen", node: Any) -> tuple[list[Any], Any]:
    """``reduce``'s callback ``(acc, x) => ...``; over ``Object.entries``, its element may be
    the pattern ``[k, v]`` (``[k]``, ``[, v]``): then a (k, v) tuple of names (None for a hole)."""
    if isinstance(node, A.ArrowFunctionExpression) and len(node.params) == 2 and gen.element == "entry" \
            and isinstance(node.params[0], A.Identifier) and isinstance(node.params[1], A.ArrayPattern):
        pair = _pair_names(node.params[1])
        _distinct([node.params[0].name, *pair])
        body = _callback(attrs.evolve(node, params=(node.params[0],)), 1)[1]  # (a block body's value, as usual)
        return [node.params[0].name, pair], body
    params, body = _callback(node, 2)
    if len(params) != 2:
        raise Unsupported
    return params, body


def _accumulate_in_place(gen: "NativeGen", body: Any, acc_name: str, acc: str, fresh: bool) -> list[ast.stmt] | None:
    assigns = _assigns_into(gen, body, acc_name)
    if fresh and assigns:
        return _assign_in_place(gen, assigns, acc_name, acc)
    if not (fresh and isinstance(body, A.ObjectExpression) and body.properties
            and isinstance(body.properties[0], A.SpreadElement)
            and isinstance(body.properties[0].argument, A.Identifier)
            and body.properties[0].argument.name == acc_name):
        return None
    rest = body.properties[1:]
    if any(isinstance(p, A.SpreadElement) or _mentions(p, acc_name) for p in rest):
        return None
    out: list[ast.stmt] = []
    for p in rest:
        assert isinstance(p, A.Property)
        if p.method:
            raise Unsupported
        key = gen.property_key(p)
        value, _ = gen.expr(p.value)
        out.append(ast.Assign(targets=[ast.Subscript(value=ast.Name(id=acc, ctx=ast.Load()), slice=key,
                                                     ctx=ast.Store())], value=value))
    return out


def _assigns_into(gen: "NativeGen", body: Any, acc_name: str) -> tuple[Any, ...] | None:
    """The members of ``{...}`` in ``Object.assign(acc, {...})``, a step that returns the
    accumulator it writes into (so, from a fresh literal, writes may go into one object)."""
    if not (isinstance(body, A.CallExpression) and not body.optional and len(body.arguments) == 2
            and isinstance(body.callee, A.MemberExpression) and not body.callee.optional
            and gen.is_global(body.callee.object, "Object") and gen.static_key(body.callee) == "assign"
            and isinstance(body.arguments[0], A.Identifier) and body.arguments[0].name == acc_name
            and isinstance(body.arguments[1], A.ObjectExpression) and body.arguments[1].properties):
        return None
    return body.arguments[1].properties


def _assign_in_place(gen: "NativeGen", members: tuple[Any, ...], acc_name: str, acc: str) -> list[ast.stmt] | None:
    """``Object.assign(acc, {k: v, ...})`` as writes into ``acc``. Object.assign sets each
    member on the target: the same keys and values, whatever order it takes them in (an index
    key sorts first in the target anyway), except ``__proto__``, whose setter would change the
    target's prototype: that key, and text that is not ASCII, take the general tier."""
    if any(not isinstance(p, A.Property) or p.method or p.kind != "init" or _mentions(p, acc_name) for p in members):
        return None
    out: list[ast.stmt] = []
    for p in members:
        assert isinstance(p, A.Property)
        key = gen.property_key(p)  # (a written __proto__ is refused there)
        if not isinstance(key, ast.Constant):
            key = E("K if (K := X).isascii() and K != '__proto__' else DEOPT()", K=gen.tmp(), X=key)
        value, _ = gen.expr(p.value)
        out.append(ast.Assign(targets=[ast.Subscript(value=ast.Name(id=acc, ctx=ast.Load()), slice=key,
                                                     ctx=ast.Store())], value=value))
    return out


def _mentions(node: Any, name: str) -> bool:
    return any(isinstance(n, A.Identifier) and n.name == name for n in walk(node))


_ARRAY_METHODS: dict[str, Any] = {
    "map": _map,
    "filter": _filter,
    "some": _quantifier("any"),
    "every": _quantifier("all"),
    "join": _join_items,
    "reduce": _reduce,
    "find": _find(False),
    "findIndex": _find(True),
    "findLast": _find(False, last=True),
    "findLastIndex": _find(True, last=True),
    "flatMap": _flat_map,
    "flat": _flat,
}
#: the methods above that loop over their receiver with a callback
_LOOP_METHODS = frozenset(["map", "filter", "some", "every", "reduce", "find", "findIndex", "flatMap", "fromEntries",
                           "findLast", "findLastIndex"])



# -- Object and JSON -------------------------------------------------------------------------
def _static_literal(node: Any) -> bool:
    """An object literal of plain members with static keys, none ``__proto__``."""
    return isinstance(node, A.ObjectExpression) and all(
        isinstance(p, A.Property) and not p.computed and not p.method and p.kind == "init"
        and (isinstance(p.key, A.Identifier) and p.key.name != "__proto__"
             or isinstance(p.key, A.Literal) and type(p.key.value) is str and p.key.value != "__proto__")
        for p in node.properties)


def _object_call(gen: "NativeGen", method: str, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    if method == "fromEntries" and len(args) == 1:
        return _from_entries(gen, args[0])
    if method == "assign" and args and isinstance(args[0], A.ObjectExpression):
        # onto a fresh literal: the sources' own keys in order, as spreads copy them
        # (a "__proto__" key would set the prototype there, not copy: the general tier)
        # (null and undefined sources copy nothing, as in JS; keys that are not strings: the
        # general tier converts or drops them; integer-like keys,
        # a ConfigMap's "10", are copied as a spread copies them, and the result's check puts
        # them in JS's order, as it does for a spread's)
        # A source that is an object literal of static keys (or a conditional between two)
        # has its keys known: it is written in as it stands, with no test of its keys
        keys: list[ast.expr | None] = []
        values: list[ast.expr] = []
        for i, a in enumerate(args):
            if i and not _static_literal(a) and not (isinstance(a, A.ConditionalExpression)
                                                    and _static_literal(a.consequent) and _static_literal(a.alternate)):
                keys.append(None)
                values.append(E("D if (KNOWN_KEYS(D := X) or PLAIN_KEYS(D) or JS_KEYS(D)) and '__proto__' not in D "
                                "else DEOPT()", D=gen.tmp(), X=gen.as_spread(*gen.expr(a, raw=True))))
                continue
            made = gen.object(a)[0] if isinstance(a, A.ObjectExpression) else gen.expr(a)[0]
            if isinstance(made, ast.Dict) and None not in made.keys:
                keys.extend(made.keys)
                values.extend(made.values)
            else:
                keys.append(None)
                values.append(made)
        return ast.Dict(keys=keys, values=values), "dict"
    if method == "hasOwn" and len(args) == 2:  # (as hasOwnProperty, for any object)
        obj, _ty = gen.expr(args[0], raw=True)
        gen.consumed(obj)
        return E("K in D if type(D := X) is dict and type(K := Y) is str and K.isascii() else DEOPT()", D=gen.tmp(),
                 K=gen.tmp(), X=obj, Y=gen.expr(args[1])[0]), "bool"
    if method not in ("keys", "values", "entries") or len(args) != 1:
        raise Unsupported
    obj, ty = gen.expr(args[0], raw=True)
    gen.note_fact(obj, "dict")
    d = gen.tmp()
    # (keys seen before: one C-level test; others: JS_KEYS, which remembers both answers, so an
    # object with an integer-like key is not looked at twice)
    guard = E("type(D := X) is dict and KNOWN_KEYS(D)", D=d, X=obj)
    form = {"keys": "list(D)", "values": "list(D.values())", "entries": "list(map(list, D.items()))"}[method]
    # (integer-like keys, such as a ConfigMap's "10", come first in JS: JS_KEYS orders them)
    slow = {"keys": "JS_KEYS(D)", "values": "[D[K] for K in JS_KEYS(D)]",
            "entries": "[[K, D[K]] for K in JS_KEYS(D)]"}[method]
    made = E(f"{form} if G else {slow}", D=d, G=guard, K=gen.tmp(), V=gen.tmp())
    if method == "keys":
        gen.object_keys[id(made)] = (made, obj)  # (see _sort)
    if method == "entries":
        gen.ordered[id(made)] = made  # (distinct keys in JS's order: see NativeGen.ordered)
    return made, {"keys": "strs", "values": "list", "entries": "entries"}[method]


def _from_entries(gen: "NativeGen", node: Any) -> tuple[ast.expr, str]:
    """``Object.fromEntries`` of pairs this script made (``Object.entries`` or a ``map`` to
    ``[k, v]``): a dict comprehension, later keys overwriting earlier ones in place, as JS
    does; a key that is not a string takes the general tier (it would be converted)."""
    start = len(gen.pending)
    pairs, ty = gen.expr(node, raw=True)
    if ty not in ("entries", "pairs"):
        raise Unsupported
    if isinstance(pairs, ast.ListComp) and isinstance(pairs.elt, ast.List) and len(pairs.elt.elts) == 2:
        # a map (or filter) to pairs straight into the object: no list of pairs in between
        # (its receiver is bounded already, and a map or filter makes no more elements)
        k = gen.tmp()
        key, value = pairs.elt.elts
        made: ast.expr = ast.DictComp(key=E("K if type(K := X) is str else DEOPT()", K=k, X=key), value=value,
                                      generators=pairs.generators)
    else:
        ordered = id(pairs) in gen.ordered
        source = _bounded(gen, pairs, start)  # (a comprehension's iterable may not hold walrus targets)
        k, v = gen.tmp(), gen.tmp()
        made = E("{(K if type(K) is str else DEOPT()): V for K, V in P}", K=k, V=v, P=source)
        if not ordered:
            return made, "dict"
    if id(pairs) in gen.ordered:
        gen.ordered[id(made)] = made  # (the entries' distinct keys, in their order)
    return made, "dict"


def _stringify(gen: "NativeGen", node: Any) -> ast.expr:
    """``JSON.stringify`` of an object or array literal: the constant text is built at compile
    time, the values are quoted at run time (strings ASCII, numbers safe integers)."""
    parts: list[ast.expr | str] = []
    _stringify_into(gen, node, parts)
    merged: list[ast.expr] = []
    for p in parts:
        last = merged[-1] if merged else None
        if isinstance(p, str) and isinstance(last, ast.Constant) and isinstance(last.value, str):
            merged[-1] = ast.Constant(last.value + p)
        else:
            merged.append(ast.Constant(p) if isinstance(p, str) else p)
    out = merged[0]
    for p in merged[1:]:
        out = E("A + B", A=out, B=p)
    return out


def _stringify_into(gen: "NativeGen", node: Any, parts: list[ast.expr | str]) -> None:
    if isinstance(node, A.ObjectExpression):
        parts.append("{")
        seen: set[str] = set()
        computed = [p for p in node.properties if isinstance(p, A.Property) and p.computed
                    and not isinstance(p.key, A.Literal)]
        if len(computed) > 1:
            raise Unsupported
        static = tuple(k.value for p in node.properties if isinstance(p, A.Property) and p not in computed
                       and isinstance(k := gen.property_key(p), ast.Constant) and isinstance(k.value, str))
        for i, p in enumerate(node.properties):
            if not isinstance(p, A.Property) or p.method:
                raise Unsupported
            if p in computed:
                # ({[k]: v}): a key made at run time, ASCII text other than the written keys
                # and not starting with a digit (no index: JS writes those first)
                kx = gen.expr(p.key)[0]
                parts.append("," if i else "")
                parts.append(E("JSON_STRING(K) if type(K := X) is str and K.isascii() and not K[:1].isdigit() "
                               "and K not in S else DEOPT()", K=gen.tmp(), X=kx, S=_strings(static)))
                parts.append(":")
                _stringify_into(gen, p.value, parts)
                continue
            key = gen.property_key(p)
            text = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
            if text is None or not text.isascii() or text in seen or text[:1].isdigit():
                raise Unsupported  # a repeated key or an index key changes the order JS writes
            seen.add(text)
            parts.append(("," if i else "") + json.dumps(text) + ":")
            _stringify_into(gen, p.value, parts)
        parts.append("}")
        return
    if isinstance(node, A.ArrayExpression):
        parts.append("[")
        for i, el in enumerate(node.elements):
            if el is None or isinstance(el, A.SpreadElement):
                raise Unsupported
            if i:
                parts.append(",")
            _stringify_into(gen, el, parts)
        parts.append("]")
        return
    if isinstance(node, A.Literal) and (node.value is None or type(node.value) in (bool, int, str)):
        if type(node.value) is str and not node.value.isascii():
            raise Unsupported
        if type(node.value) is int and abs(node.value) > 2**53:
            raise Unsupported
        parts.append(json.dumps(node.value))
        return
    e, ty = gen.expr(node, raw=True)
    if ty in ("ascii", "str"):
        parts.append(E("JSON_STRING(X)", X=e))
    elif ty == "int":
        parts.append(E("str(X)", X=e))
    elif ty == "any":
        parts.append(E("JSON_SCALAR(X)", X=e))  # checks ASCII itself
    elif ty in (*_LISTS, "dict"):
        # (an array or object the script made, never undefined: JSON_TEXT writes plain JSON
        # data and refuses the rest, floats and keys JS would reorder among them)
        parts.append(E("JSON_TEXT(X)", X=e))
    else:
        raise Unsupported


# -- a regex match read at a group index ------------------------------------------------------
def indexed_match(gen: "NativeGen", node: Any) -> tuple[ast.expr, str] | None:
    """``s.match(/re/)[n]`` and ``s.match(/re/)?.[n]`` (a literal index, no g flag): the group,
    read straight from Python's match. Only read at an index, the match array is never seen,
    so its own members (``index``, ``input``, ``groups``, which Object.keys or a spread would
    show) need no stand-in. A member read after ``?.[n]`` on no match, which JS short-circuits,
    fails here (the general tier answers). None when ``node`` is not such a read."""
    read = node.expression if isinstance(node, A.ChainExpression) else node
    if not (isinstance(read, A.MemberExpression) and read.computed and isinstance(read.property, A.Literal)
            and type(read.property.value) is int and read.property.value >= 0):
        return None
    match = read.object
    if not (isinstance(match, A.CallExpression) and not match.optional and len(match.arguments) == 1
            and isinstance(match.arguments[0], A.RegExpLiteral) and "g" not in match.arguments[0].flags
            and isinstance(match.callee, A.MemberExpression) and not match.callee.optional
            and not match.callee.computed and isinstance(match.callee.property, A.PropertyName)
            and match.callee.property.name == "match"):
        return None
    if any(getattr(n, "optional", False) for n in walk(match.callee.object)) \
            or _repeated_capture(match.arguments[0].pattern):
        raise Unsupported  # (an optional chain below the match; a capture JS resets when repeated)
    rx, limit = _regex(gen, match.arguments[0], allow_global=False)
    subject = gen.expr(match.callee.object, raw=True)[0]
    return E("MATCH_GROUP(R, N, X, K, O)", R=rx, N=ast.Constant(limit), X=subject,
             K=ast.Constant(read.property.value), O=ast.Constant(read.optional)), "any"


def _match_groups(gen: "NativeGen", receiver: Any, args: tuple[Any, ...]) -> tuple[ast.expr, str]:
    """The groups of ``s.match(/re/)`` (no g flag) as a list (undefined for a group that took
    no part), or null: the match array's own members are never read (see ``MATCH_GROUPS``)."""
    if not (len(args) == 1 and isinstance(args[0], A.RegExpLiteral) and "g" not in args[0].flags) \
            or _repeated_capture(args[0].pattern):
        raise Unsupported
    rx, limit = _regex(gen, args[0], allow_global=False)
    return E("MATCH_ARRAY(R, N, X)", R=rx, N=ast.Constant(limit), X=gen.expr(receiver, raw=True)[0]), "any"


def _repeated_capture(pattern: str) -> bool:
    """Does a repeated group hold a capturing group (``(?:(a)|b)+``)? JS clears such a
    capture on each repetition, Python keeps the last one that matched. An optional group
    (``(?:(a)/)?``) runs at most once, so there is no repetition to clear between (a capture
    of an attempt given up is dropped by both engines)."""
    groups: list[list[bool]] = []  # per open group: [is capturing, holds a capture]
    for i in group_parens(pattern):
        if pattern[i] == "(":
            capturing = not pattern.startswith("(?", i) or pattern.startswith("(?<", i) \
                and not pattern.startswith(("(?<=", "(?<!"), i)
            if capturing and groups:
                for g in groups:
                    g[1] = True
            groups.append([capturing, False])
        elif groups:
            _capturing, holds = groups.pop()
            if holds and pattern[i + 1:i + 2] in ("*", "+", "{"):
                return True
    return False
