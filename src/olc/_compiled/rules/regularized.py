"""Regularized large-margin rules: Shen & Dietterich's objective-regularized and norm-constrained
Passive-Aggressive updates (seed 000, §3) and linear NORMA (Kivinen, Smola & Williamson 2004).

Rule ids (dispatch.py's table, family 10–19):
  10  objective-regularized PA (α), problem (3.1), Lemma 3.1
  11  L2-norm-constrained PA (β), problem (3.9), Lemma 3.2
  12  L1-norm-constrained PA (β), problem (3.10), exact L1-ball step
  13  NORMA, hinge loss with fixed margin ρ

State of rules 10–12 (w̃ = (w, b) is the weight vector with the bias as the weight of an
appended constant feature 1 when ``fit_intercept``; b stays 0 otherwise):
  vecs[0]        v, with w = S·v (rules 10, 11 shrink w by changing S only: O(1));
                 rule 12 never rescales, S = 1
  vecs[1][:n]    the support list: every coordinate j that may hold v_j ≠ 0 (indices stored as
                 float64, exact below 2^53); it may also hold stale zeros until compacted
  vecs[2][j]     1 + the position of j in the list (0: not listed)
  scal[BRAW]     b = S·BRAW
  scal[S]        the scale S
  scal[NORM]     ‖w̃‖² (rules 10, 11) or ‖w̃‖₁ (rule 12), maintained incrementally
  scal[ERR]      a bound on the rounding error of scal[NORM]; when it exceeds 1e-11·NORM the
                 norm is recomputed exactly over the support list (O(nnz(w)), rare)
  scal[NLIST]    the length n of the support list
The support list makes every whole-vector operation (renormalizing S, the exact norm
recompute, the L1-ball projection, small-weight removal) cost O(nnz(w)) instead of O(d).
hp (rules 10–12): [α or β, update test (0 mistake, 1 hinge, 2 always), fit_intercept, σ].

State of rule 13 (NORMA): vecs[0] = v with w = S·v; scal[BRAW] = b (not scaled: NORMA's bias
is not regularized); scal[S] = S; scal[T] = the number of rounds seen (t − 1 before round t).
hp (rule 13): [η, λ, ρ, schedule (0 constant η, 1 η/√t), fit_intercept].
"""
import math

import numba as nb

from ..caching import jit
from ..rule_ids import OBJECTIVE_PA, L2_CONSTRAINED_PA, L1_CONSTRAINED_PA, NORMA
import numpy as np

from ..kernels import INLINE, RENORM_HIGH, RENORM_LOW, axpy, dot, scale, sign, sqnorm


# scal slots
BRAW, S, NORM, ERR, NLIST = 0, 1, 2, 3, 4
T = 2  # NORMA's round counter

# update tests (hp[1] of rules 10-12)
UPDATE_MISTAKE, UPDATE_HINGE, UPDATE_ALWAYS = 0, 1, 2

EPS = 2.220446049250313e-16
NORM_RTOL = 1e-11  # recompute the tracked norm exactly when its error bound exceeds this
# w_t counts as inside the ball when its norm exceeds β by no more than rounding (an update
# lands on the sphere, and the stored vector's norm is β only up to a few ulps).
BALL_RTOL = 1e-12
L1_MAXIT = 500  # safeguard of the one-dimensional dual search (a few iterations in practice)
MICHELOT_PASSES = 50  # then sort (see _l1_threshold)


# -- the support list --------------------------------------------------------------------------

@jit(inline=INLINE)
def _list_add(idx, val, vecs, scal):
    """Put the nonzero coordinates of x on the support list (O(nnz(x)))."""
    lst = vecs[1]
    pos = vecs[2]
    n = int(scal[NLIST])
    if idx is None:
        for j in range(val.shape[0]):
            if val[j] != 0.0 and pos[j] == 0.0:
                lst[n] = j
                n += 1
                pos[j] = n
    else:
        for k in range(idx.shape[0]):
            j = idx[k]
            if val[k] != 0.0 and pos[j] == 0.0:
                lst[n] = j
                n += 1
                pos[j] = n
    scal[NLIST] = n


@jit()
def _list_compact(vecs, scal):
    """Drop the listed coordinates whose weight is 0 (order kept)."""
    v, lst, pos = vecs[0], vecs[1], vecs[2]
    n = int(scal[NLIST])
    k = 0
    for i in range(n):
        j = int(lst[i])
        if v[j] != 0.0:
            lst[k] = j
            k += 1
            pos[j] = k
        else:
            pos[j] = 0.0
    scal[NLIST] = k


