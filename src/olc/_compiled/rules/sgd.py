"""Stochastic gradient descent on a linear model (the textbook chapter §31.1:
θ ← θ − ε∇J(θ)), for classification (hinge, logistic, squared hinge) and regression (squared
loss), with the step size schedules η_t = η₀, η₀/t, η₀/√t and an optional L2 penalty.
Layouts: ``layouts/sgd.py``.

One round t (t = 1, 2, … counts every row the learner has processed, over its lifetime), with
s = w·x + b computed *before* the update and ℓ'(s) = ∂ℓ/∂s:
    w ← (1 − η_tλ)·w − η_t·ℓ'(s)·x,     b ← b − η_t·ℓ'(s)   (b not penalised),
the gradient of ℓ(y, w·x + b) + (λ/2)‖w‖² at the current (w, b). Implemented on the
scaled-vector kernel (``kernels/scaled.py``, w = scal[SCALE]·vecs[V]): shrink (``sv_mul``, O(1)),
then add −η_tℓ'(s)·x (``sv_add``, O(nnz)) — the order and the arithmetic of scikit-learn's
``_plain_sgd`` and ``WeightVector`` (w·x = scale·(v·x); v += (a/scale)·x; v ← scale·v
when the scale falls too low), so that ``SGDClassifier``/``SGDRegressor`` are reproduced bit
for bit where they compute the same quantities. The kernel folds the scale into v at 1e-100
where scikit-learn does at 1e-9: the results agree while scikit-learn's scale stays above
1e-9. When η_tλ ≥ 1 the shrink factor is clamped at 0 (w ← 0, O(d): the only non-O(nnz)
branch, forced since every weight changes), as scikit-learn does.

Losses (y ∈ {−1, +1} for classification, z = y·s):
    hinge          ℓ = max(0, 1 − z),        ℓ' = −y if z < 1 else 0 (0 at the kink z = 1)
    perceptron     ℓ = max(0, −z),           ℓ' = −y if z ≤ 0 else 0 (scikit-learn's Hinge(0))
    logistic       ℓ = log(1 + e^{−z}),      ℓ' = −y/(1 + e^{z})   (evaluated without overflow)
    squared hinge  ℓ = ½·max(0, 1 − z)²,     ℓ' = −y(1 − z) if z < 1 else 0   (the chapter's ½)
    squared        ℓ = ½(y − s)²,            ℓ' = s − y   (regression, y real)

"updated" is true when the round changed the model: a non-zero gradient, or a shrink
(λ > 0).

Averaging (``average=``, ``kernels/averaging.py``): when the state holds the averaging rows, the round
also accounts its iterate w_t = s·v in the lazy sum, in v's units as scikit-learn's
``WeightVector.add_average`` does (a += (1/n)·b·s); before a shrink that would leave the
scale 2¹⁰ below its value at the last rebase, or make the kernel fold or clear v, the sum is
rebased (``average_rebase``, O(d), once per ~7/(η_tλ) rows) — see ``kernels/averaging.py`` for why.
The score is then the averaged model's.

scikit-learn's extension (``layouts.sgd.SklearnSGDHP``, only in the ``hp`` of the
``olc.sklearn`` drop-ins: ``Perceptron(penalty=...)``, ``sklearn/linear_model/_sgd_fast.pyx.tp``
``_plain_sgd``): the row's weight multiplies the step and the bias takes it × the decay
(``rules.linear.row_extension``); the shrink is 1 − (1 − ρ)η_tλ for the elastic-net mixing
ρ; the scale is folded below 1e-9 as scikit-learn folds it (and the lazy average rebased only
then); after the averaging, ρ > 0 applies the cumulative L1 penalty of Tsuruoka, Tsujii &
Ananiadou (2009) on the row's coordinates (``sgd_penalty.py``); and the round returns
scikit-learn's per-row penalty (its epoch objective) as ``aux``. The state then ends with the
tail of ``layouts.sgd.SGDPenaltyScal`` (and the row q when ρ > 0).
"""
import math

