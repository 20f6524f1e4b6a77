"""Two classes stay the binary learner: with every one-vs-rest entry point made to fail, two
labels (any values) still learn, score and predict, through the binary loop only — so the
one-vs-rest code cannot change a binary result — and the records stay int8 ±1.

(While one-vs-rest was built, the binary results were also compared bit for bit with the olc
before it, run in a subprocess.)"""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import olc
import olc._compiled.families as families
import olc.learners._framework.multiclass as multiclass

from ._streams import stream

NAMES = ["perceptron", "pa-i", "obpm", "randomized-weighted-majority", "arow", "winnow",
         "e-omm", "sgd", "n-omm"]


def _refuse(*args, **kwargs):
    raise AssertionError("a binary learner reached the one-vs-rest code")


@pytest.mark.parametrize("csr", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_two_classes_never_reach_one_vs_rest(name, csr, monkeypatch):
    for module, attr in ((multiclass, "learn"), (multiclass, "decision_values"),
                         (multiclass, "linear_models"), (families, "load_ovr")):
        monkeypatch.setattr(module, attr, _refuse)
    X, y3 = stream(olc.make(name), n=50, k=3, seed=5)
    labels = np.where(y3 == 1, "yes", "no")
    signs = np.where(y3 == 1, 1, -1)
    rows = sp.csr_matrix(X) if csr else X
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        named = olc.make(name)
        record = named.predict_then_learn(rows, labels)
        numeric = olc.make(name)
        expected = numeric.predict_then_learn(rows, signs)
        decisions = named.decision_function(rows)
        np.testing.assert_array_equal(decisions, numeric.decision_function(rows))
        assert set(named.predict(rows)) <= {"yes", "no"}
    assert record.pred.dtype == np.int8
    np.testing.assert_array_equal(record.pred, expected.pred)
    np.testing.assert_array_equal(record.score, expected.score)
    np.testing.assert_array_equal(named.coef_, numeric.coef_)
    assert named._vecs.ndim == 2 and not named._is_multiclass()
    assert decisions.ndim == 1
