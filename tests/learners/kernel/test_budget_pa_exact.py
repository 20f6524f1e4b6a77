"""BPA-S (``olc.learners.kernel_extra.BudgetPA``) against the NumPy reference
(``reference_pa.budget_pa``: each candidate's objective from the Gram matrix of pool ∪ {t}),
step by step; its removals; bad parameters."""
import numpy as np
import pytest

import olc
from olc.learners._framework import kernel_model
from ._stepwise import assert_binary, assert_one_vs_rest, stream


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("sparse", [False, True, "csr-pool"], ids=["dense", "csr", "csr-pool"])
@pytest.mark.parametrize("budget", [8, 200], ids=["budget", "never-full"])
def test_steps_match_the_reference(kernel, fit_intercept, sparse, budget, monkeypatch):
    """``csr-pool``: CSR rows into a CSR pool (the width threshold set to 1)."""
    if sparse == "csr-pool":
        monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1)
    X, y = stream(11)
    learner, record, trace = assert_binary("budget-pa", {"C": 0.7}, X, y, kernel=kernel,
                                           fit_intercept=fit_intercept, sparse=sparse,
                                           budget=budget)
    assert learner._ints.shape == ((1,) if sparse == "csr-pool" else (0,))  # the pool's kind
    assert learner.n_support_[0] <= budget
    if budget == 8:  # the budget's branch ran, and not always on the oldest row
        removed = trace.extra["removed"]
        assert len(removed) > 5
        assert int(learner._scal[7]) == len(removed)  # KernelScal.REMOVED
        ages = {row for _, row in removed}
        assert len(ages) == len(removed)


def test_the_removed_row_is_not_always_the_oldest():
    X, y = stream(12, n=90)
    _, _, trace = assert_binary("budget-pa", {"C": 1.0}, X, y, kernel="rbf",
                                fit_intercept=False, budget=6)
    pools = []
    for step, row in trace.extra["removed"]:
        pools.append(row)
    assert pools != sorted(pools)


@pytest.mark.parametrize("kernel", ["poly", "rbf"])
def test_one_vs_rest_is_the_binary_algorithm_per_class(kernel):
    X, y = stream(13, n=60, classes=3)
    assert_one_vs_rest("budget-pa", {"C": 0.5}, X, y, kernel=kernel, fit_intercept=True,
                       budget=7)


@pytest.mark.parametrize("params, message", [({"C": 0.0}, "C"), ({"C": -1.0}, "C"),
                                             ({"budget": None}, "budget"),
                                             ({"budget": 0}, "budget"),
                                             ({"gamma": 0.0}, "gamma")])
def test_bad_parameters_are_refused_naming_them(params, message):
    X, y = stream(14)
    learner = olc.make("budget-pa", **params)
    with pytest.raises(ValueError, match=message):
        learner.fit(X, y)
    assert not hasattr(learner, "n_steps_")


def test_save_load_round_trip(tmp_path):
    X, y = stream(15)
    learner = olc.make("budget-pa", budget=6, gamma=0.5).fit(X[:40], y[:40])
    olc.save(learner, tmp_path / "b.npz")
    back = olc.load(tmp_path / "b.npz")
    learner.partial_fit(X[40:], y[40:])
    back.partial_fit(X[40:], y[40:])
    np.testing.assert_array_equal(back.decision_function(X), learner.decision_function(X))
