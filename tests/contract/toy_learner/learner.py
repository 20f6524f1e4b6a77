"""The margin perceptron (Krauth & Mézard 1987): the perceptron's update, taken whenever the
margin y(w·x + b) is at most γ — not only on mistakes."""
from numbers import Real

from olc.learners import OnlineLinearClassifier
from olc.learners._framework.constraints import Interval

from .layout import MARGIN_PERCEPTRON_LAYOUT


class MarginPerceptron(OnlineLinearClassifier):
    """The perceptron with a margin: w ← w + η·y·x whenever y(w·x + b) ≤ γ.

    γ = 0 is the perceptron. Krauth & Mézard 1987 (the "minover" family of algorithms).

    Parameters
    ----------
    eta : float > 0, step size η (default 1).
    gamma : float ≥ 0, the margin γ below which an example updates (default 1).
    fit_intercept : bool, learn a bias b (default True).
    """

    _layout = MARGIN_PERCEPTRON_LAYOUT
    _parameter_constraints = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "gamma": [Interval(Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
    }

    def __init__(self, eta=1.0, gamma=1.0, fit_intercept=True):
        self.eta = eta
        self.gamma = gamma
        self.fit_intercept = fit_intercept

    def _hp_values(self):
        return {"eta": self.eta, "gamma": self.gamma, "fit_intercept": self.fit_intercept}
