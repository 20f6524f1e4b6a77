"""The kernel learners' pool: the linear kernel against olc's independent linear learners (an
invariance: f(x) = Σ c_s x_s·x is the linear model w = Σ c_s x_s), the fitted attributes,
bad parameters and input, growth, files whose pool disagrees with itself.

The step-by-step comparisons with the NumPy reference are in test_*_exact.py."""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc.learners import InputError, StreamStoppedError

KERNEL_LEARNERS = ["kernel-perceptron", "kernel-pa", "kernel-pa-i", "kernel-pa-ii",
                   "kernel-regularized-pa", "kernel-l2-constrained-pa", "forgetron",
                   "randomized-budget-perceptron", "stoptron", "kernel-norma"]
BUDGETED = {"forgetron", "randomized-budget-perceptron", "stoptron"}


def _stream(seed=0, n=120, d=6):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.6)
    y = (np.sin(X[:, 0] * 2) + X[:, 1] * X[:, 2] > 0).astype(int)
    return X, y


# The linear kernel without intercept is the linear learner with w = Σ c_s x_s: the same
# scores step by step (olc's linear learners are independent code: explicit weight vectors).
LINEAR_TWINS = [
    ("kernel-perceptron", {}, "perceptron", {"fit_intercept": False}),
    ("kernel-pa", {}, "pa", {"fit_intercept": False}),
    ("kernel-pa-i", {"C": 0.3}, "pa-i", {"C": 0.3, "fit_intercept": False}),
    ("kernel-pa-ii", {"C": 0.3}, "pa-ii", {"C": 0.3, "fit_intercept": False}),
    ("kernel-regularized-pa", {"alpha": 0.05, "update": "hinge"}, "regularized-pa",
     {"alpha": 0.05, "update": "hinge"}),
    ("kernel-l2-constrained-pa", {"beta": 1.5, "update": "hinge"}, "l2-constrained-pa",
     {"beta": 1.5, "update": "hinge"}),
    ("kernel-norma", {"eta": 0.2, "lam": 0.1, "rho": 1.0}, "norma",
     {"eta": 0.2, "lam": 0.1, "rho": 1.0, "fit_intercept": False}),
    ("kernel-norma", {"eta": 0.2, "lam": 0.1, "schedule": "sqrt"}, "norma",
     {"eta": 0.2, "lam": 0.1, "schedule": "sqrt", "fit_intercept": False}),
]


@pytest.mark.parametrize("kernel_name, kp, linear_name, lp", LINEAR_TWINS)
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_linear_kernel_is_the_linear_learner(kernel_name, kp, linear_name, lp, sparse):
    X, y = _stream(1)
    Xin = sp.csr_matrix(X) if sparse else X
    learner = olc.make(kernel_name, kernel="linear", **kp)
    record = learner.predict_then_learn(Xin, y)
    twin_record = olc.make(linear_name, **lp).predict_then_learn(Xin, y)
    np.testing.assert_allclose(record.score, twin_record.score, rtol=1e-9, atol=1e-12)
    if kernel_name == "kernel-norma":  # the linear NORMA's ``updated`` is σ_t, kept in aux
        np.testing.assert_array_equal(record.aux == 1.0, twin_record.updated)
    else:
        np.testing.assert_array_equal(record.updated, twin_record.updated)
    twin = olc.make(linear_name, **lp).fit(Xin, y)
    np.testing.assert_allclose(learner.coef_, twin.coef_, rtol=1e-9, atol=1e-12)


def test_poly_kernel_of_degree_one_is_the_linear_kernel_scaled():
    """(γ·x·z + 0)¹ = γ·x·z: the perceptron's decisions are those of the linear kernel."""
    X, y = _stream(2)
    a = olc.make("kernel-perceptron", kernel="poly", degree=1, gamma=2.0).fit(X, y)
    b = olc.make("kernel-perceptron", kernel="linear").fit(X, y)
    np.testing.assert_allclose(a.decision_function(X), 2.0 * b.decision_function(X),
                               rtol=1e-12)


