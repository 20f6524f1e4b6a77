"""Tests OF the NumPy references (``reference*.py``): against closed forms, primal linear
algorithms written directly from the papers, special cases that reduce one algorithm to another,
and small streams worked by hand (in the comments)."""
import math

import numpy as np
import pytest
from sklearn.metrics.pairwise import pairwise_kernels

from .reference import _mix64, algorithm_names, kernel_matrix, run, uniform
from .reference_perceptron import forgetron_phi, psi
from ._reference_streams import stream

BUDGETED = {"stoptron", "randomized-budget-perceptron", "forgetron", "budget-pa", "nogd"}


# -- kernels and randomness ----------------------------------------------------------------

@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
@pytest.mark.parametrize("gamma", [None, 0.3])
def test_kernel_matrix_is_scikit_learns(kernel, gamma):
    A, _ = stream(7, 4, 1)
    B, _ = stream(5, 4, 2)
    params = {} if kernel == "linear" else {"gamma": gamma}
    if kernel == "poly":
        params.update(degree=3, coef0=1.0)
    expected = pairwise_kernels(A, B, metric=kernel, **params)
    got = kernel_matrix(A, B, kernel=kernel, gamma=gamma, degree=3, coef0=1.0)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_splitmix64_known_outputs():
    # SplitMix64 from state 0 (Steele, Lea & Flood 2014): mix64(φ), mix64(2φ), mix64(3φ).
    phi = 0x9E3779B97F4A7C15
    mask = (1 << 64) - 1
    assert _mix64(phi) == 0xE220A8397B1DCDAF
    assert _mix64((2 * phi) & mask) == 0x6E789E6AA1B965F4
    assert _mix64((3 * phi) & mask) == 0x06C45D188009454F


def test_uniform_is_olcs_documented_generator():
    # The convention shared with the compiled learners (olc's own NumPy version of the formula).
    from olc._compiled.kernels.random import uniform_array
    for seed, stream_ in [(0, 0), (7, 3), (2**40 + 5, 99)]:
        expected = uniform_array(seed, stream_, np.arange(50))
        got = np.array([uniform(seed, stream_, c) for c in range(50)])
        np.testing.assert_array_equal(got, expected)
    # by hand: key = mix64(0 + φ) = 0xE220A8397B1DCDAF, u64 = mix64(key + φ)
    key = 0xE220A8397B1DCDAF
    u = _mix64((key + 0x9E3779B97F4A7C15) & ((1 << 64) - 1))
    assert uniform(0, 0, 0) == (u >> 11) * 2.0 ** -53


# -- perceptron family ----------------------------------------------------------------------

