"""The Perceptron (Rosenblatt 1958)."""
from numbers import Real

from ._framework.constraints import Interval, StrOptions

from .._compiled.layouts.linear import PERCEPTRON_AVERAGED_LAYOUT, PERCEPTRON_LAYOUT
from ._framework.averaging import AVERAGE_CONSTRAINT, AveragingMixin, LayoutChoice
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier


class Perceptron(AveragingMixin, OnlineLinearClassifier):
    """Rosenblatt's perceptron.

    Update ``w ← w + η·y·x`` (and ``b ← b + η·y`` when ``fit_intercept``) whenever
    ``y(w·x + b) ≤ 0`` — the rule of Ho-Nguyen et al. (2025), Example 5.1
    (``w_{t+1} = w_t + y_t x_t`` when ``y_t w_tᵀx_t ≤ 0``), which also updates at a zero
    score. With ``update="mistake"`` the update happens only when the prediction
    sign(w·x + b) (sign(0) = +1) differs from y, as in Kitani's lecture notes (Algorithm 3,
    line 7);
    the two differ only at a zero score with y = +1, where the lecture's rule predicts
    correctly and does not update.

    With ``fit_intercept=True`` and η = 1 this is scikit-learn's ``Perceptron(shuffle=False)``
    trained by ``partial_fit`` (same weights on the same dense stream).

    ``average``: the averaged perceptron (Freund & Schapire 1999;
    ``olc.learners._framework.averaging``):
    predict with the mean of the iterates from row ``average`` on (True: from the first) —
    scikit-learn's ``SGDClassifier(loss="perceptron", learning_rate="constant",
    average=...)``.

    Parameters
    ----------
    eta : float > 0, step size η (default 1).
    fit_intercept : bool, learn a bias b (default True).
    update : {"margin", "mistake"}, update test (default "margin": y(w·x + b) ≤ 0).
    average : bool or int ≥ 1, average the iterates from this row on (default False: no).
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = LayoutChoice(PERCEPTRON_LAYOUT, PERCEPTRON_AVERAGED_LAYOUT)
    _parameter_constraints = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "update": [StrOptions({"margin", "mistake"})],
        "average": AVERAGE_CONSTRAINT,
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, eta=1.0, fit_intercept=True, update="margin", average=False, n_jobs=None):
        self.n_jobs = n_jobs
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.update = update
        self.average = average

    def _hp_values(self):
        return {"eta": self.eta, "fit_intercept": self.fit_intercept,
                "mistake_only": self.update == "mistake"}
