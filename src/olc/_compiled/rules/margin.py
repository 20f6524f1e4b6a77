"""Seed 002's large-margin baselines, ℓ2 norm: ROMMA and aggressive ROMMA (Li & Long 2002),
ALMA₂ (Gentile 2001) and PUMMA for p = 2 (Ishibashi, Hatano & Takeda 2008).

Rule ids (dispatch.py's table, family 30–39):
  30  ROMMA             update when y·w·x̃ ≤ 0
  31  aggressive ROMMA  update when y·w·x̃ < 1
  32  ALMA₂(α; B, C)
  33  PUMMA (p = 2), update when y(w·x + b) ≤ 1 − δ

Common representation: the weight vector is w = S·v with a scale S > 0 (scal[S]) and
v = vecs[0], so that w ← c·w costs O(1). v is rescaled (O(d), rare) only when it would
leave a safe range: ROMMA and PUMMA keep ‖v‖ = ‖w‖/S in [RENORM_LOW, RENORM_HIGH] (their ‖w‖
is ~1/margin and can be huge, so S itself is free; v·x then cannot overflow while the true
score is finite), ALMA (‖w‖ ≤ 1) keeps S ≥ RENORM_LOW. S stays positive, so v never holds
−0.0 (dense and CSR runs stay bit-identical). A *tracked* vector (v, and PUMMA's stored
points) also keeps a list of the coordinates it may be nonzero on (indices as float64 in
another row of vecs; duplicates allowed; count −1 = "possibly all of them", set on a dense
row or when the list is full). Only that list is cleared when the vector is reset, so a reset
costs O(what was written since the last reset) — amortized O(nnz(x)) per update — not O(d).

ROMMA / aggressive ROMMA (rules 30, 31). x̃ = (x, κ) with κ = hp[0] the appended constant
coordinate (κ = −D̄ for the bias of seed 002 App. B.3; κ = 0 is no bias coordinate).
  vecs[0] = v (the first d coordinates of w̃ = S·(v, VB)), vecs[1] = v's coordinate list
  scal: S, VB (raw weight of the appended coordinate), NORM = ‖w̃‖ (the norm, not its square:
        ROMMA's ‖w‖ ~ 1/margin and its square would overflow first), VCNT (list count),
        ERR (a bound on the relative rounding error of NORM, see below)
ALMA₂ (rule 32). x̃ = (x, 1) with the bias (hp[3] = 1), else x̃ = x; x̂ = x̃/‖x̃‖.
  vecs[0] = v; scal: S, VB, NN = ‖w̃‖² (≤ 1), K = k (1 + the number of corrections)
  hp: [α, B, C, fit_intercept]
PUMMA (rule 33). Classifier (w, b), w = S·v; the stored positive and negative points p, n.
  vecs: 0 v, 1 v's list, 2 p, 3 p's list, 4 n, 5 n's list
  scal: S, B (the bias b), NORM = ‖w‖, WP = w·p, WN = w·n, PP = ‖p‖², NN = ‖n‖², PN = p·n,
        VCNT, PCNT, NCNT (list counts), PHASE, Y1, ERR (error bound of NORM, WP, WN)
  hp: [δ]

Cached norms (ROMMA, PUMMA). ‖w‖ (and PUMMA's w·p, w·n) are updated by formulas, not
recomputed; an update w' = c·w + d·x built with a cached ‖w‖ of relative error e has a true
norm that differs from the cached new one by a relative e·(c‖w‖/‖w'‖)² (plus rounding of the
2×2 solve, ~eps·((c‖w‖ + |d|‖x‖)/‖w'‖)²); ERR accumulates that bound. The update needs ‖w‖
accurately only when the two constraints are nearly parallel (the 1 − ρ² below is a difference
of nearly equal numbers): when ERR > 1e-4·(1 − ρ²), or ERR > ERR_MAX, the cached values are
recomputed exactly (O(d), rare: on ordinary streams ERR grows by a few ulps per update).
Every rule reports aux = 0 (none of them has OMM's normalized predicted margin).
"""
import math

