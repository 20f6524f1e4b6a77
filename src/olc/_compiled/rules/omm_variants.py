"""Online Maximum Margin variants (seed 002): the naïve implementation n-OMM (ℓ2) and the
efficient implementation for ℓp norms, p ∈ (1, ∞) (§5.1). Rule ids 40–49.

n-OMM (rule 40) — Algorithm 1, naïve implementation. hp = [ρ, store]: store = 0
("updates", Algorithm 1 line 20) stores every point that triggers an update; store = 1
("all", the §3 text, line 125 of the seed: "keeps all points") stores every finite point
seen, including the points of the first label before the second label arrives (lines 2–11).
In both modes the max-margin problem (Eq. 2, equivalently the nearest-point problem Eq. 3)
of all stored points is re-solved exactly by ``nearest_point.wolfe``, warm-started from the
previous corral (support set), convex weights and QR factorization — only on update rounds
(a_t < ρ·γ_t or a mistake): a point with a_t ≥ γ_t satisfies the current solution's KKT
conditions, so the solution stays optimal for V ∪ {x_t}; a stored point is priced in every
later solve.

  Stored points are kept *centered* at the first stored point o = x₁ (translation
  invariance, Remark 3.1, and no cancellation against a far-away origin) and *augmented*:
  row bᵢ = (yᵢ(xᵢ − o), σ·[yᵢ = +1], σ·[yᵢ = −1]) with σ = ‖x₂ − x₁‖ fixed when the second
  label arrives (see ``nearest_point``). They are dense rows of length d + 2 for dense and
  CSR input alike: the solver prices every stored point against u = v₊ − v₋ (a dense
  vector) at every major cycle, which costs O(#stored · d) whatever the storage, and a
  dense row makes dense and CSR input bit-identical. Memory: O(#updates · d).

  vecs (rows of length d + 2; the first d entries of a row are a vector of ℝ^d):
    0 W       w = u/‖u‖ (explicit: a prediction costs O(nnz(x)))
    1 ORIGIN  o = x₁
    2 VPOS    v₊ − o,  3 VNEG  v₋ − o (the dual certificates, centered)
    4 U       u = v₊ − v₋ (the solver's output)
    5 …       Q (kmax rows: the corral's orthonormal basis), then R (kmax rows, upper
              triangular k × k in the first kmax columns), then the stored rows B (cap rows);
              kmax = min(cap, d + 2) (a corral has at most d + 2 points).
  scal: the header slots below, then λ (cap slots: convex weights of the stored points),
    then the corral (kmax slots: stored-row indices, exact as float64), then the keys (cap
    slots: a fixed weighted sum of each stored row's centered coordinates, ``_row_key``, so
    that the duplicate test compares one float per stored row before comparing rows).

  store = "all" before the second label: the rows of the first label are kept centered,
    y₁·(x − o), with their two augmented entries 0 until σ is known; when the second label
    arrives they get them, and (more than one first-label point) the problem of all stored
    points is solved, warm-started from the corral {x₁, x₂}.

  scal header: BIAS b, PHASE (0 nothing seen, 1 one label, 2 classifier), Y1, GAMMA γ,
    N_STORED, CAP, K (corral size), KMAX, SIGMA σ, GROW (request flag), SCALE
    (S = max ‖bᵢ‖, for the solver's relative tolerances), STATUS (last solve's status),
    MAJORS (major cycles so far: diagnostics).

  A point already stored with the same label is not stored again (V ∪ {x} = V): a stored
  support point seen again has a_t = γ_t up to rounding, so the update test may fire on it.
  (With store = "all" every repeated point is such a duplicate.)

  Buffer growth: when a point to be stored (an update; with store = "all" any point) finds
  the buffer full, the step sets scal[GROW] = 1 and
  returns a non-finite score without changing anything else; the loop stops with an
  overflow status and the learner's ``_grow_state`` returns arrays with twice the capacity
  (``grow_nomm``), then the loop resumes at the same row.

  Only the prediction reads a row in its layout (O(nnz(x))); an update densifies the row
  and continues in layout-independent code (compiled once, not once per layout).

ℓp e-OMM (rule 41) — Algorithm 1, efficient implementation, ‖·‖ = ℓp:
  vecs rows (length d): 0 W = ℓ(u) = ∇‖u‖_p, 1 v₊, 2 v₋ (explicit: the update is O(d)
  anyway, because ‖u − βz‖_p needs every coordinate). hp = [ρ, p].
"""
import math

