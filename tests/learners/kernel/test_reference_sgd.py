"""Tests OF the NumPy references of NORMA, the Projectrons, FOGD and NOGD
(``reference_sgd.py``): primal forms, reductions, scikit-learn's RBFSampler, hand-worked steps."""
import math

import numpy as np
import pytest
from sklearn.kernel_approximation import RBFSampler

from ._reference_streams import stream
from .reference import kernel_matrix, run


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