from ..kernels.averaging import average_rebase, average_step, averaged_score, needs_rebase
from ..caching import jit
from ..kernels.vector import INLINE, LLVM_INLINE, sign
from ..layouts.sgd import (INV_SQRT_T, INV_T, HINGE, PERCEPTRON, SQUARED, SQUARED_HINGE, SGDHP,
                           SGDPenaltyScal, SGDScal, SGDVec, SklearnSGDHP)
from ..layouts.averaging import AveragingScal
from ..layouts.sgd import AveragedSGDHP, AveragedSGDScal, AveragedSGDVec
from ..rule_ids import SGD, SGD_REGRESSION
from ..kernels.scaled import sv_add, sv_dot, sv_fold, sv_in_range, sv_mul
from .linear import row_extension
from .sgd_penalty import add_tracking_norms, l1_cumulative_penalty, penalty_term

BIAS, SCALE, T = SGDScal.BIAS, SGDScal.SCALE, SGDScal.T
V = SGDVec.V
AVG_SUM, AVG = AveragedSGDVec.AVG_SUM, AveragedSGDScal.AVG_ROWS
AVG_BASE_SCALE = AveragedSGDScal.AVG_BASE_SCALE
AVG_COUNT = AveragingScal.COUNT
# The scikit-learn extension (``layouts.sgd.SklearnSGDHP``) and the state's tail with it.
N_EXT, N_OWN_HP, N_TAIL = len(SklearnSGDHP), len(SGDHP), len(SGDPenaltyScal)
L1_RATIO = SklearnSGDHP.L1_RATIO
U, SQ_NORM, L1_NORM = SGDPenaltyScal.L1_U, SGDPenaltyScal.SQ_NORM, SGDPenaltyScal.L1_NORM
# scikit-learn folds its weight scale below this (``WeightVector.scale``, float64)
SKLEARN_RENORM_LOW = 1e-9


@jit(inline=INLINE)
def extension_offset(hp):
    """Where the scikit-learn extension starts in ``hp``, or -1 (an own learner's ``hp``: the
    plain or averaged layout, 5 or 6 fields; extended: 8 or 9)."""
    n = hp.shape[0]
    return n - N_EXT if n >= N_OWN_HP + N_EXT else -1


@jit(inline=INLINE)
def l1_rows(hp, ext):
    """The rows after the rule's own: the extension's q, present when ρ > 0."""
    return 1 if ext >= 0 and hp[ext + L1_RATIO] > 0.0 else 0


@jit(inline=INLINE)
def sgd_linear_score(idx, val, vecs, ints, scal, hp, fast):
    if vecs.shape[0] - l1_rows(hp, extension_offset(hp)) > AVG_SUM and scal[AVG + AVG_COUNT] > 0.0:  # averaging has begun
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
    if loss == PERCEPTRON:
        return -y if z <= 0.0 else 0.0
    if loss == SQUARED_HINGE:
        return -y * (1.0 - z) if z < 1.0 else 0.0
    # logistic: −y/(1 + e^z) = −y·e^{−z}/(1 + e^{−z}); the form with a non-positive exponent
    # never overflows.
    if z > 0.0:
        e = math.exp(-z)
        return -y * e / (1.0 + e)
    return -y / (1.0 + math.exp(z))


@jit(inline=INLINE)
def _max_abs(idx, val):
    """max |xⱼ| over the row's stored values (a binary row, val None: 1, or 0 if empty).
    The None tests in the kernels' order (``kernels/vector.py``), which numba settles per type."""
    m = 0.0
    if idx is not None and val is None:
        return 1.0 if idx.shape[0] > 0 else 0.0
    if val is not None:
        for k in range(val.shape[0]):
            a = abs(val[k])
            if a > m:
                m = a
    return m


