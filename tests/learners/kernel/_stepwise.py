"""Step-by-step comparison of a compiled kernel learner with its NumPy reference
(``reference.py``): binary streams (dense or CSR) and one-vs-rest (each class's learner
against the reference on y == class)."""
import numpy as np
import scipy.sparse as sp

import olc
from olc.learners._framework.multiclass import class_seed

from . import reference as R

KERNEL_ARGS = {"linear": {}, "poly": {"gamma": 0.4, "degree": 2, "coef0": 1.0},
               "rbf": {"gamma": 0.5}}


def stream(seed, n=70, d=4, classes=2, density=0.7):
    """Gaussian rows with some zero entries (CSR rows then skip them), labels from a
    nonlinear rule (so a kernel learner keeps learning)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < density)
    s = np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.3 * rng.normal(size=n)
    if classes == 2:
        return X, np.where(s > 0, 1, 0)
    return X, np.digitize(s, np.quantile(s, np.linspace(0, 1, classes + 1)[1:-1]))


def _ref_kwargs(kernel, fit_intercept, budget):
    args = {"gamma": None, "degree": 3, "coef0": 0.0}  # olc's defaults (None: 1/d)
    args.update(KERNEL_ARGS[kernel])
    return dict(kernel=kernel, fit_intercept=fit_intercept, budget=budget, **args)


def assert_binary(name, params, X, y, *, kernel, fit_intercept, budget=None, sparse=False,
                  seed=None):
    """Scores (1e-9 relative), update flags, support (exactly) and coefficients of one pass
    against the reference; returns (learner, record, trace)."""
    learner = olc.make(name, kernel=kernel, fit_intercept=fit_intercept,
                       **({} if budget is None and name in ("projectron", "projectron++")
                          else {"budget": budget}),
                       **KERNEL_ARGS[kernel], **params)
    Xin = sp.csr_matrix(X) if sparse else X
    record = learner.predict_then_learn(Xin, y)
    ys = np.where(y == learner.classes_[1], 1.0, -1.0)
    ref_params = {k: v for k, v in params.items() if k != "seed"}
    trace = R.run(name, X, ys, seed=params.get("seed", 0) if seed is None else seed,
                  **_ref_kwargs(kernel, fit_intercept, budget), **ref_params)
    scale = max(1.0, np.abs(trace.scores).max())
    np.testing.assert_allclose(record.score, trace.scores, rtol=1e-9, atol=1e-12 * scale)
    np.testing.assert_array_equal(record.updated, trace.updated)
    assert list(learner.support_) == trace.support
    np.testing.assert_allclose(learner.dual_coef_[0], trace.alphas, rtol=1e-9,
                               atol=1e-12 * max(1.0, np.abs(trace.alphas).max(initial=0)))
    np.testing.assert_array_equal(learner.support_vectors_, X[trace.support])
    return learner, record, trace


def assert_one_vs_rest(name, params, X, y, *, kernel, fit_intercept, budget=None):
    """Each class's learner is its binary algorithm on y == class (its seed: class_seed):
    the pools and the final decision values against the reference's."""
    kw = {} if name in ("projectron", "projectron++") else {"budget": budget}
    learner = olc.make(name, kernel=kernel, fit_intercept=fit_intercept, **kw,
                       **KERNEL_ARGS[kernel], **params).fit(X, y)
    scores = learner.decision_function(X)
    ref_params = {k: v for k, v in params.items() if k != "seed"}
    kargs = _ref_kwargs(kernel, fit_intercept, budget)
    for c, label in enumerate(learner.classes_):
        ys = np.where(y == label, 1.0, -1.0)
        seed = class_seed(params.get("seed", 0), c)
        trace = R.run(name, X, ys, seed=seed, **kargs, **ref_params)
        assert list(learner.support_[c]) == trace.support
        np.testing.assert_allclose(learner.dual_coef_[c][0], trace.alphas, rtol=1e-9,
                                   atol=1e-12)
        K = R.kernel_matrix(X, X[trace.support], kernel=kernel, gamma=kargs["gamma"],
                            degree=kargs["degree"], coef0=kargs["coef0"]) + float(fit_intercept)
        np.testing.assert_allclose(scores[:, c], K @ trace.alphas, rtol=1e-9, atol=1e-10)
    return learner
