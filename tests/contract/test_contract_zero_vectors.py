"""Contract 8: an all-zero feature vector has documented behaviour.

- PA, PA-I: the step τ = ℓ/‖x‖² is undefined, the round is skipped (no update, updated False).
- PA-II: τ = ℓ/(0 + 1/(2C)) = 2Cℓ, only the bias moves.
- Perceptron: w·x = 0, so on an update only the bias moves.
- e-OMM / ce-OMM: the origin is an ordinary point (translation invariance); it can become a
  dual certificate.
Generic part (every learner): the score of a zero row is the current intercept, the model
stays finite, and dense zero rows and empty CSR rows agree.
"""
import numpy as np
import pytest
import scipy.sparse as sp

import olc

from ._support import (BINARY_RECORD_ALGORITHMS, KERNEL_MODELS, assert_same_bits,
                       assert_same_model, assert_same_records, each_algorithm, model_arrays,
                       stream)

D = 3


def _warm(name, **params):
    """A learner that has seen both labels and has a non-zero model."""
    X, y = stream(41, d=D, zero_rows=0, duplicates=0)
    return olc.make(name, **params).fit(X, y)


@pytest.mark.parametrize("name", [n for n in BINARY_RECORD_ALGORITHMS
                                  if n not in KERNEL_MODELS])
@pytest.mark.parametrize("label", [0, 1])
@pytest.mark.parametrize("seen", [1, 2, 60], ids=lambda k: f"after{k}")
def test_zero_row_scores_the_intercept(name, label, seen):
    X, y = stream(42, d=D, zero_rows=0, duplicates=0)
    learner = olc.make(name).partial_fit(X[:seen], y[:seen], classes=[0, 1])
    b = learner.intercept_[0]
    for zero in (np.zeros((1, D)), sp.csr_matrix((1, D))):
        assert learner.decision_function(zero)[0] == pytest.approx(b, rel=1e-15, abs=0.0)
    record = learner.predict_then_learn(np.zeros((1, D)), [label])
    assert record.score[0] == pytest.approx(b, rel=1e-15, abs=0.0)
    assert np.isfinite(learner.coef_).all() and np.isfinite(learner.intercept_).all()


@each_algorithm
def test_zero_rows_dense_and_empty_csr_rows_agree(name):
    X = np.zeros((6, D))
    X[2] = [1.0, -2.0, 0.5]
    X[4] = [-1.0, 0.0, 3.0]
    y = np.array([1, 0, 1, 0, 0, 1])
    with olc.strict_mode():
        a, b = olc.make(name), olc.make(name)
        ra = a.predict_then_learn(X, y, classes=[0, 1])
        rb = b.predict_then_learn(sp.csr_matrix(X), y, classes=[0, 1])
        assert_same_records(ra, rb)
        assert_same_model(a, b)
        # A CSR batch without a single stored value.
        c = olc.make(name)
        rc = c.predict_then_learn(sp.csr_matrix((4, D)), [1, 0, 0, 1], classes=[0, 1])
        rd = olc.make(name).predict_then_learn(np.zeros((4, D)), [1, 0, 0, 1], classes=[0, 1])
        assert_same_records(rc, rd)
        assert all(np.isfinite(a).all() for a in model_arrays(c))


def _losing_label(learner):
    """The label whose hinge loss at the origin is ≥ 1 (y·b ≤ 0), and its ±1 value."""
    label = 0 if learner.intercept_[0] > 0 else 1
    return label, (1.0 if label == 1 else -1.0)


@pytest.mark.parametrize("name, params", [("pa-i", {}), ("pa-i", {"C": 0.3}),
                                          ("pa", {"fit_intercept": False})])
def test_pa_and_pa1_skip_zero_rows(name, params):
    learner = _warm(name, **params)
    coef, intercept = learner.coef_, learner.intercept_
    label, _ = _losing_label(learner)
    record = learner.predict_then_learn(np.zeros((1, D)), [label])
    assert not record.updated[0]
    assert_same_bits(learner.coef_, coef)
    assert_same_bits(learner.intercept_, intercept)


def test_pa_with_bias_moves_the_bias_to_margin_one_on_zero_rows():
    """Classic PA solves min ½‖w'−w‖² + ½(b'−b)² s.t. y(w'·x + b') ≥ 1 exactly; at x = 0
    that is b' = b + yℓ, margin exactly 1, w unchanged."""
    learner = _warm("pa")
    coef, b = learner.coef_, learner.intercept_[0]
    label, y_pm = _losing_label(learner)
    record = learner.predict_then_learn(np.zeros((1, D)), [label])
    assert record.updated[0]
    assert_same_bits(learner.coef_, coef)
    assert y_pm * learner.intercept_[0] == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("C", [1.0, 0.5, 0.25])
