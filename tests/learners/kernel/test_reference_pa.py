"""Tests OF the NumPy references of the PA family (``reference_pa.py``): primal PAs written
from the papers, Shen & Dietterich's lemmas, hand-worked streams."""
import math

import numpy as np
import pytest

from ._reference_streams import stream
from .reference import kernel_matrix, run


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
    assert tr.extra["removed"] == [(1, 0), (2, 1)]


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


def test_l2_constrained_pa_on_the_sphere_is_not_moved_by_rounding():
    # After a two-constraint update ‖f‖ = β up to ulps; a later example with margin ≥ 1 must
    # leave f alone (not "project" it back by a factor 1 − 1e-16 and report an update). On
    # these streams αᵀKα lands above β² by rounding at several such steps.
    for seed in (5, 12, 35):
        X, y = stream(40, 2, seed)
        tr = run("kernel-l2-constrained-pa", X, y, kernel="linear", beta=1.0, update="always")
        assert not (tr.updated & (y * tr.scores >= 1)).any()
        assert tr.updated.sum() > 5


def test_l2_constrained_pa_ball_projection_after_an_oldest_removal_by_hand():
    # 1-D linear kernel, β = 1, B = 1, update="always"; x = 1 four times, y = (+1, −1, −1, −1).
    # t0: f = 0, m = 0: PA step τ₁ = 1 gives w = 1, in the ball: α = [1].
    # t1: f = 1, m = −1: τ₁ = 2, w = 1 − 2 = −1, in the ball: α = [1, −2]; the oldest is removed:
    #     α = [−2], ‖f‖ = 2 > β.
    # t2: f = −2, m = 2 ≥ 1 but ‖f‖ > β: the ball projection f·β/‖f‖ keeps margin 1 ≥ 1:
    #     α = [−1].
    # t3: f = −1, m = 1, ‖f‖ = β: nothing to do.
    X = np.ones((4, 1))
    tr = run("kernel-l2-constrained-pa", X, np.array([1.0, -1.0, -1.0, -1.0]), kernel="linear",
             beta=1.0, update="always", budget=1)
    np.testing.assert_allclose(tr.scores, [0.0, 1.0, -2.0, -1.0])
    assert tr.updated.tolist() == [True, True, True, False]
    assert tr.support == [1] and tr.alphas.tolist() == [-1.0]
