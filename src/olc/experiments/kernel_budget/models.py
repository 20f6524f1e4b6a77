"""Engine models (``factory(params, seed) -> OnlineModel``) of ``olc reproduce
kernel-budget`` that are not a plain registry learner:

* :func:`seeded_learner`: a randomized catalogue learner (randomized budget perceptron,
  kernel OBPM) whose ``seed`` is the trial's learner seed, so trials draw independently (a
  registry learner run by the engine keeps its default seed in every trial).
* :func:`linear_svc` and :func:`rbf_svc`: the batch references of the budget table,
  scikit-learn's ``LinearSVC`` and ``SVC(kernel="rbf")``, fitted once on the (permuted)
  training rows — ``SVC`` on its first ``subsample`` rows, a random subsample since the
  rows are permuted per trial (libsvm's time grows about quadratically with the rows).
  They have no online mistakes; ``batch = True`` tells the protocol so.
"""
from __future__ import annotations

import time

import numpy as np

from ..engine.models import LearnerModel, Steps


def seeded_learner(params, seed):
    params = dict(params)
    name = params.pop("learner")
    return LearnerModel(name, {**params, "seed": int(seed) % (2 ** 31)}, seed)


class BatchModel:
    """A scikit-learn classifier fitted once on the training rows (``learn``), then
    ``predict``; ``support_vectors``: libsvm's count for ``SVC``, None for ``LinearSVC``."""

    batch = True

    def __init__(self, estimator, subsample=None):
        self.estimator = estimator
        self.subsample = subsample
        self.fitted_rows = 0
        self.converged = True

    def learn(self, X, y) -> Steps:
        import warnings

        from sklearn.exceptions import ConvergenceWarning

        if self.subsample is not None and X.shape[0] > self.subsample:
            X, y = X[:self.subsample], y[:self.subsample]
        t0 = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            self.estimator.fit(X, y)
        seconds = time.perf_counter() - t0
        self.converged = not any(issubclass(w.category, ConvergenceWarning) for w in caught)
        self.fitted_rows = int(X.shape[0])
        return Steps(pred=np.zeros(0, np.int8), seconds=seconds)

    def predict(self, X):
        return np.asarray(self.estimator.predict(X), dtype=np.float64)

    @property
    def support_vectors(self):
        n = getattr(self.estimator, "n_support_", None)
        return None if n is None else int(np.sum(n))


def linear_svc(params, seed):
    from sklearn.svm import LinearSVC

    return BatchModel(LinearSVC(C=float(params.get("C", 1.0)),
                                max_iter=int(params.get("max_iter", 10_000))))


def rbf_svc(params, seed):
    from sklearn.svm import SVC

    return BatchModel(SVC(kernel="rbf", C=float(params.get("C", 1.0)),
                          gamma=float(params["gamma"]), cache_size=500),
                      subsample=params.get("subsample"))