import numba as nb

from ..caching import jit
from ..rule_ids import ROMMA, AGGRESSIVE_ROMMA, ALMA2, PUMMA

from ..kernels import INLINE, RENORM_HIGH, RENORM_LOW, axpy, dot, scale, sign, sqnorm


# scal slots ---------------------------------------------------------------------------------
S = 0
# ROMMA
R_VB, R_NORM, R_VCNT, R_ERR = 1, 2, 3, 4
# ALMA
A_VB, A_NN, A_K = 1, 2, 3
# PUMMA
P_B, P_NORM, P_WP, P_WN, P_PP, P_NN, P_PN = 1, 2, 3, 4, 5, 6, 7
P_VCNT, P_PCNT, P_NCNT, P_PHASE, P_Y1, P_ERR = 8, 9, 10, 11, 12, 13
# PUMMA vecs rows
ROW_V, ROW_VL, ROW_P, ROW_PL, ROW_N, ROW_NL = 0, 1, 2, 3, 4, 5

# Degenerate geometry (documented in the learners): two directions whose squared sine is at
# most COLLINEAR_TOL (angle ≲ 1e-6 rad) are collinear; two points whose squared distance is at
# most COINCIDE_TOL·(‖x‖² + ‖q‖²) coincide. Both are far above the rounding error of the
# quantities they are computed from (a few ulps of the larger term; the cached ‖w‖ is
# refreshed when its error bound is not far below 1 − ρ², see "Cached norms" above).
COLLINEAR_TOL = 1e-12
COINCIDE_TOL = 1e-12
EPS = 2.220446049250313e-16
ERR_MAX = 1e-10  # refresh the cached norm when its error bound exceeds this
ERR_DEN = 1e-4  # ... or exceeds this fraction of 1 − ρ²


# -- tracked vectors ---------------------------------------------------------------------------

@jit(inline=INLINE)
def _track_row(idx, vecs, row_list, scal, slot):
    """Record that the coordinates of the row (idx, ·) may now be nonzero."""
    cnt = scal[slot]
    if cnt < 0.0:
        return
    if idx is None:
        scal[slot] = -1.0
        return
    c = int(cnt)
    n = idx.shape[0]
    if c + n > vecs.shape[1]:
        scal[slot] = -1.0  # more entries than coordinates: clear everything next time
        return
    lst = vecs[row_list]
    for k in range(n):
        lst[c + k] = float(idx[k])
    scal[slot] = float(c + n)


@jit(inline=INLINE)
def _clear(vecs, row, row_list, scal, slot):
    """Zero a tracked vector: O(its list), or O(d) when the list says "everything"."""
    cnt = scal[slot]
    v = vecs[row]
    if cnt < 0.0:
        for j in range(v.shape[0]):
            v[j] = 0.0
    else:
        lst = vecs[row_list]
        for k in range(int(cnt)):
            v[int(lst[k])] = 0.0
    scal[slot] = 0.0


@jit(inline=INLINE)
def _add_row(a, idx, val, vecs, row, row_list, scal, slot):
    """Tracked vector += a·x (O(nnz(x)))."""
    axpy(a, idx, val, vecs[row])
    _track_row(idx, vecs, row_list, scal, slot)


@jit(inline=INLINE)
def _add_tracked(a, b, vecs, src, src_list, src_cnt, dst, dst_list, scal, dst_slot):
    """Tracked vector dst += a·(b·src) for a tracked vector src, O(src's list). (Two factors,
    so that a huge a and a tiny b need not be multiplied first.)"""
    s = vecs[src]
    t = vecs[dst]
    if src_cnt < 0.0:
        for j in range(s.shape[0]):
            t[j] += a * (b * s[j])
        scal[dst_slot] = -1.0
        return
    lst = vecs[src_list]
    n = int(src_cnt)
    for k in range(n):
        j = int(lst[k])
        t[j] += a * (b * s[j])
    cnt = scal[dst_slot]
    if cnt < 0.0:
        return
    c = int(cnt)
    if c + n > t.shape[0]:
        scal[dst_slot] = -1.0
        return
    dl = vecs[dst_list]
    for k in range(n):
        dl[c + k] = lst[k]
    scal[dst_slot] = float(c + n)