import numba as nb

from ..caching import jit
from ..rule_ids import NAIVE_OMM, EFFICIENT_OMM_LP
import numpy as np

from ..kernels import INLINE, dot, is_finite_row, sign
from ..nearest_point import COLLAPSE, COLLAPSED, dotn, norm2, qr_add, wolfe


# -- n-OMM layout -----------------------------------------------------------------------------
# scal header slots
BIAS, PHASE, Y1, GAMMA, N_STORED, CAP, K, KMAX, SIGMA, GROW, SCALE, STATUS, MAJORS = range(13)
HEADER = 16
# vecs rows
W, ORIGIN, VPOS, VNEG, U, Q0 = 0, 1, 2, 3, 4, 5
# hp layout: [rho, store] (store: 0 = "updates", 1 = "all")
# A stored point must satisfy ‖x − x₁‖ ≤ Z_LIMIT, so that every product the solver forms
# (‖u‖·‖b‖ ≤ Z_LIMIT²·2) stays finite; a larger one is declined as an overflow.
Z_LIMIT = 1e150
INITIAL_CAPACITY = 16


def nomm_layout(cap, d):
    """(kmax, rows of vecs, length of scal) for a buffer of ``cap`` stored points."""
    kmax = min(cap, d + 2)
    return kmax, Q0 + 2 * kmax + cap, HEADER + 2 * cap + kmax


def nomm_initial_state(d, cap=INITIAL_CAPACITY):
    kmax, rows, n_scal = nomm_layout(cap, d)
    scal = np.zeros(n_scal)
    scal[CAP] = cap
    scal[KMAX] = kmax
    return np.zeros((rows, d + 2)), scal


def grow_nomm(vecs, scal):
    """Twice the capacity, same contents (the loop resumes the row that asked for it)."""
    d = vecs.shape[1] - 2
    cap, kmax, n = int(scal[CAP]), int(scal[KMAX]), int(scal[N_STORED])
    new_vecs, new_scal = nomm_initial_state(d, 2 * cap)
    new_kmax = int(new_scal[KMAX])
    new_vecs[:Q0] = vecs[:Q0]
    new_vecs[Q0:Q0 + kmax] = vecs[Q0:Q0 + kmax]
    new_vecs[Q0 + new_kmax:Q0 + new_kmax + kmax] = vecs[Q0 + kmax:Q0 + 2 * kmax]
    new_vecs[Q0 + 2 * new_kmax:Q0 + 2 * new_kmax + n] = vecs[Q0 + 2 * kmax:Q0 + 2 * kmax + n]
    new_scal[:HEADER] = scal[:HEADER]
    new_scal[CAP] = 2 * cap
    new_scal[KMAX] = new_kmax
    new_scal[GROW] = 0.0
    new_scal[HEADER:HEADER + n] = scal[HEADER:HEADER + n]
    new_scal[HEADER + 2 * cap:HEADER + 2 * cap + kmax] = scal[HEADER + cap:HEADER + cap + kmax]
    k_old, k_new = HEADER + cap + kmax, HEADER + 2 * cap + new_kmax
    new_scal[k_new:k_new + n] = scal[k_old:k_old + n]
    return new_vecs, new_scal


@jit(inline=INLINE)
def _densify(idx, val, out):
    """out ← x (O(len(out)): clears the row first). ``+ 0.0`` turns −0.0 into +0.0, so that a
    dense row with −0.0 entries and the CSR row without them give bit-identical state."""
    for j in range(out.shape[0]):
        out[j] = 0.0
    if idx is None:
        for j in range(val.shape[0]):
            out[j] = val[j] + 0.0
    else:
        for t in range(idx.shape[0]):
            out[idx[t]] = val[t] + 0.0


@jit(inline=INLINE)
def _centered(x, o, y, d, z):
    """z[:d] = y·(x − o) for a densified row x."""
    for j in range(d):
        z[j] = y * ((x[j] - o[j]) + 0.0)


@jit(inline=INLINE)
def _row_key(z, d):
    """A fixed weighted sum Σ cⱼ·zⱼ of a centered row (cⱼ ∈ [1, 2), pseudo-random, not
    linear in j, so that sparse 0/1 rows do not collide systematically). Equal rows have
    equal keys (same operations in the same order); unequal keys prove unequal rows."""
    s = 0.0
    for j in range(d):
        h = math.sin(12.9898 * (j + 1)) * 43758.5453
        s += z[j] * (1.0 + (h - math.floor(h)))
    return s


