"""Perceptron and Passive-Aggressive rules on an explicit weight vector ``w = vecs[W]`` and
bias ``b = scal[BIAS]`` (layouts: ``layouts/linear.py``).

``pa_step`` is the one Passive-Aggressive step, parametrized by its loss: the hinge loss here
(classification), the ε-insensitive loss in ``rules/regression.py``."""
import math

from ..caching import jit

from ..kernels import INLINE, LLVM_INLINE, axpy, dot, sign, sqnorm
from ..layouts.linear import (HINGE, PA_EXTENSION, PA_I, PA_II, PERCEPTRON_EXTENSION,
                              LinearScal, LinearVec, SklearnHP)
from ..layouts.linear import PassiveAggressiveHP as PAHP
from ..layouts.linear import PerceptronHP as PHP
from ..rule_ids import PERCEPTRON

BIAS, W = LinearScal.BIAS, LinearVec.W


@jit(inline=INLINE)
def linear_score(idx, val, vecs, ints, scal, hp, fast):
    return dot(vecs[W], idx, val, fast) + scal[BIAS]


@jit(forceinline=LLVM_INLINE)
def row_extension(hp, offset, y):
    """(label, weight, bias decay) of a row under the drop-ins' extension of ``hp``
    (``SklearnHP``, read only when ``hp`` extends past its layout at ``offset``): with row
    weights the label is sign(y) (copysign: −0.0 keeps it for a weight of 0) and the weight
    |y|; otherwise (y, 1, 1), which leave every step's bits as they were (× 1 is exact).
    Compiled once and inlined by LLVM (``kernels.LLVM_INLINE``)."""
    if hp.shape[0] <= offset:
        return y, 1.0, 1.0
    decay = hp[offset + SklearnHP.INTERCEPT_DECAY]
    if hp[offset + SklearnHP.ROW_WEIGHTS] != 0.0:
        return math.copysign(1.0, y), abs(y), decay
    return y, 1.0, decay


@jit(forceinline=LLVM_INLINE)
def perceptron_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Rosenblatt's perceptron (Ho-Nguyen et al. 2025, Example 5.1; Kitani's lecture notes,
    Algorithm 3).

    Default: update when y(w·x + b) ≤ 0. With ``mistake_only``: update only when
    the prediction sign(w·x + b), sign(0) = +1, differs from y, as in the lecture notes.
    """
    s = dot(vecs[W], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0  # overflow: never update on it (the loop stops)
    label, weight, decay = row_extension(hp, PERCEPTRON_EXTENSION, y)
    if hp[PHP.MISTAKE_ONLY] != 0.0:
        upd = pred != label
    else:
        upd = label * s <= 0.0
    if upd:
        step = hp[PHP.ETA] * label * weight
        if step == 0.0 and weight != 1.0:
            return s, pred, False, 0.0  # a weighted step of 0 moves nothing (scikit-learn)
        axpy(step, idx, val, vecs[W])
        if hp[PHP.FIT_INTERCEPT] != 0.0:
            scal[BIAS] += step * decay
    return s, pred, upd, 0.0


@jit(inline=INLINE)
def loss_and_direction(loss, y, s, epsilon):
    """(ℓ, direction of the step) of the PA step's loss at score s.

    HINGE (classification, y = ±1): ℓ = 1 − y·s, direction y.
    EPSILON_INSENSITIVE (regression, y real): ℓ = |r| − ε with r = y − s, direction sign(r).
    Only ℓ > 0 makes a step (the loss is max(0, ℓ))."""
    if loss == HINGE:
        return 1.0 - y * s, y
    r = y - s
    return abs(r) - epsilon, (1.0 if r > 0.0 else -1.0)


@jit(inline=INLINE)
def pa_step(loss, idx, val, y, vecs, ints, scal, hp, fast):
    """One Passive-Aggressive step over a loss: PA, PA-I and PA-II (Crammer et al. 2006,
    Fig. 1 for classification, §4 for regression; the textbook chapter §31.2.1–§31.2.2).

    With ℓ and the direction u from ``loss_and_direction`` and q = ‖x‖² (+1 with
    ``bias_in_norm``): τ = ℓ/q (PA), min(C, ℓ/q) (PA-I), ℓ/(q + κ) (PA-II); then
    w ← w + τu·x and, with a bias, b ← b + τu.

    q = 0: PA and PA-I skip the round (τ would be ℓ/0), as in scikit-learn; PA-II moves the
    bias only (τ = ℓ/κ), or nothing without a bias. A step that would not be finite is
    declined and reported as an overflow (a non-finite score), so the state never holds
    inf/NaN.
    """
    s = dot(vecs[W], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0  # overflow: never update on it (the loop stops)
    label, weight, decay = row_extension(hp, PA_EXTENSION, y)
    ell, direction = loss_and_direction(loss, label, s, hp[PAHP.EPSILON])
    if not ell > 0.0:
        return s, pred, False, 0.0
    q = sqnorm(idx, val)
    if hp[PAHP.BIAS_IN_NORM] != 0.0:
        q += 1.0
    variant = hp[PAHP.VARIANT]
    if variant == PA_II:
        tau = ell / (q + hp[PAHP.KAPPA])
    else:
        if q == 0.0:
            return s, pred, False, 0.0
        tau = ell / q
        if variant == PA_I and tau > hp[PAHP.C]:
            tau = hp[PAHP.C]
    step = tau * direction * weight
    if step == 0.0 and weight != 1.0:
        return s, pred, False, 0.0  # a weighted step of 0 moves nothing (scikit-learn)
    fit_bias = hp[PAHP.FIT_INTERCEPT] != 0.0
    if not (math.isfinite(step * math.sqrt(q)) and math.isfinite(scal[BIAS] + step)):
        return math.inf, pred, False, 0.0
    if q == 0.0 and not fit_bias:
        return s, pred, False, 0.0  # PA-II on x = 0 without a bias: nothing moves
    axpy(step, idx, val, vecs[W])
    if fit_bias:
        scal[BIAS] += step * decay
    return s, pred, True, 0.0


@jit(forceinline=LLVM_INLINE)
def passive_aggressive_step(idx, val, y, vecs, ints, scal, hp, fast):
    """PA, PA-I and PA-II classification: ``pa_step`` over the hinge loss
    ℓ = max(0, 1 − y(w·x + b)) (Crammer et al. 2006, Fig. 1; the textbook chapter §31.2.1
    for PA-II, κ = 1/(2C)).

    Bias convention. PA-I and PA-II follow scikit-learn: the bias takes the step τy but ‖x‖²
    does not count it (parity with ``PassiveAggressiveClassifier``). Classic PA has no
    scikit-learn counterpart, and under that convention its step overshoots the margin by
    1/‖x‖² through the bias, which diverges geometrically on small rows; so PA solves its
    defining problem exactly over (w, b): min ½‖w'−w‖² + ½(b'−b)² s.t. y(w'·x + b') ≥ 1,
    i.e. τ = ℓ/(‖x‖² + 1) (``bias_in_norm`` counts the bias in the norm).
    """
    return pa_step(HINGE, idx, val, y, vecs, ints, scal, hp, fast)


# -- family dispatchers (inlined into the family's loops) ------------------------------------

@jit(inline=INLINE)
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    return linear_score(idx, val, vecs, ints, scal, hp, fast)


@jit(inline=INLINE)
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == PERCEPTRON:
        return perceptron_step(idx, val, y, vecs, ints, scal, hp, fast)
    return passive_aggressive_step(idx, val, y, vecs, ints, scal, hp, fast)