@jit(inline=INLINE)
def _axpy2(a, b, idx, val, v):
    """v ← v + a·(b·x), touching only the nonzeros of x."""
    if idx is None:
        for j in range(val.shape[0]):
            v[j] += a * (b * val[j])
    else:
        for k in range(idx.shape[0]):
            v[idx[k]] += a * (b * val[k])


@jit(inline=INLINE)
def _norm_of(v, extra):
    """‖(v, extra)‖ without overflow or underflow of the squares (O(d))."""
    mx = abs(extra)
    for j in range(v.shape[0]):
        if abs(v[j]) > mx:
            mx = abs(v[j])
    if mx == 0.0:
        return 0.0
    acc = (extra / mx) * (extra / mx)
    for j in range(v.shape[0]):
        z = v[j] / mx
        acc += z * z
    return mx * math.sqrt(acc)


@jit(inline=INLINE)
def _dot_tracked(v, vecs, src, src_list, src_cnt):
    """v · (tracked vector src), O(src's list)."""
    s = vecs[src]
    acc = 0.0
    if src_cnt < 0.0:
        for j in range(s.shape[0]):
            acc += v[j] * s[j]
    else:
        lst = vecs[src_list]
        for k in range(int(src_cnt)):
            j = int(lst[k])
            acc += v[j] * s[j]
    return acc


@jit(inline=INLINE)
def _store(idx, val, vecs, row, row_list, scal, slot):
    """Make a tracked vector equal to x (clears the old point first: O(nnz(old) + nnz(x)))."""
    _clear(vecs, row, row_list, scal, slot)
    _add_row(1.0, idx, val, vecs, row, row_list, scal, slot)  # 0 + x: never stores −0.0


@jit(inline=INLINE)
def _fold_scale(vecs, scal, slot_raw_bias):
    """v ← S·v (and the raw bias weight), S ← 1: O(d), only when S leaves its range."""
    sc = scal[S]
    scale(vecs[0], sc)
    if slot_raw_bias >= 0:
        scal[slot_raw_bias] *= sc
    scal[S] = 1.0


@jit(inline=INLINE)
def _in_range(sc):
    return RENORM_LOW <= sc <= RENORM_HIGH


@jit(inline=INLINE)
def _renormalize(vecs, scal, slot_raw_bias, f1, f2, new_scale):
    """v ← f2·(f1·v) (and the raw bias weight), S ← new_scale: O(d), rare."""
    v = vecs[0]
    for j in range(v.shape[0]):
        v[j] = (v[j] * f1) * f2
    if slot_raw_bias >= 0:
        scal[slot_raw_bias] = (scal[slot_raw_bias] * f1) * f2
    scal[S] = new_scale


# -- ROMMA and aggressive ROMMA ----------------------------------------------------------------

@jit(inline=INLINE)
def romma_score(idx, val, vecs, ints, scal, hp, fast):
    return scal[S] * (dot(vecs[0], idx, val, fast) + scal[R_VB] * hp[0])


@jit(inline=INLINE)
def _romma_single(idx, val, y, r, vecs, scal, hp):
    """w ← y·x̃/‖x̃‖², stored as S = 1/r, v = y·x/r (the single-constraint solution)."""
    inv_r = 1.0 / r
    if not math.isfinite(inv_r):
        return False
    _clear(vecs, 0, 1, scal, R_VCNT)
    _add_row(y * inv_r, idx, val, vecs, 0, 1, scal, R_VCNT)
    scal[R_VB] = y * inv_r * hp[0]
    scal[S] = inv_r  # ‖v‖ = 1
    scal[R_NORM] = inv_r
    scal[R_ERR] = EPS * (2.0 + math.sqrt(val.shape[0]))
    return True


