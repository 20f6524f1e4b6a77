"""``n_jobs`` of the kernel learners (the ``kernel``, ``kernel_extra``, ``nystrom`` and
``feature_map`` families): one-vs-rest learns groups of classes on threads
(``_compiled/driver/k_class._run_groups``) and every result is bit for bit that of one
thread — states (pools by feature and CSR pools, each with its own WORK area; the extra
blocks; the feature maps), records, decision values, fit and chunked partial_fit."""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
import olc._compiled.driver.k_class as k_class
from olc.learners._framework import kernel_model

POOL = {"gamma": 0.3}  # learners with a pool: CSR input starts a CSR pool (fixture)
NAMES = [("kernel-perceptron", POOL), ("kernel-pa-i", {**POOL, "budget": 9}),
         ("kernel-regularized-pa", {**POOL, "budget": 8, "update": "hinge"}),
         ("kernel-l2-constrained-pa", {**POOL, "budget": 8}),
         ("forgetron", {**POOL, "budget": 7}),
         ("randomized-budget-perceptron", {**POOL, "budget": 6}),
         ("stoptron", {**POOL, "budget": 6}), ("kernel-norma", {**POOL, "tau": 12}),
         ("projectron", {**POOL, "eta": 0.4}), ("projectron++", {**POOL, "eta": 0.4}),
         ("budget-pa", {**POOL, "budget": 7, "C": 0.5}),
         ("kernel-obpm", {**POOL, "N": 5, "tau": 0.5, "budget": 9}),
         ("fogd", {"n_components": 12, "eta": 0.3, "gamma": 0.3}),
         ("nogd", {"budget": 9, "rank": 6, "eta": 0.3, "gamma": 0.3})]
HAS_POOL = {"fogd": False}  # NOGD keeps its landmarks in a pool


@pytest.fixture
def threads_always(monkeypatch):
    """Threads even for short streams, counting the thread pools started; CSR input starts
    a CSR pool at any width."""
    monkeypatch.setattr(k_class, "MIN_STEPS_PER_THREAD", 1)
    monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1)
    pools = []
    real = k_class.ThreadPoolExecutor

    def counting(*args, **kwargs):
        pools.append(kwargs.get("max_workers"))
        return real(*args, **kwargs)

    monkeypatch.setattr(k_class, "ThreadPoolExecutor", counting)
    return pools


def _runs(name, X, y, n_jobs, params):
    fitted = olc.make(name, n_jobs=n_jobs, **params).fit(X, y)
    recorded = olc.make(name, n_jobs=n_jobs, **params)
    record = recorded.predict_then_learn(X, y)
    chunked = olc.make(name, n_jobs=n_jobs, **params)
    for a in range(0, X.shape[0], 37):
        chunked.partial_fit(X[a:a + 37], y[a:a + 37], classes=np.unique(y))
    return fitted, record, chunked


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("name, params", NAMES, ids=[n for n, _ in NAMES])
def test_threads_change_no_result(name, params, sparse, threads_always):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(150, 8)) * (rng.random((150, 8)) < 0.5)
    y = np.argmax(X[:, :5] + 0.3 * rng.normal(size=(150, 5)), axis=1)
    X = sp.csr_matrix(X) if sparse else X
    one = _runs(name, X, y, 1, params)
    assert threads_always == []
    assert one[1].updated.sum() > 0
    if HAS_POOL.get(name, True):
        assert one[0]._ints.shape == ((5, 1) if sparse else (5, 0))
    for n_jobs in (2, -1, 4):
        many = _runs(name, X, y, n_jobs, params)
        for a, b in ((one[0], many[0]), (one[2], many[2])):
            for field in ("_vecs", "_ints", "_scal"):
                np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
            np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
        for field in ("pred", "score", "updated", "aux"):
            np.testing.assert_array_equal(getattr(one[1], field), getattr(many[1], field))
    assert threads_always and all(w >= 1 for w in threads_always)  # threads did run


@pytest.mark.parametrize("name", [n for n, _ in NAMES])
def test_n_jobs_is_a_parameter_checked_naming_it(name):
    assert olc.make(name).get_params()["n_jobs"] is None
    with pytest.raises(ValueError, match="n_jobs"):
        olc.make(name, n_jobs=0).fit(np.eye(3), [0, 1, 2])
