"""One-vs-rest with K = 3 equals K separately trained binary learners, bit for bit: weights,
per-row scores (the record keeps the predicted class's, the first largest), updates — for
every catalogue classifier, on dense and CSR rows."""
import warnings

import numpy as np
import pytest

import olc

from ._streams import OVR_NAMES, as_csr, binary_reference, stream


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. e-OMM's non-separable warning
        yield


@pytest.mark.parametrize("layout", ["dense", "csr"])
@pytest.mark.parametrize("name", OVR_NAMES)
def test_ovr_equals_k_binary_learners(name, layout):
    X, y = stream(olc.make(name))
    rows = as_csr(X) if layout == "csr" else X
    classes = np.unique(y)
    binaries, scores, updated = binary_reference(name, rows, y, classes)

    model = olc.make(name)
    record = model.predict_then_learn(rows, y)
    assert record.pred.dtype == np.int32
    np.testing.assert_array_equal(model.classes_, classes)
    # the record: argmax (first on ties) of the K pre-update scores, that score, updates
    np.testing.assert_array_equal(record.pred, np.argmax(scores, axis=1))
    np.testing.assert_array_equal(record.score, scores.max(axis=1))
    np.testing.assert_array_equal(record.aux, updated.sum(axis=1))
    np.testing.assert_array_equal(record.updated, updated.any(axis=1))
    assert model.n_steps_ == len(y)
    assert model.n_updates_ == int(updated.any(axis=1).sum())
    # the model: each class's weights and decision values are its binary learner's
    np.testing.assert_array_equal(model.coef_, np.vstack([b.coef_ for b in binaries]))
    np.testing.assert_array_equal(model.intercept_,
                                  np.concatenate([b.intercept_ for b in binaries]))
    values = model.decision_function(rows)
    assert values.shape == (len(y), 3)
    np.testing.assert_array_equal(values,
                                  np.column_stack([b.decision_function(rows) for b in binaries]))
    np.testing.assert_array_equal(model.predict(rows), classes[np.argmax(values, axis=1)])


@pytest.mark.parametrize("name", ["perceptron", "obpm", "randomized-weighted-majority", "arow"])
def test_chunks_and_continuation_equal_one_pass(name):
    X, y = stream(olc.make(name), n=45, seed=3)
    whole = olc.make(name).fit(X, y)
    parts = olc.make(name)
    parts.partial_fit(X[:10], y[:10], classes=[0, 1, 2])
    parts.partial_fit(X[10:], y[10:])
    np.testing.assert_array_equal(parts.coef_, whole.coef_)
    np.testing.assert_array_equal(parts.intercept_, whole.intercept_)