@jit(inline=INLINE)
def _key_block(scal):
    cap = int(scal[CAP])
    start = HEADER + cap + int(scal[KMAX])
    return scal[start:start + cap]


@jit(inline=INLINE)
def _already_stored(B, keys, key, z, d, check_label):
    """Is the row z (same label, same centered coordinates) among the rows of B? One key
    comparison per stored row; rows are compared only where the keys agree. The label is
    read from the augmented entry d (``check_label``; before the second label every stored
    row has the label y₁ and no augmented entries yet)."""
    for i in range(B.shape[0]):
        if keys[i] != key:
            continue
        bi = B[i]
        if check_label and bi[d] != z[d]:
            continue
        same = True
        for j in range(d):
            if bi[j] != z[j]:
                same = False
                break
        if same:
            return True
    return False


@jit(inline=INLINE)
def _nomm_finish(vecs, scal, status):
    """w, b, γ and the certificates from the solver's λ and corral (O(k·d))."""
    m = vecs.shape[1]
    d = m - 2
    cap = int(scal[CAP])
    kmax = int(scal[KMAX])
    k = int(scal[K])
    lam = scal[HEADER:HEADER + cap]
    corral = scal[HEADER + cap:HEADER + cap + kmax]
    B = vecs[Q0 + 2 * kmax:Q0 + 2 * kmax + cap]
    u, vp, vm, w, o = vecs[U], vecs[VPOS], vecs[VNEG], vecs[W], vecs[ORIGIN]
    for j in range(m):
        u[j] = 0.0
        vp[j] = 0.0
        vm[j] = 0.0
    for t in range(k):
        i = int(corral[t])
        li = lam[i]
        bi = B[i]
        if bi[d] > 0.0:
            for j in range(d):
                vp[j] += li * bi[j]
        else:
            for j in range(d):
                vm[j] -= li * bi[j]  # p = −z for a negative point
    for j in range(d):
        u[j] = vp[j] - vm[j]
    nu = norm2(u, d)
    if status == COLLAPSED or not nu > COLLAPSE * scal[SCALE]:
        # The stored points are not separable (the hulls intersect): w = 0, b = 0, γ = 0.
        for j in range(m):
            w[j] = 0.0
        scal[BIAS] = 0.0
        scal[GAMMA] = 0.0
        return
    inv = 1.0 / nu
    for j in range(d):
        w[j] = u[j] * inv
    scal[GAMMA] = 0.5 * nu
    scal[BIAS] = -dotn(w, o, d) - 0.5 * (dotn(w, vp, d) + dotn(w, vm, d))


@jit(inline=INLINE)
def _nomm_solve(vecs, scal):
    """Re-solve the max-margin problem of the stored points (warm start)."""
    d = vecs.shape[1] - 2
    cap = int(scal[CAP])
    kmax = int(scal[KMAX])
    n = int(scal[N_STORED])
    k = int(scal[K])
    lam = scal[HEADER:HEADER + cap]
    corral = scal[HEADER + cap:HEADER + cap + kmax]
    Q = vecs[Q0:Q0 + kmax]
    R = vecs[Q0 + kmax:Q0 + 2 * kmax]
    B = vecs[Q0 + 2 * kmax:Q0 + 2 * kmax + cap]
    k, status, it = wolfe(B, n, d, lam, corral, k, Q, R, vecs[U], scal[SCALE],
                          50 * (n + d) + 100)
    scal[K] = k
    scal[STATUS] = status
    scal[MAJORS] += it
    _nomm_finish(vecs, scal, status)


