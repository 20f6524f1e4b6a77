"""Shen & Dietterich's L1-norm-constrained Passive-Aggressive update (rule 12), problem (3.10)
solved exactly: the PA step when it stays in the L1 ball, else a one-dimensional dual search
over the margin multiplier, each evaluation projecting onto the L1 ball (a soft threshold).

State: ``shen_dietterich.py`` (w̃ = (w, b) with S = 1 throughout, ‖w̃‖₁ tracked in NORM).
"""
import math

import numpy as np

from ..caching import jit
from ..kernels.vector import INLINE, SHARED, sqnorm
from ..layouts.regularized import BallPaHP
from ..kernels.scaled import support_add, support_compact, sv_add
from .shen_dietterich import (
    BALL_RTOL,
    BRAW,
    COUNT,
    EPS,
    ERR,
    NORM,
    NORM_RTOL,
    S,
    V,
    exact_norm,
    remove_small,
    sd_round,
    support_blocks,
)

L1_MAXIT = 500  # safeguard of the one-dimensional dual search (a few iterations in practice)
MICHELOT_PASSES = 50  # then sort (see _l1_threshold)


# -- rule 12: L1-norm-constrained PA ---------------------------------------------------------

@jit()
def _l1_threshold(u, n, beta, buf):
    """θ ≥ 0 of the Euclidean projection onto {‖w‖₁ ≤ β}: w_j = sign(u_j)·max(|u_j| − θ, 0),
    θ = 0 when ‖u‖₁ ≤ β, else Σ max(|u_j| − θ, 0) = β.

    Michelot's fixed point (as in Condat 2016): θ ← (Σ_{|u_j| > θ} |u_j| − β)/#{|u_j| > θ},
    starting from (‖u‖₁ − β)/n, increases to the exact θ and stops when the set is stable;
    each pass is O(n) over the shrinking candidate set and a few passes suffice in practice.
    After MICHELOT_PASSES passes the remaining candidates are sorted (Duchi et al. 2008,
    Fig. 1), so the worst case stays O(n log n)."""
    total = 0.0
    for i in range(n):
        a = abs(u[i])
        buf[i] = a
        total += a
    if total <= beta:
        return 0.0
    k = n
    theta = (total - beta) / n
    for _ in range(MICHELOT_PASSES):
        kk = 0
        ssum = 0.0
        for i in range(k):
            a = buf[i]
            if a > theta:
                buf[kk] = a
                kk += 1
                ssum += a
        if kk == k:
            return theta if theta > 0.0 else 0.0  # stable: θ is exact for this set
        k = kk
        theta = (ssum - beta) / k
    srt = np.sort(buf[:k])
    cum = 0.0
    theta = 0.0
    for r in range(k):
        a = srt[k - 1 - r]
        cum += a
        t = (cum - beta) / (r + 1)
        if a > t:
            theta = t
        else:
            break
    return theta if theta > 0.0 else 0.0


@jit()
def _l1_piece(tau, wt, z, n, beta, u, buf):
    """The affine piece of h(τ) = y·x·P(w_t + τ·y·x) through τ: (intercept, slope, scale), with
    h = intercept + slope·τ on the piece, and scale a magnitude for the rounding tolerance."""
    for i in range(n):
        u[i] = wt[i] + tau * z[i]
    theta = _l1_threshold(u, n, beta, buf)
    if theta == 0.0:
        inter = 0.0
        slope = 0.0
        mag = 0.0
        for i in range(n):
            inter += z[i] * wt[i]
            slope += z[i] * z[i]
            mag += abs(z[i] * u[i])
        return inter, slope, mag
    k = 0
    szw = 0.0
    szz = 0.0
    c = 0.0
    sw = 0.0
    mag = 0.0
    for i in range(n):
        if abs(u[i]) > theta:
            k += 1
            sg = 1.0 if u[i] > 0.0 else -1.0
            szw += z[i] * wt[i]
            szz += z[i] * z[i]
            c += sg * z[i]
            sw += sg * wt[i]
            mag += abs(z[i] * u[i])
    inter = szw - (sw - beta) * c / k
    slope = szz - c * c / k
    if slope < 0.0:
        slope = 0.0
    return inter, slope, mag + abs((sw - beta) * c / k) + slope * tau