def primal_perceptron(X, y, fit_intercept):
    w, b, scores = np.zeros(X.shape[1]), 0.0, []
    for x, t in zip(X, y):
        s = w @ x + b
        scores.append(s)
        if t * s <= 0:
            w, b = w + t * x, b + (t if fit_intercept else 0.0)
    return np.array(scores), w, b


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_linear_kernel_perceptron_is_the_primal_perceptron(fit_intercept):
    X, y = stream(60, 4, 3, "linear")
    tr = run("kernel-perceptron", X, y, kernel="linear", fit_intercept=fit_intercept)
    scores, w, b = primal_perceptron(X, y, fit_intercept)
    np.testing.assert_allclose(tr.scores, scores, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(tr.alphas @ X[tr.support], w, atol=1e-10)
    if fit_intercept:
        assert tr.alphas.sum() == pytest.approx(b)
    assert tr.support == [t for t in range(60) if tr.updated[t]]
    np.testing.assert_array_equal(tr.alphas, y[tr.support])


def test_kernel_perceptron_three_points_by_hand():
    # RBF γ = 1 on x0 = 0, x1 = 1, x2 = 2 (1-D), y = (+1, −1, +1):
    # t0: f = 0 → mistake (sign(0) = +1 but y·f ≤ 0 counts), store α0 = +1.
    # t1: f = e^{−1} > 0, y = −1 → mistake, store α1 = −1.
    # t2: f = e^{−4} − e^{−1} < 0, y = +1 → mistake, store α2 = +1.
    X = np.array([[0.0], [1.0], [2.0]])
    tr = run("kernel-perceptron", X, np.array([1.0, -1.0, 1.0]), gamma=1.0)
    np.testing.assert_allclose(tr.scores, [0.0, math.exp(-1), math.exp(-4) - math.exp(-1)])
    assert tr.support == [0, 1, 2] and list(tr.alphas) == [1.0, -1.0, 1.0]
    np.testing.assert_array_equal(tr.n_support, [1, 2, 3])


@pytest.mark.parametrize("name", ["stoptron", "randomized-budget-perceptron", "forgetron"])
def test_budget_at_least_n_is_the_kernel_perceptron(name):
    X, y = stream(50, 3, 4)
    ref = run("kernel-perceptron", X, y, gamma=0.7)
    tr = run(name, X, y, gamma=0.7, budget=50)
    np.testing.assert_array_equal(tr.scores, ref.scores)
    assert tr.support == ref.support
    np.testing.assert_array_equal(tr.alphas, ref.alphas)


def test_stoptron_freezes_once_full():
    X, y = stream(60, 3, 5)
    ref = run("kernel-perceptron", X, y, gamma=0.7)
    tr = run("stoptron", X, y, gamma=0.7, budget=6)
    assert tr.support == ref.support[:6]
    full = ref.support[5]  # the step that filled the pool
    np.testing.assert_array_equal(tr.scores[:full + 1], ref.scores[:full + 1])
    assert not tr.updated[full + 1:].any()


def test_randomized_budget_perceptron_removes_floor_u_b():
    X, y = stream(60, 3, 6)
    B = 4
    tr = run("randomized-budget-perceptron", X, y, gamma=0.7, budget=B, seed=11)
    pool = []  # replay the pool from the trace's updates and the draws, by hand
    for t in range(60):
        if tr.updated[t]:
            if len(pool) == B:
                del pool[int(uniform(11, 0, t) * B)]
            pool.append(t)
        assert len(pool) == tr.n_support[t]
    assert tr.support == pool
    assert [r for _, r in tr.extra["removed"]] and all(a in (-1, 1) for a in tr.alphas)
    assert tr.updated.sum() == (y * tr.scores <= 0).sum()  # updates exactly on mistakes


# -- Forgetron ------------------------------------------------------------------------------

def test_forgetron_two_steps_by_hand():
    # linear kernel, 1-D, B = 1: x = 1 three times, y = (+1, −1, +1).
    # t0: f = 0, mistake (M = 1), pool {0}, α = [1]; |pool| ≤ B.
    # t1: f = 1, y = −1, mistake (M = 2); f' = k(x0,·) − k(x1,·); r = 0, σ = 1,
    #     μ = y_0 f'(x_0) = 1 − 1 = 0; Q + Ψ(φ, 0) = φ² + 2φ ≤ 15·2/32 → φ = √(1 + 15/16) − 1;
    #     Q = 15/16; pool {1}, α = [−φ].
    # t2: f = −φ.
    X = np.ones((3, 1))
    tr = run("forgetron", X, np.array([1.0, -1.0, 1.0]), kernel="linear", budget=1)
    phi = math.sqrt(1 + 15 / 16) - 1
    np.testing.assert_allclose(tr.scores, [0.0, 1.0, -phi])
    assert tr.extra["phi"][1] == pytest.approx(phi)
    assert tr.extra["Q"][1] == pytest.approx(15 / 16)


@pytest.mark.parametrize("seed", range(4))
def test_forgetron_phi_is_the_largest_feasible_and_keeps_q_bounded(seed):
    X, y = stream(120, 3, seed)
    tr = run("forgetron", X, y, gamma=1.0, budget=5)
    Q, M, phi = tr.extra["Q"], tr.extra["M"], tr.extra["phi"]
    assert np.all((phi > 0) & (phi <= 1))
    assert np.all(Q <= 15 * M / 32 + 1e-9)  # the self-tuned invariant Q_t ≤ 15 M_t/32
    assert (phi < 1).any()
    # brute force: on a grid, no feasible φ is larger than the returned one
    rng = np.random.default_rng(seed)
    for _ in range(200):
        sigma, mu = rng.uniform(0.01, 2), rng.uniform(-3, 3)
        M_ = int(rng.integers(1, 30))
        Q_ = rng.uniform(0, 15 * (M_ - 1) / 32)
        p = forgetron_phi(sigma, mu, Q_, M_)
        grid = np.linspace(1e-6, 1, 20001)
        feasible = grid[Q_ + psi(sigma * grid, mu * grid) <= 15 * M_ / 32]
        assert 0 < p <= 1
        assert Q_ + psi(sigma * p, mu * p) <= 15 * M_ / 32 + 1e-9
        assert p >= feasible.max() - 1e-4


def test_forgetron_pool_never_exceeds_budget_and_shrinks_all_coefficients():
    X, y = stream(80, 3, 9)
    tr = run("forgetron", X, y, gamma=1.0, budget=4)
    assert tr.n_support.max() == 4
    # every coefficient is y_i times the product of the φ_s, s ≥ i (φ_i shrinks the new row too)
    phi = tr.extra["phi"]
    for i, a in zip(tr.support, tr.alphas):
        assert a == pytest.approx(y[i] * np.prod(phi[i:]))


# -- kernel OBPM ------------------------------------------------------------------------------

def primal_obpm(X, y, N, tau, seed, fit_intercept):
    """Harrington et al. Algorithm 2, linear, perceptron members, olc's draws."""
    W, b, scores = np.zeros((N, X.shape[1])), np.zeros(N), []
    for t, (x, label) in enumerate(zip(X, y)):
        total, tb = W.sum(axis=0), b.sum()
        scores.append((total @ x + tb) / max(N, math.sqrt(total @ total + tb * tb)))
        for j in range(N):
            if uniform(seed, j, t) < tau and label * (W[j] @ x + b[j]) <= 0:
                W[j] += label * x
                b[j] += label if fit_intercept else 0.0
    return np.array(scores)


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_linear_kernel_obpm_is_the_primal_obpm(fit_intercept):
    X, y = stream(50, 3, 18, "linear")
    tr = run("kernel-obpm", X, y, kernel="linear", N=7, tau=0.4, seed=3,
             fit_intercept=fit_intercept)
    np.testing.assert_allclose(tr.scores, primal_obpm(X, y, 7, 0.4, 3, fit_intercept),
                               rtol=1e-9, atol=1e-12)


def test_obpm_one_member_always_learning_is_the_normalized_perceptron():
    X, y = stream(40, 3, 19)
    ref = run("kernel-perceptron", X, y, gamma=0.5)
    tr = run("kernel-obpm", X, y, gamma=0.5, N=1, tau=1.0)
    assert tr.support == ref.support
    for t in range(40):  # score = f/max(1, ‖f‖) with f the perceptron's before step t
        rows = [i for i in ref.support if i < t]
        a = y[rows]
        G = kernel_matrix(X[rows], X[rows], kernel="rbf", gamma=0.5, degree=3, coef0=1)
        norm = math.sqrt(a @ G @ a) if rows else 0.0
        assert tr.scores[t] == pytest.approx(ref.scores[t] / max(1.0, norm), abs=1e-12)


def test_obpm_budget_removes_the_oldest_from_every_member():
    X, y = stream(60, 3, 20)
    tr = run("kernel-obpm", X, y, gamma=0.5, N=5, tau=0.5, budget=6)
    assert tr.n_support.max() == 6
    stored = [t for t in range(60) if tr.updated[t]]
    assert tr.support == stored[-6:]
    assert tr.extra["member_alphas"].shape == (5, 6)


# -- every algorithm: the final (support, alphas) is the model that predicts next ------------

@pytest.mark.parametrize("name", [n for n in algorithm_names() if n != "fogd"])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("kernel", ["rbf", "poly", "linear"])
def test_final_model_predicts_the_next_score(name, fit_intercept, kernel):
    X, y = stream(35, 3, 23)
    kw = dict(kernel=kernel, gamma=0.8, degree=2, coef0=0.5, fit_intercept=fit_intercept,
              seed=5)
    if name in BUDGETED or name in ("kernel-regularized-pa", "kernel-l2-constrained-pa",
                                    "kernel-norma", "kernel-obpm"):
        kw["budget"] = 6
    if name == "kernel-obpm":
        kw.update(N=4, tau=0.5)
    if name == "kernel-l2-constrained-pa":
        kw.update(beta=2.0, update="hinge")
    if name == "kernel-regularized-pa":
        kw.update(alpha=0.1, update="hinge")
    head = run(name, X[:-1], y[:-1], **kw)
    whole = run(name, X, y, **kw)
    np.testing.assert_array_equal(whole.scores[:-1], head.scores)
    Kx = kernel_matrix(X[head.support], X[-1:], kernel=kernel, gamma=0.8, degree=2,
                       coef0=0.5)[:, 0] + (1.0 if fit_intercept else 0.0)
    assert head.alphas @ Kx == pytest.approx(whole.scores[-1], rel=1e-9, abs=1e-9)
    assert len(head.support) == head.n_support[-1] == len(head.alphas)


def test_bad_names_and_budgets_are_refused():
    X, y = stream(5, 2, 0)
    with pytest.raises(ValueError, match="unknown algorithm"):
        run("nope", X, y)
    with pytest.raises(ValueError, match="budget"):
        run("kernel-perceptron", X, y, budget=3)
    with pytest.raises(ValueError, match="budget"):
        run("forgetron", X, y, budget=0)
