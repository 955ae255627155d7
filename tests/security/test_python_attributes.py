"""Vector: reaching Python objects through attribute names.

Member access goes through JS dispatch tables keyed by JS names, so every Python attribute
name (``__class__``, ``__globals__``, ``mro``, ``format``...) must read as an ordinary absent
JS property (``undefined``) on every kind of value: plain objects, arrays, strings, numbers,
functions (arrow, declared, built-in), the built-in namespaces and prototypes, Map/Set/RegExp/
Date/Error/Symbol/iterator objects. Writing such a key makes an ordinary own property.
"""

from __future__ import annotations

from typing import Any


import pytest

from .sec_harness import Case, E, R, check, params

PY_ATTRS = ["__class__", "__dict__", "__globals__", "__builtins__", "__subclasses__", "__getattribute__", "__mro__",
            "mro", "format", "__format__", "__init__", "__code__", "__closure__", "__self__", "__func__", "__module__",
            "__bases__", "__base__", "__reduce__", "__reduce_ex__", "__call__", "__name__", "__qualname__", "__slots__",
            "__import__", "__loader__", "__spec__", "__getitem__", "__setattr__", "__repr__", "__doc__", "__iter__",
            "__next__", "gi_frame", "f_globals", "f_back", "tb_frame", "func_globals", "im_func", "js_get_own",
            "js_set_own", "JS_PROTO", "JS_CLASS", "error_name", "proto", "_realm", "_main", "fn", "pattern", "items",
            "keys_", "get_member", "__weakref__", "__sizeof__", "__hash__", "__len__", "__contains__", "__str__"]

BASES = {
    "object": "({a: 1})",
    "value": "value",
    "array": "[1, 2]",
    "string": "'abc'",
    "number": "(1.5)",
    "int": "(7)",
    "boolean": "true",
    "arrow": "(x => x)",
    "function": "(function f() {})",
    "builtin_fn": "Math.max",
    "bound_method": "[].map",
    "fn_call": "Math.max.call",
    "Math": "Math",
    "JSON": "JSON",
    "Object": "Object",
    "Object_prototype": "Object.prototype",
    "Array_prototype": "Array.prototype",
    "globalThis": "globalThis",
    "map": "new Map([[1, 2]])",
    "set": "new Set([1])",
    "regexp": "/a+/g",
    "date": "new Date(0)",
    "error": "new TypeError('x')",
    "caught_error": "(() => { try { null.x } catch (e) { return e } })()",
    "symbol": "Symbol('s')",
    "iterator": "[1].values()",
    "entries": "new Map([[1, 2]]).entries()",
    "null_proto": "Object.create(null)",
    "arguments": "(function () { return arguments })(1)",
}

PRIMITIVES = {"string", "number", "int", "boolean", "symbol"}

#: node: Math.max.name etc. are real JS properties, so only pick names JS does not define.
DOT = ", ".join(f"typeof b.{a}" for a in PY_ATTRS)
BRACKET = ", ".join(f"typeof b[{a!r}]" for a in PY_ATTRS)
ALL_UNDEFINED = ["undefined"] * len(PY_ATTRS)

VALUE = {"metadata": {"name": "x"}, "spec": [1, 2]}

CASES: list[Case] = []
for _name, _base in BASES.items():
    CASES.append(Case(f"dot-{_name}", f"const b = {_base}; [{DOT}]", R(ALL_UNDEFINED), value=VALUE))
    CASES.append(Case(f"bracket-{_name}", f"const b = {_base}; [{BRACKET}]", R(ALL_UNDEFINED), value=VALUE))
    if _name not in PRIMITIVES:
        CASES.append(Case(f"in-{_name}", f"const b = {_base}; " + "[" + ", ".join(
            f"{a!r} in b" for a in PY_ATTRS[:12]) + "]", R([False] * 12), value=VALUE))

