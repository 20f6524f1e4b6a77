"""n-OMM: Online Maximum Margin, naïve implementation, ℓ2 norm (Ho-Nguyen et al. 2025,
Algorithm 1; layout in ``layouts/omm_variants.py``).

store = STORE_UPDATES (Algorithm 1, line 20) stores every point that triggers an update;
store = STORE_ALL (the §3 text: the naïve implementation "keeps all points") stores every
finite point seen, including the points of the first label before the second label arrives
(lines 2–11). In both modes the max-margin problem (Eq. 2, equivalently the nearest-point
problem Eq. 3) of all stored points is re-solved exactly by ``nearest_point.wolfe``,
warm-started from the previous corral (support set), convex weights and QR factorization —
only on update rounds (a_t < ρ·γ_t or a mistake): a point with a_t ≥ γ_t satisfies the
current solution's KKT conditions, so the solution stays optimal for V ∪ {x_t}; a stored
point is priced in every later solve.

Stored points are kept *centered* at the first stored point o = x₁ (translation invariance,
Remark 3.4, and no cancellation against a far-away origin), *augmented*: row
bᵢ = (yᵢ(xᵢ − o), σ·[yᵢ = +1], σ·[yᵢ = −1]) with σ = ‖x₂ − x₁‖ fixed when the second label
arrives (see ``nearest_point``), and in units of 2^E (UNIT = 2^−E, fixed by the first nonzero
centered row as e-OMM's unit, ``rules/omm.py``: the solver's products stay inside float64
whatever the data's scale, and power-of-two scaling is exact). They are dense rows of length d + 2 for dense and CSR input alike: the
solver prices every stored point against u = v₊ − v₋ (a dense vector) at every major cycle,
which costs O(#stored · d) whatever the storage, and a dense row makes dense and CSR input
bit-identical. Memory: O(#updates · d).

store = STORE_ALL before the second label: the rows of the first label are kept centered,
y₁·(x − o), with their two augmented entries 0 until σ is known; when the second label
arrives they get them, and (more than one first-label point) the problem of all stored
points is solved, warm-started from the corral {x₁, x₂}.

A point already stored with the same label is not stored again (V ∪ {x} = V): a stored
support point seen again has a_t = γ_t up to rounding, so the update test may fire on it.
(With STORE_ALL every repeated point is such a duplicate.) The keys (a fixed weighted sum of
each stored row) let the test compare one float per stored row before comparing rows.

Buffer growth: when a point to be stored finds the buffer full, the step sets scal[GROW] = 1
and returns a non-finite score without changing anything else; the loop stops with an
overflow status and the learner's ``_grow_state`` returns arrays with twice the capacity
(``layouts.omm_variants.grow_nomm``), then the loop resumes at the same row.

Only the prediction reads a row in its layout (O(nnz(x))); an update densifies the row and
continues in layout-independent code (compiled once, not once per layout).
"""
import math

import numpy as np

from ..caching import jit
from ..kernels.vector import INLINE, is_finite_row
from ..layouts.omm import PHASE_EMPTY, PHASE_MARGIN, PHASE_ONE_LABEL
from ..layouts.omm_variants import (
    NOMM_COUNTERS,
    NOMM_HEADER,
    NOMM_ROWS,
    STORE_ALL,
    NommHP,
    NommInt,
    NommScal,
    NommVec,
)
from .omm_geometry.nearest_point import COLLAPSE, COLLAPSED, wolfe
from .omm_geometry.thin_qr import dotn, norm2, qr_add
from .omm import densify, explicit_round, explicit_score, row_unit

BIAS, PHASE, Y1, GAMMA = NommScal.BIAS, NommScal.PHASE, NommScal.Y1, NommScal.GAMMA
SIGMA, SCALE, UNIT, GROW = NommScal.SIGMA, NommScal.SCALE, NommScal.UNIT, NommScal.GROW
N_STORED, K, STATUS, MAJORS = NommInt.N_STORED, NommInt.K, NommInt.STATUS, NommInt.MAJORS
W, ORIGIN, VPOS, VNEG, U = NommVec.W, NommVec.ORIGIN, NommVec.VPOS, NommVec.VNEG, NommVec.U

