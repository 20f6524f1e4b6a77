"""Regularized large-margin rules (family ``regularized``; layouts: ``layouts/regularized.py``):
Shen & Dietterich's objective-regularized and norm-constrained Passive-Aggressive updates
(§3) and linear NORMA (Kivinen, Smola & Williamson 2004).

Rule ids (``rule_ids.py``):
  10  objective-regularized PA (α), Shen & Dietterich problem (3.1), Lemma 3.1 (here)
  11  L2-norm-constrained PA (β), problem (3.9), Lemma 3.2 (here)
  12  L1-norm-constrained PA (β), problem (3.10), exact L1-ball step (``l1_ball.py``)
  13  NORMA, hinge loss with fixed margin ρ (``norma.py``)

Rules 10–12 share their state (w̃ = (w, b) as a scaled vector with a tracked support, and its
tracked norm): ``shen_dietterich.py``. w̃ is the weight vector with the bias as the weight of
an appended constant feature 1 when ``fit_intercept``; b stays 0 otherwise.
"""
import math

from ..caching import jit
from ..kernels.vector import INLINE, sqnorm
from ..layouts.regularized import BallPaHP, ObjectivePaHP
from ..rule_ids import L1_CONSTRAINED_PA, L2_CONSTRAINED_PA, NORMA, OBJECTIVE_PA
from .l1_ball import l1_pa_step
from .norma import norma_score, norma_step
from .shen_dietterich import (
    BALL_RTOL,
    EPS,
    ERR,
    NORM,
    S,
    exact_norm,
    remove_small,
    rescale,
    reset_to_x,
    scaled_step,
    sd_round,
    sd_score,
    track_sq,
)


# -- rule 10: objective-regularized PA -------------------------------------------------------

