"""PUMMA for p = 2 (Ishibashi, Hatano & Takeda 2008), rule 33 (layout: ``layouts/margin.py``,
``PUMMA_LAYOUT``).

The classifier (w, b), w = S·v, and the stored positive and negative points p, n: three
tracked vectors (``margin_common.py``) with ‖w‖, w·p, w·n, ‖p‖², ‖n‖², p·n cached, so that an update
costs O(nnz(x) + nnz(p) + nnz(n)). Reports aux = 0.
"""
import math

from ..caching import jit
from ..kernels.vector import COLD, INLINE, SHARED, dot, sign, sqnorm
from ..layouts.margin import N_PUMMA_INT_SLOTS, PHASE_EMPTY, PHASE_ONE_LABEL, PHASE_PAIR
from ..layouts.margin import PummaHP as HP
from ..layouts.margin import PummaIntBlock as Blk
from ..layouts.margin import PummaIntSlot as Slot
from ..layouts.margin import PummaScal as Sc
from ..layouts.margin import PummaVec as Vec
from ..kernels.scaled import support_clear, sv_dot, sv_in_range
from .margin_common import (
    COINCIDE_TOL,
    COLLINEAR_TOL,
    EPS,
    exact_err,
    is_stale,
    norm_of,
    tracked_add_tracked,
    tracked_dot,
    tracked_rescale,
    tracked_store,
)


@jit(inline=INLINE)
def _block(vecs, block):
    """Offset of an integer block (a member of PummaIntBlock) in ``ints``."""
    return N_PUMMA_INT_SLOTS + block * vecs.shape[1]


@jit(inline=INLINE)
def pumma_score(idx, val, vecs, ints, scal, hp, fast):
    return sv_dot(vecs[Vec.V], scal[Sc.SCALE], idx, val, fast) + scal[Sc.BIAS]


@jit(inline=SHARED)
def _store(idx, val, y, xx, xq, vecs, ints, scal):
    """Replace the stored point of label y by x and update the cached Gram entries."""
    if y > 0.0:
        tracked_store(idx, val, vecs[Vec.P], ints, Slot.P_COUNT, _block(vecs, Blk.P_LIST),
                      _block(vecs, Blk.P_POS))
        scal[Sc.PP] = xx
    else:
        tracked_store(idx, val, vecs[Vec.N], ints, Slot.N_COUNT, _block(vecs, Blk.N_LIST),
                      _block(vecs, Blk.N_POS))
        scal[Sc.NN] = xx
    scal[Sc.PN] = xq


@jit(inline=SHARED)
def _add_difference(a, b, vecs, ints):
    """v ← v + a·(b·(p − n)), O(nnz(p) + nnz(n))."""
    v = vecs[Vec.V]
    v_list, v_pos = _block(vecs, Blk.V_LIST), _block(vecs, Blk.V_POS)
    tracked_add_tracked(a, b, vecs[Vec.P], Slot.P_COUNT, _block(vecs, Blk.P_LIST), v, ints,
                        Slot.V_COUNT, v_list, v_pos)
    tracked_add_tracked(-a, b, vecs[Vec.N], Slot.N_COUNT, _block(vecs, Blk.N_LIST), v, ints,
                        Slot.V_COUNT, v_list, v_pos)


@jit(inline=COLD)
def _two_point(r, rel_err, vecs, ints, scal):
    """(w, b) ← the max-margin classifier of {p, n} alone: w = 2(p − n)/‖p − n‖²,
    b = −w·(p + n)/2; stored as S = 2/r, v = (p − n)/r."""
    inv_r = 1.0 / r
    support_clear(vecs[Vec.V], ints, Slot.V_COUNT, _block(vecs, Blk.V_LIST),
                  _block(vecs, Blk.V_POS))
    _add_difference(inv_r, 1.0, vecs, ints)
    sc = 2.0 * inv_r
    scal[Sc.SCALE] = sc  # ‖v‖ = 1
    scal[Sc.NORM] = sc
    up = scal[Sc.PP] - scal[Sc.PN]
    un = scal[Sc.PN] - scal[Sc.NN]
    wp = sc * (up * inv_r)
    wn = sc * (un * inv_r)
    scal[Sc.WP] = wp
    scal[Sc.WN] = wn
    scal[Sc.BIAS] = -0.5 * (wp + wn)
    scal[Sc.ERR] = rel_err