# A stored point must satisfy ‖x − x₁‖ ≤ Z_LIMIT (in units), so that every product the solver
# forms (‖u‖·‖b‖ ≤ Z_LIMIT²·2) stays finite; a larger one is declined as an overflow.
Z_LIMIT = 1e150
# And in the data's units ‖x − x₁‖ ≤ DATA_LIMIT and √d·max|x₁ⱼ| ≤ DATA_LIMIT, so that the
# bias b = −w·x₁ − ½·w·(v₊ + v₋) (‖w‖ = 1, v± convex combinations of stored points) is
# finite: a row beyond it is declined as an overflow (nothing changes, the stream stops
# there with an error) instead of leaving b = ±inf. |w·x₁| ≤ ‖x₁‖ and |w·v±| ≤ max ‖x − x₁‖
# (Cauchy–Schwarz, partial sums included), so every term of b and their sum stay below
# 2·2^1021 < the largest double; a tighter limit (1e300) refused data scaled by 2^1000,
# which the power-of-two scale invariance of the units must learn.
DATA_LIMIT = 2.0 ** 1021
DECLINED, DUPLICATE = -1.0, 0.0  # what ``_keep_point`` did instead of storing a row


@jit(inline=INLINE)
def _capacity(scal):
    return (scal.shape[0] - NOMM_HEADER) // 2


@jit(inline=INLINE)
def _blocks(vecs, ints, scal):
    """Views (Q, R, B, λ, keys, corral) of the variable blocks; sizes follow the shapes."""
    d = vecs.shape[1] - 2
    cap = _capacity(scal)
    kmax = min(cap, d + 2)
    q, h = NOMM_ROWS, NOMM_HEADER
    return (vecs[q:q + kmax], vecs[q + kmax:q + 2 * kmax], vecs[q + 2 * kmax:q + 2 * kmax + cap],
            scal[h:h + cap], scal[h + cap:h + 2 * cap],
            ints[NOMM_COUNTERS:NOMM_COUNTERS + d + 2])


@jit(inline=INLINE)
def _centered_in_units(x, o, y, d, z, unit):
    """z[:d] = y·(x − o)·unit for a densified row x; returns ``row_unit``'s (unit, fixed)."""
    for j in range(d):
        z[j] = y * ((x[j] - o[j]) + 0.0)
    unit, fixed = row_unit(unit, z[:d])
    for j in range(d):
        z[j] *= unit
    return unit, fixed


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
def _store_row(z, key, B, keys, ints):
    """Append the centered row z and its key to the stored points."""
    n = ints[N_STORED]
    row = B[n]
    for j in range(row.shape[0]):
        row[j] = z[j]
    keys[n] = key
    ints[N_STORED] = n + 1


@jit(inline=INLINE)
def _nomm_finish(vecs, ints, scal, status):
    """w, b, γ and the certificates from the solver's λ and corral (O(k·d))."""
    m = vecs.shape[1]
    d = m - 2
    _, _, B, lam, _, corral = _blocks(vecs, ints, scal)
    u, vp, vm, w, o = vecs[U], vecs[VPOS], vecs[VNEG], vecs[W], vecs[ORIGIN]
    for j in range(m):
        u[j] = 0.0
        vp[j] = 0.0
        vm[j] = 0.0
    for t in range(ints[K]):
        i = corral[t]
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
    # u, v₊, v₋ are in units (w is unit-free); γ and b are in the data's units.
    unit = scal[UNIT]
    scal[GAMMA] = 0.5 * nu / unit
    scal[BIAS] = -dotn(w, o, d) - 0.5 * ((dotn(w, vp, d) + dotn(w, vm, d)) / unit)


@jit(inline=INLINE)
def _nomm_solve(vecs, ints, scal):
    """Re-solve the max-margin problem of the stored points (warm start)."""
    d = vecs.shape[1] - 2
    n = ints[N_STORED]
    Q, R, B, lam, _, corral = _blocks(vecs, ints, scal)
    k, status, it = wolfe(B, n, d, lam, corral, ints[K], Q, R, vecs[U], scal[SCALE],
                          50 * (n + d) + 100)
    ints[K] = k
    ints[STATUS] = status
    ints[MAJORS] += it
    _nomm_finish(vecs, ints, scal, status)


