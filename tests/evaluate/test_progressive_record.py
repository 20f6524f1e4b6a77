"""``progressive``'s per-step record: compact (each array in the smallest dtype that holds its
values exactly) with ``record="full"``, absent with ``record="totals"`` whose totals equal the
full record's. References: the learner's own record of the same stream fed by hand
(``predict_then_learn`` on X[order]), and the metrics over the full record."""
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc.evaluate.protocol import _Kept, label_dtype
from olc.learners import StepRecord


def _stream(n=150, d=6, k=2, seed=0, regression=False):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    scores = X @ rng.standard_normal((d, max(k, 2)))
    if regression:
        return X, scores[:, 0] + 0.1 * rng.standard_normal(n)
    y = np.argmax(scores[:, :k], axis=1) if k > 2 else np.where(scores[:, 0] > 0, 1, -1)
    return X, y


CASES = [("perceptron", 2), ("e-omm", 2), ("pa-i", 5), ("multiclass-pa-i", 4),
         ("obpm", 3)]


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("name, k", CASES)
def test_full_record_is_the_learners_own_in_compact_dtypes(name, k, sparse):
    X, y = _stream(k=k, seed=k)
    Xin = sp.csr_matrix(X) if sparse else X
    result = olc.progressive(olc.make(name), Xin, y, passes=2, shuffle_seed=3, chunk_rows=41)
    classes = np.unique(y)
    rec = olc.make(name).predict_then_learn(Xin[result.order], y[result.order])
    assert result.pred.dtype == result.y.dtype == np.int8
    assert result.order.dtype == np.uint32
    assert result.score.dtype == result.aux.dtype == np.float64
    assert result.updated.dtype == np.bool_
    np.testing.assert_array_equal(result.pred, rec.pred)
    np.testing.assert_array_equal(result.score, rec.score)
    np.testing.assert_array_equal(result.updated, rec.updated)
    np.testing.assert_array_equal(result.aux, rec.aux)
    expected_y = (np.searchsorted(classes, y[result.order]) if len(classes) > 2 or
                  getattr(olc.make(name), "_prototypes", False) else y[result.order])
    np.testing.assert_array_equal(result.y, expected_y)
    np.testing.assert_array_equal(np.sort(result.order[:len(y)]), np.arange(len(y)))


def test_an_aux_of_zeros_is_stored_once():
    X, y = _stream(n=300)
    result = olc.progressive(olc.make("perceptron"), X, y)
    assert result.aux.shape == (300,) and not np.any(result.aux)
    assert result.aux.strides == (0,) and not result.aux.flags.writeable
    assert not np.any(np.signbit(result.aux))


def test_kept_aux_keeps_every_bit_pattern():
    kept = _Kept(6, 6, np.int8, 2, regression=False)
    chunks = [np.array([0.0, -0.0, 0.0]), np.array([0.0, np.nan, 2.5])]
    for base, aux in zip((0, 3), chunks):
        out = StepRecord(np.ones(3, np.int8), np.zeros(3), np.zeros(3, bool), aux)
        kept.add(base, out, np.ones(3))
    stored = kept.fields()["aux"]
    np.testing.assert_array_equal(stored.view(np.uint64),
                                  np.concatenate(chunks).view(np.uint64))


@pytest.mark.parametrize("regression", [False, True])
@pytest.mark.parametrize("name, k", CASES + [("pa-i-regression", 2), ("arow-regression", 2)])
def test_totals_equal_the_full_records(name, k, regression):
    if regression != name.endswith("regression"):
        pytest.skip("classifiers on labels, regressors on real targets")
    X, y = _stream(k=k, seed=5, regression=regression)
    tau_on = "data" if k == 2 and not regression and name != "obpm" else None
    runs = {record: olc.progressive(olc.make(name), X, y, passes=3, shuffle_seed=2,
                                    chunk_rows=29, record=record, tau_on=tau_on)
            for record in ("full", "totals")}
    full, totals = runs["full"], runs["totals"]
    for field in ("y", "pred", "score", "updated", "aux", "order"):
        assert getattr(totals, field) is None
    assert totals.n_steps == full.n_steps == 3 * len(y)
    assert totals.updates == int(np.count_nonzero(full.updated))
    assert totals.tau == full.tau
    if regression:
        assert totals.mistakes is None
        r = full.y - full.score
        assert totals.squared_error == full.squared_error == float(np.dot(r, r))
        assert totals.absolute_error == full.absolute_error
    else:
        assert totals.mistakes == full.mistakes == int(np.count_nonzero(full.pred != full.y))
    drop = ("seconds", "compile_seconds")
    assert ({k: v for k, v in totals.summary().items() if k not in drop}
            == {k: v for k, v in full.summary().items() if k not in drop})
    with pytest.raises(ValueError, match='record="totals"'):
        totals.error_curve()


def test_record_must_be_full_or_totals():
    X, y = _stream()
    with pytest.raises(ValueError, match="record must be 'full' or 'totals', got 'rows'"):
        olc.progressive(olc.make("perceptron"), X, y, record="rows")


def test_label_dtype_is_the_smallest_that_holds_every_class_index():
    assert label_dtype(2) == label_dtype(128) == np.int8  # indices 0..127 (and ±1)
    assert label_dtype(129) == label_dtype(32768) == np.int16
    assert label_dtype(32769) == np.int32


def test_many_classes_widen_the_labels_exactly():
    rng = np.random.default_rng(1)
    k = 130
    X = rng.standard_normal((2 * k, 4))
    y = np.arange(2 * k) % k
    result = olc.progressive(olc.make("perceptron"), X, y)
    assert result.pred.dtype == result.y.dtype == np.int16
    rec = olc.make("perceptron").predict_then_learn(X, y)
    np.testing.assert_array_equal(result.pred, rec.pred)
    np.testing.assert_array_equal(result.y, y)


def _kept_bytes_per_row(n, **kwargs):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    olc.progressive(olc.make("perceptron"), X[:100], y[:100], progress=False)  # compile
    tracemalloc.start()
    try:
        result = olc.progressive(olc.make("perceptron"), X, y, progress=False, **kwargs)
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, kept / n


def test_bytes_kept_per_row():
    # pred 1 + score 8 + updated 1 + order 4 + y 1 (aux of zeros stored once) = 15 bytes;
    # the record before was 27 (pred 1, score 8, updated 1, aux 8, order 8, y 1)
    full, per_row = _kept_bytes_per_row(200_000)
    assert 15.0 <= per_row < 15.5
    totals, per_row = _kept_bytes_per_row(200_000, record="totals")
    assert per_row < 0.05
    assert totals.mistakes == full.mistakes and totals.updates == full.updates
