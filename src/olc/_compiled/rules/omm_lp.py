"""e-OMM for an ℓp norm, p ∈ (1, ∞) (Ho-Nguyen et al. 2025, Algorithm 1, efficient
implementation, §5.1; layout in ``layouts/omm_variants.py``).

State: w = ℓ(u) = ∇‖u‖_p, v₊ and v₋ as explicit rows (the update is O(d) anyway, because
‖u − βz‖_p needs every coordinate), BIAS, GAMMA and NORM = ‖v₊ − v₋‖_p. Norms are computed
relative to the largest coordinate (``lp_norm``, ``_lp_h``), so no power overflows or
underflows: the rule needs no units (it is scale-invariant as it stands).
"""
import math

import numpy as np

from ..caching import jit
from ..kernels.vector import INLINE, is_finite_row
from ..layouts.omm import PHASE_EMPTY, PHASE_MARGIN, PHASE_ONE_LABEL
from ..layouts.omm_variants import LpHP, LpScal, LpVec
from .omm_geometry.thin_qr import dotn
from .omm import densify, explicit_round, explicit_score

BIAS, PHASE, Y1, GAMMA, NORM = LpScal.BIAS, LpScal.PHASE, LpScal.Y1, LpScal.GAMMA, LpScal.NORM
W, VPOS, VNEG = LpVec.W, LpVec.VPOS, LpVec.VNEG
_EPS4 = 4.0 * 2.220446049250313e-16


@jit(inline=INLINE)
def _lp_h(u, z, beta, p, inv_m, d):
    """h(β) = Σ ζᵢ·sgn(tᵢ)|tᵢ|^{p−1} and h'(β) = −(p−1)·Σ ζᵢ²|tᵢ|^{p−2}, where tᵢ = (uᵢ − βzᵢ)/M,
    ζᵢ = zᵢ/M: d/dβ ‖u − βz‖_p^p = −p·M^{p−1}·h(β). h' = −inf when some tᵢ = 0 with ζᵢ ≠ 0
    and p < 2 (the second derivative does not exist there)."""
    h = 0.0
    dh = 0.0
    for i in range(d):
        zi = z[i] * inv_m
        if zi == 0.0:
            continue
        t = (u[i] - beta * z[i]) * inv_m
        at = abs(t)
        if at == 0.0:
            if p < 2.0:
                dh = -math.inf
            elif p == 2.0:
                dh -= zi * zi
            continue
        e1 = at ** (p - 1.0)
        h += zi * e1 if t > 0.0 else -zi * e1
        dh -= (p - 1.0) * zi * zi * (e1 / at)
    return h, dh


