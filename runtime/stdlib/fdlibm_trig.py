"""V8's trigonometric functions, bit for bit (see ``fdlibm.py``): sin, cos and tan with
fdlibm's argument reduction (Cody-Waite for medium arguments, Payne-Hanek
``__kernel_rem_pio2`` for huge ones), atan, atan2, asin, acos and cbrt.

Derived from fdlibm. Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
Developed at SunSoft, a Sun Microsystems, Inc. business. Permission to use, copy, modify,
and distribute this software is freely granted, provided that this notice is preserved.
"""

from __future__ import annotations

import math

from .fdlibm import _bits, _hi, _lo, _words, _zero_lo

__all__ = ["sin", "cos", "tan", "atan", "atan2", "asin", "acos", "cbrt"]


# --- argument reduction for sin/cos/tan -------------------------------------------------------

_INVPIO2 = 6.36619772367581382433e-01
_PIO2_1 = 1.57079632673412561417e00
_PIO2_1T = 6.07710050650619224932e-11
_PIO2_2 = 6.07710050630396597660e-11
_PIO2_2T = 2.02226624879595063154e-21
_PIO2_3 = 2.02226624871116645580e-21
_PIO2_3T = 8.47842766036889956997e-32
_NPIO2_HW = (
    0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB, 0x402921FB,
    0x402C463A, 0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB, 0x40378FDB, 0x403921FB,
    0x403AB41B, 0x403C463A, 0x403DD85A, 0x403F6A7A, 0x40407E4C, 0x4041475C, 0x4042106C, 0x4042D97C,
    0x4043A28C, 0x40446B9C, 0x404534AC, 0x4045FDBB, 0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB,
)


def _rem_pio2_medium(x: float, hx: int, ix: int) -> tuple[int, float, float]:
    t = abs(x)
    n = int(t * _INVPIO2 + 0.5)
    fn = float(n)
    r = t - fn * _PIO2_1
    w = fn * _PIO2_1T
    if n < 32 and ix != _NPIO2_HW[n - 1]:
        y0 = r - w
    else:
        j = ix >> 20
        y0 = r - w
        i = j - ((_hi(y0) >> 20) & 0x7FF)
        if i > 16:
            t = r
            w = fn * _PIO2_2
            r = t - w
            w = fn * _PIO2_2T - ((t - r) - w)
            y0 = r - w
            i = j - ((_hi(y0) >> 20) & 0x7FF)
            if i > 49:
                t = r
                w = fn * _PIO2_3
                r = t - w
                w = fn * _PIO2_3T - ((t - r) - w)
                y0 = r - w
    y1 = (r - y0) - w
    if hx < 0:
        return -n, -y0, -y1
    return n, y0, y1