CASES += [
    # chains that would walk Python's object graph if any link resolved
    Case("chain-class-mro-subclasses", "''.__class__.__mro__[1].__subclasses__()", E("TypeError")),
    Case("chain-func-globals-builtins", "(x => x).__globals__['__builtins__']", E("TypeError")),
    Case("chain-init-globals", "({}).__init__.__globals__", E("TypeError")),
    Case("chain-call-self", "Math.max.call.__self__.__class__", E("TypeError")),
    Case("chain-format-string", "'{0.__class__}'.format(1)", E("TypeError")),
    Case("chain-getattribute-call", "value.__getattribute__('__class__')", E("TypeError"), value=VALUE),
    Case("chain-code-consts", "(function () { return 1 }).__code__.co_consts", E("TypeError")),
    Case("chain-regexp-pattern", "/a/.pattern.pattern", E("TypeError")),
    Case("chain-error-traceback", "(() => { try { null.x } catch (e) { return e.__traceback__.tb_frame } })()",
         E("TypeError")),
    Case("chain-iterator-gi-frame", "[1].values().gi_frame.f_globals", E("TypeError")),
    Case("chain-symbol-description", "typeof Symbol('__class__').description", R("string")),
    Case("chain-proto-proto", "({}).__proto__.__proto__", R(None)),
    Case("chain-constructor-class", "typeof ({}).constructor.__class__", R("undefined")),
    Case("optional-chain-dunder", "value?.__class__?.__mro__ ?? 'none'", R("none"), value=VALUE),
    Case("computed-dunder-key", "const k = '__' + 'class' + '__'; typeof value[k]", R("undefined"), value=VALUE),
    Case("destructure-dunder", "const {__class__: c, __dict__: d} = value; [typeof c, typeof d]",
         R(["undefined", "undefined"]), value=VALUE),
    # writes to such keys are ordinary JS properties, visible only as such
    Case("write-dunder-object", "const o = {}; o.__class__ = 1; o.__dict__ = 2; [o.__class__, o.__dict__, "
         "Object.keys(o)]", R([1, 2, ["__class__", "__dict__"]])),
    Case("write-dunder-array", "const a = [1]; a.__len__ = 5; [a.length, a.__len__]", R([1, 5])),
    Case("write-dunder-function", "const f = x => x; f.__call__ = 7; [f(3), f.__call__]", R([3, 7])),
    Case("write-dunder-math", "Math.__class__ = 'm'; Math.__class__", R("m")),
    Case("write-dunder-value", "value.__dict__ = {x: 1}; value.__dict__.x", R(1), value=VALUE),
    Case("object-literal-dunder-keys", "({__class__: 1, __globals__: 2, mro: 3})",
         R({"__class__": 1, "__globals__": 2, "mro": 3})),
    Case("json-dunder-keys", "JSON.parse('{\"__class__\": 1, \"__dict__\": {\"a\": 2}}').__dict__.a", R(2)),
    Case("hasown-dunder", "Object.hasOwn(value, '__class__') || ({}).hasOwnProperty('__dict__')", R(False),
         value=VALUE),
    # enumeration of built-ins shows only JS names
    Case("names-map-proto", "Object.getOwnPropertyNames(Object.getPrototypeOf(new Map())).filter(k => "
         "k.startsWith('_') || k.startsWith('js_'))", R([])),
    Case("names-regexp", "Object.getOwnPropertyNames(/a/g)", R(["lastIndex"])),
    Case("names-error", "Object.getOwnPropertyNames(new Error('m'))", R(["stack", "message"])),
    Case("names-arrow", "Object.getOwnPropertyNames(x => x)", R(["length", "name"])),
    Case("names-math-underscore", "Object.getOwnPropertyNames(Math).filter(k => k.startsWith('_'))", R([])),
    Case("names-object-proto-underscore", "Object.getOwnPropertyNames(Object.prototype).filter(k => "
         "k.startsWith('__') && k !== '__proto__' && !/^__(define|lookup)[GS]etter__$/.test(k))", R([])),
    Case("for-in-math", "const ks = []; for (const k in Math) ks.push(k); ks", R([])),
    Case("keys-date", "Object.keys(new Date(0))", R([])),
    Case("keys-symbol-object", "Object.keys(Object(Symbol('x')))", R([])),
    Case("getter-dunder-key", "const o = {}; o['__getattribute__'] = () => 1; o.__getattribute__()", R(1)),
    Case("in-string-wrapper", "'__class__' in Object('abc')", R(False)),
    Case("call-dunder-undefined", "value.__class__()", E("TypeError"), value=VALUE),
]


@pytest.mark.parametrize("case", params(CASES))
def test_python_attributes(case: Case, through: Any) -> None:
    check(case, through)
