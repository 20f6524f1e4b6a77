"""olc.sklearn against scikit-learn's own classes: the same coef_, intercept_, n_iter_ and t_,
bit for bit in olc.strict_mode() (scikit-learn's sums run left to right), on dense and CSR
data, for the settings that change what is learned: epochs with tol, shuffle (scikit-learn's
orders from random_state), one-vs-rest on many sparse classes, class_weight, sample_weight,
early stopping, warm_start, coef_init, partial_fit sequences, PA-I/PA-II, regression.

scikit-learn's results are an independent implementation (Cython ``_plain_sgd``), not ours.
Its PA classes are removed in scikit-learn 1.10: the reference is then their named successor
(``SGDClassifier``/``SGDRegressor`` with ``learning_rate="pa1"/"pa2"``, tests/_sklearn_reference.py),
checked below to give the same models where both exist."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk
from sklearn.datasets import load_iris, make_classification, make_regression

import _sklearn_reference as reference
import olc
from olc import sklearn as ours

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning",
                                        "ignore::sklearn.exceptions.ConvergenceWarning")


def _newsgroups_like(n=600, d=3000, k=20, seed=0):
    """Sparse text-like data: K classes, each with its own frequent words, tf-idf-like
    positive values, ~30 words a row."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    rows, cols, vals = [], [], []
    topic = rng.integers(0, d, (k, 40))
    for i in range(n):
        words = np.concatenate([rng.choice(topic[y[i]], 10), rng.integers(0, d, 20)])
        words = np.unique(words)
        rows += [i] * len(words)
        cols += list(words)
        vals += list(rng.uniform(0.05, 1.0, len(words)))
    X = sp.csr_matrix((vals, (rows, cols)), shape=(n, d))
    return X, y


IRIS = load_iris(return_X_y=True)
BINARY = make_classification(300, 12, n_informative=6, random_state=1)
NEWS = _newsgroups_like()


