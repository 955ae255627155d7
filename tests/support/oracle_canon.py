"""The public oracle's tagged forms (``run_oracle.py``): inputs decoded, results canonicalised;
shared by the conformance, regression, security and fuzz harnesses."""

from __future__ import annotations

import math
from typing import Any

from syncpatch import UNDEFINED


def canon(v: Any, _path: frozenset[int] = frozenset()) -> Any:
    """The oracle's canonical form: undefined / NaN / infinities / -0 tagged (cycles too)."""
    if v is UNDEFINED:
        return {"$undefined": True}
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, float):
        if v != v:
            return {"$number": "NaN"}
        if math.isinf(v):
            return {"$number": "Infinity" if v > 0 else "-Infinity"}
        if v == 0 and math.copysign(1.0, v) < 0:
            return {"$number": "-0"}
        return v
    if isinstance(v, (list, dict)):
        if id(v) in _path:
            return {"$cycle": True}
        path = _path | {id(v)}
        if isinstance(v, list):
            return [canon(x, path) for x in v]
        return {k: canon(x, path) for k, x in v.items()}
    return {"$opaque": "function" if callable(v) else "object"}


def decode_input(v: Any) -> Any:
    """The corpus's tagged input form -> Python values (as run_oracle.decode_input)."""
    if isinstance(v, list):
        return [decode_input(x) for x in v]
    if isinstance(v, dict):
        if list(v) == ["$undefined"]:
            return UNDEFINED
        if list(v) == ["$number"]:
            return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0}[v["$number"]]
        return {k: decode_input(x) for k, x in v.items()}
    return v