def _pi_bits(bits: int) -> int:
    """floor(pi * 2**bits), by Machin's formula in integer arithmetic."""
    guard = bits + 64
    one = 1 << guard

    def arctan_inv(k: int) -> int:
        total = term = one // k
        k2, i, sign = k * k, 1, -1
        while term:
            term //= k2
            i += 2
            total += sign * (term // i)
            sign = -sign
        return total

    return (16 * arctan_inv(5) - 4 * arctan_inv(239)) >> 64


def _tables() -> tuple[list[int], list[float]]:
    """fdlibm's ipio2 (2/pi in 24-bit chunks) and PIo2 (pi/2 in 24-bit pieces)."""
    if not _TABLES:
        pi = _pi_bits(1700)
        two_over_pi = (1 << (1700 + 1 + 24 * 66)) // pi  # 2/pi * 2**(24*66)
        ipio2 = [(two_over_pi >> (24 * (65 - i))) & 0xFFFFFF for i in range(66)]
        half_pi = pi  # pi/2 * 2**1701
        pio2 = [math.ldexp(float((half_pi >> (1701 - 23 - 24 * i)) & 0xFFFFFF), -(23 + 24 * i)) for i in range(8)]
        _TABLES.extend([ipio2, pio2])
    return _TABLES[0], _TABLES[1]  # type: ignore[return-value]


_TABLES: list[object] = []
_TWO24 = 16777216.0
_TWON24 = 5.96046447753906250000e-08


class _RemPio2:
    """State of fdlibm's __kernel_rem_pio2 with prec = 2 (jk = 4): the Payne-Hanek
    reduction of a huge argument given as 24-bit pieces ``x`` scaled by 2**e0."""

    JK = 4

    def __init__(self, x: list[float], e0: int, nx: int) -> None:
        self.ipio2, self.pio2 = _tables()
        self.x, self.jx = x, nx - 1
        self.jv = max(0, (e0 - 3) // 24) if e0 >= 3 else 0
        self.q0 = e0 - 24 * (self.jv + 1)
        self.f = [0.0] * 20
        self.q = [0.0] * 20
        self.iq = [0] * 20
        j = self.jv - self.jx
        for i in range(self.jx + self.JK + 1):
            self.f[i] = 0.0 if j < 0 else float(self.ipio2[j])
            j += 1
        for i in range(self.JK + 1):
            self.q[i] = self.product(i)
        self.jz = self.JK

    def product(self, i: int) -> float:
        fw = 0.0
        for j in range(self.jx + 1):
            fw += self.x[j] * self.f[self.jx + i - j]
        return fw

    def distill(self) -> tuple[int, int, float]:
        """Split q[] into 24-bit iq[], find n (mod 8) and the fraction z; (n, ih, z)."""
        iq, q0, jz = self.iq, self.q0, self.jz
        z = self.q[jz]
        for i, j in enumerate(range(jz, 0, -1)):
            fw = float(int(_TWON24 * z))
            iq[i] = int(z - _TWO24 * fw)
            z = self.q[j - 1] + fw
        z = math.ldexp(z, q0)
        z -= 8.0 * math.floor(z * 0.125)
        n = int(z)
        z -= float(n)
        ih = 0
        if q0 > 0:
            i = iq[jz - 1] >> (24 - q0)
            n += i
            iq[jz - 1] -= i << (24 - q0)
            ih = iq[jz - 1] >> (23 - q0)
        elif q0 == 0:
            ih = iq[jz - 1] >> 23
        elif z >= 0.5:
            ih = 2
        if ih > 0:
            n, z = n + 1, self.complement(ih, z)
        return n, ih, z

    def complement(self, ih: int, z: float) -> float:
        """q >= 0.5: replace the fraction by 1 - q."""
        iq, jz, carry = self.iq, self.jz, 0
        for i in range(jz):
            j = iq[i]
            if carry == 0:
                if j != 0:
                    carry = 1
                    iq[i] = 0x1000000 - j
            else:
                iq[i] = 0xFFFFFF - j
        if self.q0 == 1:
            iq[jz - 1] &= 0x7FFFFF
        elif self.q0 == 2:
            iq[jz - 1] &= 0x3FFFFF
        if ih == 2:
            z = 1.0 - z
            if carry != 0:
                z -= math.ldexp(1.0, self.q0)
        return z

    def needs_more_terms(self, z: float) -> bool:
        """Total cancellation: take more terms of 2/pi and recompute."""
        if z != 0.0 or any(self.iq[i] for i in range(self.JK, self.jz)):
            return False
        k = 1
        while self.iq[self.JK - k] == 0:
            k += 1
        for i in range(self.jz + 1, self.jz + k + 1):
            self.f[self.jx + i] = float(self.ipio2[self.jv + i])
            self.q[i] = self.product(i)
        self.jz += k
        return True

    def result(self, ih: int, z: float) -> tuple[float, float]:
        iq = self.iq
        if z == 0.0:
            self.jz -= 1
            self.q0 -= 24
            while iq[self.jz] == 0:
                self.jz -= 1
                self.q0 -= 24
        else:
            z = math.ldexp(z, -self.q0)
            if z >= _TWO24:
                fw = float(int(_TWON24 * z))
                iq[self.jz] = int(z - _TWO24 * fw)
                self.jz += 1
                self.q0 += 24
                iq[self.jz] = int(fw)
            else:
                iq[self.jz] = int(z)
        return self.compress(ih)

    def compress(self, ih: int) -> tuple[float, float]:
        jz, q = self.jz, self.q
        fw = math.ldexp(1.0, self.q0)
        for i in range(jz, -1, -1):
            q[i] = fw * self.iq[i]
            fw *= _TWON24
        fq = [0.0] * 20
        for i in range(jz, -1, -1):
            fw = 0.0
            k = 0
            while k <= self.JK and k <= jz - i:
                fw += self.pio2[k] * q[i + k]
                k += 1
            fq[jz - i] = fw
        fw = 0.0
        for i in range(jz, -1, -1):
            fw += fq[i]
        y0 = fw if ih == 0 else -fw
        fw = fq[0] - fw
        for i in range(1, jz + 1):
            fw += fq[i]
        return y0, (fw if ih == 0 else -fw)


def _kernel_rem_pio2(x: list[float], e0: int, nx: int) -> tuple[int, float, float]:
    """fdlibm's __kernel_rem_pio2 (prec = 2): (n mod 8, y0, y1)."""
    state = _RemPio2(x, e0, nx)
    while True:
        n, ih, z = state.distill()
        if not state.needs_more_terms(z):
            break
    y0, y1 = state.result(ih, z)
    return n & 7, y0, y1


def _rem_pio2_large(x: float, hx: int, ix: int) -> tuple[int, float, float]:
    e0 = (ix >> 20) - 1046
    z = _words(ix - (e0 << 20), _lo(x))
    tx = [0.0, 0.0, 0.0]
    for i in range(2):
        tx[i] = float(int(z))
        z = (z - tx[i]) * _TWO24
    tx[2] = z
    nx = 3
    while tx[nx - 1] == 0.0:
        nx -= 1
    n, y0, y1 = _kernel_rem_pio2(tx, e0, nx)
    if hx < 0:
        return -n, -y0, -y1
    return n, y0, y1


def _rem_pio2(x: float) -> tuple[int, float, float]:
    """__ieee754_rem_pio2: n and y0 + y1 = x - n*pi/2."""
    hx = _hi(x)
    ix = hx & 0x7FFFFFFF
    if ix < 0x4002D97C:
        sign = 1.0 if hx > 0 else -1.0
        z = x - sign * _PIO2_1
        if ix != 0x3FF921FB:
            y0 = z - sign * _PIO2_1T
            return (1 if hx > 0 else -1), y0, (z - y0) - sign * _PIO2_1T
        z -= sign * _PIO2_2
        y0 = z - sign * _PIO2_2T
        return (1 if hx > 0 else -1), y0, (z - y0) - sign * _PIO2_2T
    if ix <= 0x413921FB:
        return _rem_pio2_medium(x, hx, ix)
    return _rem_pio2_large(x, hx, ix)


# --- kernels on [-pi/4, pi/4] -----------------------------------------------------------------

_S = (-1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04,
      2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10)
_C = (4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05,
      -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11)
_T = (3.33333333333334091986e-01, 1.33333333333201242699e-01, 5.39682539762260521377e-02,
      2.18694882948595424599e-02, 8.86323982359930005737e-03, 3.59207910759131235356e-03,
      1.45620945432529025516e-03, 5.88041240820264096874e-04, 2.46463134818469906812e-04,
      7.81794442939557092300e-05, 7.14072491382608190305e-05, -1.85586374855275456654e-05,
      2.59073051863633712884e-05)
_PIO4 = 7.85398163397448278999e-01
_PIO4LO = 3.06161699786838301793e-17


def _ksin(x: float, y: float, iy: int) -> float:
    if (_hi(x) & 0x7FFFFFFF) < 0x3E400000 and int(x) == 0:
        return x
    z = x * x
    v = z * x
    r = _S[1] + z * (_S[2] + z * (_S[3] + z * (_S[4] + z * _S[5])))
    if iy == 0:
        return x + v * (_S[0] + z * r)
    return x - ((z * (0.5 * y - v * r) - y) - v * _S[0])


def _kcos(x: float, y: float) -> float:
    ix = _hi(x) & 0x7FFFFFFF
    if ix < 0x3E400000 and int(x) == 0:
        return 1.0
    z = x * x
    r = z * (_C[0] + z * (_C[1] + z * (_C[2] + z * (_C[3] + z * (_C[4] + z * _C[5])))))
    if ix < 0x3FD33333:
        return 1.0 - (0.5 * z - (z * r - x * y))
    qx = 0.28125 if ix > 0x3FE90000 else _words(ix - 0x00200000, 0)
    iz = 0.5 * z - qx
    a = 1.0 - qx
    return a - (iz - (z * r - x * y))


def _neg_recip(w: float, x: float, r: float) -> float:
    """-1/(x+r) computed carefully, as __kernel_tan does."""
    z = _zero_lo(w)
    v = r - (z - x)
    a = -1.0 / w
    t = _zero_lo(a)
    s = 1.0 + t * z
    return t + a * (s + t * v)


def _ktan(x: float, y: float, iy: int) -> float:
    hx = _hi(x)
    ix = hx & 0x7FFFFFFF
    if ix < 0x3E300000 and int(x) == 0:
        if ((ix | _lo(x)) | (iy + 1)) == 0:
            return 1.0 / abs(x)
        if iy == 1:
            return x
        return _neg_recip(x + y, x, y)
    big = ix >= 0x3FE59428
    if big:
        if hx < 0:
            x, y = -x, -y
        x = (_PIO4 - x) + (_PIO4LO - y)
        y = 0.0
    z = x * x
    w = z * z
    r = _T[1] + w * (_T[3] + w * (_T[5] + w * (_T[7] + w * (_T[9] + w * _T[11]))))
    v = z * (_T[2] + w * (_T[4] + w * (_T[6] + w * (_T[8] + w * (_T[10] + w * _T[12])))))
    s = z * x
    r = y + z * (s * (r + v) + y)
    r += _T[0] * s
    w = x + r
    if big:
        v = float(iy)
        return float(1 - ((hx >> 30) & 2)) * (v - 2.0 * (x - (w * w / (w + v) - r)))
    if iy == 1:
        return w
    return _neg_recip(w, x, r)


def sin(x: float) -> float:
    """sin (fdlibm s_sin.c)."""
    ix = _hi(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return _ksin(x, 0.0, 0)
    if ix >= 0x7FF00000:
        return math.nan
    n, y0, y1 = _rem_pio2(x)
    q = n & 3
    if q == 0:
        return _ksin(y0, y1, 1)
    if q == 1:
        return _kcos(y0, y1)
    if q == 2:
        return -_ksin(y0, y1, 1)
    return -_kcos(y0, y1)


def cos(x: float) -> float:
    """cos (fdlibm s_cos.c)."""
    ix = _hi(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return _kcos(x, 0.0)
    if ix >= 0x7FF00000:
        return math.nan
    n, y0, y1 = _rem_pio2(x)
    q = n & 3
    if q == 0:
        return _kcos(y0, y1)
    if q == 1:
        return -_ksin(y0, y1, 1)
    if q == 2:
        return -_kcos(y0, y1)
    return _ksin(y0, y1, 1)


def tan(x: float) -> float:
    """tan (fdlibm s_tan.c)."""
    ix = _hi(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return _ktan(x, 0.0, 1)
    if ix >= 0x7FF00000:
        return math.nan
    n, y0, y1 = _rem_pio2(x)
    return _ktan(y0, y1, 1 - ((n & 1) << 1))


# --- inverse trigonometric --------------------------------------------------------------------

_ATANHI = (4.63647609000806093515e-01, 7.85398163397448278999e-01, 9.82793723247329054082e-01,
           1.57079632679489655800e00)
_ATANLO = (2.26987774529616870924e-17, 3.06161699786838301793e-17, 1.39033110312309984516e-17,
           6.12323399573676603587e-17)
_AT = (3.33333333333329318027e-01, -1.99999999998764832476e-01, 1.42857142725034663711e-01,
       -1.11111104054623557880e-01, 9.09088713343650656196e-02, -7.69187620504482999495e-02,
       6.66107313738753120669e-02, -5.83357013379057348645e-02, 4.97687799461593236017e-02,
       -3.65315727442169155270e-02, 1.62858201153657823623e-02)


def atan(x: float) -> float:
    """atan (fdlibm s_atan.c)."""
    hx = _hi(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x44100000:
        if x != x:
            return x
        return _ATANHI[3] + _ATANLO[3] if hx > 0 else -_ATANHI[3] - _ATANLO[3]
    if ix < 0x3FDC0000:
        if ix < 0x3E400000:
            return x
        ident = -1
    else:
        x = abs(x)
        if ix < 0x3FF30000:
            if ix < 0x3FE60000:
                ident, x = 0, (2.0 * x - 1.0) / (2.0 + x)
            else:
                ident, x = 1, (x - 1.0) / (x + 1.0)
        elif ix < 0x40038000:
            ident, x = 2, (x - 1.5) / (1.0 + 1.5 * x)
        else:
            ident, x = 3, -1.0 / x
    z = x * x
    w = z * z
    s1 = z * (_AT[0] + w * (_AT[2] + w * (_AT[4] + w * (_AT[6] + w * (_AT[8] + w * _AT[10])))))
    s2 = w * (_AT[1] + w * (_AT[3] + w * (_AT[5] + w * (_AT[7] + w * _AT[9]))))
    if ident < 0:
        return x - x * (s1 + s2)
    z = _ATANHI[ident] - ((x * (s1 + s2) - _ATANLO[ident]) - x)
    return -z if hx < 0 else z


_PI = 3.1415926535897931160e00
_PI_O_2 = 1.5707963267948965580e00
_PI_O_4 = 7.8539816339744827900e-01
_PI_LO = 1.2246467991473531772e-16


def atan2(y: float, x: float) -> float:
    """atan2 (fdlibm e_atan2.c)."""
    if x != x or y != y:
        return math.nan
    if x == 1.0:
        return atan(y)
    hx, hy = _hi(x), _hi(y)
    m = ((hy >> 31) & 1) | ((hx >> 30) & 2)
    if y == 0:
        return (y, y, _PI, -_PI)[m]
    if x == 0:
        return -_PI_O_2 if hy < 0 else _PI_O_2
    if x in (math.inf, -math.inf):
        if y in (math.inf, -math.inf):
            return (_PI_O_4, -_PI_O_4, 3.0 * _PI_O_4, -3.0 * _PI_O_4)[m]
        return (0.0, -0.0, _PI, -_PI)[m]
    if y in (math.inf, -math.inf):
        return -_PI_O_2 if hy < 0 else _PI_O_2
    k = ((hy & 0x7FFFFFFF) - (hx & 0x7FFFFFFF)) >> 20
    if k > 60:
        z = _PI_O_2 + 0.5 * _PI_LO
        m &= 1
    elif hx < 0 and k < -60:
        z = 0.0
    else:
        z = atan(abs(y / x))
    if m == 0:
        return z
    if m == 1:
        return -z
    if m == 2:
        return _PI - (z - _PI_LO)
    return (z - _PI_LO) - _PI


_PIO2_HI = 1.57079632679489655800e00
_PIO2_LO = 6.12323399573676603587e-17
_PS = (1.66666666666666657415e-01, -3.25565818622400915405e-01, 2.01212532134862925881e-01,
       -4.00555345006794114027e-02, 7.91534994289814532176e-04, 3.47933107596021167570e-05)
_QS = (-2.40339491173441421878e00, 2.02094576023350569471e00, -6.88283971605453293030e-01,
       7.70381505559019352791e-02)


def _asin_rational(t: float) -> tuple[float, float]:
    p = t * (_PS[0] + t * (_PS[1] + t * (_PS[2] + t * (_PS[3] + t * (_PS[4] + t * _PS[5])))))
    q = 1.0 + t * (_QS[0] + t * (_QS[1] + t * (_QS[2] + t * _QS[3])))
    return p, q


def asin(x: float) -> float:
    """asin (fdlibm e_asin.c)."""
    hx = _hi(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x3FF00000:
        if ((ix - 0x3FF00000) | _lo(x)) == 0:
            return x * _PIO2_HI + x * _PIO2_LO
        return math.nan
    if ix < 0x3FE00000:
        if ix < 0x3E400000:
            return x
        p, q = _asin_rational(x * x)
        return x + x * (p / q)
    t = (1.0 - abs(x)) * 0.5
    p, q = _asin_rational(t)
    s = math.sqrt(t)
    if ix >= 0x3FEF3333:
        t = _PIO2_HI - (2.0 * (s + s * (p / q)) - _PIO2_LO)
    else:
        w = _zero_lo(s)
        c = (t - w * w) / (s + w)
        p = 2.0 * s * (p / q) - (_PIO2_LO - 2.0 * c)
        t = _PIO4 - (p - (_PIO4 - 2.0 * w))
    return t if hx > 0 else -t


def acos(x: float) -> float:
    """acos (fdlibm e_acos.c)."""
    hx = _hi(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x3FF00000:
        if ((ix - 0x3FF00000) | _lo(x)) == 0:
            return 0.0 if hx > 0 else _PI + 2.0 * _PIO2_LO
        return math.nan
    if ix < 0x3FE00000:
        if ix <= 0x3C600000:
            return _PIO2_HI + _PIO2_LO
        p, q = _asin_rational(x * x)
        return _PIO2_HI - (x - (_PIO2_LO - x * (p / q)))
    if hx < 0:
        z = (1.0 + x) * 0.5
        p, q = _asin_rational(z)
        s = math.sqrt(z)
        w = (p / q) * s - _PIO2_LO
        return _PI - 2.0 * (s + w)
    z = (1.0 - x) * 0.5
    s = math.sqrt(z)
    df = _zero_lo(s)
    c = (z - df * df) / (s + df)
    p, q = _asin_rational(z)
    return 2.0 * (df + ((p / q) * s + c))


# --- cbrt -------------------------------------------------------------------------------------

_CB = (1.87595182427177009643, -1.88497979543377169875, 1.621429720105354466140, -0.758397934778766047437,
       0.145996192886612446982)


def cbrt(x: float) -> float:
    """cbrt (FreeBSD s_cbrt.c, as in V8)."""
    hx = _hi(x)
    low = _lo(x)
    sign = hx & 0x80000000
    hx = (hx & 0xFFFFFFFF) ^ sign
    if hx >= 0x7FF00000:
        return x + x
    if hx < 0x00100000:
        if (hx | low) == 0:
            return x
        t = _words(0x43500000, 0) * x
        t = _words(sign | ((_hi(t) & 0x7FFFFFFF) // 3 + 696219795), 0)
    else:
        t = _words(sign | (hx // 3 + 715094163), 0)
    r = (t * t) * (t / x)
    t = t * ((_CB[0] + r * (_CB[1] + r * _CB[2])) + ((r * r) * r) * (_CB[3] + r * _CB[4]))
    bits = ((_bits(t) & 0xFFFFFFFFFFFFFFFF) + 0x80000000) & 0xFFFFFFFFC0000000
    t = _words(bits >> 32, bits & 0xFFFFFFFF)
    s = t * t
    r = x / s
    w = t + t
    r = (r - t) / (w + r)
    return t + t * r
