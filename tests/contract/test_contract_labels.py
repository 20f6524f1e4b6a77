"""Contract 7: any two labels work and map to ±1 with ``classes_[1]`` the positive class
(classes_ sorted, as in scikit-learn). The learned model depends only on that mapping."""
import numpy as np
import pytest

import olc

from ._support import (assert_same_model, assert_same_records, csr, each_algorithm,
                       each_binary_record_algorithm, stream)

LABEL_SETS = [
    pytest.param((0, 1), id="0-1"),
    pytest.param((-1, 1), id="-1-1"),
    pytest.param(("ham", "spam"), id="ham-spam"),
    pytest.param((False, True), id="bool"),
    pytest.param((2.5, 7.0), id="floats"),
    pytest.param((3, 10), id="3-10"),  # sorted numerically, not as text
]


def _labelled(labels, y01, dtype=None):
    return np.array(labels, dtype=dtype)[y01]


@each_algorithm
@pytest.mark.parametrize("labels", LABEL_SETS)
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_any_two_labels(name, labels, layout):
    X, y01 = stream(31)
    conv = csr if layout == "csr" else np.asarray
    ref = olc.make(name)
    r_ref = ref.predict_then_learn(conv(X), y01, classes=[0, 1])

    y = _labelled(labels, y01)
    learner = olc.make(name)
    record = learner.predict_then_learn(conv(X), y, classes=list(labels))
    assert list(learner.classes_) == sorted(labels)
    assert learner.classes_[1] == labels[1], "the larger label is the positive class"
    assert_same_records(r_ref, record)
    assert_same_model(ref, learner)
    pred = learner.predict(conv(X))
    assert set(pred.tolist()) <= set(labels)
    np.testing.assert_array_equal(pred == labels[1], learner.decision_function(conv(X)) >= 0)

    fitted = olc.make(name).fit(conv(X), y)
    assert_same_model(ref, fitted, "fit without classes=")
    np.testing.assert_array_equal(fitted.predict(conv(X)), pred)


@each_algorithm
def test_string_labels_given_as_object_array_and_list(name):
    X, y01 = stream(32)
    ref = olc.make(name).fit(X, y01)
    for y in (_labelled(("ham", "spam"), y01, dtype=object),
              _labelled(("ham", "spam"), y01).tolist()):
        learner = olc.make(name).fit(X, y)
        assert list(learner.classes_) == ["ham", "spam"]
        assert_same_model(ref, learner)
        assert list(learner.predict(X)) == [("ham", "spam")[k] for k in ref.predict(X)]


@each_algorithm
def test_classes_argument_order_does_not_matter(name):
    X, y01 = stream(33)
    y = _labelled(("ham", "spam"), y01)
    a = olc.make(name)
    b = olc.make(name)
    ra = a.predict_then_learn(X, y, classes=["ham", "spam"])
    rb = b.predict_then_learn(X, y, classes=["spam", "ham"])
    assert list(b.classes_) == ["ham", "spam"]
    assert_same_records(ra, rb)


@each_binary_record_algorithm
def test_positive_class_is_the_first_online_prediction(name):
    """+1 ↦ classes_[1]: on a first row labelled classes_[1] a correct first prediction."""
    X, _ = stream(34)
    learner = olc.make(name)
    record = learner.predict_then_learn(X[:2], np.array(["spam", "ham"]), classes=["ham", "spam"])
    assert learner.classes_[1] == "spam"
    assert record.pred[0] == 1