# Compiled once per signature and inlined by LLVM (``kernels.LLVM_INLINE``): numba's IR
# inlining copied it into both dispatch sites below.
@jit(forceinline=LLVM_INLINE)
def _sgd_round(idx, val, y, vecs, ints, scal, hp, fast, loss):
    v = vecs[V]
    s = sv_dot(v, scal[SCALE], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    ext = extension_offset(hp)
    # (label, weight, bias decay): (y, 1, 1) without the extension, leaving the bits alone
    label, weight, decay = row_extension(hp, ext if ext >= 0 else hp.shape[0], y)
    t = scal[T] + 1.0
    eta = step_size(hp[SGDHP.ETA0], hp[SGDHP.SCHEDULE], t)
    update = -eta * loss_derivative(loss, label, s) * weight
    lam = hp[SGDHP.LAM]
    rho = hp[ext + L1_RATIO] if ext >= 0 else 0.0
    tail = scal.shape[0] - N_TAIL  # the extension's scalars (read only with it)
    objective = 0.0
    if ext >= 0:  # scikit-learn's penalty at the current w, for its epoch objective
        objective = penalty_term(scal[tail + SQ_NORM], scal[tail + L1_NORM], lam, rho)
    shrink = 1.0
    if lam > 0.0:
        # (1 − ρ)η_tλ: scikit-learn's elastic-net shrink (ρ = 0 without the extension)
        shrink = 1.0 - (1.0 - rho) * eta * lam if ext >= 0 else 1.0 - eta * lam
        if shrink < 0.0:
            shrink = 0.0
    if update != 0.0:
        # Decline a step that would not be finite, before anything changes. sv_add divides
        # by the scale sv_mul leaves: scale·shrink, or 1 once folded or cleared.
        after = scal[SCALE] * shrink
        divisor = after if sv_in_range(after) else 1.0
        if not (math.isfinite(update / divisor * _max_abs(idx, val))
                and math.isfinite(scal[BIAS] + update)):
            return math.inf, pred, False, 0.0
    # -- apply ------------------------------------------------------------------------------
    scal[T] = t
    averaging = vecs.shape[0] - l1_rows(hp, ext) > AVG_SUM  # the state has the sum row
    rebase = False
    if averaging and shrink != 1.0:
        after = scal[SCALE] * shrink
        if ext >= 0:
            # scikit-learn's schedule: only when its scale folds (below 1e-9, or cleared).
            # Its L1 truncation is not accounted in the lazy sum, so the averaged model
            # depends on when the sum is rebased: the same schedule keeps it scikit-learn's.
            rebase = not (sv_in_range(after) and after >= SKLEARN_RENORM_LOW)
        else:
            rebase = needs_rebase(scal, AVG, after, sv_in_range(after))
        if rebase:
            average_rebase(vecs[AVG_SUM], v, scal, AVG)
    if shrink != 1.0:
        sv_mul(v, scal, SCALE, shrink)  # O(1); shrink 0 (η_tλ ≥ 1) clears w, O(d)
        if ext >= 0:
            scal[tail + SQ_NORM] *= shrink * shrink
            scal[tail + L1_NORM] *= abs(shrink)
            if scal[SCALE] < SKLEARN_RENORM_LOW:
                sv_fold(v, scal, SCALE)
    if rebase:
        scal[AVG_BASE_SCALE] = scal[SCALE]
    if update != 0.0:
        if ext >= 0:
            add_tracking_norms(v, scal, SCALE, tail + SQ_NORM, tail + L1_NORM, update, idx,
                               val)
        else:
            sv_add(v, scal, SCALE, update, idx, val)
        if hp[SGDHP.FIT_INTERCEPT] != 0.0:
            scal[BIAS] += update * decay
    if averaging:
        # v moved by (update/s)·x, s the scale after the shrink (sv_add's divisor).
        average_step(idx, val, vecs[AVG_SUM], scal, AVG, hp, AveragedSGDHP.AVERAGE, update,
                     scal[SCALE], scal[BIAS])
    if rho > 0.0:  # after the averaging, in scikit-learn's order
        scal[tail + U] += rho * eta * lam
        l1_cumulative_penalty(v, vecs[vecs.shape[0] - 1], scal[SCALE], scal[tail + U], idx,
                              val)
    return s, pred, update != 0.0 or shrink != 1.0 or rho > 0.0, objective


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
        # SQUARED as a float: the same signature as the call above, so one compiled round
        return _sgd_round(idx, val, y, vecs, ints, scal, hp, fast, float(SQUARED))
    raise ValueError("unknown SGD rule id")
