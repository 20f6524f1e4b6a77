"""olc.features.selection: information gain by hand, the game LP against closed forms and an
independent (enumerated) formulation."""
import itertools
import math

import numpy as np
import pytest
from scipy.optimize import linprog

from olc.features.selection import (
    SeenCounts,
    game_lp,
    game_selection,
    information_gain,
    pair_information_gain,
)

# rows: x1 = y-indicator, x2 = independent of y, x3 = noisy
X = np.array([[1, 1, 1], [1, 0, 1], [0, 1, 1], [0, 0, 0]], dtype=float)
Y = np.array([1, 1, -1, -1])


def _counts():
    c = SeenCounts(3)
    c.add(X[:2], Y[:2])
    c.add(X[2:], Y[2:])  # two calls: counts add up
    return c


def test_information_gain_by_hand():
    c = _counts()
    h23 = -(2 / 3) * math.log2(2 / 3) - (1 / 3) * math.log2(1 / 3)  # 0.9183 bits
    np.testing.assert_allclose(c.information_gain(), [1.0, 0.0, 1.0 - 0.75 * h23], atol=1e-12)
    assert information_gain(0, 0, [0, 0], [0, 0]).tolist() == [0.0, 0.0]


def test_pair_information_gain_by_hand():
    c = _counts()
    both, both_pos = c.pair_counts(np.arange(3))
    np.testing.assert_array_equal(both, X.T @ X)
    M = pair_information_gain(c.n, c.n_pos, c.ones, c.ones_pos, both, both_pos)
    np.testing.assert_allclose(np.diag(M), c.information_gain(), atol=1e-12)
    assert M[0, 1] == pytest.approx(1.0)  # x1 alone decides y
    # (x2, x3): cells (1,1) = rows 0, 2 (one +, one −), (0,1) = row 1 (+), (0,0) = row 3 (−)
    assert M[1, 2] == pytest.approx(1.0 - 0.5 * 1.0)
    np.testing.assert_allclose(M, M.T)


@pytest.mark.parametrize("m, k", [(4, 1), (5, 2), (6, 3)])
def test_game_lp_identity_closed_form(m, k):
    # M = I: min over v is the sum of the k smallest u_i; with Σu = k the best is u = k/m,
    # value k·(k/m) = k²/m.
    u, value = game_lp(np.eye(m), k)
    assert value == pytest.approx(k * k / m, abs=1e-9)
    np.testing.assert_allclose(u, k / m, atol=1e-7)


def _enumerated_value(M, k):
    """Independent formulation: max z s.t. z ≤ Σ_{j∈T} (Mᵀu)_j for every k-subset T of
    columns (the vertices of the environment's polytope), 0 ≤ u ≤ 1, Σu = k."""
    m = M.shape[0]
    rows = [np.concatenate([-M[:, list(T)].sum(axis=1), [1.0]])
            for T in itertools.combinations(range(m), k)]
    res = linprog(np.concatenate([np.zeros(m), [-1.0]]), A_ub=np.array(rows),
                  b_ub=np.zeros(len(rows)), A_eq=[np.concatenate([np.ones(m), [0.0]])],
                  b_eq=[k], bounds=[(0, 1)] * m + [(None, None)], method="highs")
    return -res.fun


@pytest.mark.parametrize("seed", range(5))
def test_game_lp_value_equals_enumerated_formulation_and_bounds_the_integer_game(seed):
    rng = np.random.default_rng(seed)
    m, k = 6, 2
    M = rng.random((m, m))
    u, value = game_lp(M, k)
    assert value == pytest.approx(_enumerated_value(M, k), abs=1e-8)
    # u is feasible and attains the value
    assert u.sum() == pytest.approx(k) and np.all(u > -1e-9) and np.all(u < 1 + 1e-9)
    assert np.sort(M.T @ u)[:k].sum() == pytest.approx(value, abs=1e-8)
    # the relaxation can only do better than the integer game (brute force)
    integer = max(min(M[np.ix_(S, T)].sum() for T in itertools.combinations(range(m), k))
                  for S in itertools.combinations(range(m), k))
    assert value >= integer - 1e-9


def test_game_selection_picks_the_informative_features():
    rng = np.random.default_rng(0)
    n = 400
    y = rng.choice([-1, 1], n)
    informative = (y > 0)[:, None] ^ (rng.random((n, 2)) < 0.05)   # flips 5 %
    noise = rng.random((n, 6)) < 0.5
    Xb = np.hstack([noise[:, :3], informative, noise[:, 3:]]).astype(float)
    c = SeenCounts(Xb.shape[1])
    c.add(Xb, y)
    assert sorted(game_selection(c, 2, candidates=8).tolist()) == [3, 4]
    with pytest.raises(ValueError, match="1 ≤ k ≤ m"):
        game_lp(np.eye(3), 4)