@jit(inline=INLINE)
def _nomm_start(vecs, ints, scal, z, sigma):
    """Second label seen: V₊ = {x}, V₋ = {x'} (Algorithm 1, lines 12–13). With STORE_ALL
    the first-label points kept so far (rows 1 … n₁ − 1; row 0 is x₁) get their augmented
    entries and the problem of all n₁ + 1 stored points is solved, warm-started from the
    corral {x₁, x₂} (the second label's arrival is a mistake: an update round)."""
    m = vecs.shape[1]
    d = m - 2
    n1 = ints[N_STORED]
    y1 = scal[Y1]
    Q, R, B, lam, keys, corral = _blocks(vecs, ints, scal)
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
    keys[n1] = _row_key(z, d)
    scal[SIGMA] = sigma
    scal[SCALE] = max(scale, norm2(b1, m))
    qr_add(Q, R, 0, b0, m)
    qr_add(Q, R, 1, b1, m)
    lam[0] = 1.0
    lam[n1] = 1.0
    corral[0] = 0
    corral[1] = n1
    ints[K] = 2
    ints[N_STORED] = n1 + 1
    if n1 == 1:
        _nomm_finish(vecs, ints, scal, 0)
    else:
        _nomm_solve(vecs, ints, scal)


@jit(inline=INLINE)
def nomm_score(idx, val, vecs, ints, scal, hp, fast):
    return explicit_score(idx, val, vecs[W], scal[BIAS], scal[PHASE], scal[Y1], fast)


@jit(inline=INLINE)
def _keep_point(x, y, vecs, ints, scal, sigma, check_label):
    """V ← V ∪ {x} for a densified row x: centered at x₁, in units, augmented with σ by its
    label (σ = 0 before the second label: augmented entries later), stored unless already
    stored (``_already_stored``). Returns the stored row's norm, or DUPLICATE (nothing to
    store) or DECLINED (nothing changed: x is too far from x₁ to be stored safely)."""
    m = vecs.shape[1]
    d = m - 2
    z = np.empty(m)
    unit, fixed = _centered_in_units(x, vecs[ORIGIN], y, d, z, scal[UNIT])
    if not (norm2(z, d) <= Z_LIMIT and norm2(z, d) / unit <= DATA_LIMIT):
        return DECLINED
    z[d] = sigma if y > 0.0 else 0.0
    z[d + 1] = 0.0 if y > 0.0 else sigma
    _, _, B, _, keys, _ = _blocks(vecs, ints, scal)
    key = _row_key(z, d)
    if _already_stored(B[:ints[N_STORED]], keys, key, z, d, check_label):
        return DUPLICATE
    _store_row(z, key, B, keys, ints)
    if fixed:
        scal[UNIT] = unit
    return norm2(z, m)


@jit()
def _nomm_keep_first(x, vecs, ints, scal):
    """STORE_ALL, phase 1, y = y₁: keep y₁·(x − o) (augmented entries later, when σ is
    known), unless already kept. Returns False (nothing changed) if x is too far from x₁."""
    return _keep_point(x, scal[Y1], vecs, ints, scal, 0.0, False) != DECLINED


@jit()
def _nomm_init(x, y, vecs, ints, scal):
    """Lines 2–13 (phases 0 and 1) for a densified finite row x; the other label has not
    been seen yet and, in phase 1, y ≠ y₁ (the first-label rows of STORE_ALL are kept
    by ``_nomm_keep_first``)."""
    m = vecs.shape[1]
    d = m - 2
    if scal[PHASE] == PHASE_EMPTY:
        biggest = 0.0
        for j in range(d):
            biggest = max(biggest, abs(x[j]))
        if not biggest * math.sqrt(d) <= DATA_LIMIT:
            return math.inf, 1.0, False, 0.0   # declined: see DATA_LIMIT
        o = vecs[ORIGIN]
        for j in range(d):
            o[j] = x[j]
        scal[Y1] = y
        scal[PHASE] = PHASE_ONE_LABEL
        ints[N_STORED] = 1  # row 0 of B (zero coordinates) and key 0: x₁ itself
        return 1.0, 1.0, y < 0.0, 0.0
    y1 = scal[Y1]
    z = np.empty(m)
    unit, fixed = _centered_in_units(x, vecs[ORIGIN], y, d, z, scal[UNIT])
    sigma = norm2(z, d)
    if not (sigma <= Z_LIMIT and sigma / unit <= DATA_LIMIT):
        return math.inf, y1, False, 0.0
    if fixed:
        scal[UNIT] = unit
    scal[PHASE] = PHASE_MARGIN
    if sigma == 0.0:
        # x₂ = x₁ with the other label: not separable (w = 0, b = 0, γ = 0, as e-OMM).
        scal[GAMMA] = 0.0
        scal[BIAS] = 0.0
        return y1, y1, True, 0.0
    _nomm_start(vecs, ints, scal, z, sigma)
    return y1, y1, True, 0.0


