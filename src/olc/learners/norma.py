"""NORMA (Kivinen, Smola & Williamson, "Online learning with kernels", IEEE Trans. Signal
Processing 52(8), 2004), linear kernel, classification with the soft-margin hinge loss."""
from numbers import Real

from ._framework.constraints import Interval, StrOptions

from .._compiled.layouts.regularized import (
    NORMA_LAYOUT,
    SCHEDULE_CONSTANT,
    SCHEDULE_SQRT,
    NormaScal,
    NormaVec,
)
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier
from ._framework.validation import InputError

_SCHEDULES = {"constant": SCHEDULE_CONSTANT, "sqrt": SCHEDULE_SQRT}


class NORMA(OnlineLinearClassifier):
    """NORMA: stochastic gradient descent on the regularized risk
    λ/2‖w‖² + max(0, ρ − y(w·x + b)), linear version (the baseline of Shen & Dietterich, §4).

    Each round t = 1, 2, ...: predict sign(w·x + b); σ_t = 1 if y(w·x + b) < ρ, else 0; then
    w ← (1 − η_t·λ)·w + η_t·σ_t·y·x and b ← b + η_t·σ_t·y (the bias is not regularized, as in
    the paper's classification update). The shrink (1 − η_t·λ) is applied on every round (it
    is the regularizer's gradient) in O(1): w = S·v. ``updated`` reports σ_t.

    This is the fixed-margin version: the paper's ν-variant, which also adapts ρ, is not
    implemented. With ρ = 0 the strict test y·f < 0 never fires at the zero start (f = 0), so
    the learner stays at w = 0, b = 0 — as the paper's σ_t defines it.

    Parameters
    ----------
    eta : float > 0, step size η (default 0.1).
    lam : float ≥ 0, regularization λ (default 0.01; named ``lam`` because a trailing
        underscore marks fitted attributes in scikit-learn). η·λ < 1 is required (the shrink
        factor must stay positive; η_t ≤ η for both schedules).
    rho : float ≥ 0, margin ρ of the loss (default 1).
    schedule : {"constant", "sqrt"}, η_t = η or η_t = η/√t (default "constant", the tracking
        setting of the paper's drifting-target analysis; "sqrt" is its convergence setting).
    fit_intercept : bool, learn the unregularized bias b (default True).
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = NORMA_LAYOUT
    _parameter_constraints = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "lam": [Interval(Real, 0, None, closed="left")],
        "rho": [Interval(Real, 0, None, closed="left")],
        "schedule": [StrOptions(set(_SCHEDULES))],
        "fit_intercept": ["boolean"],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, eta=0.1, lam=0.01, rho=1.0, schedule="constant", fit_intercept=True,
                 n_jobs=None):
        self.n_jobs = n_jobs
        self.eta = eta
        self.lam = lam
        self.rho = rho
        self.schedule = schedule
        self.fit_intercept = fit_intercept

    def _check_params(self):
        if not self.eta * self.lam < 1.0:
            raise InputError(f"eta * lam must be < 1 (the shrink factor 1 − ηλ must stay "
                             f"positive), got eta={self.eta!r}, lam={self.lam!r}")

    def _hp_values(self):
        return {"eta": self.eta, "lam": self.lam, "rho": self.rho,
                "schedule": _SCHEDULES[self.schedule], "fit_intercept": self.fit_intercept}

    def _initial_state(self, n_features):
        vecs, _, scal = self._layout.initial_state(n_features)
        scal[NormaScal.SCALE] = 1.0
        return vecs, scal

    def _linear_model(self):
        return (self._scal[NormaScal.SCALE] * self._vecs[NormaVec.V],
                float(self._scal[NormaScal.BIAS]))