@jit(inline=INLINE)
def _romma_refresh(vecs, scal):
    """Recompute the cached ‖w̃‖ exactly (O(d))."""
    scal[R_NORM] = scal[S] * _norm_of(vecs[0], scal[R_VB])
    scal[R_ERR] = EPS * (2.0 + math.sqrt(vecs.shape[1]))


@jit(inline=INLINE)
def romma_step(aggressive, idx, val, y, vecs, ints, scal, hp, fast):
    """One round of ROMMA (aggressive=False) or aggressive ROMMA (Li & Long 2002).

    w_{t+1} = argmin ‖w‖² s.t. w·w_t ≥ ‖w_t‖², y·w·x̃ ≥ 1, on rounds with y·w_t·x̃ ≤ 0
    (ROMMA) or < 1 (aggressive ROMMA). With m = y·w_t·x̃, a = ‖w_t‖, r = ‖x̃‖:
      m ≥ a²r²: the constraint w·w_t ≥ ‖w_t‖² is inactive, w_{t+1} = y·x̃/r² (this is also
        the first update, from w_1 = 0);
      else both are active: w_{t+1} = c·w_t + d·x̃ with Li & Long's
        c = (r²a² − m)/(r²a² − (w·x̃)²), d = a²(y − w·x̃)/(r²a² − (w·x̃)²),
        evaluated in the scale-free form ρ = w·x̃/(ar), D = 1 − ρ², q = 1 − m/(ar)²,
        c = q/D, d·r = (y − w·x̃)/(rD), ‖w_{t+1}‖ = a·√(q²/D + 1/(ar)²), and added as
        (d·r)·(x̃/r), so that no intermediate overflows when norms are huge or tiny.
    Infeasible rounds are skipped (no update): x̃ = 0, and y·x̃ anti-parallel to w_t
    (D ≤ COLLINEAR_TOL with y·ρ < 0). When D ≤ COLLINEAR_TOL with y·ρ > 0 (x̃ parallel to
    w_t, only possible for aggressive ROMMA at a·r ≈ 1) both constraints nearly coincide and
    the single-constraint solution is used.
    """
    kappa = hp[0]
    s = scal[S] * (dot(vecs[0], idx, val, fast) + scal[R_VB] * kappa)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    m = y * s
    if aggressive:
        if not m < 1.0:
            return s, pred, False, 0.0
    elif m > 0.0:
        return s, pred, False, 0.0
    xx = sqnorm(idx, val) + kappa * kappa
    if not math.isfinite(xx):
        return math.inf, pred, False, 0.0
    if xx == 0.0:
        return s, pred, False, 0.0  # x̃ = 0: y·w·x̃ ≥ 1 is infeasible
    r = math.sqrt(xx)
    single = False
    rho = 0.0
    q = 1.0
    den = 1.0
    for attempt in range(2):
        ar = scal[R_NORM] * r
        if ar == 0.0:  # w_t = 0 (the first update): only y·w·x̃ ≥ 1
            single = True
            break
        rho = s / ar
        q = 1.0 - y * rho / ar  # 1 − m/(ar)²: ≤ 0 iff w·w_t ≥ ‖w_t‖² is inactive
        if q <= 0.0:
            single = True
            break
        den = (1.0 - rho) * (1.0 + rho)
        err = scal[R_ERR]
        if attempt == 0 and (err > ERR_MAX or err > ERR_DEN * den):
            _romma_refresh(vecs, scal)  # nearly parallel constraints: need the exact ‖w‖
            continue
        break
    if not single and den <= COLLINEAR_TOL:
        if y * rho <= 0.0:
            return s, pred, False, 0.0  # y·x̃ anti-parallel to w_t: infeasible
        single = True  # parallel: the two constraints (nearly) coincide
    if single:
        if not _romma_single(idx, val, y, r, vecs, scal, hp):
            return math.inf, pred, False, 0.0
        return s, pred, True, 0.0
    a = scal[R_NORM]
    inv_r = 1.0 / r
    c = q / den
    dr = (y - s) * inv_r / den  # d·r: the coefficient of x̃/r
    a_new = a * math.hypot(q / math.sqrt(den), 1.0 / (a * r))
    bound = c * a + abs(dr)  # bounds every |w_j| after the step
    if not (math.isfinite(a_new) and math.isfinite(bound) and math.isfinite(inv_r)):
        return math.inf, pred, False, 0.0
    s_old = scal[S]
    new_scale = c * s_old
    step = dr / new_scale
    if not (new_scale > 0.0 and _in_range(a_new / new_scale) and math.isfinite(step)
            and math.isfinite(bound / new_scale)):
        # rare: ‖v‖ = ‖w‖/S would leave its range; rescale v so that ‖v'‖ = 1 (O(d))
        _renormalize(vecs, scal, R_VB, s_old / a_new, c, a_new)
        new_scale = a_new
        step = dr / a_new
    scal[S] = new_scale  # O(1) for c·w
    _axpy2(step, inv_r, idx, val, vecs[0])
    _track_row(idx, vecs, 1, scal, R_VCNT)
    scal[R_VB] += step * (inv_r * kappa)
    ratio = c * a / a_new
    res = bound / a_new
    scal[R_ERR] = scal[R_ERR] * ratio * ratio + EPS * (6.0 + res * res)
    scal[R_NORM] = a_new
    return s, pred, True, 0.0


