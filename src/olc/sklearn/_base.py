"""What the three drop-ins share: scikit-learn's parameters, the data each epoch loop takes,
the olc binary learner that runs one problem, and seating a model into it."""
import math
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit
from sklearn.utils._param_validation import Interval

from .._compiled.layouts.linear import LinearScal, LinearVec
from ..learners._framework.records import PreparedStream

# scikit-learn's ``SPARSE_INTERCEPT_DECAY`` (sklearn/linear_model/_base.py): on CSR input the
# bias takes 1/100 of each step, "to avoid intercept oscillation".
SPARSE_INTERCEPT_DECAY = 0.01
MAX_INT = np.iinfo(np.int32).max  # scikit-learn's seeds are drawn below it

# ``BaseSGD._parameter_constraints`` of scikit-learn 1.7, the ones the drop-ins share.
COMMON_CONSTRAINTS = {
    "fit_intercept": ["boolean"],
    "max_iter": [Interval(Integral, 1, None, closed="left")],
    "tol": [Interval(Real, 0, None, closed="left"), None],
    "shuffle": ["boolean"],
    "verbose": ["verbose"],
    "random_state": ["random_state"],
    "warm_start": ["boolean"],
    "early_stopping": ["boolean"],
    "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
    "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
}
AVERAGE_CONSTRAINT = [Interval(Integral, 0, None, closed="neither"), "boolean"]


def make_learner(cls, average, **params):
    """The olc binary learner of one problem; ``average`` is forwarded to the learner's own
    ``average`` parameter."""
    if average:
        try:
            return cls(average=average, **params)
        except TypeError:
            raise ValueError(f"average={average!r} needs olc's averaged {cls.__name__} "
                             "(an `average` parameter), which this olc does not have") from None
    return cls(**params)


def loop_matrix(X):
    """X (validated by scikit-learn: float64/float32, C order or CSR) as the compiled loop
    takes it: float64, CSR canonical (sorted indices, no duplicates)."""
    if sp.issparse(X):
        if X.format != "csr" or X.dtype != np.float64:
            X = sp.csr_matrix(X, dtype=np.float64, copy=X.dtype != np.float64)
        # else X itself: scipy keeps its canonical-format test on the object, so a caller's
        # matrix is scanned once, not on every call (9 ms a call on W2's 10^7 entries)
        if not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()
        return X
    return np.ascontiguousarray(X, dtype=np.float64)


def extended_hp(learner, row_weights, intercept_decay, extra=None):
    """The learner's packed hyper-parameters, extended with the drop-in fields
    (``layouts.linear.SklearnHP``) when they are not the rule's own behaviour, or always
    when the rule's extension has ``extra`` fields after them (``layouts.sgd.SklearnSGDHP``).
    """
    hp = learner._hyperparameters()
    if not row_weights and intercept_decay == 1.0 and extra is None:
        return hp
    return np.concatenate([hp, [1.0 if row_weights else 0.0, intercept_decay],
                           extra or []])


def seat(learner, coef_rows, intercept, n_features, classes=None):
    """Give ``learner`` the model (``coef_rows``: (1, d), intercept) as its state, ready to
    learn on. A float64 C-contiguous writable ``coef_rows`` (a row of the drop-in's own
    ``coef_``) becomes the learner's weight row itself, learned in place as scikit-learn
    learns in its ``coef_``: no copy in or out (see ``learned_in_place``)."""
    vecs, scal = learner._initial_state(n_features)
    if (vecs.shape == coef_rows.shape and coef_rows.dtype == np.float64
            and coef_rows.flags.c_contiguous and coef_rows.flags.writeable):
        vecs = coef_rows
    else:
        vecs[LinearVec.W] = np.asarray(coef_rows, dtype=np.float64).reshape(-1)
    scal[LinearScal.BIAS] = intercept
    learner._vecs, learner._scal = vecs, scal
    learner._ints = learner._initial_ints(n_features)
    learner.n_features_in_ = n_features
    learner.n_steps_ = learner.n_updates_ = 0
    if classes is not None:
        learner.classes_ = classes


def learned_in_place(learner, coef):
    """Whether ``learner``'s weights are (a view of) ``coef``."""
    return np.shares_memory(learner._vecs, coef)


def state_model(learner, weights=True):
    """The learner's current (weights or None, bias), not averaged."""
    w = learner._vecs[LinearVec.W].copy() if weights else None
    return w, float(learner._scal[LinearScal.BIAS])


def prepared(loop_input, X_loop, targets, hp, classes=None):
    """A PreparedStream of the drop-in's data (validated already; ``loop_input`` is
    ``LoopInput(X_loop)``, shared by the problems of one call: its binary-values test runs
    once)."""
    return PreparedStream(loop_input, X_loop, np.asarray(targets, dtype=np.float64),
                          classes, hp)


def validation_split(estimator, y, sample_mask, stratified):
    """scikit-learn's ``BaseSGD._make_validation_split``: a (stratified) shuffle split with
    ``validation_fraction`` and ``random_state``; True on validation rows."""
    n = y.shape[0]
    mask = np.zeros(n, dtype=bool)
    if not estimator.early_stopping:
        return mask
    splitter = StratifiedShuffleSplit if stratified else ShuffleSplit
    cv = splitter(test_size=estimator.validation_fraction,
                  random_state=estimator.random_state)
    idx_train, idx_val = next(cv.split(np.zeros((n, 1)), y))
    if not np.any(sample_mask[idx_val]):
        raise ValueError("The sample weights for validation set are all zero, consider using "
                         "a different random state.")
    if idx_train.shape[0] == 0 or idx_val.shape[0] == 0:
        raise ValueError(
            f"Splitting {n} samples into a train set and a validation set with "
            f"validation_fraction={estimator.validation_fraction!r} led to an empty set "
            f"({idx_train.shape[0]} and {idx_val.shape[0]} samples). Please either change "
            "validation_fraction, increase number of samples, or disable early_stopping.")
    mask[idx_val] = True
    return mask


def more_validate_params(estimator, for_partial_fit=False):
    if estimator.early_stopping and for_partial_fit:
        raise ValueError("early_stopping should be False with partial_fit")


def convergence_warning(estimator):
    """scikit-learn's warning when ``fit`` used every epoch with a tolerance set."""
    if (estimator.tol is not None and estimator.tol > -math.inf
            and estimator.n_iter_ == estimator.max_iter):
        import warnings

        from sklearn.exceptions import ConvergenceWarning
        warnings.warn("Maximum number of iteration reached before convergence. Consider "
                      "increasing max_iter to improve the fit.", ConvergenceWarning)


def each_problem(learn, n_problems, n_jobs):
    """[learn(0), ..., learn(K − 1)]: the independent binary problems of one call, on
    ``n_jobs`` threads (joblib's ``effective_n_jobs``: None is 1 outside a joblib
    ``parallel_config``, −1 every core), as scikit-learn's one-vs-rest runs them; one
    thread runs them in order. Each problem owns its learner and its row of ``coef_``, and
    olc's compiled loops release the GIL while they learn, so threads learn at once; the
    results are the same whatever the number of threads."""
    from joblib import effective_n_jobs

    n_threads = min(effective_n_jobs(n_jobs), n_problems)
    if n_threads <= 1:
        return [learn(k) for k in range(n_problems)]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=n_threads) as pool:
        return list(pool.map(learn, range(n_problems)))
