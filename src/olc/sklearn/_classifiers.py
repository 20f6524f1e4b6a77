"""``PassiveAggressiveClassifier`` and ``Perceptron``: scikit-learn 1.7's classes (same
parameters, defaults, attributes and results) trained by olc's compiled loop."""
from numbers import Integral, Real

from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions

from ..learners.passive_aggressive import PassiveAggressiveI, PassiveAggressiveII
from ..learners.perceptron import Perceptron as OlcPerceptron
from . import _base, _penalized
from ._classification import DropInClassifier
from ._epochs import hinge_losses

_CLASSIFIER_CONSTRAINTS = {
    **_base.COMMON_CONSTRAINTS,
    "n_jobs": [Integral, None],
    "class_weight": [StrOptions({"balanced"}), dict, None],
}


class PassiveAggressiveClassifier(DropInClassifier):
    """scikit-learn's ``PassiveAggressiveClassifier`` (1.7; deprecated in 1.8, removed in
    1.10) on olc's compiled loop: PA-I (``loss="hinge"``, τ = min(C, ℓ/‖x‖²)) or PA-II
    (``loss="squared_hinge"``, τ = ℓ/(‖x‖² + 1/(2C))) of Crammer et al. (2006), Fig. 1 and
    Eq. 6, with ℓ = max(0, 1 − y(w·x + b)); the bias takes the step τy (×0.01 on CSR input)
    and is not counted in ‖x‖² — scikit-learn's conventions. Epochs, ``tol``,
    ``early_stopping``, ``shuffle``/``random_state``, ``class_weight``, ``warm_start``,
    ``coef_init``/``intercept_init``, ``n_iter_``, ``t_`` as scikit-learn's
    (``olc.sklearn`` module docstring: what differs). ``n_jobs``: the K one-vs-rest
    problems on that many threads (joblib's semantics), the same results with any number.
    """

    _parameter_constraints = {
        **_CLASSIFIER_CONSTRAINTS,
        "loss": [StrOptions({"hinge", "squared_hinge"})],
        "C": [Interval(Real, 0, None, closed="right")],
        "average": _base.AVERAGE_CONSTRAINT,
    }

    def __init__(self, *, C=1.0, fit_intercept=True, max_iter=1000, tol=1e-3,
                 early_stopping=False, validation_fraction=0.1, n_iter_no_change=5,
                 shuffle=True, verbose=0, loss="hinge", n_jobs=None, random_state=None,
                 warm_start=False, class_weight=None, average=False):
        self.C = C
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.verbose = verbose
        self.loss = loss
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.warm_start = warm_start
        self.class_weight = class_weight
        self.average = average

    def _olc_learner(self):
        cls = PassiveAggressiveI if self.loss == "hinge" else PassiveAggressiveII
        return cls, dict(C=self.C, fit_intercept=self.fit_intercept)

    def _epoch_losses(self):
        return hinge_losses(1.0)

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y, classes=None):
        """One epoch over (X, y) in order (``shuffle`` applies), scikit-learn's
        ``partial_fit``: ``classes`` is required on the first call."""
        self._first_partial_fit_checks()
        return self._partial_fit(X, y, 1, classes, None, None, None)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, coef_init=None, intercept_init=None):
        """Up to ``max_iter`` epochs (scikit-learn's ``fit``)."""
        _base.more_validate_params(self)
        return self._fit(X, y, coef_init, intercept_init)


class Perceptron(DropInClassifier):
    """scikit-learn's ``Perceptron`` (1.7) on olc's compiled loop: Rosenblatt's update
    w ← w + η₀·y·x (b ← b + η₀·y, ×0.01 on CSR input) when y(w·x + b) ≤ 0. Epochs, ``tol``
    (on the perceptron loss max(0, −y(w·x + b))), ``early_stopping``,
    ``shuffle``/``random_state`` (default 0), ``class_weight``, ``sample_weight``,
    ``warm_start``, ``coef_init``/``intercept_init``, ``n_iter_``, ``t_`` as scikit-learn's.

    ``penalty`` None (the default) runs olc's perceptron rule. ``"l2"``, ``"l1"`` and
    ``"elasticnet"`` (with ``alpha``, ``l1_ratio``) run olc's SGD rule with the perceptron
    loss, as scikit-learn runs ``SGDClassifier(loss="perceptron",
    learning_rate="constant")``: the shrink w ← (1 − (1 − ρ)η₀α)·w on a scaled vector and
    the L1 part by the cumulative penalty of Tsuruoka, Tsujii & Ananiadou (2009, ACL,
    "Stochastic gradient descent training for L1-regularized log-linear models with
    cumulative penalty"), as scikit-learn's SGD documents it (``_penalized``). ``n_jobs``:
    the K one-vs-rest problems on that many threads (joblib's semantics), the same results
    with any number.
    """

    _parameter_constraints = {
        **_CLASSIFIER_CONSTRAINTS,
        "penalty": [StrOptions({"l2", "l1", "elasticnet"}), None],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "l1_ratio": [Interval(Real, 0, 1, closed="both")],
        "eta0": [Interval(Real, 0, None, closed="neither")],
    }
    average = False  # scikit-learn's Perceptron has no `average`

    def __init__(self, *, penalty=None, alpha=0.0001, l1_ratio=0.15, fit_intercept=True,
                 max_iter=1000, tol=1e-3, shuffle=True, verbose=0, eta0=1.0, n_jobs=None,
                 random_state=0, early_stopping=False, validation_fraction=0.1,
                 n_iter_no_change=5, class_weight=None, warm_start=False):
        self.penalty = penalty
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.shuffle = shuffle
        self.verbose = verbose
        self.eta0 = eta0
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.class_weight = class_weight
        self.warm_start = warm_start

    def _olc_learner(self):
        if self.penalty is not None:
            return _penalized.learner(self)
        return OlcPerceptron, dict(eta=self.eta0, fit_intercept=self.fit_intercept)

    def _hp_extension(self):
        return None if self.penalty is None else _penalized.extension(self)

    def _epoch_losses(self):
        return hinge_losses(0.0)

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One epoch over (X, y) (scikit-learn's ``partial_fit``)."""
        self._first_partial_fit_checks()
        return self._partial_fit(X, y, 1, classes, sample_weight, None, None)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
        """Up to ``max_iter`` epochs (scikit-learn's ``fit``)."""
        _base.more_validate_params(self)
        return self._fit(X, y, coef_init, intercept_init, sample_weight)
