"""NORMA (Kivinen, Smola & Williamson, "Online learning with kernels", IEEE Trans. Signal
Processing 52(8), 2004), linear kernel, classification with the hinge loss at a fixed margin ρ
(rule 13; layout ``layouts/regularized.py``): w = S·v is a scaled vector (``kernels/scaled.py``), so
the shrink of every round costs O(1); the bias is kept apart, unscaled (NORMA does not
regularize it)."""
import math

from ..caching import jit
from ..kernels.vector import INLINE, sign, sqnorm
from ..layouts.regularized import SCHEDULE_CONSTANT, NormaHP, NormaScal, NormaVec
from ..kernels.scaled import sv_add, sv_dot, sv_mul

BIAS, SCALE, ROUNDS = NormaScal.BIAS, NormaScal.SCALE, NormaScal.ROUNDS
V = NormaVec.V


@jit(inline=INLINE)
def norma_score(idx, val, vecs, ints, scal, hp, fast):
    return sv_dot(vecs[V], scal[SCALE], idx, val, fast) + scal[BIAS]


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
    t = scal[ROUNDS] + 1.0
    eta = hp[NormaHP.ETA]
    if hp[NormaHP.SCHEDULE] != SCHEDULE_CONSTANT:
        eta /= math.sqrt(t)
    upd = y * s < hp[NormaHP.RHO]
    if upd and not math.isfinite(eta * math.sqrt(sqnorm(idx, val))):
        return math.inf, pred, False, 0.0  # the step η_t·y·x overflows: no update
    # 1 − η_t·λ > 0: the learner requires η·λ < 1 and η_t ≤ η.
    sv_mul(vecs[V], scal, SCALE, 1.0 - eta * hp[NormaHP.LAM])
    if upd:
        sv_add(vecs[V], scal, SCALE, eta * y, idx, val)
        if hp[NormaHP.FIT_INTERCEPT] != 0.0:
            scal[BIAS] += eta * y
    scal[ROUNDS] = t
    return s, pred, upd, 0.0
