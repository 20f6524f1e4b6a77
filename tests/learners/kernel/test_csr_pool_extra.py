"""The CSR pool in the ``kernel_extra`` family (Projectron, Projectron++, BPA-S, kernel OBPM)
and the ``nystrom`` family (NOGD's landmarks): step by step against the NumPy references at
d = 2^16, bit for bit the pool by feature (scores, pools and the extra state: K⁻¹, the
members, the Nyström map), memory by the entries, slab growth and reuse, one-vs-rest, files
(round trip; a tampered pool or extra block refused naming the field)."""
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


# (name, olc's parameters, the reference's parameters): each exercises its extra state.
CASES = [
    ("projectron", {"eta": 0.4}, {"eta": 0.4}),
    ("projectron++", {"eta": 0.4}, {"eta": 0.4}),
    ("budget-pa", {"C": 0.7, "budget": 7}, {"C": 0.7, "budget": 7}),
    ("kernel-obpm", {"N": 6, "tau": 0.5, "seed": 3, "budget": 9},
     {"N": 6, "tau": 0.5, "budget": 9}),
    ("nogd", {"eta": 0.3, "budget": 10, "rank": 7}, {"eta": 0.3, "budget": 10, "rank": 7}),
]
IDS = [c[0] for c in CASES]


@pytest.fixture(autouse=True)
def csr_pools_at_every_width(monkeypatch):
    monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1)


KERNELS = {"rbf": dict(kernel="rbf", gamma=0.05, degree=3, coef0=1.0),
           "poly": dict(kernel="poly", gamma=0.2, degree=2, coef0=1.0)}


@pytest.mark.parametrize("name, params, ref_params", CASES, ids=IDS)
@pytest.mark.parametrize("kern", list(KERNELS))
def test_wide_csr_rows_match_the_reference(name, params, ref_params, kern):
    """d = 2^16: the reference's dense rows against the CSR pool, step by step."""
    X, y = wide_stream(1)
    seed = params.get("seed", 0)
    ref = reference.run(name, X.toarray(), y, fit_intercept=True, seed=seed,
                        **KERNELS[kern], **{"budget": None, **ref_params})
    learner = olc.make(name, fit_intercept=True, **KERNELS[kern], **params)
    record = learner.predict_then_learn(X, y, classes=[-1.0, 1.0])
    assert learner._ints.shape == (1,) and learner._vecs.shape[1] == 1  # a CSR pool
    assert learner._vecs.size < WIDE + 8 * X.nnz + 4096  # not d × capacity floats
    assert_trace(record.score, record.updated, learner.support_, learner.dual_coef_[0], ref)
    if name == "nogd":
        assert ref.extra["map_step"] is not None  # the map was built from CSR landmarks


def _pair(name, params, X, y, chunks=(None,)):
    """The same stream into a CSR pool (CSR rows) and a pool by feature (dense rows)."""
    csr, by_feature = olc.make(name, gamma=0.3, **params), olc.make(name, gamma=0.3, **params)
    records = []
    for learner, rows in ((csr, X), (by_feature, X.toarray())):
        parts = []
        bounds = [0, *[c for c in chunks if c is not None], X.shape[0]]
        for a, b in zip(bounds[:-1], bounds[1:]):
            parts.append(learner.predict_then_learn(rows[a:b], y[a:b], classes=[-1.0, 1.0]))
        records.append(parts)
    assert csr._ints.shape == (1,) and by_feature._ints.shape == (0,)
    return csr, by_feature, records


def _capacity(learner):
    """The pool's slots: a CSR pool's CAP, the columns of a pool by feature."""
    if learner._ints.shape[-1]:
        return int(learner._vecs[..., kernel_csr.CAP, 0].flat[0])
    return learner._vecs.shape[-1]


def _extra(learner):
    """The extra block (everything of scal after the pool's header and blocks)."""
    return learner._scal[pool.n_scalars(_capacity(learner)):]


