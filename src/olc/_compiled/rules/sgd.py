"""Stochastic gradient descent on a linear model (seed 004 §31.1: θ ← θ − ε∇J(θ)), for
classification (hinge, logistic, squared hinge) and regression (squared loss), with the step
size schedules η_t = η₀, η₀/t, η₀/√t and an optional L2 penalty.

One round t (t = 1, 2, … counts every row the learner has processed, over its lifetime), with
s = w·x + b computed *before* the update and ℓ'(s) = ∂ℓ/∂s:
    w ← (1 − η_tλ)·w − η_t·ℓ'(s)·x,     b ← b − η_t·ℓ'(s)   (b not penalised),
the gradient of ℓ(y, w·x + b) + (λ/2)‖w‖² at the current (w, b). Implemented as: shrink
(scale only, O(1)), then add −η_tℓ'(s)·x (O(nnz)) — the order of scikit-learn's
``_plain_sgd``, so that ``SGDClassifier``/``SGDRegressor`` are reproduced bit for bit where
they compute the same quantities. When η_tλ ≥ 1 the shrink factor is clamped at 0 (w ← 0,
O(d): the only non-O(nnz) branch, forced since every weight changes), as scikit-learn does.

Losses (y ∈ {−1, +1} for classification, z = y·s):
    hinge          ℓ = max(0, 1 − z),        ℓ' = −y if z < 1 else 0 (0 at the kink z = 1)
    logistic       ℓ = log(1 + e^{−z}),      ℓ' = −y/(1 + e^{z})   (evaluated without overflow)
    squared hinge  ℓ = ½·max(0, 1 − z)²,     ℓ' = −y(1 − z) if z < 1 else 0   (the chapter's ½)
    squared        ℓ = ½(y − s)²,            ℓ' = s − y   (regression, y real)

State: w = scal[SCALE]·vecs[0] (scale × vector: the L2 shrink costs O(1); the vector is
rescaled — O(d) — only when the scale falls below RENORM_LOW), b = scal[BIAS], t = scal[T]
(rows processed; exact as float64 up to 2⁵³).
hp layout: [eta0, schedule, lambda, loss, fit_intercept].

"updated" is true when the round changed the model: a non-zero gradient, or a shrink
(λ > 0).
"""
import math

import numba as nb

from ..caching import jit
from ..rule_ids import SGD, SGD_REGRESSION

from ..kernels import INLINE, RENORM_LOW, axpy, dot, scale, sign

BIAS, SCALE, T = 0, 1, 2

CONSTANT, INV_T, INV_SQRT_T = 0, 1, 2
HINGE, LOGISTIC, SQUARED_HINGE, SQUARED = 0, 1, 2, 3



@jit(inline=INLINE)
def sgd_linear_score(idx, val, vecs, ints, scal, hp, fast):
    return scal[SCALE] * dot(vecs[0], idx, val, fast) + scal[BIAS]


@jit(inline=INLINE)
def step_size(eta0, schedule, t):
    """η_t for round t ≥ 1."""
    if schedule == INV_T:
        return eta0 / t
    if schedule == INV_SQRT_T:
        return eta0 / math.sqrt(t)
    return eta0


@jit(inline=INLINE)
def loss_derivative(loss, y, s):
    """ℓ'(s) = ∂ℓ(y, s)/∂s."""
    if loss == SQUARED:
        return s - y
    z = y * s
    if loss == HINGE:
        return -y if z < 1.0 else 0.0
    if loss == SQUARED_HINGE:
        return -y * (1.0 - z) if z < 1.0 else 0.0
    # logistic: −y/(1 + e^z) = −y·e^{−z}/(1 + e^{−z}); the form with a non-positive exponent
    # never overflows.
    if z > 0.0:
        e = math.exp(-z)
        return -y * e / (1.0 + e)
    return -y / (1.0 + math.exp(z))


@jit(inline=INLINE)
def _max_abs(val):
    m = 0.0
    for k in range(val.shape[0]):
        a = abs(val[k])
        if a > m:
            m = a
    return m


@jit(inline=INLINE)
def _sgd_round(idx, val, y, vecs, ints, scal, hp, fast, loss):
    a = scal[SCALE]
    s = a * dot(vecs[0], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    t = scal[T] + 1.0
    eta = step_size(hp[0], hp[1], t)
    update = -eta * loss_derivative(loss, y, s)
    lam = hp[2]
    shrink = 1.0
    if lam > 0.0:
        shrink = 1.0 - eta * lam
        if shrink < 0.0:
            shrink = 0.0
    new_a = a * shrink
    fit_bias = hp[4] != 0.0
    if update != 0.0:
        base = new_a if new_a >= RENORM_LOW else 1.0  # the scale the add will see
        if not (math.isfinite(update / base * _max_abs(val))
                and math.isfinite(scal[BIAS] + update)):
            return math.inf, pred, False, 0.0
    # -- apply ------------------------------------------------------------------------------
    scal[T] = t
    if new_a == 0.0:
        vecs[0][:] = 0.0  # w ← 0 (η_tλ ≥ 1)
        new_a = 1.0
    elif new_a < RENORM_LOW:
        scale(vecs[0], new_a)
        new_a = 1.0
    scal[SCALE] = new_a
    if update != 0.0:
        axpy(update / new_a, idx, val, vecs[0])
        if fit_bias:
            scal[BIAS] += update
    return s, pred, update != 0.0 or shrink != 1.0, 0.0


# -- family dispatchers (ids 60–64) ---------------------------------------------------------------

@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == SGD or rule == SGD_REGRESSION:
        return sgd_linear_score(idx, val, vecs, ints, scal, hp, fast)
    raise ValueError("unknown SGD rule id")


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == SGD:
        return _sgd_round(idx, val, y, vecs, ints, scal, hp, fast, hp[3])
    if rule == SGD_REGRESSION:
        return _sgd_round(idx, val, y, vecs, ints, scal, hp, fast, SQUARED)
    raise ValueError("unknown SGD rule id")
