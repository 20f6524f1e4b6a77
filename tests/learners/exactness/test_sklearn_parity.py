"""Parity with scikit-learn, where it implements the same algorithm on a dense stream:

* ``Perceptron(shuffle=False)`` (= SGDClassifier(loss="perceptron", learning_rate="constant",
  penalty=None)) ↔ olc ``perceptron`` with fit_intercept=True;
* ``SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1"/"pa2", eta0=C)`` and the
  deprecated ``PassiveAggressiveClassifier(C, loss="hinge"/"squared_hinge")`` ↔ olc
  ``pa-i`` / ``pa-ii`` (and ``pa`` = PA-I with an unreachable C, without a bias: olc's
  classic PA solves its problem over (w, b) exactly when it has a bias, which scikit-learn's
  bias convention does not).

Both libraries are trained with ``partial_fit`` (one call, and several calls).

Strict mode: scikit-learn's loop (sklearn/linear_model/_sgd_fast.pyx.tp, ``_plain_sgd`` with
``WeightVector.dot/add``, wscale = 1 without a penalty) computes, per row, p = Σⱼ wⱼxⱼ left to
right, then p + b; the step is min(C, ℓ/‖x‖²) (or ℓ/(‖x‖² + 0.5/C)) times y, and
wⱼ += xⱼ·(step/1). With ``olc.strict_mode()`` olc performs the same IEEE operations in the
same order (product commutes exactly, x/1 = x), so coef_ and intercept_ must be equal bit
for bit — asserted with ``array_equal``. In the default mode olc's dense dot may be
reassociated (SIMD), which moves each score by a few ulps; PA's step depends continuously
on the score, so the weights drift apart by rounding only: asserted to 1e-10 relative.

The same holds for olc on binary CSR input (``test_strict_mode_bitwise_binary_csr``).

Data are continuous random (no exact-zero scores): at a score of exactly 0 scikit-learn's
``predict`` returns classes_[0] (it tests score > 0) whereas olc uses sign(0) = +1 and
returns classes_[1]; with continuous data that tie never occurs, so predictions compare
equal.
"""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.linear_model import SGDClassifier

import olc

try:  # deprecated in scikit-learn 1.8, to be removed in 1.10
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        from sklearn.linear_model import PassiveAggressiveClassifier
except ImportError:  # pragma: no cover
    PassiveAggressiveClassifier = None

LABELS = np.array([3, 7])  # not ±1: checks the classes_[0] ↦ −1, classes_[1] ↦ +1 mapping
SPLITS = [0, 1, 57, 58, 200, 333, 400]  # several partial_fit calls, incl. one-row batches


def _stream(seed, n=400, d=8):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 3.0, size=d) + rng.normal(size=d)
    w = rng.normal(size=d)
    noise = 0.5 * rng.normal(size=n)  # non-separable: updates all along the stream
    y = LABELS[(X @ w + 0.3 + noise > 0).astype(int)]
    return X, y


def _sk_models(name, param):
    if name == "perceptron":
        return [SkPerceptron(eta0=param, shuffle=False, fit_intercept=True, penalty=None)]
    lr = {"pa": "pa1", "pa-i": "pa1", "pa-ii": "pa2"}[name]
    models = [SGDClassifier(loss="hinge", penalty=None, learning_rate=lr, eta0=param,
                            shuffle=False, fit_intercept=name != "pa", average=False)]
    if PassiveAggressiveClassifier is not None and name != "pa":
        loss = "hinge" if name == "pa-i" else "squared_hinge"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            models.append(PassiveAggressiveClassifier(C=param, loss=loss, shuffle=False,
                                                      fit_intercept=True, average=False))
    return models


def _olc_model(name, param):
    if name == "perceptron":
        return olc.make("perceptron", eta=param, fit_intercept=True)
    if name == "pa":
        return olc.make("pa", fit_intercept=False)
    return olc.make(name, C=param, fit_intercept=True)


CASES = [
    ("perceptron", 1.0),
    ("perceptron", 0.25),
    ("pa-i", 0.05),    # the clip τ = C binds often
    ("pa-i", 1.0),
    ("pa-ii", 0.05),
    ("pa-ii", 1.0),
    ("pa", 1e300),     # classic PA: min(1e300, ℓ/‖x‖²) = ℓ/‖x‖² for every row here
]


