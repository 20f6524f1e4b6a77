"""NOGD (``olc.learners.nystrom.NOGD``) against the NumPy reference (``reference_sgd.nogd``),
step by step: three kernels, dense and CSR, with and without intercept, the budget never
reached and reached (full and reduced rank), one-vs-rest per class; the map against the
reference's eigendecomposition; files whose map disagrees with its landmarks are refused;
bad parameters."""
import numpy as np
import pytest

import olc
from olc.learners._framework import kernel_model
from . import reference as R
from ._stepwise import assert_binary, assert_one_vs_rest, stream

# (budget, rank): never reached on 70 rows, reached at full rank, reached at rank 5.
BUDGETS = [(500, None), (12, None), (12, 5)]


@pytest.mark.parametrize("budget, rank", BUDGETS, ids=["never-full", "full-rank", "rank-5"])
@pytest.mark.parametrize("sparse", [False, True, "csr-pool"], ids=["dense", "csr", "csr-pool"])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("kernel", ["rbf", "poly", "linear"])
def test_steps_match_the_reference(kernel, fit_intercept, sparse, budget, rank, monkeypatch):
    """``csr-pool``: CSR rows into a CSR pool (the width threshold set to 1)."""
    if sparse == "csr-pool":
        monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1)
    X, y = stream(41, n=70)
    learner, record, trace = assert_binary(
        "nogd", {"eta": 0.3, "rank": rank}, X, y, kernel=kernel, fit_intercept=fit_intercept,
        budget=budget, sparse=sparse)
    assert learner._ints.shape == ((1,) if sparse == "csr-pool" else (0,))  # the pool's kind
    assert record.updated.any() and not record.updated.all()
    mapped = trace.extra["map_step"] is not None
    assert mapped == (budget < 70)
    if not mapped:
        assert learner.nystrom_map_.shape == (0, len(trace.support))
        return
    # Updates after the map was built (stage 2 is exercised, not only stage 1).
    assert record.updated[trace.extra["map_step"] + 1:].any()
    V, lam, w = trace.extra["V"], trace.extra["lam"], trace.extra["w"]
    M, coef = learner.nystrom_map_, learner.nystrom_coef_
    assert M.shape == (len(lam), budget) and coef.shape == w.shape
    # Eigenvectors are defined up to sign: compare MᵀM = VΛ⁻¹Vᵀ and Mᵀw = VΛ^{-1/2}w.
    np.testing.assert_allclose(M.T @ M, (V / lam) @ V.T, rtol=1e-8,
                               atol=1e-9 * np.abs((V / lam) @ V.T).max())
    np.testing.assert_allclose(M.T @ coef, V @ (w / np.sqrt(lam)), rtol=1e-8, atol=1e-10)
    # The linear kernel's matrix has rank d (+1 with the intercept): the rest is dropped.
    full = budget if rank is None else rank
    assert len(lam) == (min(full, X.shape[1] + fit_intercept) if kernel == "linear" else full)


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_one_vs_rest_is_the_binary_algorithm_per_class(kernel):
    X, y = stream(42, n=80, classes=3)
    learner = assert_one_vs_rest("nogd", {"eta": 0.2, "rank": 6}, X, y, kernel=kernel,
                                 fit_intercept=True, budget=10)
    assert all(m.shape == (6, 10) for m in learner.nystrom_map_)


