"""Caller data built from subclasses of dict, list, str, int and float reads as the plain data
of the base type, in every tier (docs/language.md, the paragraph on subclasses after "Inputs must be JSON-like").

Each expression runs on an input built with subclasses (YAML loaders' kinds: ruamel.yaml's
CommentedMap/CommentedSeq/ScalarString/ScalarInt/ScalarFloat stand-ins, OrderedDict,
defaultdict, and hostile classes whose overrides raise or lie). The default call and the
forced general tier must both give the answer the same expression gives on a deep plain copy,
and the input must be unchanged afterwards (a defaultdict gains no key).
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from typing import Any, NoReturn

import pytest

from syncpatch import compile_expression, compile_patches
from syncpatch.runtime.realm import Budgets


def _refuse(*_: Any, **__: Any) -> NoReturn:
    raise AssertionError("an override of caller data was called")


class CommentedMap(OrderedDict):  # type: ignore[type-arg]
    """ruamel.yaml's round-trip map is an OrderedDict subclass."""


class CommentedSeq(list):  # type: ignore[type-arg]
    """ruamel.yaml's round-trip sequence is a list subclass."""


class ScalarString(str):
    """ruamel.yaml's LiteralScalarString and friends: a str subclass with extra attributes."""

    __slots__ = ("anchor",)


class ScalarInt(int):
    """ruamel.yaml's ScalarInt (an int subclass that keeps its written form)."""


class ScalarFloat(float):
    """ruamel.yaml's ScalarFloat."""


class HostileDict(dict):  # type: ignore[type-arg]
    __getitem__ = get = keys = items = values = __iter__ = __len__ = __contains__ = __missing__ = _refuse
    setdefault = pop = update = copy = __eq__ = __repr__ = _refuse
    __hash__ = None  # type: ignore[assignment]


class HostileList(list):  # type: ignore[type-arg]
    __getitem__ = __iter__ = __len__ = __contains__ = __add__ = __reversed__ = index = count = copy = _refuse
    __eq__ = __repr__ = _refuse
    __hash__ = None  # type: ignore[assignment]


class HostileStr(str):
    __add__ = __radd__ = __str__ = __eq__ = __ne__ = __lt__ = __format__ = __mod__ = __len__ = _refuse
    __getitem__ = __iter__ = __contains__ = upper = lower = split = startswith = __repr__ = _refuse

    def __hash__(self) -> int:  # (a lie: hashing must not matter either)
        return 7


class LyingInt(int):
    __int__ = __index__ = __float__ = __add__ = __radd__ = __eq__ = __str__ = __repr__ = __bool__ = _refuse
    __hash__ = int.__hash__


class LyingFloat(float):
    __float__ = __int__ = __add__ = __radd__ = __mul__ = __eq__ = __str__ = __repr__ = __bool__ = _refuse
    __hash__ = float.__hash__


_PLAIN = {dict: dict, list: list, str: str, int: int, float: float}


def plain(v: Any) -> Any:
    """A deep plain copy read through the base types' storage (as the policy reads)."""
    if isinstance(v, dict):
        return {plain(k): plain(x) for k, x in dict.items(v)}
    if isinstance(v, list):
        return [plain(x) for x in list.__iter__(v)]
    if type(v) is bool or v is None:
        return v
    for base in (str, int, float):
        if isinstance(v, base):
            return base.__dict__["__str__" if base is str else f"__{base.__name__}__"](v)
    return v


def shape(v: Any) -> Any:
    """``plain`` that also keeps each container's and scalar's class (to see the input unchanged)."""
    if isinstance(v, dict):
        return (type(v), [(shape(k), shape(x)) for k, x in dict.items(v)])
    if isinstance(v, list):
        return (type(v), [shape(x) for x in list.__iter__(v)])
    return (type(v), plain(v))


