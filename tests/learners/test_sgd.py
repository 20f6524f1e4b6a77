"""Stochastic gradient descent (textbook ch. 31, §31.1: θ ← θ − ε∇J(θ)) for classification
(hinge, logistic, squared hinge) and regression (squared loss), step sizes η₀, η₀/t, η₀/√t,
optional L2 penalty.

Yardsticks: a per-example NumPy reference written from the update
w ← max(0, 1 − η_tλ)·w − η_t ℓ'(s)·x, b ← b − η_t ℓ'(s) (the loss derivatives written
independently, the logistic one with scipy's expit), and scikit-learn's ``SGDClassifier`` /
``SGDRegressor`` trained by ``partial_fit``: bit for bit in strict mode where they compute
the same quantities (constant and 1/t steps; hinge, squared hinge reparametrised, squared
loss), to 1e-10 otherwise.
"""
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import expit
from sklearn.linear_model import SGDClassifier, SGDRegressor

import olc
from olc._compiled.kernels.scaled import RENORM_LOW
from olc._compiled.layouts.sgd import SGDScal, SGDVec
from olc.learners import InputError

SCHEDULES = ["constant", "1/t", "1/sqrt(t)"]
LOSSES = ["hinge", "logistic", "squared_hinge"]


def _stream(seed, n=300, d=6, regression=False, sparse_frac=0.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.3, 1.5, size=d)
    if sparse_frac:
        X *= rng.random((n, d)) >= sparse_frac
    w = rng.normal(size=d)
    s = X @ w + 0.3 + 0.5 * rng.normal(size=n)
    return X, (s if regression else np.where(s > 0, 1, -1))


def _close(a, b, what, rtol=1e-8):
    a, b = np.asarray(a, float), np.asarray(b, float)
    scale = max(np.abs(a).max(initial=0.0), np.abs(b).max(initial=0.0), 1e-300)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * scale, err_msg=what)


def ref_sgd(X, y, loss, eta0, schedule, lam, bias=True):
    d = X.shape[1]
    w, b = np.zeros(d), 0.0
    scores = []
    for t, (x, yt) in enumerate(zip(X, y), start=1):
        s = float(w @ x) + b
        scores.append(s)
        eta = eta0 / {"constant": 1.0, "1/t": t, "1/sqrt(t)": np.sqrt(t)}[schedule]
        if loss == "squared":      # ½(y − s)²
            g = s - yt
        elif loss == "hinge":      # max(0, 1 − ys)
            g = -yt if yt * s < 1 else 0.0
        elif loss == "squared_hinge":  # ½ max(0, 1 − ys)²
            g = -yt * (1 - yt * s) if yt * s < 1 else 0.0
        else:                      # log(1 + exp(−ys))
            g = -yt * expit(-yt * s)
        w = max(0.0, 1.0 - eta * lam) * w - eta * g * x
        if bias:
            b -= eta * g
    return w, b, np.array(scores)


CASES = [(loss, sched, lam) for loss in LOSSES for sched in SCHEDULES for lam in (0.0, 0.05)]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("loss, schedule, lam", CASES,
                         ids=[f"{l}-{s}-{lam}" for l, s, lam in CASES])
def test_classifier_matches_reference(loss, schedule, lam, seed):
    X, y = _stream(seed, sparse_frac=0.3)
    w, b, scores = ref_sgd(X, y, loss, 0.5, schedule, lam)
    for Xin in (X, sp.csr_matrix(X)):
        learner = olc.make("sgd", loss=loss, eta0=0.5, schedule=schedule, lam=lam)
        record = learner.predict_then_learn(Xin, y)
        np.testing.assert_array_equal(record.pred, np.where(scores >= 0, 1, -1))
        _close(record.score, scores, "per-step scores")
        _close(learner.coef_[0], w, "w")
        _close(learner.intercept_, [b], "b")


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("lam", [0.0, 0.1])
@pytest.mark.parametrize("bias", [True, False])
def test_regressor_matches_reference(schedule, lam, bias, seed):
    X, y = _stream(seed, regression=True, sparse_frac=0.3)
    w, b, scores = ref_sgd(X, y, "squared", 0.05, schedule, lam, bias)
    for Xin in (X, sp.csr_matrix(X)):
        learner = olc.make("sgd-regression", eta0=0.05, schedule=schedule, lam=lam,
                           fit_intercept=bias)
        record = learner.predict_then_learn(Xin, y)
        _close(record.score, scores, "per-step predictions")
        _close(learner.coef_, w, "w")
        _close(learner.intercept_, [b], "b")