@jit()
def _renormalize(vecs, scal):
    """Fold the scale into v (w unchanged): O(nnz(w)) over the support list."""
    s = scal[S]
    v, lst = vecs[0], vecs[1]
    for i in range(int(scal[NLIST])):
        j = int(lst[i])
        v[j] *= s
    scal[BRAW] *= s
    scal[S] = 1.0


@jit()
def _exact_norm(vecs, scal, l1):
    """‖w̃‖₁ (l1) or ‖w̃‖², summed over the support list; also resets the error bound."""
    s = scal[S]
    v, lst = vecs[0], vecs[1]
    n = int(scal[NLIST])
    acc = 0.0
    b = s * scal[BRAW]
    for i in range(n):
        w = s * v[int(lst[i])]
        acc += abs(w) if l1 else w * w
    acc += abs(b) if l1 else b * b
    scal[NORM] = acc
    scal[ERR] = (n + 2) * EPS * acc
    return acc


@jit()
def _remove_small(vecs, scal, sigma, l1):
    """Small-weight removal (seed 000 §3.3, Eq. 3.17 corrected: w_{t+1} = w''_t − v_t).

    Sort the features by |w_j| ascending (ties: lower index first) and zero the first k, k the
    largest with Σ of the removed w_j² < σ. The bias is not a feature and is never removed.
    O(nnz(w)) over the support list plus a sort of the candidates (w_j² < σ); the tracked
    norm is recomputed exactly."""
    _list_compact(vecs, scal)
    v, lst = vecs[0], vecs[1]
    s = scal[S]
    # Only weights with w_j² < σ can be removed (one alone would exceed σ otherwise): sort
    # just those candidates, by index first so that the stable sort breaks ties by index.
    nl = int(scal[NLIST])
    ids = np.empty(nl, dtype=np.int64)
    n = 0
    for i in range(nl):
        j = int(lst[i])
        w = s * v[j]
        if w * w < sigma:
            ids[n] = j
            n += 1
    ids = np.sort(ids[:n])
    key = np.empty(n)
    for i in range(n):
        key[i] = abs(s * v[ids[i]])
    order = np.argsort(key, kind="mergesort")
    cum = 0.0
    k = 0
    for r in range(n):
        w = key[order[r]]
        cum += w * w
        if cum < sigma:
            k += 1
        else:
            break
    for r in range(k):
        v[ids[order[r]]] = 0.0
    if k > 0:
        _list_compact(vecs, scal)
    _exact_norm(vecs, scal, l1)


# -- shared pieces of rules 10-12 ------------------------------------------------------------

@jit(inline=INLINE)
def sd_score(idx, val, vecs, ints, scal, hp, fast):
    return scal[S] * (dot(vecs[0], idx, val, fast) + scal[BRAW])


@jit(inline=INLINE)
def _active(m, mode):
    """The update test on the margin m = y(w·x + b)."""
    if mode == UPDATE_MISTAKE:
        return m <= 0.0
    if mode == UPDATE_HINGE:
        return m < 1.0
    return True


@jit(inline=INLINE)
def _scaled_step(idx, val, vecs, scal, step, bias, shrink):
    """w̃ ← (w̃ + step·x̃)/shrink in O(nnz(x)): v += (step/S)·x, BRAW += step/S, S ← S/shrink."""
    if step != 0.0:
        coef = step / scal[S]
        if not math.isfinite(coef):
            _renormalize(vecs, scal)  # representation only: w is unchanged
            coef = step
        axpy(coef, idx, val, vecs[0])
        if bias:
            scal[BRAW] += coef
        _list_add(idx, val, vecs, scal)
    if shrink != 1.0:
        scal[S] = scal[S] / shrink
        if scal[S] < RENORM_LOW or scal[S] > RENORM_HIGH:
            _renormalize(vecs, scal)