@jit()
def _l1_solve(wt, z, n, beta, a):
    """The optimal multiplier τ* ≥ 0 of the margin constraint of problem (3.10) and θ*.

    Dual: w(τ) = P_{‖·‖₁≤β}(w_t + τ·y·x); h(τ) = y·x·w(τ) is continuous, nondecreasing and
    piecewise affine (the projection is piecewise affine); τ* is 0 if h(0) ≥ 1, else the root of
    h(τ) = 1. Safeguarded Newton on the pieces: each iterate is the root of the affine piece
    through the previous one, inside a bracket [lo, hi] (bisection or doubling otherwise); it
    stops when the iterate lies on the piece it was computed from (the exact root) or h is 1 to
    rounding. Returns (τ*, θ*), τ* < 0 if the safeguard ran out (never seen)."""
    u = np.empty(n)
    buf = np.empty(n)
    inter, slope, mag = _l1_piece(0.0, wt, z, n, beta, u, buf)
    if inter >= 1.0 - 64.0 * EPS * (mag + 1.0):
        return 0.0, _l1_threshold(u, n, beta, buf)
    lo = 0.0
    hi = math.inf
    newton = slope > 0.0
    t = (1.0 - inter) / slope if newton else 1.0 / a
    prev_i, prev_s = inter, slope
    for _ in range(L1_MAXIT):
        inter, slope, mag = _l1_piece(t, wt, z, n, beta, u, buf)
        h = inter + slope * t
        if abs(h - 1.0) <= 64.0 * EPS * (mag + 1.0) or (
                newton and inter == prev_i and slope == prev_s):
            return t, _l1_threshold(u, n, beta, buf)
        if h > 1.0:
            hi = t
        else:
            lo = t
        newton = slope > 0.0
        tn = (1.0 - inter) / slope if newton else math.nan
        if not (lo < tn < hi):
            newton = False
            tn = 0.5 * (lo + hi) if hi < math.inf else 2.0 * t
        prev_i, prev_s = inter, slope
        t = tn
    if hi < math.inf:
        for i in range(n):
            u[i] = wt[i] + hi * z[i]
        return hi, _l1_threshold(u, n, beta, buf)
    return -1.0, 0.0


@jit(inline=INLINE)
def _soft(u, theta):
    if u > theta:
        return u - theta
    if u < -theta:
        return u + theta
    return 0.0


@jit(inline=INLINE)
def _gather_x(j, zj, ints, pos_base, ids, wt, z, n):
    """Put z_j = y·x_j among the n gathered coordinates: at j's place on the support list, or
    appended (w_j = 0) when j is not listed. Returns the new count."""
    p = ints[pos_base + j]
    if p > 0:
        z[p - 1] = zj
        return n
    ids[n] = j
    wt[n] = 0.0
    z[n] = zj
    return n + 1


@jit(inline=SHARED)
def _l1_project_step(idx, val, y, vecs, ints, scal, beta, bias, a):
    """The exact solution of (3.10) when the L1 ball is active: gather w_t and z = y·x over
    the support list ∪ supp(x) (∪ the bias), solve the dual, write w = P(w_t + τ*z) back.
    O(nnz(w) + nnz(x)) per evaluation of h, a few evaluations per call (O(n log n) worst case
    per evaluation). Returns False (state untouched) if the search failed."""
    v = vecs[V]
    list_base, pos_base = support_blocks(vecs)
    nl = ints[COUNT]
    cap = nl + val.shape[0] + 1
    wt = np.empty(cap)
    z = np.empty(cap)
    ids = np.empty(cap, dtype=np.int64)
    for i in range(nl):
        j = ints[list_base + i]
        ids[i] = j
        wt[i] = v[j]
        z[i] = 0.0
    n = nl
    if idx is None:
        for j in range(val.shape[0]):
            if val[j] != 0.0:
                n = _gather_x(j, y * val[j], ints, pos_base, ids, wt, z, n)
    else:
        for k in range(idx.shape[0]):
            if val[k] != 0.0:
                n = _gather_x(idx[k], y * val[k], ints, pos_base, ids, wt, z, n)
    if bias:
        ids[n] = -1
        wt[n] = scal[BRAW]
        z[n] = y
        n += 1
    tau, theta = _l1_solve(wt, z, n, beta, a)
    if not (tau >= 0.0 and math.isfinite(tau) and math.isfinite(theta)):
        return False
    nn = nl
    for i in range(n):
        w = _soft(wt[i] + tau * z[i], theta)
        j = ids[i]
        if j < 0:
            scal[BRAW] = w
        elif i < nl:
            v[j] = w
        elif w != 0.0:  # a new coordinate: listed after the old ones
            v[j] = w
            ints[list_base + nn] = j
            nn += 1
            ints[pos_base + j] = nn
    ints[COUNT] = nn
    support_compact(v, ints, COUNT, list_base, pos_base)
    exact_norm(vecs, ints, scal, True)
    return True