@jit(inline=INLINE)
def _nomm_start(vecs, scal, z, sigma):
    """Second label seen: V₊ = {x}, V₋ = {x'} (Algorithm 1, lines 12–13). With store = "all"
    the first-label points kept so far (rows 1 … n₁ − 1; row 0 is x₁) get their augmented
    entries and the problem of all n₁ + 1 stored points is solved, warm-started from the
    corral {x₁, x₂} (the second label's arrival is a mistake: an update round)."""
    m = vecs.shape[1]
    d = m - 2
    cap = int(scal[CAP])
    kmax = int(scal[KMAX])
    n1 = int(scal[N_STORED])
    y1 = scal[Y1]
    B = vecs[Q0 + 2 * kmax:Q0 + 2 * kmax + cap]
    b0, b1 = B[0], B[n1]
    for j in range(d):
        b0[j] = 0.0  # y₁·(x₁ − o) = 0
        b1[j] = z[j]
    scale = 0.0
    for i in range(n1):
        bi = B[i]
        bi[d] = sigma if y1 > 0.0 else 0.0
        bi[d + 1] = 0.0 if y1 > 0.0 else sigma
        scale = max(scale, norm2(bi, m))
    b1[d] = 0.0 if y1 > 0.0 else sigma
    b1[d + 1] = sigma if y1 > 0.0 else 0.0
    _key_block(scal)[n1] = _row_key(z, d)
    scal[SIGMA] = sigma
    scal[SCALE] = max(scale, norm2(b1, m))
    Q = vecs[Q0:Q0 + kmax]
    R = vecs[Q0 + kmax:Q0 + 2 * kmax]
    qr_add(Q, R, 0, b0, m)
    qr_add(Q, R, 1, b1, m)
    lam = scal[HEADER:HEADER + cap]
    corral = scal[HEADER + cap:HEADER + cap + kmax]
    lam[0] = 1.0
    lam[n1] = 1.0
    corral[0] = 0.0
    corral[1] = float(n1)
    scal[K] = 2.0
    scal[N_STORED] = n1 + 1.0
    if n1 == 1:
        _nomm_finish(vecs, scal, 0)
    else:
        _nomm_solve(vecs, scal)


@jit(inline=INLINE)
def nomm_score(idx, val, vecs, ints, scal, hp, fast):
    phase = scal[PHASE]
    if phase < 2.0:
        return 1.0 if phase == 0.0 else scal[Y1]
    return dot(vecs[W], idx, val, fast) + scal[BIAS]


@jit()
def _nomm_keep_first(x, vecs, scal):
    """store = "all", phase 1, y = y₁: keep y₁·(x − o) (augmented entries later, when σ is
    known), unless already kept. Returns False (nothing changed) if x is too far from x₁."""
    m = vecs.shape[1]
    d = m - 2
    n = int(scal[N_STORED])
    z = np.empty(m)
    _centered(x, vecs[ORIGIN], scal[Y1], d, z)
    if not norm2(z, d) <= Z_LIMIT:
        return False
    z[d] = 0.0
    z[d + 1] = 0.0
    kmax = int(scal[KMAX])
    keys = _key_block(scal)
    key = _row_key(z, d)
    if _already_stored(vecs[Q0 + 2 * kmax:Q0 + 2 * kmax + n], keys, key, z, d, False):
        return True
    row = vecs[Q0 + 2 * kmax + n]
    for j in range(m):
        row[j] = z[j]
    keys[n] = key
    scal[N_STORED] = n + 1
    return True


@jit()
def _nomm_init(x, y, vecs, scal):
    """Lines 2–13 (phases 0 and 1) for a densified finite row x; the other label has not
    been seen yet and, in phase 1, y ≠ y₁ (the first-label rows of store = "all" are kept
    by ``_nomm_keep_first``)."""
    m = vecs.shape[1]
    d = m - 2
    if scal[PHASE] == 0.0:
        o = vecs[ORIGIN]
        for j in range(d):
            o[j] = x[j]
        scal[Y1] = y
        scal[PHASE] = 1.0
        scal[N_STORED] = 1.0  # row 0 of B (zero coordinates) and key 0: x₁ itself
        return 1.0, 1.0, y < 0.0, 0.0
    y1 = scal[Y1]
    z = np.empty(m)
    _centered(x, vecs[ORIGIN], y, d, z)
    sigma = norm2(z, d)
    if not sigma <= Z_LIMIT:
        return math.inf, y1, False, 0.0
    scal[PHASE] = 2.0
    if sigma == 0.0:
        # x₂ = x₁ with the other label: not separable (w = 0, b = 0, γ = 0, as e-OMM).
        scal[GAMMA] = 0.0
        scal[BIAS] = 0.0
        return y1, y1, True, 0.0
    _nomm_start(vecs, scal, z, sigma)
    return y1, y1, True, 0.0


