"""V8's transcendental functions, bit for bit: V8 computes Math.sin, Math.exp, Math.pow, ...
with its port of fdlibm (src/base/ieee754.cc), whose last-place results differ from the C
library behind Python's ``math``. This module re-implements those algorithms (the classic
fdlibm / FreeBSD msun formulas and coefficients) on Python floats, which are IEEE doubles,
so ``Math.pow(10, -5)`` is ``9.999999999999999e-6`` here as in node.

Word access follows fdlibm: ``_hi`` is the signed high 32 bits, ``_lo`` the unsigned low 32.
The trigonometric functions live in ``fdlibm_trig.py``, the hyperbolic ones in
``fdlibm_hyp.py``.

Derived from fdlibm. Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
Developed at SunSoft, a Sun Microsystems, Inc. business. Permission to use, copy, modify,
and distribute this software is freely granted, provided that this notice is preserved.
"""

from __future__ import annotations

import math
import struct

__all__ = ["pow_", "exp", "log", "expm1", "log1p", "log2", "log10"]

_pack = struct.Struct("<d").pack
_unpack = struct.Struct("<d").unpack
_qpack = struct.Struct("<q").pack
_qunpack = struct.Struct("<q").unpack


def _bits(x: float) -> int:
    return _qunpack(_pack(x))[0]  # type: ignore[no-any-return]


def _hi(x: float) -> int:
    return _bits(x) >> 32


def _lo(x: float) -> int:
    return _bits(x) & 0xFFFFFFFF


def _words(hi: int, lo: int) -> float:
    b = ((hi & 0xFFFFFFFF) << 32) | (lo & 0xFFFFFFFF)
    if b >= 1 << 63:
        b -= 1 << 64
    return _unpack(_qpack(b))[0]  # type: ignore[no-any-return]


def _zero_lo(x: float) -> float:
    return _words(_hi(x), 0)


def _i32(n: int) -> int:
    n &= 0xFFFFFFFF
    return n - 0x100000000 if n >= 0x80000000 else n


# --- exp --------------------------------------------------------------------------------------

_LN2_HI = (6.93147180369123816490e-01, -6.93147180369123816490e-01)
_LN2_LO = (1.90821492927058770002e-10, -1.90821492927058770002e-10)
_HALF = (0.5, -0.5)
_INVLN2 = 1.44269504088896338700e00
_P1 = 1.66666666666666019037e-01
_P2 = -2.77777777770155933842e-03
_P3 = 6.61375632143793436117e-05
_P4 = -1.65339022054652515390e-06
_P5 = 4.13813679705723846039e-08
_TWOM1000 = 9.33263618503218878990e-302
_O_THRESHOLD = 7.09782712893383973096e02
_U_THRESHOLD = -7.45133219101941108420e02


def exp(x: float) -> float:
    """e**x (fdlibm e_exp.c)."""
    hx = _hi(x)
    xsb = (hx >> 31) & 1
    hx &= 0x7FFFFFFF
    if hx >= 0x40862E42:
        if hx >= 0x7FF00000:
            if ((hx & 0xFFFFF) | _lo(x)) != 0:
                return x + x
            return x if xsb == 0 else 0.0
        if x > _O_THRESHOLD:
            return math.inf
        if x < _U_THRESHOLD:
            return 0.0
    k = 0
    hi = lo = 0.0
    if hx > 0x3FD62E42:
        if hx < 0x3FF0A2B2:
            if x == 1.0:
                return math.e
            hi = x - _LN2_HI[xsb]
            lo = _LN2_LO[xsb]
            k = 1 - xsb - xsb
        else:
            k = int(_INVLN2 * x + _HALF[xsb])
            t = float(k)
            hi = x - t * _LN2_HI[0]
            lo = t * _LN2_LO[0]
        x = hi - lo
    elif hx < 0x3E300000:
        return 1.0 + x
    t = x * x
    c = x - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi)
    if k >= -1021:
        if k == 1024:
            return y * 2.0 * 8.98846567431158e307
        return y * _words(0x3FF00000 + (k << 20), 0)
    return y * _words(0x3FF00000 + ((k + 1000) << 20), 0) * _TWOM1000


# --- log --------------------------------------------------------------------------------------

_LG = (6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01, 2.222219843214978396e-01,
       1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01)
_TWO54 = 1.80143985094819840000e16


