"""Metrics of the online protocol (Ho-Nguyen et al. 2025, §4 and §6). They read per-step
records and classifiers; they never update a model."""
import numpy as np

from .._util.sparse import issparse


def mistakes(pred, y):
    """Number of rounds whose prediction (made before the update) was wrong."""
    return int(np.count_nonzero(np.asarray(pred) != np.asarray(y)))


def cumulative_error_rate(pred, y):
    """Error rate after each step t: (#mistakes in steps 1..t) / t."""
    wrong = (np.asarray(pred) != np.asarray(y)).astype(np.float64)
    return np.cumsum(wrong) / np.arange(1, wrong.size + 1)


def squared_error(score, y):
    """Σ_t (y_t − ŷ_t)² of a regressor's online predictions ŷ_t (made before each update)."""
    r = np.asarray(y, dtype=np.float64) - np.asarray(score, dtype=np.float64)
    return float(np.dot(r, r))


def absolute_error(score, y):
    """Σ_t |y_t − ŷ_t| of a regressor's online predictions."""
    return float(np.sum(np.abs(np.asarray(y, dtype=np.float64) -
                               np.asarray(score, dtype=np.float64))))


def cumulative_mean_squared_error(score, y):
    """Mean squared online error after each step t: Σ_{s≤t} (y_s − ŷ_s)² / t."""
    r = np.asarray(y, dtype=np.float64) - np.asarray(score, dtype=np.float64)
    return np.cumsum(r * r) / np.arange(1, r.size + 1)


def final_margin(classifier, X, y):
    """γ̄ = min_t y_t(w·x_t + b)/‖w‖ of a classifier on a whole data set (Ho-Nguyen et al.
    2025, §6 (i)).

    ``classifier``: a fitted learner (``decision_function``, ``coef_``, ``classes_``) or a
    ``(w, b)`` pair with labels y in {−1, +1}. Returns None when the margin is not positive
    (the paper's "—"), including w = 0.
    """
    if isinstance(classifier, tuple):
        w, b = classifier
        w = np.asarray(w, dtype=np.float64).ravel()
        scores = (X @ w) + b
        y_pm = np.asarray(y, dtype=np.float64)
    else:
        if len(classifier.classes_) > 2:
            raise ValueError(f"the margin γ̄ is defined for binary classifiers; this one has "
                             f"{len(classifier.classes_)} classes (one-vs-rest)")
        w = np.asarray(classifier.coef_, dtype=np.float64).ravel()
        scores = classifier.decision_function(X)
        y = np.asarray(y)
        classes = classifier.classes_
        y_pm = np.where(y == classes[1], 1.0, -1.0)
    norm = float(np.linalg.norm(w))
    if norm == 0.0:
        return None
    scores = np.asarray(scores.todense()).ravel() if issparse(scores) else np.ravel(scores)
    gamma = float(np.min(y_pm * scores)) / norm
    return gamma if gamma > 0.0 else None


def m_phi(result, phi):
    """m(φ) of Ho-Nguyen et al. 2025, Eq. (4b): #{t ≥ 3 : γ(x_t, y_t; w_t, b_t) ≤ φ·γ_t}.

    Needs a learner that reports its predicted margin γ_t per step (the OMM family: the
    record's ``aux``) and a normalized classifier (‖w‖ = 1, so the margin is y·score). The
    steps before the first max-margin classifier exists (the initialization phase, γ_t = 0)
    are not counted, which is the paper's t ≥ 3.
    """
    aux = np.asarray(result.aux)
    if not np.any(aux > 0.0):
        if result.algorithm not in ("e-omm", "ce-omm", "n-omm"):
            raise ValueError(f"m(φ) needs the predicted margin γ_t, which {result.algorithm} "
                             "does not report (OMM learners do)")
        return 0
    active = aux > 0.0
    margins = result.y.astype(np.float64) * result.score
    return int(np.count_nonzero(active & (margins <= phi * aux)))
