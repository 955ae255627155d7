#!/usr/bin/env python3
"""Seeded generator of random JS patch expressions in the style of the oracle corpus.

    python3 tests/differential/gen_cases.py --seed 1 -n 5000 -o /tmp/gen.jsonl [--node]

Composes typed random expressions (string / number / boolean / array / object / any) over the
same k8s-flavoured values and contexts as tests/data/oracle/public.jsonl, plus "probe" cases
that call every built-in method with odd arguments.  With ``--node`` every case is evaluated by
the oracle's ``node_eval.js`` (batched, one node process per few thousand cases) and written in
corpus format ({"id", "family", "expr", "value", "context", "expect"}); excluded cases are
dropped.  Run the result with ``run_oracle.py FILE``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
from pathlib import Path

ORACLE = Path(__file__).resolve().parents[1] / "data" / "oracle"
NODE_EVAL = str(ORACLE / "node_eval.js")

# ---------------------------------------------------------------------------------------------
# values and contexts (shapes copied from the public corpus)
# ---------------------------------------------------------------------------------------------

CONTEXTS = [
    {"vcluster": {"name": "vc-2", "namespace": "team-b", "config": {}}, "hostObject": None,
     "virtualObject": {"metadata": {"name": "web", "namespace": "default"},
                       "spec": {"ports": [{"name": "http", "port": 80}]}}, "path": "spec.ports[0].name"},
    {"vcluster": {"name": "prod", "namespace": "vcluster-prod",
                  "config": {"sync": {"toHost": {"ingresses": {"enabled": True}}}}},
     "hostObject": {"metadata": {"name": "web-x-default-x-prod", "annotations": {"example.com/x": "host"}}},
     "virtualObject": None, "path": "metadata.annotations[\"example.com/x\"]"},
    {"vcluster": {"name": "my-vcluster", "namespace": "vcluster-my-vcluster",
                  "config": {"sync": {"toHost": {"pods": {"enabled": True}, "services": {"enabled": True}},
                                      "fromHost": {"nodes": {"enabled": False}}},
                             "controlPlane": {"distro": {"k8s": {"enabled": True}}},
                             "experimental": {"multiNamespaceMode": {"enabled": False}}}},
     "hostObject": {"metadata": {"name": "web-7f9c-abcde-x-default-x-my-vcluster",
                                 "namespace": "vcluster-my-vcluster",
                                 "labels": {"vcluster.loft.sh/namespace": "default", "app": "nginx"}}},
     "virtualObject": {"metadata": {"name": "web-7f9c-abcde", "namespace": "default", "labels": {"app": "nginx"}}},
     "path": "metadata.labels"},
]

PUBLIC = ORACLE / "public.jsonl"


def load_values() -> list:
    vals, seen = [], set()
    if PUBLIC.exists():
        for line in PUBLIC.read_text("utf-8").splitlines():
            v = json.loads(line)["value"]
            k = json.dumps(v, sort_keys=False)
            if k not in seen:
                seen.add(k)
                vals.append(v)
    extra = ["kubernetes", "my-prefix-web", "a,b,,c", " 12 ", "1e3", "0x1F", "-0", "", "😀x😀",
             "\ud83d", "İstanbul", "straße", [3, 1, 2, 10, 1], [" a", "b ", ""], [None, True, 0, "0"],
             {"$number": "NaN"}, {"$number": "-0"}, {"$number": "Infinity"}, -1.5, 1e21, 0.1,
             {"a": 1, "s": "abc", "list": [1, 2, 3], "o": {"x": 1}, "n": None, "u": {"$undefined": True}}]
    for v in extra:
        k = json.dumps(v)
        if k not in seen:
            seen.add(k)
            vals.append(v)
    return vals


STRS = ["'app'", '"nginx"', "'é'", "'İ'", "'ß'", "'😀'", "'a=1'", "'$&'", "'$1'", "'$2$1'", "'$<n>'", "\"$'\"",
        "'tab\\tsep'", "'  pad  '", "'line\\nbreak'", "''", "'0x1F'", "' 42 '", "'1e3'", "'abc'", "'x-y-z'",
        "'ÄÖü'", "'10'", "'-'", "'='", "'Hello'", "'kube-system'", "'default'", "'example.com/x'", "'web-7f9c'",
        "'a,b,c'", "'1,2,3'", "'.'", "'/'", "'true'", "'null'", "'undefined'", "'NaN'", "'Infinity'", "'-0'",
        "'3.14'", "'ﬀ'", "'\\u0130'", "'Σ'", "'ΑΣ'", "'\\u00a0x\\u00a0'", "'%'", "'%E0%A4%A'", "'aGVsbG8='",
        "'YWRtaW4='", "'MiXeD'", "'camelCase'", "'snake_case'", "'a b  c'", "'\\ud83d'", "'\\ude00'", "' '",
        "'0'", "'00'", "'0b11'", "'0o7'", "'+5'", "'-5'", "'5e-324'", "'1_000'", "'.5'", "'5.'"]
NUMS = ["0", "1", "(-7)", "2.5", "0.1", "3.14159", "42", "255", "65535", "2147483648", "9007199254740992",
        "1e21", "1e-7", "1e+300", "NaN", "Infinity", "(-0)", "100", "1000", "10", "3", "8080", "(-1)", "0.5",
        "2", "(-2.5)", "4294967295", "(-2147483649)", "1.005", "123.456", "5e-324", "1.7976931348623157e308",
        "0.000001", "1e-6", "(2**31)", "(2**32)", "(2**53+2)", "(-Infinity)", "0xff", "0b101", "0o17", "1_000",
        "(1/3)", "(-1e21)", "99.99", "8.345", "1.45", "(-1.5)", "0.3", "16", "36", "37", "21", "101"]
ODD = ["undefined", "null", "NaN", "-1", "-0", "0", "1", "2", "3.7", "-3.7", "100", "1e21", "-1e21", "Infinity",
       "-Infinity", "2**32", "2**32+1", "-(2**31)", "'2'", "'-1'", "'abc'", "''", "' '", "true", "false", "[]",
       "[2]", "[1,2]", "{}", "({valueOf(){return 1}})", "({toString(){return 'x'}})", "/a/g", "'a'", "'$&'",
       "0.5", "1.5", "-0.5", "'1e3'", "2**53", "[,]", "Symbol.iterator"]
KEYS = ["name", "namespace", "labels", "annotations", "app", "ports", "spec", "metadata", "length", "0", "1",
        "2", "items", "data", "x", "constructor", "toString", "__proto__", "valueOf", "hasOwnProperty",
        "example.com/x", "key with space", "", "ключ", "ü", "10", "02", "-1", "1.5", "count", "enabled", "id"]
CTX_PATHS = ["context.vcluster.name", "context.vcluster.namespace", "context.path", "context.hostObject",
             "context.virtualObject", "context.vcluster.config", "context.hostObject?.metadata?.name",
             "context.virtualObject?.metadata?.namespace", "context.hostObject?.metadata.labels?.app",
             "context.virtualObject?.spec?.ports", "context.vcluster", "context",
             "context.hostObject?.metadata?.annotations?.['example.com/x']",
             "context.virtualObject?.metadata?.labels?.app", "context.vcluster?.name"]
REGEXES = ["/o/g", "/a/", "/[-.]/", "/(\\w+)-(\\w+)/", "/\\d+/g", "/^www\\./", "/[^a-z0-9-]/gi", "/(?:)/g",
           "/\\s+/", "/(a)|(b)/g", "/-/g", "/(?<n>[a-z]+)/", "/(?<n>[a-z]+)/g", "/x*/g", "/$/", "/^/gm",
           "/(\\d)+/", "/[aeiou]/gi", "/./gu", "/./g", "/\\b\\w/g", "/(?<!-)\\b\\w/g", "/(?=a)/g", "/\\p{L}+/gu",
           "/[\\u{1F600}]/u", "/a|ab/", "/(x)?y/g", "/\\W/y", "/e/i", "/(.)(.)?/g", "/[😀]/", "/./su", "/\\./g",
           "/:/", "/=+$/", "/(?<a>.)(?<b>.)/g", "/\\B/g", "/k/dg"]
RE_SRC = ["'a'", "'[a-z]+'", "'\\\\d'", "'.'", "'('", "'x*'", "'^'", "'/'", "'\\\\'"]
FLAGS = ["''", "'g'", "'gi'", "'y'", "'u'", "'gu'", "'x'", "'gg'", "'s'", "'d'", "'v'"]


INDENTS = ['2', '"--"', '0', '11', '"\\t"']
DATESTRS = STRS + ['"2024-01-01T00:00:00Z"', '"2024-01-01"', '"2024-13-01"']
INKEYS = STRS + ['0', '1', '2', '"length"']
JSONTEXTS = ['"{\\"a\\":1,\\"2\\":[true]}"', '"[1]"', '"null"', '" 1 "', '"{\\"__proto__\\":1}"']
ALEN = ['3', '0', '2.5', "'2'"]
ALEN2 = ['3', '0', '-1', '2.5', "'3'"]
FE_KEYS = ['k.toUpperCase()', 'String(v)', 'k.split("/").pop()', 'k']
FE_FILTERS = ['k.length > 2', 'v != null', 'k < "m"', '!k.includes("/")', 'typeof v === "string"']
MATCHALL_RES = ['/o/g', '/\\d+/g', '/(\\w)(\\w)?/g', '/(?<k>[a-z])/g', '/-/g', '/(?:)/g']


class Gen:
    def __init__(self, rnd: random.Random, value, ctx) -> None:
        self.r = rnd
        self.value = value
        self.ctx = ctx
        self.depth = 0

    def ch(self, seq):
        return self.r.choice(seq)

    def p(self, x: float) -> bool:
        return self.r.random() < x

    # paths into value/context that (usually) exist
    def path_into(self, root: str, v, lim: int = 4) -> str:
        expr = root
        for _ in range(self.r.randint(0, lim)):
            opt = "?." if self.p(0.25) else ""
            if isinstance(v, dict) and v and self.p(0.85):
                k = self.ch(list(v))
                v = v[k]
            elif isinstance(v, list) and v and self.p(0.85):
                k = self.r.randrange(len(v)) if self.p(0.9) else self.ch([-1, len(v), 100])
                v = v[k] if 0 <= k < len(v) else None
                expr += f"{opt}[{k}]" if opt == "" else f"?.[{k}]"
                continue
            else:
                k = self.ch(KEYS)
                v = None
            if k.isidentifier() and self.p(0.8):
                expr += f"{opt or '.'}{k}"
            else:
                q = self.ch(["'", '"'])
                expr += f"{'?.' if opt else ''}[{q}{k}{q}]"
            if v is None:
                break
        return expr

    def vpath(self) -> str:
        return self.path_into("value", self.value)

    def cpath(self) -> str:
        if self.p(0.5):
            return self.ch(CTX_PATHS)
        return self.path_into("context", self.ctx)

    def leaf(self) -> str:
        return self.ch([self.vpath, self.cpath, lambda: self.ch(STRS), lambda: self.ch(NUMS),
                        lambda: self.ch(["true", "false", "null", "undefined", "[]", "({})", "value"])])()

    def sub(self, kind: str) -> str:
        self.depth += 1
        try:
            if self.depth > 4 or self.p(0.15 * self.depth):
                return {"s": lambda: self.ch(STRS), "n": lambda: self.ch(NUMS),
                        "b": lambda: self.ch(["true", "false"]), "a": self.arr_leaf, "o": self.obj_leaf,
                        "x": self.leaf}[kind]()
            return getattr(self, "g_" + kind)()
        finally:
            self.depth -= 1

    def s(self): return self.sub("s")
    def n(self): return self.sub("n")
    def b(self): return self.sub("b")
    def a(self): return self.sub("a")
    def o(self): return self.sub("o")
    def x(self): return self.sub("x")

    def arr_leaf(self) -> str:
        return self.ch(["[]", "[1, 2, 3]", "['a', 'b']", "value", "[value]", "[5, 1, 10, 2]",
                        "['b', 'a', 'B', 'A', 'é', 'e']", "[null, undefined, 0, '', NaN]", "[[1, [2]], 3]",
                        "Object.keys(value ?? {})", "context.virtualObject?.spec?.ports ?? []",
                        "[-0, 0, NaN]", "[1, '1', true]", "'a-b-c'.split('-')", "[{a: 1}, {b: 2}]"])

    def obj_leaf(self) -> str:
        return self.ch(["({})", "value", "context", "context.vcluster", "({a: 1, b: 'x'})",
                        "({'2': 'two', b: 1, 1: 'one'})", "({x: null, y: undefined})", "context.vcluster.config",
                        "({length: 2, 0: 'a', 1: 'b'})", "Object.create(null)", "({__proto__: null, a: 1})"])

    def fn(self, arity: int = 1, body=None) -> str:
        names = self.ch([["x"], ["s"], ["item"], ["e"], ["v"], ["x2"]])[0]
        params = [names, "i", "arr"][:arity]
        b = body(names) if body else self.ch([names, self.x()])
        return f"({', '.join(params)}) => {b}" if len(params) != 1 or self.p(0.3) else f"{params[0]} => {b}"

    def tmpl(self) -> str:
        parts = []
        for _ in range(self.r.randint(1, 3)):
            parts.append(self.ch(["", " ", "/", ":", "x", "-", ".local", "!", "é"]))
            parts.append("${" + self.x() + "}")
        return "`" + "".join(parts) + "`"

    # ---- typed generators -------------------------------------------------------------------
    def g_s(self) -> str:
        s, n, x = self.s, self.n, self.x
        return self.ch([
            lambda: f"{s()}.toUpperCase()", lambda: f"{s()}.toLowerCase()",
            lambda: f"{s()}.slice({n()})", lambda: f"{s()}.slice({n()}, {n()})",
            lambda: f"{s()}.substring({n()}, {n()})", lambda: f"{s()}.substr({n()}, {n()})",
            lambda: f"{s()}.padStart({self.ch(['2', '6', '10', '12', '3', '-1', '0'])}, {s()})",
            lambda: f"{s()}.padEnd({self.ch(['2', '6', '10', '0'])}{', ' + s() if self.p(0.6) else ''})",
            lambda: f"{s()}.repeat({self.ch(['0', '1', '2', '3'])})",
            lambda: f"{s()}.replace({self.ch(REGEXES + STRS)}, {self.ch(STRS) if self.p(0.7) else self.fn(2)})",
            lambda: f"{s()}.replaceAll({self.ch(STRS + ['/o/g', '/-/g', '/./g'])}, {self.ch(STRS)})",
            lambda: f"{s()}.trim()", lambda: f"{s()}.trimStart()", lambda: f"{s()}.trimEnd()",
            lambda: f"{s()}.charAt({n()})", lambda: f"{s()}.at({n()})", lambda: f"{s()}[{n()}]",
            lambda: f"{s()}.concat({x()})", lambda: f"{s()}.concat([{x()}], {x()})",
            lambda: f"{s()}.split({self.ch(STRS + REGEXES)}).join({s()})",
            lambda: f"{s()}.split('').reverse().join('')",
            lambda: f"{s()}.normalize({self.ch(['', chr(39) + 'NFC' + chr(39), chr(39) + 'NFD' + chr(39), chr(39) + 'NFKC' + chr(39), chr(39) + 'NFKD' + chr(39)])})",
            lambda: f"String({x()})", lambda: f"JSON.stringify({x()})", lambda: self.tmpl(),
            lambda: f"btoa({s()})", lambda: f"atob(btoa({x()}))", lambda: f"atob({s()})",
            lambda: f"encodeURIComponent({x()})", lambda: f"encodeURI({s()})", lambda: f"decodeURIComponent({s()})",
            lambda: f"escape({s()})", lambda: f"unescape({s()})",
            lambda: f"{n()}.toFixed({self.ch(['0', '1', '2', '5', '20'])})",
            lambda: f"({n()}).toString({self.ch(['', '2', '16', '36', '8', '3'])})",
            lambda: f"({n()}).toPrecision({self.ch(['1', '2', '4', '6', '21', ''])})",
            lambda: f"({n()}).toExponential({self.ch(['', '0', '2', '5'])})",
            lambda: f"{x()} + {s()}", lambda: f"{s()} + {x()}", lambda: f"{s()} + ({n()})",
            lambda: f"({self.b()}) ? {s()} : {s()}", lambda: f"{x()} ?? {s()}", lambda: f"{x()} || {s()}",
            lambda: f"String.fromCharCode({n()}, {n()})", lambda: f"String.fromCodePoint({self.ch(['65', '128512', '0x1F600', '97, 98'])})",
            lambda: f"{self.a()}.join({s() if self.p(0.7) else ''})", lambda: f"{self.a()}.toString()",
            lambda: f"{s()}.split({s()})[{n()}]", lambda: f"{x()}?.toString()",
            lambda: f"{s()}.toLocaleUpperCase()", lambda: f"{s()}.codePointAt({n()})?.toString(16)",
            lambda: f"{s()}.match({self.ch(REGEXES)})?.[0]", lambda: f"{s()}.toWellFormed()",
            lambda: f"Object.keys({self.o()}).join({s()})", lambda: f"typeof {x()}",
            lambda: f"String.raw`a\\n${{{x()}}}b`", lambda: f"{s()}.localeCompare({s()}).toString()",
            lambda: f"[{x()}, {x()}].join()", lambda: f"{s()}.split(/[-.]/).map(w => w.charAt(0).toUpperCase() + w.slice(1)).join('')",
            lambda: f"new Date({self.ch(['0', '1700000000000', '86400000 * 365.25 * 30', '-1', '8.64e15'])}).toISOString()",
            lambda: f"JSON.stringify({x()}, null, {self.ch(INDENTS)})",
        ])()

    def g_n(self) -> str:
        s, n, x = self.s, self.n, self.x
        op = self.ch(["+", "-", "*", "/", "%", "**", "&", "|", "^", "<<", ">>", ">>>"])
        return self.ch([
            lambda: f"{s()}.length", lambda: f"{self.a()}.length", lambda: f"{s()}.indexOf({s()})",
            lambda: f"{s()}.lastIndexOf({s()}{', ' + n() if self.p(0.3) else ''})",
            lambda: f"{s()}.search({self.ch(REGEXES + STRS)})",
            lambda: f"{s()}.charCodeAt({n()})", lambda: f"{s()}.codePointAt({n()})",
            lambda: f"parseInt({x()}{', ' + n() if self.p(0.4) else ''})", lambda: f"parseFloat({x()})",
            lambda: f"Number({x()})", lambda: f"+{x()}", lambda: f"-({x()})", lambda: f"~{x()}",
            lambda: f"Number.parseFloat({x()})", lambda: f"Number.parseInt({s()}, {n()})",
            lambda: f"Math.{self.ch(['abs', 'floor', 'ceil', 'round', 'trunc', 'sign', 'sqrt', 'cbrt', 'log', 'log2', 'log10', 'exp', 'fround', 'clz32', 'expm1', 'log1p', 'sin', 'cos', 'tan', 'atan', 'asin', 'acos', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh'])}({x()})",
            lambda: f"Math.{self.ch(['max', 'min', 'hypot', 'atan2', 'pow', 'imul'])}({x()}, {n()})",
            lambda: f"Math.max(...{self.a()})", lambda: f"Math.min(...{self.a()})",
            lambda: f"({x()}) {op} ({x()})", lambda: f"{n()} {op} {n()}",
            lambda: f"{self.a()}.reduce((a, b) => a + b, 0)", lambda: f"{self.a()}.findIndex({self.fn()})",
            lambda: f"{self.a()}.findLastIndex({self.fn()})", lambda: f"{self.a()}.indexOf({x()})",
            lambda: f"{self.a()}.lastIndexOf({x()})", lambda: f"Object.keys({x()}).length",
            lambda: f"{s()}.localeCompare({s()})", lambda: f"{self.a()}.push({x()})",
            lambda: f"{self.a()}.unshift({x()}, {x()})", lambda: f"Number({s()}.{self.ch(['trim()', 'slice(1)'])})",
            lambda: f"({self.b()}) ? {n()} : {n()}", lambda: f"{x()} ?? {n()}",
            lambda: f"{x()}?.length ?? {n()}", lambda: f"Date.UTC({self.ch(['2024, 0, 1', '2024', '1970, 0, 1, 0, 0, 0, 1', '99, 11, 31', 'NaN'])})",
            lambda: f"new Date({self.ch(['0', '1700000000000', NUMS[3]])}).{self.ch(['getUTCFullYear', 'getUTCMonth', 'getUTCDay', 'getTime', 'valueOf', 'getUTCHours'])}()",
            lambda: f"Date.parse({self.ch(DATESTRS)})",
            lambda: f"new Map([[{x()}, 1], [{x()}, 2]]).size", lambda: f"new Set({self.a()}).size",
            lambda: f"Number.MAX_SAFE_INTEGER + {n()}", lambda: f"{self.a()}.length {op} {n()}",
            lambda: f"Math.round({n()} * 100) / 100", lambda: f"{x()} - {x()}",
            lambda: f"Number.{self.ch(['EPSILON', 'MIN_VALUE', 'MAX_VALUE', 'MIN_SAFE_INTEGER'])}",
        ])()

    def g_b(self) -> str:
        s, n, x = self.s, self.n, self.x
        cmp = self.ch(["<", ">", "<=", ">=", "==", "!=", "===", "!=="])
        return self.ch([
            lambda: f"{x()} {cmp} {x()}", lambda: f"{s()} {cmp} {s()}", lambda: f"{n()} {cmp} {x()}",
            lambda: f"{s()}.includes({s()})", lambda: f"{s()}.startsWith({s()}{', ' + n() if self.p(0.3) else ''})",
            lambda: f"{s()}.endsWith({s()}{', ' + n() if self.p(0.3) else ''})",
            lambda: f"{self.a()}.includes({x()})", lambda: f"{self.a()}.some({self.fn()})",
            lambda: f"{self.a()}.every({self.fn()})", lambda: f"Array.isArray({x()})",
            lambda: f"Number.isInteger({x()})", lambda: f"Number.isSafeInteger({x()})", lambda: f"isNaN({x()})",
            lambda: f"isFinite({x()})", lambda: f"Number.isNaN({x()})", lambda: f"!{x()}", lambda: f"!!{x()}",
            lambda: f"{self.ch(INKEYS)} in {self.ch([self.o(), self.a()])}",
            lambda: f"Object.is({x()}, {x()})", lambda: f"typeof {x()} === '{self.ch(['string', 'number', 'object', 'undefined', 'boolean', 'function'])}'",
            lambda: f"{self.ch(REGEXES)}.test({s()})", lambda: f"Boolean({x()})",
            lambda: f"({self.b()}) && ({self.b()})", lambda: f"({self.b()}) || ({x()})",
            lambda: f"Object.hasOwn({self.o()}, {s()})", lambda: f"{self.o()}.hasOwnProperty({s()})",
            lambda: f"{x()} instanceof {self.ch(['Object', 'Array', 'String', 'Number', 'RegExp', 'Map'])}",
            lambda: f"new Set({self.a()}).has({x()})", lambda: f"{s()}.isWellFormed()",
            lambda: f"{self.a()}.includes(NaN)", lambda: f"Object.isFrozen({x()})",
            lambda: f"{s()}.localeCompare({s()}) {cmp} 0",
        ])()

    def g_a(self) -> str:
        s, n, x, a = self.s, self.n, self.x, self.a
        return self.ch([
            lambda: f"[{', '.join(x() for _ in range(self.r.randint(0, 4)))}]",
            lambda: f"{s()}.split({self.ch(STRS + REGEXES)}{', ' + n() if self.p(0.3) else ''})",
            lambda: f"{a()}.map({self.fn()})", lambda: f"{a()}.map(String)", lambda: f"{a()}.map(Number)",
            lambda: f"{a()}.map(parseInt)", lambda: f"{a()}.filter({self.fn()})", lambda: f"{a()}.filter(Boolean)",
            lambda: f"{a()}.slice({n()}{', ' + n() if self.p(0.5) else ''})", lambda: f"{a()}.slice().reverse()",
            lambda: f"{a()}.concat({x()})", lambda: f"{a()}.flat({self.ch(['', '1', 'Infinity', '0', '-1'])})",
            lambda: f"{a()}.flatMap({self.fn()})", lambda: f"[...{a()}].sort()", lambda: f"{a()}.toSorted()",
            lambda: f"{a()}.toSorted((p, q) => p - q)", lambda: f"{a()}.toReversed()",
            lambda: f"{a()}.toSpliced({n()}, {n()})", lambda: f"{a()}.with({self.ch(['0', '-1', '1'])}, {x()})",
            lambda: f"Object.keys({x()})", lambda: f"Object.values({x()})", lambda: f"Object.entries({x()})",
            lambda: f"Array.from({{length: {self.ch(ALEN)}}}, (_, i) => {self.ch(['i', 'i * i', 'String(i)', 'i % 2 === 0'])})",
            lambda: f"Array.from({self.ch([s(), a(), 'new Set([1, 1, 2])', 'new Map([[1, 2]])'])})",
            lambda: f"[...{s()}]", lambda: f"[...new Set({a()})]", lambda: f"({s()}.match({self.ch(REGEXES)}) || [])",
            lambda: f"[...{s()}.matchAll({self.ch(MATCHALL_RES)})].map(m => {self.ch(['m[0]', 'm.index', '[m[0], m.index]', 'm.groups ?? null', 'm[1]', 'm.length'])})",
            lambda: f"[...{a()}].splice({n()}{', ' + n() if self.p(0.5) else ''})",
            lambda: f"{a()}.fill({x()}{', ' + n() if self.p(0.4) else ''})", lambda: f"Array.of({x()}, {x()})",
            lambda: f"Array({self.ch(ALEN2)}).fill({x()})",
            lambda: f"[...{a()}, ...{self.ch([s(), a()])}]", lambda: f"{a()}.entries().toArray?.() ?? []",
            lambda: f"[...{a()}.keys()]", lambda: f"[...{a()}.entries()]",
            lambda: f"{a()}.sort((p, q) => {self.ch(['p - q', 'q - p', '0', 'String(p).localeCompare(String(q))', 'p < q ? -1 : 1'])})",
            lambda: f"{s()}.split('').map((c, i) => c.charCodeAt(0) + i)", lambda: f"{a()}.copyWithin({n()}, {n()})",
            lambda: f"Object.getOwnPropertyNames({self.ch([s(), a(), self.o()])})",
            lambda: f"{a()}.map((e, i) => [e, i])", lambda: f"{a()}.reduce((acc, e) => acc.concat([e]), [])",
            lambda: f"{a()}.findLast({self.fn()}) ?? []", lambda: f"[...new Map(Object.entries({x()})).keys()]",
            lambda: f"Array.prototype.slice.call({x()})", lambda: f"{a()}.filter((e, i, arr) => arr.indexOf(e) === i)",
            lambda: f"[{x()}].flat()",
        ])()

    def g_o(self) -> str:
        s, x, a = self.s, self.x, self.a
        def key():
            k = self.ch(KEYS)
            return k if k.isidentifier() and self.p(0.6) else json.dumps(k, ensure_ascii=False).replace('"', "'") if self.p(0.8) else f"[{x()}]"
        return self.ch([
            lambda: "({" + ", ".join(f"{key()}: {x()}" for _ in range(self.r.randint(1, 3))) + "})",
            lambda: f"({{...{x()}}})", lambda: f"({{...{x()}, {key()}: {x()}}})",
            lambda: f"Object.fromEntries({a()}.map((e, i) => [e, i]))",
            lambda: f"Object.fromEntries(Object.entries({x()}).map(([k, v]) => [{self.ch(FE_KEYS)}, {self.ch(['v', 'k', '[v]', 'typeof v'])}]))",
            lambda: f"Object.fromEntries(Object.entries({x()}).filter(([k, v]) => {self.ch(FE_FILTERS)}))",
            lambda: f"Object.assign({{}}, {x()}, {x()})", lambda: f"JSON.parse(JSON.stringify({x()}))",
            lambda: f"{a()}.reduce((acc, e, i) => ({{...acc, [String(e)]: i}}), {{}})",
            lambda: f"JSON.parse({self.ch(JSONTEXTS + [s()])})",
            lambda: f"Object.groupBy({a()}, e => typeof e)", lambda: f"structuredClone?.({x()})",
            lambda: f"({{...{x()}, ...{x()}}})", lambda: f"Object.fromEntries(new Map([[{x()}, {x()}]]))",
            lambda: f"(({{a, ...rest}}) => rest)({self.o()})", lambda: f"(([p, q = 5, ...r]) => ({{p, q, r}}))({a()})",
            lambda: f"{self.o()}",
        ])()

    def g_x(self) -> str:
        x = self.x
        return self.ch([
            self.g_s, self.g_n, self.g_b, self.g_a, self.g_o, self.vpath, self.cpath,
            lambda: f"{x()} ?? {x()}", lambda: f"{x()} || {x()}", lambda: f"{x()} && {x()}",
            lambda: f"({self.b()}) ? {x()} : {x()}", lambda: f"{self.a()}.at({self.n()})",
            lambda: f"{self.a()}.find({self.fn()})", lambda: f"{self.a()}[{self.n()}]",
            lambda: f"{self.o()}[{self.s()}]", lambda: f"{self.vpath()}?.{self.ch(KEYS[:8])}",
            lambda: f"{x()} + {x()}", lambda: f"[{x()}, {x()}][{self.ch(['0', '1', '2'])}]",
            lambda: f"(() => {{ try {{ return {x()}; }} catch (e) {{ return e.name; }} }})()",
            lambda: f"{self.a()}.pop()", lambda: f"{self.a()}.shift()", lambda: f"void {x()}",
            lambda: f"(({x()}), {x()})",
        ])()


# ---------------------------------------------------------------------------------------------
# method probes with odd arguments
# ---------------------------------------------------------------------------------------------

PROBES = [
    # receiver kinds -> methods (name, max args)
    ("s", ["at", "charAt", "charCodeAt", "codePointAt", "concat", "endsWith", "includes", "indexOf",
           "lastIndexOf", "localeCompare", "match", "matchAll", "normalize", "padEnd", "padStart", "repeat",
           "replace", "replaceAll", "search", "slice", "split", "startsWith", "substring", "substr",
           "toLowerCase", "toUpperCase", "trim", "trimStart", "trimEnd", "isWellFormed", "toWellFormed",
           "toString", "valueOf", "anchor", "link", "big", "fontcolor"]),
    ("a", ["at", "concat", "copyWithin", "entries", "every", "fill", "filter", "find", "findIndex", "findLast",
           "findLastIndex", "flat", "flatMap", "forEach", "includes", "indexOf", "join", "keys", "lastIndexOf",
           "map", "pop", "push", "reduce", "reduceRight", "reverse", "shift", "slice", "some", "sort", "splice",
           "toReversed", "toSorted", "toSpliced", "toString", "unshift", "values", "with"]),
    ("n", ["toFixed", "toPrecision", "toExponential", "toString", "valueOf", "toLocaleString"]),
    ("g", ["Math.max", "Math.min", "Math.round", "Math.pow", "Math.atan2", "Math.hypot", "Math.sign",
           "Math.clz32", "Math.imul", "Math.fround", "Math.trunc", "Math.abs", "Math.floor", "Math.ceil",
           "Math.sqrt", "Math.cbrt", "Math.log10", "Number", "String", "Boolean", "parseInt", "parseFloat",
           "isNaN", "isFinite", "Number.isInteger", "Number.isSafeInteger", "Number.parseInt", "Array.isArray",
           "Array.of", "Array.from", "Array", "Object.keys", "Object.values", "Object.entries", "Object.assign",
           "Object.fromEntries", "Object.is", "Object.getOwnPropertyNames", "Object.freeze", "Object.hasOwn",
           "JSON.stringify", "JSON.parse", "encodeURIComponent", "encodeURI", "decodeURIComponent", "decodeURI",
           "btoa", "atob", "escape", "unescape", "String.fromCharCode", "String.fromCodePoint", "RegExp",
           "new RegExp", "Date.UTC", "new Date", "Symbol.for", "Object.entries", "new Array", "new Set",
           "new Map", "Number.prototype.toString.call", "String.prototype.at.call", "Array.prototype.join.call",
           "Object.prototype.toString.call", "String.raw", "Object.groupBy", "Reflect.ownKeys", "Error",
           "new Error", "TypeError", "Math.random() * 0 + Number"]),
]
PROBES += [
    ("r", ["exec", "test", "toString", "[Symbol.replace]", "[Symbol.split]", "[Symbol.match]", "[Symbol.search]",
           "[Symbol.matchAll]"]),
    ("m", ["get", "set", "has", "delete", "clear", "forEach", "keys", "values", "entries"]),
    ("d", ["getTime", "getUTCDate", "setUTCDate", "setUTCHours", "setUTCFullYear", "toISOString", "toJSON",
           "getTimezoneOffset", "setTime", "toUTCString", "valueOf", "getDay", "getHours", "toString",
           "toDateString", "setMonth", "setMilliseconds", "getUTCMilliseconds"]),
    ("c", ["Array.prototype.map.call", "Array.prototype.join.call", "Array.prototype.slice.call",
           "Array.prototype.indexOf.call", "Array.prototype.includes.call", "Array.prototype.filter.call",
           "String.prototype.split.call", "String.prototype.slice.call", "String.prototype.toUpperCase.call",
           "String.prototype.padStart.call", "Object.prototype.hasOwnProperty.call", "Array.prototype.at.call",
           "Array.prototype.reverse.call", "Array.prototype.concat.call", "Function.prototype.call.call"]),
    ("j", ["JSON.stringify", "JSON.parse"]),
]
RECV_R = ["/a/g", "/(a)(b)?/", "/(?<x>\\d+)/g", "/a/y", "/(?:)/g", "/[a-c]/gi", "/\\b/g", "/./su", "new RegExp('a', 'g')"]
RECV_M = ["new Map([[1, 'a'], ['1', 'b'], [NaN, 'n']])", "new Set([1, '1', NaN, -0])", "new Map()", "new Set('hello')"]
RECV_D = ["new Date(0)", "new Date(1700000000000)", "new Date(NaN)", "new Date(Date.UTC(2024, 1, 29, 12))",
          "new Date(-1)", "new Date(8.64e15)"]
JSON_VALS = ODD + ["[1, 2, 3]", "({a: [1, {b: 2}], c: undefined, d: () => 1, e: NaN})", "({toJSON() { return 5 }})",
                   "[new Date(0)]", "({b: 1, a: [new Map([[1, 2]]), new Set([1])], 1: /x/g})", "'\\u2028\\ud800'"]
JSON_REPLACERS = ["null", '["a", 1, "b"]', '(k, v) => typeof v === "number" ? v * 2 : v', "undefined", "[]",
                  "(k, v) => k === '' ? v : String(v)"]
JSON_GAPS = ["2", '"  "', "0", "-1", "20", '"abcdefghijklmn"', "null", "new Number(3)", "''"]
JSON_TEXTS2 = ["'[1, 2]'", "'{\"a\": {\"b\": [1]}}'", "'\"x\"'", "'1e5'", "'-0'", "'[1,]'", "'{\"a\":1,\"a\":2}'",
               "'{\"__proto__\": {\"x\": 1}}'", "' [] '", "'01'", "'1.'", "'\"\\\\u00e9\"'", "'{\"2\":1,\"1\":2}'"]
JSON_REVIVERS = ["(k, v) => v", "(k, v) => k === '' ? v : typeof v", "(k, v) => Array.isArray(v) ? v.length : v",
                 "(k, v) => undefined", "null", "(k, v) => k"]
RECV_S = ["'abcdef'", "'a-b-c'", "''", "'😀é'", "'İ'", "value", "'  x  '", "'ABC'", "'aaa'", "'Σ'"]
RECV_A = ["[1, 2, 3]", "['b', 'a', 10, 1]", "[]", "[[1, [2, [3]]], 4]", "[NaN, -0, null, undefined]",
          "[{a: 1}, 'x']", "['10', '9', '1']", "[3, 1, 2]"]
RECV_N = ["(123.456)", "(0)", "(-1.5)", "(1e21)", "(255)", "(NaN)", "(-0)", "(0.000001)", "(2**53)", "(1.005)"]


def probe(r: random.Random) -> str:
    kind, methods = r.choice(PROBES)
    m = r.choice(methods)
    nargs = r.choice([0, 1, 1, 2, 2, 3])
    args = ", ".join(r.choice(ODD + STRS[:12] + NUMS[:12]) for _ in range(nargs))
    if kind == "s":
        return f"{r.choice(RECV_S)}.{m}({args})"
    if kind == "a":
        if m in ("every", "filter", "find", "findIndex", "findLast", "findLastIndex", "flatMap", "forEach",
                 "map", "reduce", "reduceRight", "some", "sort") and r.random() < 0.6:
            cb = r.choice(["(p, q) => p", "(p, q) => q", "x => x", "(p, q, r) => r", "(p, q) => p + q",
                           "x => [x, x]", "() => 0", "x => !x", "(p, q) => q - p", "String", "Number"])
            args = cb + (", " + r.choice(ODD) if r.random() < 0.4 else "")
        body = f"{r.choice(RECV_A)}.{m}({args})"
        return r.choice([body, f"((arr) => [arr.{m}({args}), arr])({r.choice(RECV_A)})"])
    if kind == "n":
        return f"{r.choice(RECV_N)}.{m}({args})"
    if kind == "r":
        recv = r.choice(RECV_R)
        call = f"{m}({args})" if m.startswith("[") else f".{m}({args})"
        body = f"(re => [re{call}, re.lastIndex])({recv})"
        return body
    if kind == "m":
        if m == "forEach":
            args = "(v, k) => acc.push([k, v])"
        return f"(c => {{ const acc = []; const out = c.{m}({args}); return [out instanceof Object ? [...(out[Symbol.iterator] ? out : [])] : out, acc, [...c]]; }})({r.choice(RECV_M)})"
    if kind == "d":
        return f"(d => {{ const out = d.{m}({args}); return [out, d.getTime()]; }})({r.choice(RECV_D)})"
    if kind == "c":
        this = r.choice(ODD + RECV_S[:4] + RECV_A[:4] + ["({length: 2, 0: 'a', 1: 'b'})", "({length: -1})", "({length: '2', 1: 'x'})"])
        cb = r.choice(["", "x => x", "String", "(a, b) => b"]) if m.endswith(("map.call", "filter.call")) else ""
        rest = ", ".join(x for x in [cb, args] if x)
        return f"{m}({this}{', ' + rest if rest else ''})"
    if kind == "j":
        if m == "JSON.stringify":
            return f"JSON.stringify({r.choice(JSON_VALS)}, {r.choice(JSON_REPLACERS)}, {r.choice(JSON_GAPS)})"
        return f"JSON.parse({r.choice(JSON_TEXTS2)}, {r.choice(JSON_REVIVERS)})"
    return f"{m}({args})"


def rand_double(r: random.Random) -> str:
    """A JS literal for an awkward double: random bits, round decimals, halves, huge, tiny."""
    import struct
    k = r.random()
    if k < 0.25:
        x = struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0]
        if x != x or x in (float("inf"), float("-inf")):
            x = 1.5
    elif k < 0.5:
        x = round(r.uniform(-1000, 1000), r.randint(0, 6))
    elif k < 0.65:
        x = (r.randint(-2000, 2000) + 0.5) / 10 ** r.randint(0, 4)
    elif k < 0.8:
        x = r.choice([1, -1]) * r.random() * 10 ** r.randint(-330, 308)
    else:
        x = r.choice([1, -1]) * r.randint(0, 2 ** 64) / r.choice([1, 3, 7, 10, 1024])
    return f"({x!r})".replace("inf", "Infinity")


def numfmt(r: random.Random) -> str:
    x = rand_double(r)
    return r.choice([
        f"String({x})", f"{x}.toFixed({r.randint(0, 20)})", f"{x}.toPrecision({r.randint(1, 21)})",
        f"{x}.toExponential({r.choice(['', r.randint(0, 20)])})", f"{x}.toString({r.randint(2, 36)})",
        f"parseFloat({x}.toString({r.choice([10, 2, 16])}))", f"parseInt({x}, {r.randint(2, 36)})",
        f"{x} % {rand_double(r)}", f"{x} * {rand_double(r)}", f"{x} / {rand_double(r)}",
        f"{x} + {rand_double(r)}", f"{x} ** {r.choice(['2', '0.5', '-1', '3', rand_double(r)])}",
        f"Math.{r.choice(['sin', 'cos', 'tan', 'exp', 'log', 'atan', 'cbrt', 'sqrt', 'log1p', 'expm1', 'sinh', 'cosh', 'tanh', 'asinh', 'log10', 'log2', 'round', 'fround', 'atanh', 'acosh', 'asin', 'acos'])}({x})",
        f"Math.{r.choice(['pow', 'atan2', 'hypot'])}({x}, {rand_double(r)})",
        f"{x} | 0", f"{x} >>> 0", f"{x} << 3", f"~{x}", f"Number({x}.toFixed(2))", f"JSON.stringify([{x}])",
        f"Math.round({x} * 100) / 100", f"({x}).toLocaleString()", f"Number('{x[1:-1]}')",
        f"new Date({x}).toISOString()", f"new Date({r.randint(-10**13, 10**13)}).toISOString()",
        f"String(new Date({r.randint(0, 2 * 10**12)}).getTime() / {r.choice([1000, 3600000, 7])})",
    ])


STMT_TEMPLATES = [
    "let out = []; for (const x of {a}) out.push({x}); out",
    "const o = {{}}; for (const k in {o}) o[k.toUpperCase()] = typeof {o}[k]; o",
    "let n = 0; for (let i = 0; i < 5; i++) {{ if (i === 2) continue; n += i; }} n + {n}",
    "let s = ''; let i = 0; while (i < 3) {{ s += {s}; i++; }} s",
    "try {{ {x}; }} catch (e) {{ e.name + ': ' + (e instanceof TypeError) }}",
    "try {{ null.x }} catch ({{name, message}}) {{ [name, message] }}",
    "function f(a, b = {x}, ...rest) {{ return [a, b, rest.length, arguments.length]; }} f({x})",
    "const [p, q = 'd', ...r] = {a}; [p, q, r]",
    "const {{ name = 'none', ...others }} = {o}; [name, Object.keys(others)]",
    "switch (typeof {x}) {{ case 'string': 's'; break; case 'number': 'n'; break; default: 'other' }}",
    "outer: for (const a of [1, 2, 3]) {{ for (const b of [1, 2]) {{ if (a * b === 4) break outer; }} }} 'done'",
    "let c = 0; do {{ c++ }} while (c < {n} && c < 10); c",
    "const m = new Map(); for (const [i, v] of {a}.entries()) m.set(String(v), i); [...m]",
    "const st = new Set({a}); st.add({x}); st.delete({x}); [...st].length",
    "let acc = {{}}; {a}.forEach((v, i) => {{ acc[v] = i; }}); acc",
    "var x = {x}; var x; typeof x",
    "let t = {x}; t ??= {x}; t ||= {x}; t &&= {s}; t",
    "const f = (...xs) => xs.map(v => typeof v).join(); f(...{a})",
    "function fact(k) {{ return k <= 1 ? 1 : k * fact(k - 1); }} fact(Math.min(Math.abs({n}) | 0, 20))",
    "const obj = {{ k: {x}, get() {{ return this.k; }} }}; obj.get()",
    "const g = function () {{ return typeof this; }}; [g(), g.call({o}), g.apply(null)]",
    "const b = Math.max.bind(null, {n}); b({n}, 3)",
    "let r = []; for (const [k, v] of Object.entries({o})) r.push(`${{k}}=${{v}}`); r.join('&')",
    "value = {x}; value",
    "(() => {{ 'use strict'; return typeof this; }})()",
    "let z = {n}; z++; z--; ++z; [z, z++ + ++z]",
    "const re = {re}; const str = {s}; [re.exec(str)?.[0] ?? null, re.lastIndex, str.search(re)]",
    "const re = {re}; let hits = []; let mm; let guard = 0; while ((mm = re.exec({s})) && guard++ < 5) {{ hits.push(mm.index); if (!re.global) break; }} hits",
    "new Date({d}).toISOString()",
    "const dd = new Date({d}); [dd.getUTCFullYear(), dd.getUTCMonth(), dd.getUTCDate(), dd.getUTCDay(), dd.getUTCHours(), dd.getUTCMinutes()]",
    "JSON.stringify(new Date({d}))",
    "new Date({d}).toUTCString()",
    "Date.parse(new Date({d}).toISOString()) === {d}",
    "const dd = new Date({d}); dd.setUTCMonth({n}); dd.getTime()",
    "String(new Date({d}).valueOf())",
    "[...{s}].map(c => c.codePointAt(0).toString(16)).join(' ')",
    "{s}.split('').sort().join('')",
    "{a}.sort().map(String)",
    "{a}.toSorted((p, q) => String(p) < String(q) ? 1 : -1).map(String)",
    "Object.entries({o}).sort(([p], [q]) => p.localeCompare(q)).map(([k]) => k)",
    "const {{ [{s}]: picked = 'dflt' }} = {o}; picked",
    "let [ , second] = {a}; second",
    "label: {{ if ({b}) break label; 'not broken' }}",
    "const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); fs.map(f => f())",
    "const fs = []; for (var i = 0; i < 3; i++) fs.push(() => i); fs.map(f => f())",
    "typeof undeclaredThing === 'undefined' && typeof {x}",
    "[{x}].flat(Infinity).concat({x}).slice(-3)",
    "encodeURIComponent(JSON.stringify({o}))",
    "decodeURIComponent(encodeURIComponent({s}))",
    "`${{{o}}}|${{{a}}}|${{{n}}}`",
    "String.raw`\\x${{{s}}}\\n`",
    "((strs, ...vals) => [strs.raw, vals])`a${{{x}}}b${{{n}}}`",
]
DATES = ["0", "1700000000000", "-1", "8.64e15", "8.64e15 + 1", "951782400000", "-62198755200000", "1e12",
         "Date.UTC(2024, 1, 29)", "Date.UTC(1969, 11, 31, 23, 59, 59, 999)", "'2024-03-10T12:34:56Z'",
         "'2024-03-10'", "'2024-03-10T12:34'", "'March 7, 2020 UTC'", "'bogus'", "NaN", "2024, 0", "253402300800000"]


def stmt(r: random.Random, g: "Gen") -> str:
    t = r.choice(STMT_TEMPLATES)
    return t.format(a=g.a(), o=g.o(), x=g.x(), s=g.s(), n=g.n(), b=g.b(), re=r.choice(REGEXES), d=r.choice(DATES))


FAMILIES = ["random_string", "random_number", "random_bool", "random_array", "random_object", "random_any"]


def generate(seed: int, n: int, probes: float = 0.25, numfmts: float = 0.1, stmts: float = 0.15) -> list[dict]:
    r = random.Random(seed)
    values = load_values()
    out = []
    for i in range(n):
        value = r.choice(values)
        ctx = r.choice(CONTEXTS)
        if r.random() < probes:
            fam, expr = "probe", probe(r)
        elif r.random() < numfmts:
            fam, expr = "numfmt", numfmt(r)
        elif r.random() < stmts:
            fam, expr = "statements", stmt(r, Gen(r, value, ctx))
        else:
            fam = r.choice(FAMILIES)
            g = Gen(r, value, ctx)
            expr = getattr(g, "g_" + {"random_string": "s", "random_number": "n", "random_bool": "b",
                                      "random_array": "a", "random_object": "o", "random_any": "x"}[fam])()
        out.append({"id": f"gen-{seed}-{i}", "family": fam, "expr": expr, "value": value, "context": ctx})
    return out


_TOKEN = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|(?<![\w.$])\d+(?:\.\d+)?(?![\w.])")
_MUTABLE_METHODS = ["slice", "substring", "substr", "at", "charAt", "indexOf", "lastIndexOf", "includes",
                    "startsWith", "endsWith", "padStart", "padEnd", "repeat", "split", "concat", "map", "filter",
                    "find", "findIndex", "some", "every", "flat", "flatMap", "join", "reverse", "sort", "toSorted",
                    "keys", "values", "entries", "trim", "toUpperCase", "toLowerCase", "replace", "replaceAll",
                    "match", "search", "toFixed", "toString", "toPrecision", "codePointAt", "charCodeAt",
                    "normalize", "fill", "with", "splice", "reduce", "findLast", "findLastIndex", "localeCompare"]
_METHOD_CALL = re.compile(r"\.(" + "|".join(_MUTABLE_METHODS) + r")\(")


def mutate(seed: int, n: int) -> list[dict]:
    """Mutants of the public corpus: literals swapped for odd values, methods for others,
    values for other corpus values (the hidden corpus has the same families)."""
    r = random.Random(seed)
    values = load_values()
    pub = [json.loads(line) for line in PUBLIC.read_text("utf-8").splitlines() if line.strip()]
    pub = [c for c in pub if c["family"] != "compile_errors"]
    out = []
    for i in range(n):
        c = r.choice(pub)
        if r.random() < 0.6:
            expr = _TOKEN.sub(lambda m: m.group(0) if r.random() < 0.5 else r.choice(STRS + NUMS + ODD), c["expr"])
        else:
            expr = _METHOD_CALL.sub(lambda m: "." + (r.choice(_MUTABLE_METHODS) if r.random() < 0.5 else m.group(1))
                                    + "(", c["expr"])
        value = c["value"] if r.random() < 0.6 else r.choice(values)
        out.append({"id": f"mut-{seed}-{i}", "family": c["family"], "expr": expr, "value": value,
                    "context": c["context"]})
    return out


def run_node(cases: list[dict], batch: int = 2000) -> list[dict]:
    kept = []
    for start in range(0, len(cases), batch):
        chunk = cases[start:start + batch]
        inp = "".join(json.dumps({"id": c["id"], "expr": c["expr"], "value": c["value"],
                                  "context": c["context"]}) + "\n" for c in chunk)
        proc = subprocess.run(["node", NODE_EVAL], input=inp, capture_output=True, text=True, timeout=900)
        res = {}
        for line in proc.stdout.split("\n"):
            if line.strip():
                d = json.loads(line)
                res[d["id"]] = d
        for c in chunk:
            d = res.get(c["id"], {})
            if "expect" in d:
                kept.append({**c, "expect": d["expect"]})
    return kept


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--probes", type=float, default=0.25, help="fraction of method-probe cases")
    ap.add_argument("--numfmts", type=float, default=0.1, help="fraction of number-formatting cases")
    ap.add_argument("--stmts", type=float, default=0.15, help="fraction of statement-script cases")
    ap.add_argument("--mutate", action="store_true", help="mutants of the public corpus instead of compositions")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--node", action="store_true", help="evaluate with node and keep only non-excluded cases")
    args = ap.parse_args()
    cases = mutate(args.seed, args.n) if args.mutate else generate(args.seed, args.n, args.probes, args.numfmts,
                                                                           args.stmts)
    if args.node:
        cases = run_node(cases)
    with open(args.out, "w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    print(f"{len(cases)} cases -> {args.out}")


if __name__ == "__main__":
    main()
