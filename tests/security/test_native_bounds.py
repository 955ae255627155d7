"""The native tier runs without budgets, so it must only accept work its inputs bound, and
hand anything larger to the general tier, where the budgets apply (``runtime/native.py``)."""

import time

import pytest

import syncpatch
from syncpatch import LimitExceeded

DOUBLINGS = "; ".join(["const a0 = value + value"] + [f"const a{i} = a{i - 1} + a{i - 1}" for i in range(1, 40)]) + "; a39"
MEMBER_DOUBLINGS = "; ".join(["value.s = value.s + value.s"] * 40) + "; value.s.length"
ARRAY_DOUBLINGS = "; ".join(["const a0 = [...value, ...value]"]
                            + [f"const a{i} = [...a{i - 1}, ...a{i - 1}]" for i in range(1, 40)]) + "; a39.length"


@pytest.mark.parametrize("source, value", [
    (DOUBLINGS, "x" * 1000),
    (MEMBER_DOUBLINGS, {"s": "x" * 1000}),
    (ARRAY_DOUBLINGS, list(range(1000))),
])
def test_doubling_bindings_meet_the_budget(source, value):
    f = syncpatch.compile_expression(source)
    assert f.native  # the script is in the subset; its growth is what must be bounded
    start = time.monotonic()
    with pytest.raises(LimitExceeded):
        f(value)
    assert time.monotonic() - start < 30  # generous: it must stop, not swap


_LONG = "x" * 100
#: results past the default array or string budget, made in one step from inputs within it
OUTGROWING = [
    ("value.concat(value).length", list(range(600_000))),
    ("Object.keys(value).concat(Object.keys(value)).length", {f"k{i}": i for i in range(600_000)}),
    ("value.split(',').length", "," * 1_000_001),
    ("value.join(', ').length", ["x" * 40] * 400_000),
    ("value.map(s => s).join('--').length", ["x" * 8] * 999),
    ("JSON.stringify(value).length", ["x" * 9_000_000] * 2),
    ("JSON.stringify(value).length", "\n" * 9_000_000),
    (f"value.replaceAll('a', '{_LONG}').length", "a" * 200_000),
    (f"value.replace(/a/g, '{_LONG}').length", "a" * 200_000),
]


@pytest.mark.parametrize("source, value", OUTGROWING, ids=[s for s, _ in OUTGROWING])
def test_a_result_past_the_default_budgets_is_the_general_tiers_range_error(source, value):
    """Made natively, each would be past the array or string budget the general tier keeps,
    with its RangeError: the native tier hands it over instead of answering."""
    f = syncpatch.compile_expression(source)
    assert f.native
    forced = syncpatch.compile_expression(source, budgets=syncpatch.Budgets())
    outcomes = []
    for fn in (f, forced):
        try:
            outcomes.append(("ok", fn(value)))
        except LimitExceeded as exc:
            outcomes.append(("err", exc.budget))
    assert outcomes[0] == outcomes[1]
    if "--" not in source:
        assert outcomes[0][0] == "err"


@pytest.mark.parametrize("source", [
    # loops in loops in loops: MAX_ITEMS cubed is past any budget (two levels are native)
    "value.reduce((acc, x) => acc + x.reduce((s, y) => s + y.reduce((t, z) => t + z, 0), 0), 0)",
    "value.map(x => x.map(y => y.map(z => z)))",
    'value.replace(/(a+)+$/, "")',  # nested quantifier: exponential backtracking
    'value.replace(/(a|aa)+$/, "")',
    'value.replace(/a*a*a*a*a*$/, "")',  # five unbounded quantifiers that can meet
])
def test_unbounded_work_stays_on_the_general_tier(source):
    assert not syncpatch.compile_expression(source).native


def test_quantifiers_that_can_meet_bound_the_input_length():
    """Three runs that can meet (``a*a*a*$``) stay native on input short enough that their
    backtracking stays below about 10**7 steps (50 characters); longer input, with the
    backtracking a failed match makes, takes the general tier, whose engine has a timeout."""
    f = syncpatch.compile_expression('value.replace(/a*a*a*$/, "")')
    assert f.native
    assert f("b" + "a" * 48) == "b" and not f.general.loaded
    assert f("a" * 60 + "b") == "a" * 60 + "b" and f.general.loaded


def test_a_loop_in_a_loop_is_bounded_at_both_levels():
    """Two nested callback loops stay native (at most MAX_ITEMS squared iterations, a tenth of
    the default step budget); an inner array past MAX_ITEMS takes the general tier."""
    from syncpatch.runtime.native import MAX_ITEMS

    f = syncpatch.compile_expression("value.map(x => x.map(y => y + 1))")
    assert f.native
    general = f.general
    calls = []

    class Spy:
        def __call__(self, *args, **kwargs):
            calls.append(1)
            return general(*args, **kwargs)

    f.__globals__["_general"] = Spy()
    assert f([[1, 2], [3]]) == [[2, 3], [4]] and not calls
    assert f([[0] * (MAX_ITEMS + 1)]) == [[1] * (MAX_ITEMS + 1)] and calls
    assert MAX_ITEMS * MAX_ITEMS <= syncpatch.Budgets().steps // 10


