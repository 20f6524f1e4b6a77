"""Online linear regressors: Passive-Aggressive regression (Crammer, Dekel, Keshet,
Shalev-Shwartz & Singer, JMLR 2006, §4; the textbook chapter §31.2.2). AROW regression
(recursive least squares, §31.3.3) is in ``learners.second_order``, SGD regression in
``learners.sgd``."""
from numbers import Real

from ._framework.constraints import Interval

from .._compiled.layouts.linear import PA_CLASSIC, PA_I, PA_II, pa_hp_values
from .._compiled.layouts.regression import PA_REGRESSION_AVERAGED_LAYOUT, PA_REGRESSION_LAYOUT
from ._framework.averaging import AVERAGE_CONSTRAINT, AveragingMixin, LayoutChoice
from ._framework.regressor import OnlineLinearRegressor

_POSITIVE = [Interval(Real, 0, None, closed="neither")]
_NON_NEGATIVE = [Interval(Real, 0, None, closed="left")]


class _PARegressionBase(AveragingMixin, OnlineLinearRegressor):
    """The Passive-Aggressive step over the ε-insensitive loss (``rules/linear.py``,
    ``pa_step``); subclasses choose the variant and how their parameters map to C, κ, ε.
    Every subclass takes ``average`` (bool or int ≥ 1, default False): predict with the mean
    of the iterates from that row on (``olc.learners._framework.averaging``), scikit-learn's
    ``PassiveAggressiveRegressor(average=...)``."""

    _layout = LayoutChoice(PA_REGRESSION_LAYOUT, PA_REGRESSION_AVERAGED_LAYOUT)
    _variant = PA_CLASSIC
    _bias_in_norm = False

    def _hp_values(self):
        return pa_hp_values(self._variant, getattr(self, "C", 1.0),  # classic PA: no C
                            self.fit_intercept, self._bias_in_norm, epsilon=self.epsilon)


_SKLEARN = """
    Bias convention (PA-I, PA-II): as in scikit-learn, the bias takes the step sign(r)·τ but
    ‖x‖² does not count it — which makes this scikit-learn's ``PassiveAggressiveRegressor``
    (deprecated in 1.8) and its replacement ``SGDRegressor(loss="epsilon_insensitive",
    penalty=None, learning_rate="pa1"/"pa2", eta0=C)`` trained by ``partial_fit`` on dense
    data: same predictions, and the same weights bit for bit in ``olc.strict_mode()``.
"""


class PassiveAggressiveRegression(_PARegressionBase):
    """PA regression (Crammer et al. 2006, §4): with residual r = y − (w·x + b) and the
    ε-insensitive loss ℓ = max(0, |r| − ε), the smallest change that makes ℓ = 0:
    w ← w + sign(r)·τ·x, τ = ℓ/‖x‖².

    With ``fit_intercept=True`` the problem is solved exactly over (w, b) —
    min ½‖w'−w‖² + ½(b'−b)² s.t. |y − w'·x − b'| ≤ ε — so τ = ℓ/(‖x‖² + 1) and b moves by
    sign(r)·τ (the bias counts in the norm, the textbook's augmented input (x, 1); the
    scikit-learn convention used by PA-I/PA-II would overshoot by 1/‖x‖² through the
    bias, as for the PA classifier). x = 0 without a bias skips the round.

    Parameters: epsilon ≥ 0 (default 0.1), fit_intercept (default True).
    """

    _variant = PA_CLASSIC
    _bias_in_norm = True
    _parameter_constraints = {"epsilon": _NON_NEGATIVE, "fit_intercept": ["boolean"],
                              "average": AVERAGE_CONSTRAINT}

    def __init__(self, epsilon=0.1, fit_intercept=True, average=False):
        self.epsilon = epsilon
        self.fit_intercept = fit_intercept
        self.average = average


