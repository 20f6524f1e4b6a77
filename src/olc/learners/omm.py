"""Online Maximum Margin (seed 002: Algorithm 1, §5.1), efficient implementation, ℓ2 norm."""
import warnings

import numpy as np

from .._compiled.rule_ids import EFFICIENT_OMM_L2
from .._compiled.rules.omm import GAMMA, MM, PHASE, PM, PP, SM, SP, Y1
from .base import OnlineLinearClassifier
from .validation import InputError


class NonSeparableWarning(RuntimeWarning):
    """The data seen so far are provably not linearly separable."""


class EfficientOMM(OnlineLinearClassifier):
    """e-OMM: Online Maximum Margin, efficient implementation, ℓ2 norm (seed 002, Alg. 1).

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

    Parameters
    ----------
    rho : float in [0, 1], aggressiveness ρ (default 1: update whenever the margin is below
        the predicted margin γ_t; ρ = 0 is ce-OMM).
    """

    _rule = EFFICIENT_OMM_L2
    _n_vectors = 2

    def __init__(self, rho=1.0):
        self.rho = rho

    def _hyperparameters(self):
        try:
            rho = float(self.rho)
        except (TypeError, ValueError):
            raise InputError(f"rho must be a number in [0, 1], got {self.rho!r}") from None
        if not 0.0 <= rho <= 1.0:
            raise InputError(f"rho must be in [0, 1], got {self.rho!r}")
        return np.array([rho])

    def learn_prepared(self, stream, start=0, stop=None, order=None, out=None, check=None):
        collapsed_before = self._collapsed()
        try:
            return super().learn_prepared(stream, start, stop, order, out, check)
        finally:
            if not collapsed_before and self._collapsed():
                warnings.warn(
                    "e-OMM: the stream is not linearly separable (the certificates v₊ and v₋ "
                    f"coincide after step {self.n_steps_} at the latest, e.g. a point seen "
                    "with both labels); the max-margin classifier is undefined from here on "
                    "and the learner predicts +1 (w = 0, b = 0). OMM assumes separable data.",
                    NonSeparableWarning, stacklevel=2)

    def _collapsed(self):
        return (self._is_initialised() and self._scal[PHASE] == 2.0
                and self._scal[GAMMA] == 0.0)

    @property
    def certificates_(self):
        """(v₊, v₋) — the current dual certificates (zeros for a side not yet seen)."""
        self._check_fitted()
        return self._scal[SP] * self._vecs[0], self._scal[SM] * self._vecs[1]

    @property
    def margin_(self):
        """γ_t = ‖v₊ − v₋‖/2, the predicted margin (0 before both labels were seen)."""
        self._check_fitted()
        return float(self._scal[GAMMA]) if self._scal[PHASE] == 2.0 else 0.0

    def _linear_model(self):
        d = self._vecs.shape[1]
        phase = self._scal[PHASE]
        if phase < 2.0:
            return np.zeros(d), (1.0 if phase == 0.0 else float(self._scal[Y1]))
        v_pos, v_neg = self._scal[SP] * self._vecs[0], self._scal[SM] * self._vecs[1]
        u = v_pos - v_neg
        nu = np.sqrt(max(self._scal[PP] + self._scal[MM] - 2.0 * self._scal[PM], 0.0))
        if nu == 0.0:
            return np.zeros(d), 0.0
        return u / nu, float(-(self._scal[PP] - self._scal[MM]) / (2.0 * nu))