@jit(inline=INLINE)
def _track_sq(vecs, scal, new_sq, w_sq, tau, m, tau2a, step_norm, nx, shrink):
    """Store the incrementally computed ‖w̃'‖² = (W + 2τm + τ²a)/shrink² with its error bound
    (rounding of the three terms, and of the dot product m: nnz(x)·eps·‖w̃‖‖x̃‖ times 2τ);
    recompute it exactly when the bound exceeds NORM_RTOL relative (after cancellation)."""
    err = scal[ERR] + 4.0 * EPS * (w_sq + 2.0 * abs(tau * m) + tau2a) \
        + 2.0 * (nx + 2) * EPS * step_norm * math.sqrt(w_sq)
    err /= shrink * shrink
    scal[NORM] = new_sq
    scal[ERR] = err
    if err > NORM_RTOL * new_sq:
        _exact_norm(vecs, scal, False)


@jit(inline=INLINE)
def _reset_to_x(idx, val, vecs, scal, c, bias):
    """w̃ ← c·x̃ (O(nnz(w) + nnz(x))): clear the listed coordinates, then write x."""
    v, lst, pos = vecs[0], vecs[1], vecs[2]
    for i in range(int(scal[NLIST])):
        j = int(lst[i])
        v[j] = 0.0
        pos[j] = 0.0
    scal[NLIST] = 0.0
    scal[S] = 1.0
    scal[BRAW] = c if bias else 0.0
    axpy(c, idx, val, v)
    _list_add(idx, val, vecs, scal)


# -- rule 10: objective-regularized PA -------------------------------------------------------

