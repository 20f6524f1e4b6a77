"""Perceptron and Passive-Aggressive rules on an explicit weight vector ``w = vecs[0]``.

Scalar slots: ``scal[0]`` = bias b.
"""
import math

import numba as nb

from ..kernels import INLINE, axpy, dot, sign, sqnorm

BIAS = 0

# hp layout -------------------------------------------------------------------------------
# perceptron: [eta, fit_intercept, mistake_only]
# passive-aggressive: [C, fit_intercept, variant, bias_in_norm]  (variant 0 = PA, 1 = PA-I, 2 = PA-II)
PA_CLASSIC, PA_I, PA_II = 0, 1, 2


@nb.njit(cache=True, inline=INLINE)
def linear_score(idx, val, vecs, scal, hp, fast):
    return dot(vecs[0], idx, val, fast) + scal[BIAS]


@nb.njit(cache=True, inline=INLINE)
def perceptron_step(idx, val, y, vecs, scal, hp, fast):
    """Rosenblatt's perceptron (seed 002 Example 5.1; seed 001 Alg. 3).

    Default: update when y(w·x + b) ≤ 0. With ``mistake_only`` (hp[2] = 1): update only when
    the prediction sign(w·x + b), sign(0) = +1, differs from y, as in the lecture notes.
    """
    s = dot(vecs[0], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0  # overflow: never update on it (the loop stops)
    if hp[2] != 0.0:
        upd = pred != y
    else:
        upd = y * s <= 0.0
    if upd:
        eta = hp[0]
        axpy(eta * y, idx, val, vecs[0])
        if hp[1] != 0.0:
            scal[BIAS] += eta * y
    return s, pred, upd, 0.0


@nb.njit(cache=True, inline=INLINE)
def passive_aggressive_step(idx, val, y, vecs, scal, hp, fast):
    """PA, PA-I and PA-II (Crammer et al. 2006, Fig. 1; seed 004 §31.2.1 for PA-II).

    τ = ℓ/‖x‖² (PA), min(C, ℓ/‖x‖²) (PA-I), ℓ/(‖x‖² + 1/(2C)) (PA-II), ℓ = max(0, 1 − y(w·x+b)),
    then w ← w + τy·x and, with a bias, b ← b + τy.

    Bias convention. PA-I and PA-II follow scikit-learn: the bias takes the step τy but ‖x‖²
    does not count it (parity with ``PassiveAggressiveClassifier``). Classic PA has no
    scikit-learn counterpart, and under that convention its step overshoots the margin by
    1/‖x‖² through the bias, which diverges geometrically on small rows; so PA solves its
    defining problem exactly over (w, b): min ½‖w'−w‖² + ½(b'−b)² s.t. y(w'·x + b') ≥ 1,
    i.e. τ = ℓ/(‖x‖² + 1) (hp[3] = 1 counts the bias in the norm).

    x = 0 without a bias: PA and PA-I skip the round (τ would be ℓ/0), as in scikit-learn;
    PA-II moves the bias only (τ = 2Cℓ). A step that would not be finite is declined and
    reported as an overflow (a non-finite score), so the state never holds inf/NaN.
    """
    s = dot(vecs[0], idx, val, fast) + scal[BIAS]
    pred = sign(s)
    loss = 1.0 - y * s
    if loss <= 0.0 or not math.isfinite(s):
        return s, pred, False, 0.0
    sq = sqnorm(idx, val)
    if hp[3] != 0.0:
        sq += 1.0
    variant = hp[2]
    if variant == PA_II:
        tau = loss / (sq + 0.5 / hp[0])
    else:
        if sq == 0.0:
            return s, pred, False, 0.0
        tau = loss / sq
        if variant == PA_I and tau > hp[0]:
            tau = hp[0]
    step = tau * y
    fit_bias = hp[1] != 0.0
    if not (math.isfinite(step * math.sqrt(sq)) and math.isfinite(scal[BIAS] + step)):
        return math.inf, pred, False, 0.0
    if sq == 0.0 and not fit_bias:
        return s, pred, False, 0.0  # PA-II on x = 0 without a bias: nothing moves
    axpy(step, idx, val, vecs[0])
    if fit_bias:
        scal[BIAS] += step
    return s, pred, True, 0.0