def _log_tiny_f(f: float, k: int, dk: float) -> float:
    """log(2**k * (1 + f)) for |f| < 2**-20."""
    if f == 0.0:
        return 0.0 if k == 0 else dk * _LN2_HI[0] + dk * _LN2_LO[0]
    r = f * f * (0.5 - 0.33333333333333333 * f)
    return f - r if k == 0 else dk * _LN2_HI[0] - ((r - dk * _LN2_LO[0]) - f)


def log(x: float) -> float:
    """Natural logarithm (fdlibm e_log.c)."""
    hx = _hi(x)
    lx = _lo(x)
    k = 0
    if hx < 0x00100000:
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -math.inf
        if hx < 0:
            return math.nan
        k -= 54
        x *= _TWO54
        hx = _hi(x)
    if hx >= 0x7FF00000:
        return x + x
    k += (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = _words(hx | (i ^ 0x3FF00000), _lo(x))
    k += i >> 20
    f = x - 1.0
    dk = float(k)
    if (0x000FFFFF & (2 + hx)) < 3:
        return _log_tiny_f(f, k, dk)
    s = f / (2.0 + f)
    z = s * s
    i = hx - 0x6147A
    w = z * z
    j = 0x6B851 - hx
    t1 = w * (_LG[1] + w * (_LG[3] + w * _LG[5]))
    t2 = z * (_LG[0] + w * (_LG[2] + w * (_LG[4] + w * _LG[6])))
    i |= j
    r = t2 + t1
    if i > 0:
        hfsq = 0.5 * f * f
        if k == 0:
            return f - (hfsq - s * (hfsq + r))
        return dk * _LN2_HI[0] - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO[0])) - f)
    if k == 0:
        return f - s * (f - r)
    return dk * _LN2_HI[0] - ((s * (f - r) - dk * _LN2_LO[0]) - f)


# --- pow --------------------------------------------------------------------------------------

_BP = (1.0, 1.5)
_DP_H = (0.0, 5.84962487220764160156e-01)
_DP_L = (0.0, 1.35003920212974897128e-08)
_TWO53 = 9007199254740992.0
_HUGE = 1.0e300
_TINY = 1.0e-300
_L = (5.99999999999994648725e-01, 4.28571428578550184252e-01, 3.33333329818377432918e-01,
      2.72728123808534006489e-01, 2.30660745775561754067e-01, 2.06975017800338417784e-01)
_LG2 = 6.93147180559945286227e-01
_LG2_H = 6.93147182464599609375e-01
_LG2_L = -1.90465429995776804525e-09
_OVT = 8.0085662595372944372e-17
_CP = 9.61796693925975554329e-01
_CP_H = 9.61796700954437255859e-01
_CP_L = -7.02846165095275826516e-09
_IVLN2 = 1.44269504088896338700e00
_IVLN2_H = 1.44269502162933349609e00
_IVLN2_L = 1.92596299112661746887e-08


def _y_is_int(hx: int, iy: int, ly: int) -> int:
    """0: y is not an integer, 1: odd integer, 2: even integer (only needed for x < 0)."""
    if hx >= 0:
        return 0
    if iy >= 0x43400000:
        return 2
    if iy >= 0x3FF00000:
        k = (iy >> 20) - 0x3FF
        if k > 20:
            j = ly >> (52 - k)
            if (j << (52 - k)) == ly:
                return 2 - (j & 1)
        elif ly == 0:
            j = iy >> (20 - k)
            if (j << (20 - k)) == iy:
                return 2 - (j & 1)
    return 0


def _pow_special(x: float, y: float, hx: int, hy: int, ix: int, iy: int, lx: int, ly: int, yisint: int) -> float | None:
    if ly == 0:
        if iy == 0x7FF00000:
            if ((ix - 0x3FF00000) | lx) == 0:
                return y - y
            if ix >= 0x3FF00000:
                return y if hy >= 0 else 0.0
            return -y if hy < 0 else 0.0
        if iy == 0x3FF00000:
            if hy >= 0:
                return x
            return 1.0 / x if x != 0 else math.copysign(math.inf, x)
        if hy == 0x40000000:
            return x * x
        if hy == 0x3FE00000 and hx >= 0:
            return math.sqrt(x)
    if lx == 0 and (ix == 0x7FF00000 or ix == 0 or ix == 0x3FF00000):
        z = abs(x)
        if hy < 0:
            z = 1.0 / z if z != 0 else math.inf
        if hx < 0:
            if ((ix - 0x3FF00000) | yisint) == 0:
                z = math.nan
            elif yisint == 1:
                z = -z
        return z
    return None


