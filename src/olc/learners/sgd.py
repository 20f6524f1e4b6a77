"""Stochastic gradient descent for linear classification and regression (the textbook
chapter §31.1)."""
from numbers import Real

from ._framework.constraints import Interval, StrOptions

from .._compiled.layouts.sgd import (
    CONSTANT,
    HINGE,
    INV_SQRT_T,
    INV_T,
    LOGISTIC,
    PERCEPTRON,
    SGD_AVERAGED_LAYOUT,
    SGD_LAYOUT,
    SGD_REGRESSION_AVERAGED_LAYOUT,
    SGD_REGRESSION_LAYOUT,
    SQUARED,
    SQUARED_HINGE,
    SGDScal,
    SGDVec,
)
from ._framework.averaging import AVERAGE_CONSTRAINT, AveragingMixin, LayoutChoice
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier
from ._framework.regressor import OnlineLinearRegressor

SCHEDULES = {"constant": CONSTANT, "1/t": INV_T, "1/sqrt(t)": INV_SQRT_T}
LOSSES = {"hinge": HINGE, "logistic": LOGISTIC, "squared_hinge": SQUARED_HINGE,
          "perceptron": PERCEPTRON}

_SGD_CONSTRAINTS = {
    "eta0": [Interval(Real, 0, None, closed="neither")],
    "schedule": [StrOptions(set(SCHEDULES))],
    "lam": [Interval(Real, 0, None, closed="left")],
    "fit_intercept": ["boolean"],
    "average": AVERAGE_CONSTRAINT,
}


class _SGDState:
    """w = scale × vector (the L2 shrink is O(1)); bias and step counter in scal."""

    def _sgd_hp_values(self, loss):
        return {"eta0": self.eta0, "schedule": SCHEDULES[self.schedule], "lam": self.lam,
                "loss": loss, "fit_intercept": self.fit_intercept}

    def _initial_state(self, n_features):
        vecs, scal = super()._initial_state(n_features)
        scal[SGDScal.SCALE] = 1.0
        return vecs, scal

    def _linear_model(self):
        return (self._scal[SGDScal.SCALE] * self._vecs[SGDVec.V],
                float(self._scal[SGDScal.BIAS]))


_COMMON = """
    Round t = 1, 2, … (every row the learner processes, over its lifetime; ``fit`` restarts
    at 1), with s = w·x + b computed before the update and ℓ'(s) = ∂ℓ/∂s:

        w ← (1 − η_tλ)·w − η_t·ℓ'(s)·x,     b ← b − η_t·ℓ'(s),

    the gradient step θ ← θ − ε∇J(θ) of the textbook chapter's §31.1 on
    J = ℓ(y, w·x + b) + (λ/2)‖w‖², taken at the current (w, b). Update order: w is first
    shrunk by (1 − η_tλ), then −η_tℓ'(s)·x is added unshrunk (both terms are gradients at
    the old w; shrinking after the add would instead give (1 − η_tλ)(w − η_tℓ'x), which is
    not a gradient step). This is scikit-learn's order, which makes the arithmetic
    identical. The bias takes the same step −η_tℓ'(s) and is not penalised. When η_tλ ≥ 1
    the shrink factor is clamped at 0 (w is reset before the gradient step), as in
    scikit-learn. Step sizes (``schedule``):
    ``"constant"`` η_t = η₀, ``"1/t"`` η_t = η₀/t, ``"1/sqrt(t)"`` η_t = η₀/√t.

    w is stored as scale × vector, so the shrink costs O(1) and a round O(nnz(x)).

    ``average`` (bool or int ≥ 1, default False): averaged SGD — predict with the mean of the
    iterates from that row on (``olc.learners._framework.averaging``), scikit-learn's
    ``average``; the steps still follow the current weights.
"""


