"""Online linear regression rules: Passive-Aggressive regression (Crammer, Dekel, Keshet,
Shalev-Shwartz & Singer, JMLR 2006, §4 "regression"; the textbook chapter §31.2.2) and AROW
regression (recursive least squares, the textbook chapter §31.3.3). y is the real target; the
score is the prediction ŷ = w·x + b made before the update. Layouts: ``layouts/regression.py``.

PA_REGRESSION is the Passive-Aggressive step of ``rules/linear.py`` (``pa_step``) over the
ε-insensitive loss ℓ = max(0, |r| − ε), residual r = y − ŷ, step direction sign(r):
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

AROW_REGRESSION_* (ids 72–74): μ ← μ + (y − μ·x̃)·Σx̃/β, Σ ← Σ − Σx̃x̃ᵀΣ/β, β = x̃ᵀΣx̃ + r
on every round (the model's uncertainty shrinks whatever the residual); the full and the two
diagonal covariance layouts of ``second_order``.
"""
import math

from ..caching import jit
from ..kernels import INLINE, sign
from ..layouts.linear import EPSILON_INSENSITIVE
from ..rule_ids import (AROW_DIAGONAL, AROW_DIAGONAL_PRECISION, AROW_FULL,
                        AROW_REGRESSION_DIAGONAL, AROW_REGRESSION_DIAGONAL_PRECISION,
                        AROW_REGRESSION_FULL, PA_REGRESSION)
from .linear import linear_score, pa_step
from .second_order import arow_score, arow_update


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
        return linear_score(idx, val, vecs, ints, scal, hp, fast)
    if AROW_REGRESSION_FULL <= rule <= AROW_REGRESSION_DIAGONAL_PRECISION:
        return arow_score(_arow_rule(rule), idx, val, vecs, scal, fast)
    raise ValueError("unknown regression rule id")


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == PA_REGRESSION:
        return pa_step(EPSILON_INSENSITIVE, idx, val, y, vecs, ints, scal, hp, fast)
    if AROW_REGRESSION_FULL <= rule <= AROW_REGRESSION_DIAGONAL_PRECISION:
        return _arow_regression_step(rule, idx, val, y, vecs, ints, scal, hp, fast)
    raise ValueError("unknown regression rule id")