@jit(inline=INLINE)
def objective_pa_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Problem (3.1): w_{t+1} = argmin ½‖w − w_t‖² + (α/2)‖w‖² s.t. y(w·x) ≥ 1.

    Exact solution for any w_t (Lemma 3.1 gives it when the margin constraint is active):
    w_{t+1} = (w_t + τ·y·x)/(1 + α), τ = max(0, 1 + α − y·w_t·x)/‖x‖² — equal to the lemma's
    (ℓ + α)/‖x‖² whenever y·w_t·x ≤ 1. x = 0 (no bias): the problem is infeasible, the round is
    skipped (no update)."""
    s = sd_score(idx, val, vecs, ints, scal, hp, fast)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    m = y * s
    if not _active(m, hp[1]):
        return s, pred, False, 0.0
    bias = hp[2] != 0.0
    a = sqnorm(idx, val) + (1.0 if bias else 0.0)
    if not math.isfinite(a):
        return math.inf, pred, False, 0.0
    if a == 0.0:
        return s, pred, False, 0.0  # x = 0 without a bias: (3.1) is infeasible
    alpha = hp[0]
    shrink = 1.0 + alpha
    num = 1.0 + alpha - m
    if num < 0.0:
        num = 0.0
    tau = num / a
    tau2a = tau * num  # τ²‖x‖², without forming τ² (τ reaches 1e300 on tiny rows)
    step_norm = tau * math.sqrt(a)
    w_sq = scal[NORM]
    new_sq = (w_sq + 2.0 * tau * m + tau2a) / (shrink * shrink)
    if not (math.isfinite(new_sq) and math.isfinite(step_norm)):
        return math.inf, pred, False, 0.0
    if new_sq < 0.0:
        new_sq = 0.0
    _scaled_step(idx, val, vecs, scal, tau * y, bias, shrink)
    _track_sq(vecs, scal, new_sq, w_sq, tau, m, tau2a, step_norm, val.shape[0], shrink)
    if hp[3] > 0.0:
        _remove_small(vecs, scal, hp[3], False)
    return s, pred, True, 0.0


# -- rule 11: L2-norm-constrained PA ---------------------------------------------------------

@jit(inline=INLINE)
def l2_pa_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Problem (3.9): w_{t+1} = argmin ½‖w − w_t‖² s.t. y(w·x) ≥ 1 and ‖w‖ ≤ β, solved exactly
    as the projection of w_t onto the intersection of the half-space and the ball:

    1. the PA step w_t + τ₁·y·x, τ₁ = max(0, 1 − m)/‖x‖², if it lies in the ball (Z = 1);
    2. else, if ‖w_t‖ > β (only after β was lowered), the ball projection w_t·β/‖w_t‖ if it
       has margin ≥ 1;
    3. else both constraints are active: Lemma 3.2, Z = √((‖w_t‖²‖x‖² − m²)/(β²‖x‖² − 1)),
       τ = (Z − m)/‖x‖² (= (ℓ + Z − 1)/‖x‖²), w_{t+1} = (w_t + τ·y·x)/Z;
       β²‖x‖² = 1: the feasible set is the single point y·x/‖x‖², which becomes w;
       β²‖x‖² < 1: infeasible, the round is skipped (no update).
    """
    s = sd_score(idx, val, vecs, ints, scal, hp, fast)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    m = y * s
    if not _active(m, hp[1]):
        return s, pred, False, 0.0
    bias = hp[2] != 0.0
    a = sqnorm(idx, val) + (1.0 if bias else 0.0)
    if not math.isfinite(a):
        return math.inf, pred, False, 0.0
    if a == 0.0:
        return s, pred, False, 0.0  # x = 0 without a bias: infeasible
    beta = hp[0]
    b2 = beta * beta
    w_sq = scal[NORM]
    if m >= 1.0 and w_sq <= b2 * (1.0 + BALL_RTOL):
        return s, pred, False, 0.0  # w_t is feasible: nothing to do
    ell = 1.0 - m if m < 1.0 else 0.0  # hinge loss ℓ
    tau1 = ell / a
    wh_sq = w_sq + 2.0 * tau1 * m + tau1 * ell  # ‖w_t + τ₁·y·x‖²
    if not (math.isfinite(wh_sq) and math.isfinite(tau1 * math.sqrt(a))):
        return math.inf, pred, False, 0.0
    if wh_sq <= b2 and tau1 > 0.0:
        _scaled_step(idx, val, vecs, scal, tau1 * y, bias, 1.0)
        _track_sq(vecs, scal, max(wh_sq, 0.0), w_sq, tau1, m, tau1 * ell,
                  tau1 * math.sqrt(a), val.shape[0], 1.0)
    elif w_sq > b2 and m * beta >= math.sqrt(w_sq):
        # The ball projection alone has margin ≥ 1 (w_t outside the ball: β was lowered).
        scal[S] = scal[S] * (beta / math.sqrt(w_sq))
        if scal[S] < RENORM_LOW:
            _renormalize(vecs, scal)
        scal[NORM] = b2
        scal[ERR] = 4.0 * EPS * b2
    else:
        den = b2 * a - 1.0
        if den < 0.0:
            return s, pred, False, 0.0  # β‖x‖ < 1: (3.9) is infeasible
        num = w_sq * a - m * m  # ‖x‖²·‖w_⊥‖², w_⊥ the part of w_t orthogonal to x
        if den == 0.0:
            z = math.inf
        elif num <= 0.0:
            z = 1.0  # rounding: w_t ∥ x, then the PA step is already (nearly) in the ball
        else:
            z = math.sqrt(num / den)
        if z < 1.0:
            z = 1.0
        if not math.isfinite(z):
            # β‖x‖ = 1 (or Z overflows): the single feasible point y·x/‖x‖².
            _reset_to_x(idx, val, vecs, scal, y / a, bias)
            _exact_norm(vecs, scal, False)
        else:
            num = z - m  # = ℓ + Z − 1 of Lemma 3.2 (m < 1)
            if num < 0.0:
                num = 0.0
            tau = num / a
            step_norm = tau * math.sqrt(a)
            if not math.isfinite(step_norm):
                return math.inf, pred, False, 0.0
            _scaled_step(idx, val, vecs, scal, tau * y, bias, z)
            new_sq = b2 if z > 1.0 else max(wh_sq, 0.0)
            _track_sq(vecs, scal, new_sq, w_sq, tau, m, tau * num, step_norm, val.shape[0], z)
    if hp[3] > 0.0:
        _remove_small(vecs, scal, hp[3], False)
    return s, pred, True, 0.0


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
def _l1_project_step(idx, val, y, vecs, scal, beta, bias, a):
    """The exact solution of (3.10) when the L1 ball is active: gather w_t and z = y·x over
    the support list ∪ supp(x) (∪ the bias), solve the dual, write w = P(w_t + τ*z) back.
    O(nnz(w) + nnz(x)) per evaluation of h, a few evaluations per call (O(n log n) worst case
    per evaluation). Returns False (state untouched) if the search failed."""
    v, lst, pos = vecs[0], vecs[1], vecs[2]
    nl = int(scal[NLIST])
    cap = nl + val.shape[0] + 1
    wt = np.empty(cap)
    z = np.empty(cap)
    ids = np.empty(cap, dtype=np.int64)
    for i in range(nl):
        j = int(lst[i])
        ids[i] = j
        wt[i] = v[j]
        z[i] = 0.0
    n = nl
    if idx is None:
        for j in range(val.shape[0]):
            if val[j] != 0.0:
                p = int(pos[j])
                if p > 0:
                    z[p - 1] = y * val[j]
                else:
                    ids[n] = j
                    wt[n] = 0.0
                    z[n] = y * val[j]
                    n += 1
    else:
        for k in range(idx.shape[0]):
            if val[k] != 0.0:
                j = idx[k]
                p = int(pos[j])
                if p > 0:
                    z[p - 1] = y * val[k]
                else:
                    ids[n] = j
                    wt[n] = 0.0
                    z[n] = y * val[k]
                    n += 1
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
        elif w != 0.0:
            v[j] = w
            lst[nn] = j
            nn += 1
            pos[j] = nn
    scal[NLIST] = nn
    _list_compact(vecs, scal)
    _exact_norm(vecs, scal, True)
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
    s = sd_score(idx, val, vecs, ints, scal, hp, fast)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    m = y * s
    if not _active(m, hp[1]):
        return s, pred, False, 0.0
    beta = hp[0]
    bias = hp[2] != 0.0
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
    v = vecs[0]
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
        axpy(step, idx, val, v)
        if bias:
            scal[BRAW] += step
        _list_add(idx, val, vecs, scal)
        scal[NORM] = new_l1
        scal[ERR] += 4.0 * EPS * (l1 + mag)
        if scal[ERR] > NORM_RTOL * new_l1:
            _exact_norm(vecs, scal, True)
    elif not _l1_project_step(idx, val, y, vecs, scal, beta, bias, a):
        return s, pred, False, 0.0  # safeguard: the dual search did not converge (never seen)
    if hp[3] > 0.0:
        _remove_small(vecs, scal, hp[3], True)
    return s, pred, True, 0.0


