"""Native results that share parts of the input agree with the general tier.

A native result may hold the caller's own objects (a spread ``{...s}``, a returned input
object, a list of them, a mutate-and-return script whose untouched subtrees are shared). The
general tier returns a converted copy instead, so each shared subtree is checked to be what
that copy would be (``runtime/native.py``: ``plain_tree``, ``spread_out``, ``copied_out``,
``export``). Every odd shape below sits *inside* a shared subtree, one level or several down,
where only those checks can see it: the native tier must either give the general tier's
answer or leave the input to it, and must not change the input.
"""

from __future__ import annotations

import collections
import copy
from typing import Any

import pytest

import syncpatch
from syncpatch.runtime.values import UNDEFINED

from .test_native_tier import canon, outcome

#: scripts whose native results hold input objects unconverted (the realistic corpus's shapes)
SHARED = [
    '({...value.spec, patched: "x"})',  # a spread of a nested input object (SPREAD_OUT)
    "({...value})",
    "value.items.map(s => ({...s, extra: 1}))",  # a list of spreads
    "value.items.map(s => ({...s, sub: s.sub.map(a => ({...a, node: undefined}))}))",  # nested spreads
    "value.spec",  # an input object passed through
    "[value.spec, value.items]",  # a list of input objects
    "({a: value.spec, b: 1, c: value.items[0]})",
    "value.items.filter(s => s.keep)",
    "value.spec ?? {}",
    # mutate and return: copies along the written path, the rest shared (COPIED_OUT)
    '(value => { value.metadata ??= {}; value.metadata.annotations ??= {}; '
    'value.metadata.annotations["patched-by"] = "vcluster"; return value; })(value)',
    'value["demos.loft.sh/project"] = "shop-team"; value',
    'value.metadata.name = "renamed"; value',
    'value.spec.extra = "x"; value.spec',
]


def _doc(odd: Any = None, key: str = "odd") -> dict[str, Any]:
    """A Kubernetes-like object; with ``odd``, that value stands under ``key`` deep in each
    part the scripts above share (``spec``, the items and their ``sub`` lists, the labels)."""
    def at(d: dict[str, Any]) -> dict[str, Any]:
        if odd is not None:
            d[key] = copy.deepcopy(odd) if not isinstance(odd, _Keep) else odd.value
        return d

    return {
        "apiVersion": "v1",
        "metadata": {"name": "web", "labels": at({"app": "web"}), "annotations": {"team": "shop"}},
        "spec": {"replicas": 3, "ports": [{"name": "http", "port": 80}],
                 "template": {"nodeName": "n1", "deep": at({"k": "v"})}},
        "items": [{"keep": True, "ip": "10.0.0.1", "sub": [at({"ip": "a", "node": "n"}), {"ip": "b"}]},
                  at({"keep": False, "ip": "10.0.0.2", "sub": []})],
    }


class _Keep:
    """A value placed as it is (not copied): for shapes whose identity matters."""

    def __init__(self, value: Any) -> None:
        self.value = value


class _Sub(dict):  # type: ignore[type-arg]
    """A caller's dict subclass: the general tier copies it into a plain object."""


_SHARED_LEAF = {"x": "shared"}

#: input id -> input: plain (stays native) and odd inside (converted, or left to the general tier)
INPUTS: dict[str, Any] = {
    "plain": _doc(),
    "plain-leaves": _doc({"s": "é", "t": True, "n": None, "i": 2**53, "neg": -(2**53), "e": ""}),
    "integral-float": _doc(2.0),
    "float-in-list": _doc([1, 2.0]),
    "fraction": _doc(1.5),
    "neg-zero": _doc(-0.0),
    "int-past-2p53": _doc(2**53 + 1),
    "int-far": _doc([2**64]),
    "index-key": _doc({"10": "ten", "2": "two", "b": "x"}),
    "index-key-member": _doc("v", key="10"),
    "index-key-top": {**_doc(), "10": "ten"},
    "non-ascii": _doc("café 😀"),
    "surrogate-pair": _doc("\ud83d\ude00"),
    "lone-surrogate": _doc(["\ud83d"]),
    "dict-subclass": _doc(_Keep(_Sub(a=1))),
    "ordered-dict": _doc(_Keep(collections.OrderedDict(b=1, a=2))),
    "defaultdict": _doc(_Keep(collections.defaultdict(list, {"a": "x"}))),
    "tuple": _doc(("a", "b")),
    "tuple-of-dicts": _doc(({"a": 1},)),
    "undefined": _doc(UNDEFINED),
    "undefined-in-list": _doc([UNDEFINED, 1]),
    "int-key": _doc(_Keep({1: "one"})),
    "self-shared": _doc(_Keep([_SHARED_LEAF, _SHARED_LEAF, {"again": _SHARED_LEAF}])),
    "deep-list": _doc([[[[[["x", 1.0]]]]]]),
}


