"""Strict labels and inputs: labels checked as scikit-learn checks them,
``olc.progressive`` takes what ``fit`` takes, NumPy scalar parameters save as plain values."""
import numpy as np
import pytest

import olc
from olc.learners import InputError

from _in_domain import KIND, NAMES, fit_kwargs, in_domain

CLASSIFIERS = [n for n in NAMES if KIND[n] == "classifier"]


@pytest.mark.parametrize("labels, message", [
    (np.array([1, "a"] * 20, dtype=object), r"Mix of label input types \(string and number\)"),
    (np.array(["a", None] * 20, dtype=object), r"y contains None at position 1"),
    ([1.0, None] * 20, r"y contains None at position 1"),
    (np.array([1.5, float("nan")] * 20, dtype=object), r"y contains NaN at position 1"),
    (np.array([(1,), "a"] * 20 + [], dtype=object)[:40], r"is not a valid label"),
])
@pytest.mark.parametrize("name", CLASSIFIERS[:6])
def test_bad_object_labels_are_rejected_like_scikit_learn(name, labels, message):
    X, _ = in_domain(name)
    learner = olc.make(name)
    with pytest.raises(InputError, match=message):
        learner.fit(X, labels)
    with pytest.raises(InputError, match=message.replace("y ", "classes ")
                       if "position" in message else message):
        learner.partial_fit(X[:2], np.array(["a", "b"]), classes=labels[:2])
    assert not hasattr(learner, "classes_")


@pytest.mark.parametrize("name", NAMES)
def test_progressive_accepts_lists_like_fit(name):
    X, y = in_domain(name, n=30)
    as_list = olc.progressive(olc.make(name), X.tolist(), y.tolist())
    as_array = olc.progressive(olc.make(name), X, y)
    np.testing.assert_array_equal(as_list.score, as_array.score)
    np.testing.assert_array_equal(as_list.updated, as_array.updated)


def test_numpy_scalar_parameters_save_as_plain_values(tmp_path):
    learner = olc.make("pa-i", C=np.float32(0.25))
    learner.partial_fit(*in_domain("pa-i"), **fit_kwargs("pa-i"))
    loaded = olc.load(olc.save(learner, tmp_path / "m"))
    assert loaded.C == 0.25 and type(loaded.C) is float
    np.testing.assert_array_equal(loaded.decision_function(in_domain("pa-i")[0]),
                                  learner.decision_function(in_domain("pa-i")[0]))
