"""The slow path of a dot product whose sum is not finite: recomputed with both sides scaled
by powers of two (exact), so that the result is ±inf with the right sign only when the true
value overflows, else its finite value (``vector.dot`` and ``scaled.py`` call it once a sum
is not finite; the normal path never comes here)."""
import math

from ..caching import jit

COLD = "never"  # never inlined: the rare path stays out of the loops (as vector.COLD)


@jit(inline=COLD)
def times_power_of_two(r, e):
    """r·2^e for any integer e, in steps of 2^±1000 (each power a double): overflows to ±inf
    and underflows to ±0 as the exact product would."""
    while e > 1000:
        r *= 2.0 ** 1000
        e -= 1000
    while e < -1000:
        r *= 2.0 ** -1000
        e += 1000
    return r * math.ldexp(1.0, e)


@jit(inline=COLD)
def scaled_dot(v, idx, val, c):
    """c·(v·x) without overflow in the sum: with 2^a ≥ max|v_j| and 2^b ≥ max|x_j| over the
    row's coordinates, the terms (v_j·2^−a)(x_j·2^−b) are below 1 (scaling by a power of two
    is exact), their sum is at most the row's length, and the result is that sum times
    c·2^(a+b), overflowing to ±inf only when the true value does. Strict order. A NaN or inf
    value gives NaN (the loops then report the row)."""
    mv = 0.0
    mx = 0.0
    bad = c * 0.0   # NaN once any value is NaN or ±inf (max() would skip a NaN)
    if idx is None:
        if val is not None:  # see the module docstring
            for j in range(val.shape[0]):
                mv = max(mv, abs(v[j]))
                mx = max(mx, abs(val[j]))
                bad += v[j] * 0.0 + val[j] * 0.0
    else:
        for k in range(idx.shape[0]):
            mv = max(mv, abs(v[idx[k]]))
            bad += v[idx[k]] * 0.0
        if val is None:
            mx = 1.0
        else:
            for k in range(val.shape[0]):
                mx = max(mx, abs(val[k]))
                bad += val[k] * 0.0
    if bad != 0.0:
        return math.nan
    if mv == 0.0 or mx == 0.0 or c == 0.0:
        return 0.0
    a = math.frexp(mv)[1]
    b = math.frexp(mx)[1]
    s = 0.0
    if idx is None:
        if val is not None:
            for j in range(val.shape[0]):
                s += math.ldexp(v[j], -a) * math.ldexp(val[j], -b)
    elif val is None:
        for k in range(idx.shape[0]):
            s += math.ldexp(v[idx[k]], -a) * math.ldexp(1.0, -b)
    else:
        for k in range(idx.shape[0]):
            s += math.ldexp(v[idx[k]], -a) * math.ldexp(val[k], -b)
    mc, ec = math.frexp(c)
    return times_power_of_two(s * mc, a + b + ec)
