"""Efficient Online Maximum Margin, ℓ2 norm (seed 002, Algorithm 1 "efficient
implementation", closed form of §5.1).

State: the dual certificates v₊ = SP·vecs[0] and v₋ = SM·vecs[1] (scale × vector, so the
convex-combination update v ← (1−β)v + βx costs O(nnz(x))), and the cached inner products
PP = ‖v₊‖², MM = ‖v₋‖², PM = v₊·v₋, kept exact-in-arithmetic by incremental updates.
The classifier is never materialised during the stream:
    w = (v₊ − v₋)/‖v₊ − v₋‖,   b = −½ w·(v₊ + v₋) = −(PP − MM)/(2‖v₊ − v₋‖),
    w·x + b = (v₊·x − v₋·x − (PP − MM)/2) / ‖v₊ − v₋‖,   γ = ‖v₊ − v₋‖/2.

Phases (Algorithm 1 lines 2–13): PHASE 0 nothing seen, the classifier is the constant +1
(w = 0, b = +1); PHASE 1 one label seen, the constant y₁ (w = 0, b = y₁) until the first
example of the other label; PHASE 2 the max-margin classifier of the certificates.
"""
import math

import numba as nb

from ..caching import jit

from ..kernels import (
    INLINE,
    RENORM_HIGH,
    RENORM_LOW,
    assign,
    axpy,
    dot,
    is_finite_row,
    scale,
    sign,
    sqnorm,
)

# scal slots
SP, SM, PP, MM, PM, PHASE, Y1, GAMMA = 0, 1, 2, 3, 4, 5, 6, 7
# hp layout: [rho]


@jit(inline=INLINE)
def _norm_u(scal):
    nu2 = scal[PP] + scal[MM] - 2.0 * scal[PM]
    # Rounding can push an exact 0 slightly negative (coinciding certificates).
    return math.sqrt(nu2) if nu2 > 0.0 else 0.0


@jit(inline=INLINE)
def omm_score(idx, val, vecs, ints, scal, hp, fast):
    if scal[PHASE] < 2.0:
        return 1.0 if scal[PHASE] == 0.0 else scal[Y1]
    nu = _norm_u(scal)
    if nu == 0.0:
        # v₊ = v₋: a point was seen with both labels, the stream is provably not separable
        # and w is undefined; the classifier is w = 0, b = 0 (predicts +1).
        return 0.0
    px = scal[SP] * dot(vecs[0], idx, val, fast)
    mx = scal[SM] * dot(vecs[1], idx, val, fast)
    return (px - mx - 0.5 * (scal[PP] - scal[MM])) / nu


@jit(inline=INLINE)
def _store_first(idx, val, vecs, scal, row, slot_scale, slot_sq):
    """Make x the certificate in vecs[row]; False (nothing stored) if ‖x‖² overflows."""
    sq = sqnorm(idx, val)
    if not math.isfinite(sq):
        return False
    assign(idx, val, vecs[row])
    scal[slot_scale] = 1.0
    scal[slot_sq] = sq
    return True


@jit(inline=INLINE)
def _move_towards(idx, val, vecs, scal, row, slot_scale, beta):
    """v ← (1−β)v + βx for the certificate in vecs[row] (scale slot ``slot_scale``)."""
    if beta >= 1.0:
        # The new certificate is x itself: O(d) reset, the only non-O(nnz) branch.
        assign(idx, val, vecs[row])
        scal[slot_scale] = 1.0
        return
    s_new = (1.0 - beta) * scal[slot_scale]
    if beta > 0.0:
        axpy(beta / s_new, idx, val, vecs[row])
    scal[slot_scale] = s_new
    if s_new < RENORM_LOW or s_new > RENORM_HIGH:
        scale(vecs[row], s_new)
        scal[slot_scale] = 1.0


