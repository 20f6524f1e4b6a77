"""Contracts 2 and 3: a stream is a stream however it is cut into batches, and the online
predictions are defined from the very first row.

Before any learning, ``predict``/``decision_function``/``coef_`` raise scikit-learn's
``NotFittedError``; inside the online protocol the first prediction is defined: +1, i.e.
``classes_[1]``, for every learner (sign(0) = +1 of a zero model; e-OMM's Algorithm 1 line 2
predicts +1 explicitly).
"""
import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

import olc

from ._support import (assert_same_bits, assert_same_model, csr, each_algorithm,
                       each_binary_record_algorithm, KERNEL_MODELS, sign_pm, stream)

CUTS = [
    [(0, 60)],
    [(0, 1), (1, 2), (2, 60)],
    [(0, 7), (7, 8), (8, 31), (31, 59), (59, 60)],
    [(i, i + 1) for i in range(60)],
]


def _separable(seed, n=60, d=5):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    s = X @ w
    keep = np.abs(s) > 0.3  # a margin, so that every learner can reach τ
    return X[keep], (s[keep] > 0).astype(int)


@each_algorithm
@pytest.mark.parametrize("layout", ["dense", "csr"])
@pytest.mark.parametrize("cut", range(len(CUTS)), ids=lambda k: f"cut{k}")
def test_chunked_equals_one_call(name, layout, cut):
    X, y = stream(11)
    conv = csr if layout == "csr" else np.asarray
    whole = olc.make(name)
    r_whole = whole.predict_then_learn(conv(X), y, classes=[0, 1])

    pf, ptl = olc.make(name), olc.make(name)
    records = []
    for a, b in CUTS[cut]:
        pf.partial_fit(conv(X[a:b]), y[a:b], classes=[0, 1] if a == 0 else None)
        records.append(ptl.predict_then_learn(conv(X[a:b]), y[a:b], classes=[0, 1]))
    for field in ("pred", "score", "updated", "aux"):
        assert_same_bits(np.concatenate([getattr(r, field) for r in records]),
                         getattr(r_whole, field), field)
    assert_same_model(whole, pf, "partial_fit")
    assert_same_model(whole, ptl, "predict_then_learn")
    for other in (pf, ptl):
        assert other.n_steps_ == whole.n_steps_ == len(y)
        assert other.n_updates_ == whole.n_updates_ == int(r_whole.updated.sum())
        assert_same_bits(other.decision_function(X), whole.decision_function(X),
                         "decision_function")


@each_binary_record_algorithm
def test_chunked_tau_equals_one_call(name):
    """τ (first step whose classifier separates the check set) is counted over the learner's
    lifetime: the first batch that reports one reports the single call's value."""
    X, y = _separable(3)
    check = (X, y)
    X, y = np.tile(X, (6, 1)), np.tile(y, 6)  # several passes
    whole = olc.make(name)
    tau = whole.predict_then_learn(X, y, classes=[0, 1], check=check).tau
    assert tau > 0, "a separable stream with margin should reach τ within six passes"
    chunked = olc.make(name)
    taus = [chunked.predict_then_learn(X[a:a + 5], y[a:a + 5], classes=[0, 1], check=check).tau
            for a in range(0, len(y), 5)]
    first = next(t for t in taus if t != -1)
    assert first == tau


@each_algorithm
def test_fit_equals_partial_fit_on_fresh_learner(name):
    X, y = stream(12)
    a = olc.make(name).fit(X, y)
    b = olc.make(name).partial_fit(X, y)
    assert_same_model(a, b)


@each_algorithm
def test_prediction_before_learning(name):
    X, y = stream(13)
    learner = olc.make(name)
    for call in (lambda: learner.predict(X), lambda: learner.decision_function(X),
                 lambda: learner.coef_, lambda: learner.intercept_):
        with pytest.raises(NotFittedError):
            call()
    assert not hasattr(learner, "classes_")


@each_binary_record_algorithm
@pytest.mark.parametrize("labels", [(0, 1), ("ham", "spam")])
@pytest.mark.parametrize("first_label", [0, 1])
def test_first_online_prediction_is_positive_class(name, labels, first_label):
    """Recorded behaviour: the first online prediction is +1 ↦ classes_[1], whatever the first
    label is, for dense and CSR rows."""
    X, _ = stream(14)
    y = np.array([labels[first_label]] + [labels[1 - first_label]] * 3 + [labels[0]] * 2)
    for Xb in (X[:6], csr(X[:6])):
        learner = olc.make(name)
        record = learner.predict_then_learn(Xb, y, classes=list(labels))
        assert record.pred[0] == 1, f"first prediction {record.pred[0]}, expected +1"
        assert learner.classes_[1] == labels[1]
        assert np.isfinite(record.score[0]) and record.score[0] >= 0.0


@each_binary_record_algorithm
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_record_is_prediction_before_update(name, layout):
    """record.score[i] is the decision value of the model that had seen rows < i (what
    decision_function says just before row i), and record.pred = sign(score), sign(0) = +1."""
    X, y = stream(15, n=30)
    conv = csr if layout == "csr" else np.asarray
    whole = olc.make(name)
    record = whole.predict_then_learn(conv(X), y, classes=[0, 1])
    assert_same_bits(record.pred, sign_pm(record.score), "pred vs sign(score)")
    assert record.pred.dtype == np.int8 and record.updated.dtype == np.bool_
    assert record.score.shape == record.aux.shape == (len(y),)

    stepper = olc.make(name)
    stepper.partial_fit(conv(X[:1]), y[:1], classes=[0, 1])
    for i in range(1, len(y)):
        before = stepper.decision_function(conv(X[i:i + 1]))
        assert_same_bits(before, record.score[i:i + 1], f"score of row {i}")
        assert_same_bits(stepper.predict(conv(X[i:i + 1])),
                         stepper.classes_[(record.pred[i:i + 1] > 0).astype(int)],
                         f"predict of row {i}")
        stepper.partial_fit(conv(X[i:i + 1]), y[i:i + 1])
    assert_same_model(whole, stepper)


@each_algorithm
def test_predict_matches_decision_function_sign(name):
    X, y = stream(16)
    learner = olc.make(name).fit(X, y)
    scores = learner.decision_function(X)
    assert scores.shape == (len(y),)
    np.testing.assert_array_equal(learner.predict(X),
                                  learner.classes_[(scores >= 0).astype(int)])
    if name in KERNEL_MODELS:  # no linear model (the pool's own checks: tests/learners/kernel)
        return
    coef, intercept = learner.coef_, learner.intercept_
    assert coef.shape == (1, X.shape[1]) and intercept.shape == (1,)
    # The reported linear model is the classifier (up to rounding of w·x + b).
    np.testing.assert_allclose(X @ coef[0] + intercept[0], scores, rtol=1e-9,
                               atol=1e-9 * np.abs(scores).max())
