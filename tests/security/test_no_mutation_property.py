"""Property: no script mutates the caller's ``value`` or ``context``, by any route.

The table in ``test_input_mutation.py`` pins known aliases one by one; here hypothesis combines
a *target* inside the inputs, a *route* that hands it to code under another name (a variable,
destructuring, ``this`` through ``call``/``forEach``'s thisArg, ``arguments``, callbacks of
built-ins, getters, spread copies) and a *mutation* (writes, deletes, in-place array methods
reached through ``Array.prototype.x.call``, ``defineProperty``, ``freeze``, prototype
changes). Every script runs through the closure (native tier first, and the general tier with
explicit budgets) and as plan patches (over a wildcard path, an array in each match, and the whole object); the inputs must deep-equal a copy
taken before, and a second run on the same inputs must give the same result (one script's
writes never reach the next evaluation).
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import syncpatch
from syncpatch import Budgets, EvaluationError

from .sec_harness import assert_no_leak

QUICK = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)

VALUE = {"a": {"b": [3, 1, {"c": 2}], "s": "x"}, "arr": [3, 1, 2], "n": None, "t": True}
CONTEXT = {"vcluster": {"name": "vc", "labels": {"k": "v"}}, "list": [{"x": 1}, {"x": 2}]}
OBJ = {"spec": {"items": [copy.deepcopy(VALUE), {"arr": [9, 8]}]}, "metadata": {"name": "w"}}

TARGETS = ["value", "value.a", "value.a.b", "value.a.b[2]", "value.arr", "context", "context.vcluster",
           "context.vcluster.labels", "context.list", "context.list[0]"]

ROUTES = [
    "const o = {t}; {m}",
    "const {{k: o}} = {{k: {t}}}; {m}",
    "const {{k: o = {t}}} = {{}}; {m}",
    "const [o] = [{t}]; {m}",
    "let o; ({{o}} = {{o: {t}}}); {m}",
    "[{t}].forEach(function (o) {{ {m} }})",
    "[1].forEach(function () {{ const o = this; {m} }}, {t})",
    "(function () {{ const o = this; {m} }}).call({t})",
    "(function (o) {{ {m} }}).apply(null, [{t}])",
    "(function () {{ const o = arguments[0]; {m} }})({t})",
    "((...rest) => {{ const o = rest[0]; {m} }})({t})",
    "new Map([[1, {t}]]).forEach(o => {{ {m} }})",
    "new Set([{t}]).forEach(o => {{ {m} }})",
    "Object.values({{k: {t}}}).forEach(o => {{ {m} }})",
    "[[{t}]].flat().map(o => {{ {m}; return o }})",
    "const o = ({{...{{k: {t}}}}}).k; {m}",
    "const o = [...[{t}]][0]; {m}",
    "[2, 1].sort((x, y) => {{ const o = {t}; {m}; return x - y }})",
    "'a'.replace('a', () => {{ const o = {t}; {m}; return '' }})",
    "JSON.parse('[1]', function (k, v) {{ const o = {t}; {m}; return v }})",
    "const g = {{ get o() {{ return {t} }} }}; const o = g.o; {m}",
    "const o = Object.create({t}); Object.getPrototypeOf(o).evil = 1; {m}",
    "const o = Array.from([{t}])[0]; {m}",
    "const o = Object.fromEntries([['k', {t}]]).k; {m}",
]

MUTATIONS = [
    "o.x = 1", "o[0] = 9", "o.a = null", "delete o.a", "delete o[0]", "delete o.name", "o.length = 0",
    "Object.assign(o, {z: 2})", "Object.defineProperty(o, 'q', {value: 1, enumerable: true})",
    "Object.defineProperty(o, 'a', {value: 7})", "Object.freeze(o)", "Object.seal(o)",
    "Object.preventExtensions(o)", "Object.setPrototypeOf(o, null)", "o.__proto__ = {p: 1}",
    "Array.prototype.push.call(o, 1)", "Array.prototype.sort.call(o)", "Array.prototype.reverse.call(o)",
    "Array.prototype.splice.call(o, 0, 1)", "Array.prototype.fill.call(o, 0)",
    "Array.prototype.copyWithin.call(o, 0, 1)", "Array.prototype.shift.call(o)",
    "Array.prototype.unshift.call(o, 1)", "Array.prototype.pop.call(o)", "o.sort()", "o.reverse()",
    "Object.keys(o).forEach(k => delete o[k])", "for (const k in o) o[k] = null",
    "Object.entries(o).forEach(([k, v]) => { if (v && typeof v === 'object') v.deep = 1 })",
    "Object.values(o).forEach(v => { if (Array.isArray(v)) v.length = 0 })",
    "JSON.stringify(o, function (k, v) { if (v && typeof v === 'object') v.seen = 1; return v })",
]


def _script(target: str, route: str, mutation: str) -> str:
    body = route.format(t=target, m=mutation)
    return f"try {{ {body} }} catch (e) {{}}\n[JSON.stringify(value), JSON.stringify(context)]"


def _run(fn: Any, value: Any, context: Any) -> Any:
    try:
        return ("result", fn(value, context))
    except EvaluationError as exc:  # LimitExceeded included
        assert_no_leak(str(exc))
        return ("error", exc.js_name)


@QUICK
@given(st.sampled_from(TARGETS), st.sampled_from(ROUTES), st.sampled_from(MUTATIONS))
def test_no_route_mutates_the_inputs(target: str, route: str, mutation: str) -> None:
    src = _script(target, route, mutation)
    for fn in (syncpatch.compile_expression(src), syncpatch.compile_expression(src, budgets=Budgets())):
        value, context = copy.deepcopy(VALUE), copy.deepcopy(CONTEXT)
        first = _run(fn, value, context)
        assert value == VALUE and context == CONTEXT, f"inputs mutated by {src!r}"
        assert _run(fn, value, context) == first, f"a second run differs: {src!r}"
        assert value == VALUE and context == CONTEXT, f"inputs mutated by {src!r}"


@QUICK
@given(st.sampled_from(TARGETS), st.sampled_from(ROUTES), st.sampled_from(MUTATIONS))
def test_no_route_mutates_plan_inputs(target: str, route: str, mutation: str) -> None:
    body = route.format(t=target, m=mutation)
    expression = f"try {{ {body} }} catch (e) {{}}\nvalue"
    plan = syncpatch.compile_patches([
        {"path": "spec.items[*]", "expression": expression},
        {"path": "spec.items[*].arr", "expression": expression},
        {"path": "", "expression": expression},
    ])
    obj, context = copy.deepcopy(OBJ), copy.deepcopy(CONTEXT)
    try:
        first = plan.to_host(obj, context)
    except syncpatch.PatchError as exc:
        assert_no_leak(str(exc))
        first = None
    assert obj == OBJ and context == CONTEXT, f"plan inputs mutated by {expression!r}"
    try:
        second = plan.to_host(obj, context)
    except syncpatch.PatchError:
        second = None
    assert obj == OBJ and context == CONTEXT, f"plan inputs mutated by {expression!r}"
    assert second == first, f"a second application differs: {expression!r}"
