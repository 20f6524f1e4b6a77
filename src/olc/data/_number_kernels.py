"""Compiled number scanning shared by the text readers (:mod:`olc.data._text_kernels`,
:mod:`olc.data._vw_kernels`).

A token in the plain decimal grammar with at most 15 significant digits and a power of ten
within ±22 (after moving up to 15 − digits zeros into the integer) is converted by Clinger's
fast path (Clinger 1990, "How to read floating point numbers accurately", §3): the digits as
an integer m < 2^53 and 10^|e| ≤ 10^22 are both exact doubles, so the one IEEE
multiplication or division m·10^e, m/10^−e rounds correctly, which is what ``float()``
gives. Up to 19 significant digits (m < 2^64) at any exponent are converted by the
Eisel–Lemire algorithm (Lemire 2021, "Number parsing at a gigabyte per second", Software:
Practice and Experience 51(8), §5 and Algorithm 1, as fast_float computes it): m·10^q from the
most significant 128 bits of 5^q (:data:`_POW5`, exact integers rounded as that paper's
tables are), which is always enough to round correctly when m is the token's exact digits
(Mushtak & Lemire 2023, "Fast number parsing without fallback", Software: Practice and
Experience 53(6)); a result that overflows to infinity is left to the caller, which names it.
Anything else (more than 19 digits, an exponent of more than 5 digits) is left to the caller
(a *hard* token), which converts it with Python's own parser.
"""
import math

import numpy as np

from .._compiled.caching import jit

_POW10 = np.array([1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
                   1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22])
_INT_POW10 = np.array([10 ** k for k in range(16)], dtype=np.int64)

#: 10^q for q in [SMALLEST_Q, LARGEST_Q] as the most significant 128 bits of 5^q (q ≥ 0:
#: truncated; q < 0: 2^b / 5^−q rounded up, b giving 128 bits), two uint64 a power (high,
#: low): the table of Lemire 2021, §5, computed here from exact integers.
SMALLEST_Q, LARGEST_Q = -342, 308


def _powers_of_five():
    rows = []
    for q in range(SMALLEST_Q, LARGEST_Q + 1):
        if q >= 0:
            c = 5 ** q
            while c < 1 << 127:
                c <<= 1
            while c >= 1 << 128:
                c >>= 1
        else:
            power5 = 5 ** -q
            z = power5.bit_length()  # 2^(z−1) ≤ 5^−q < 2^z
            b = z + 127 if q >= -27 else 2 * z + 128
            c = (1 << b) // power5 + 1
            while c >= 1 << 128:
                c >>= 1
        rows.append((c >> 64, c & ((1 << 64) - 1)))
    return np.array(rows, dtype=np.uint64).ravel()


_POW5 = _powers_of_five()


@jit(nogil=True, inline="always")
def is_space(c):
    # bytes.split()'s whitespace: space, \t, \n, \v, \f, \r
    return c == 32 or (9 <= c <= 13)


@jit(nogil=True, inline="always")
def ends_token(c):
    # whitespace or a comment's '#'
    return c == 32 or (9 <= c <= 13) or c == 35


@jit(nogil=True)
def token_end(buf, i, hi):
    while i < hi and not ends_token(buf[i]):
        i += 1
    return i


@jit(nogil=True)
def scan_number(buf, s, hi):
    """(ok, value, end) of the token starting at ``s`` (it ends at whitespace, '#' or
    ``hi``): ok when it is in the fast path's grammar and range, ``[+-] digits [. digits]
    [(e|E) [+-] digits]`` with a digit somewhere in the mantissa."""
    i = s
    neg = False
    if i < hi and (buf[i] == 43 or buf[i] == 45):
        neg = buf[i] == 45
        i += 1
    m = np.uint64(0)
    nd = 0            # significant digits taken into m
    frac = 0          # digits after the point (they lower the exponent)
    seen = False
    while i < hi and 48 <= buf[i] <= 57:
        seen = True
        if nd > 0 or buf[i] != 48:
            if nd >= 19:
                return False, 0.0, token_end(buf, i, hi)
            m = m * np.uint64(10) + np.uint64(buf[i] - 48)
            nd += 1
        i += 1
    if i < hi and buf[i] == 46:
        i += 1
        while i < hi and 48 <= buf[i] <= 57:
            seen = True
            if nd > 0 or buf[i] != 48:
                if nd >= 19:
                    return False, 0.0, token_end(buf, i, hi)
                m = m * np.uint64(10) + np.uint64(buf[i] - 48)
                nd += 1
            frac += 1
            i += 1
    if not seen:
        return False, 0.0, token_end(buf, i, hi)
    exp = 0
    if i < hi and (buf[i] == 101 or buf[i] == 69):
        i += 1
        eneg = False
        if i < hi and (buf[i] == 43 or buf[i] == 45):
            eneg = buf[i] == 45
            i += 1
        ne = 0
        while i < hi and 48 <= buf[i] <= 57:
            if ne >= 5:
                return False, 0.0, token_end(buf, i, hi)
            exp = exp * 10 + (buf[i] - 48)
            ne += 1
            i += 1
        if ne == 0:
            return False, 0.0, token_end(buf, i, hi)
        if eneg:
            exp = -exp
    if i < hi and not ends_token(buf[i]):
        return False, 0.0, token_end(buf, i, hi)
    if m == 0:
        return True, -0.0 if neg else 0.0, i
    p = exp - frac
    if nd <= 15 and -22 <= p <= 22 + 15 - nd:  # Clinger's fast path
        c = np.int64(m)
        if p > 22:  # move zeros into the integer while it stays below 10^15
            c = c * _INT_POW10[p - 22]
            p = 22
        v = float(c)
        v = v * _POW10[p] if p >= 0 else v / _POW10[-p]
        return True, -v if neg else v, i
    ok, v = eisel_lemire(m, p)
    if not ok:
        return False, 0.0, i
    return True, -v if neg else v, i


