"""ROMMA and aggressive ROMMA (Li & Long 2002), rules 30 and 31 (layout:
``layouts/margin.py``, ``ROMMA_LAYOUT``).

x̃ = (x, κ) with κ = ``hp[KAPPA]`` the appended constant coordinate (κ = −D̄ for the bias of
Ho-Nguyen et al. 2025, App. B.3; κ = 0: no bias coordinate). w̃ = S·(v, raw_bias), v tracked,
‖w̃‖ cached with an error bound (``margin_common.py``). Reports aux = 0.
"""
import math

from ..caching import jit
from ..kernels.vector import COLD, INLINE, sign
from ..layouts.margin import N_ROMMA_INT_SLOTS, RommaHP
from ..layouts.margin import RommaIntBlock as Blk
from ..layouts.margin import RommaIntSlot as Slot
from ..layouts.margin import RommaScal as Sc
from ..layouts.margin import RommaVec as Vec
from ..kernels.scaled import support_clear, sv_in_range
from .margin_common import (
    COLLINEAR_TOL,
    EPS,
    augmented_score,
    augmented_sqnorm,
    exact_err,
    is_stale,
    norm_of,
    tracked_axpy,
    tracked_rescale,
)


@jit(inline=INLINE)
def _v_blocks(vecs):
    """Offsets of v's support list and position blocks in ``ints``."""
    d = vecs.shape[1]
    return N_ROMMA_INT_SLOTS + Blk.V_LIST * d, N_ROMMA_INT_SLOTS + Blk.V_POS * d


@jit(inline=INLINE)
def romma_score(idx, val, vecs, ints, scal, hp, fast):
    return augmented_score(vecs[Vec.V], scal[Sc.SCALE], scal[Sc.RAW_BIAS], hp[RommaHP.KAPPA],
                           idx, val, fast)


@jit(inline=COLD)
def _single_constraint(idx, val, y, r, vecs, ints, scal, hp):
    """w ← y·x̃/‖x̃‖², stored as S = 1/r, v = y·x/r (the single-constraint solution)."""
    inv_r = 1.0 / r
    if not math.isfinite(inv_r):
        return False
    list_base, pos_base = _v_blocks(vecs)
    v = vecs[Vec.V]
    support_clear(v, ints, Slot.V_COUNT, list_base, pos_base)
    tracked_axpy(y * inv_r, 1.0, idx, val, v, ints, Slot.V_COUNT, list_base, pos_base)
    scal[Sc.RAW_BIAS] = y * inv_r * hp[RommaHP.KAPPA]
    scal[Sc.SCALE] = inv_r  # ‖v‖ = 1
    scal[Sc.NORM] = inv_r
    scal[Sc.ERR] = exact_err(val.shape[0])
    return True


@jit(inline=COLD)
def _refresh(vecs, scal):
    """Recompute the cached ‖w̃‖ exactly (O(d))."""
    scal[Sc.NORM] = scal[Sc.SCALE] * norm_of(vecs[Vec.V], scal[Sc.RAW_BIAS])
    scal[Sc.ERR] = exact_err(vecs.shape[1])


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
    kappa = hp[RommaHP.KAPPA]
    v = vecs[Vec.V]
    s = augmented_score(v, scal[Sc.SCALE], scal[Sc.RAW_BIAS], kappa, idx, val, fast)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    m = y * s
    if aggressive:
        if not m < 1.0:
            return s, pred, False, 0.0
    elif m > 0.0:
        return s, pred, False, 0.0
    xx = augmented_sqnorm(idx, val, kappa)
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
        ar = scal[Sc.NORM] * r
        if ar == 0.0:  # w_t = 0 (the first update): only y·w·x̃ ≥ 1
            single = True
            break
        rho = s / ar
        q = 1.0 - y * rho / ar  # 1 − m/(ar)²: ≤ 0 iff w·w_t ≥ ‖w_t‖² is inactive
        if q <= 0.0:
            single = True
            break
        den = (1.0 - rho) * (1.0 + rho)
        if attempt == 0 and is_stale(scal[Sc.ERR], den):
            _refresh(vecs, scal)  # nearly parallel constraints: need the exact ‖w‖
            continue
        break
    if not single and den <= COLLINEAR_TOL:
        if y * rho <= 0.0:
            return s, pred, False, 0.0  # y·x̃ anti-parallel to w_t: infeasible
        single = True  # parallel: the two constraints (nearly) coincide
    if single:
        if not _single_constraint(idx, val, y, r, vecs, ints, scal, hp):
            return math.inf, pred, False, 0.0
        return s, pred, True, 0.0
    a = scal[Sc.NORM]
    inv_r = 1.0 / r
    c = q / den
    dr = (y - s) * inv_r / den  # d·r: the coefficient of x̃/r
    a_new = a * math.hypot(q / math.sqrt(den), 1.0 / (a * r))
    bound = c * a + abs(dr)  # bounds every |w_j| after the step
    if not (math.isfinite(a_new) and math.isfinite(bound) and math.isfinite(inv_r)):
        return math.inf, pred, False, 0.0
    list_base, pos_base = _v_blocks(vecs)
    s_old = scal[Sc.SCALE]
    new_scale = c * s_old
    step = dr / new_scale
    if not (new_scale > 0.0 and sv_in_range(a_new / new_scale) and math.isfinite(step)
            and math.isfinite(bound / new_scale)):
        # rare: ‖v‖ = ‖w‖/S would leave its range; rescale v so that ‖v'‖ = 1 (O(support))
        f1 = s_old / a_new
        tracked_rescale(f1, c, v, ints, Slot.V_COUNT, list_base)
        scal[Sc.RAW_BIAS] = (scal[Sc.RAW_BIAS] * f1) * c
        new_scale = a_new
        step = dr / a_new
    scal[Sc.SCALE] = new_scale  # O(1) for c·w
    tracked_axpy(step, inv_r, idx, val, v, ints, Slot.V_COUNT, list_base, pos_base)
    scal[Sc.RAW_BIAS] += step * (inv_r * kappa)
    ratio = c * a / a_new
    res = bound / a_new
    scal[Sc.ERR] = scal[Sc.ERR] * ratio * ratio + EPS * (6.0 + res * res)
    scal[Sc.NORM] = a_new
    return s, pred, True, 0.0