def _train(model, X, y, splits, sk):
    for a, b in zip(splits[:-1], splits[1:]):
        if sk:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                model.partial_fit(X[a:b], y[a:b], classes=LABELS)
        else:
            model.partial_fit(X[a:b], y[a:b], classes=LABELS)
    return model


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("splits", [[0, 400], SPLITS], ids=["one-call", "several-calls"])
@pytest.mark.parametrize("name,param", CASES, ids=[f"{n}-{p:g}" for n, p in CASES])
def test_strict_mode_bitwise(name, param, splits, seed):
    X, y = _stream(seed)
    for sk in _sk_models(name, param):
        _train(sk, X, y, splits, sk=True)
        with olc.strict_mode():
            ours = _train(_olc_model(name, param), X, y, splits, sk=False)
            pred = ours.predict(X)
        assert np.array_equal(ours.classes_, sk.classes_)
        assert np.array_equal(ours.coef_, sk.coef_), type(sk).__name__
        assert np.array_equal(ours.intercept_, sk.intercept_), type(sk).__name__
        assert np.array_equal(pred, sk.predict(X))
        # not vacuous: the stream kept updating the model
        assert ours.n_updates_ > 20


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("splits", [[0, 400], SPLITS], ids=["one-call", "several-calls"])
@pytest.mark.parametrize("name,param", CASES, ids=[f"{n}-{p:g}" for n, p in CASES])
def test_default_mode_close(name, param, splits, seed):
    X, y = _stream(seed)
    for sk in _sk_models(name, param):
        _train(sk, X, y, splits, sk=True)
        with olc.strict_mode(False):  # the default mode, whatever the process setting
            ours = _train(_olc_model(name, param), X, y, splits, sk=False)
            pred = ours.predict(X)
        scale = np.abs(sk.coef_).max()
        np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-10, atol=1e-10 * scale)
        np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=1e-10,
                                   atol=1e-10 * scale)
        assert np.array_equal(pred, sk.predict(X))


def _binary_csr_stream(seed, n=400, d=40):
    """Binary CSR rows (about 8 ones each, some empty), as in bag-of-words or hashed features:
    olc passes them to its rules without their values (kernels.py), scikit-learn multiplies by
    the stored 1.0s; x·1.0 = x, so the arithmetic is the same."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, d)) < 0.2).astype(np.float64)
    w = rng.normal(size=d)
    y = LABELS[(X @ w - 0.3 + 0.5 * rng.normal(size=n) > 0).astype(int)]
    return sp.csr_matrix(X), y


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("splits", [[0, 400], SPLITS], ids=["one-call", "several-calls"])
@pytest.mark.parametrize("name,param", CASES, ids=[f"{n}-{p:g}" for n, p in CASES])
def test_strict_mode_bitwise_binary_csr(name, param, splits, seed):
    """olc on binary CSR input against scikit-learn on the same rows, dense: scikit-learn's
    sparse loop is not the reference, since it damps every step of the bias by 0.01 on sparse
    input (``SPARSE_INTERCEPT_DECAY`` in sklearn/linear_model/_base.py); its dense loop sums
    the zeros too, which adds ±0.0 and changes no bit. Scores of exactly 0 are common here
    (the perceptron's weights are multiples of η), so predictions are compared off the ties."""
    X, y = _binary_csr_stream(seed)
    for sk in _sk_models(name, param):
        _train(sk, X.toarray(), y, splits, sk=True)
        with olc.strict_mode():
            ours = _train(_olc_model(name, param), X, y, splits, sk=False)
            score = ours.decision_function(X)
            pred = ours.predict(X)
        assert np.array_equal(ours.coef_, sk.coef_), type(sk).__name__
        assert np.array_equal(ours.intercept_, sk.intercept_), type(sk).__name__
        off_tie = score != 0.0
        assert np.array_equal(pred[off_tie], sk.predict(X.toarray())[off_tie])
        assert ours.n_updates_ > 20


@pytest.mark.parametrize("name,param", CASES[:1] + CASES[3:4] + CASES[5:6])
def test_fit_equals_one_partial_fit(name, param):
    """olc's fit is a reset plus one online pass: equal to scikit-learn's partial_fit on the
    whole stream (scikit-learn's own fit differs: it runs epochs with a stopping rule)."""
    X, y = _stream(5)
    sk = _train(_sk_models(name, param)[0], X, y, [0, 400], sk=True)
    with olc.strict_mode():
        ours = _olc_model(name, param)
        ours.partial_fit(X[:10], y[:10], classes=LABELS)  # state that fit must discard
        ours.fit(X, y)
    assert np.array_equal(ours.coef_, sk.coef_)
    assert np.array_equal(ours.intercept_, sk.intercept_)


def test_zero_score_tie_convention():
    """Documents the one intended divergence: at score exactly 0, scikit-learn predicts
    classes_[0], olc predicts classes_[1] (sign(0) = +1). Both learn w = (1, 0), b = 0 from
    one row (an update at score 0 in both: y·s ≤ 0); the row (0, 1) then scores exactly 0."""
    X = np.array([[1.0, 0.0]])
    y = np.array([7])
    sk = SkPerceptron(shuffle=False, fit_intercept=False).partial_fit(X, y, classes=LABELS)
    ours = olc.make("perceptron", fit_intercept=False).partial_fit(X, y, classes=LABELS)
    assert np.array_equal(ours.coef_, sk.coef_)
    tie = np.array([[0.0, 1.0]])
    assert sk.decision_function(tie)[0] == 0.0 and ours.decision_function(tie)[0] == 0.0
    assert sk.predict(tie)[0] == LABELS[0]
    assert ours.predict(tie)[0] == LABELS[1]