@jit(inline=COLD)
def _refresh(vecs, ints, scal):
    """Recompute ‖w‖, w·p and w·n exactly (O(d) + O(nnz(p) + nnz(n)))."""
    sc = scal[Sc.SCALE]
    v = vecs[Vec.V]
    scal[Sc.NORM] = sc * norm_of(v, 0.0)
    scal[Sc.WP] = sc * tracked_dot(v, vecs[Vec.P], ints, Slot.P_COUNT,
                                   _block(vecs, Blk.P_LIST))
    scal[Sc.WN] = sc * tracked_dot(v, vecs[Vec.N], ints, Slot.N_COUNT,
                                   _block(vecs, Blk.N_LIST))
    scal[Sc.ERR] = exact_err(vecs.shape[1])


@jit(inline=INLINE)
def pumma_step(idx, val, y, vecs, ints, scal, hp, fast):
    """One round of PUMMA, p = 2 (Ishibashi, Hatano & Takeda 2008; Ho-Nguyen et al. 2025,
    App. B.5).

    Initialization (as Algorithm 1 of Ho-Nguyen et al. 2025): predict +1 (w = 0, b = 1) until
    the first example, then its label y₁ (b = y₁) until the first example of the other label;
    the first point of each label is stored, and (w, b) becomes the max-margin classifier of
    the pair. Then on every round with y(w_t·x + b_t) ≤ 1 − δ, x replaces the stored point of
    its label and (w_{t+1}, b_{t+1}) = argmin ½‖w‖² s.t. w·p + b ≥ 1, w·n + b ≤ −1,
    w·w_t ≥ ‖w_t‖². Eliminating b (feasible iff w·u ≥ 2, u = p − n) leaves min ½‖w‖² s.t.
    w·u ≥ 2, w·w_t ≥ a² (a = ‖w_t‖), solved by its active set (m = w_t·u, r = ‖u‖):
      (ii)  m ≥ 2: w_t is feasible, w_{t+1} = w_t (b: midpoint of its interval);
      (i)   2m ≥ (ar)²: only w·u ≥ 2 is active, w_{t+1} = 2u/r²;
      (iii) both active: w_{t+1} = λw_t + μu, ρ = m/(ar), D = 1 − ρ², τ = 2/(ar),
            λ = (1 − ρτ)/D, μ·r = (2 − m)/(rD), ‖w_{t+1}‖ = a·√((1 − ρτ)²/D + τ²);
    and b_{t+1} = −w_{t+1}·(p + n)/2 (both stored points at functional margin exactly 1).
    Infeasible (no update, nothing stored): u = 0 (x coincides with the stored point of the
    other label), or u anti-parallel to w_t (D ≤ COLLINEAR_TOL, ρ < 0).
    """
    wx = sv_dot(vecs[Vec.V], scal[Sc.SCALE], idx, val, fast)
    s = wx + scal[Sc.BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    phase = scal[Sc.PHASE]
    if phase == PHASE_EMPTY:
        xx = sqnorm(idx, val)
        if not math.isfinite(xx):
            return math.inf, pred, False, 0.0
        _store(idx, val, y, xx, 0.0, vecs, ints, scal)
        scal[Sc.Y1] = y
        scal[Sc.BIAS] = y
        scal[Sc.PHASE] = PHASE_ONE_LABEL
        return s, pred, y < 0.0, 0.0  # the constant classifier changes iff y₁ = −1

    other = vecs[Vec.N] if y > 0.0 else vecs[Vec.P]  # the other label's stored point
    qq = scal[Sc.NN] if y > 0.0 else scal[Sc.PP]
    if phase == PHASE_ONE_LABEL and y == scal[Sc.Y1]:
        return s, pred, False, 0.0
    if phase == PHASE_PAIR and y * s > 1.0 - hp[HP.DELTA]:
        return s, pred, False, 0.0
    xx = sqnorm(idx, val)
    xq = dot(other, idx, val, fast)
    uu = xx - 2.0 * xq + qq
    if not (math.isfinite(xx) and math.isfinite(uu)):
        return math.inf, pred, False, 0.0
    if uu <= COINCIDE_TOL * (xx + qq):
        # x coincides with the other label's stored point: infeasible. During the
        # initialization: no classifier yet, keep waiting for another point.
        return s, pred, False, 0.0
    r = math.sqrt(uu)
    gram_err = EPS * (6.0 + 2.0 * (xx + qq) / uu)  # u's norm comes from a Gram difference
    two_point = phase == PHASE_ONE_LABEL
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
            m = wx - scal[Sc.WN]
            wp_t, wn_t = wx, scal[Sc.WN]
        else:
            m = scal[Sc.WP] - wx
            wp_t, wn_t = scal[Sc.WP], wx
        if not math.isfinite(m):
            return math.inf, pred, False, 0.0
        if m >= 2.0:
            # (ii) w_t already satisfies w·u ≥ 2: w unchanged, only the point and b move.
            _store(idx, val, y, xx, xq, vecs, ints, scal)
            scal[Sc.WP] = wp_t
            scal[Sc.WN] = wn_t
            scal[Sc.BIAS] = -0.5 * (wp_t + wn_t)
            scal[Sc.ERR] += gram_err
            return s, pred, True, 0.0
        a = scal[Sc.NORM]
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
        if attempt == 0 and is_stale(scal[Sc.ERR], den):
            _refresh(vecs, ints, scal)  # nearly parallel constraints: need exact values
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
        _store(idx, val, y, xx, xq, vecs, ints, scal)
        _two_point(r, gram_err, vecs, ints, scal)
        scal[Sc.PHASE] = PHASE_PAIR
        return s, pred, True, 0.0
    # (iii) both constraints active: w_{t+1} = λ·w_t + μ·(p − n).
    inv_r = 1.0 / r
    lam = q / den
    mur = (2.0 - m) * inv_r / den  # μ·r: the coefficient of u/r
    a_new = a * math.hypot(q / math.sqrt(den), tau)
    bound = lam * a + abs(mur)
    if not (math.isfinite(a_new) and math.isfinite(bound) and math.isfinite(inv_r)):
        return math.inf, pred, False, 0.0
    _store(idx, val, y, xx, xq, vecs, ints, scal)
    up = scal[Sc.PP] - scal[Sc.PN]
    un = scal[Sc.PN] - scal[Sc.NN]
    wp = lam * wp_t + mur * (up * inv_r)
    wn = lam * wn_t + mur * (un * inv_r)
    s_old = scal[Sc.SCALE]
    new_scale = lam * s_old
    step = mur / new_scale
    if not (new_scale > 0.0 and sv_in_range(a_new / new_scale) and math.isfinite(step)
            and math.isfinite(bound / new_scale)):
        # rare: ‖v‖ = ‖w‖/S would leave its range; rescale v so that ‖v'‖ = 1 (O(support))
        tracked_rescale(s_old / a_new, lam, vecs[Vec.V], ints, Slot.V_COUNT,
                        _block(vecs, Blk.V_LIST))
        new_scale = a_new
        step = mur / a_new
    scal[Sc.SCALE] = new_scale  # O(1) for λ·w
    _add_difference(step, inv_r, vecs, ints)
    ratio = lam * a / a_new
    res = bound / a_new
    scal[Sc.ERR] = scal[Sc.ERR] * ratio * ratio + EPS * (6.0 + res * res) + gram_err
    scal[Sc.NORM] = a_new
    scal[Sc.WP] = wp
    scal[Sc.WN] = wn
    scal[Sc.BIAS] = -0.5 * (wp + wn)
    return s, pred, True, 0.0
