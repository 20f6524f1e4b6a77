"""Perceptron and Passive-Aggressive rules on an explicit weight vector ``w = vecs[W]`` and
bias ``b = scal[BIAS]`` (layouts: ``layouts/linear.py``).

``pa_step`` is the one Passive-Aggressive step, parametrized by its loss: the hinge loss here
(classification), the ε-insensitive loss in ``rules/regression.py``.

Averaging (``average=``): when the state holds the averaging rows (layouts
``*_AVERAGED_LAYOUT``), each step also accounts its iterate in the lazy sum
(``averaging.average_step``, O(nnz(x))) and the score is the averaged model's; the update
itself is unchanged, as in scikit-learn's averaged SGD. (The averaging sits in the step
functions themselves, not in a wrapper around an IR-inlined round: nested IR inlining had
doubled the family's compile time.)"""
import math

from ..caching import jit

from ..kernels.averaging import average_step, averaged_score
from ..kernels.vector import INLINE, LLVM_INLINE, axpy, dot, sign, sqnorm
from ..layouts.averaging import AveragingScal
from ..layouts.linear import AveragedLinearScal, AveragedLinearVec
from ..layouts.linear import AveragedPassiveAggressiveHP as AvgPAHP
from ..layouts.linear import AveragedPerceptronHP as AvgPHP
from ..layouts.linear import (HINGE, PA_EXTENSION, PA_I, PA_II, PERCEPTRON_EXTENSION,
                              LinearScal, LinearVec, SklearnHP)
from ..layouts.linear import PassiveAggressiveHP as PAHP
from ..layouts.linear import PerceptronHP as PHP
from ..rule_ids import PERCEPTRON

BIAS, W = LinearScal.BIAS, LinearVec.W
AVG_SUM, AVG = AveragedLinearVec.AVG_SUM, AveragedLinearScal.AVG_ROWS
AVG_COUNT = AveragingScal.COUNT
# The drop-ins' fields (SklearnHP) follow the learner's own hyper-parameters, ``average``
# included when the learner averages.
AVG_PERCEPTRON_EXTENSION, AVG_PA_EXTENSION = len(AvgPHP), len(AvgPAHP)


@jit(inline=INLINE)
def linear_score(idx, val, vecs, ints, scal, hp, fast):
    if vecs.shape[0] > AVG_SUM and scal[AVG + AVG_COUNT] > 0.0:  # averaging has begun
        return averaged_score(vecs[AVG_SUM], vecs[W], idx, val, scal, AVG, fast)
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
    Then, when the state has it, the averaging of the iterate (``averaging.average_step``).
    """
    s = dot(vecs[W], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0  # overflow: never update on it (the loop stops)
    averaging = vecs.shape[0] > AVG_SUM
    label, weight, decay = row_extension(
        hp, AVG_PERCEPTRON_EXTENSION if averaging else PERCEPTRON_EXTENSION, y)
    if hp[PHP.MISTAKE_ONLY] != 0.0:
        upd = pred != label
    else:
        upd = label * s <= 0.0
    c = 0.0
    if upd:
        c = hp[PHP.ETA] * label * weight
        if c == 0.0 and weight != 1.0:
            upd = False  # a weighted step of 0 moves nothing (scikit-learn)
        else:
            axpy(c, idx, val, vecs[W])
            if hp[PHP.FIT_INTERCEPT] != 0.0:
                scal[BIAS] += c * decay
    if averaging:  # the state has the sum row: a call (every row is an iterate)
        average_step(idx, val, vecs[AVG_SUM], scal, AVG, hp, AvgPHP.AVERAGE, c, 1.0,
                     scal[BIAS])
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
    inf/NaN. Every round that is learned (finite score, not declined) is then averaged
    when the state has it (one exit, so one call).
    """
    s = dot(vecs[W], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0  # overflow: never update on it (the loop stops)
    averaging = vecs.shape[0] > AVG_SUM
    label, weight, decay = row_extension(hp, AVG_PA_EXTENSION if averaging else PA_EXTENSION, y)
    ell, direction = loss_and_direction(loss, label, s, hp[PAHP.EPSILON])
    step = 0.0  # what w moved by (times x)
    moved = False
    if ell > 0.0:
        q = sqnorm(idx, val)
        if hp[PAHP.BIAS_IN_NORM] != 0.0:
            q += 1.0
        variant = hp[PAHP.VARIANT]
        if variant == PA_II:
            tau = ell / (q + hp[PAHP.KAPPA])
        elif q != 0.0:
            tau = ell / q
            if variant == PA_I and tau > hp[PAHP.C]:
                tau = hp[PAHP.C]
        else:
            tau = 0.0
        if variant == PA_II or q != 0.0:
            step = tau * direction * weight
            fit_bias = hp[PAHP.FIT_INTERCEPT] != 0.0
            if not (math.isfinite(step * math.sqrt(q)) and math.isfinite(scal[BIAS] + step)):
                return math.inf, pred, False, 0.0
            if (q == 0.0 and not fit_bias) or (step == 0.0 and weight != 1.0):
                # PA-II on x = 0 without a bias, or a weighted step of 0 (scikit-learn):
                # nothing moves
                step = 0.0
            else:
                axpy(step, idx, val, vecs[W])
                if fit_bias:
                    scal[BIAS] += step * decay
                moved = True
    if averaging:  # the state has the sum row: a call (every row is an iterate)
        average_step(idx, val, vecs[AVG_SUM], scal, AVG, hp, AvgPAHP.AVERAGE, step, 1.0,
                     scal[BIAS])
    return s, pred, moved, 0.0


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
