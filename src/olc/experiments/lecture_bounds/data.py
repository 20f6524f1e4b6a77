"""Sequences whose bound-relevant quantities are known by construction (Kitani's lecture
notes on online linear classification: Theorem 1, Eq. 42, Eqs. 1–2).

Every generator draws from ``numpy.random.default_rng(seed)`` and returns plain arrays plus
what the bound needs (the separator, the relevant features, the best expert); the measured
quantities (R, γ, m) are recomputed from the arrays by the runs, never taken on trust.
"""
from __future__ import annotations

import math

import numpy as np

from ...data.synthetic import separable


def margin_sequence(n, d, gamma, seed, radius=1.0):
    """n points in the ball of radius ``radius`` in R^d, labelled by a unit w* through the
    origin with y·w*·x ≥ γ for every point (``olc.data.separable`` with ``bias=0``: points
    uniform in the ball of radius R − γ, pushed γ away from the hyperplane). Returns
    (X, y, w*)."""
    X, y, truth = separable(n, d, margin=gamma, bias=0.0, radius=radius, seed=seed,
                            return_truth=True)
    return X, y, truth.w


def disjunction_density(k):
    """The density p of each input bit that makes a k-literal disjunction true half the
    time: P(no relevant bit) = (1 − p)^k = 1/2."""
    return 1.0 - 0.5 ** (1.0 / k)


def disjunction_sequence(n, N, k, seed):
    """x ∈ {0,1}^N with independent bits of density :func:`disjunction_density` (k), the
    target y = x_{i₁} ∨ … ∨ x_{i_k} over k relevant features drawn at random (a monotone
    k-literal disjunction, the target of the notes' §4). Returns (X, y ∈ {0, 1}, relevant)."""
    if not 1 <= k <= N:
        raise ValueError(f"need 1 ≤ k ≤ N, got k={k}, N={N}")
    rng = np.random.default_rng(seed)
    relevant = np.sort(rng.choice(N, size=k, replace=False))
    X = (rng.random((n, N)) < disjunction_density(k)).astype(np.float64)
    y = X[:, relevant].max(axis=1)
    return X, y, relevant


def expert_sequence(T, N, m, seed, herd_error=0.45, herd_flip=0.1):
    """T rounds of N expert predictions in {−1, +1} and labels y ∈ {−1, +1} (uniform).

    One expert (a random column) is wrong on exactly m rounds chosen at random; the other
    N − 1 form a *herd*: they copy a shared predictor that is wrong with probability
    ``herd_error`` each round, each flipping the shared prediction with probability
    ``herd_flip`` — so the weighted vote is dragged the herd's way until the herd's weights
    have decayed (independent experts would be outvoted at once and leave WM nothing to
    learn). Returns (X, y, best column); the best expert's m is recomputed by the runs as
    the least mistake count over all experts (a herd member may tie it)."""
    if not 0 <= m <= T:
        raise ValueError(f"need 0 ≤ m ≤ T, got m={m}, T={T}")
    rng = np.random.default_rng(seed)
    y = rng.choice(np.array([-1.0, 1.0]), size=T)
    wrong = np.empty((T, N), dtype=bool)
    best = int(rng.integers(N))
    others = np.delete(np.arange(N), best)
    shared = rng.random(T) < herd_error
    wrong[:, others] = shared[:, None] ^ (rng.random((T, N - 1)) < herd_flip)
    wrong[:, best] = False
    wrong[rng.choice(T, size=m, replace=False), best] = True
    X = np.where(wrong, -y[:, None], y[:, None])
    return X, y, best


def orthonormal_adversary(d):
    """The sequence on which the Perceptron meets Theorem 1's bound exactly: x_t = e_t
    (t = 1..d), all labelled −1. R = 1; the unit w* = −(1, …, 1)/√d gives γ = 1/√d (the
    largest margin: any unit w has min_t −w_t ≤ 1/√d), so (R/γ)² = d. Each x_t is
    orthogonal to w_t = −(e_1 + … + e_{t−1}), the score is 0, and sign(0) = +1 ≠ −1: d
    mistakes, one per example. [Decision] All labels −1 because olc predicts sign(0) = +1
    (a +1 label on a zero score would be right and not count)."""
    d = int(d)
    return np.eye(d), -np.ones(d), -np.ones(d) / math.sqrt(d)
