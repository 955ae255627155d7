"""Property test: Number.prototype.toFixed / toPrecision / toExponential / toString(radix)
and a few Math functions agree with node on random doubles (skipped without node).

Each hypothesis example is a batch of doubles sent to node in one process, so the default
run stays small; raise ``SYNCPATCH_NODE_EXAMPLES`` for a longer soak.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from syncpatch.runtime import members  # noqa: F401  (loads the stdlib)
from syncpatch.runtime.convert import normalize_number
from syncpatch.runtime.stdlib.math import MATH
from syncpatch.runtime.stdlib.registry import NUMBER_PROTO
from syncpatch.runtime.values import UNDEFINED

pytestmark = [pytest.mark.node, pytest.mark.skipif(shutil.which("node") is None, reason="node not on PATH")]

EXAMPLES = int(os.environ.get("SYNCPATCH_NODE_EXAMPLES", "4"))
CALLS = [
    ("toFixed", (0,)), ("toFixed", (2,)), ("toFixed", (20,)), ("toPrecision", (1,)), ("toPrecision", (7,)),
    ("toPrecision", (21,)), ("toExponential", ()), ("toExponential", (3,)), ("toString", (2,)),
    ("toString", (7,)), ("toString", (16,)), ("toString", (36,)),
]
MATH_FNS = ["sin", "cos", "tan", "exp", "log", "cbrt", "atan", "sinh", "log2"]

RUNNER = r"""
const [xs, calls, fns] = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const show = x => typeof x === 'number' ? (Object.is(x, -0) ? '-0' : String(x)) : x;
const out = [];
for (const x of xs) {
  for (const [m, args] of calls) {
    try { out.push(x[m](...args)); } catch (e) { out.push('!' + e.name); }
  }
  for (const f of fns) out.push(show(Math[f](x)));
}
process.stdout.write(JSON.stringify(out));
"""

doubles = st.floats(allow_nan=False, allow_infinity=False, width=64)
decimal_like = st.builds(lambda i, d: i / 10**d, st.integers(-10**9, 10**9), st.integers(0, 8))


def _mine(x: float) -> list[str]:
    v = normalize_number(x)
    out = []
    for name, args in CALLS:
        try:
            out.append(NUMBER_PROTO[name].call(v, *args))
        except Exception as exc:  # JSThrow
            out.append("!" + exc.value.error_name)  # type: ignore[attr-defined]
    for f in MATH_FNS:
        r = MATH[f].call(UNDEFINED, v)
        if r == 0 and math.copysign(1.0, r) < 0:
            out.append("-0")
        else:
            out.append(NUMBER_PROTO["toString"].call(r))
    return out


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(doubles, decimal_like), min_size=40, max_size=40))
def test_formatting_and_math_agree_with_node(xs: list[float]) -> None:
    payload = json.dumps([xs, CALLS, MATH_FNS])
    proc = subprocess.run(["node", "-e", RUNNER], input=payload, capture_output=True, text=True, check=True)
    theirs = json.loads(proc.stdout)
    per = len(CALLS) + len(MATH_FNS)
    for i, x in enumerate(xs):
        assert _mine(x) == theirs[i * per : (i + 1) * per], f"x = {x!r}"


DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
PARSE_RUNNER = "const xs = JSON.parse(require('fs').readFileSync(0, 'utf8'));" \
    "process.stdout.write(JSON.stringify(xs.map(([s, r]) => String(parseInt(s, r)))));"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.text(alphabet=DIGITS + " -+x.", max_size=50), st.integers(0, 37)), min_size=60, max_size=60))
def test_parse_int_agrees_with_node(cases: list[tuple[str, int]]) -> None:
    from syncpatch.runtime.stdlib.number import number_to_string, parse_int

    proc = subprocess.run(["node", "-e", PARSE_RUNNER], input=json.dumps(cases), capture_output=True, text=True,
                          check=True)
    theirs = json.loads(proc.stdout)
    for (s, radix), want in zip(cases, theirs):
        assert number_to_string(parse_int(s, radix)) == want, (s, radix)