def build() -> dict[str, Any]:
    """The subclass-built input; ``plain(build())`` is the reference."""
    annotations: defaultdict[str, Any] = defaultdict(list, {"team": ScalarString("core")})
    return CommentedMap(
        metadata=CommentedMap(
            name=ScalarString("web"),
            namespace="default",
            labels=CommentedMap([(ScalarString("app"), ScalarString("web")), ("tier", ScalarString("front"))]),
            annotations=annotations,
        ),
        spec=CommentedMap(
            replicas=ScalarInt(3),
            ratio=ScalarFloat(0.5),
            whole=ScalarFloat(2.0),
            enabled=True,
            ports=CommentedSeq([
                CommentedMap(name=ScalarString("http"), port=ScalarInt(80)),
                {"name": "https", "port": LyingInt(443)},
                OrderedDict(name=HostileStr("metrics"), port=LyingFloat(9090.0)),
            ]),
            hostile=HostileDict(x=HostileStr("hx"), n=LyingInt(2), inner=HostileDict(deep=HostileStr("d"))),
            hlist=HostileList([1, HostileStr("b"), HostileDict(k="v"), HostileList([LyingInt(5)])]),
            tags=HostileList([HostileStr("a"), ScalarString("b"), "c"]),
            plainkeys={ScalarString("k1"): "v1", "k2": ScalarString("v2"), ScalarString("10"): 1},
            plainlist=[ScalarString("b"), "a", ScalarInt(3), 1, ScalarFloat(2.5), HostileStr("h"), LyingInt(4)],
            pairs=CommentedSeq([CommentedSeq(["x", ScalarInt(1)]), HostileList([HostileStr("y"), LyingInt(2)])]),
        ),
    )


def build_context() -> dict[str, Any]:
    return {"vcluster": CommentedMap(name=ScalarString("vc1"), namespace=HostileStr("ns1")),
            "flags": HostileDict(debug=False)}


