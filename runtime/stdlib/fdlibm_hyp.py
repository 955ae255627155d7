"""V8's hyperbolic functions, bit for bit (see ``fdlibm.py``): cosh, sinh, tanh and their
inverses, built on fdlibm's exp, expm1, log and log1p.

Derived from fdlibm. Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
Developed at SunSoft, a Sun Microsystems, Inc. business. Permission to use, copy, modify,
and distribute this software is freely granted, provided that this notice is preserved.
"""

from __future__ import annotations

import math

from .fdlibm import _hi, _lo, exp, expm1, log, log1p

__all__ = ["cosh", "sinh", "tanh", "asinh", "acosh", "atanh"]


# --- hyperbolic -------------------------------------------------------------------------------

_OVERFLOW = 710.4758600739439


def cosh(x: float) -> float:
    """cosh (V8's e_cosh.c variant)."""
    ix = _hi(x) & 0x7FFFFFFF
    ax = abs(x)
    if ix < 0x3FD62E43:
        t = expm1(ax)
        w = 1.0 + t
        return w if ix < 0x3C800000 else 1.0 + (t * t) / (w + w)
    if ix < 0x40360000:
        t = exp(ax)
        return 0.5 * t + 0.5 / t
    if ix < 0x40862E42:
        return 0.5 * exp(ax)
    if ax <= _OVERFLOW:
        w = exp(0.5 * ax)
        return (0.5 * w) * w
    if ix >= 0x7FF00000:
        return x * x
    return math.inf


def sinh(x: float) -> float:
    """sinh (V8's e_sinh.c variant)."""
    h = -0.5 if x < 0 else 0.5
    ax = abs(x)
    if ax < 22:
        if ax < 3.725290298461914e-9:
            return x
        t = expm1(ax)
        if ax < 1:
            return h * (2 * t - t * t / (t + 1))
        return h * (t + t / (t + 1))
    if ax < 709.7822265625:
        return h * exp(ax)
    if ax <= _OVERFLOW:
        w = exp(0.5 * ax)
        return (h * w) * w
    return x * math.inf if x == x else x


def tanh(x: float) -> float:
    """tanh (fdlibm s_tanh.c)."""
    jx = _hi(x)
    ix = jx & 0x7FFFFFFF
    if ix >= 0x7FF00000:
        if x != x:
            return x
        return 1.0 if jx >= 0 else -1.0
    if ix < 0x40360000:
        if ix < 0x3E300000:
            return x
        if ix >= 0x3FF00000:
            t = expm1(2.0 * abs(x))
            z = 1.0 - 2.0 / (t + 2.0)
        else:
            t = expm1(-2.0 * abs(x))
            z = -t / (t + 2.0)
    else:
        z = 1.0
    return z if jx >= 0 else -z


_LN2 = 6.93147180559945286227e-01


def asinh(x: float) -> float:
    """asinh (fdlibm s_asinh.c)."""
    hx = _hi(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x7FF00000:
        return x + x
    if ix < 0x3E300000:
        return x
    if ix > 0x41B00000:
        w = log(abs(x)) + _LN2
    elif ix > 0x40000000:
        t = abs(x)
        w = log(2.0 * t + 1.0 / (math.sqrt(x * x + 1.0) + t))
    else:
        t = x * x
        w = log1p(abs(x) + t / (1.0 + math.sqrt(1.0 + t)))
    return w if hx > 0 else -w


def acosh(x: float) -> float:
    """acosh (fdlibm e_acosh.c)."""
    hx = _hi(x)
    if hx < 0x3FF00000:
        return math.nan
    if hx >= 0x41B00000:
        return x + x if hx >= 0x7FF00000 else log(x) + _LN2
    if ((hx - 0x3FF00000) | _lo(x)) == 0:
        return 0.0
    if hx > 0x40000000:
        t = x * x
        return log(2.0 * x - 1.0 / (x + math.sqrt(t - 1.0)))
    t = x - 1.0
    return log1p(t + math.sqrt(2.0 * t + t * t))


def atanh(x: float) -> float:
    """atanh (fdlibm e_atanh.c)."""
    hx = _hi(x)
    ix = hx & 0x7FFFFFFF
    if x != x:
        return x
    if abs(x) > 1:
        return math.nan
    if ix == 0x3FF00000 and _lo(x) == 0:
        return math.inf if x > 0 else -math.inf
    if ix < 0x3E300000:
        return x
    x = abs(x)
    if ix < 0x3FE00000:
        t = x + x
        t = 0.5 * log1p(t + t * x / (1.0 - x))
    else:
        t = 0.5 * log1p((x + x) / (1.0 - x))
    return t if hx >= 0 else -t