def _log2_split(ax: float, ix: int) -> tuple[float, float]:
    """log2(ax) as t1 + t2 with t1's low word zero (the |y| <= 2**31 branch)."""
    n = 0
    if ix < 0x00100000:
        ax *= _TWO53
        n -= 53
        ix = _hi(ax)
    n += (ix >> 20) - 0x3FF
    j = ix & 0x000FFFFF
    ix = j | 0x3FF00000
    if j <= 0x3988E:
        k = 0
    elif j < 0xBB67A:
        k = 1
    else:
        k = 0
        n += 1
        ix -= 0x00100000
    ax = _words(ix, _lo(ax))
    u = ax - _BP[k]
    v = 1.0 / (ax + _BP[k])
    ss = u * v
    s_h = _zero_lo(ss)
    t_h = _words(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0)
    t_l = ax - (t_h - _BP[k])
    s_l = v * ((u - s_h * t_h) - s_h * t_l)
    s2 = ss * ss
    r = s2 * s2 * (_L[0] + s2 * (_L[1] + s2 * (_L[2] + s2 * (_L[3] + s2 * (_L[4] + s2 * _L[5])))))
    r += s_l * (s_h + ss)
    s2 = s_h * s_h
    t_h = _zero_lo(3.0 + s2 + r)
    t_l = r - ((t_h - 3.0) - s2)
    u = s_h * t_h
    v = s_l * t_h + t_l * ss
    p_h = _zero_lo(u + v)
    p_l = v - (p_h - u)
    z_h = _CP_H * p_h
    z_l = _CP_L * p_h + p_l * _CP + _DP_L[k]
    t = float(n)
    t1 = _zero_lo(((z_h + z_l) + _DP_H[k]) + t)
    t2 = z_l - (((t1 - t) - _DP_H[k]) - z_h)
    return t1, t2


def _exp2_tail(p_h: float, p_l: float, s: float) -> float:
    """s * 2**(p_h + p_l), with over/underflow already excluded except at the edges."""
    z = p_l + p_h
    j = _hi(z)
    i = j & 0x7FFFFFFF
    k = (i >> 20) - 0x3FF
    n = 0
    if i > 0x3FE00000:
        n = _i32(j + (0x00100000 >> (k + 1)))
        k = ((n & 0x7FFFFFFF) >> 20) - 0x3FF
        t = _words(n & ~(0x000FFFFF >> k), 0)
        n = ((n & 0x000FFFFF) | 0x00100000) >> (20 - k)
        if j < 0:
            n = -n
        p_h -= t
    t = _zero_lo(p_l + p_h)
    u = t * _LG2_H
    v = (p_l - (t - p_h)) * _LG2 + t * _LG2_L
    z = u + v
    w = v - (z - u)
    t = z * z
    t1 = z - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    r = (z * t1) / ((t1 - 2.0) - (w + z * w))  # sic: V8's grouping, not fdlibm's
    z = 1.0 - (r - z)
    j = _hi(z) + (n << 20)
    if (j >> 20) <= 0:
        z = math.ldexp(z, n)
    else:
        z = _words(j, _lo(z))
    return s * z


def _log2_near_one(ax: float, ix: int, iy: int, hy: int, s: float) -> tuple[float, float] | float:
    """|y| > 2**31: over/underflow unless |x| is within 2**-20 of 1, where log2(x) is a
    short series; the final answer, or log2(x) as t1 + t2."""
    if iy > 0x43F00000:
        if ix <= 0x3FEFFFFF:
            return math.inf if hy < 0 else 0.0
        if ix >= 0x3FF00000:
            return math.inf if hy > 0 else 0.0
    if ix < 0x3FEFFFFF:
        return s * math.inf if hy < 0 else s * 0.0
    if ix > 0x3FF00000:
        return s * math.inf if hy > 0 else s * 0.0
    t = ax - 1.0
    w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25))
    u = _IVLN2_H * t
    v = t * _IVLN2_L - w * _IVLN2
    t1 = _zero_lo(u + v)
    return t1, v - (t1 - u)