class PassiveAggressiveIRegression(_PARegressionBase):
    __doc__ = """PA-I regression (Crammer et al. 2006, §4): τ = min(C, ℓ/‖x‖²),
    ℓ = max(0, |r| − ε), w ← w + sign(r)·τ·x, b ← b + sign(r)·τ. A zero vector x skips the
    round (as scikit-learn).

    Parameters: C > 0 (default 1), epsilon ≥ 0 (default 0.1), fit_intercept (default True).
""" + _SKLEARN

    _variant = PA_I
    _parameter_constraints = {"C": _POSITIVE, "epsilon": _NON_NEGATIVE,
                              "fit_intercept": ["boolean"], "average": AVERAGE_CONSTRAINT}

    def __init__(self, C=1.0, epsilon=0.1, fit_intercept=True, average=False):
        self.C = C
        self.epsilon = epsilon
        self.fit_intercept = fit_intercept
        self.average = average


class PassiveAggressiveIIRegression(_PARegressionBase):
    __doc__ = """PA-II regression (Crammer et al. 2006, §4): τ = ℓ/(‖x‖² + 1/(2C)),
    ℓ = max(0, |r| − ε). A zero vector x still moves the bias (τ = 2Cℓ), as in scikit-learn.

    Parameters: C > 0 (default 1), epsilon ≥ 0 (default 0.1), fit_intercept (default True).
""" + _SKLEARN

    _variant = PA_II
    _parameter_constraints = {"C": _POSITIVE, "epsilon": _NON_NEGATIVE,
                              "fit_intercept": ["boolean"], "average": AVERAGE_CONSTRAINT}

    def __init__(self, C=1.0, epsilon=0.1, fit_intercept=True, average=False):
        self.C = C
        self.epsilon = epsilon
        self.fit_intercept = fit_intercept
        self.average = average


_TEXTBOOK = """
    Bias: the chapter's augmented input (x, 1) (Fig. 31.3), so with ``fit_intercept=True``
    the bias is one more coordinate of θ and counts in ‖x‖².
"""


class PassiveAggressiveL2Regression(_PARegressionBase):
    __doc__ = """Passive-aggressive regression with the ℓ2 loss (the textbook chapter §31.2.2):
    θ̂ = argmin ½r² + (λ/2)‖θ − θ̃‖², i.e. θ ← θ + r/(‖x‖² + λ)·x with r = y − θᵀx, on every
    round with r ≠ 0. Equal to PA-II regression with ε = 0 and λ = 1/(2C); also SGD with the
    step 1/(‖x‖² + λ) (§31.2.2).
""" + _TEXTBOOK + """
    Parameters: lam > 0, the passiveness λ (default 1, the chapter's code), fit_intercept
    (default True).
"""

    _variant = PA_II
    _bias_in_norm = True
    _parameter_constraints = {"lam": _POSITIVE, "fit_intercept": ["boolean"],
                              "average": AVERAGE_CONSTRAINT}

    def __init__(self, lam=1.0, fit_intercept=True, average=False):
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.average = average

    def _hp_values(self):
        lam = float(self.lam)  # κ = λ exactly (C = 1/(2λ) is unused by PA-II)
        return pa_hp_values(PA_II, 0.5 / lam, self.fit_intercept, True, kappa=lam)


class PassiveAggressiveL1Regression(_PARegressionBase):
    __doc__ = """Passive-aggressive regression with the ℓ1 loss (the textbook chapter §31.2.2):
    θ̂ = argmin |r| + (λ/2)‖θ − θ̃‖², i.e. θ ← θ + sign(r)·min(1/λ, |r|/‖x‖²)·x. Equal to
    PA-I regression with ε = 0 and C = 1/λ. x = 0 without a bias skips the round.
""" + _TEXTBOOK + """
    Parameters: lam > 0, the passiveness λ (default 1), fit_intercept (default True).
"""

    _variant = PA_I
    _bias_in_norm = True
    _parameter_constraints = {"lam": _POSITIVE, "fit_intercept": ["boolean"],
                              "average": AVERAGE_CONSTRAINT}

    def __init__(self, lam=1.0, fit_intercept=True, average=False):
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.average = average

    def _hp_values(self):
        return pa_hp_values(PA_I, 1.0 / float(self.lam), self.fit_intercept, True)
