"""``PassiveAggressiveRegressor``: scikit-learn 1.7's class (``BaseSGDRegressor._fit`` /
``_partial_fit`` / ``_fit_regressor``, sklearn/linear_model/_stochastic_gradient.py) with
its epochs run by olc's compiled loop (``_epochs``)."""
from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, RegressorMixin, _fit_context
from sklearn.linear_model._base import SparseCoefMixin
from sklearn.metrics import r2_score
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.extmath import safe_sparse_dot
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .._compiled.driver.inputs import LoopInput
from ..learners.regression import PassiveAggressiveIIRegression, PassiveAggressiveIRegression
from . import _base
from ._epochs import EpochPlan, epsilon_insensitive_losses, run_epochs
from ._shuffle import epoch_permutation


def _r2(X_val, y_val, sw_val):
    def score(coef, intercept):
        pred = safe_sparse_dot(X_val, coef, dense_output=True).ravel() + intercept
        return r2_score(y_val, pred, sample_weight=sw_val)
    return score


class PassiveAggressiveRegressor(RegressorMixin, SparseCoefMixin, BaseEstimator):
    """scikit-learn's ``PassiveAggressiveRegressor`` (1.7; deprecated in 1.8, removed in
    1.10) on olc's compiled loop: PA-I (``loss="epsilon_insensitive"``, τ = min(C, ℓ/‖x‖²))
    or PA-II (``loss="squared_epsilon_insensitive"``, τ = ℓ/(‖x‖² + 1/(2C))) regression of
    Crammer et al. (2006), §4, with ℓ = max(0, |y − ŷ| − ε); w ← w + sign(y − ŷ)·τ·x, the
    bias the same step (×0.01 on CSR input). Epochs, ``tol`` (on the ε-insensitive loss),
    ``early_stopping`` (R² on a validation split), ``shuffle``/``random_state``,
    ``warm_start``, ``coef_init``/``intercept_init``, ``n_iter_``, ``t_`` as scikit-learn's.
    """

    _parameter_constraints = {
        **_base.COMMON_CONSTRAINTS,
        "loss": [StrOptions({"epsilon_insensitive", "squared_epsilon_insensitive"})],
        "C": [Interval(Real, 0, None, closed="right")],
        "epsilon": [Interval(Real, 0, None, closed="left")],
        "average": _base.AVERAGE_CONSTRAINT,
    }

    def __init__(self, *, C=1.0, fit_intercept=True, max_iter=1000, tol=1e-3,
                 early_stopping=False, validation_fraction=0.1, n_iter_no_change=5,
                 shuffle=True, verbose=0, loss="epsilon_insensitive", epsilon=0.1,
                 random_state=None, warm_start=False, average=False):
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
        self.epsilon = epsilon
        self.random_state = random_state
        self.warm_start = warm_start
        self.average = average

    # -- scikit-learn's entry points -----------------------------------------------------
    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y):
        """One epoch over (X, y) (scikit-learn's ``partial_fit``)."""
        if not hasattr(self, "coef_"):
            _base.more_validate_params(self, for_partial_fit=True)
        return self._partial_fit(X, y, 1, None, None)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, coef_init=None, intercept_init=None):
        """Up to ``max_iter`` epochs (scikit-learn's ``fit``)."""
        _base.more_validate_params(self)
        if self.warm_start and getattr(self, "coef_", None) is not None:
            if coef_init is None:
                coef_init = self.coef_
            if intercept_init is None:
                intercept_init = self.intercept_
        else:
            self.coef_ = None
            self.intercept_ = None
        self._olc_learner = None
        self.t_ = 1.0
        self._partial_fit(X, y, self.max_iter, coef_init, intercept_init)
        _base.convergence_warning(self)
        return self

    def predict(self, X):
        """w·x + b for each row of X."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", reset=False)
        return (safe_sparse_dot(X, self.coef_.T, dense_output=True)
                + self.intercept_).ravel()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    # -- learning ------------------------------------------------------------------------
    def _partial_fit(self, X, y, max_iter, coef_init, intercept_init):
        first_call = getattr(self, "coef_", None) is None
        X, y = validate_data(self, X, y, accept_sparse="csr", copy=False, order="C",
                             dtype=[np.float64, np.float32], accept_large_sparse=False,
                             reset=first_call)
        y = y.astype(X.dtype, copy=False)
        n, d = X.shape
        sample_weight = _check_sample_weight(None, X, dtype=X.dtype)
        if first_call:
            self._allocate(d, X.dtype, coef_init, intercept_init)
        elif d != self.coef_.shape[-1]:
            raise ValueError(f"Number of features {d} does not match previous data "
                             f"{self.coef_.shape[-1]}.")
        if not hasattr(self, "t_"):
            self.t_ = 1.0
        mask = _base.validation_split(self, y, sample_weight > 0, stratified=False)
        seed = check_random_state(self.random_state).randint(0, _base.MAX_INT)
        learner = getattr(self, "_olc_learner", None)
        if learner is None or not self.average:
            cls = (PassiveAggressiveIRegression if self.loss == "epsilon_insensitive"
                   else PassiveAggressiveIIRegression)
            learner = self._olc_learner = _base.make_learner(
                cls, self.average, C=self.C, epsilon=self.epsilon,
                fit_intercept=self.fit_intercept)
            _base.seat(learner, self.coef_[np.newaxis, :], float(self.intercept_[0]), d)
        decay = _base.SPARSE_INTERCEPT_DECAY if sp.issparse(X) else 1.0
        y64 = np.asarray(y, dtype=np.float64)
        hp = _base.extended_hp(learner, False, decay)
        X_loop = _base.loop_matrix(X)
        stream = _base.prepared(LoopInput(X_loop), X_loop, y64, hp)
        score = _r2(X[mask], y[mask], sample_weight[mask]) if self.early_stopping else None
        plan = EpochPlan(n, mask, epoch_permutation(n, seed) if self.shuffle else None,
                         max_iter, self.tol, self.n_iter_no_change, self.early_stopping,
                         epsilon_insensitive_losses(float(self.epsilon)), score)
        self.n_iter_ = run_epochs(learner, stream, y64, plan,
                                  lambda: _base.state_model(learner))
        self.t_ += self.n_iter_ * n
        coef, intercept = learner._linear_model()
        if not _base.learned_in_place(learner, self.coef_):
            self.coef_ = coef.astype(self.coef_.dtype)
        self.intercept_ = np.atleast_1d(np.asarray(intercept, dtype=self.coef_.dtype))
        if self.average:
            w, b = _base.state_model(learner)
            self._standard_coef, self._standard_intercept = w, np.atleast_1d(b)
            self._average_coef, self._average_intercept = coef, np.atleast_1d(intercept)
        return self

    def _allocate(self, d, dtype, coef_init, intercept_init):
        if coef_init is not None:
            coef = np.asarray(coef_init, dtype=dtype, order="C").ravel()
            if coef.shape != (d,):
                raise ValueError("Provided coef_init does not match dataset.")
        else:
            coef = np.zeros(d, dtype=dtype)
        if intercept_init is not None:
            intercept = np.asarray(intercept_init, dtype=dtype)
            if intercept.shape not in ((1,), ()):
                raise ValueError("Provided intercept_init does not match dataset.")
            intercept = intercept.reshape(1)
        else:
            intercept = np.zeros(1, dtype=dtype)
        self.coef_, self.intercept_ = np.array(coef), np.array(intercept)
        self._olc_learner = None