# -- ALMA₂ ---------------------------------------------------------------------------------------

@jit(inline=INLINE)
def alma_score(idx, val, vecs, ints, scal, hp, fast):
    return scal[S] * (dot(vecs[0], idx, val, fast) + scal[A_VB] * hp[3])


@jit(inline=INLINE)
def alma_step(idx, val, y, vecs, ints, scal, hp, fast):
    """One round of ALMA₂(α; B, C) (Gentile 2001, Fig. 1 with p = 2).

    x̂ = x̃/‖x̃‖; γ_k = B/√k, η_k = C/√k; if y·w_k·x̂ ≤ (1 − α)·γ_k:
    w' = w_k + η_k·y·x̂, w_{k+1} = w'/max(1, ‖w'‖), k ← k + 1 (k counts corrections + 1).
    ‖w'‖² = ‖w_k‖² + 2η_k·y·w_k·x̂ + η_k² is maintained incrementally, so the projection of
    the whole vector is the O(1) scale change S ← S/max(1, ‖w'‖). x̃ = 0 (x = 0 without a bias)
    has no normalization: the round is skipped. The recorded score is w·x̃ = w·x + b (the
    model's decision value), whose sign is that of w·x̂.
    """
    alpha = hp[0]
    fit = hp[3]
    s = scal[S] * (dot(vecs[0], idx, val, fast) + scal[A_VB] * fit)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    xx = sqnorm(idx, val) + fit
    if not math.isfinite(xx):
        return math.inf, pred, False, 0.0
    if xx == 0.0:
        return s, pred, False, 0.0
    r = math.sqrt(xx)
    sqrt_k = math.sqrt(scal[A_K])
    margin = y * s / r
    if margin > (1.0 - alpha) * (hp[1] / sqrt_k):
        return s, pred, False, 0.0
    eta = hp[2] / sqrt_k
    nn = scal[A_NN] + 2.0 * eta * margin + eta * eta
    step = eta * y / (scal[S] * r)
    if not (math.isfinite(step) and math.isfinite(nn)):
        return math.inf, pred, False, 0.0
    axpy(step, idx, val, vecs[0])
    scal[A_VB] += step * fit
    if nn > 1.0:
        scal[S] /= math.sqrt(nn)
        scal[A_NN] = 1.0
    else:
        scal[A_NN] = nn
    scal[A_K] += 1.0
    if not _in_range(scal[S]):
        _fold_scale(vecs, scal, A_VB)
    return s, pred, True, 0.0