EXPRESSIONS = [
    # member chains, optional chains, defaults
    "value.metadata.name",
    "value.metadata.labels.app",
    "value.metadata.annotations.team",
    "value.metadata.annotations.missing",
    "value.metadata.annotations['missing'] ?? 'none'",
    "value.spec.hostile.x",
    "value.spec.hostile.inner.deep",
    "value.spec.hostile.nope?.deeper",
    "value?.spec?.ports?.[2]?.name",
    "value.spec.ports.length",
    "value.spec.hlist.length",
    "value.spec.hlist[3][0]",
    "value.spec.tags[0]",
    "context.vcluster.namespace",
    "context.flags.debug",
    # identity, equality, comparisons
    "value.spec.hostile === value.spec.hostile",
    "value.metadata.labels === value.metadata.labels",
    "value.spec.hlist === value.spec.hlist",
    "value.spec.ports[0] === value.spec.ports[0]",
    "value.metadata.name === 'web'",
    "value.metadata.name !== 'web'",
    "value.spec.hostile.x === 'hx'",
    "value.spec.hostile.x == 'hx'",
    "'hx' === value.spec.hostile.x",
    "value.spec.replicas === 3",
    "3 === value.spec.replicas",
    "value.spec.replicas == '3'",
    "value.spec.ports[1].port === 443",
    "value.spec.ports[2].port === 9090",
    "value.spec.whole === 2",
    "value.spec.ratio < 1 && value.spec.replicas > 2",
    "value.spec.hostile.x < 'z'",
    "value.spec.tags[0] === value.spec.tags[0]",
    "[value.spec.hostile.x].includes('hx')",
    # typeof, Array.isArray, truthiness, in
    "typeof value.metadata.name",
    "typeof value.spec.hostile.x",
    "typeof value.spec.replicas",
    "typeof value.spec.ratio",
    "typeof value.spec.enabled",
    "typeof value.spec.hostile",
    "typeof value.spec.hlist",
    "Array.isArray(value.spec.ports)",
    "Array.isArray(value.spec.hlist)",
    "Array.isArray(value.spec.hostile)",
    "!value.spec.hostile.n",
    "value.spec.hostile.x ? 1 : 2",
    "'x' in value.spec.hostile",
    "'missing' in value.metadata.annotations",
    "'team' in value.metadata.annotations",
    "0 in value.spec.hlist",
    "'length' in value.spec.hlist",
    # arithmetic, concatenation, templates
    "value.spec.replicas + 1",
    "value.spec.replicas * value.spec.ratio",
    "value.spec.ports[1].port + value.spec.ports[2].port",
    "value.spec.hostile.n * 10",
    "-value.spec.hostile.n",
    "value.spec.hostile.x + '-suffix'",
    "'prefix-' + value.spec.hostile.x",
    "value.metadata.name + value.spec.hostile.x",
    "value.spec.hostile.x + value.spec.hostile.n",
    "`${value.metadata.name}.${context.vcluster.namespace}:${value.spec.ports[2].port}`",
    "String(value.spec.hostile.x) + Number(value.spec.hostile.n)",
    "parseInt(value.spec.ports[1].port) + Math.max(value.spec.replicas, value.spec.hostile.n)",
    "value.spec.whole.toFixed(1)",
    "value.spec.replicas.toString(2)",
    # string methods
    "value.spec.hostile.x.toUpperCase()",
    "value.spec.hostile.x.length",
    "value.spec.hostile.x[0]",
    "value.spec.hostile.x.startsWith('h')",
    "value.spec.hostile.x.split('')",
    "value.spec.hostile.x.replace(/h/, 'H')",
    "value.spec.hostile.x.padStart(5, '*')",
    "context.vcluster.namespace.slice(0, 2)",
    "value.metadata.name.concat('-', value.spec.hostile.x)",
    "[...value.spec.hostile.x]",
    # keys, entries, values, fromEntries, for-in, for-of
    "Object.keys(value.spec.hostile)",
    "Object.keys(value.metadata.labels)",
    "Object.entries(value.spec.hostile.inner)",
    "Object.values(value.spec.hostile)",
    "Object.keys(value.spec.hlist)",
    "Object.values(value.spec.hlist)",
    "Object.entries(value.spec.tags)",
    "Object.entries(value.metadata.labels).map(([k, v]) => k + '=' + v).join(',')",
    "Object.fromEntries(value.spec.pairs)",
    "Object.fromEntries(Object.entries(value.spec.hostile).filter(([k]) => k !== 'inner'))",
    "(() => { const out = []; for (const k in value.spec.hostile) out.push(k); return out })()",
    "(() => { let s = 0; for (const x of value.spec.hlist[3]) s += x; return s })()",
    "(() => { const out = []; for (const t of value.spec.tags) out.push(t + '!'); return out })()",
    "value.spec.hostile.hasOwnProperty('x')",
    "Object.assign({}, value.spec.hostile.inner)",
    # destructuring, spreads
    "(({x, n, ...rest}) => [x, n, rest])(value.spec.hostile)",
    "(([a, b, ...rest]) => [a, b, rest])(value.spec.hlist)",
    "(() => { const {name, labels: {app}} = value.metadata; return name + app })()",
    "({...value.spec.hostile.inner, extra: 1})",
    "({...value.metadata.labels})",
    "[...value.spec.hlist, ...value.spec.tags]",
    "[...value.spec.tags].reverse()",
    "Math.max(...value.spec.hlist[3], value.spec.replicas)",
    # array methods over subclass lists
    "value.spec.ports.map(p => p.name)",
    "value.spec.ports.map(p => p.port * 2)",
    "value.spec.ports.filter(p => p.port > 100).map(p => p.name)",
    "value.spec.ports.find(p => p.name === 'metrics')",
    "value.spec.ports.findIndex(p => p.name === 'metrics')",
    "value.spec.ports.some(p => p.name === 'https')",
    "value.spec.ports.every(p => typeof p.port === 'number')",
    "value.spec.ports.reduce((s, p) => s + p.port, 0)",
    "value.spec.ports.flatMap(p => [p.name, p.port])",
    "value.spec.tags.map(t => t.toUpperCase()).join('+')",
    "value.spec.tags.includes('a')",
    "value.spec.tags.indexOf('b')",
    "value.spec.hlist.slice(1)",
    "value.spec.hlist.concat(value.spec.tags)",
    "value.spec.tags.sort()",
    "[...value.spec.tags].sort().join()",
    "value.spec.hlist.flat()",
    "value.spec.tags.at(-1)",
    "Array.from(value.spec.tags)",
    "Array.from(value.spec.hlist, x => typeof x)",
    "Array.from(value.spec.hostile.x)",
    "value.spec.ports.flatMap(p => value.spec.tags)",
    "[1, [2]].concat(value.spec.tags, value.spec.hlist)",
    "[value.spec.tags, value.spec.hlist].flat(2)",
    "new Set(value.spec.tags).size",
    "[...new Map(value.spec.pairs).keys()]",
    "Object.getPrototypeOf(value.spec.hostile) === Object.prototype",
    "Object.getPrototypeOf(value.spec.hlist) === Array.prototype",
    "value.spec.hostile instanceof Object",
    "value.spec.hlist instanceof Array",
    "value.spec.hostile.x instanceof String",
    "value.spec.hlist.toString()",
    "String(value.spec.hlist)",
    "value.spec.hlist + ''",
    "`${value.spec.tags}`",
    "value.spec.hostile + ''",
    "Number(value.spec.hostile.n) + Number(value.spec.ports[2].port)",
    "value.spec.hostile.x.localeCompare('b')",
    "value.spec.tags.join(value.spec.hostile.x)",
    "value.metadata.name.split(value.spec.hostile.x)",
    "value.spec.tags.map(String)",
    "value.spec.ports.map(p => p.port).sort((a, b) => b - a)",
    "Object.entries(value.spec.ports[0])",
    "structuredClone === undefined ? 1 : 2",
    "value.spec.hostile.x.charCodeAt(0) + value.spec.hostile.n",
    "Math.round(value.spec.ratio * value.spec.hostile.n)",
    "value.spec.hostile.n ** 2",
    "value.spec.hostile.n % 2 === 0",
    "value.spec.hostile.n | 1",
    "[value.spec.hostile.n, value.spec.replicas].sort()",
    "value.spec.hlist.indexOf(1)",
    "value.spec.tags.lastIndexOf('c')",
    "Object.keys(value.spec.hostile.x)",
    "switch (value.spec.hostile.x) { case 'hx': 'yes'; break; default: 'no' }",
    "(() => { switch (value.spec.hostile.x) { case 'hx': return 'yes'; default: return 'no' } })()",
    "new Map(Object.entries(value.spec.hostile.inner)).get('deep')",
    "value.spec.hostile.x in {hx: 1}",
    "({[value.spec.hostile.x]: 1})",
    "({hx: 5})[value.spec.hostile.x]",
    "[10, 20, 30][value.spec.hostile.n]",
    "value.spec.hlist[value.spec.hostile.n - 1]",
    "value.spec.hlist.at(value.spec.hostile.n)",
    "'abcdef'.slice(value.spec.hostile.n)",
    # JSON
    "JSON.stringify(value.spec.hostile)",
    "JSON.stringify(value.spec.hlist)",
    "JSON.stringify(value.metadata)",
    "JSON.stringify(value)",
    "JSON.parse(JSON.stringify(value.spec.ports))",
    # whole values returned, wrapped, shared into results
    "value",
    "value.spec",
    "[value.spec.hostile, value.spec.hostile]",
    "({a: value.spec.hlist, b: value.spec.tags, c: value.spec.hostile.x})",
    "context",
    "value.spec.ports[2].port",
    # mutate-and-return scripts (copy on entry)
    "value.metadata.labels.extra = 'y'; value",
    "value.spec.hostile.x = 'changed'; value.spec.hostile",
    "value.spec.hlist.push(9); value.spec.hlist",
    "value.spec.tags.sort(); value.spec.tags",
    "delete value.spec.hostile.inner; Object.keys(value.spec.hostile)",
    "value.metadata.annotations.other = 1; value.metadata.annotations",
    "value.spec.replicas += 1; value.spec.replicas",
    "context.vcluster.namespace += '-x'; context.vcluster",
    "Object.assign(value.spec.hostile, {y: 2}); value.spec.hostile",
    "value.spec.ports.forEach(p => { p.port += 1 }); value.spec.ports",
    # str-subclass keys in a plain dict (a caller's own data)
    "value.spec.plainkeys.k1",
    "Object.keys(value.spec.plainkeys)",
    "Object.entries(value.spec.plainkeys)",
    "JSON.stringify(value.spec.plainkeys)",
    "({...value.spec.plainkeys})",
    "'k1' in value.spec.plainkeys",
    "Object.keys(value.spec.plainkeys).map(k => k === 'k1')",
    "(() => { const out = []; for (const k in value.spec.plainkeys) out.push(k + '!'); return out })()",
    "value.spec.plainkeys",
    "value.spec.plainkeys.k1 = 'changed'; value.spec.plainkeys",
    "value.spec.hlist.map((x, i, a) => a === value.spec.hlist)",
    "value.spec.ports.filter((p, i, a) => a === value.spec.ports).length",
    # subclass scalars held in a plain list
    "value.spec.plainlist.indexOf('b')",
    "value.spec.plainlist.indexOf('h')",
    "value.spec.plainlist.indexOf(3)",
    "value.spec.plainlist.indexOf(4)",
    "value.spec.plainlist.includes(2.5)",
    "value.spec.plainlist.includes('zz')",
    "value.spec.plainlist.lastIndexOf('b')",
    "value.spec.plainlist.filter(x => x === 3 || x === 'h')",
    "value.spec.plainlist.filter(x => typeof x === 'string')",
    "new Set(value.spec.plainlist).has(4)",
    "[...value.spec.plainlist].sort()",
    "value.spec.plainlist.join('|')",
    "value.spec.plainlist.map(x => x + 1)",
    "value.spec.plainlist.reduce((a, b) => a + b)",
    # errors must be the same errors
    "value.spec.hostile.x.nope()",
    "'a' in value.spec.hostile.x",
]