def _same(a, b):
    for name in ("coef_", "intercept_"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert a.n_iter_ == b.n_iter_
    assert a.t_ == b.t_
    if hasattr(b, "classes_"):
        np.testing.assert_array_equal(a.classes_, b.classes_)


def _data(name, sparse):
    X, y = {"iris": IRIS, "binary": BINARY, "news": NEWS}[name]
    if sparse and not sp.issparse(X):
        X = sp.csr_matrix(X)
    return X, y


CLASSIFIER_SETTINGS = [
    dict(random_state=0),
    dict(shuffle=False),
    dict(random_state=7, loss="squared_hinge", C=0.05),
    dict(random_state=3, tol=None, max_iter=15),
    dict(random_state=2, class_weight="balanced"),
    dict(random_state=2, class_weight={0: 0.25, 1: 3.0}),
    dict(random_state=4, early_stopping=True, validation_fraction=0.2, n_iter_no_change=3),
    dict(random_state=5, fit_intercept=False, n_iter_no_change=2, tol=1e-2),
]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("data", ["iris", "binary"])
@pytest.mark.parametrize("params", CLASSIFIER_SETTINGS, ids=str)
def test_passive_aggressive_classifier_is_scikit_learns(params, data, sparse):
    X, y = _data(data, sparse)
    if isinstance(params.get("class_weight"), dict) and data == "iris":
        params = {**params, "class_weight": {0: 0.25, 1: 3.0, 2: 1.0}}
    with olc.strict_mode():
        a = ours.PassiveAggressiveClassifier(**params).fit(X, y)
    b = reference.passive_aggressive_classifier(**params).fit(X, y)
    _same(a, b)


@pytest.mark.parametrize("params", [dict(random_state=0), dict(shuffle=False, max_iter=3),
                                    dict(random_state=1, class_weight="balanced",
                                         loss="squared_hinge")], ids=str)
def test_many_sparse_classes(params):
    """20 classes one-vs-rest on sparse text-like data: each class's own shuffle seed and
    stopping epoch, the 0.01 intercept decay."""
    X, y = NEWS
    with olc.strict_mode():
        a = ours.PassiveAggressiveClassifier(**params).fit(X, y)
        p = ours.Perceptron(**params).fit(X, y) if "loss" not in params else None
    _same(a, reference.passive_aggressive_classifier(**params).fit(X, y))
    if p is not None:
        _same(p, sk.Perceptron(**params).fit(X, y))


PERCEPTRON_SETTINGS = [
    dict(),
    dict(shuffle=False, eta0=0.3),
    dict(random_state=9, class_weight={0: 0.5, 1: 2.0, 2: 1.5}),
    dict(random_state=1, early_stopping=True, n_iter_no_change=2),
    dict(random_state=None, shuffle=False, tol=None, max_iter=7, fit_intercept=False),
]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("params", PERCEPTRON_SETTINGS, ids=str)
def test_perceptron_is_scikit_learns(params, weighted, sparse):
    X, y = _data("iris", sparse)
    sw = np.random.default_rng(0).uniform(0.0, 2.0, len(y)) if weighted else None
    if weighted:
        sw[::17] = 0.0  # rows that move nothing
    with olc.strict_mode():
        a = ours.Perceptron(**params).fit(X, y, sample_weight=sw)
    _same(a, sk.Perceptron(**params).fit(X, y, sample_weight=sw))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("params", [
    dict(random_state=0), dict(shuffle=False),
    dict(random_state=3, loss="squared_epsilon_insensitive", epsilon=0.5, C=0.1),
    dict(random_state=2, early_stopping=True), dict(random_state=6, tol=None, max_iter=9),
], ids=str)
def test_passive_aggressive_regressor_is_scikit_learns(params, sparse):
    X, y = make_regression(200, 8, noise=3.0, random_state=0)
    if sparse:
        X = sp.csr_matrix(X)
    with olc.strict_mode():
        a = ours.PassiveAggressiveRegressor(**params).fit(X, y)
    b = reference.passive_aggressive_regressor(**params).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    assert (a.n_iter_, a.t_) == (b.n_iter_, b.t_)


def test_partial_fit_warm_start_and_coef_init():
    X, y = IRIS
    rng = np.random.default_rng(3)
    coef0, b0 = rng.standard_normal((3, 4)), rng.standard_normal(3)
    with olc.strict_mode():
        a = ours.PassiveAggressiveClassifier(random_state=1)
        a.partial_fit(X[:70], y[:70], classes=[0, 1, 2]).partial_fit(X[70:], y[70:])
        c = ours.Perceptron(warm_start=True, max_iter=3, tol=None).fit(X, y).fit(X, y)
        e = ours.Perceptron(random_state=4).fit(X, y, coef_init=coef0, intercept_init=b0)
        r = ours.PassiveAggressiveRegressor(random_state=2, warm_start=True)
        r.fit(X, y.astype(float)).fit(X[:50], y[:50].astype(float))
    b = reference.passive_aggressive_classifier(random_state=1)
    b.partial_fit(X[:70], y[:70], classes=[0, 1, 2]).partial_fit(X[70:], y[70:])
    _same(a, b)
    _same(c, sk.Perceptron(warm_start=True, max_iter=3, tol=None).fit(X, y).fit(X, y))
    _same(e, sk.Perceptron(random_state=4).fit(X, y, coef_init=coef0, intercept_init=b0))
    s = reference.passive_aggressive_regressor(random_state=2, warm_start=True)
    s.fit(X, y.astype(float)).fit(X[:50], y[:50].astype(float))
    np.testing.assert_array_equal(r.coef_, s.coef_)
    np.testing.assert_array_equal(r.intercept_, s.intercept_)


def test_default_arithmetic_is_close():
    """Without strict mode olc's dense dot reassociates: the same model to rounding."""
    X, y = IRIS
    a = ours.PassiveAggressiveClassifier(random_state=0, tol=None, max_iter=5).fit(X, y)
    b = reference.passive_aggressive_classifier(random_state=0, tol=None, max_iter=5).fit(X, y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(a.intercept_, b.intercept_, rtol=1e-9, atol=1e-12)


def test_float32_input_keeps_its_dtype():
    X, y = IRIS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ours.Perceptron(shuffle=False, tol=None, max_iter=3).fit(X.astype(np.float32), y)
        b = sk.Perceptron(shuffle=False, tol=None, max_iter=3).fit(X.astype(np.float32), y)
    assert a.coef_.dtype == b.coef_.dtype == np.float32
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-5, atol=1e-5)


def _successor_same(a, b):
    for name in ("coef_", "intercept_"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert (a.n_iter_, a.t_) == (b.n_iter_, b.t_)


@pytest.mark.parametrize("params", CLASSIFIER_SETTINGS + [dict(random_state=1, average=True)],
                         ids=str)
def test_the_successor_reference_is_the_passive_aggressive_classifier(params):
    """Where scikit-learn still has PassiveAggressiveClassifier, its SGD successor gives the
    same model bit for bit: the reference does not change when the class is removed."""
    if not hasattr(sk, "PassiveAggressiveClassifier"):
        pytest.skip("scikit-learn without PassiveAggressiveClassifier: nothing to compare")
    for data in ("iris", "binary"):
        X, y = _data(data, False)
        if isinstance(params.get("class_weight"), dict) and data == "iris":
            params = {**params, "class_weight": {0: 0.25, 1: 3.0, 2: 1.0}}
        pa = sk.PassiveAggressiveClassifier(**params).fit(X, y)
        _successor_same(reference.successor("classifier", **params).fit(X, y), pa)


@pytest.mark.parametrize("params", [
    dict(random_state=0), dict(shuffle=False),
    dict(random_state=3, loss="squared_epsilon_insensitive", epsilon=0.5, C=0.1),
    dict(random_state=2, early_stopping=True), dict(random_state=6, tol=None, max_iter=9),
], ids=str)
def test_the_successor_reference_is_the_passive_aggressive_regressor(params):
    if not hasattr(sk, "PassiveAggressiveRegressor"):
        pytest.skip("scikit-learn without PassiveAggressiveRegressor: nothing to compare")
    X, y = make_regression(200, 8, noise=3.0, random_state=0)
    pa = sk.PassiveAggressiveRegressor(**params).fit(X, y)
    _successor_same(reference.successor("regressor", **params).fit(X, y), pa)


def test_the_successor_refuses_a_loss_it_has_no_counterpart_for():
    with pytest.raises(ValueError, match="no SGD successor"):
        reference.successor_params({"loss": "log_loss"}, "classifier")