# -- PUMMA (p = 2) -----------------------------------------------------------------------------

@jit(inline=INLINE)
def pumma_score(idx, val, vecs, ints, scal, hp, fast):
    return scal[S] * dot(vecs[0], idx, val, fast) + scal[P_B]


@jit(inline=INLINE)
def _pumma_store(idx, val, y, xx, xq, vecs, scal):
    """Replace the stored point of label y by x and update the cached Gram entries."""
    if y > 0.0:
        _store(idx, val, vecs, ROW_P, ROW_PL, scal, P_PCNT)
        scal[P_PP] = xx
    else:
        _store(idx, val, vecs, ROW_N, ROW_NL, scal, P_NCNT)
        scal[P_NN] = xx
    scal[P_PN] = xq


@jit(inline=INLINE)
def _pumma_add_difference(a, b, vecs, scal):
    """v ← v + a·(b·(p − n)), O(nnz(p) + nnz(n))."""
    _add_tracked(a, b, vecs, ROW_P, ROW_PL, scal[P_PCNT], ROW_V, ROW_VL, scal, P_VCNT)
    _add_tracked(-a, b, vecs, ROW_N, ROW_NL, scal[P_NCNT], ROW_V, ROW_VL, scal, P_VCNT)


@jit(inline=INLINE)
def _pumma_two_point(r, rel_err, vecs, scal):
    """(w, b) ← the max-margin classifier of {p, n} alone: w = 2(p − n)/‖p − n‖²,
    b = −w·(p + n)/2; stored as S = 2/r, v = (p − n)/r."""
    inv_r = 1.0 / r
    _clear(vecs, ROW_V, ROW_VL, scal, P_VCNT)
    _pumma_add_difference(inv_r, 1.0, vecs, scal)
    sc = 2.0 * inv_r
    scal[S] = sc  # ‖v‖ = 1
    scal[P_NORM] = sc
    up = scal[P_PP] - scal[P_PN]
    un = scal[P_PN] - scal[P_NN]
    wp = sc * (up * inv_r)
    wn = sc * (un * inv_r)
    scal[P_WP] = wp
    scal[P_WN] = wn
    scal[P_B] = -0.5 * (wp + wn)
    scal[P_ERR] = rel_err


@jit(inline=INLINE)
def _pumma_refresh(vecs, scal):
    """Recompute ‖w‖, w·p and w·n exactly (O(d) + O(nnz(p) + nnz(n)))."""
    sc = scal[S]
    v = vecs[ROW_V]
    scal[P_NORM] = sc * _norm_of(v, 0.0)
    scal[P_WP] = sc * _dot_tracked(v, vecs, ROW_P, ROW_PL, scal[P_PCNT])
    scal[P_WN] = sc * _dot_tracked(v, vecs, ROW_N, ROW_NL, scal[P_NCNT])
    scal[P_ERR] = EPS * (2.0 + math.sqrt(vecs.shape[1]))