def _outcome(js: str, value: Any, context: Any, **kwargs: Any) -> tuple[str, Any]:
    try:
        result = compile_expression(js)(value, context, **kwargs)
        return "ok", "NaN" if result != result else result  # (NaN equals nothing)
    except Exception as exc:  # noqa: BLE001 - compared as the public error text
        return "error", f"{type(exc).__name__}: {exc}"


def plain_root(v: dict[str, Any]) -> dict[str, Any]:
    """The input with plain dicts down to ``spec``, so native reads reach the subclasses."""
    return {k: dict(dict.items(x)) if k == "spec" else x for k, x in dict.items(v)}


@pytest.mark.parametrize("root", [build, lambda: plain_root(build())], ids=["CommentedMap-root", "plain-root"])
@pytest.mark.parametrize("js", EXPRESSIONS)
def test_subclass_input_reads_as_plain_data(js: str, root: Any) -> None:
    value, context = root(), build_context()
    expected = _outcome(js, plain(value), plain(context))
    before = shape((value, context))
    assert _outcome(js, value, context, budgets=Budgets()) == expected, "general tier"
    assert shape((value, context)) == before, "input changed by the general tier"
    default = _outcome(js, value, context)
    assert shape((value, context)) == before, "input changed by the default call"
    assert default == expected, "default call"