def test_rbf_scores_are_the_kernel_expansion():
    """f(x) = Σ_s c_s exp(−γ‖x_s − x‖²) (+ Σ c_s with the intercept), from the fitted
    attributes, against scikit-learn's rbf_kernel."""
    from sklearn.metrics.pairwise import rbf_kernel

    X, y = _stream(3)
    for fit_intercept in (False, True):
        learner = olc.make("kernel-pa", gamma=0.3, fit_intercept=fit_intercept).fit(X, y)
        K = rbf_kernel(X, learner.support_vectors_, gamma=0.3) + float(fit_intercept)
        np.testing.assert_allclose(learner.decision_function(X), K @ learner.dual_coef_[0],
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(learner.support_vectors_, X[learner.support_])


@pytest.mark.parametrize("name", KERNEL_LEARNERS)
def test_budget_bounds_the_pool_and_growth_is_invisible(name):
    """A pool that grows by doubling (16 → 32 → ...) and one that starts at its budget give
    the same results; the pool never exceeds the budget."""
    X, y = _stream(4, n=200)
    learner = olc.make(name, gamma=0.5, budget=20)
    record = learner.predict_then_learn(X, y)
    assert learner.n_support_[0] <= 20
    assert learner._vecs.shape[1] <= 20
    chunked = olc.make(name, gamma=0.5, budget=20)
    parts = [chunked.predict_then_learn(X[a:a + 7], y[a:a + 7], classes=[0, 1]).score
             for a in range(0, 200, 7)]
    np.testing.assert_array_equal(np.concatenate(parts), record.score)


@pytest.mark.parametrize("params, message", [
    ({"gamma": 0.0}, "gamma"), ({"gamma": -1.0}, "gamma"), ({"degree": 0}, "degree"),
    ({"degree": 2.5}, "degree"), ({"budget": 0}, "budget"), ({"budget": 3.5}, "budget"),
    ({"kernel": "sigmoid"}, "kernel")])
@pytest.mark.parametrize("name", ["kernel-perceptron", "forgetron", "kernel-norma"])
def test_bad_parameters_are_refused_naming_them(name, params, message):
    X, y = _stream(5)
    learner = olc.make(name, **params)
    with pytest.raises(ValueError, match=message):
        learner.fit(X, y)
    assert not hasattr(learner, "n_steps_")


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_row_stops_before_it_naming_it(bad):
    X, y = _stream(6)
    learner = olc.make("kernel-pa").fit(X[:10], y[:10])
    before = (learner._vecs.copy(), learner._scal.copy())
    X2 = X[10:20].copy()
    X2[3, 2] = bad
    with pytest.raises(StreamStoppedError, match=r"row 3") as info:
        learner.partial_fit(X2, y[10:20])
    assert info.value.rows_learned == 3
    reference = olc.make("kernel-pa").fit(X[:13], y[:13])
    np.testing.assert_array_equal(learner.dual_coef_, reference.dual_coef_)
    with pytest.raises(InputError, match="non-finite"):
        learner.decision_function(X2)
    assert before[0].shape[0] == learner._vecs.shape[0]


@pytest.mark.parametrize("name", KERNEL_LEARNERS)
def test_save_load_round_trip_continues_identically(name, tmp_path):
    X, y = _stream(7, n=150)
    learner = olc.make(name, gamma=0.4, budget=None if name not in BUDGETED else 12)
    learner.fit(X[:90], y[:90])
    path = tmp_path / "model.npz"
    olc.save(learner, path)
    loaded = olc.load(path)
    np.testing.assert_array_equal(loaded.dual_coef_, learner.dual_coef_)
    np.testing.assert_array_equal(loaded.support_, learner.support_)
    a = learner.predict_then_learn(X[90:], y[90:]).score
    b = loaded.predict_then_learn(X[90:], y[90:]).score
    np.testing.assert_array_equal(a, b)


def _tampered(tmp_path, change):
    from olc._compiled.layouts.kernel import KernelScal as KS

    X, y = _stream(8)
    learner = olc.make("forgetron", budget=10).fit(X, y)
    change(learner, KS)
    path = tmp_path / "bad.npz"
    olc.save(learner, path)
    return path


@pytest.mark.parametrize("change, field", [
    (lambda m, KS: m._scal.__setitem__(KS.N_STORED, 11.0), "n_stored"),
    (lambda m, KS: m.set_params(budget=5), "budget"),
    (lambda m, KS: m._vecs.__setitem__((0, 0), m._vecs[0, 0] + 1.0), "sqnorm"),
    (lambda m, KS: m._scal.__setitem__(KS.SCALE, 0.0), "scale"),
])
def test_a_file_whose_pool_disagrees_is_refused_naming_the_field(tmp_path, change, field):
    path = _tampered(tmp_path, change)
    with pytest.raises(ValueError, match=field):
        olc.load(path)


def test_one_vs_rest_each_class_is_its_binary_learner():
    """Class c's pool is the binary learner's on y == c (the stacked pools grow together)."""
    rng = np.random.default_rng(9)
    X = rng.standard_normal((150, 4))
    y = np.argmax(X[:, :3] + 0.3 * rng.standard_normal((150, 3)), axis=1)
    ovr = olc.make("kernel-pa", gamma=0.5).fit(X, y)
    scores = ovr.decision_function(X)
    for c in range(3):
        binary = olc.make("kernel-pa", gamma=0.5).fit(X, (y == c).astype(int))
        np.testing.assert_allclose(scores[:, c], binary.decision_function(X), rtol=1e-12)
        np.testing.assert_array_equal(ovr.support_[c], binary.support_)
