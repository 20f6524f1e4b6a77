"""One-vs-rest on CSR rows runs class by class in blocks of rows (``_compiled/loops/one_vs_rest.py``):
the block size changes no result, a NaN/inf row is learned by no class whichever block it
falls in, and an overflow met by class c leaves exactly the documented state — every row
before it learned by every class, classes before c ahead up to the end of the block — which
the error states. References: binary learners trained apart on the rows each class learned."""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
import olc._compiled.driver.k_class as driver_ovr
from olc.learners import StreamStoppedError

from ._streams import as_csr, stream


def _fit(name, X, y, block, monkeypatch, **params):
    monkeypatch.setattr(driver_ovr, "OVR_BLOCK_ROWS", block)
    model = olc.make(name, **params)
    return model, model.predict_then_learn(X, y)


@pytest.mark.parametrize("name", ["perceptron", "pa-i", "sgd", "arow-diagonal", "obpm"])
def test_block_size_changes_nothing(name, monkeypatch):
    X, y = stream(olc.make(name), n=50, k=4)
    X = as_csr(X)
    runs = [_fit(name, X, y, block, monkeypatch) for block in (1, 7, 50, 10**6)]
    model0, record0 = runs[0]
    for model, record in runs[1:]:
        for field in ("pred", "score", "updated", "aux"):
            np.testing.assert_array_equal(getattr(record, field), getattr(record0, field))
        np.testing.assert_array_equal(model.coef_, model0.coef_)
        np.testing.assert_array_equal(model.intercept_, model0.intercept_)
    # several calls, each cut into blocks of its own, equal one call
    monkeypatch.setattr(driver_ovr, "OVR_BLOCK_ROWS", 7)
    chunked = olc.make(name)
    for a in range(0, 50, 20):
        chunked.partial_fit(X[a:a + 20], y[a:a + 20], classes=np.unique(y))
    np.testing.assert_array_equal(chunked.coef_, model0.coef_)


@pytest.mark.parametrize("block", [3, 7, 10**6])
def test_nan_row_in_a_later_block_is_learned_by_no_class(block, monkeypatch):
    X, y = stream(olc.make("pa"), n=30, k=3)
    X[10, 2] = np.nan
    monkeypatch.setattr(driver_ovr, "OVR_BLOCK_ROWS", block)
    model = olc.make("pa")
    with pytest.raises(StreamStoppedError, match=r"NaN at row 10, column 2.*The 10 row\(s\) "
                                                 "before it were learned by every class") as info:
        model.partial_fit(as_csr(X), y, classes=[0, 1, 2])
    assert info.value.rows_learned == 10 and model.n_steps_ == 10
    assert info.value.record.pred.shape == (10,)
    reference = olc.make("pa").partial_fit(as_csr(X[:10]), y[:10], classes=[0, 1, 2])
    np.testing.assert_array_equal(model.coef_, reference.coef_)
    np.testing.assert_array_equal(info.value.record.pred,
                                  olc.make("pa").predict_then_learn(as_csr(X[:10]), y[:10]).pred)


# Perceptron without a bias, η = 1e308 (its update is stored unchecked; the next score that is
# not finite stops the stream). Row 0, x = (1, 1), class 0: w₀ = (η, η), w₁ = w₂ = (−η, −η).
# Row 1, x = (0.9, −1), class 2: class 1 scores +0.1η (wrong): w₁ = (−1.9η, 0) = (−inf, 0).
# Row 2, x = (1, 0), class 1: class 0 scores η (wrong) and learns it, w₀ = (0, η); class 1
# scores −inf: the stream stops at row 2 in class 1. Row 3, x = (0, 1), class 0.
_X = np.array([[1.0, 1.0], [0.9, -1.0], [1.0, 0.0], [0.0, 1.0]])
_Y = np.array([0, 2, 1, 0])
_PARAMS = dict(eta=1e308, fit_intercept=False)


@pytest.mark.parametrize("layout, block, rows_of_class_0, told", [
    # dense rows are learned row-outer: class 0 stops right after row 2
    ("dense", 10**6, 3, r"\[0\] learned row 2, those of \[1, 2\] did not"),
    # CSR: class 0 learned its whole block, here rows 0..3 ...
    ("csr", 10**6, 4, r"\[0\] learned row 2 and the 1 row\(s\) after it in the stream "
                      r"\(one-vs-rest learns class by class in blocks of rows\), those of "
                      r"\[1, 2\] did not"),
    # ... or rows 0..2 when row 2 ends a block
    ("csr", 3, 3, r"\[0\] learned row 2, those of \[1, 2\] did not"),
])
def test_overflow_in_a_later_class(layout, block, rows_of_class_0, told, monkeypatch):
    monkeypatch.setattr(driver_ovr, "OVR_BLOCK_ROWS", block)
    rows = sp.csr_matrix(_X) if layout == "csr" else _X
    model = olc.make("perceptron", **_PARAMS)
    with pytest.raises(StreamStoppedError, match=r"row 2 in the learner of class 1.*The 2 "
                                                 r"row\(s\) before it were learned by every "
                                                 r"class's learner; the learners of classes "
                                                 + told) as info:
        model.partial_fit(rows, _Y, classes=[0, 1, 2])
    assert info.value.rows_learned == 2 and info.value.row == 2 and model.n_steps_ == 2
    for c, n_rows in ((0, rows_of_class_0), (1, 2), (2, 2)):
        ref = olc.make("perceptron", **_PARAMS).partial_fit(
            _X[:n_rows], np.where(_Y[:n_rows] == c, 1, -1), classes=[-1, 1])
        np.testing.assert_array_equal(model.coef_[c], ref.coef_[0])