def _no_subclass_in(v: Any) -> None:
    assert type(v) in (dict, list, str, int, float, bool, type(None)), type(v)
    if type(v) is dict:
        for k, x in v.items():
            assert type(k) is str
            _no_subclass_in(x)
    elif type(v) is list:
        for x in v:
            _no_subclass_in(x)


@pytest.mark.parametrize("js", ["value", "value.spec", "[value.spec.hostile.x, value.spec.replicas, value.spec.ratio]",
                                "value.spec.ports", "({...value.metadata})", "value.spec.hlist", "context",
                                "value.spec.hostile.x", "value.spec.hostile.n", "value.spec.ports[2].port"])
@pytest.mark.parametrize("budgets", [None, Budgets()], ids=["default", "general"])
def test_results_hold_no_subclass_instances(js: str, budgets: Budgets | None) -> None:
    _no_subclass_in(compile_expression(js)(build(), build_context(), budgets=budgets))


@pytest.mark.parametrize("top", [
    pytest.param(HostileStr("abc"), id="HostileStr"),
    pytest.param(ScalarString("abc"), id="ScalarString"),
    pytest.param(LyingInt(7), id="LyingInt"),
    pytest.param(ScalarFloat(1.5), id="ScalarFloat"),
    pytest.param(LyingFloat(3.0), id="LyingFloat-integral"),
    pytest.param(HostileList([1, HostileStr("x")]), id="HostileList"),
    pytest.param(HostileDict(a=HostileDict(b=2)), id="HostileDict"),
    pytest.param(OrderedDict(a={"b": 2}), id="OrderedDict"),
    pytest.param(True, id="bool"),
])
@pytest.mark.parametrize("js", [
    "value", "typeof value", "JSON.stringify(value)", "value + 1", "`${value}`", "String(value)", "value === value",
    "Array.isArray(value)", "value?.a?.b", "value.length", "!!value", "[value]", "({v: value})",
    "value = [value]; value", "typeof value === 'string' ? value.toUpperCase() : value",
    "Array.isArray(value) ? value.map(x => typeof x) : Object.keys(value)", "[...value]",
    "Array.isArray(value) ? value.filter(x => x).length : 0", "Object.entries(value)",
    "typeof value === 'string' ? value.split('').reverse().join('') : 0", "value * 2", "value > 2",
    "value == 7", "value === 7", "value === 'abc'", "value !== 'abc'", "JSON.stringify({value})",
    "Array.isArray(value) ? value.includes(1) : null", "Array.isArray(value) ? value.join('-') : null",
    "typeof value === 'number' ? value.toFixed(2) : null", "Number.isInteger(value)", "isNaN(value)",
    "Math.floor(value)", "value?.b ?? 'none'", "Number.isNaN(value)", "Number.isFinite(value)",
    "Number.isSafeInteger(value)", "Object.is(value, 7)", "[7, 'abc'].includes(value)",
    "[7, 'abc'].indexOf(value)", "new Set([value, 7, 'abc']).size", "new Map([[value, 1]]).get(7)",
])
def test_subclass_value_at_the_top(top: Any, js: str) -> None:
    expected = _outcome(js, plain(top), None)
    assert _outcome(js, top, None, budgets=Budgets()) == expected, "general tier"
    default = _outcome(js, top, None)
    if default != expected and (js, type(top)) in _NATIVE_TOP_GAPS:
        pytest.xfail("the native tier's entry answers type tests of a top-level subclass value instead of deopting")
    assert default == expected, "default call"


