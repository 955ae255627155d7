"""The canonical form of a JS number held in Python, in a module of its own so that both the
conversions (``convert``) and the reading of callers' subclass scalars (``subclasses``) use it
without importing each other."""

from __future__ import annotations

import math

_TWO_53 = 2**53


def normalize_number(x: float | int) -> int | float:
    """Canonical number: an integral float within +-2**53 (and not -0) becomes an int;
    an int outside +-2**53 becomes the nearest double, as JS would hold it."""
    if type(x) is int:
        if -_TWO_53 <= x <= _TWO_53:
            return x
        try:
            return float(x)
        except OverflowError:
            return math.inf if x > 0 else -math.inf
    if float.is_integer(x) and -_TWO_53 <= x <= _TWO_53 and (x != 0 or math.copysign(1.0, x) > 0):
        return int(x)
    return x