@jit()
def _nomm_store_and_solve(x, y, vecs, ints, scal, solve):
    """Line 20 (or the §3 text's "keeps all points"): V ← V ∪ {x}; then, on an update round
    (``solve``), lines 25–26: re-solve. Returns False (nothing changed) if x is too far
    from x₁ to be stored safely."""
    norm = _keep_point(x, y, vecs, ints, scal, scal[SIGMA], True)
    if norm == DECLINED:
        return False
    # A duplicate: V ∪ {x} = V (line 20 adds to a *set*), the max-margin problem is unchanged.
    # This happens when a stored support point comes again and a_t = γ_t up to rounding.
    if norm != DUPLICATE:
        scal[SCALE] = max(scal[SCALE], norm)
        if solve:
            _nomm_solve(vecs, ints, scal)
    return True


@jit(inline=INLINE)
def _ask_to_grow(scal, pred, gamma):
    """The buffer is full: ask the learner for a bigger one; nothing else changes."""
    scal[GROW] = 1.0
    return math.inf, pred, False, gamma


@jit(inline=INLINE)
def nomm_step(idx, val, y, vecs, ints, scal, hp, fast):
    """One round of Algorithm 1, naïve implementation, with aggressiveness ρ and ``store``.

    Initialization (lines 2–13) and the update test (a_t < ρ·γ_t, or a mistake) exactly as
    e-OMM (see rules/omm.py); an update stores x_t and re-solves Eq. (2) on all stored
    points; with STORE_ALL every other finite row is stored too (no solve: the current
    solution stays optimal, or — ρ < 1 — is kept by the rule). aux = γ_t, the predicted
    margin of the classifier used for this prediction.
    Only the prediction reads the row in its layout (O(nnz(x))); an update densifies it
    (O(d), dominated by the solve) and continues in layout-independent code.
    """
    phase = scal[PHASE]
    d = vecs.shape[1] - 2
    store_all = hp[NommHP.STORE] == STORE_ALL
    full = ints[N_STORED] >= _capacity(scal)
    if phase != PHASE_MARGIN:
        y1 = 1.0 if phase == PHASE_EMPTY else scal[Y1]
        if not is_finite_row(val):
            return math.nan, y1, False, 0.0
        if phase == PHASE_ONE_LABEL and y == y1:
            if not store_all:
                return y1, y1, False, 0.0
            if full:
                return _ask_to_grow(scal, y1, 0.0)
            x = np.empty(d)
            densify(idx, val, x)
            if not _nomm_keep_first(x, vecs, ints, scal):
                return math.inf, y1, False, 0.0
            return y1, y1, False, 0.0
        if phase == PHASE_ONE_LABEL and full:
            return _ask_to_grow(scal, y1, 0.0)  # the second label's point needs a slot
        x = np.empty(d)
        densify(idx, val, x)
        return _nomm_init(x, y, vecs, ints, scal)

    gamma = scal[GAMMA]
    # γ = 0: not separable, the classifier stays w = 0, b = 0 (no max-margin classifier
    # exists for any superset of the stored points).
    s, pred, update, final = explicit_round(idx, val, y, vecs[W], scal[BIAS], gamma,
                                            hp[NommHP.RHO], fast)
    if final or (not update and not store_all):
        return s, pred, update, gamma
    if full:
        return _ask_to_grow(scal, pred, gamma)
    x = np.empty(d)
    densify(idx, val, x)
    if not _nomm_store_and_solve(x, y, vecs, ints, scal, update):
        return math.inf, pred, False, gamma
    return s, pred, update, gamma