# -- rule 13: NORMA --------------------------------------------------------------------------

@jit(inline=INLINE)
def norma_score(idx, val, vecs, ints, scal, hp, fast):
    return scal[S] * dot(vecs[0], idx, val, fast) + scal[BRAW]


@jit(inline=INLINE)
def norma_step(idx, val, y, vecs, ints, scal, hp, fast):
    """NORMA (Kivinen, Smola & Williamson 2004, §III-A), linear kernel, fixed margin ρ.

    f_t(x) = w·x + b; σ_t = 1 if y·f_t(x_t) < ρ else 0; every round
    w ← (1 − η_t·λ)·w + η_t·σ_t·y·x and b ← b + η_t·σ_t·y (the bias is not regularized),
    η_t = η (constant) or η/√t, t = 1, 2, ... the round. The shrink is O(1): w = S·v.
    ``updated`` reports σ_t (the example entered the expansion); the shrink happens on every
    round, as the regularizer's gradient step."""
    s = norma_score(idx, val, vecs, ints, scal, hp, fast)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    t = scal[T] + 1.0
    eta = hp[0] if hp[3] == 0.0 else hp[0] / math.sqrt(t)
    upd = y * s < hp[2]
    shrink = 1.0 - eta * hp[1]
    s_new = scal[S] * shrink
    if upd:
        coef = eta * y / s_new
        if not (math.isfinite(coef) and math.isfinite(eta * math.sqrt(sqnorm(idx, val)))):
            return math.inf, pred, False, 0.0
        axpy(coef, idx, val, vecs[0])
        if hp[4] != 0.0:
            scal[BRAW] += eta * y
    scal[S] = s_new
    scal[T] = t
    if s_new < RENORM_LOW:
        scale(vecs[0], s_new)  # O(d), once every log(1e100)/log(1/(1 − ηλ)) rounds
        scal[S] = 1.0
    return s, pred, upd, 0.0


# -- family dispatchers ----------------------------------------------------------------------

@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == OBJECTIVE_PA:
        return objective_pa_step(idx, val, y, vecs, ints, scal, hp, fast)
    if rule == L2_CONSTRAINED_PA:
        return l2_pa_step(idx, val, y, vecs, ints, scal, hp, fast)
    if rule == L1_CONSTRAINED_PA:
        return l1_pa_step(idx, val, y, vecs, ints, scal, hp, fast)
    return norma_step(idx, val, y, vecs, ints, scal, hp, fast)


@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == NORMA:
        return norma_score(idx, val, vecs, ints, scal, hp, fast)
    return sd_score(idx, val, vecs, ints, scal, hp, fast)