def pow_(x: float, y: float) -> float:
    """x ** y (fdlibm e_pow.c). JS's own special cases (NaN exponent, 1 ** Infinity) are
    the caller's."""
    hx, lx, hy, ly = _hi(x), _lo(x), _hi(y), _lo(y)
    ix, iy = hx & 0x7FFFFFFF, hy & 0x7FFFFFFF
    if (iy | ly) == 0:
        return 1.0
    if ix > 0x7FF00000 or (ix == 0x7FF00000 and lx != 0) or iy > 0x7FF00000 or (iy == 0x7FF00000 and ly != 0):
        return x + y
    yisint = _y_is_int(hx, iy, ly)
    special = _pow_special(x, y, hx, hy, ix, iy, lx, ly, yisint)
    if special is not None:
        return special
    n = (hx >> 31) + 1
    if (n | yisint) == 0:
        return math.nan
    s = -1.0 if (n | (yisint - 1)) == 0 else 1.0
    ax = abs(x)
    if iy > 0x41E00000:
        split = _log2_near_one(ax, ix, iy, hy, s)
        if type(split) is float:
            return split
        t1, t2 = split  # type: ignore[misc]
    else:
        t1, t2 = _log2_split(ax, ix)
    y1 = _zero_lo(y)
    p_l = (y - y1) * t1 + y * t2
    p_h = y1 * t1
    z = p_l + p_h
    j = _hi(z)
    i = _lo(z)
    if j >= 0x40900000:
        if ((j - 0x40900000) | i) != 0 or p_l + _OVT > z - p_h:
            return s * math.inf
    elif (j & 0x7FFFFFFF) >= 0x4090CC00:
        if ((j - _i32(0xC090CC00)) | i) != 0 or p_l <= z - p_h:
            return s * 0.0
    return _exp2_tail(p_h, p_l, s)


# --- expm1 / log1p / log2 / log10 -------------------------------------------------------------

_Q = (-3.33333333333331316428e-02, 1.58730158725481460165e-03, -7.93650757867487942473e-05,
      4.00821782732936239552e-06, -2.01099218183624371326e-07)


def _expm1_scale(x: float, e: float, c: float, hxs: float, k: int) -> float:
    twopk = _words(_i32(0x3FF00000 + (k << 20)), 0)
    e = x * (e - c) - c
    e -= hxs
    if k == -1:
        return 0.5 * (x - e) - 0.5
    if k == 1:
        return -2.0 * (e - (x + 0.5)) if x < -0.25 else 1.0 + 2.0 * (x - e)
    if k <= -2 or k > 56:
        y = 1.0 - (e - x)
        y = y * 2.0 * 8.98846567431158e307 if k == 1024 else y * twopk
        return y - 1.0
    if k < 20:
        t = _words(0x3FF00000 - (0x200000 >> k), 0)
        return (t - (e - x)) * twopk
    t = _words((0x3FF - k) << 20, 0)
    return ((x - (e + t)) + 1.0) * twopk


def expm1(x: float) -> float:
    """expm1 (fdlibm s_expm1.c)."""
    hx = _hi(x)
    xsb = hx & 0x80000000
    hx &= 0x7FFFFFFF
    if hx >= 0x4043687A:
        if hx >= 0x40862E42:
            if hx >= 0x7FF00000:
                if x != x:
                    return x
                return x if xsb == 0 else -1.0
            if x > _O_THRESHOLD:
                return math.inf
        if xsb != 0:
            return -1.0
    c = 0.0
    if hx > 0x3FD62E42:
        if hx < 0x3FF0A2B2:
            if xsb == 0:
                hi, lo, k = x - _LN2_HI[0], _LN2_LO[0], 1
            else:
                hi, lo, k = x + _LN2_HI[0], -_LN2_LO[0], -1
        else:
            k = int(_INVLN2 * x + (0.5 if xsb == 0 else -0.5))
            t = float(k)
            hi = x - t * _LN2_HI[0]
            lo = t * _LN2_LO[0]
        x = hi - lo
        c = (hi - x) - lo
    elif hx < 0x3C900000:
        return x
    else:
        k = 0
    hfx = 0.5 * x
    hxs = x * hfx
    r1 = 1.0 + hxs * (_Q[0] + hxs * (_Q[1] + hxs * (_Q[2] + hxs * (_Q[3] + hxs * _Q[4]))))
    t = 3.0 - r1 * hfx
    e = hxs * ((r1 - t) / (6.0 - x * t))
    if k == 0:
        return x - (x * e - hxs)
    return _expm1_scale(x, e, c, hxs, k)