@jit(inline=INLINE)
def objective_pa_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Problem (3.1): w_{t+1} = argmin ½‖w − w_t‖² + (α/2)‖w‖² s.t. y(w·x) ≥ 1.

    Exact solution for any w_t (Lemma 3.1 gives it when the margin constraint is active):
    w_{t+1} = (w_t + τ·y·x)/(1 + α), τ = max(0, 1 + α − y·w_t·x)/‖x‖² — equal to the lemma's
    (ℓ + α)/‖x‖² whenever y·w_t·x ≤ 1. x = 0 (no bias): the problem is infeasible, the round is
    skipped (no update)."""
    update = hp[ObjectivePaHP.UPDATE]
    s, pred, m, solve = sd_round(idx, val, y, vecs, ints, scal, hp, fast, update)
    if not solve:
        return s, pred, False, 0.0
    bias = hp[ObjectivePaHP.FIT_INTERCEPT] != 0.0
    a = sqnorm(idx, val) + (1.0 if bias else 0.0)
    if not math.isfinite(a):
        return math.inf, pred, False, 0.0
    if a == 0.0:
        return s, pred, False, 0.0  # x = 0 without a bias: (3.1) is infeasible
    alpha = hp[ObjectivePaHP.ALPHA]
    shrink = 1.0 + alpha
    num = 1.0 + alpha - m
    if num < 0.0:
        num = 0.0
    tau = num / a
    tau2a = tau * num  # τ²‖x‖², without forming τ² (τ reaches 1e300 on tiny rows)
    step_norm = tau * math.sqrt(a)
    w_sq = scal[NORM]
    new_sq = (w_sq + 2.0 * tau * m + tau2a) / (shrink * shrink)
    if not (math.isfinite(new_sq) and math.isfinite(step_norm)):
        return math.inf, pred, False, 0.0
    if new_sq < 0.0:
        new_sq = 0.0
    scaled_step(idx, val, vecs, ints, scal, tau * y, bias, shrink)
    track_sq(vecs, ints, scal, new_sq, w_sq, tau, m, tau2a, step_norm, val.shape[0], shrink)
    if hp[ObjectivePaHP.SIGMA] > 0.0:
        remove_small(vecs, ints, scal, hp[ObjectivePaHP.SIGMA], False)
    return s, pred, True, 0.0


# -- rule 11: L2-norm-constrained PA ---------------------------------------------------------

@jit(inline=INLINE)
def l2_pa_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Problem (3.9): w_{t+1} = argmin ½‖w − w_t‖² s.t. y(w·x) ≥ 1 and ‖w‖ ≤ β, solved exactly
    as the projection of w_t onto the intersection of the half-space and the ball:

    1. the PA step w_t + τ₁·y·x, τ₁ = max(0, 1 − m)/‖x‖², if it lies in the ball (Z = 1);
    2. else, if ‖w_t‖ > β (only after β was lowered), the ball projection w_t·β/‖w_t‖ if it
       has margin ≥ 1;
    3. else both constraints are active: Lemma 3.2, Z = √((‖w_t‖²‖x‖² − m²)/(β²‖x‖² − 1)),
       τ = (Z − m)/‖x‖² (= (ℓ + Z − 1)/‖x‖²), w_{t+1} = (w_t + τ·y·x)/Z;
       β²‖x‖² = 1: the feasible set is the single point y·x/‖x‖², which becomes w;
       β²‖x‖² < 1: infeasible, the round is skipped (no update).
    """
    update = hp[BallPaHP.UPDATE]
    s, pred, m, solve = sd_round(idx, val, y, vecs, ints, scal, hp, fast, update)
    if not solve:
        return s, pred, False, 0.0
    bias = hp[BallPaHP.FIT_INTERCEPT] != 0.0
    a = sqnorm(idx, val) + (1.0 if bias else 0.0)
    if not math.isfinite(a):
        return math.inf, pred, False, 0.0
    if a == 0.0:
        return s, pred, False, 0.0  # x = 0 without a bias: infeasible
    beta = hp[BallPaHP.BETA]
    b2 = beta * beta
    w_sq = scal[NORM]
    if m >= 1.0 and w_sq <= b2 * (1.0 + BALL_RTOL):
        return s, pred, False, 0.0  # w_t is feasible: nothing to do
    ell = 1.0 - m if m < 1.0 else 0.0  # hinge loss ℓ
    tau1 = ell / a
    wh_sq = w_sq + 2.0 * tau1 * m + tau1 * ell  # ‖w_t + τ₁·y·x‖²
    if not (math.isfinite(wh_sq) and math.isfinite(tau1 * math.sqrt(a))):
        return math.inf, pred, False, 0.0
    if wh_sq <= b2 and tau1 > 0.0:
        scaled_step(idx, val, vecs, ints, scal, tau1 * y, bias, 1.0)
        track_sq(vecs, ints, scal, max(wh_sq, 0.0), w_sq, tau1, m, tau1 * ell,
                 tau1 * math.sqrt(a), val.shape[0], 1.0)
    elif w_sq > b2 and m * beta >= math.sqrt(w_sq):
        # The ball projection alone has margin ≥ 1 (w_t outside the ball: β was lowered).
        rescale(vecs, ints, scal, scal[S] * (beta / math.sqrt(w_sq)))
        scal[NORM] = b2
        scal[ERR] = 4.0 * EPS * b2
    else:
        den = b2 * a - 1.0
        if den < 0.0:
            return s, pred, False, 0.0  # β‖x‖ < 1: (3.9) is infeasible
        num = w_sq * a - m * m  # ‖x‖²·‖w_⊥‖², w_⊥ the part of w_t orthogonal to x
        if den == 0.0:
            z = math.inf
        elif num <= 0.0:
            z = 1.0  # rounding: w_t ∥ x, then the PA step is already (nearly) in the ball
        else:
            z = math.sqrt(num / den)
        if z < 1.0:
            z = 1.0
        if not math.isfinite(z):
            # β‖x‖ = 1 (or Z overflows): the single feasible point y·x/‖x‖².
            reset_to_x(idx, val, vecs, ints, scal, y / a, bias)
            exact_norm(vecs, ints, scal, False)
        else:
            num = z - m  # = ℓ + Z − 1 of Lemma 3.2 (m < 1)
            if num < 0.0:
                num = 0.0
            tau = num / a
            step_norm = tau * math.sqrt(a)
            if not math.isfinite(step_norm):
                return math.inf, pred, False, 0.0
            scaled_step(idx, val, vecs, ints, scal, tau * y, bias, z)
            new_sq = b2 if z > 1.0 else max(wh_sq, 0.0)
            track_sq(vecs, ints, scal, new_sq, w_sq, tau, m, tau * num, step_norm, val.shape[0],
                     z)
    if hp[BallPaHP.SIGMA] > 0.0:
        remove_small(vecs, ints, scal, hp[BallPaHP.SIGMA], False)
    return s, pred, True, 0.0


# -- family dispatchers ----------------------------------------------------------------------

@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == OBJECTIVE_PA:
        return objective_pa_step(idx, val, y, vecs, ints, scal, hp, fast)
    if rule == L2_CONSTRAINED_PA:
        return l2_pa_step(idx, val, y, vecs, ints, scal, hp, fast)
    if rule == L1_CONSTRAINED_PA:
        return l1_pa_step(idx, val, y, vecs, ints, scal, hp, fast)
    return norma_step(idx, val, y, vecs, ints, scal, hp, fast)


@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == NORMA:
        return norma_score(idx, val, vecs, ints, scal, hp, fast)
    return sd_score(idx, val, vecs, ints, scal, hp, fast)