def test_the_map_is_built_in_the_step_the_pool_fills():
    """The paper's order (not the authors' C++, which waits for the next update): the row
    after the B-th stored one is already scored through the map, f = αᵀV_rV_rᵀk_B(x)."""
    X, y = stream(43, n=60)
    B, rank = 8, 3
    learner = olc.make("nogd", eta=0.4, budget=B, rank=rank, kernel="rbf", gamma=0.5)
    record = learner.predict_then_learn(X, y)
    ys = np.where(y == learner.classes_[1], 1.0, -1.0)
    trace = R.run("nogd", X, ys, budget=B, rank=rank, kernel="rbf", gamma=0.5, degree=3,
                  coef0=0.0, fit_intercept=False, eta=0.4)
    t = trace.extra["map_step"]
    pool = trace.support
    alpha = 0.4 * ys[pool]
    lam, V = np.linalg.eigh(R.kernel_matrix(X[pool], X[pool], kernel="rbf", gamma=0.5,
                                            degree=3, coef0=0.0))
    V = V[:, np.argsort(lam)[::-1][:rank]]
    k_next = R.kernel_matrix(X[t + 1:t + 2], X[pool], kernel="rbf", gamma=0.5, degree=3,
                             coef0=0.0)[0]
    assert record.score[t + 1] == pytest.approx(alpha @ V @ V.T @ k_next, rel=1e-9)


def _mapped_learner(tmp_path):
    X, y = stream(44, n=60)
    learner = olc.make("nogd", eta=0.3, budget=10, kernel="rbf", gamma=0.5).fit(X, y)
    path = tmp_path / "nogd.npz"
    olc.save(learner, path)
    back = olc.load(path)
    np.testing.assert_array_equal(back.decision_function(X), learner.decision_function(X))
    np.testing.assert_array_equal(back.nystrom_map_, learner.nystrom_map_)
    return learner, path, X, y


def test_a_file_whose_map_disagrees_with_its_landmarks_is_refused(tmp_path):
    learner, path, X, _ = _mapped_learner(tmp_path)
    # A landmark row changed (and its stored norm with it, so the pool's own checks pass).
    from olc._compiled.layouts import kernel as pool
    slot = 3
    learner._vecs[0, slot] += 0.5
    core, _ = learner._parts(learner._scal, learner._vecs.shape[-1])
    pool.block(core, pool.SQNORM)[slot] = float(learner._vecs[:, slot] @ learner._vecs[:, slot])
    olc.save(learner, path)
    with pytest.raises(ValueError, match="nystrom_map"):
        olc.load(path)


def test_a_file_whose_map_entries_were_changed_is_refused(tmp_path):
    learner, path, _, _ = _mapped_learner(tmp_path)
    cap = learner._vecs.shape[-1]
    _, (matrix, _, _) = learner._parts(learner._scal, cap)
    matrix[1, 2] *= 1.5
    olc.save(learner, path)
    with pytest.raises(ValueError, match="nystrom_map"):
        olc.load(path)


def test_a_full_pool_without_a_map_is_refused(tmp_path):
    learner, path, _, _ = _mapped_learner(tmp_path)
    cap = learner._vecs.shape[-1]
    _, (matrix, rows, constants) = learner._parts(learner._scal, cap)
    matrix[:] = 0.0
    rows[:] = 0.0
    constants[:] = 0.0
    olc.save(learner, path)
    with pytest.raises(ValueError, match="mapped"):
        olc.load(path)


def test_a_fitted_map_refuses_another_budget():
    X, y = stream(45, n=60)
    learner = olc.make("nogd", budget=10, kernel="rbf", gamma=0.5).fit(X, y)
    learner.set_params(budget=20)
    with pytest.raises(ValueError, match="budget"):
        learner.partial_fit(X, y)


@pytest.mark.parametrize("params, message", [
    ({"eta": 0.0}, "eta"), ({"budget": 0}, "budget"), ({"budget": None}, "budget"),
    ({"budget": 2.5}, "budget"), ({"rank": 0}, "rank"), ({"rank": 11, "budget": 10}, "rank"),
    ({"gamma": -1.0}, "gamma"), ({"kernel": "sigmoid"}, "kernel"), ({"degree": 0}, "degree")])
def test_bad_parameters_are_refused_naming_them(params, message):
    X, y = stream(46)
    learner = olc.make("nogd", **params)
    with pytest.raises(ValueError, match=message):
        learner.fit(X, y)
    assert not hasattr(learner, "n_steps_")