@jit()
def _nomm_store_and_solve(x, y, vecs, scal, solve):
    """Line 20 (or the §3 text's "keeps all points"): V ← V ∪ {x}; then, on an update round
    (``solve``), lines 25–26: re-solve. Returns False (nothing changed) if x is too far
    from x₁ to be stored safely."""
    m = vecs.shape[1]
    d = m - 2
    n = int(scal[N_STORED])
    z = np.empty(m)
    _centered(x, vecs[ORIGIN], y, d, z)
    nz = norm2(z, d)
    if not nz <= Z_LIMIT:
        return False
    sigma = scal[SIGMA]
    z[d] = sigma if y > 0.0 else 0.0
    z[d + 1] = 0.0 if y > 0.0 else sigma
    kmax = int(scal[KMAX])
    keys = _key_block(scal)
    key = _row_key(z, d)
    if _already_stored(vecs[Q0 + 2 * kmax:Q0 + 2 * kmax + n], keys, key, z, d, True):
        # V ∪ {x} = V (line 20 adds to a *set*): the max-margin problem is unchanged. This
        # happens when a stored support point comes again and a_t = γ_t up to rounding.
        return True
    row = vecs[Q0 + 2 * kmax + n]
    for j in range(m):
        row[j] = z[j]
    keys[n] = key
    scal[N_STORED] = n + 1
    scal[SCALE] = max(scal[SCALE], norm2(z, m))
    if solve:
        _nomm_solve(vecs, scal)
    return True