class SGD(AveragingMixin, _SGDState, OnlineLinearClassifier):
    __doc__ = """Stochastic gradient descent for binary classification (y ∈ {−1, +1}).
""" + _COMMON + """
    Losses (z = y·s): ``"hinge"`` max(0, 1 − z), ℓ' = −y when z < 1 (0 at the kink z = 1);
    ``"logistic"`` log(1 + e^{−z}), ℓ' = −y/(1 + e^{z}) (computed without overflow);
    ``"squared_hinge"`` ½·max(0, 1 − z)², ℓ' = −y(1 − z) when z < 1 — with the chapter's
    factor ½ (§31.2.1), i.e. scikit-learn's ``squared_hinge`` with eta0/2 and alpha = 2λ;
    ``"perceptron"`` max(0, −z), ℓ' = −y when z ≤ 0 (scikit-learn's ``Hinge(0)``, the loss of
    its ``Perceptron``: with ``schedule="constant"`` the perceptron update η₀·y·x on
    mistakes and ties, plus the shrink).

    With ``schedule="constant"`` or ``"1/t"`` this is scikit-learn's
    ``SGDClassifier(learning_rate="constant"/"invscaling" (power_t=1), penalty="l2"/None,
    alpha=λ, shuffle=False)`` trained by ``partial_fit`` on dense data, bit for bit in
    ``olc.strict_mode()`` (hinge and squared hinge; logistic agrees to rounding: scikit-learn
    evaluates the same derivative with another formula) as long as scikit-learn's weight
    scale stays above its 1e-9 renormalisation threshold. scikit-learn updates at the hinge
    kink z = 1 and olc does not — a tie that continuous data do not produce.

    Parameters
    ----------
    eta0 : float > 0, η₀ (default 1).
    schedule : {"constant", "1/t", "1/sqrt(t)"} (default "1/sqrt(t)").
    loss : {"hinge", "logistic", "squared_hinge", "perceptron"} (default "hinge").
    lam : float ≥ 0, L2 penalty λ (default 0: none).
    fit_intercept : bool (default True).
    average : bool or int ≥ 1 (default False).
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
"""

    _layout = LayoutChoice(SGD_LAYOUT, SGD_AVERAGED_LAYOUT)
    _parameter_constraints = {**_SGD_CONSTRAINTS, "loss": [StrOptions(set(LOSSES))],
                              "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, eta0=1.0, schedule="1/sqrt(t)", loss="hinge", lam=0.0,
                 fit_intercept=True, average=False, n_jobs=None):
        self.n_jobs = n_jobs
        self.eta0 = eta0
        self.schedule = schedule
        self.loss = loss
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.average = average

    def _hp_values(self):
        return self._sgd_hp_values(LOSSES[self.loss])


class SGDRegression(AveragingMixin, _SGDState, OnlineLinearRegressor):
    __doc__ = """Stochastic gradient descent for linear regression with the squared loss
    J = ½(y − w·x − b)² of §31.1 (ℓ'(s) = s − y), i.e. w ← w + η_t·r·x with r = y − ŷ.
""" + _COMMON + """
    With ``schedule="constant"`` or ``"1/t"`` this is scikit-learn's
    ``SGDRegressor(loss="squared_error", learning_rate="constant"/"invscaling" (power_t=1),
    penalty="l2"/None, alpha=λ, shuffle=False)`` trained by ``partial_fit`` on dense data,
    bit for bit in ``olc.strict_mode()`` (scikit-learn clips |ℓ'| at 1e12; olc does not).

    Stability: with the squared loss a step is stable only if η_t‖x‖² < 2; larger steps
    diverge geometrically (the math, not rounding) and end in an overflow error. Scale X or
    lower η₀.

    Parameters
    ----------
    eta0 : float > 0, η₀ (default 0.01).
    schedule : {"constant", "1/t", "1/sqrt(t)"} (default "1/sqrt(t)").
    lam : float ≥ 0, L2 penalty λ (default 0: none).
    fit_intercept : bool (default True).
    average : bool or int ≥ 1 (default False).
"""

    _layout = LayoutChoice(SGD_REGRESSION_LAYOUT, SGD_REGRESSION_AVERAGED_LAYOUT)
    _parameter_constraints = _SGD_CONSTRAINTS

    def __init__(self, eta0=0.01, schedule="1/sqrt(t)", lam=0.0, fit_intercept=True,
                 average=False):
        self.eta0 = eta0
        self.schedule = schedule
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.average = average

    def _hp_values(self):
        return self._sgd_hp_values(SQUARED)
