"""Exact nearest points of two convex hulls (Ho-Nguyen et al. 2025, Eq. 3) — the dual of the
hard-margin SVM with bias (proof of Lemma 3.1) — by an active-set method: Wolfe's minimum-norm-point
algorithm (Wolfe 1976) adapted to the difference of two simplices, with exact termination.

Problem. Points zᵢ with labels yᵢ ∈ {±1}; write pᵢ = yᵢ·zᵢ. Find convex weights λ on each
class (λ ≥ 0, Σ_{y=+1} λ = 1, Σ_{y=−1} λ = 1) minimising ‖u‖, u = Σ λᵢ pᵢ = v₊ − v₋
(v₊ ∈ conv(Z₊), v₋ ∈ conv(Z₋): the dual certificates).

Optimality (KKT). With the levels μ₊ = u·v₊ and μ₋ = −u·v₋ (μ₊ + μ₋ = ‖u‖² for every
feasible λ), λ is optimal iff u·pᵢ ≥ μ_{yᵢ} for every point, with equality where λᵢ > 0:
every point has margin ≥ γ = ‖u‖/2 under w = u/‖u‖, b = −½ w·(v₊ + v₋) (Lemma 3.1).
``viol_i = μ_{yᵢ} − u·pᵢ`` is point i's violation (its margin deficit times ‖u‖).

Corral (Wolfe's term). An active set C whose *augmented* columns
bᵢ = (pᵢ, σ·[yᵢ = +1], σ·[yᵢ = −1]) ∈ ℝ^{d+2} are linearly independent (σ > 0 a fixed
scale). Independence of the bᵢ is exactly the condition under which the affine subproblem
  min ‖Σ_{i∈C} αᵢ pᵢ‖  s.t.  Σ_{C₊} α = 1, Σ_{C₋} α = 1
has a unique solution, and that solution is α = F·c with F = R⁻¹·Q_Eᵀ (k × 2) and c ∈ ℝ²
fixing the two sums, where B_C = Q·R is the thin QR factorization of the corral's columns
and Q_E the last two rows of Q. (Proof: the KKT conditions of the subproblem read
PᵀPα = Eᵀμ, Eα = 1, hence BᵀBα = Eᵀ(μ + σ²·1); and BᵀB = RᵀR, σE = Q_E·R give
(BᵀB)⁻¹Eᵀ = R⁻¹Q_Eᵀ/σ.) So no reference point and no normal equations are needed; Q is
kept orthonormal by Gram–Schmidt with reorthogonalisation when a column enters and by
Givens rotations when a column leaves (O((d + k)·k) per change, not a refactorisation).

Algorithm (Wolfe's major/minor cycles). Major: price every point, add the most violating
one (a strictly violating point is never in the affine hull of the corral, so independence
is kept). Minor: solve the affine subproblem; if every αᵢ > 0, accept λ = α; otherwise
move λ towards α until a weight hits zero, drop the points whose weight is zero, repeat.
‖u‖ decreases strictly at every major cycle, so no corral repeats: finite termination.
On the final corral λ is the exact solution of the affine subproblem (the "exact re-solve
on the support set"), so the result is exact to rounding, not to a solver tolerance.

Numerical safeguards (all relative, so the method is scale-invariant):
  * optimal when every violation ≤ TOL_KKT·‖u‖·S, S = max ‖bᵢ‖ (a violation of that size
    changes ‖u‖ by a relative O(TOL_KKT²));
  * a column whose Gram–Schmidt residual is ≤ TOL_DEP·‖b‖ (``thin_qr.py``) is numerically in
    the span of the corral (its violation is rounding): the solve stops there as optimal;
  * ‖u‖ ≤ COLLAPSE·S: the hulls intersect to working precision (not separable), status
    COLLAPSED;
  * a major cycle that does not decrease ‖u‖² ends the solve (rounding-level progress);
  * an iteration cap (never reached in the tests).
Every intermediate λ is feasible (convex on each class) and consistent with (Q, R), so the
state stays valid whatever the status.

Warm start: (corral, λ, Q, R) from a previous solve remain valid when points are appended
(n-OMM adds one stored point per update, the working-set method a batch of violators).
The corral is an int64 array of row indices (n-OMM keeps it in its integer state).
"""
import math

import numpy as np

from ...caching import jit
from ...kernels.vector import INLINE
from .thin_qr import dot_centered, dotn, norm2, qr_add, qr_delete

OPTIMAL, COLLAPSED, STALLED, FAILED = 0, 1, 2, 3