def test_shrink_clamped_at_zero_and_renormalisation():
    """η_tλ ≥ 1: w ← 0 before the gradient step (scikit-learn's max(0, ·)); η_tλ close to 1:
    the scale underflows past RENORM_LOW many times and is renormalised — both equal the
    plain reference."""
    X, y = _stream(3, n=400)
    for eta0, lam in ((1.0, 2.0), (0.5, 1.9)):
        w, b, scores = ref_sgd(X, y, "hinge", eta0, "constant", lam)
        learner = olc.make("sgd", eta0=eta0, schedule="constant", lam=lam)
        record = learner.predict_then_learn(sp.csr_matrix(X), y)
        _close(record.score, scores, "scores")
        _close(learner.coef_[0], w, "w")
        assert learner._scal[SGDScal.SCALE] >= RENORM_LOW
    # 0.05⁴⁰⁰ ≈ 1e-520: without renormalisation the scale would be 0.
    assert 0.05 ** 80 < RENORM_LOW


def test_l2_shrink_is_o_nnz():
    """The shrink touches only the scale: a sparse row changes the stored vector at its
    nonzeros only, while every weight of w shrinks by (1 − ηλ)."""
    d = 5000
    learner = olc.make("sgd", eta0=0.1, schedule="constant", lam=0.5)
    learner.partial_fit(sp.random(20, d, density=0.01, random_state=0, format="csr"),
                        np.tile([-1, 1], 10))
    v, coef = learner._vecs[SGDVec.V].copy(), learner.coef_[0].copy()
    row = sp.csr_matrix(([1.0, -2.0], ([0, 0], [10, 4000])), shape=(1, d))
    learner.partial_fit(row, [1 if learner.decision_function(row)[0] < 0 else -1])
    assert set(np.flatnonzero(learner._vecs[SGDVec.V] != v)) <= {10, 4000}
    others = np.setdiff1d(np.flatnonzero(coef), [10, 4000])
    _close(learner.coef_[0][others], coef[others] * (1 - 0.1 * 0.5), "shrink", rtol=1e-14)


def test_logistic_extreme_margins_stay_finite():
    """Margins z = ±5e299: e^{|z|} overflows, the derivative −y/(1 + e^z) is evaluated in
    the form with a non-positive exponent — 0 or ∓y exactly, never NaN."""
    X = np.array([[1e150, 0.0], [-1e150, 1.0], [1e150, 0.0]])
    learner = olc.make("sgd", loss="logistic", schedule="constant", eta0=1.0)
    record = learner.predict_then_learn(X, [1, -1, -1], classes=[-1, 1])
    assert abs(record.score[1]) > 1e299 and abs(record.score[2]) > 1e299
    np.testing.assert_array_equal(record.updated, [True, False, True])
    np.testing.assert_array_equal(learner.coef_, [[0.5e150 - 1e150, 0.0]])
    assert learner.intercept_[0] == 0.5 - 1.0


def test_zero_row_moves_only_the_bias():
    X, y = _stream(4, n=50, d=3)
    learner = olc.make("sgd", schedule="constant", eta0=0.5).fit(X, y)
    coef, b = learner.coef_.copy(), learner.intercept_[0]
    label = -1 if b >= 0 else 1  # hinge active at the origin
    learner.partial_fit(np.zeros((1, 3)), [label])
    np.testing.assert_array_equal(learner.coef_, coef)
    assert learner.intercept_[0] == b + 0.5 * label


def test_step_counter_spans_calls_and_fit_restarts_it():
    X, y = _stream(5, n=40)
    whole = olc.make("sgd", schedule="1/t").fit(X, y)
    parts = olc.make("sgd", schedule="1/t").partial_fit(X[:13], y[:13])
    parts.partial_fit(X[13:], y[13:])
    np.testing.assert_array_equal(parts.coef_, whole.coef_)
    again = olc.make("sgd", schedule="1/t").fit(X[:5], y[:5]).fit(X, y)
    np.testing.assert_array_equal(again.coef_, whole.coef_)


@pytest.mark.parametrize("params, key", [({"schedule": "1/t²"}, "schedule"),
                                         ({"loss": "hinge2"}, "loss"),
                                         ({"eta0": 0.0}, "eta0"),
                                         ({"lam": -0.1}, "lam")])
