"""ALMA₂(α; B, C) (Gentile 2001), rule 32 (layout: ``layouts/margin.py``, ``ALMA2_LAYOUT``).

x̃ = (x, 1) with the bias (``hp[FIT_INTERCEPT]`` = 1), else x̃ = x; x̂ = x̃/‖x̃‖.
w̃ = S·(v, raw_bias) with ‖w̃‖² ≤ 1 cached, so the projection onto the unit ball is an O(1)
change of S; v is folded (O(d)) only when S leaves [RENORM_LOW, RENORM_HIGH]. Reports aux = 0.
"""
import math

from ..caching import jit
from ..kernels.vector import INLINE, axpy, sign
from ..layouts.margin import AlmaHP as HP
from ..layouts.margin import AlmaScal as Sc
from ..layouts.margin import AlmaVec as Vec
from ..kernels.scaled import sv_fold, sv_in_range
from .margin_common import augmented_score, augmented_sqnorm


@jit(inline=INLINE)
def alma_score(idx, val, vecs, ints, scal, hp, fast):
    return augmented_score(vecs[Vec.V], scal[Sc.SCALE], scal[Sc.RAW_BIAS],
                           hp[HP.FIT_INTERCEPT], idx, val, fast)


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
    fit = hp[HP.FIT_INTERCEPT]
    v = vecs[Vec.V]
    s = augmented_score(v, scal[Sc.SCALE], scal[Sc.RAW_BIAS], fit, idx, val, fast)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    xx = augmented_sqnorm(idx, val, fit)  # fit ∈ {0, 1}: fit² = fit
    if not math.isfinite(xx):
        return math.inf, pred, False, 0.0
    if xx == 0.0:
        return s, pred, False, 0.0
    r = math.sqrt(xx)
    sqrt_k = math.sqrt(scal[Sc.K])
    margin = y * s / r
    if margin > (1.0 - hp[HP.ALPHA]) * (hp[HP.B] / sqrt_k):
        return s, pred, False, 0.0
    eta = hp[HP.C] / sqrt_k
    nn = scal[Sc.SQNORM] + 2.0 * eta * margin + eta * eta
    # The step on v is η·y/(S·‖x̃‖), checked before anything changes: a step that is not
    # finite is an overflow (no update), not a reason to fold.
    step = eta * y / (scal[Sc.SCALE] * r)
    if not (math.isfinite(step) and math.isfinite(nn)):
        return math.inf, pred, False, 0.0
    axpy(step, idx, val, v)
    scal[Sc.RAW_BIAS] += step * fit
    if nn > 1.0:
        scal[Sc.SCALE] /= math.sqrt(nn)
        scal[Sc.SQNORM] = 1.0
    else:
        scal[Sc.SQNORM] = nn
    scal[Sc.K] += 1.0
    if not sv_in_range(scal[Sc.SCALE]):
        scal[Sc.RAW_BIAS] *= scal[Sc.SCALE]  # the appended coordinate folds with v
        sv_fold(v, scal, Sc.SCALE)
    return s, pred, True, 0.0
