"""Online Maximum Margin (Ho-Nguyen et al. 2025, Algorithm 1 and §5.1), efficient
implementation, ℓ2 norm."""
import warnings
from numbers import Real

import numpy as np
from ._framework.constraints import Interval

from .._compiled.layouts.omm import (
    EFFICIENT_OMM_LAYOUT,
    PHASE_EMPTY,
    PHASE_MARGIN,
    OmmScal,
    OmmVec,
)
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier

#: ρ ∈ [0, 1] (Algorithm 1's input), shared by every OMM learner.
RHO_CONSTRAINT = [Interval(Real, 0, 1, closed="both")]


class NonSeparableWarning(RuntimeWarning):
    """The data seen so far are provably not linearly separable."""


class CollapseWarningMixin:
    """Warn once when the stream proves non-separable (γ drops to 0 during a call). The
    learner says where its phase and margin are (``_phase_slot``, ``_gamma_slot``)."""

    _algorithm_label = "OMM"
    _phase_slot = _gamma_slot = None

    def _before_learning(self):
        return self._collapsed()

    def _after_learning(self, collapsed_before):
        # stacklevel 3: the warning points at the caller of learn_prepared
        if not collapsed_before and self._collapsed():
            warnings.warn(
                f"{self._algorithm_label}: the stream is not linearly separable (the "
                f"certificates v₊ and v₋ coincide after step {self.n_steps_} at the latest, "
                "e.g. a point seen with both labels); the max-margin classifier is "
                "undefined from here on and the learner predicts +1 (w = 0, b = 0). OMM "
                "assumes separable data.", NonSeparableWarning, stacklevel=3)

    def _collapsed(self):
        if self._is_initialised() and self._is_multiclass():  # any class's learner
            return any(self._class_learner(c)._collapsed() for c in range(len(self.classes_)))
        return (self._is_initialised() and self._scal[self._phase_slot] == PHASE_MARGIN
                and self._scal[self._gamma_slot] == 0.0)

    def _constant_classifier(self, d, y1_slot):
        """(w, b) of the first rounds (Algorithm 1, lines 2–13): +1, then y₁."""
        phase = self._scal[self._phase_slot]
        return np.zeros(d), (1.0 if phase == PHASE_EMPTY else float(self._scal[y1_slot]))


class EfficientOMM(CollapseWarningMixin, OnlineLinearClassifier):
    """e-OMM: Online Maximum Margin, efficient implementation, ℓ2 norm (Ho-Nguyen et al.
    2025, Algorithm 1).

    Keeps two dual certificates v₊ ∈ conv(V₊), v₋ ∈ conv(V₋) (Lemma 3.1). The classifier is
    w = (v₊ − v₋)/‖v₊ − v₋‖, b = −½ w·(v₊ + v₋), with predicted margin γ = ‖v₊ − v₋‖/2.
    When a_t = y(w·x + b) < ρ·γ_t (line 18) the max-margin problem on the three points
    {v₊, v₋, x_t} is solved in closed form (§5.1, β* of Eq. 7) and the certificate of x_t's
    label moves to (1−β*)v + β*x_t — O(nnz(x)) per update (scale × vector storage).

    Initialization (lines 2–13): predict +1 on the first example, then y₁ until the first
    example of the other label arrives; the decision values recorded in that phase are the
    constant classifier's (w = 0, b = +1, then b = y₁).

    Decisions where the paper is silent:
    - ρ = 0 updates on every mistake, including a_t = 0 with y = −1 (sign(0) = +1 is wrong,
      yet a_t < 0 fails); see the compiled rule's docstring.
    - A zero vector x is an ordinary point (the origin); the algorithm is translation
      invariant, so the origin has no special role.
    - If the certificates coincide (a point seen with both labels: not separable), w is
      undefined; the classifier becomes w = 0, b = 0 (predicts +1) and stays so.
    - Scale: the state is kept in units of a power of two fixed by the first nonzero row
      (the data's own units unless that row is beyond 2^±450), so data scaled by any 2^k
      (|k| ≤ 1000) give the same predictions (the products ‖v‖², v·x would otherwise
      overflow or underflow from |k| ≈ 511).
    - A row whose products v₊·x and v₋·x are beyond the range although the score is not
      (or is ±inf) is scored from u = v₊ − v₋ with powers-of-two scaling: the exact score,
      or ±inf with its sign, never inf − inf = NaN. Such a row is learned past when it needs
      no update; one that needs an update stops the stream with an overflow error naming it.

    Parameters
    ----------
    rho : float in [0, 1], aggressiveness ρ (default 1: update whenever the margin is below
        the predicted margin γ_t; ρ = 0 is ce-OMM).
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = EFFICIENT_OMM_LAYOUT
    _parameter_constraints = {"rho": RHO_CONSTRAINT, "n_jobs": N_JOBS_CONSTRAINT}
    _phase_slot, _gamma_slot = OmmScal.PHASE, OmmScal.GAMMA

    def __init__(self, rho=1.0, n_jobs=None):
        self.n_jobs = n_jobs
        self.rho = rho

    def _hp_values(self):
        return {"rho": self.rho}

    def _unit(self):
        """The state's unit 2^−E (1 while no nonzero row fixed it: the state is then zero)."""
        return float(self._scal[OmmScal.UNIT]) or 1.0

    @property
    def certificates_(self):
        """(v₊, v₋) — the current dual certificates (zeros for a side not yet seen)."""
        self._check_fitted()
        unit = self._unit()
        return (self._scal[OmmScal.SP] * self._vecs[OmmVec.VPOS] / unit,
                self._scal[OmmScal.SM] * self._vecs[OmmVec.VNEG] / unit)

    @property
    def margin_(self):
        """γ_t = ‖v₊ − v₋‖/2, the predicted margin (0 before both labels were seen)."""
        self._check_fitted()
        if self._scal[OmmScal.PHASE] != PHASE_MARGIN:
            return 0.0
        return float(self._scal[OmmScal.GAMMA]) / self._unit()

    def _linear_model(self):
        d = self._vecs.shape[1]
        if self._scal[OmmScal.PHASE] != PHASE_MARGIN:
            return self._constant_classifier(d, OmmScal.Y1)
        scal, vecs = self._scal, self._vecs
        # In units: u and ‖u‖ carry the same power of two (w is unit-free), b carries one.
        u = scal[OmmScal.SP] * vecs[OmmVec.VPOS] - scal[OmmScal.SM] * vecs[OmmVec.VNEG]
        nu = np.sqrt(max(scal[OmmScal.PP] + scal[OmmScal.MM] - 2.0 * scal[OmmScal.PM], 0.0))
        if nu == 0.0:
            return np.zeros(d), 0.0
        b = -(scal[OmmScal.PP] - scal[OmmScal.MM]) / (2.0 * nu) / self._unit()
        return u / nu, float(b)


