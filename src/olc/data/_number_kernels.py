"""Compiled number scanning shared by the text readers (:mod:`olc.data._text_kernels`,
:mod:`olc.data._vw_kernels`).

A token in the plain decimal grammar with at most 15 significant digits and a power of ten
within ±22 (after moving up to 15 − digits zeros into the integer) is converted by Clinger's
fast path (Clinger 1990, "How to read floating point numbers accurately", §3): the digits as
an integer m < 2^53 and 10^|e| ≤ 10^22 are both exact doubles, so the one IEEE
multiplication or division m·10^e, m/10^−e rounds correctly, which is what ``float()``
gives. Anything else is left to the caller (a *hard* token).
"""
import numpy as np

from .._compiled.caching import jit

_POW10 = np.array([1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
                   1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22])
_INT_POW10 = np.array([10 ** k for k in range(16)], dtype=np.int64)


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
    m = np.int64(0)
    nd = 0            # significant digits taken into m
    frac = 0          # digits after the point (they lower the exponent)
    seen = False
    while i < hi and 48 <= buf[i] <= 57:
        seen = True
        if nd > 0 or buf[i] != 48:
            if nd >= 15:
                return False, 0.0, token_end(buf, i, hi)
            m = m * 10 + (buf[i] - 48)
            nd += 1
        i += 1
    if i < hi and buf[i] == 46:
        i += 1
        while i < hi and 48 <= buf[i] <= 57:
            seen = True
            if nd > 0 or buf[i] != 48:
                if nd >= 15:
                    return False, 0.0, token_end(buf, i, hi)
                m = m * 10 + (buf[i] - 48)
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
    if p > 22:
        extra = p - 22  # move zeros into the integer while it stays below 10^15
        if nd + extra > 15:
            return False, 0.0, i
        m = m * _INT_POW10[extra]
        p = 22
    if p < -22:
        return False, 0.0, i
    v = float(m)
    v = v * _POW10[p] if p >= 0 else v / _POW10[-p]
    return True, -v if neg else v, i


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