@pytest.mark.parametrize("name, params, _", CASES, ids=IDS)
def test_the_same_bits_as_the_pool_by_feature(name, params, _):
    """Thousands of rows: every score, the pool, its coefficients and the extra state (K⁻¹,
    the members, the map) equal the pool by feature's bit for bit; the slab is reused."""
    rng = np.random.default_rng(3)
    n, d = 1500, 300
    X = sp.random(n, d, density=0.03, random_state=4, format="csr")
    X.data = rng.normal(size=X.nnz)
    y = np.where(X[:, :40].sum(axis=1).A1 + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    csr, by_feature, (a, b) = _pair(name, params, X, y, chunks=(500, 1000))
    for ra, rb in zip(a, b):
        np.testing.assert_array_equal(ra.score, rb.score)
        np.testing.assert_array_equal(ra.updated, rb.updated)
        np.testing.assert_array_equal(ra.aux, rb.aux)
    np.testing.assert_array_equal(csr.support_vectors_, by_feature.support_vectors_)
    np.testing.assert_array_equal(csr.dual_coef_, by_feature.dual_coef_)
    assert _capacity(csr) == by_feature._vecs.shape[1]
    core_csr = csr._scal[:pool.n_scalars(_capacity(csr))]
    np.testing.assert_array_equal(core_csr, by_feature._scal[:core_csr.size])
    np.testing.assert_array_equal(_extra(csr), _extra(by_feature))
    np.testing.assert_array_equal(csr.decision_function(X), by_feature.decision_function(X))
    assert int(np.sum([r.updated.sum() for r in a])) > 30
    n_stored = int(csr.n_support_[0])
    order = pool.block(core_csr, pool.ORDER, n_stored).astype(np.intp)
    assert kernel_csr.check(csr._vecs, n_stored, _capacity(csr), order) is None


@pytest.mark.parametrize("name, params", [("budget-pa", {"budget": 6}),
                                          ("kernel-obpm", {"N": 5, "budget": 6}),
                                          ("projectron", {"eta": 0.9})])
def test_slab_growth_in_one_call_and_across_calls_is_invisible(name, params):
    X, y = wide_stream(5, n=150, nnz=200)  # rows larger than the initial slab allows
    one = olc.make(name, gamma=0.02, **params).fit(X, y)
    parts = olc.make(name, gamma=0.02, **params)
    for a in range(0, 150, 40):
        parts.partial_fit(X[a:a + 40], y[a:a + 40], classes=[-1.0, 1.0])
    assert int(one._vecs[kernel_csr.SLAB, 0]) > 1024  # the slab grew
    np.testing.assert_array_equal(one.dual_coef_, parts.dual_coef_)
    np.testing.assert_array_equal(one.decision_function(X), parts.decision_function(X))


@pytest.mark.parametrize("name, params", [("projectron", {"eta": 0.5}),
                                          ("budget-pa", {"budget": 8}),
                                          ("kernel-obpm", {"N": 5, "budget": 10}),
                                          ("nogd", {"budget": 9, "eta": 0.3})])
def test_one_vs_rest_csr_pools_are_each_class_binary_learner(name, params):
    X, _ = wide_stream(7, n=160, d=4000, nnz=40)
    head = X[:, :3].toarray()
    y = np.argmax(head + 0.2 * np.random.default_rng(1).normal(size=head.shape), axis=1)
    ovr = olc.make(name, gamma=0.1, **params).fit(X, y)
    assert ovr._vecs.ndim == 3 and ovr._ints.shape == (3, 1)
    scores = ovr.decision_function(X)
    seed = params.get("seed", 0)
    from olc.learners._framework.multiclass import class_seed
    for c in range(3):
        extra = {"seed": class_seed(seed, c)} if name == "kernel-obpm" else {}
        binary = olc.make(name, gamma=0.1, **params, **extra).fit(X.toarray(),
                                                                  (y == c).astype(int))
        np.testing.assert_array_equal(scores[:, c], binary.decision_function(X.toarray()))
        np.testing.assert_array_equal(ovr.support_[c], binary.support_)


@pytest.mark.parametrize("name, params, _", CASES, ids=IDS)
def test_csr_pool_file_round_trip_continues_identically(name, params, _, tmp_path):
    X, y = wide_stream(8, n=140)
    learner = olc.make(name, gamma=0.05, **params)
    learner.fit(X[:80], y[:80])
    path = tmp_path / "model.npz"
    olc.save(learner, path)
    loaded = olc.load(path)
    assert loaded._ints.shape == (1,)
    np.testing.assert_array_equal(loaded._vecs, learner._vecs)
    np.testing.assert_array_equal(loaded._scal, learner._scal)
    a = learner.predict_then_learn(X[80:], y[80:]).score
    b = loaded.predict_then_learn(X[80:], y[80:]).score
    np.testing.assert_array_equal(a, b)


def _first_value(m):
    V = m._vecs[:, 0]
    o, _, vb, _ = kernel_csr.offsets(V)
    return vb + int(V[o])


def _bump(m, where, by):
    m._vecs[where, 0] += by


@pytest.mark.parametrize("name, params, change, field", [
    # the CSR pool's own checks (kernel_csr.check), reached through the extra classes
    ("projectron", {"eta": 0.3}, lambda m: _bump(m, kernel_csr.LIVE, 1), "live"),
    ("kernel-obpm", {"N": 4}, lambda m: _bump(m, kernel_csr.D, 3), "features"),
    ("budget-pa", {"budget": 50}, lambda m: _bump(m, kernel_csr.CAP, 0.5), "csr header"),
    ("projectron", {"eta": 0.3}, lambda m: _bump(m, kernel_csr.CAP, 0.5), "cap"),
    ("nogd", {"budget": 30}, lambda m: m._ints.__setitem__(0, 2), "ints"),
    # a stored value changed: the norms disagree before the extra block is read
    ("projectron", {"eta": 0.3}, lambda m: _bump(m, _first_value(m), 1.0), "sqnorm"),
])
def test_a_file_whose_csr_pool_disagrees_is_refused_naming_the_field(tmp_path, name, params,
                                                                      change, field):
    X, y = wide_stream(9, n=60)
    learner = olc.make(name, gamma=0.05, **params).fit(X, y)
    assert int(learner.n_support_[0]) >= 3
    change(learner)
    path = tmp_path / "bad.npz"
    olc.save(learner, path)
    with pytest.raises(ValueError, match=field):
        olc.load(path)


def _scale_value_and_norm(m, by):
    """A stored value and its row's norm changed together: the pool alone is consistent,
    the extra state (K⁻¹, ‖β‖², the map) no longer is."""
    V = m._vecs[:, 0]
    o, ln, vb, _ = kernel_csr.offsets(V)
    a, n = int(V[o]), int(V[ln])
    V[vb + a:vb + a + n] *= by
    core = m._scal
    core[pool.HEADER + pool.SQNORM * _capacity(m)] *= by * by


@pytest.mark.parametrize("name, params, field", [
    ("projectron", {"eta": 0.3}, "inverse_gram"),
    ("kernel-obpm", {"N": 4}, "fnorm2"),
    ("nogd", {"budget": 20}, "nystrom_map"),
])
def test_a_file_whose_extra_state_disagrees_with_the_csr_rows_is_refused(tmp_path, name,
                                                                         params, field):
    X, y = wide_stream(10, n=80)
    learner = olc.make(name, gamma=0.05, **params).fit(X, y)
    _scale_value_and_norm(learner, 1.5)
    path = tmp_path / "bad.npz"
    olc.save(learner, path)
    with pytest.raises(ValueError, match=field):
        olc.load(path)


def test_narrow_csr_input_keeps_the_pool_by_feature(monkeypatch):
    monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 2 ** 14)
    X, y = wide_stream(11, n=40, d=2 ** 14 - 1)
    assert olc.make("projectron").fit(X, y)._ints.shape == (0,)
    X, y = wide_stream(11, n=40, d=2 ** 14)
    assert olc.make("projectron").fit(X, y)._ints.shape == (1,)


@pytest.mark.parametrize("name, params, _", CASES, ids=IDS)
def test_dense_input_into_a_csr_pool_gives_the_same_bits(name, params, _):
    """A CSR pool started by CSR rows, then learning dense rows (stored by their nonzeros),
    against the pool by feature learning the same rows dense."""
    X, y = wide_stream(6, n=90, d=500)
    mixed = olc.make(name, gamma=0.1, **params)
    first = mixed.predict_then_learn(X[:45], y[:45], classes=[-1.0, 1.0])
    second = mixed.predict_then_learn(X[45:].toarray(), y[45:])
    plain = olc.make(name, gamma=0.1, **params)
    whole = plain.predict_then_learn(X.toarray(), y, classes=[-1.0, 1.0])
    assert mixed._ints.shape == (1,) and plain._ints.shape == (0,)
    np.testing.assert_array_equal(np.concatenate([first.score, second.score]), whole.score)
    np.testing.assert_array_equal(mixed.dual_coef_, plain.dual_coef_)
    np.testing.assert_array_equal(mixed.support_vectors_, plain.support_vectors_)
    np.testing.assert_array_equal(_extra(mixed), _extra(plain))
    np.testing.assert_array_equal(mixed.decision_function(X), plain.decision_function(X))