def test_long_arrays_take_the_general_tier():
    """Callbacks over more than MAX_ITEMS elements run where the step budget counts them."""
    from syncpatch.runtime.native import MAX_ITEMS

    f = syncpatch.compile_expression("value.map(x => x + 1)", budgets=None)
    calls = []
    general = f.general

    class Spy:
        def __call__(self, *args, **kwargs):
            calls.append(1)
            return general(*args, **kwargs)

    f.__globals__["_general"] = Spy()
    assert f(list(range(MAX_ITEMS))) == list(range(1, MAX_ITEMS + 1)) and not calls
    assert f(list(range(MAX_ITEMS + 1))) == list(range(1, MAX_ITEMS + 2)) and calls


def test_custom_budgets_always_take_the_general_tier():
    f = syncpatch.compile_expression("btoa(value)", budgets=syncpatch.Budgets(string_length=4))
    assert not f.native
    with pytest.raises(LimitExceeded):
        f("abcdef")
    g = syncpatch.compile_expression("btoa(value)")
    assert g.native and g("abcdef") == "YWJjZGVm"
    with pytest.raises(LimitExceeded):
        g("abcdef", budgets=syncpatch.Budgets(string_length=4))


class _Hooked:
    """A caller object whose operator hooks native code must never run."""

    calls = 0

    def __add__(self, other):
        _Hooked.calls += 1
        return "hooked"

    __radd__ = __add__


class _HookedStr(str):
    def __radd__(self, other):
        _Hooked.calls += 1
        return "hooked"


@pytest.mark.parametrize("source", ['"a" + value', 'value + "a"', 'context.x + "-" + value', '`${value}-x`',
                                    'value.n + 1'])
@pytest.mark.parametrize("make", [_Hooked, lambda: _HookedStr("x")])
def test_native_code_runs_no_operator_hooks_of_caller_objects(source, make):
    """``str + x`` in Python calls ``x.__radd__``: native code tests the operand's type first,
    so a caller's object gets what the general tier gives it, and no hook runs."""
    f = syncpatch.compile_expression(source)
    value = make()
    before = _Hooked.calls
    outcome = f(value, {"x": value}) if not source.startswith("value.n") else f({"n": value})
    assert _Hooked.calls == before
    assert outcome == (f.general(value, {"x": value}) if not source.startswith("value.n") else f.general({"n": value}))


class _EqHooked:
    """Caller objects whose ``__eq__`` claims equality with anything: native code must not run it."""

    calls = 0

    @staticmethod
    def hook(self, other):
        _EqHooked.calls += 1
        return True


class _EqStr(str):
    __eq__ = _EqHooked.hook
    __hash__ = str.__hash__


class _EqInt(int):
    __eq__ = _EqHooked.hook
    __hash__ = int.__hash__


class _EqObject:
    __eq__ = _EqHooked.hook
    __hash__ = object.__hash__


@pytest.mark.parametrize("source", ['value === "NodePort" ? "ClusterIP" : value', 'value !== "x"', 'value === 3',
                                    'value.kind === "Service"', 'value.items.filter(i => i.k === "a").length',
                                    'value.items.filter(i => i.k === 7).length',
                                    '(() => { switch (value) { case "a": return 1; case "b": return 2; } return 0; })()'])
@pytest.mark.parametrize("make", [lambda: _EqStr("q"), lambda: _EqInt(9), _EqObject])
def test_native_equality_runs_no_eq_hooks_of_caller_objects(source, make):
    """``x == 'lit'`` in Python runs a caller's ``__eq__`` (a str or int subclass, any object):
    native code tests the operand's type first and gives what the general tier gives."""
    f = syncpatch.compile_expression(source)
    assert f.native
    item = make()
    value = item if not source.startswith("value.") else {"kind": item, "items": [{"k": item}]}
    before = _EqHooked.calls
    outcome = f(value)
    assert _EqHooked.calls == before
    assert outcome == f.general(value)


def test_let_doubling_in_a_loop_meets_the_budget():
    """A ``let`` assigned in a loop (native_statements) is bounded after every assignment."""
    f = syncpatch.compile_expression("(() => { let s = 'x'.repeat(1000); for (const i of value) { s = s + s; } "
                                     "return s.length; })()")
    assert f.native
    start = time.monotonic()
    with pytest.raises(LimitExceeded):
        f(list(range(40)))
    assert time.monotonic() - start < 30


def test_deeply_nested_json_text_takes_the_general_tier():
    """Python's C JSON scanner recurses once a level (a 256 KiB thread stack overflowed at
    200,000 levels): text nested past ``_JSON_NESTING`` is left to the general tier, whose
    parser meets the call-depth budget; brackets inside strings do not count."""
    from syncpatch.runtime.native import _JSON_NESTING, Deopt, json_parse

    with pytest.raises(Deopt):
        json_parse("[" * (_JSON_NESTING + 1) + "]" * (_JSON_NESTING + 1))
    assert json_parse("[" * _JSON_NESTING + "]" * _JSON_NESTING) is not None
    assert json_parse('{"a": "' + "[" * 500 + '"}') == {"a": "[" * 500}
    f = syncpatch.compile_expression("JSON.parse('['.repeat(value) + ']'.repeat(value))")
    with pytest.raises(LimitExceeded):
        f(200_000)