@jit(inline=INLINE)
def pumma_step(idx, val, y, vecs, ints, scal, hp, fast):
    """One round of PUMMA, p = 2 (Ishibashi, Hatano & Takeda 2008; seed 002 App. B.5).

    Initialization (as Algorithm 1 of seed 002): predict +1 (w = 0, b = 1) until the first
    example, then its label y₁ (b = y₁) until the first example of the other label; the first
    point of each label is stored, and (w, b) becomes the max-margin classifier of the pair.
    Then on every round with y(w_t·x + b_t) ≤ 1 − δ, x replaces the stored point of its label
    and (w_{t+1}, b_{t+1}) = argmin ½‖w‖² s.t. w·p + b ≥ 1, w·n + b ≤ −1, w·w_t ≥ ‖w_t‖².
    Eliminating b (feasible iff w·u ≥ 2, u = p − n) leaves min ½‖w‖² s.t. w·u ≥ 2,
    w·w_t ≥ a² (a = ‖w_t‖), solved by its active set (m = w_t·u, r = ‖u‖):
      (ii)  m ≥ 2: w_t is feasible, w_{t+1} = w_t (b: midpoint of its interval);
      (i)   2m ≥ (ar)²: only w·u ≥ 2 is active, w_{t+1} = 2u/r²;
      (iii) both active: w_{t+1} = λw_t + μu, ρ = m/(ar), D = 1 − ρ², τ = 2/(ar),
            λ = (1 − ρτ)/D, μ·r = (2 − m)/(rD), ‖w_{t+1}‖ = a·√((1 − ρτ)²/D + τ²);
    and b_{t+1} = −w_{t+1}·(p + n)/2 (both stored points at functional margin exactly 1).
    Infeasible (no update, nothing stored): u = 0 (x coincides with the stored point of the
    other label), or u anti-parallel to w_t (D ≤ COLLINEAR_TOL, ρ < 0).
    """
    wx = scal[S] * dot(vecs[0], idx, val, fast)
    s = wx + scal[P_B]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    phase = scal[P_PHASE]
    if phase == 0.0:
        xx = sqnorm(idx, val)
        if not math.isfinite(xx):
            return math.inf, pred, False, 0.0
        _pumma_store(idx, val, y, xx, 0.0, vecs, scal)
        scal[P_Y1] = y
        scal[P_B] = y
        scal[P_PHASE] = 1.0
        return s, pred, y < 0.0, 0.0  # the constant classifier changes iff y₁ = −1

    q_row = ROW_N if y > 0.0 else ROW_P
    qq = scal[P_NN] if y > 0.0 else scal[P_PP]
    if phase == 1.0 and y == scal[P_Y1]:
        return s, pred, False, 0.0
    if phase == 2.0 and y * s > 1.0 - hp[0]:
        return s, pred, False, 0.0
    xx = sqnorm(idx, val)
    xq = dot(vecs[q_row], idx, val, fast)
    uu = xx - 2.0 * xq + qq
    if not (math.isfinite(xx) and math.isfinite(uu)):
        return math.inf, pred, False, 0.0
    if uu <= COINCIDE_TOL * (xx + qq):
        # x coincides with the other label's stored point: infeasible. During the
        # initialization: no classifier yet, keep waiting for another point.
        return s, pred, False, 0.0
    r = math.sqrt(uu)
    gram_err = EPS * (6.0 + 2.0 * (xx + qq) / uu)  # u's norm comes from a Gram difference
    two_point = phase == 1.0
    rho = 0.0
    den = 1.0
    q = 1.0
    tau = 0.0
    m = 0.0
    wp_t = 0.0
    wn_t = 0.0
    a = 0.0
    for attempt in range(2):
        if two_point:
            break
        if y > 0.0:
            m = wx - scal[P_WN]
            wp_t, wn_t = wx, scal[P_WN]
        else:
            m = scal[P_WP] - wx
            wp_t, wn_t = scal[P_WP], wx
        if not math.isfinite(m):
            return math.inf, pred, False, 0.0
        if m >= 2.0:
            # (ii) w_t already satisfies w·u ≥ 2: w unchanged, only the point and b move.
            _pumma_store(idx, val, y, xx, xq, vecs, scal)
            scal[P_WP] = wp_t
            scal[P_WN] = wn_t
            scal[P_B] = -0.5 * (wp_t + wn_t)
            scal[P_ERR] += gram_err
            return s, pred, True, 0.0
        a = scal[P_NORM]
        ar = a * r
        if ar == 0.0:
            two_point = True
            break
        rho = m / ar
        tau = 2.0 / ar
        q = 1.0 - rho * tau  # 1 − 2m/(ar)²: ≤ 0 iff w·w_t ≥ ‖w_t‖² is inactive
        if q <= 0.0:
            two_point = True
            break
        den = (1.0 - rho) * (1.0 + rho)
        err = scal[P_ERR]
        if attempt == 0 and (err > ERR_MAX or err > ERR_DEN * den):
            _pumma_refresh(vecs, scal)  # nearly parallel constraints: need exact values
            continue
        break
    if not two_point and den <= COLLINEAR_TOL:
        if rho < 0.0:
            return s, pred, False, 0.0  # u anti-parallel to w_t: infeasible
        two_point = True  # u ∥ w_t: the constraints (nearly) coincide
    if two_point:
        # (i) only w·u ≥ 2 is active (and the initialization).
        if not (math.isfinite(2.0 / r) and math.isfinite((abs(xq) + xx + qq) / uu)):
            return math.inf, pred, False, 0.0
        _pumma_store(idx, val, y, xx, xq, vecs, scal)
        _pumma_two_point(r, gram_err, vecs, scal)
        scal[P_PHASE] = 2.0
        return s, pred, True, 0.0
    # (iii) both constraints active: w_{t+1} = λ·w_t + μ·(p − n).
    inv_r = 1.0 / r
    lam = q / den
    mur = (2.0 - m) * inv_r / den  # μ·r: the coefficient of u/r
    a_new = a * math.hypot(q / math.sqrt(den), tau)
    bound = lam * a + abs(mur)
    if not (math.isfinite(a_new) and math.isfinite(bound) and math.isfinite(inv_r)):
        return math.inf, pred, False, 0.0
    _pumma_store(idx, val, y, xx, xq, vecs, scal)
    up = scal[P_PP] - scal[P_PN]
    un = scal[P_PN] - scal[P_NN]
    wp = lam * wp_t + mur * (up * inv_r)
    wn = lam * wn_t + mur * (un * inv_r)
    s_old = scal[S]
    new_scale = lam * s_old
    step = mur / new_scale
    if not (new_scale > 0.0 and _in_range(a_new / new_scale) and math.isfinite(step)
            and math.isfinite(bound / new_scale)):
        # rare: ‖v‖ = ‖w‖/S would leave its range; rescale v so that ‖v'‖ = 1 (O(d))
        _renormalize(vecs, scal, -1, s_old / a_new, lam, a_new)
        new_scale = a_new
        step = mur / a_new
    scal[S] = new_scale  # O(1) for λ·w
    _pumma_add_difference(step, inv_r, vecs, scal)
    ratio = lam * a / a_new
    res = bound / a_new
    scal[P_ERR] = scal[P_ERR] * ratio * ratio + EPS * (6.0 + res * res) + gram_err
    scal[P_NORM] = a_new
    scal[P_WP] = wp
    scal[P_WN] = wn
    scal[P_B] = -0.5 * (wp + wn)
    return s, pred, True, 0.0


# -- family dispatch ---------------------------------------------------------------------------

@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == ROMMA:
        return romma_step(False, idx, val, y, vecs, ints, scal, hp, fast)
    if rule == AGGRESSIVE_ROMMA:
        return romma_step(True, idx, val, y, vecs, ints, scal, hp, fast)
    if rule == ALMA2:
        return alma_step(idx, val, y, vecs, ints, scal, hp, fast)
    if rule == PUMMA:
        return pumma_step(idx, val, y, vecs, ints, scal, hp, fast)
    raise ValueError("unknown rule id in the margin family")


@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == ROMMA or rule == AGGRESSIVE_ROMMA:
        return romma_score(idx, val, vecs, ints, scal, hp, fast)
    if rule == ALMA2:
        return alma_score(idx, val, vecs, ints, scal, hp, fast)
    if rule == PUMMA:
        return pumma_score(idx, val, vecs, ints, scal, hp, fast)
    raise ValueError("unknown rule id in the margin family")
