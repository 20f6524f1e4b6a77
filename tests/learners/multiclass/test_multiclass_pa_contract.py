"""The multiclass PA learners (K prototypes) under the learner contract where their record
differs from the binary one (class indices for every K ≥ 2: the binary-record checks of
tests/contract skip them, ``CLASS_INDEX_RECORDS``), and for K ≥ 3 streams: dense = CSR,
chunked partial_fit = one call, persistence, the online protocol, located errors."""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc.learners._framework.multiclass import linear_models
from olc.learners import InputError, StreamStoppedError

from ._streams import STORED_ORDERS, force_stored_order

NAMES = ["multiclass-pa", "multiclass-pa-i", "multiclass-pa-ii"]


# every test in both memory orders of the prototypes
stored_order = pytest.fixture(autouse=True, params=STORED_ORDERS, name="stored_order")(
    force_stored_order)


def _stream(k=4, n=80, d=6, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.6)
    y = np.argmax(X @ rng.standard_normal((d, k)) + 0.3 * rng.standard_normal((n, k)), axis=1)
    y[:k] = np.arange(k)
    X[5] = 0.0  # a zero row
    return X, np.array(["c%d" % c for c in y])


def _same(a, b):
    return all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in zip(a, b))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("k", [2, 4])
def test_dense_and_csr_bit_identical_in_strict_mode(name, k):
    X, y = _stream(k)
    with olc.strict_mode():
        a, b = olc.make(name), olc.make(name)
        ra, rb = a.predict_then_learn(X, y), b.predict_then_learn(sp.csr_matrix(X), y)
        assert _same((ra.pred, ra.score, ra.updated, ra.aux), (rb.pred, rb.score, rb.updated,
                                                                rb.aux))
        assert _same((a._vecs, a._scal), (b._vecs, b._scal))
        assert np.array_equal(a.decision_function(X), b.decision_function(sp.csr_matrix(X)))
    assert ra.pred.dtype == np.int32 and 0 < ra.updated.sum() < len(y)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("k", [2, 3])
def test_record_is_the_argmax_before_the_update(name, k):
    """pred = argmax of the pre-update class scores (first on ties), score = that class's
    score, aux = τ; the first prediction (W = 0, all scores tie) is class 0."""
    X, y = _stream(k, n=25)
    whole = olc.make(name)
    record = whole.predict_then_learn(X, y)
    assert record.pred[0] == 0 and record.score[0] == 0.0
    stepper = olc.make(name).partial_fit(X[:1], y[:1], classes=np.unique(y))
    for i in range(1, len(y)):
        W, b = linear_models(stepper)
        scores = W @ X[i] + b
        assert record.pred[i] == np.argmax(scores)
        assert record.score[i] == pytest.approx(scores[record.pred[i]], rel=1e-12, abs=1e-14)
        assert stepper.predict(X[i:i + 1])[0] == stepper.classes_[record.pred[i]]
        stepper.partial_fit(X[i:i + 1], y[i:i + 1])
        assert (record.aux[i] > 0) == record.updated[i]
    assert np.array_equal(whole._vecs, stepper._vecs)


@pytest.mark.parametrize("name", NAMES)
def test_chunked_partial_fit_equals_one_call(name):
    X, y = _stream()
    whole = olc.make(name).partial_fit(X, y)
    chunked = olc.make(name)
    for a, b in [(0, 1), (1, 7), (7, 40), (40, 80)]:
        chunked.partial_fit(X[a:b], y[a:b], classes=np.unique(y) if a == 0 else None)
    assert _same((whole._vecs, whole._scal), (chunked._vecs, chunked._scal))
    assert whole.n_updates_ == chunked.n_updates_ and whole.n_steps_ == chunked.n_steps_ == 80


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("k", [2, 4])
def test_save_load_roundtrip(name, k, tmp_path):
    X, y = _stream(k)
    learner = olc.make(name, fit_intercept=False) if k == 2 else olc.make(name)
    learner.fit(X, y)
    olc.save(learner, tmp_path / "m.npz")
    loaded = olc.load(tmp_path / "m.npz")
    assert type(loaded) is type(learner) and loaded.get_params() == learner.get_params()
    assert np.array_equal(loaded.decision_function(X), learner.decision_function(X))
    assert np.array_equal(loaded.predict(X), learner.predict(X))
    loaded.partial_fit(X, y)
    learner.partial_fit(X, y)
    assert np.array_equal(loaded._vecs, learner._vecs)


def test_a_file_of_another_layout_is_refused(tmp_path):
    X, y = _stream(3)
    olc.save(olc.make("pa-i").fit(X, y), tmp_path / "ovr.npz")
    data = dict(np.load(tmp_path / "ovr.npz"))
    import json
    meta = json.loads(str(data["meta"]))
    meta["name"] = "multiclass-pa-i"
    data["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "forged.npz", **data)
    with pytest.raises(Exception, match="layout"):
        olc.load(tmp_path / "forged.npz")


@pytest.mark.parametrize("name", NAMES)
def test_progressive_counts_mistakes_as_pred_not_y(name):
    X, y = _stream(4)
    result = olc.progressive(olc.make(name), X, y, passes=2, shuffle_seed=0)
    classes = np.unique(y)
    assert result.pred.dtype == result.y.dtype == np.int32
    assert np.array_equal(classes[result.y], y[result.order])
    assert result.mistakes == int(np.count_nonzero(result.pred != result.y))
    reference = olc.make(name)
    record = reference.predict_then_learn(X[result.order], y[result.order])
    assert np.array_equal(record.pred, result.pred)


def test_nan_row_and_overflow_stop_with_the_located_error():
    X, y = _stream(3, n=10)
    X[6, 2] = np.nan
    learner = olc.make("multiclass-pa")
    with pytest.raises(StreamStoppedError, match=r"row 6.*column 2|column 2.*row 6") as info:
        learner.partial_fit(X, y)
    assert info.value.rows_learned == 6 and learner.n_steps_ == 6
    big = np.array([[1e200, 1.0], [1e200, -1.0]])
    learner = olc.make("multiclass-pa", fit_intercept=False)
    with pytest.raises(StreamStoppedError, match="overflow occurred at row 1: .*row 1 caused no update"):
        learner.partial_fit(np.vstack([[1e-200, 0.0], big]), [0, 1, 2])


def test_tau_is_refused_and_one_class_needs_classes():
    X, y = _stream(2, n=10)
    with pytest.raises(InputError, match="binary classifiers only"):
        olc.make("multiclass-pa").predict_then_learn(X, y, check=(X, y))
    with pytest.raises(InputError, match="classes="):
        olc.make("multiclass-pa").partial_fit(X[:2], ["a", "a"])


def test_warmup_compiles_the_family_and_not_the_one_vs_rest_loops():
    from olc._compiled import families, loader
    from olc.warmup import warmup

    report = warmup(["multiclass-pa", "multiclass-pa-ii"], multiclass=True)
    assert [(r.family, r.learners) for r in report] == [
        ("multiclass_pa", ["multiclass-pa", "multiclass-pa-ii"])]
    for entry in families.ENTRY_POINTS:
        assert families.is_cached("multiclass_pa", entry), entry
    assert families.is_loaded("multiclass_pa")
    assert not families.is_loaded("multiclass_pa", loader.ONE_VS_REST)
    assert families.fingerprint("multiclass_pa") != families.fingerprint("linear")
