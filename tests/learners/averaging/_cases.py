"""Learners with ``average=``, the variants the averaging tests run, and small streams."""
import numpy as np
import scipy.sparse as sp

import olc
import olc.learners.registry

#: (catalogue name, parameters): every learner with ``average`` and variants that reach each
#: branch of its step (mistake-only perceptron, PA-I's cap, the generalized perceptron's
#: margin and schedules, SGD's losses, L2 shrink, the clamp w ← 0 when η_tλ ≥ 1, and a
#: shrink fast enough to rebase the average every 10 rows and fold the scale).
CLASSIFIERS = [
    ("perceptron", {}),
    ("perceptron", {"update": "mistake", "eta": 0.5}),
    ("pa", {}),
    ("pa-i", {"C": 0.1}),
    ("pa-ii", {"C": 0.5}),
    ("generalized-perceptron", {"rho": 0.3, "eta_schedule": "inv_sqrt"}),
    ("sgd", {}),
    ("sgd", {"loss": "logistic", "lam": 0.05, "schedule": "constant", "eta0": 0.5}),
    ("sgd", {"loss": "squared_hinge", "lam": 1.5}),
    ("sgd", {"lam": 0.5, "schedule": "constant", "eta0": 1.0}),
]
REGRESSORS = [
    ("pa-regression", {}),
    ("pa-i-regression", {"C": 0.1}),
    ("pa-ii-regression", {}),
    ("pa-l2-regression", {}),
    ("pa-l1-regression", {"lam": 2.0}),
    ("sgd-regression", {"lam": 0.1, "eta0": 0.05}),
]
ALL = CLASSIFIERS + REGRESSORS


def case_id(case):
    name, params = case
    return name + "".join(f"-{k}={v}" for k, v in params.items())


def is_classifier(name):
    return olc.learners.registry.info(name).kind == "classifier"


def stream(seed, n=70, d=6, n_classes=2, density=0.6):
    """Rows with zeros (some all-zero), a duplicated row, labels from random hyperplanes
    (argmax for K ≥ 3) with noise, real targets for regressors."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < density)
    X[rng.choice(np.arange(3, n), 2, replace=False)] = 0.0
    X[n - 1] = X[n // 2]
    W = rng.standard_normal((d, max(n_classes, 2)))
    scores = X @ W + 0.3 * rng.standard_normal((n, W.shape[1]))
    y = np.argmax(scores, axis=1) if n_classes > 2 else (scores[:, 0] > 0).astype(int)
    y[:n_classes] = np.arange(n_classes)  # every class early
    target = scores[:, 0] + 0.5
    return X, y, target


def targets(name, y, target):
    return y if is_classifier(name) else target


def fit_args(name, n_classes):
    return {"classes": np.arange(n_classes)} if is_classifier(name) else {}


def csr(X):
    return sp.csr_matrix(X)
