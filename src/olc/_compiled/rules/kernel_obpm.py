"""The kernel Online Bayes Point Machine (Harrington, Herbrich, Kivinen, Platt & Williamson
2003, Algorithm 2 with kernel perceptron members, their §3: "can be readily kernelised"),
on the support-set pool (``rules/support_set.py``); layout ``layouts/kernel_extra.py``.

The N members share one pool and one kernel row per example: member j's coefficients are
row j of the extra block (α_j), the pool's ALPHA holds β = Σ_j α_j and FNORM2 = ‖β‖² in the
RKHS (kept incrementally), so the classifier F = β/max(N, ‖β‖) (lines 13 and 15, olc's
linear OBPM's normalisation) scores in O(n) and a member's f_j in O(n) from the same row.
"""
import math

from ..caching import jit
from ..kernels.random import uniform
from ..kernels.vector import INLINE, sign, sqnorm
from ..layouts.kernel import ALPHA, HEADER, N_BLOCKS, KROW, SQNORM
from ..layouts.kernel import KernelScal as KS
from ..layouts.kernel_extra import KERNEL_OBPM_LAYOUT
from .csr_pool import capacity
from .support_set import (FULL, MUST_GROW, append, base, kernel_row, kernel_value, replace,
                          room_for, slot_at, stored_value)

OHP = KERNEL_OBPM_LAYOUT.hp
INF = math.inf


@jit(inline=INLINE)
def _members(P):
    return HEADER + N_BLOCKS * capacity(P)


@jit(inline=INLINE)
def _flags(P, hp):
    return _members(P) + int(hp[OHP.N_MEMBERS]) * capacity(P)


@jit(inline=INLINE)
def _normalised(f, scal, hp):
    return f / max(hp[OHP.N_MEMBERS], math.sqrt(max(scal[KS.FNORM2], 0.0)))


@jit(inline=INLINE)
def obpm_score(idx, val, vecs, ints, scal, hp, fast):
    """F(x) = f_β(x)/max(N, ‖β‖); NaN for a row with a NaN/inf value."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx - xx
    return _normalised(kernel_row(idx, val, xx, vecs, scal, hp, fast), scal, hp)


@jit(inline=INLINE)
def clear_members(P, scal, hp):
    """The members' scratch flags emptied after a row."""
    flags = _flags(P, hp)
    for j in range(int(hp[OHP.N_MEMBERS])):
        scal[flags + j] = 0.0


@jit(inline=INLINE)
def obpm_step(idx, val, y, vecs, ints, scal, hp, fast):
    """The online prediction is F(x_t), made before the round's updates. Member j learns
    example t iff uniform(seed, j, t) < τ (t the 0-based step over the learner's lifetime)
    and then does the kernel perceptron's step: y·f_j(x_t) ≤ 0 → α_j[t] = y. A row is
    stored when at least one member adds it (its coefficient is 0 in the others); with a
    budget, storing into a full pool removes the oldest row from every member (the pool's
    replace). ‖β‖² after removing x_r and adding x_t with c = Σ_j α_j[t]:
    ‖β − β_r k_r‖² = ‖β‖² − 2β_r f_β(x_r) + β_r² k(x_r, x_r), then + 2c·f(x_t) + c²k(x_t, x_t)
    with f the function after the removal. ``aux``: the number of members that updated."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    fb = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(fb):
        return fb, 1.0, False, 0.0
    score = _normalised(fb, scal, hp)
    cap = capacity(vecs)
    n = int(scal[KS.N_STORED])
    members = _members(vecs)
    flags = _flags(vecs, hp)
    kr = base(vecs, KROW)
    t = scal[KS.STEPS]
    count = 0
    for j in range(int(hp[OHP.N_MEMBERS])):
        if not uniform(hp[OHP.SEED], j, t) < hp[OHP.TAU]:
            continue
        row = members + j * cap
        fj = 0.0
        for s in range(n):
            fj += scal[row + s] * scal[kr + s]
        if y * fj <= 0.0:
            scal[flags + j] = 1.0
            count += 1
    if count > 0:
        space = room_for(idx, val, vecs, scal, hp)
        if space == MUST_GROW:
            return INF, 1.0, False, 0.0
        c = count * y
        kxx = kernel_value(hp, vecs, xx, xx, xx)
        norm2 = scal[KS.FNORM2]
        f_now = fb
        if space == FULL:
            r = slot_at(vecs, scal, 0)
            k_rt = scal[kr + r]
            b_r = scal[base(vecs, ALPHA) + r] * scal[KS.SCALE]
            sq = scal[base(vecs, SQNORM) + r]
            f_r = stored_value(vecs, scal, hp, r, fast)  # overwrites the kernel row
            norm2 = norm2 - 2.0 * b_r * f_r + b_r * b_r * kernel_value(hp, vecs, sq, sq, sq)
            f_now = fb - b_r * k_rt
            slot = r
            replace(idx, val, xx, vecs, scal, 0, c / scal[KS.SCALE])
        else:
            slot = n
            append(idx, val, xx, vecs, scal, c / scal[KS.SCALE])
        for j in range(int(hp[OHP.N_MEMBERS])):
            scal[members + j * cap + slot] = y * scal[flags + j]
        scal[KS.FNORM2] = max(norm2 + 2.0 * c * f_now + c * c * kxx, 0.0)
    scal[KS.STEPS] += 1.0
    return score, sign(score), count > 0, float(count)
