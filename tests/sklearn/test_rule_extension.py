"""The linear rules' run-time extension (``layouts.linear.SklearnHP``): per-row update
weights carried by the target's magnitude and the bias's decay, against a plain NumPy loop
written from scikit-learn's ``_plain_sgd`` update (``update *= class_weight *
sample_weight``; ``intercept += update * intercept_decay``); and without the extension the
rules are untouched (the same learner, the same bits)."""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc._compiled.driver.inputs import LoopInput
from olc.learners.passive_aggressive import PassiveAggressiveI, PassiveAggressiveII
from olc.learners.perceptron import Perceptron
from olc.learners._framework.records import PreparedStream
from olc.learners.regression import PassiveAggressiveIRegression

RNG = np.random.default_rng(5)
X = RNG.standard_normal((40, 6))
LABELS = np.where(RNG.standard_normal(40) > 0, 1.0, -1.0)
WEIGHTS = RNG.uniform(0.0, 3.0, 40)
WEIGHTS[::7] = 0.0


def _reference(kind, X, labels, weights, decay, C=0.7, eta=1.3, epsilon=0.2):
    w, b = np.zeros(X.shape[1]), 0.0
    for x, y, sw in zip(X, labels, weights):
        p = 0.0
        for j in range(x.size):
            p += w[j] * x[j]
        p += b
        if kind == "perceptron":
            step = eta * y if y * p <= 0 else 0.0
        else:
            if kind == "regression":
                loss = max(abs(y - p) - epsilon, 0.0)
            else:
                loss = max(1.0 - y * p, 0.0)
            q = 0.0
            for v in x:
                q += v * v
            if kind == "pa2":
                step = loss / (q + 0.5 / C)
            else:
                step = min(C, loss / q) if q > 0 else 0.0
            step *= (y if kind != "regression" else (-1.0 if y - p < 0 else 1.0))
        step *= sw
        if step != 0.0:
            w += x * step
            b += step * decay
    return w, b


def _learn(learner, X, targets, extension):
    hp = np.concatenate([learner._hyperparameters(), extension])
    stream = PreparedStream(LoopInput(X), X, targets, np.array([-1.0, 1.0]), hp)
    learner.learn_prepared(stream)
    return learner._vecs[0], learner._scal[0]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("kind, make", [
    ("perceptron", lambda: Perceptron(eta=1.3)),
    ("pa1", lambda: PassiveAggressiveI(C=0.7)),
    ("pa2", lambda: PassiveAggressiveII(C=0.7)),
])
def test_weighted_rows_and_decay(kind, make, sparse):
    data = sp.csr_matrix(X) if sparse else X
    with olc.strict_mode():
        w, b = _learn(make(), data, np.copysign(WEIGHTS, LABELS), [1.0, 0.01])
    rw, rb = _reference(kind, X, LABELS, WEIGHTS, 0.01)
    np.testing.assert_array_equal(w, rw)
    assert b == rb


def test_regression_decay():
    y = X @ RNG.standard_normal(6) + 0.5
    with olc.strict_mode():
        w, b = _learn(PassiveAggressiveIRegression(C=0.7, epsilon=0.2), X, y, [0.0, 0.01])
    rw, rb = _reference("regression", X, y, np.ones(40), 0.01)
    np.testing.assert_array_equal(w, rw)
    assert b == rb


@pytest.mark.parametrize("make", [lambda: Perceptron(), lambda: PassiveAggressiveI(C=0.7)])
def test_neutral_extension_changes_no_bit(make):
    """Weights of 1 and a decay of 1 learn exactly what the plain learner learns (default
    arithmetic), and the plain learner's hp has no extension."""
    plain = make().fit(X, LABELS)
    assert plain._hyperparameters().shape[0] == plain._layout.n_hp
    w, b = _learn(make(), X, LABELS, [1.0, 1.0])
    np.testing.assert_array_equal(w, plain._vecs[0])
    assert b == plain._scal[0]
