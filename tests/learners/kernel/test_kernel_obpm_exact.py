"""Kernel OBPM (``olc.learners.kernel_extra.KernelOBPM``) against the NumPy reference
(``reference_perceptron.kernel_obpm``: members as an (N, pool) matrix, ‖β‖ recomputed from
the Gram matrix every step), step by step; its members; the linear kernel against olc's
linear OBPM; files whose members disagree with the pool."""
import numpy as np
import pytest

import olc
from olc.learners._framework import kernel_model
from ._stepwise import assert_binary, assert_one_vs_rest, stream

PARAMS = {"N": 9, "tau": 0.4, "seed": 5}


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("sparse", [False, True, "csr-pool"], ids=["dense", "csr", "csr-pool"])
@pytest.mark.parametrize("budget", [None, 10], ids=["unbounded", "budget"])
def test_steps_match_the_reference(kernel, fit_intercept, sparse, budget, monkeypatch):
    """``csr-pool``: CSR rows into a CSR pool (the width threshold set to 1)."""
    if sparse == "csr-pool":
        monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1)
    X, y = stream(21)
    learner, record, trace = assert_binary("kernel-obpm", PARAMS, X, y, kernel=kernel,
                                           fit_intercept=fit_intercept, sparse=sparse,
                                           budget=budget)
    assert learner._ints.shape == ((1,) if sparse == "csr-pool" else (0,))  # the pool's kind
    np.testing.assert_allclose(learner.member_coef_, trace.extra["member_alphas"],
                               rtol=0, atol=0)
    np.testing.assert_array_equal(record.aux, trace.extra["members_updated"])
    if budget is not None:
        assert learner.n_support_[0] == budget < np.count_nonzero(trace.updated)


@pytest.mark.parametrize("kernel", ["poly", "rbf"])
def test_one_vs_rest_is_the_binary_algorithm_per_class(kernel):
    X, y = stream(22, n=50, classes=3)
    assert_one_vs_rest("kernel-obpm", PARAMS, X, y, kernel=kernel, fit_intercept=True,
                       budget=12)


def test_linear_kernel_is_olc_linear_obpm():
    """The linear kernel without intercept is the linear OBPM with perceptron members and no
    bias: w_j = Σ α_j[s] x_s, the same draws, the same normalised scores."""
    X, y = stream(23, n=80)
    kernel = olc.make("kernel-obpm", kernel="linear", **PARAMS)
    linear = olc.make("obpm", **PARAMS, base="perceptron",
                      base_params={"fit_intercept": False})
    a = kernel.predict_then_learn(X, y)
    b = linear.predict_then_learn(X, y)
    np.testing.assert_allclose(a.score, b.score, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(a.updated, b.updated)


def test_changing_N_after_fit_is_refused():
    X, y = stream(24)
    learner = olc.make("kernel-obpm", **PARAMS).fit(X[:30], y[:30])
    learner.set_params(N=4)
    with pytest.raises(ValueError, match="N=4"):
        learner.partial_fit(X[30:], y[30:])
    learner.fit(X, y)  # fit starts over
    assert learner.member_coef_.shape[0] == 4


@pytest.mark.parametrize("params, message", [({"N": 0}, "N"), ({"tau": 1.5}, "tau"),
                                             ({"seed": -1}, "seed"), ({"budget": 0}, "budget")])
def test_bad_parameters_are_refused_naming_them(params, message):
    X, y = stream(25)
    learner = olc.make("kernel-obpm", **params)
    with pytest.raises(ValueError, match=message):
        learner.fit(X, y)


def test_a_file_whose_members_disagree_with_the_pool_is_refused(tmp_path):
    X, y = stream(26)
    learner = olc.make("kernel-obpm", **PARAMS, budget=10).fit(X, y)
    path = tmp_path / "o.npz"
    olc.save(learner, path)
    back = olc.load(path)
    np.testing.assert_array_equal(back.decision_function(X), learner.decision_function(X))
    cap = learner._vecs.shape[1]
    _, (_, members, _) = learner._parts(learner._scal, cap)
    j, s = np.argwhere(members != 0.0)[0]
    members[j, s] = 0.0
    olc.save(learner, path)
    with pytest.raises(ValueError, match="'alpha'"):
        olc.load(path)
