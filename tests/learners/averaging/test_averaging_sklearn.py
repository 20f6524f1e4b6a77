"""``average=`` against scikit-learn's ``average`` (``SGDClassifier``/``SGDRegressor``; the
deprecated ``PassiveAggressiveClassifier`` is ``SGDClassifier(learning_rate="pa1"/"pa2")``),
on dense streams without all-zero rows (scikit-learn's PA-I skips those without counting
them: ``olc.learners._framework.averaging``).

Strict mode: **bit for bit** — olc's iterates are scikit-learn's
(tests/learners/exactness/test_sklearn_parity.py) and its lazy sum does scikit-learn's arithmetic in
scikit-learn's order (``WeightVector.add_average``, ``reset_wscale``: (aw + a·w)·(1/b)); SGD
with an L2 penalty as long as the scale stays above 2⁻¹⁰ (olc then rebases the average,
scikit-learn only below 1e-9). The default (reassociated) mode: 1e-10 relative, as the
iterates.

scikit-learn is always trained by one ``partial_fit`` call here. olc's result does not depend
on how the stream is cut into calls (its lazy sum is never rebased at a call's end), so olc
in several calls is compared with scikit-learn in one. scikit-learn's own several calls are
not a reference: with averaging on, its binary ``_fit_binary`` keeps the *average* intercept
as ``intercept_`` and never stores the current one (``_standard_intercept`` is updated only
while averaging has not begun), so each later call restarts from a stale current intercept
(scikit-learn 1.9.1: after 200 rows of a perceptron, ``_standard_intercept`` = 0 where the
iterate's bias is −1) and its iterates leave those of one call.
"""
import warnings

import numpy as np
import pytest
from sklearn.linear_model import SGDClassifier, SGDRegressor

import olc

LABELS = np.array([3, 7])
SPLITS = [0, 1, 57, 58, 200, 333, 400]


def _stream(seed, n=400, d=8):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 3.0, size=d) + rng.normal(size=d)
    w = rng.normal(size=d)
    noise = 0.5 * rng.normal(size=n)
    score = X @ w + 0.3 + noise
    return X, LABELS[(score > 0).astype(int)], score


# (olc name, olc params, scikit-learn class, its params, regression?)
CASES = [
    ("perceptron", {}, SGDClassifier,
     dict(loss="perceptron", learning_rate="constant", eta0=1.0, penalty=None), False),
    ("perceptron", {"eta": 0.25}, SGDClassifier,
     dict(loss="perceptron", learning_rate="constant", eta0=0.25, penalty=None), False),
    ("pa-i", {"C": 0.05}, SGDClassifier,
     dict(loss="hinge", learning_rate="pa1", eta0=0.05, penalty=None), False),
    ("pa-ii", {"C": 1.0}, SGDClassifier,
     dict(loss="hinge", learning_rate="pa2", eta0=1.0, penalty=None), False),
    ("sgd", {"eta0": 0.01, "schedule": "constant"}, SGDClassifier,
     dict(loss="hinge", learning_rate="constant", eta0=0.01, penalty=None), False),
    ("sgd", {"eta0": 0.01, "schedule": "constant", "lam": 0.01}, SGDClassifier,
     dict(loss="hinge", learning_rate="constant", eta0=0.01, penalty="l2", alpha=0.01), False),
    ("sgd", {"eta0": 0.1, "schedule": "1/t", "lam": 0.001}, SGDClassifier,
     dict(loss="hinge", learning_rate="invscaling", power_t=1.0, eta0=0.1, penalty="l2",
          alpha=0.001), False),
    ("pa-i-regression", {"C": 0.1, "epsilon": 0.1}, SGDRegressor,
     dict(loss="epsilon_insensitive", epsilon=0.1, learning_rate="pa1", eta0=0.1,
          penalty=None), True),
    ("pa-ii-regression", {"C": 0.5, "epsilon": 0.0}, SGDRegressor,
     dict(loss="epsilon_insensitive", epsilon=0.0, learning_rate="pa2", eta0=0.5,
          penalty=None), True),
    ("sgd-regression", {"eta0": 0.001, "schedule": "constant", "lam": 0.01}, SGDRegressor,
     dict(learning_rate="constant", eta0=0.001, penalty="l2", alpha=0.01), True),
]
AVERAGES = [True, 1, 37, 399, 400, 401]


def _ids(case):
    return case[0] + "".join(f"-{k}={v}" for k, v in case[1].items())


def _train(model, X, t, splits, regression, sk):
    for a, b in zip(splits[:-1], splits[1:]):
        kwargs = {} if regression else {"classes": LABELS}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.partial_fit(X[a:b], t[a:b], **kwargs)
    return model


def _pair(case, average, seed, splits, strict=True):
    name, params, sk_class, sk_params, regression = case
    X, y, score = _stream(seed)
    t = score if regression else y
    sk = _train(sk_class(shuffle=False, average=average, **sk_params), X, t, [0, X.shape[0]],
                regression, True)
    with olc.strict_mode(strict):
        ours = _train(olc.make(name, average=average, **params), X, t, splits, regression,
                      False)
        values = ours.predict(X) if regression else ours.decision_function(X)
    return X, sk, ours, values


@pytest.mark.parametrize("average", AVERAGES, ids=[f"average={a}" for a in AVERAGES])
@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_one_call_bit_for_bit(case, average):
    X, sk, ours, values = _pair(case, average, seed=0, splits=[0, 400])
    np.testing.assert_array_equal(ours.coef_, sk.coef_)
    np.testing.assert_array_equal(ours.intercept_, sk.intercept_)
    sk_values = sk.predict(X) if case[4] else sk.decision_function(X)
    np.testing.assert_allclose(values, sk_values, rtol=1e-12,
                               atol=1e-12 * np.abs(sk_values).max())
    if not case[4]:
        np.testing.assert_array_equal(ours.predict(X), sk.predict(X))


@pytest.mark.parametrize("average", [True, 37], ids=["average=True", "average=37"])
@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
@pytest.mark.parametrize("seed", [1, 2])
def test_several_calls_bit_for_bit(case, average, seed):
    X, sk, ours, values = _pair(case, average, seed=seed, splits=SPLITS)
    np.testing.assert_array_equal(ours.coef_, sk.coef_)
    np.testing.assert_array_equal(ours.intercept_, sk.intercept_)


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_default_mode_to_rounding(case):
    X, sk, ours, values = _pair(case, True, seed=3, splits=SPLITS, strict=False)
    scale = np.abs(sk.coef_).max()
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-10, atol=1e-10 * scale)
    np.testing.assert_allclose(ours.intercept_, sk.intercept_, rtol=1e-10, atol=1e-10 * scale)


def test_multiclass_one_vs_rest_matches_scikit_learn():
    """K = 3: scikit-learn's one-vs-rest SGD (one binary averaged learner per class, each
    bit for bit a binary fit) against olc's one-vs-rest pass."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 6))
    y = np.argmax(X @ rng.normal(size=(6, 3)) + 0.3 * rng.normal(size=(300, 3)), axis=1)
    sk = SGDClassifier(loss="hinge", learning_rate="pa1", eta0=0.1, penalty=None,
                       shuffle=False, average=10).partial_fit(X, y, classes=[0, 1, 2])
    with olc.strict_mode():
        ours = olc.make("pa-i", C=0.1, average=10).partial_fit(X, y, classes=[0, 1, 2])
    np.testing.assert_array_equal(ours.coef_, sk.coef_)
    np.testing.assert_array_equal(ours.intercept_, sk.intercept_)
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