def _log1p_reduce(x: float, hx: int) -> tuple[int, float, float, int]:
    """(k, f, c, hu) with 1+x = 2**k * (1+f) and c the rounding correction."""
    if hx < 0x43400000:
        u = 1.0 + x
        hu = _hi(u)
        k = (hu >> 20) - 1023
        c = (1.0 - (u - x) if k > 0 else x - (u - 1.0)) / u
    else:
        u = x
        hu = _hi(u)
        k = (hu >> 20) - 1023
        c = 0.0
    hu &= 0x000FFFFF
    if hu < 0x6A09E:
        u = _words(hu | 0x3FF00000, _lo(u))
    else:
        k += 1
        u = _words(hu | 0x3FE00000, _lo(u))
        hu = (0x00100000 - hu) >> 2
    return k, u - 1.0, c, hu


def log1p(x: float) -> float:
    """log1p (fdlibm s_log1p.c)."""
    hx = _hi(x)
    ax = hx & 0x7FFFFFFF
    k = 1
    f = c = 0.0
    hu = 0
    if hx < 0x3FDA827A:
        if ax >= 0x3FF00000:
            return -math.inf if x == -1.0 else math.nan
        if ax < 0x3E200000:
            return x if ax < 0x3C900000 else x - x * x * 0.5
        if hx > 0 or hx <= _i32(0xBFD2BEC4):
            k, f, hu = 0, x, 1
    if hx >= 0x7FF00000:
        return x + x
    if k != 0:
        k, f, c, hu = _log1p_reduce(x, hx)
    hfsq = 0.5 * f * f
    if hu == 0:
        if f == 0.0:
            return 0.0 if k == 0 else k * _LN2_HI[0] + (c + k * _LN2_LO[0])
        r = hfsq * (1.0 - 0.66666666666666666 * f)
        return f - r if k == 0 else k * _LN2_HI[0] - ((r - (k * _LN2_LO[0] + c)) - f)
    s = f / (2.0 + f)
    z = s * s
    r = z * (_LG[0] + z * (_LG[1] + z * (_LG[2] + z * (_LG[3] + z * (_LG[4] + z * (_LG[5] + z * _LG[6]))))))
    if k == 0:
        return f - (hfsq - s * (hfsq + r))
    return k * _LN2_HI[0] - ((hfsq - (s * (hfsq + r) + (k * _LN2_LO[0] + c))) - f)


def _k_log1p(f: float) -> float:
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    t1 = w * (_LG[1] + w * (_LG[3] + w * _LG[5]))
    t2 = z * (_LG[0] + w * (_LG[2] + w * (_LG[4] + w * _LG[6])))
    return s * (0.5 * f * f + (t2 + t1))


def _log_reduce(x: float) -> tuple[int, float, int, int] | float:
    """Shared front of log2/log10: (k, x normalized, hx, lx), or the final answer."""
    hx, lx = _hi(x), _lo(x)
    k = 0
    if hx < 0x00100000:
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -math.inf
        if hx < 0:
            return math.nan
        k -= 54
        x *= _TWO54
        hx, lx = _hi(x), _lo(x)
    if hx >= 0x7FF00000:
        return x + x
    if hx == 0x3FF00000 and lx == 0:
        return 0.0
    return k + (hx >> 20) - 1023, x, hx, lx


def log2(x: float) -> float:
    """log2 (FreeBSD e_log2.c, as in V8)."""
    red = _log_reduce(x)
    if type(red) is float:
        return red
    k, x, hx, lx = red  # type: ignore[misc]
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = _words(hx | (i ^ 0x3FF00000), lx)
    k += i >> 20
    y = float(k)
    f = x - 1.0
    hfsq = 0.5 * f * f
    r = _k_log1p(f)
    hi = _zero_lo(f - hfsq)
    lo = (f - hi) - hfsq + r
    val_hi = hi * 1.44269504072144627571e00
    val_lo = (lo + hi) * 1.67517131648865118353e-10 + lo * 1.44269504072144627571e00
    w = y + val_hi
    val_lo += (y - w) + val_hi
    return val_lo + w


def log10(x: float) -> float:
    """log10 (fdlibm e_log10.c, as in V8)."""
    red = _log_reduce(x)
    if type(red) is float:
        return red
    k, x, hx, lx = red  # type: ignore[misc]
    i = 1 if k < 0 else 0
    x = _words((hx & 0x000FFFFF) | ((0x3FF - i) << 20), lx)
    y = float(k + i)
    z = y * 3.69423907715893078616e-13 + 4.34294481903251816668e-01 * log(x)
    return z + y * 3.01029995663611771306e-01
