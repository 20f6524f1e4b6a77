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


@pytest.mark.parametrize("threshold_on", ["norm", "squared_norm"])
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("sparse", [False, True, "csr-pool"], ids=["dense", "csr", "csr-pool"])
def test_steps_match_the_reference(name, kernel, fit_intercept, sparse, threshold_on,
                                   monkeypatch):
    """``csr-pool``: CSR rows into a CSR pool (the width threshold set to 1)."""
    if sparse == "csr-pool":
        monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1)
    X, y = stream(1)
    eta = 0.3
    learner, record, trace = assert_binary(name, {"eta": eta, "threshold_on": threshold_on},
                                           X, y, kernel=kernel,
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


@pytest.mark.parametrize("threshold_on", ["norm", "squared_norm"])
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("kernel", ["poly", "rbf"])
def test_one_vs_rest_is_the_binary_algorithm_per_class(name, kernel, threshold_on):
    X, y = stream(3, n=60, classes=3)
    assert_one_vs_rest(name, {"eta": 0.25, "threshold_on": threshold_on}, X, y,
                       kernel=kernel, fit_intercept=True)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_squared_reading_is_the_norm_reading_at_the_root_of_eta(kernel):
    """The Projectron (mistakes only): ‖δ‖² ≤ η ⟺ ‖δ‖ ≤ √η, so the squared reading with η
    is the norm reading with √η, bit for bit; with the same η (0.3 < √0.3) the RBF pool is
    smaller."""
    X, y = stream(7, n=150)
    args = dict(kernel=kernel, gamma=0.5)
    sq = olc.make("projectron", eta=0.3, threshold_on="squared_norm", **args).fit(X, y)
    root = olc.make("projectron", eta=float(np.sqrt(0.3)), **args).fit(X, y)
    same_eta = olc.make("projectron", eta=0.3, **args).fit(X, y)
    np.testing.assert_array_equal(sq.decision_function(X), root.decision_function(X))
    assert list(sq.support_) == list(root.support_)
    if kernel == "rbf":  # (the linear kernel in 4 dimensions stores 4 rows either way)
        assert sq.n_support_[0] < same_eta.n_support_[0]  # the squared reading projects more


@pytest.mark.parametrize("threshold_on", ["norm", "squared_norm"])
@pytest.mark.parametrize("name", NAMES)
def test_eta_one_never_stores_a_row_with_the_rbf_kernel(name, threshold_on):
    """‖δ_t‖ ≤ √k(x, x) = 1 for RBF, so η = 1 projects every mistake (onto the empty span:
    nothing changes) under either reading; just below 1 rows are stored."""
    X, y = stream(10, n=60)
    never = olc.make(name, eta=1.0, gamma=0.5, threshold_on=threshold_on).fit(X, y)
    assert never.n_support_[0] == 0
    assert np.all(never.decision_function(X) == 0.0)
    some = olc.make(name, eta=0.99, gamma=0.5, threshold_on=threshold_on).fit(X, y)
    assert some.n_support_[0] > 0


def test_the_default_reading_keeps_the_layout_files_were_saved_with():
    """The fingerprint of the Projectrons' layout before ``threshold_on`` existed (olc's
    model files carry it): the default reading keeps it, the squared one has its own."""
    assert olc.make("projectron")._layout.fingerprint == "773ef4e52808edb4"
    assert olc.make("projectron++")._layout.fingerprint == "773ef4e52808edb4"
    squared = olc.make("projectron", threshold_on="squared_norm")._layout
    assert squared.fingerprint != "773ef4e52808edb4"
    assert squared.describe()["hp"][-1] == "squared"


@pytest.mark.parametrize("name", NAMES)
def test_files_carry_the_reading_and_old_files_load_with_the_default(name, tmp_path):
    import json
    X, y = stream(8)
    learner = olc.make(name, eta=0.3, gamma=0.5, threshold_on="squared_norm").fit(X, y)
    path = tmp_path / "p.npz"
    olc.save(learner, path)
    back = olc.load(path)
    assert back.threshold_on == "squared_norm"
    np.testing.assert_array_equal(back.decision_function(X), learner.decision_function(X))
    X2, y2 = stream(9)
    learner.partial_fit(X2, y2)
    back.partial_fit(X2, y2)
    np.testing.assert_array_equal(back.decision_function(X), learner.decision_function(X))
    # a file saved before the parameter existed: its params lack it (the layout is the
    # default's, unchanged)
    norm = olc.make(name, eta=0.3, gamma=0.5).fit(X, y)
    olc.save(norm, path)
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    del meta["params"]["threshold_on"]
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)
    old = olc.load(path)
    assert old.threshold_on == "norm"
    np.testing.assert_array_equal(old.decision_function(X), norm.decision_function(X))


@pytest.mark.parametrize("value", ["squared", "", None, 2])
@pytest.mark.parametrize("name", NAMES)
def test_an_unknown_reading_is_refused_naming_the_parameter(name, value):
    X, y = stream(5)
    fitted = olc.make(name, eta=0.2, gamma=0.5).fit(X, y)
    before = fitted.decision_function(X)
    fitted.set_params(threshold_on=value)
    with pytest.raises(ValueError, match="threshold_on"):
        fitted.partial_fit(X, y)
    fitted.set_params(threshold_on="norm")
    np.testing.assert_array_equal(fitted.decision_function(X), before)  # nothing changed


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
