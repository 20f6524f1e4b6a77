"""The CSR pool (a learner whose first input is CSR keeps its rows in a slab,
``_compiled/layouts/kernel_csr.py``): step by step against the NumPy reference at a large
width, slab reuse over many insert/remove cycles, growth, one-vs-rest, dense input into a
CSR pool, files (round trip, and a tampered pool refused naming the field)."""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc._compiled.layouts import kernel as pool
from olc._compiled.layouts import kernel_csr
from olc.learners._framework import kernel_model

from . import reference
from ._exact import assert_trace
from ._wide_streams import WIDE, wide_stream



@pytest.fixture(autouse=True)
def csr_pools_at_every_width(monkeypatch):
    """CSR input starts a CSR pool here whatever its width (the tests' narrow streams too)."""
    monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1)


def test_narrow_csr_input_keeps_the_pool_by_feature(monkeypatch):
    monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 2 ** 14)
    X, y = wide_stream(10, n=40, d=2 ** 14 - 1)
    assert olc.make("kernel-perceptron").fit(X, y)._ints.shape == (0,)
    X, y = wide_stream(10, n=40, d=2 ** 14)
    assert olc.make("kernel-perceptron").fit(X, y)._ints.shape == (1,)


CASES = [("kernel-perceptron", None, {}), ("kernel-pa-i", None, {"C": 0.5}),
         ("forgetron", 5, {}),
         ("kernel-regularized-pa", 8, {"alpha": 0.1, "update": "hinge"}),
         ("kernel-l2-constrained-pa", 6, {"beta": 2.0, "update": "hinge"}),
         ("kernel-norma", 9, {"eta": 0.3, "lam": 0.05, "rho": 1.0, "tau": 15}),
         ("randomized-budget-perceptron", 6, {}), ("stoptron", 6, {})]