def test_bad_parameters_are_named(params, key):
    X, y = _stream(6, n=10)
    with pytest.raises(InputError, match=key):
        olc.make("sgd", **params).fit(X, y)


# -- scikit-learn parity ------------------------------------------------------------------------

SPLITS = [0, 1, 57, 58, 200, 299, 300]


def _sk_classifier(loss, eta0, schedule, lam):
    kw = dict(shuffle=False, fit_intercept=True, average=False)
    if loss == "squared_hinge":  # sklearn's loss is max(0, 1 − z)² (no ½)
        eta0, lam = eta0 / 2, 2 * lam
    sk_loss = {"hinge": "hinge", "squared_hinge": "squared_hinge", "logistic": "log_loss"}[loss]
    lr = dict(learning_rate="constant") if schedule == "constant" else dict(
        learning_rate="invscaling", power_t=1.0 if schedule == "1/t" else 0.5)
    pen = dict(penalty="l2", alpha=lam) if lam else dict(penalty=None)
    return SGDClassifier(loss=sk_loss, eta0=eta0, **lr, **pen, **kw)


def _sk_regressor(eta0, schedule, lam):
    lr = dict(learning_rate="constant") if schedule == "constant" else dict(
        learning_rate="invscaling", power_t=1.0 if schedule == "1/t" else 0.5)
    pen = dict(penalty="l2", alpha=lam) if lam else dict(penalty=None)
    return SGDRegressor(loss="squared_error", eta0=eta0, shuffle=False, **lr, **pen)


def _train(model, X, y, splits, classes=None):
    for a, b in zip(splits[:-1], splits[1:]):
        if classes is None:
            model.partial_fit(X[a:b], y[a:b])
        else:
            model.partial_fit(X[a:b], y[a:b], classes=classes)
    return model


PARITY = [(loss, sched, lam) for loss in LOSSES for sched in SCHEDULES for lam in (0.0, 0.01)]


@pytest.mark.parametrize("splits", [[0, 300], SPLITS], ids=["one-call", "several-calls"])
@pytest.mark.parametrize("loss, schedule, lam", PARITY,
                         ids=[f"{l}-{s}-{lam}" for l, s, lam in PARITY])
def test_sklearn_classifier_parity(loss, schedule, lam, splits):
    X, y = _stream(7)
    y = np.where(y > 0, 7, 3)
    sk = _train(_sk_classifier(loss, 0.2, schedule, lam), X, y, splits, classes=[3, 7])
    # scikit-learn folds its weight scale into the weights at the end of every partial_fit
    # call (reset_wscale); olc keeps it: with L2 and several calls, equal up to rounding.
    bitwise = (loss != "logistic" and schedule != "1/sqrt(t)"
               and (lam == 0.0 or len(splits) == 2))
    with olc.strict_mode(bitwise):
        ours = _train(olc.make("sgd", loss=loss, eta0=0.2, schedule=schedule, lam=lam),
                      X, y, splits, classes=[3, 7])
        pred = ours.predict(X)
    if bitwise:
        assert np.array_equal(ours.coef_, sk.coef_)
        assert np.array_equal(ours.intercept_, sk.intercept_)
    else:
        _close(ours.coef_, sk.coef_, "coef_", rtol=1e-10)
        _close(ours.intercept_, sk.intercept_, "intercept_", rtol=1e-10)
    assert np.array_equal(pred, sk.predict(X))


@pytest.mark.parametrize("splits", [[0, 300], SPLITS], ids=["one-call", "several-calls"])
@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("lam", [0.0, 0.01])
def test_sklearn_regressor_parity(schedule, lam, splits):
    X, y = _stream(8, regression=True)
    sk = _train(_sk_regressor(0.02, schedule, lam), X, y, splits)
    bitwise = schedule != "1/sqrt(t)" and (lam == 0.0 or len(splits) == 2)
    with olc.strict_mode(bitwise):
        ours = _train(olc.make("sgd-regression", eta0=0.02, schedule=schedule, lam=lam),
                      X, y, splits)
        pred = ours.predict(X)
    if bitwise:
        assert np.array_equal(ours.coef_, sk.coef_)
        assert np.array_equal(ours.intercept_, sk.intercept_)
    else:
        _close(ours.coef_, sk.coef_, "coef_", rtol=1e-10)
        _close(ours.intercept_, sk.intercept_, "intercept_", rtol=1e-10)
    _close(pred, sk.predict(X), "predict", rtol=1e-10)
