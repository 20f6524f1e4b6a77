"""The multiclass PA's prototypes in memory (``_compiled/layouts/multiclass_pa.py``): by class
while K·d weights fit in cache, by feature beyond (the K weights of a feature in one cache
line: the CSR rows' speed). The order changes no CSR result and no strict result, bit for
bit; a state in the other order (a model file, an assigned array) is put in order once and
kept; one compiled specialization serves both orders, dense and CSR, fitted and loaded."""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
import olc._compiled.layouts.multiclass_pa as layout
from olc._compiled.families import load


def _stream(n=120, d=40, k=5, seed=4):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.3)
    y = np.argmax(X @ rng.standard_normal((d, k)) + 0.3 * rng.standard_normal((n, k)), axis=1)
    y[:k] = np.arange(k)
    return X, y


def _by_feature(monkeypatch):
    monkeypatch.setattr(layout, "BY_FEATURE_BYTES", 0)


def _run(name, X, y, strict):
    model = olc.make(name)
    with olc.strict_mode(strict):
        record = model.predict_then_learn(X, y)
        values = model.decision_function(X)
    return model, record, values


def test_the_order_follows_the_size_of_the_prototypes():
    assert not layout.stored_by_feature(5, 100)  # 4 KB: dense benchmarks, by class
    assert layout.stored_by_feature(5, 2 ** 18)  # 10 MiB
    X, y = _stream()
    model = olc.make("multiclass-pa").fit(X, y)
    assert model._vecs.flags.c_contiguous  # (K, 1, d) by class


@pytest.mark.parametrize("name", ["multiclass-pa", "multiclass-pa-i", "multiclass-pa-ii"])
@pytest.mark.parametrize("layout_", ["csr-fast", "csr-strict", "dense-strict"])
def test_by_feature_equals_by_class_bit_for_bit(name, layout_, monkeypatch):
    X, y = _stream()
    rows = sp.csr_matrix(X) if layout_.startswith("csr") else X
    strict = layout_.endswith("strict")
    by_class = _run(name, rows, y, strict)
    _by_feature(monkeypatch)
    by_feature = _run(name, rows, y, strict)
    W = by_feature[0]._vecs[:, 0, :].T
    assert W.flags.c_contiguous and W.shape == (X.shape[1], 5)  # stored (d, K)
    for field in ("pred", "score", "updated", "aux"):
        np.testing.assert_array_equal(getattr(by_class[1], field), getattr(by_feature[1], field))
    np.testing.assert_array_equal(by_class[2], by_feature[2])
    np.testing.assert_array_equal(by_class[0].coef_, by_feature[0].coef_)
    np.testing.assert_array_equal(by_class[0].intercept_, by_feature[0].intercept_)


def test_fast_dense_rows_by_feature_agree_to_rounding(monkeypatch):
    """Fast dense sums by feature are strictly left to right (SIMD across the classes), not
    LLVM's reassociated SIMD order of the per-class dot: the same model up to rounding."""
    X, y = _stream()
    by_class = _run("multiclass-pa-i", X, y, False)
    _by_feature(monkeypatch)
    by_feature = _run("multiclass-pa-i", X, y, False)
    np.testing.assert_allclose(by_feature[0].coef_, by_class[0].coef_, rtol=1e-9, atol=1e-12)


def test_a_state_in_the_other_order_is_put_in_order_once(monkeypatch, tmp_path):
    _by_feature(monkeypatch)
    X, y = _stream()
    Xs = sp.csr_matrix(X)
    reference = olc.make("multiclass-pa-ii")
    reference.partial_fit(X[:60], y[:60], classes=np.arange(5))
    reference.partial_fit(Xs[60:], y[60:])  # dense then CSR rows, one state
    model = olc.make("multiclass-pa-ii")
    model.partial_fit(X[:60], y[:60], classes=np.arange(5))
    olc.save(model, tmp_path / "m.npz")
    loaded = olc.load(tmp_path / "m.npz")
    np.testing.assert_array_equal(loaded.coef_, model.coef_)
    np.testing.assert_array_equal(loaded.decision_function(Xs), model.decision_function(Xs))
    kept = loaded._vecs
    assert kept[:, 0, :].T.flags.c_contiguous  # put in order by the first compiled call
    loaded.partial_fit(Xs[60:], y[60:])
    assert loaded._vecs is kept
    np.testing.assert_array_equal(loaded.coef_, reference.coef_)
    # an assigned array by class (e.g. a warm start) is reordered, then learned in place
    model._vecs = np.ascontiguousarray(model._vecs)
    model.partial_fit(Xs[60:], y[60:])
    np.testing.assert_array_equal(model._vecs, reference._vecs)
    # one compiled specialization per entry point for both orders, dense and CSR: every
    # signature has the same type for the prototypes W, the first of the state bundle (other
    # arguments, e.g. whether the caller's X is read-only, may differ between the tests a
    # process has run)
    loops = load("multiclass_pa")
    state_position = {"run_dense": 6, "run_csr": 8, "score_dense": 2, "score_csr": 4}
    for name, position in state_position.items():
        entry = getattr(loops, name)
        assert entry.py_func.__code__.co_varnames[position] == "state"
        w_types = {sig[position].types[0] for sig in entry.signatures}
        assert len(w_types) <= 1, (name, w_types)


def test_an_array_in_no_stored_order_is_refused():
    vecs = np.zeros((5, 1, 7))[:, :, ::-1]
    with pytest.raises(ValueError, match="stored in their layout's order"):
        layout.compiled_view(vecs)
    assert layout.in_stored_order(vecs).flags.c_contiguous
