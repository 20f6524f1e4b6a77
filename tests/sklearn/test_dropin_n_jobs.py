"""``n_jobs`` in the classifier drop-ins: the K one-vs-rest problems learn on threads
(``_base.each_problem``; olc's compiled loops release the GIL) and every result is bit for
bit that of ``n_jobs=1`` (coef_, intercept_, n_iter_, t_, the averaged parts, decision
values), dense and CSR, fit and partial_fit, K = 2 (one problem: nothing to split), 3 and
20, with tol, early stopping, class weights, averaging and penalties. n_jobs follows
joblib's ``effective_n_jobs``: None is 1 unless a joblib ``parallel_config`` says more.
The reference for n_jobs=1 against scikit-learn itself is test_dropin_equivalence."""
import numpy as np
import pytest
import scipy.sparse as sp

from olc import sklearn as ours
from olc.sklearn import _base

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

CASES = [("PassiveAggressiveClassifier", {}),
         ("PassiveAggressiveClassifier", {"loss": "squared_hinge", "average": True}),
         ("Perceptron", {}),
         ("Perceptron", {"penalty": "l2", "alpha": 1e-3}),
         ("Perceptron", {"penalty": "elasticnet", "alpha": 1e-3, "l1_ratio": 0.3}),
         ("Perceptron", {"early_stopping": True, "class_weight": "balanced"})]


def _data(k, sparse, n=240, d=15, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.4)
    y = np.argmax(X @ rng.standard_normal((d, k)) + 0.3 * rng.standard_normal((n, k)), axis=1)
    y[:3 * k] = np.arange(3 * k) % k  # every class thrice (stratified validation splits)
    return (sp.csr_matrix(X) if sparse else X), y


def _same(a, b):
    for name in ("coef_", "intercept_", "_standard_coef", "_average_coef",
                 "_standard_intercept", "_average_intercept"):
        if hasattr(b, name):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert a.n_iter_ == b.n_iter_ and a.t_ == b.t_


@pytest.fixture
def pools(monkeypatch):
    """The thread pools each_problem starts (their sizes)."""
    import concurrent.futures

    started = []
    real = concurrent.futures.ThreadPoolExecutor

    def counting(max_workers=None, **kwargs):
        started.append(max_workers)
        return real(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ThreadPoolExecutor", counting)
    return started


@pytest.mark.parametrize("k", [2, 3, 20])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("cname, params", CASES, ids=[f"{c}-{p}" for c, p in CASES])
def test_threads_change_no_result(cname, params, sparse, k, pools):
    X, y = _data(k, sparse)
    kw = dict(params, max_iter=8, tol=1e-3, random_state=4)
    one = getattr(ours, cname)(n_jobs=1, **kw).fit(X, y)
    assert pools == []
    for n_jobs in (2, -1):
        many = getattr(ours, cname)(n_jobs=n_jobs, **kw).fit(X, y)
        _same(many, one)
        np.testing.assert_array_equal(many.decision_function(X), one.decision_function(X))
    assert len(pools) == (0 if k == 2 else 2)  # two classes: one problem, no pool
    if params.get("early_stopping"):
        return  # partial_fit refuses early stopping (scikit-learn's rule)
    classes = np.unique(y)
    chunked = []
    for n_jobs in (1, 2):
        model = getattr(ours, cname)(n_jobs=n_jobs, **kw)
        for a in range(0, X.shape[0], 50):
            model.partial_fit(X[a:a + 50], y[a:a + 50], classes=classes)
        chunked.append(model)
    _same(chunked[1], chunked[0])


def test_n_jobs_none_follows_joblibs_parallel_config(pools):
    import joblib

    X, y = _data(5, True)
    with joblib.parallel_config(backend="threading", n_jobs=2):
        ours.Perceptron(random_state=0).fit(X, y)
    ours.Perceptron(random_state=0).fit(X, y)  # outside: None is one thread
    assert pools == [2]


def test_each_problem_returns_results_in_problem_order():
    assert _base.each_problem(lambda k: k * k, 7, 3) == [k * k for k in range(7)]
    assert _base.each_problem(lambda k: k, 1, -1) == [0]


def test_n_jobs_zero_is_refused():
    X, y = _data(3, False)
    with pytest.raises(ValueError, match="n_jobs"):
        ours.PassiveAggressiveClassifier(n_jobs=0).fit(X, y)
