"""Stochastic gradient descent on a linear model (the textbook chapter §31.1:
θ ← θ − ε∇J(θ)), for classification (hinge, logistic, squared hinge) and regression (squared
loss), with the step size schedules η_t = η₀, η₀/t, η₀/√t and an optional L2 penalty.
Layouts: ``layouts/sgd.py``.

One round t (t = 1, 2, … counts every row the learner has processed, over its lifetime), with
s = w·x + b computed *before* the update and ℓ'(s) = ∂ℓ/∂s:
    w ← (1 − η_tλ)·w − η_t·ℓ'(s)·x,     b ← b − η_t·ℓ'(s)   (b not penalised),
the gradient of ℓ(y, w·x + b) + (λ/2)‖w‖² at the current (w, b). Implemented on the
scaled-vector kernel (``scaled.py``, w = scal[SCALE]·vecs[V]): shrink (``sv_mul``, O(1)),
then add −η_tℓ'(s)·x (``sv_add``, O(nnz)) — the order and the arithmetic of scikit-learn's
``_plain_sgd`` and ``WeightVector`` (w·x = scale·(v·x); v += (a/scale)·x; v ← scale·v
when the scale falls too low), so that ``SGDClassifier``/``SGDRegressor`` are reproduced bit
for bit where they compute the same quantities. The kernel folds the scale into v at 1e-100
where scikit-learn does at 1e-9: the results agree while scikit-learn's scale stays above
1e-9. When η_tλ ≥ 1 the shrink factor is clamped at 0 (w ← 0, O(d): the only non-O(nnz)
branch, forced since every weight changes), as scikit-learn does.

Losses (y ∈ {−1, +1} for classification, z = y·s):
    hinge          ℓ = max(0, 1 − z),        ℓ' = −y if z < 1 else 0 (0 at the kink z = 1)
    logistic       ℓ = log(1 + e^{−z}),      ℓ' = −y/(1 + e^{z})   (evaluated without overflow)
    squared hinge  ℓ = ½·max(0, 1 − z)²,     ℓ' = −y(1 − z) if z < 1 else 0   (the chapter's ½)
    squared        ℓ = ½(y − s)²,            ℓ' = s − y   (regression, y real)

"updated" is true when the round changed the model: a non-zero gradient, or a shrink
(λ > 0).

Averaging (``average=``, ``averaging.py``): when the state holds the averaging rows, the round
also accounts its iterate w_t = s·v in the lazy sum, in v's units as scikit-learn's
``WeightVector.add_average`` does (a += (1/n)·b·s); before a shrink that would leave the
scale 2¹⁰ below its value at the last rebase, or make the kernel fold or clear v, the sum is
rebased (``average_rebase``, O(d), once per ~7/(η_tλ) rows) — see ``averaging.py`` for why.
The score is then the averaged model's.
"""
import math

from ..averaging import average_rebase, average_step, averaged_score, needs_rebase
from ..caching import jit
from ..kernels import INLINE, sign
from ..layouts.sgd import INV_SQRT_T, INV_T, HINGE, SQUARED, SQUARED_HINGE, SGDHP, SGDScal, SGDVec
from ..layouts.averaging import AveragingScal
from ..layouts.sgd import AveragedSGDHP, AveragedSGDScal, AveragedSGDVec
from ..rule_ids import SGD, SGD_REGRESSION
from ..scaled import sv_add, sv_dot, sv_in_range, sv_mul

BIAS, SCALE, T = SGDScal.BIAS, SGDScal.SCALE, SGDScal.T
V = SGDVec.V
AVG_SUM, AVG = AveragedSGDVec.AVG_SUM, AveragedSGDScal.AVG_ROWS
AVG_BASE_SCALE = AveragedSGDScal.AVG_BASE_SCALE
AVG_COUNT = AveragingScal.COUNT


@jit(inline=INLINE)
def sgd_linear_score(idx, val, vecs, ints, scal, hp, fast):
    if vecs.shape[0] > AVG_SUM and scal[AVG + AVG_COUNT] > 0.0:  # averaging has begun
        return averaged_score(vecs[AVG_SUM], vecs[V], idx, val, scal, AVG, fast)
    return sv_dot(vecs[V], scal[SCALE], idx, val, fast) + scal[BIAS]


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
    v = vecs[V]
    s = sv_dot(v, scal[SCALE], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    t = scal[T] + 1.0
    eta = step_size(hp[SGDHP.ETA0], hp[SGDHP.SCHEDULE], t)
    update = -eta * loss_derivative(loss, y, s)
    lam = hp[SGDHP.LAM]
    shrink = 1.0
    if lam > 0.0:
        shrink = 1.0 - eta * lam
        if shrink < 0.0:
            shrink = 0.0
    if update != 0.0:
        # Decline a step that would not be finite, before anything changes. sv_add divides
        # by the scale sv_mul leaves: scale·shrink, or 1 once folded or cleared.
        after = scal[SCALE] * shrink
        divisor = after if sv_in_range(after) else 1.0
        if not (math.isfinite(update / divisor * _max_abs(val))
                and math.isfinite(scal[BIAS] + update)):
            return math.inf, pred, False, 0.0
    # -- apply ------------------------------------------------------------------------------
    scal[T] = t
    averaging = vecs.shape[0] > AVG_SUM  # the state has the sum row
    rebase = False
    if averaging and shrink != 1.0:
        after = scal[SCALE] * shrink
        rebase = needs_rebase(scal, AVG, after, sv_in_range(after))
        if rebase:
            average_rebase(vecs[AVG_SUM], v, scal, AVG)
    if shrink != 1.0:
        sv_mul(v, scal, SCALE, shrink)  # O(1); shrink 0 (η_tλ ≥ 1) clears w, O(d)
    if rebase:
        scal[AVG_BASE_SCALE] = scal[SCALE]
    if update != 0.0:
        sv_add(v, scal, SCALE, update, idx, val)
        if hp[SGDHP.FIT_INTERCEPT] != 0.0:
            scal[BIAS] += update
    if averaging:
        # v moved by (update/s)·x, s the scale after the shrink (sv_add's divisor).
        average_step(idx, val, vecs[AVG_SUM], scal, AVG, hp, AveragedSGDHP.AVERAGE, update,
                     scal[SCALE], scal[BIAS])
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
        return _sgd_round(idx, val, y, vecs, ints, scal, hp, fast, hp[SGDHP.LOSS])
    if rule == SGD_REGRESSION:
        return _sgd_round(idx, val, y, vecs, ints, scal, hp, fast, SQUARED)
    raise ValueError("unknown SGD rule id")