def test_pa2_moves_only_the_bias_on_zero_rows(C):
    learner = _warm("pa-ii", C=C)
    coef, b = learner.coef_, learner.intercept_[0]
    label, y_pm = _losing_label(learner)
    loss = 1.0 - y_pm * b
    record = learner.predict_then_learn(np.zeros((1, D)), [label])
    assert record.updated[0]
    assert_same_bits(learner.coef_, coef)
    # τ = ℓ/(0 + 1/(2C)) = 2Cℓ; the new margin at the origin is 1 + (2C − 1)ℓ.
    assert learner.intercept_[0] == pytest.approx(b + y_pm * 2.0 * C * loss, rel=1e-15)
    assert y_pm * learner.intercept_[0] == pytest.approx(1.0 + (2.0 * C - 1.0) * loss,
                                                         rel=1e-12)


@pytest.mark.parametrize("label", [0, 1])
def test_perceptron_updates_only_the_bias_on_zero_rows(label):
    learner = _warm("perceptron", eta=0.5)
    coef, b = learner.coef_, learner.intercept_[0]
    y_pm = 1.0 if label == 1 else -1.0
    record = learner.predict_then_learn(np.zeros((1, D)), [label])
    assert record.score[0] == b
    if y_pm * b <= 0:
        assert record.updated[0]
        assert learner.intercept_[0] == b + 0.5 * y_pm
    else:
        assert not record.updated[0]
        assert learner.intercept_[0] == b
    assert_same_bits(learner.coef_, coef)

    # From scratch: score 0, y·0 ≤ 0, so the default rule updates the bias on either label;
    # the mistake-only rule predicts sign(0) = +1 and updates only for the negative label.
    fresh = olc.make("perceptron")
    record = fresh.predict_then_learn(np.zeros((1, D)), [label], classes=[0, 1])
    assert record.updated[0] and fresh.intercept_[0] == y_pm
    assert_same_bits(fresh.coef_, np.zeros((1, D)))
    mistake = olc.make("perceptron", update="mistake")
    record = mistake.predict_then_learn(np.zeros((1, D)), [label], classes=[0, 1])
    assert record.updated[0] == (label == 0)


@pytest.mark.parametrize("name", ["e-omm", "ce-omm"])
def test_omm_origin_is_a_certificate_from_initialisation(name):
    learner = olc.make(name)
    X = np.array([[0.0, 0.0], [2.0, 0.0]])
    learner.predict_then_learn(X, ["pos", "neg"], classes=["neg", "pos"])
    v_pos, v_neg = learner.certificates_
    assert_same_bits(v_pos, np.zeros(2))
    assert_same_bits(v_neg, np.array([2.0, 0.0]))
    assert learner.margin_ == 1.0
    np.testing.assert_array_equal(learner.coef_, [[-1.0, 0.0]])
    np.testing.assert_array_equal(learner.intercept_, [1.0])


@pytest.mark.parametrize("name", ["e-omm", "ce-omm"])
def test_omm_origin_becomes_a_certificate_by_update(name):
    """v₊ = (3, 0), v₋ = (−3, 0); the origin labelled − has score 0, predicted +1 — a mistake
    (so ce-OMM updates too); the three-point problem gives β* = 1: v₋ ← origin."""
    learner = olc.make(name)
    X = np.array([[3.0, 0.0], [-3.0, 0.0], [0.0, 0.0]])
    record = learner.predict_then_learn(X, [1, 0, 0], classes=[0, 1])
    assert record.score[2] == 0.0 and record.pred[2] == 1 and record.updated[2]
    v_pos, v_neg = learner.certificates_
    assert_same_bits(v_pos, np.array([3.0, 0.0]))
    assert_same_bits(v_neg, np.zeros(2))
    assert learner.margin_ == 1.5
    np.testing.assert_array_equal(learner.coef_, [[1.0, 0.0]])
    np.testing.assert_array_equal(learner.intercept_, [-1.5])
    # The origin is now classified negative with the full margin, on both layouts.
    assert learner.decision_function(np.zeros((1, 2)))[0] == -1.5
    assert learner.decision_function(sp.csr_matrix((1, 2)))[0] == -1.5