@jit()
def lp_beta(u, z, p, d):
    """β* = argmin_{β∈[0,1]} ‖u − βz‖_p (Eq. 7), to full double precision: the derivative of
    the convex function ‖u − βz‖_p^p is monotone in β; safeguarded Newton on it inside a
    bracket that bisection keeps. β* = 0 when z = 0 (x is the certificate itself)."""
    mx = 0.0
    for i in range(d):
        v = abs(u[i]) + abs(z[i])
        if v > mx:
            mx = v
    zmax = 0.0
    for i in range(d):
        if abs(z[i]) > zmax:
            zmax = abs(z[i])
    if zmax == 0.0 or not math.isfinite(mx):
        return 0.0
    inv_m = 1.0 / mx
    h0, dh0 = _lp_h(u, z, 0.0, p, inv_m, d)
    if not h0 > 0.0:
        return 0.0
    h1, _ = _lp_h(u, z, 1.0, p, inv_m, d)
    if not h1 < 0.0:
        return 1.0
    # Invariant: h(lo) > 0 > h(hi). Newton steps are taken inside the bracket, and bisection
    # whenever an iteration did not halve the bracket (rtsafe-style safeguard: at a point
    # where some rᵢ = 0 and p < 2, h is not differentiable and Newton oscillates); a tiny
    # Newton step is accepted only once h is seen to change sign within a few ulps of it.
    lo, hi = 0.0, 1.0
    beta = -h0 / dh0 if dh0 < 0.0 and math.isfinite(dh0) else 0.5
    if not (lo < beta < hi):
        beta = 0.5
    bisect = False
    width = hi - lo
    for _ in range(300):
        h, dh = _lp_h(u, z, beta, p, inv_m, d)
        if h == 0.0:
            return beta
        if h > 0.0:
            lo = beta
        else:
            hi = beta
        if hi - lo > 0.5 * width:
            bisect = True  # Newton is not halving the bracket (e.g. oscillating at a kink)
        width = hi - lo
        bn = math.nan
        if not bisect and dh < 0.0 and math.isfinite(dh):
            bn = beta - h / dh
        bisect = False
        if not (lo < bn < hi):
            bn = 0.5 * (lo + hi)
            if not (lo < bn < hi):
                return beta  # the bracket is one ulp wide
        elif abs(bn - beta) <= _EPS4 * bn:
            a = max(lo, bn - _EPS4 * bn)
            b = min(hi, bn + _EPS4 * bn)
            ha = _lp_h(u, z, a, p, inv_m, d)[0] if a > lo else 1.0
            hb = _lp_h(u, z, b, p, inv_m, d)[0] if b < hi else -1.0
            if ha > 0.0 and hb < 0.0:
                return bn  # the root lies within a few ulps of bn
            if ha > 0.0:
                lo = a
            elif ha < 0.0:
                hi = a
            if hb < 0.0:
                hi = min(hi, b)
            elif hb > 0.0:
                lo = max(lo, b)
            bisect = True
            bn = 0.5 * (lo + hi)
            if not (lo < bn < hi):
                return bn if lo < bn else lo
        beta = bn
    return beta


@jit(inline=INLINE)
def lp_norm(u, p, d):
    """‖u‖_p without overflow (scaled by max|uᵢ|)."""
    mx = 0.0
    for i in range(d):
        if abs(u[i]) > mx:
            mx = abs(u[i])
    if mx == 0.0 or not math.isfinite(mx):
        return mx
    s = 0.0
    for i in range(d):
        s += (abs(u[i]) / mx) ** p
    return mx * s ** (1.0 / p)


@jit(inline=INLINE)
def _lp_commit(vecs, scal, u, p, d):
    """w = ℓ(u) = sgn(uᵢ)(|uᵢ|/‖u‖_p)^{p−1} (so ‖w‖_q = 1, w·u = ‖u‖_p), b = −½ w·(v₊ + v₋),
    γ = ‖u‖_p/2 (Lemma 3.1). Returns False (nothing written) if a value is not finite."""
    nu = lp_norm(u, p, d)
    if not math.isfinite(nu):
        return False
    w = vecs[W]
    if nu == 0.0:
        for i in range(d):
            w[i] = 0.0
        scal[BIAS] = 0.0
        scal[GAMMA] = 0.0
        scal[NORM] = 0.0
        return True
    wn = np.empty(d)
    for i in range(d):
        r = abs(u[i]) / nu
        e = r ** (p - 1.0) if r > 0.0 else 0.0
        wn[i] = e if u[i] > 0.0 else -e
    b = -0.5 * (dotn(wn, vecs[VPOS], d) + dotn(wn, vecs[VNEG], d))
    if not math.isfinite(b):
        return False
    for i in range(d):
        w[i] = wn[i]
    scal[BIAS] = b
    scal[GAMMA] = 0.5 * nu
    scal[NORM] = nu
    return True


@jit(inline=INLINE)
def lp_score(idx, val, vecs, ints, scal, hp, fast):
    return explicit_score(idx, val, vecs[W], scal[BIAS], scal[PHASE], scal[Y1], fast)