@pytest.mark.parametrize("name, budget, params", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
@pytest.mark.parametrize("kern", ["rbf", "poly"])
def test_wide_csr_rows_match_the_reference(name, budget, params, kern):
    """d = 2^16: the reference's dense rows against the CSR pool, step by step."""
    X, y = wide_stream(1)
    k = (dict(kernel="rbf", gamma=0.05, degree=3, coef0=1.0) if kern == "rbf"
         else dict(kernel="poly", gamma=0.2, degree=2, coef0=1.0))
    ref = reference.run(name, X.toarray(), y, budget=budget, fit_intercept=True, seed=0,
                        **k, **params)
    learner = olc.make(name, fit_intercept=True, budget=budget, **k, **params)
    record = learner.predict_then_learn(X, y, classes=[-1.0, 1.0])
    assert learner._ints.shape == (1,) and learner._vecs.shape[1] == 1  # a CSR pool
    assert_trace(record.score, record.updated, learner.support_, learner.dual_coef_[0], ref)


def test_csr_pool_memory_is_the_entries_not_the_width():
    X, y = wide_stream(2, n=200)
    learner = olc.make("kernel-perceptron", gamma=0.05).fit(X, y)
    n = int(learner.n_support_[0])
    assert n > 20
    assert learner._vecs.size < WIDE + 8 * X.nnz  # a pool by feature: d·capacity ≥ 2^16·n


@pytest.mark.parametrize("name, params", [
    ("kernel-perceptron", {"budget": 5}), ("kernel-norma", {"tau": 4, "eta": 0.5}),
    ("randomized-budget-perceptron", {"budget": 4}), ("forgetron", {"budget": 3})])
def test_many_insert_remove_cycles_reuse_the_slab(name, params):
    """Thousands of rows through a small pool: the slab stays bounded (compaction reuses the
    holes), and every step equals the pool by feature's, bit for bit."""
    rng = np.random.default_rng(3)
    n, d = 3000, 300
    X = sp.random(n, d, density=0.03, random_state=4, format="csr")
    X.data = rng.normal(size=X.nnz)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    csr = olc.make(name, gamma=0.3, **params)
    by_feature = olc.make(name, gamma=0.3, **params)
    a = csr.predict_then_learn(X, y, classes=[-1.0, 1.0])
    b = by_feature.predict_then_learn(X.toarray(), y, classes=[-1.0, 1.0])
    assert csr._ints.shape == (1,) and by_feature._ints.shape == (0,)
    np.testing.assert_array_equal(a.score, b.score)
    np.testing.assert_array_equal(a.updated, b.updated)
    np.testing.assert_array_equal(csr.support_vectors_, by_feature.support_vectors_)
    np.testing.assert_array_equal(csr.dual_coef_, by_feature.dual_coef_)
    assert int(a.updated.sum()) > 300  # many rows stored, and as many removed
    slab = int(csr._vecs[kernel_csr.SLAB, 0])
    assert slab <= max(1024, 4 * int(X.getnnz(axis=1).max()) * 8)
    n = int(csr.n_support_[0])
    order = pool.block(csr._scal, pool.ORDER, n).astype(np.intp)
    assert kernel_csr.check(csr._vecs, n, pool.capacity(csr._scal), order) is None


def test_slab_growth_in_one_call_and_across_calls_is_invisible():
    X, y = wide_stream(5, n=150, nnz=200)  # rows larger than the initial slab allows
    one = olc.make("kernel-pa", gamma=0.02).fit(X, y)
    parts = olc.make("kernel-pa", gamma=0.02)
    for a in range(0, 150, 40):
        parts.partial_fit(X[a:a + 40], y[a:a + 40], classes=[-1.0, 1.0])
    np.testing.assert_array_equal(one.dual_coef_, parts.dual_coef_)
    np.testing.assert_array_equal(one.decision_function(X), parts.decision_function(X))


def test_dense_input_into_a_csr_pool_gives_the_same_bits():
    X, y = wide_stream(6, n=80, d=500)
    mixed = olc.make("forgetron", budget=10, gamma=0.1)
    mixed.partial_fit(X[:40], y[:40], classes=[-1.0, 1.0])
    mixed.partial_fit(X[40:].toarray(), y[40:])
    plain = olc.make("forgetron", budget=10, gamma=0.1).fit(X.toarray(), y)
    np.testing.assert_array_equal(mixed.dual_coef_, plain.dual_coef_)
    np.testing.assert_array_equal(mixed.support_vectors_, plain.support_vectors_)
    np.testing.assert_array_equal(mixed.decision_function(X), plain.decision_function(X))


def test_one_vs_rest_csr_pools_are_each_class_binary_learner():
    X, _ = wide_stream(7, n=160, d=4000, nnz=40)
    head = X[:, :3].toarray()
    y = np.argmax(head + 0.2 * np.random.default_rng(1).normal(size=head.shape), axis=1)
    ovr = olc.make("kernel-perceptron", gamma=0.1, budget=12).fit(X, y)
    assert ovr._vecs.ndim == 3 and ovr._ints.shape == (3, 1)
    scores = ovr.decision_function(X)
    for c in range(3):
        binary = olc.make("kernel-perceptron", gamma=0.1, budget=12).fit(
            X.toarray(), (y == c).astype(int))
        np.testing.assert_array_equal(scores[:, c], binary.decision_function(X.toarray()))
        np.testing.assert_array_equal(ovr.support_[c], binary.support_)


@pytest.mark.parametrize("name", ["kernel-perceptron", "kernel-norma", "forgetron"])
def test_csr_pool_file_round_trip_continues_identically(name, tmp_path):
    X, y = wide_stream(8, n=140)
    learner = olc.make(name, gamma=0.05, budget=10 if name == "forgetron" else None)
    learner.fit(X[:80], y[:80])
    path = tmp_path / "model.npz"
    olc.save(learner, path)
    loaded = olc.load(path)
    assert loaded._ints.shape == (1,)
    np.testing.assert_array_equal(loaded._vecs, learner._vecs)
    a = learner.predict_then_learn(X[80:], y[80:]).score
    b = loaded.predict_then_learn(X[80:], y[80:]).score
    np.testing.assert_array_equal(a, b)


def _slot(learner, which, s=0):
    V = learner._vecs[:, 0]
    o, ln, vb, ib = kernel_csr.offsets(V)
    return {"offset": o + s, "length": ln + s, "value": vb + int(V[o + s]),
            "index": ib + int(V[o + s])}[which]


def _set(m, where, value):
    m._vecs[where, 0] = value


@pytest.mark.parametrize("change, field", [
    (lambda m: _set(m, _slot(m, "offset", 1), m._vecs[_slot(m, "offset", 1), 0] - 1), "offset"),
    (lambda m: _set(m, _slot(m, "length", 0), 10 ** 6), "offset"),
    (lambda m: _set(m, _slot(m, "index"), WIDE + 5), "index"),
    (lambda m: _set(m, _slot(m, "index") + 1, m._vecs[_slot(m, "index"), 0]), "index"),
    (lambda m: _set(m, _slot(m, "index"), 0.5), "index"),
    (lambda m: _set(m, _slot(m, "value"), m._vecs[_slot(m, "value"), 0] + 1.0), "sqnorm"),
    (lambda m: _set(m, kernel_csr.LIVE, m._vecs[kernel_csr.LIVE, 0] + 1), "live"),
    (lambda m: _set(m, kernel_csr.D, 7), "features"),
    (lambda m: _set(m, kernel_csr.offsets(m._vecs[:, 0])[2] - WIDE + 3, 1.0), "work"),
    (lambda m: m._ints.__setitem__(0, 2), "ints"),
])
def test_a_file_whose_csr_pool_disagrees_is_refused_naming_the_field(tmp_path, change, field):
    X, y = wide_stream(9, n=60)
    learner = olc.make("kernel-perceptron", gamma=0.05).fit(X, y)  # no removal: no holes
    assert int(learner.n_support_[0]) >= 3
    change(learner)
    path = tmp_path / "bad.npz"
    olc.save(learner, path)
    with pytest.raises(ValueError, match=field):
        olc.load(path)