@jit(inline=INLINE)
def omm_step(idx, val, y, vecs, ints, scal, hp, fast):
    """One round of Algorithm 1 (efficient implementation) with aggressiveness ρ = hp[0].

    Update test: a_t < ρ·γ_t (line 18) — or a mistake. The two differ only at a_t = 0 exactly,
    where sign(0) = +1 is wrong for y = −1 although a_t < 0·γ_t fails: the paper's Remark 3.3
    says ρ = 0 "updates only when mistakes occur", so we update there too (a conservative
    learner must not keep a classifier that just erred).

    Three-point step (§5.1, Eq. 7): for y = +1, u = v₊ − v₋, z = v₊ − x and
    β* = clip(u·z/‖z‖², 0, 1), v₊ ← (1−β*)v₊ + β*x; for y = −1, z = x − v₋,
    v₋ ← (1−β*)v₋ + β*x. ‖z‖ = 0 (x equals the certificate) gives β* = 0.
    Returns aux = γ_t, the predicted margin of the classifier used for this prediction
    (0 while no max-margin classifier exists), for the m(φ) metric of Eq. (4b).
    """
    phase = scal[PHASE]
    # A non-finite score reports an overflow to the loop, which stops before this row.
    if phase == 0.0:
        # Line 2: predict +1, then V₊ or V₋ := {x₁}.
        if not _store_first(idx, val, vecs, scal, 0 if y > 0.0 else 1,
                            SP if y > 0.0 else SM, PP if y > 0.0 else MM):
            return math.inf, 1.0, False, 0.0
        scal[Y1] = y
        scal[PHASE] = 1.0
        return 1.0, 1.0, y < 0.0, 0.0
    if phase == 1.0:
        # Lines 5–8: predict y₁ until the other label arrives.
        y1 = scal[Y1]
        if y == y1:
            if not is_finite_row(val):  # x is not read here: check it (rule contract)
                return math.nan, y1, False, 0.0
            return y1, y1, False, 0.0
        # v₊·v₋ of two singletons: one O(nnz) dot with the certificate stored first.
        if y > 0.0:
            pm = scal[SM] * dot(vecs[1], idx, val, False)
        else:
            pm = scal[SP] * dot(vecs[0], idx, val, False)
        if not math.isfinite(pm) or not _store_first(idx, val, vecs, scal, 0 if y > 0.0 else 1,
                                                     SP if y > 0.0 else SM,
                                                     PP if y > 0.0 else MM):
            return math.inf, y1, False, 0.0
        scal[PM] = pm
        scal[PHASE] = 2.0
        scal[GAMMA] = 0.5 * _norm_u(scal)
        return y1, y1, True, 0.0

    gamma = scal[GAMMA]
    nu = 2.0 * gamma
    px = scal[SP] * dot(vecs[0], idx, val, fast)
    mx = scal[SM] * dot(vecs[1], idx, val, fast)
    if nu > 0.0:
        s = (px - mx - 0.5 * (scal[PP] - scal[MM])) / nu
    else:
        s = 0.0 * (px + mx)  # 0, or NaN when x has a NaN/inf value (rule contract)
    pred = sign(s)
    a = y * s
    if not math.isfinite(s) or not (a < hp[0] * gamma or pred != y):
        return s, pred, False, gamma

    xx = sqnorm(idx, val)
    pp, mm, pm = scal[PP], scal[MM], scal[PM]
    if y > 0.0:
        uz = pp - pm - px + mx
        zz = pp - 2.0 * px + xx
    else:
        uz = px - pm - mx + mm
        zz = xx - 2.0 * mx + mm
    if zz <= 0.0 or uz <= 0.0:
        beta = 0.0
    elif uz >= zz:
        beta = 1.0
    else:
        beta = uz / zz
    if beta > 0.0:
        c = 1.0 - beta
        if y > 0.0:
            new_sq = c * c * pp + 2.0 * beta * c * px + beta * beta * xx
            new_pm = c * pm + beta * mx
        else:
            new_sq = c * c * mm + 2.0 * beta * c * mx + beta * beta * xx
            new_pm = c * pm + beta * px
        if not (math.isfinite(new_sq) and math.isfinite(new_pm)):
            return math.inf, pred, False, gamma
        scal[PM] = new_pm
        if y > 0.0:
            scal[PP] = new_sq
            _move_towards(idx, val, vecs, scal, 0, SP, beta)
        else:
            scal[MM] = new_sq
            _move_towards(idx, val, vecs, scal, 1, SM, beta)
        scal[GAMMA] = 0.5 * _norm_u(scal)
    return s, pred, True, gamma


# -- family dispatchers (one rule; inlined into the family's loops) --------------------------

@jit(inline=INLINE)
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    return omm_score(idx, val, vecs, ints, scal, hp, fast)


@jit(inline=INLINE)
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    return omm_step(idx, val, y, vecs, ints, scal, hp, fast)