@jit(inline=INLINE)
def l1_pa_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Problem (3.10): w_{t+1} = argmin ½‖w − w_t‖² s.t. y(w·x) ≥ 1 and ‖w‖₁ ≤ β, exactly.

    Fast path, O(nnz(x)) with ‖w‖₁ maintained incrementally: the PA step w_t + τ₁·y·x,
    τ₁ = max(0, 1 − m)/‖x‖², when it stays in the ball. Otherwise the L1-ball-active solution
    by a one-dimensional dual search over the margin multiplier (``_l1_solve``), O(nnz(w))
    per evaluation of the margin function — inherent: the projection's threshold depends on
    every nonzero weight.
    Infeasible when β·‖x‖_∞ < 1 (max of y·w·x over the ball); x = 0 without a bias is the
    extreme case. Infeasible rounds are skipped (no update)."""
    update = hp[BallPaHP.UPDATE]
    s, pred, m, solve = sd_round(idx, val, y, vecs, ints, scal, hp, fast, update)
    if not solve:
        return s, pred, False, 0.0
    beta = hp[BallPaHP.BETA]
    bias = hp[BallPaHP.FIT_INTERCEPT] != 0.0
    l1 = scal[NORM]
    if m >= 1.0 and l1 <= beta * (1.0 + BALL_RTOL):
        return s, pred, False, 0.0  # w_t is feasible: nothing to do
    a = sqnorm(idx, val) + (1.0 if bias else 0.0)
    if not math.isfinite(a):
        return math.inf, pred, False, 0.0
    xinf = 1.0 if bias else 0.0
    for k in range(val.shape[0]):
        xa = abs(val[k])
        if xa > xinf:
            xinf = xa
    if a == 0.0 or beta * xinf < 1.0:
        return s, pred, False, 0.0  # infeasible
    tau1 = 1.0 - m
    tau1 = tau1 / a if tau1 > 0.0 else 0.0
    step = tau1 * y
    if not math.isfinite(tau1 * math.sqrt(a)):
        return math.inf, pred, False, 0.0
    # ‖w_t + τ₁·y·x‖₁ from the tracked ‖w_t‖₁, over the nonzeros of x only.
    v = vecs[V]
    delta = 0.0
    mag = 0.0
    if idx is None:
        for j in range(val.shape[0]):
            old = v[j]
            new = old + step * val[j]
            delta += abs(new) - abs(old)
            mag += abs(new) + abs(old)
    else:
        for k in range(idx.shape[0]):
            old = v[idx[k]]
            new = old + step * val[k]
            delta += abs(new) - abs(old)
            mag += abs(new) + abs(old)
    if bias:
        old = scal[BRAW]
        new = old + step
        delta += abs(new) - abs(old)
        mag += abs(new) + abs(old)
    new_l1 = l1 + delta
    if tau1 > 0.0 and new_l1 <= beta:
        sv_add(v, scal, S, step, idx, val)  # S = 1: v += step·x
        if bias:
            scal[BRAW] += step
        list_base, pos_base = support_blocks(vecs)
        support_add(ints, COUNT, list_base, pos_base, idx, val)
        scal[NORM] = new_l1
        scal[ERR] += 4.0 * EPS * (l1 + mag)
        if scal[ERR] > NORM_RTOL * new_l1:
            exact_norm(vecs, ints, scal, True)
    elif not _l1_project_step(idx, val, y, vecs, ints, scal, beta, bias, a):
        return s, pred, False, 0.0  # safeguard: the dual search did not converge (never seen)
    if hp[BallPaHP.SIGMA] > 0.0:
        remove_small(vecs, ints, scal, hp[BallPaHP.SIGMA], True)
    return s, pred, True, 0.0
