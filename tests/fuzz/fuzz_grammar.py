"""Hypothesis strategies: random patch scripts from the supported syntax, and random values.

Not a test module. ``scripts()`` builds whole scripts: declarations (``let``/``const`` with
destructuring), statements (``if``, bounded ``for``/``for-of``/``for-in``/``while``,
``try``/``catch``/``finally``, ``switch``, blocks, ``throw``) and a final expression whose
value is the completion value. Expressions cover literals (numbers incl. -0/NaN/1e21,
strings with escapes and astral characters, template literals, regex literals), arrays and
objects with spread and computed keys, member access and optional chaining, calls of a fixed
list of built-in methods, unary/binary/logical/conditional operators, arrows (expression and
block bodies, destructured and default parameters) and assignments to declared names.

Every loop is bounded by construction, so a script either finishes or trips a small budget.
``core_scripts()`` is the subset compared with node (expressions only over plain values).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from hypothesis import strategies as st

NAMES = ["a", "b", "c"]
PARAMS = ["x", "y"]

NUMBERS = ["0", "1", "2", "-1", "3.5", "0.1", "1e21", "-0", "NaN", "Infinity", "2 ** 53", "0x1f", "1_000",
           "Number.MAX_SAFE_INTEGER", "0.5e-7", "255"]
STRINGS = ["''", "'a'", "'abc'", "'Hello World'", "'a-b_c.d'", "'10'", "' x '", "'\\n'", "'\\u00e9'", "'😀'",
           "'\\ud83d'", "\"q'uote\"", "'k8s.io/name'", "'-'", "'true'", "'null'", "'[1,2]'", "'{\"a\":1}'"]
NUMBER_METHODS = ["toFixed(2)", "toFixed(0)", "toPrecision(3)", "toExponential(1)", "toString(2)",
                  "toString(36)", "toString(16)", "toLocaleString()", "valueOf()"]
REGEXES = ["/a/", "/a/g", "/[a-z]+/gi", "/(\\d+)-(\\d+)/", "/^k/", "/\\s+/g", "/x*/g", "/(?<n>b)/", "/./gu"]
METHODS_ANY = ["toString()", "valueOf()"]
METHODS_STR = ["length", "toUpperCase()", "toLowerCase()", "trim()", "split('')", "split('-')", "slice(1)",
               "slice(-2, 5)", "at(-1)", "charAt(0)", "charCodeAt(0)", "indexOf('a')", "includes('b')",
               "startsWith('a')", "endsWith('c')", "padStart(5, '*')", "padEnd(4)", "repeat(2)",
               "replace('a', 'z')", "replaceAll('a', '$&$&')", "replace(/a/g, (m) => m + m)", "concat('!')",
               "substring(1, 3)", "localeCompare('b')", "normalize()", "match(/a/)", "search(/b/)",
               "codePointAt(0)", "trimStart()", "split(/(-)/)"]
METHODS_ARR = ["length", "join()", "join('-')", "slice(1)", "concat([1], 2)", "includes(1)", "indexOf(2)",
               "reverse()", "flat()", "flat(Infinity)", "at(0)", "keys().next()", "fill(0, 1)", "lastIndexOf(1)",
               "sort()", "sort((p, q) => p < q ? -1 : 1)", "map((x) => x)", "map(String)", "filter(Boolean)",
               "filter((x, i) => i % 2)", "reduce((acc, x) => acc + x, 0)", "reduceRight((acc, x) => [x, acc], [])",
               "some((x) => x)", "every((x) => x)", "find((x) => x)", "findIndex((x) => !x)", "findLast((x) => x)",
               "flatMap((x) => [x, x])", "entries().next().value", "toSorted()", "toReversed()", "with(0, 'w')",
               "push(1)", "pop()", "shift()", "unshift(0)", "splice(1, 1)", "copyWithin(0, 1)", "forEach(() => 1)"]
GLOBAL_CALLS = ["Object.keys({0})", "Object.values({0})", "Object.entries({0})", "JSON.stringify({0})",
                "JSON.stringify({0}, null, 2)", "String({0})", "Number({0})", "Boolean({0})", "Array.isArray({0})",
                "Array.from({0})", "parseInt({0})", "parseFloat({0})", "isNaN({0})", "Math.max({0}, 1)",
                "Math.floor({0})", "Math.abs({0})", "Math.round({0})", "Object.assign({{}}, {0})",
                "Object.fromEntries(Object.entries({0}))", "encodeURIComponent({0})", "btoa(String({0}))",
                "[...String({0})]", "Array.of({0})", "Number.isInteger({0})", "JSON.parse(JSON.stringify({0}))",
                "typeof {0}", "Object.freeze({0})", "structuredCloneLike({0})".replace("structuredCloneLike", "String"),
                "new Map([[{0}, 1]]).size", "new Set([{0}, {0}]).size", "Object.keys({0} ?? {{}}).length"]
BINOPS = ["+", "-", "*", "/", "%", "**", "==", "!=", "===", "!==", "<", ">", "<=", ">=", "&&", "||", "??", "&", "|",
          "^", "<<", ">>", ">>>"]
UNOPS = ["!", "-", "+", "typeof ", "void ", "~"]

_json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000),
                          st.floats(allow_nan=False, allow_infinity=False, width=64),
                          st.text(max_size=8))
json_values = st.recursive(_json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)), max_leaves=12)


def _lit_text(s: str) -> str:
    return json.dumps(s)


@st.composite
def _string_literal(draw: Any) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(STRINGS))
    return _lit_text(draw(st.text(max_size=6)))


def _leaf(names: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(NUMBERS), _string_literal(), st.sampled_from(["true", "false", "null", "undefined"]),
        st.sampled_from(["value", "context", "valueExists", "value?.metadata", "context?.vcluster?.name",
                         *names]),
        st.just("[]"), st.just("{}"), st.sampled_from(REGEXES).map(lambda r: f"{r}.source"),
    )


#: Known bugs of other stages (each one replayed from ``corpus/`` as a strict xfail) that the
#: *default* runs steer around, so they stay green and keep finding new things; the long
#: runs (``-m fuzz_long``) use the raw grammar. Keys: what the masking changes.
KNOWN_BUG_MASKS: dict[str, str] = {
    # none open today; fixed ones: object/array computed keys, duplicate __proto__, TDZ writes
}


def _key(x: str, masked: bool) -> str:
    return x  # object/array keys ended in InternalError until fixed (corpus/script-object-key-*.json)


def _compound(names: list[str], masked: bool) -> Any:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        e = inner
        return st.one_of(
            st.tuples(e, st.sampled_from(BINOPS), e).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(st.sampled_from(UNOPS), e).map(lambda t: f"({t[0]}{t[1]})"),
            st.tuples(e, e, e).map(lambda t: f"({t[0]} ? {t[1]} : {t[2]})"),
            st.lists(st.one_of(e, e.map(lambda x: f"...{_spreadable(x)}")), max_size=4).map(
                lambda xs: "[" + ", ".join(xs) + "]"),
            st.lists(st.tuples(st.sampled_from(["k", "a", "'x-y'", "0", "[`k${1}`]", "metadata", "__proto__"]),
                               e), max_size=3).map(
                lambda kv: "({" + ", ".join(f"{k}: {v}" for k, v in kv) + "})"),
            st.tuples(e, e).map(lambda t: f"({{...{_spreadable(t[0])}, z: {t[1]}}})"),
            st.tuples(e, st.sampled_from(["k", "metadata", "length", "name", "0", "a"])).map(
                lambda t: f"{_paren(t[0])}.{t[1]}" if not t[1].isdigit() else f"{_paren(t[0])}[{t[1]}]"),
            st.tuples(e, st.sampled_from(["k", "metadata", "name", "x"])).map(lambda t: f"{_paren(t[0])}?.{t[1]}"),
            st.tuples(e, e).map(lambda t: f"{_paren(t[0])}?.[{_key(t[1], masked)}]"),
            st.tuples(e, e).map(lambda t: f"{_paren(t[0])}[{_key(t[1], masked)}]"),
            st.tuples(e, st.sampled_from(METHODS_STR)).map(lambda t: f"String({t[0]}).{t[1]}"),
            st.tuples(e, st.sampled_from(METHODS_ARR)).map(lambda t: f"[{t[0]}, 2, {t[0]}].{t[1]}"),
            st.tuples(e, st.sampled_from(METHODS_ANY)).map(lambda t: f"{_paren(t[0])}?.{t[1]}"),
            st.tuples(st.sampled_from(GLOBAL_CALLS), e).map(lambda t: t[0].format(t[1])),
            st.lists(st.one_of(st.text(alphabet="ab $`\\{}", max_size=4), e.map(lambda x: "${" + x + "}")),
                     max_size=4).map(_template),
            st.tuples(st.sampled_from(PARAMS), e).map(lambda t: f"(({t[0]}) => {t[1]})(1)"),
            st.tuples(e, e).map(lambda t: f"(({{k = {t[0]}}} = {{}}) => k)({t[1]} && {{}})"),
            st.tuples(e, e).map(lambda t: f"(([p, q = 2]) => [q, p])([{t[0]}, {t[1]}])"),
            st.tuples(e, e).map(lambda t: f"((x) => {{ const y = {t[0]}; return [x, y]; }})({t[1]})"),
            st.tuples(st.sampled_from(names), e).map(lambda t: f"({t[0]} = {t[1]})"),
            st.tuples(st.sampled_from(names), e).map(lambda t: f"({t[0]} += {t[1]})"),
            st.tuples(st.sampled_from(names), e).map(lambda t: f"({t[0]} ??= {t[1]})"),
            st.tuples(e, e).map(lambda t: f"({t[0]}, {t[1]})"),
            st.tuples(e, st.sampled_from(REGEXES)).map(lambda t: f"String({t[0]}).replace({t[1]}, '<$&>')"),
            st.tuples(e, e).map(lambda t: f"({t[0]} in {{a: 1, k: 2}})"),
            st.tuples(e, st.sampled_from(NUMBER_METHODS)).map(lambda t: f"Number({t[0]}).{t[1]}"),
            st.tuples(e, e).map(lambda t: f"new Map([[{t[0]}, {t[1]}]]).get({t[0]})"),
            st.tuples(e, e).map(lambda t: f"[...new Set([{t[0]}, {t[1]}, {t[0]}])]"),
            st.tuples(e, e).map(lambda t: f"Math.max(...[{t[0]}, {t[1]}].map(Number))"),
            st.tuples(e, e).map(lambda t: f"String.raw`a${{{t[0]}}}\\n${{{t[1]}}}`"),
            st.tuples(e, e).map(lambda t: f"(function f(n, m = {t[0]}) {{ return n > 0 ? f(n - 1, m) : [m, "
                                          f"arguments.length]; }})({t[1]} ? 2 : 1)"),
            st.tuples(e, e).map(lambda t: f"(() => {{ const o = {{a: {t[0]}, b: {t[1]}}}; delete o.a; "
                                          f"return Object.keys(o); }})()"),
            st.tuples(e).map(lambda t: f"({t[0]} instanceof Array)"),
            st.tuples(e, e).map(lambda t: f"JSON.stringify({{x: {t[0]}, y: [{t[1]}]}}, (k, v) => "
                                          f"typeof v === 'number' ? v + 1 : v)"),
            st.tuples(e, st.sampled_from(REGEXES)).map(lambda t: f"[...String({t[0]}).matchAll(new RegExp("
                                                                  f"{t[1]}.source, 'g'))].length"),
            st.tuples(e, st.sampled_from(REGEXES)).map(lambda t: f"({t[1]}).exec(String({t[0]}))"),
            st.tuples(e).map(lambda t: f"(() => {{ try {{ return {t[0]}; }} finally {{ }} }})()"),
            st.tuples(e, e).map(lambda t: f"((...r) => r.length + r.join())({t[0]}, ...[{t[1]}])"),
        )
    return extend


def _spreadable(x: str) -> str:
    return f"[{x}]" if not x.startswith("[") else x


def _paren(x: str) -> str:
    return x if x.isidentifier() else f"({x})"


def _template(parts: list[str]) -> str:
    out = []
    for p in parts:
        if p.startswith("${"):
            out.append(p)
        else:
            out.append(p.replace("\\", "\\\\").replace("`", "\\`").replace("${", "$\\{"))
    return "`" + "".join(out) + "`"


def expressions(names: list[str] | None = None, max_leaves: int = 8, masked: bool = True) -> st.SearchStrategy[str]:
    return _expressions(tuple(names or NAMES), max_leaves, masked)


@functools.lru_cache(maxsize=None)
def _expressions(names: tuple[str, ...], max_leaves: int, masked: bool) -> st.SearchStrategy[str]:
    """Built once per (names, size): constructing the strategy is far costlier than drawing."""
    return st.recursive(_leaf(list(names)), _compound(list(names), masked), max_leaves=max_leaves)


@st.composite
def statements(draw: Any, depth: int = 0, masked: bool = True) -> str:
    e = expressions(max_leaves=4, masked=masked)
    kinds = ["expr", "assign", "if", "for", "forof", "forin", "while", "try", "switch", "block", "throw", "member",
             "dowhile", "labelled", "function"]
    if depth >= 2:
        kinds = ["expr", "assign", "member"]
    kind = draw(st.sampled_from(kinds))
    inner = lambda: draw(st.lists(statements(depth + 1, masked), min_size=0, max_size=2)).__iter__()  # noqa: E731
    body = lambda: " ".join(inner())  # noqa: E731
    n = draw(st.sampled_from(NAMES))
    if kind == "expr":
        return f"{draw(e)};"
    if kind == "assign":
        return f"{n} = {draw(e)};"
    if kind == "member":
        return f"if ({n} && typeof {n} === 'object') {n}.k = {draw(e)};"
    if kind == "if":
        return f"if ({draw(e)}) {{ {body()} }} else {{ {body()} }}"
    if kind == "for":
        return f"for (let i = 0; i < {draw(st.integers(0, 4))}; i++) {{ {body()} }}"
    if kind == "forof":
        return f"for (const x of [{draw(e)}, {draw(e)}]) {{ {n} = x; {body()} }}"
    if kind == "forin":
        return f"for (const x in ({draw(e)}) || {{}}) {{ {n} = x; {body()} }}"
    if kind == "while":
        return f"{{ let w = 0; while (w++ < {draw(st.integers(0, 3))}) {{ {body()} }} }}"
    if kind == "try":
        return f"try {{ {body()} }} catch (err) {{ {n} = String(err); }} finally {{ {body()} }}"
    if kind == "switch":
        return f"switch ({draw(e)}) {{ case 1: {body()} break; case 'a': {n} = 2; default: {body()} }}"
    if kind == "block":
        return f"{{ let {n} = {draw(e)}; {body()} }}"
    if kind == "dowhile":
        return f"{{ let d = 0; do {{ {body()} }} while (++d < {draw(st.integers(0, 3))}); }}"
    if kind == "labelled":
        return (f"outer: for (const x of [1, 2, 3]) {{ for (const y of [x, {draw(e)}]) {{ if (y === 2) continue outer; "
                f"if (y === 3) break outer; {n} = [x, y]; }} }}")
    if kind == "function":
        return f"function fn{depth}(p) {{ {body()} return [p, {draw(e)}]; }} {n} = fn{depth}({draw(e)});"
    return f"if ({draw(e)}) throw new TypeError(String({draw(e)}));"


@st.composite
def scripts(draw: Any, masked: bool = True) -> str:
    """A whole script: declarations, statements, and a final completion expression."""
    decls = []
    for n in NAMES:
        kw = draw(st.sampled_from(["let", "let", "var"]))
        decls.append(f"{kw} {n} = {draw(expressions(names=NAMES[:NAMES.index(n)] or ['value'], max_leaves=4, masked=masked))};")
    if draw(st.booleans()):
        decls.append(f"const {{k: dk = 1, ...rest}} = ({draw(expressions(max_leaves=3, masked=masked))}) || {{}};")
        tail_names = [*NAMES, "dk", "rest"]
    else:
        tail_names = NAMES
    body = draw(st.lists(statements(0, masked), max_size=4))
    final = draw(expressions(names=tail_names, max_leaves=6, masked=masked))
    return " ".join([*decls, *body, final])


@st.composite
def core_scripts(draw: Any, masked: bool = True) -> str:
    """Expression scripts compared with node: the same grammar without statements."""
    decl = f"const a = {draw(expressions(names=['value'], max_leaves=4, masked=masked))}; let b = 1, c = 'c';"
    return decl + " " + draw(expressions(names=NAMES, max_leaves=7, masked=masked))
