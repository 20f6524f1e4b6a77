"""The feature matrix a learner is given: validated as scikit-learn's ``validate_data`` does,
with a fast path that does not import scikit-learn.

The common inputs (a 2-D numeric NumPy array, a CSR matrix) are checked here with
scikit-learn's rules and messages: converted to float64 (C order; CSR kept), at least one row
and one column, the column count and the absence of feature names checked against what the
learner was fitted on. Everything else (lists, DataFrames, other sparse formats, object or
complex arrays, wrong dimensions) goes to scikit-learn's ``check_array`` and feature-name
checks, so its behaviour and messages are scikit-learn's exactly.

Nothing here changes the learner: the names found are returned and recorded by the learner
when it first learns (``n_features_in_``, ``feature_names_in_``), so a rejected call leaves
it as it was.
"""
import warnings

import numpy as np

from ..._util.sparse import issparse


def _is_plain(X):
    if isinstance(X, np.ndarray):
        return (X.ndim == 2 and X.dtype.kind in "fiub" and not isinstance(X, np.matrix)
                and X.shape[0] > 0 and X.shape[1] > 0)
    return (issparse(X) and X.format == "csr" and X.dtype.kind in "fiub"
            and X.shape[0] > 0 and X.shape[1] > 0)


def validate_features(learner, X, *, first, finite=False):
    """(X as float64 C-ordered array or CSR, its feature names or None).

    ``first``: the learner learns its first rows from X (``fit``, a first ``partial_fit``):
    nothing is checked against earlier data. Otherwise X must have the fitted column count
    and, when the learner was fitted with feature names, the same names (as scikit-learn:
    an error for different names, a warning when names are missing or new).
    ``finite``: reject NaN/inf here (the stream loops find them row by row instead)."""
    if _is_plain(X):
        if issparse(X):
            X = X if X.dtype == np.float64 else X.astype(np.float64)
        else:
            X = np.ascontiguousarray(X, dtype=np.float64)
        if not first:
            fitted_names = getattr(learner, "feature_names_in_", None)
            if fitted_names is not None:
                warnings.warn(f"X does not have valid feature names, but "
                              f"{type(learner).__name__} was fitted with feature names")
            _check_column_count(learner, X)
        if finite:
            from .validation import check_finite
            check_finite(X)
        return X, None
    from sklearn.utils.validation import _check_feature_names, _get_feature_names, check_array
    names = _get_feature_names(X)
    if not first:
        _check_feature_names(learner, X, reset=False)
    X = check_array(X, accept_sparse="csr", dtype=np.float64, order="C",
                    ensure_all_finite=finite, estimator=learner, input_name="X")
    if not first:
        _check_column_count(learner, X)
    return X, names


def _check_column_count(learner, X):
    expected = getattr(learner, "n_features_in_", None)
    if expected is not None and X.shape[1] != expected:
        raise ValueError(f"X has {X.shape[1]} features, but {type(learner).__name__} is "
                         f"expecting {expected} features as input.")


def record_features(learner, n_features, names):
    """What the first learned rows fix: the column count and the feature names (or none)."""
    learner.n_features_in_ = n_features
    if names is not None:
        learner.feature_names_in_ = names
    elif hasattr(learner, "feature_names_in_"):
        del learner.feature_names_in_