#: known: the native tier's entry guard deopts on tuple and non-ASCII str only, so a top-level
#: ``value`` of a subclass meets its exact-type tests (``type(value) is list``) and they answer
#: false (compiler/native*.py, outside this module's tier; reported to the lead)
_NATIVE_TOP_GAPS = {
    ("Array.isArray(value)", HostileList),
    ("Array.isArray(value) ? value.includes(1) : null", HostileList),
    ("Array.isArray(value) ? value.join('-') : null", HostileList),
    ("value === 7", LyingInt),
    ("value === 'abc'", HostileStr),
    ("value === 'abc'", ScalarString),
    ("value !== 'abc'", HostileStr),
    ("value !== 'abc'", ScalarString),
}


def test_examples_from_the_issue() -> None:
    assert compile_expression("value.a.b")({"a": OrderedDict(b=1)}, {}) == 1
    assert compile_expression("value.a.b")(OrderedDict(a={"b": 2}), {}) == 2
    assert compile_expression("value.toUpperCase()")(ScalarString("abc"), {}) == "ABC"


def test_defaultdict_is_never_extended() -> None:
    d: defaultdict[str, Any] = defaultdict(list)
    for js in ["value.x", "value['y']?.z", "'z' in value", "Object.keys(value)", "value.w ?? 1"]:
        compile_expression(js)(d, {})
        compile_expression(js)({"d": d}, {}, budgets=Budgets())
    assert dict.items(d) == {}.items()


