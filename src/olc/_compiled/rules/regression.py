"""Online linear regression rules: Passive-Aggressive regression (Crammer, Dekel, Keshet,
Shalev-Shwartz & Singer, JMLR 2006, §4 "regression"; seed 004 §31.2.2) and AROW regression
(recursive least squares, seed 004 §31.3.3). y is the real target; the score is the
prediction ŷ = w·x + b made before the update.

PA_REGRESSION (one rule, hp selects the variant), residual r = y − ŷ,
ε-insensitive loss ℓ = max(0, |r| − ε):
    PA     τ = ℓ/q
    PA-I   τ = min(C, ℓ/q)
    PA-II  τ = ℓ/(q + κ)
    w ← w + sign(r)·τ·x,  b ← b + sign(r)·τ  (with a bias),
where q = ‖x‖² (+1 when the bias counts in the norm, the textbook's augmented input (x, 1)).
The chapter's ℓ2-loss update θ ← θ + r/(‖x‖² + λ)·x is PA-II with ε = 0 and κ = λ; its
ℓ1-loss update θ ← θ + sign(r)·min(1/λ, |r|/‖x‖²)·x is PA-I with ε = 0 and C = 1/λ —
the learners pass those parameters, so both are computed by their own formulas.
q = 0 (x = 0 without a counted bias): PA and PA-I skip the round (τ would be ℓ/0), as
scikit-learn does; PA-II moves the bias only (τ = ℓ/κ), or nothing without a bias.
Scalar slots: scal[0] = b. hp: [C or κ, fit_intercept, variant, bias_in_norm, epsilon].

AROW_REGRESSION_* (ids 72–74): μ ← μ + (y − μ·x̃)·Σx̃/β, Σ ← Σ − Σx̃x̃ᵀΣ/β, β = x̃ᵀΣx̃ + r
on every round (the model's uncertainty shrinks whatever the residual); the full and the two
diagonal covariance layouts of ``second_order``. hp: [r, fit_intercept].
"""
import math

import numba as nb

from ..caching import jit
from ..rule_ids import PA_REGRESSION, AROW_REGRESSION_FULL, AROW_REGRESSION_DIAGONAL, AROW_REGRESSION_DIAGONAL_PRECISION

from ..kernels import INLINE, axpy, dot, sign, sqnorm
from .second_order import AROW_DIAGONAL, AROW_DIAGONAL_PRECISION, AROW_FULL, arow_score, arow_update

BIAS = 0
PA_CLASSIC, PA_I, PA_II = 0, 1, 2



@jit(inline=INLINE)
def _pa_regression_step(idx, val, y, vecs, ints, scal, hp, fast):
    s = dot(vecs[0], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    r = y - s
    loss = abs(r) - hp[4]
    if not loss > 0.0:
        return s, pred, False, 0.0
    q = sqnorm(idx, val)
    if hp[3] != 0.0:
        q += 1.0
    variant = hp[2]
    if variant == PA_II:
        tau = loss / (q + hp[0])
    else:
        if q == 0.0:
            return s, pred, False, 0.0
        tau = loss / q
        if variant == PA_I and tau > hp[0]:
            tau = hp[0]
    step = tau if r > 0.0 else -tau
    fit_bias = hp[1] != 0.0
    if not (math.isfinite(step * math.sqrt(q)) and math.isfinite(scal[BIAS] + step)):
        return math.inf, pred, False, 0.0
    if q == 0.0 and not fit_bias:
        return s, pred, False, 0.0  # PA-II on x = 0 without a bias: nothing moves
    axpy(step, idx, val, vecs[0])
    if fit_bias:
        scal[BIAS] += step
    return s, pred, True, 0.0


@jit(inline=INLINE)
def _arow_rule(rule):
    if rule == AROW_REGRESSION_FULL:
        return AROW_FULL
    if rule == AROW_REGRESSION_DIAGONAL:
        return AROW_DIAGONAL
    return AROW_DIAGONAL_PRECISION


@jit(inline=INLINE)
def _arow_regression_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    base = _arow_rule(rule)
    s = arow_score(base, idx, val, vecs, scal, fast)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    status = arow_update(base, idx, val, vecs, scal, hp, y - s)
    if status < 0:
        return math.inf, pred, False, 0.0
    return s, pred, status > 0, 0.0


# -- family dispatchers (ids 70–79) ---------------------------------------------------------------

@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == PA_REGRESSION:
        return dot(vecs[0], idx, val, fast) + scal[BIAS]
    if AROW_REGRESSION_FULL <= rule <= AROW_REGRESSION_DIAGONAL_PRECISION:
        return arow_score(_arow_rule(rule), idx, val, vecs, scal, fast)
    raise ValueError("unknown regression rule id")


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == PA_REGRESSION:
        return _pa_regression_step(idx, val, y, vecs, ints, scal, hp, fast)
    if AROW_REGRESSION_FULL <= rule <= AROW_REGRESSION_DIAGONAL_PRECISION:
        return _arow_regression_step(rule, idx, val, y, vecs, ints, scal, hp, fast)
    raise ValueError("unknown regression rule id")
