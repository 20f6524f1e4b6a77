"""The Perceptron (Rosenblatt 1958)."""
import numpy as np

from .._compiled.dispatch import PERCEPTRON
from .base import OnlineLinearClassifier, positive_float
from .registry import register
from .validation import InputError


@register("perceptron", "Perceptron: w ← w + η·y·x when y(w·x + b) ≤ 0",
          "seed 002 Example 5.1 (update rule); seed 001 Algorithm 3 (mistake-only variant)")
class Perceptron(OnlineLinearClassifier):
    """Rosenblatt's perceptron.

    Update ``w ← w + η·y·x`` (and ``b ← b + η·y`` when ``fit_intercept``) whenever
    ``y(w·x + b) ≤ 0`` — the rule of seed 002, Example 5.1 (``w_{t+1} = w_t + y_t x_t`` when
    ``y_t w_tᵀx_t ≤ 0``), which also updates at a zero score. With
    ``update="mistake"`` the update happens only when the prediction sign(w·x + b)
    (sign(0) = +1) differs from y, as in the lecture notes (seed 001, Algorithm 3, line 7);
    the two differ only at a zero score with y = +1, where the lecture's rule predicts
    correctly and does not update.

    With ``fit_intercept=True`` and η = 1 this is scikit-learn's ``Perceptron(shuffle=False)``
    trained by ``partial_fit`` (same weights on the same dense stream).

    Parameters
    ----------
    eta : float > 0, step size η (default 1).
    fit_intercept : bool, learn a bias b (default True).
    update : {"margin", "mistake"}, update test (default "margin": y(w·x + b) ≤ 0).
    """

    _rule = PERCEPTRON

    def __init__(self, eta=1.0, fit_intercept=True, update="margin"):
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.update = update

    def _hyperparameters(self):
        if self.update not in ("margin", "mistake"):
            raise InputError(f"update must be 'margin' or 'mistake', got {self.update!r}")
        return np.array([positive_float(self.eta, "eta"), float(bool(self.fit_intercept)),
                         float(self.update == "mistake")])