@pytest.mark.parametrize("patches", [
    pytest.param([{"path": "spec.ports[*].name", "expression": '"host-" + value'}], id="wildcard-over-CommentedSeq"),
    pytest.param([{"path": "metadata.labels.app", "expression": "value + '-' + context.vcluster.name"}], id="map-key"),
    pytest.param([{"path": "spec.replicas", "expression": "value * 2"}], id="ScalarInt"),
    pytest.param([{"path": "spec.hostile.x", "expression": "value + '!'"}], id="HostileDict-key"),
    pytest.param([{"path": "spec.hostile.inner.deep", "expression": "value.toUpperCase()"}], id="nested-HostileDict"),
    pytest.param([{"path": "spec.tags[*]", "expression": "value.toUpperCase()"}], id="HostileList-wildcard"),
    pytest.param([{"path": "spec.hlist[1]", "expression": "value + value"}], id="HostileList-index"),
    pytest.param([{"path": "spec.hostile.added", "expression": "'new'"}], id="HostileDict-new-key"),
    pytest.param([{"path": "metadata.annotations.missing", "expression": "value === undefined ? 'absent' : 'there'"}],
                 id="defaultdict-missing"),
    pytest.param([{"path": "spec.hostile.n", "expression": "null"}], id="HostileDict-delete"),
    pytest.param([{"path": "spec.ports[*].port", "expression": "value + 1"}], id="Lying-numbers"),
    pytest.param([{"path": "spec.hostile", "expression": "({...value, x: value.x + '?'})"}], id="spread-HostileDict"),
])
def test_a_patch_plan_applies_to_subclass_built_objects(patches: list[dict[str, Any]]) -> None:
    plan = compile_patches(patches)
    obj, ctx = build(), build_context()
    before = shape((obj, ctx))
    expected = _plan_outcome(plan, plain(obj), plain(ctx))
    got = _plan_outcome(plan, obj, ctx)
    assert (got[0], plain(got[1])) == expected
    assert shape((obj, ctx)) == before


def _plan_outcome(plan: Any, obj: Any, ctx: Any) -> tuple[str, Any]:
    try:
        return "ok", plan.to_host(obj, ctx)
    except Exception as exc:  # noqa: BLE001 - compared as the public error text
        return "error", f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("budgets", [None, Budgets()], ids=["default", "general"])
def test_other_types_keep_their_treatment(budgets: Budgets | None) -> None:
    """A top-level tuple is an array; a nested tuple, a set, bytes and a non-dict Mapping are
    opaque objects with no properties (docs/language.md)."""
    from types import MappingProxyType

    def run(js: str, value: Any) -> Any:
        return compile_expression(js)(value, None, budgets=budgets)

    assert run("JSON.stringify(value)", (1, 2)) == "[1,2]"
    assert run("value.length", (1, 2)) == 2
    for opaque in [(1, 2), {1, 2}, b"ab", bytearray(b"ab"), MappingProxyType({"a": 1}), object()]:
        value = {"x": opaque}
        assert run("typeof value.x", value) == "object"
        assert run("Object.keys(value.x)", value) == []
        assert run("JSON.stringify(value)", value) == '{"x":{}}'
        assert run("value", value) == {"x": {}}
        assert run("Array.isArray(value.x)", value) is False