@jit()
def _lp_init(x, y, vecs, scal, p):
    """Lines 2–13 for a densified finite row x (phase 0, or phase 1 with y ≠ y₁)."""
    d = vecs.shape[1]
    mine = vecs[VPOS] if y > 0.0 else vecs[VNEG]
    if scal[PHASE] == PHASE_EMPTY:
        for i in range(d):
            mine[i] = x[i]
        scal[Y1] = y
        scal[PHASE] = PHASE_ONE_LABEL
        return 1.0, 1.0, y < 0.0, 0.0
    y1 = scal[Y1]
    other = vecs[VNEG] if y > 0.0 else vecs[VPOS]
    u = np.empty(d)
    for i in range(d):
        u[i] = x[i] - other[i] if y > 0.0 else other[i] - x[i]
    if not is_finite_row(u):
        return math.inf, y1, False, 0.0
    for i in range(d):
        mine[i] = x[i]
    if not _lp_commit(vecs, scal, u, p, d):
        for i in range(d):
            mine[i] = 0.0
        return math.inf, y1, False, 0.0
    scal[PHASE] = PHASE_MARGIN
    return y1, y1, True, 0.0


@jit()
def _lp_update(x, y, vecs, scal, p):
    """The three-point step for a densified row x. Returns False (nothing changed) on a
    non-finite intermediate."""
    d = vecs.shape[1]
    vp, vm = vecs[VPOS], vecs[VNEG]
    u = np.empty(d)
    z = np.empty(d)
    for i in range(d):
        u[i] = vp[i] - vm[i]
        z[i] = vp[i] - x[i] if y > 0.0 else x[i] - vm[i]
    if not is_finite_row(z):
        return False
    beta = lp_beta(u, z, p, d)
    if beta <= 0.0:
        return True
    mine = vp if y > 0.0 else vm
    old = mine.copy()
    if beta >= 1.0:
        for i in range(d):
            mine[i] = x[i]
    else:
        c = 1.0 - beta
        for i in range(d):
            mine[i] = c * old[i] + beta * x[i]
    for i in range(d):
        u[i] = vp[i] - vm[i]
    if not _lp_commit(vecs, scal, u, p, d):
        for i in range(d):
            mine[i] = old[i]
        return False
    return True


@jit(inline=INLINE)
def lp_step(idx, val, y, vecs, ints, scal, hp, fast):
    """One round of Algorithm 1 (efficient implementation), ‖·‖ = ℓp, aggressiveness ρ.

    Same phases and update test as the ℓ2 rule (rules/omm.py). Three-point step (§5.1,
    Eq. 7): u = v₊ − v₋, z = v₊ − x (y = +1) or x − v₋ (y = −1), β* = argmin_{β∈[0,1]}
    ‖u − βz‖_p, and the certificate of x's label moves to (1 − β*)v + β*x (β* = 1: x).
    O(d) per update, O(nnz(x)) per prediction (w is kept explicitly).
    """
    phase = scal[PHASE]
    d = vecs.shape[1]
    if phase != PHASE_MARGIN:
        y1 = 1.0 if phase == PHASE_EMPTY else scal[Y1]
        if not is_finite_row(val):
            return math.nan, y1, False, 0.0
        if phase == PHASE_ONE_LABEL and y == y1:
            return y1, y1, False, 0.0
        x = np.empty(d)
        densify(idx, val, x)
        return _lp_init(x, y, vecs, scal, hp[LpHP.P])

    gamma = scal[GAMMA]
    # γ = 0: v₊ = v₋ (not separable), w = 0, b = 0 for good, as the ℓ2 rule (β* = 0 there).
    s, pred, update, final = explicit_round(idx, val, y, vecs[W], scal[BIAS], gamma,
                                            hp[LpHP.RHO], fast)
    if final or not update:
        return s, pred, update, gamma
    x = np.empty(d)
    densify(idx, val, x)
    if not _lp_update(x, y, vecs, scal, hp[LpHP.P]):
        return math.inf, pred, False, gamma
    return s, pred, True, gamma