TOL_KKT = 1e-12
COLLAPSE = 1e-13


@jit(inline=INLINE)
def affine_weights(Q, R, k, corral, B, d, alpha, F):
    """α minimising ‖Σ αᵢ pᵢ‖ over the corral subject to Σ_{C₊} α = 1 = Σ_{C₋} α (see the
    module docstring: α = R⁻¹Q_Eᵀc). Returns False if the 2 × 2 system is singular."""
    # back substitution R·F = Q_Eᵀ (two right-hand sides)
    for i in range(k - 1, -1, -1):
        s0 = Q[i, d]
        s1 = Q[i, d + 1]
        for j in range(i + 1, k):
            r = R[i, j]
            s0 -= r * F[j, 0]
            s1 -= r * F[j, 1]
        F[i, 0] = s0 / R[i, i]
        F[i, 1] = s1 / R[i, i]
    a00 = 0.0
    a01 = 0.0
    a10 = 0.0
    a11 = 0.0
    for t in range(k):
        if B[corral[t], d] > 0.0:
            a00 += F[t, 0]
            a01 += F[t, 1]
        else:
            a10 += F[t, 0]
            a11 += F[t, 1]
    det = a00 * a11 - a01 * a10
    if not (det != 0.0 and math.isfinite(det)):
        return False
    c0 = (a11 - a01) / det
    c1 = (a00 - a10) / det
    sp = 0.0
    sm = 0.0
    for t in range(k):
        a = F[t, 0] * c0 + F[t, 1] * c1
        alpha[t] = a
        if B[corral[t], d] > 0.0:
            sp += a
        else:
            sm += a
    if not (sp > 0.0 and sm > 0.0 and math.isfinite(sp) and math.isfinite(sm)):
        return False
    # the class sums are 1 up to rounding: make them 1 (convex weights)
    for t in range(k):
        if B[corral[t], d] > 0.0:
            alpha[t] /= sp
        else:
            alpha[t] /= sm
    return True


@jit(inline=INLINE)
def combine(B, d, lam, corral, k, u):
    """u = Σ_{i∈C} λᵢ pᵢ (= v₊ − v₋)."""
    for j in range(d):
        u[j] = 0.0
    for t in range(k):
        i = corral[t]
        li = lam[i]
        bi = B[i]
        for j in range(d):
            u[j] += li * bi[j]


@jit(inline=INLINE)
def levels(B, d, lam, corral, k, u):
    """(μ₊, μ₋) = (u·v₊, −u·v₋), the λ-weighted levels u·pᵢ of each class."""
    mp = 0.0
    mm = 0.0
    for t in range(k):
        i = corral[t]
        c = lam[i] * dotn(u, B[i], d)
        if B[i, d] > 0.0:
            mp += c
        else:
            mm += c
    return mp, mm


@jit()
def wolfe(B, n, d, lam, corral, k, Q, R, u, scale, max_major):
    """Solve the nearest-point problem over the points B[:n] (augmented rows, see the module
    docstring), warm-started from (corral[:k], λ, Q, R), which must describe a feasible
    point of a valid corral (e.g. the previous solution when rows were appended).

    ``scale``: S ≥ max ‖bᵢ‖ (tolerances). On return λ (zero outside the corral), the corral,
    Q and R describe the solution and u = v₊ − v₋. Returns (k, status, major cycles).
    """
    m = d + 2
    in_c = np.zeros(n, np.bool_)
    for t in range(k):
        in_c[corral[t]] = True
    alpha = np.empty(m)
    F = np.empty((m, 2))
    combine(B, d, lam, corral, k, u)
    nu2 = dotn(u, u, d)
    status = OPTIMAL
    it = 0
    while it < max_major:
        nu = norm2(u, d)
        if not nu > COLLAPSE * scale:
            status = COLLAPSED
            break
        mp, mm = levels(B, d, lam, corral, k, u)
        best = -1
        best_v = TOL_KKT * nu * scale
        for i in range(n):
            if in_c[i]:
                continue
            v = (mp if B[i, d] > 0.0 else mm) - dotn(u, B[i], d)
            if v > best_v:
                best_v = v
                best = i
        if best < 0:
            break
        if k >= m or not qr_add(Q, R, k, B[best], m):
            break  # numerically in the corral's span: its violation is rounding
        it += 1
        corral[k] = best
        lam[best] = 0.0
        in_c[best] = True
        k += 1
        failed = False
        for _minor in range(m + 1):
            if not affine_weights(Q, R, k, corral, B, d, alpha, F):
                failed = True
                break
            theta = 1.0
            argmin = -1
            for t in range(k):
                a = alpha[t]
                if a <= 0.0:
                    li = lam[corral[t]]
                    den = li - a
                    ratio = li / den if den > 0.0 else 0.0
                    if ratio < theta or argmin < 0:
                        theta = ratio
                        argmin = t
            if argmin < 0:
                for t in range(k):
                    lam[corral[t]] = alpha[t]
                break
            for t in range(k):
                i = corral[t]
                lam[i] = (1.0 - theta) * lam[i] + theta * alpha[t]
            lam[corral[argmin]] = 0.0
            for t in range(k - 1, -1, -1):
                i = corral[t]
                if lam[i] <= 0.0:
                    lam[i] = 0.0
                    in_c[i] = False
                    qr_delete(Q, R, k, t, m)
                    for s in range(t, k - 1):
                        corral[s] = corral[s + 1]
                    corral[k - 1] = 0
                    k -= 1
        combine(B, d, lam, corral, k, u)
        if failed:
            status = FAILED
            break
        new_nu2 = dotn(u, u, d)
        if not new_nu2 < nu2:
            status = STALLED
            break
        nu2 = new_nu2
    return k, status, it


