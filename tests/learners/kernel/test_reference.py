"""Tests OF the NumPy references (``reference*.py``): against closed forms, primal linear
algorithms written directly from the papers, special cases that reduce one algorithm to another,
and small streams worked by hand (in the comments)."""
import math

import numpy as np
import pytest
from sklearn.kernel_approximation import RBFSampler
from sklearn.metrics.pairwise import pairwise_kernels

from .reference import _mix64, algorithm_names, kernel_matrix, run, uniform
from .reference_perceptron import forgetron_phi, psi

BUDGETED = {"stoptron", "randomized-budget-perceptron", "forgetron", "budget-pa", "nogd"}


def stream(n=40, d=3, seed=0, kind="xor"):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if kind == "xor":
        y = np.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0)
    else:
        y = np.where(X @ np.arange(1, d + 1) + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


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
    assert np.all(Q <= 15 * M / 32 + 1e-9)  # the self-tuned invariant (§5)
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


# -- PA family --------------------------------------------------------------------------------

def primal_pa(X, y, variant, C):
    """Crammer et al. 2006, Fig. 1: w += τ y x, τ = ℓ/‖x‖², min(C, ℓ/‖x‖²), ℓ/(‖x‖² + 1/(2C))."""
    w, scores = np.zeros(X.shape[1]), []
    for x, t in zip(X, y):
        s = w @ x
        scores.append(s)
        loss = max(0.0, 1 - t * s)
        tau = {"kernel-pa": loss / (x @ x), "kernel-pa-i": min(C, loss / (x @ x)),
               "kernel-pa-ii": loss / (x @ x + 1 / (2 * C))}[variant]
        w = w + tau * t * x
    return np.array(scores), w


@pytest.mark.parametrize("variant", ["kernel-pa", "kernel-pa-i", "kernel-pa-ii"])
def test_linear_kernel_pa_is_the_primal_pa(variant):
    X, y = stream(60, 4, 7, "linear")
    tr = run(variant, X, y, kernel="linear", C=0.3)
    scores, w = primal_pa(X, y, variant, 0.3)
    np.testing.assert_allclose(tr.scores, scores, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(tr.alphas @ X[tr.support], w, atol=1e-9)
    np.testing.assert_array_equal(tr.updated, y * tr.scores < 1)


def primal_regularized(X, y, alpha, update):
    w, scores = np.zeros(X.shape[1]), []
    for x, t in zip(X, y):
        s = w @ x
        scores.append(s)
        m = t * s
        if {"mistake": m <= 0, "hinge": m < 1, "always": True}[update]:
            tau = max(0.0, 1 + alpha - m) / (x @ x)  # Lemma 3.1 (exact multiplier)
            w = (w + tau * t * x) / (1 + alpha)
    return np.array(scores), w


@pytest.mark.parametrize("update", ["mistake", "hinge", "always"])
def test_linear_kernel_regularized_pa_is_the_primal_rule(update):
    X, y = stream(60, 4, 8, "linear")
    tr = run("kernel-regularized-pa", X, y, kernel="linear", alpha=0.05, update=update)
    scores, w = primal_regularized(X, y, 0.05, update)
    np.testing.assert_allclose(tr.scores, scores, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(tr.alphas @ X[tr.support], w, atol=1e-9)


def test_regularized_pa_oldest_removal_by_hand():
    # linear kernel, 1-D, α = 1, update="hinge", B = 1; x = (1, 2, 1), y = (+1, −1, +1).
    # t0: f = 0, m = 0: τ = (1 + 1 − 0)/1 = 2, α = [2/2] = [1].
    # t1: f = 1·2 = 2, m = −2: τ = (2 + 2)/4 = 1; α = [1, −1]/2 = [.5, −.5]; drop oldest → [−.5].
    # t2: f = −.5·2 = −1, m = −1: τ = (2 + 1)/1 = 3; α = [−.5, 3]/2; drop oldest → [1.5].
    X = np.array([[1.0], [2.0], [1.0]])
    tr = run("kernel-regularized-pa", X, np.array([1.0, -1.0, 1.0]), kernel="linear",
             alpha=1.0, update="hinge", budget=1)
    np.testing.assert_allclose(tr.scores, [0.0, 2.0, -1.0])
    assert tr.support == [2] and tr.alphas.tolist() == [1.5]
    assert tr.extra["removed"] == [0, 1]


def primal_l2_lemma(X, y, beta):
    """Shen & Dietterich Lemma 3.2 as written: w = (w + τ y x)/Z,
    Z = max{1, √((‖w‖²‖x‖² − (w·x)²)/(β²‖x‖² − 1))}, τ = (ℓ + Z − 1)/‖x‖², on mistakes."""
    w, scores = np.zeros(X.shape[1]), []
    for x, t in zip(X, y):
        s = w @ x
        scores.append(s)
        if t * s <= 0:
            a = x @ x
            Z = max(1.0, math.sqrt(max(0.0, (w @ w) * a - s * s) / (beta**2 * a - 1)))
            tau = (1 - t * s + Z - 1) / a
            w = (w + tau * t * x) / Z
    return np.array(scores), w


@pytest.mark.parametrize("beta", [0.8, 2.0, 50.0])
def test_linear_kernel_l2_constrained_pa_is_lemma_3_2(beta):
    X, y = stream(60, 4, 10, "linear")
    X = X / np.linalg.norm(X, axis=1, keepdims=True) * 1.5  # β²‖x‖² > 1 for every β tested
    tr = run("kernel-l2-constrained-pa", X, y, kernel="linear", beta=beta)
    scores, w = primal_l2_lemma(X, y, beta)
    np.testing.assert_allclose(tr.scores, scores, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(tr.alphas @ X[tr.support], w, atol=1e-9)
    assert np.linalg.norm(w) <= beta * (1 + 1e-12)


def test_l2_constrained_pa_rbf_stays_in_the_ball_and_meets_the_margin():
    X, y = stream(50, 3, 11)
    beta = 1.5
    for n in range(1, 25):
        tr = run("kernel-l2-constrained-pa", X[:n], y[:n], gamma=1.0, beta=beta)
        G = kernel_matrix(X[tr.support], X[tr.support], kernel="rbf", gamma=1.0, degree=3,
                          coef0=1)
        assert tr.alphas @ G @ tr.alphas <= beta**2 * (1 + 1e-9)
        if tr.updated[n - 1]:  # the last example now has margin ≥ 1 (= 1 when active)
            f = tr.alphas @ kernel_matrix(X[tr.support], X[n - 1:n], kernel="rbf", gamma=1.0,
                                          degree=3, coef0=1)[:, 0]
            assert y[n - 1] * f >= 1 - 1e-9


def test_budget_pa_without_pressure_is_pa_i():
    X, y = stream(40, 3, 12)
    ref = run("kernel-pa-i", X, y, gamma=0.5, C=0.7)
    tr = run("budget-pa", X, y, gamma=0.5, C=0.7, budget=40)
    np.testing.assert_array_equal(tr.scores, ref.scores)
    np.testing.assert_array_equal(tr.alphas, ref.alphas)


def test_budget_pa_by_hand():
    # 1-D linear kernel, C = 1, B = 1; x = (1, 2, 1), y = (+1, −1, +1).
    # t0: f = 0, ℓ = 1, τ = 1: pool {0}, α = [1].
    # t1: f = 2, ℓ = 3, k = 4, τ = min(1, 3/4) = .75; full: r = 0, β = 1·2/4 − .75 = −.25.
    # t2: f = −.25·2 = −.5, ℓ = 1.5, τ = 1; r = row 1, β = −.25·2/1 + 1 = .5.
    X = np.array([[1.0], [2.0], [1.0]])
    tr = run("budget-pa", X, np.array([1.0, -1.0, 1.0]), kernel="linear", budget=1, C=1.0)
    np.testing.assert_allclose(tr.scores, [0.0, 2.0, -0.5])
    assert tr.support == [2] and tr.alphas.tolist() == [0.5]


def test_budget_pa_removes_the_least_damaging_not_the_oldest():
    # pool {e2 (row 0), e1 (row 1)}, then x = e1 with y = −1 (f = 1, ℓ = 2, τ = 1).
    # Removing e2 (row 0): β = 0 + τy = −1, Δ = −e2 − e1, ‖Δ‖² = 2.
    # Removing e1 (row 1): β = 1·1/1 + τy = 0, Δ = −e1 + 0·e1, ‖Δ‖² = 1.
    # ξ = 0 either way, so row 1 goes, though row 0 is older; x_t is stored with β = 0.
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0]])
    tr = run("budget-pa", X, np.array([1.0, 1.0, -1.0]), kernel="linear", budget=2, C=1.0)
    assert tr.extra["removed"] == [(2, 1)]
    assert tr.support == [0, 2] and tr.alphas.tolist() == [1.0, 0.0]


# -- NORMA --------------------------------------------------------------------------------------

def primal_norma(X, y, eta, lam, rho, schedule):
    w, scores = np.zeros(X.shape[1]), []
    for t, (x, label) in enumerate(zip(X, y)):
        s = w @ x
        scores.append(s)
        e = eta if schedule == "constant" else eta / math.sqrt(t + 1)
        sigma = 1.0 if label * s < rho else 0.0
        w = (1 - e * lam) * w + e * sigma * label * x
    return np.array(scores), w


@pytest.mark.parametrize("schedule", ["constant", "sqrt"])
@pytest.mark.parametrize("lam", [0.0, 0.2])
def test_linear_kernel_norma_is_the_primal_rule(schedule, lam):
    X, y = stream(60, 4, 13, "linear")
    tr = run("kernel-norma", X, y, kernel="linear", eta=0.5, lam=lam, rho=1.0,
             schedule=schedule)
    scores, w = primal_norma(X, y, 0.5, lam, 1.0, schedule)
    np.testing.assert_allclose(tr.scores, scores, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(tr.alphas @ X[tr.support], w, atol=1e-9)


def test_norma_truncation_keeps_the_last_tau_steps():
    X, y = stream(50, 3, 14)
    full = run("kernel-norma", X, y, gamma=1.0, eta=0.5, lam=0.1, rho=1.0, tau=50)
    ref = run("kernel-norma", X, y, gamma=1.0, eta=0.5, lam=0.1, rho=1.0)
    np.testing.assert_array_equal(full.scores, ref.scores)
    tr = run("kernel-norma", X, y, gamma=1.0, eta=0.5, lam=0.1, rho=1.0, tau=5)
    assert all(49 - i < 5 for i in tr.support)
    # f_t(x_t) uses only examples t−5 … t−1: recompute it for t = 30 from a fresh start at 25
    # with the coefficients' shrinks (1 − ηλ)^(age) applied by hand.
    t = 30
    expected = 0.0
    for i in range(25, 30):
        if y[i] * tr.scores[i] < 1.0:  # stored at step i, shrunk at steps i+1 … t−1
            expected += 0.5 * y[i] * 0.95 ** (t - 1 - i) * math.exp(-np.sum((X[i] - X[t]) ** 2))
    assert tr.scores[t] == pytest.approx(expected, abs=1e-12)


def test_norma_with_rho_zero_never_learns_from_zero():
    X, y = stream(20, 3, 15)
    tr = run("kernel-norma", X, y, eta=1.0, lam=0.0, rho=0.0)
    assert not tr.updated.any() and tr.support == []


# -- Projectron -------------------------------------------------------------------------------

@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_projectron_eta_zero_is_the_kernel_perceptron(kernel):
    # η = 0: a row is projected only when it lies in the span of the pool, and then the
    # projection IS k(x_t, ·): f evolves exactly as the kernel perceptron's (the pool may be
    # smaller: with the linear kernel in 3-D, at most 3 rows). In floating point a row in the
    # span has δ ~ 1e-8 (rounding), so the linear case uses η = 1e-6 ("0" up to rounding).
    X, y = stream(60, 3, 16, "linear" if kernel == "linear" else "xor")
    ref = run("kernel-perceptron", X, y, kernel=kernel, gamma=0.5)
    eta = 1e-6 if kernel == "linear" else 0.0
    tr = run("projectron", X, y, kernel=kernel, gamma=0.5, eta=eta)
    np.testing.assert_allclose(tr.scores, ref.scores, rtol=1e-7, atol=1e-7)
    if kernel == "linear":
        assert len(tr.support) <= 3 < len(ref.support)


def test_projectron_plus_plus_in_an_orthonormal_span_by_hand():
    # Linear kernel in 2-D, the pool {e1, e2} (stored on the first two mistakes, δ = 1 > η):
    # then every x has d* = x and δ = 0 exactly, so Projectron++ is the primal perceptron step
    # on mistakes and w += min(ℓ/‖x‖², 2ℓ/‖x‖², 1) y x on margin errors 0 < y w·x < 1.
    rng = np.random.default_rng(17)
    X = np.vstack([[1.0, 0.0], [0.0, 1.0], rng.integers(-6, 7, size=(60, 2)) / 4.0])
    X = X[np.any(X != 0, axis=1)]
    y = np.where(X @ [1.0, -2.0] + 0.5 > 0, 1.0, -1.0)
    y[:2] = 1.0
    tr = run("projectron++", X, y, kernel="linear", eta=0.5)
    w, scores = np.zeros(2), []
    for x, t in zip(X, y):
        s = w @ x
        scores.append(s)
        if t * s <= 0:
            w = w + t * x
        elif t * s < 1:
            loss = 1 - t * s
            w = w + min(loss / (x @ x), 2 * loss / (x @ x), 1.0) * t * x
    np.testing.assert_allclose(tr.scores, scores, atol=1e-12)
    assert tr.support == [0, 1]
    assert (tr.updated & (y * tr.scores > 0)).any()  # margin updates happened


def test_projectron_threshold_on_delta():
    # RBF γ = 1, x0 = 0, x1 = 0.1 (1-D), y = (+1, −1): at t1 f = e^{−.01} > 0, mistake;
    # δ² = 1 − e^{−.02} ≈ .0198, δ ≈ .1407. η = .2 ≥ δ: project (α0 += −e^{−.01}); η = .1: store.
    X = np.array([[0.0], [0.1]])
    y = np.array([1.0, -1.0])
    proj = run("projectron", X, y, gamma=1.0, eta=0.2)
    assert proj.support == [0] and proj.alphas[0] == pytest.approx(1 - math.exp(-0.01))
    assert proj.extra["delta"][1] == pytest.approx(math.sqrt(1 - math.exp(-0.02)))
    add = run("projectron", X, y, gamma=1.0, eta=0.1)
    assert add.support == [0, 1]


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


# -- feature maps -----------------------------------------------------------------------------

def test_fogd_features_are_rbf_samplers_and_ogd_is_primal():
    X, y = stream(50, 4, 21)
    sampler = RBFSampler(gamma=0.5, n_components=64, random_state=0).fit(X)
    tr = run("fogd", X, y, eta=0.3, omega=sampler.random_weights_,
             offset=sampler.random_offset_)
    Z = sampler.transform(X)
    np.testing.assert_allclose(tr.extra["Z"], Z, rtol=1e-12, atol=1e-12)
    w, scores = np.zeros(64), []
    for z, t in zip(Z, y):
        scores.append(w @ z)
        if t * (w @ z) < 1:
            w = w + 0.3 * t * z
    np.testing.assert_allclose(tr.scores, scores, atol=1e-12)
    big = RBFSampler(gamma=0.5, n_components=20000, random_state=1).fit(X[:5])
    Zb = big.transform(X[:5])
    K = kernel_matrix(X[:5], X[:5], kernel="rbf", gamma=0.5, degree=3, coef0=1)
    np.testing.assert_allclose(Zb @ Zb.T, K, atol=0.05)  # E[z·z'] = k (Rahimi & Recht)


def test_nogd_full_rank_is_kernel_ogd_projected_on_the_landmarks():
    # Stage 1 stores the first B rows with hinge loss > 0 (α = ηy). Then, at rank = B,
    # w·z(x) = aᵀk_B(x) and the step w += ηy z(x_t) is a += ηy K_B⁻¹ k_B(x_t).
    X, y = stream(40, 3, 22)
    B, eta = 8, 0.5
    tr = run("nogd", X, y, gamma=0.5, eta=eta, budget=B)
    K = kernel_matrix(X, X, kernel="rbf", gamma=0.5, degree=3, coef0=1)
    rows, a, scores = [], np.zeros(0), []
    for t in range(40):
        s = a @ K[rows, t]
        scores.append(s)
        if y[t] * s < 1:
            if len(rows) < B:
                rows.append(t)
                a = np.append(a, eta * y[t])
            else:
                a = a + eta * y[t] * np.linalg.solve(K[np.ix_(rows, rows)], K[rows, t])
    np.testing.assert_allclose(tr.scores, scores, rtol=1e-7, atol=1e-7)
    assert tr.support == rows and tr.extra["map_step"] == rows[-1]
    np.testing.assert_allclose(tr.alphas, a, rtol=1e-6, atol=1e-6)


def test_nogd_low_rank_scores_are_the_nystrom_approximation():
    # rank k < B: after the map, w·z(x) = k_B(x)ᵀ V_k Λ_k⁻¹ V_kᵀ ... checked at the first step
    # after the map is built: score = aᵀ V_k V_kᵀ k_B(x) with a the stage-1 coefficients.
    X, y = stream(40, 3, 24)
    B = 8
    tr = run("nogd", X, y, gamma=0.5, eta=0.5, budget=B, rank=3)
    t0 = tr.extra["map_step"]
    rows = tr.support
    K = kernel_matrix(X, X, kernel="rbf", gamma=0.5, degree=3, coef0=1)
    lam, V = np.linalg.eigh(K[np.ix_(rows, rows)])
    Vk = V[:, np.argsort(lam)[::-1][:3]]
    a = 0.5 * y[rows]
    assert tr.scores[t0 + 1] == pytest.approx(a @ Vk @ Vk.T @ K[rows, t0 + 1], abs=1e-10)
    assert tr.extra["w"].shape == (3,)


# -- every algorithm: the final (support, alphas) is the model that predicts next ------------

@pytest.mark.parametrize("name", [n for n in algorithm_names() if n != "fogd"])
@pytest.mark.parametrize("fit_intercept", [False, True])
def test_final_model_predicts_the_next_score(name, fit_intercept):
    X, y = stream(35, 3, 23)
    kw = dict(gamma=0.8, fit_intercept=fit_intercept, seed=5)
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
    Kx = kernel_matrix(X[head.support], X[-1:], kernel="rbf", gamma=0.8, degree=3,
                       coef0=1)[:, 0] + (1.0 if fit_intercept else 0.0)
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


def test_projectron_plus_plus_margin_step_by_hand():
    # Linear kernel, 2-D. t0: x = e1, f = 0 (mistake), empty pool: δ = 1 > η, store α = [1].
    # t1: x = (.5, .2), y = +1: f = .5, margin error, ℓ = .5; d* = .5, ‖Pk‖² = .25,
    #     δ² = .29 − .25 = .04, δ = .2.
    #     η = .5: ℓ − δ/η = .1 > 0, τ = min(.5/.25, 2·.1/.25, 1) = .8 → α = [1 + .8·.5] = [1.4].
    #     η = .4: ℓ − δ/η = 0, not > 0: no update, α = [1].
    # t2: x = e1 again: the score is α.
    X = np.array([[1.0, 0.0], [0.5, 0.2], [1.0, 0.0]])
    y = np.ones(3)
    tr = run("projectron++", X, y, kernel="linear", eta=0.5)
    np.testing.assert_allclose(tr.scores, [0.0, 0.5, 1.4], atol=1e-12)
    assert tr.support == [0] and tr.updated.tolist() == [True, True, False]
    tr = run("projectron++", X, y, kernel="linear", eta=0.4)
    np.testing.assert_allclose(tr.scores, [0.0, 0.5, 1.0], atol=1e-12)
    assert tr.updated.tolist() == [True, False, False]