_U64 = np.uint64(0xFFFFFFFFFFFFFFFF)
_LOW32 = np.uint64(0xFFFFFFFF)


@jit(nogil=True, inline="always")
def _multiply(a, b):
    """(high, low) 64-bit halves of the exact 128-bit product a·b of two uint64."""
    a_lo, a_hi = a & _LOW32, a >> np.uint64(32)
    b_lo, b_hi = b & _LOW32, b >> np.uint64(32)
    p0, p1, p2, p3 = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi
    mid = (p0 >> np.uint64(32)) + (p1 & _LOW32) + (p2 & _LOW32)
    low = (p0 & _LOW32) | (mid << np.uint64(32))
    high = p3 + (p1 >> np.uint64(32)) + (p2 >> np.uint64(32)) + (mid >> np.uint64(32))
    return high, low


@jit(nogil=True, inline="always")
def _leading_zeros(w):
    n = 0
    for shift in (32, 16, 8, 4, 2, 1):
        if w >> np.uint64(64 - shift) == np.uint64(0):
            w = w << np.uint64(shift)
            n += shift
    return n


@jit(nogil=True)
def eisel_lemire(w, q):
    """(ok, w·10^q correctly rounded to the nearest double, ties to even) for a uint64
    w > 0; ok is False only when the result overflows (the caller names it). Lemire 2021,
    Algorithm 1, in fast_float's form (binary64: 52 explicit mantissa bits, exponent bias
    1023; ties to even are decided exactly for q in [−4, 23], where w·10^q can be a tie)."""
    if q < SMALLEST_Q:
        return True, 0.0
    if q > LARGEST_Q:
        return False, 0.0
    lz = _leading_zeros(w)
    w = w << np.uint64(lz)
    index = 2 * (q - SMALLEST_Q)
    high, low = _multiply(w, _POW5[index])
    mask = _U64 >> np.uint64(55)  # 52 + 3 bits of precision are needed
    if high & mask == mask:  # the low bits may carry: add the next 64 bits of 5^q
        second_high, _ = _multiply(w, _POW5[index + 1])
        low = low + second_high
        if second_high > low:
            high = high + np.uint64(1)
    upper = np.int64(high >> np.uint64(63))
    shift = upper + 64 - 52 - 3
    mantissa = high >> np.uint64(shift)
    power2 = (((152170 + 65536) * q) >> 16) + 63 + upper - lz + 1023
    if power2 <= 0:  # subnormal
        if -power2 + 1 >= 64:
            return True, 0.0
        mantissa = mantissa >> np.uint64(-power2 + 1)
        mantissa = (mantissa + (mantissa & np.uint64(1))) >> np.uint64(1)
        return True, math.ldexp(float(mantissa), -1074)  # exact: m < 2^53 in the range
    if low <= np.uint64(1) and -4 <= q <= 23 and mantissa & np.uint64(3) == np.uint64(1) \
            and (mantissa << np.uint64(shift)) == high:
        mantissa = mantissa & ~np.uint64(1)  # exactly halfway: round to even
    mantissa = (mantissa + (mantissa & np.uint64(1))) >> np.uint64(1)
    if mantissa >= np.uint64(2) << np.uint64(52):
        mantissa = np.uint64(1) << np.uint64(52)
        power2 += 1
    if power2 >= 0x7FF:
        return False, 0.0
    return True, math.ldexp(float(mantissa), power2 - 1075)  # 2^52 ≤ m < 2^53: exact


@jit(nogil=True)
def parse_int(buf, s, e):
    """(ok, value) of ``[+-] digits`` (at most 18 digits)."""
    i = s
    neg = False
    if i < e and (buf[i] == 43 or buf[i] == 45):
        neg = buf[i] == 45
        i += 1
    if i == e or e - i > 18:
        return False, np.int64(0)
    v = np.int64(0)
    while i < e:
        c = buf[i]
        if c < 48 or c > 57:
            return False, np.int64(0)
        v = v * 10 + (c - 48)
        i += 1
    return True, -v if neg else v