# -- offline: working-set method over a whole data set ---------------------------------------

@jit()
def _augment(x, o, y, sigma, d, out):
    for j in range(d):
        out[j] = y * (x[j] - o[j])
    out[d] = sigma if y > 0.0 else 0.0
    out[d + 1] = 0.0 if y > 0.0 else sigma


@jit()
def max_margin_core(X, y, o, sigma, scale, i_pos, i_neg, batch, max_outer, max_major):
    """Working-set method: solve on a working set W (``wolfe``), price every point of X
    against the result, add the ``batch`` most violating ones to W, repeat until no point
    violates. Returns (λ over all rows, u, status, outer rounds, major cycles, |W|)."""
    n, d = X.shape
    m = d + 2
    cap = 256
    B = np.zeros((cap, m))
    orig = np.zeros(cap, np.int64)
    in_w = np.zeros(n, np.bool_)
    lam = np.zeros(cap)
    corral = np.zeros(m, np.int64)
    Q = np.zeros((m, m))
    R = np.zeros((m, m))
    u = np.zeros(d)
    _augment(X[i_pos], o, 1.0, sigma, d, B[0])
    _augment(X[i_neg], o, -1.0, sigma, d, B[1])
    orig[0] = i_pos
    orig[1] = i_neg
    in_w[i_pos] = True
    in_w[i_neg] = True
    nw = 2
    qr_add(Q, R, 0, B[0], m)
    qr_add(Q, R, 1, B[1], m)
    corral[0] = 0
    corral[1] = 1
    lam[0] = 1.0
    lam[1] = 1.0
    k = 2
    status = OPTIMAL
    majors = 0
    rounds = 0
    viol = np.empty(n)
    while rounds < max_outer:
        rounds += 1
        k, status, it = wolfe(B, nw, d, lam, corral, k, Q, R, u, scale, max_major)
        majors += it
        if status == COLLAPSED or status == FAILED:
            break
        mp, mm = levels(B, d, lam, corral, k, u)
        nu = norm2(u, d)
        thr = TOL_KKT * nu * scale
        count = 0
        for i in range(n):
            if in_w[i]:
                viol[i] = -np.inf
                continue
            v = (mp if y[i] > 0.0 else mm) - y[i] * dot_centered(u, X[i], o, d)
            viol[i] = v
            if v > thr:
                count += 1
        if count == 0:
            break
        take = min(count, batch)
        order = np.argsort(-viol)[:take]
        if nw + take > cap:
            new_cap = max(2 * cap, nw + take)
            B2 = np.zeros((new_cap, m))
            B2[:nw] = B[:nw]
            lam2 = np.zeros(new_cap)
            lam2[:nw] = lam[:nw]
            orig2 = np.zeros(new_cap, np.int64)
            orig2[:nw] = orig[:nw]
            B, lam, orig, cap = B2, lam2, orig2, new_cap
        for t in range(take):
            i = order[t]
            _augment(X[i], o, y[i], sigma, d, B[nw])
            orig[nw] = i
            in_w[i] = True
            nw += 1
    lam_full = np.zeros(n)
    for t in range(k):
        i = corral[t]
        lam_full[orig[i]] = lam[i]
    return lam_full, u, status, rounds, majors, nw