@jit(inline=INLINE)
def nomm_step(idx, val, y, vecs, ints, scal, hp, fast):
    """One round of Algorithm 1, naïve implementation, with aggressiveness ρ = hp[0] and
    store = hp[1] (0: "updates", 1: "all").

    Initialization (lines 2–13) and the update test (a_t < ρ·γ_t, or a mistake) exactly as
    e-OMM (see rules/omm.py); an update stores x_t and re-solves Eq. (2) on all stored
    points; with store = "all" every other finite row is stored too (no solve: the current
    solution stays optimal, or — ρ < 1 — is kept by the rule). aux = γ_t, the predicted
    margin of the classifier used for this prediction.
    Only the prediction reads the row in its layout (O(nnz(x))); an update densifies it
    (O(d), dominated by the solve) and continues in layout-independent code.
    """
    phase = scal[PHASE]
    d = vecs.shape[1] - 2
    if phase < 2.0:
        y1 = 1.0 if phase == 0.0 else scal[Y1]
        if not is_finite_row(val):
            return math.nan, y1, False, 0.0
        if phase == 1.0 and y == y1:
            if hp[1] == 0.0:
                return y1, y1, False, 0.0
            if scal[N_STORED] >= scal[CAP]:
                scal[GROW] = 1.0
                return math.inf, y1, False, 0.0
            x = np.empty(d)
            _densify(idx, val, x)
            if not _nomm_keep_first(x, vecs, scal):
                return math.inf, y1, False, 0.0
            return y1, y1, False, 0.0
        if phase == 1.0 and scal[N_STORED] >= scal[CAP]:
            scal[GROW] = 1.0  # the second label's point needs a slot too
            return math.inf, y1, False, 0.0
        x = np.empty(d)
        _densify(idx, val, x)
        return _nomm_init(x, y, vecs, scal)

    gamma = scal[GAMMA]
    s = dot(vecs[W], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, gamma
    if gamma == 0.0:
        # Not separable: the classifier stays w = 0, b = 0 (no max-margin classifier exists
        # for any superset of the stored points); mistakes are reported as updates, as e-OMM.
        return s, pred, pred != y, 0.0
    a = y * s
    update = a < hp[0] * gamma or pred != y
    if not update and hp[1] == 0.0:
        return s, pred, False, gamma
    if scal[N_STORED] >= scal[CAP]:
        scal[GROW] = 1.0  # ask the learner for a bigger buffer; nothing else changed
        return math.inf, pred, False, gamma
    x = np.empty(d)
    _densify(idx, val, x)
    if not _nomm_store_and_solve(x, y, vecs, scal, update):
        return math.inf, pred, False, gamma
    return s, pred, update, gamma


# -- ℓp e-OMM ---------------------------------------------------------------------------------
LP_BIAS, LP_PHASE, LP_Y1, LP_GAMMA, LP_NORM = 0, 1, 2, 3, 4
LP_W, LP_VPOS, LP_VNEG = 0, 1, 2
# hp layout: [rho, p]
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
    w = vecs[LP_W]
    if nu == 0.0:
        for i in range(d):
            w[i] = 0.0
        scal[LP_BIAS] = 0.0
        scal[LP_GAMMA] = 0.0
        scal[LP_NORM] = 0.0
        return True
    wn = np.empty(d)
    for i in range(d):
        r = abs(u[i]) / nu
        e = r ** (p - 1.0) if r > 0.0 else 0.0
        wn[i] = e if u[i] > 0.0 else -e
    b = -0.5 * (dotn(wn, vecs[LP_VPOS], d) + dotn(wn, vecs[LP_VNEG], d))
    if not math.isfinite(b):
        return False
    for i in range(d):
        w[i] = wn[i]
    scal[LP_BIAS] = b
    scal[LP_GAMMA] = 0.5 * nu
    scal[LP_NORM] = nu
    return True


@jit(inline=INLINE)
def lp_score(idx, val, vecs, ints, scal, hp, fast):
    phase = scal[LP_PHASE]
    if phase < 2.0:
        return 1.0 if phase == 0.0 else scal[LP_Y1]
    return dot(vecs[LP_W], idx, val, fast) + scal[LP_BIAS]


@jit()
def _lp_init(x, y, vecs, scal, p):
    """Lines 2–13 for a densified finite row x (phase 0, or phase 1 with y ≠ y₁)."""
    d = vecs.shape[1]
    mine = vecs[LP_VPOS] if y > 0.0 else vecs[LP_VNEG]
    if scal[LP_PHASE] == 0.0:
        for i in range(d):
            mine[i] = x[i]
        scal[LP_Y1] = y
        scal[LP_PHASE] = 1.0
        return 1.0, 1.0, y < 0.0, 0.0
    y1 = scal[LP_Y1]
    other = vecs[LP_VNEG] if y > 0.0 else vecs[LP_VPOS]
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
    scal[LP_PHASE] = 2.0
    return y1, y1, True, 0.0


@jit()
def _lp_update(x, y, vecs, scal, p):
    """The three-point step for a densified row x. Returns False (nothing changed) on a
    non-finite intermediate."""
    d = vecs.shape[1]
    vp, vm = vecs[LP_VPOS], vecs[LP_VNEG]
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
    """One round of Algorithm 1 (efficient implementation), ‖·‖ = ℓp (p = hp[1]), ρ = hp[0].

    Same phases and update test as the ℓ2 rule (rules/omm.py). Three-point step (§5.1,
    Eq. 7): u = v₊ − v₋, z = v₊ − x (y = +1) or x − v₋ (y = −1), β* = argmin_{β∈[0,1]}
    ‖u − βz‖_p, and the certificate of x's label moves to (1 − β*)v + β*x (β* = 1: x).
    O(d) per update, O(nnz(x)) per prediction (w is kept explicitly).
    """
    phase = scal[LP_PHASE]
    d = vecs.shape[1]
    if phase < 2.0:
        y1 = 1.0 if phase == 0.0 else scal[LP_Y1]
        if not is_finite_row(val):
            return math.nan, y1, False, 0.0
        if phase == 1.0 and y == y1:
            return y1, y1, False, 0.0
        x = np.empty(d)
        _densify(idx, val, x)
        return _lp_init(x, y, vecs, scal, hp[1])

    gamma = scal[LP_GAMMA]
    s = dot(vecs[LP_W], idx, val, fast) + scal[LP_BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, gamma
    if gamma == 0.0:
        # v₊ = v₋ (not separable): w = 0, b = 0 for good, as the ℓ2 rule (β* = 0 there).
        return s, pred, pred != y, 0.0
    a = y * s
    if not (a < hp[0] * gamma or pred != y):
        return s, pred, False, gamma
    x = np.empty(d)
    _densify(idx, val, x)
    if not _lp_update(x, y, vecs, scal, hp[1]):
        return math.inf, pred, False, gamma
    return s, pred, True, gamma


# -- family dispatchers (not inlined: compiled once per layout) ------------------------------

@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == NAIVE_OMM:
        return nomm_score(idx, val, vecs, ints, scal, hp, fast)
    return lp_score(idx, val, vecs, ints, scal, hp, fast)  # EFFICIENT_OMM_LP


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == NAIVE_OMM:
        return nomm_step(idx, val, y, vecs, ints, scal, hp, fast)
    return lp_step(idx, val, y, vecs, ints, scal, hp, fast)  # EFFICIENT_OMM_LP
