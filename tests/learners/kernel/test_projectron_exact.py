"""Projectron and Projectron++ (``olc.learners.kernel_extra``) against the NumPy reference
(``reference_sgd._projectron``: d* by a direct solve, no incremental inverse), step by step;
the inverse Gram matrix the learner keeps against numpy.linalg.inv; η's range."""
import numpy as np
import pytest

import olc
from olc.learners._framework import kernel_model
from olc._compiled.layouts import kernel_extra
from ._stepwise import assert_binary, assert_one_vs_rest, stream

NAMES = ["projectron", "projectron++"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("sparse", [False, True, "csr-pool"], ids=["dense", "csr", "csr-pool"])
def test_steps_match_the_reference(name, kernel, fit_intercept, sparse, monkeypatch):
    """``csr-pool``: CSR rows into a CSR pool (the width threshold set to 1)."""
    if sparse == "csr-pool":
        monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1)
    X, y = stream(1)
    eta = 0.3
    learner, record, trace = assert_binary(name, {"eta": eta}, X, y, kernel=kernel,
                                           fit_intercept=fit_intercept, sparse=sparse)
    assert learner._ints.shape == ((1,) if sparse == "csr-pool" else (0,))  # the pool's kind
    computed = ~np.isnan(trace.extra["delta"])
    # ‖δ‖² = k(x, x) − k_tᵀd* cancels to rounding noise for a row in the span: compared
    # squared, to an absolute noise level
    np.testing.assert_allclose(record.aux[computed] ** 2, trace.extra["delta"][computed] ** 2,
                               rtol=1e-8, atol=1e-10)
    # both branches ran: projected updates (the pool did not grow) and stored rows
    grew = np.diff(np.concatenate([[0], trace.n_support])) > 0
    assert np.any(record.updated & ~grew) and np.any(grew)


@pytest.mark.parametrize("name", NAMES)
def test_inverse_gram_is_the_inverse(name):
    X, y = stream(2, n=120)
    learner = olc.make(name, eta=0.2, gamma=0.5).fit(X, y)
    n = int(learner.n_support_[0])
    cap = learner._vecs.shape[1]
    _, (inverse, _, _) = learner._parts(learner._scal, cap)
    from sklearn.metrics.pairwise import rbf_kernel
    K = rbf_kernel(learner.support_vectors_, gamma=0.5)
    order = np.asarray(learner.support_)  # no removals: slots are in stream order
    assert list(order) == sorted(order)
    np.testing.assert_allclose(inverse[:n, :n], np.linalg.inv(K), rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("kernel", ["poly", "rbf"])
def test_one_vs_rest_is_the_binary_algorithm_per_class(name, kernel):
    X, y = stream(3, n=60, classes=3)
    assert_one_vs_rest(name, {"eta": 0.25}, X, y, kernel=kernel, fit_intercept=True)


def test_tiny_eta_is_the_kernel_perceptron():
    """η → 0: only rows in the span are projected (η = 1e-6 above ‖δ‖'s rounding noise), and
    their projection is the row itself: the same function as the kernel perceptron, with at
    most 3 stored rows for the linear kernel in 3 dimensions."""
    X, y = stream(4, n=80, d=3)
    p = olc.make("projectron", eta=1e-6, kernel="linear").fit(X, y)
    k = olc.make("kernel-perceptron", kernel="linear").fit(X, y)
    assert p.n_support_[0] <= 3 < k.n_support_[0]
    np.testing.assert_allclose(p.decision_function(X), k.decision_function(X), rtol=1e-9,
                               atol=1e-9)


@pytest.mark.parametrize("eta", [-0.1, float("nan"), "0.1"])
@pytest.mark.parametrize("name", NAMES)
def test_eta_outside_its_range_is_refused_naming_it(name, eta):
    X, y = stream(5)
    learner = olc.make(name, eta=eta)
    with pytest.raises(ValueError, match="eta"):
        learner.fit(X, y)


def test_no_budget_parameter():
    with pytest.raises(TypeError):
        olc.make("projectron", budget=10)


def test_a_file_whose_inverse_disagrees_with_the_pool_is_refused(tmp_path):
    X, y = stream(6)
    learner = olc.make("projectron", eta=0.2, gamma=0.5).fit(X, y)
    path = tmp_path / "p.npz"
    olc.save(learner, path)
    back = olc.load(path)
    np.testing.assert_array_equal(back.decision_function(X), learner.decision_function(X))
    cap = learner._vecs.shape[1]
    _, (inverse, _, _) = learner._parts(learner._scal, cap)
    inverse[0, 0] *= 1.5
    olc.save(learner, path)
    with pytest.raises(ValueError, match="inverse_gram"):
        olc.load(path)
    inverse[0, 0] /= 1.5
    inverse[0, 1] += 1e-3
    olc.save(learner, path)
    with pytest.raises(ValueError, match="inverse_gram"):
        olc.load(path)


def test_extra_block_sizes():
    assert kernel_extra.extra_size(4, True, 1, 0) == 20
    assert kernel_extra.n_scalars(4, False, 3, 3) == kernel_extra.pool.n_scalars(4) + 15