@pytest.mark.parametrize("source", SHARED)
@pytest.mark.parametrize("input_id", list(INPUTS))
def test_shared_results_agree_with_general(source: str, input_id: str) -> None:
    f = syncpatch.compile_expression(source)
    value = INPUTS[input_id]
    pristine = canon(value)
    given = copy.deepcopy(value) if input_id != "self-shared" else _doc(_Keep([_SHARED_LEAF, _SHARED_LEAF]))
    native = outcome(f, given, None)
    general = outcome(f.general, copy.deepcopy(given), None)
    assert native == general, f"{source!r} on {input_id}"
    assert canon(value) == pristine
    assert canon(given) == canon(copy.deepcopy(given))  # (still well formed)


def _deep_equal_input(source: str, value: Any) -> None:
    before = canon(value)
    syncpatch.compile_expression(source)(value, None)
    assert canon(value) == before, f"{source!r} changed its input"


@pytest.mark.parametrize("source", SHARED)
def test_shared_results_leave_the_input_alone(source: str) -> None:
    for input_id in ("plain", "integral-float", "index-key", "dict-subclass", "tuple"):
        _deep_equal_input(source, copy.deepcopy(INPUTS[input_id]) if input_id != "dict-subclass"
                          else _doc(_Keep(_Sub(a=1))))


@pytest.mark.parametrize("source", SHARED)
def test_plain_shared_inputs_stay_native(source: str) -> None:
    """Plain inputs (and plain odd-looking leaves) are served by the native tier itself:
    a check that refused them would hide behind the fallback."""
    f = syncpatch.compile_expression(source)
    general = f.__globals__["_general"]
    calls: list[int] = []
    f.__globals__["_general"] = lambda *a, **k: (calls.append(1), general(*a, **k))[1]
    try:
        for input_id in ("plain", "plain-leaves"):
            f(copy.deepcopy(INPUTS[input_id]), None)
    finally:
        f.__globals__["_general"] = general
    assert not calls, f"{source!r} fell back to the general tier on a plain input"


@pytest.mark.parametrize("source", SHARED)
def test_self_shared_objects_agree(source: str) -> None:
    """One input object in several places of the result: the general tier copies each place,
    the native tier may return the one object (equal, as the caller sees it)."""
    leaf = {"x": "shared", "n": 1}
    value = _doc(_Keep([leaf, leaf, {"again": leaf}]))
    f = syncpatch.compile_expression(source)
    assert outcome(f, value, None) == outcome(f.general, _doc(_Keep([leaf, leaf, {"again": leaf}])), None)


@pytest.mark.parametrize("source", SHARED)
def test_cyclic_inputs_take_the_general_tier(source: str) -> None:
    """A cycle inside a shared subtree: the native tier's walks are bounded, so the call ends
    with the general tier's outcome (its depth error, or a result when the cycle is not read)."""
    loop: dict[str, Any] = {"name": "loop"}
    loop["self"] = loop
    value = _doc(_Keep(loop))
    f = syncpatch.compile_expression(source)

    def shape(fn: Any) -> tuple[Any, ...]:
        try:
            r = fn(value, None)
        except Exception as exc:  # noqa: BLE001 - the outcome is what we compare
            return ("err", type(exc).__name__, getattr(exc, "js_name", None))
        return ("ok", type(r).__name__)

    assert shape(f) == shape(f.general)
    assert loop["self"] is loop and set(loop) == {"name", "self"}
