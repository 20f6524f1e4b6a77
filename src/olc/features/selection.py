"""Feature-selection scores for online baselines (Shen & Dietterich 2009, §4, "Feature
Selection Effect"): information gain, and the game-theoretic selection of Eq. (4.20).

Both work on binarised features b_j = [x_j > threshold] and labels y ∈ {−1, +1}, from counts
of the rows seen so far (:class:`SeenCounts`), so that an online procedure can re-select at
any time from the data it has seen.

* Information gain (Yang & Pedersen 1997, the paper's [19]):
  IG(Y; X_j) = H(Y) − Σ_{v∈{0,1}} P(b_j = v) H(Y | b_j = v), in bits.
* The game of Eq. (4.20): the learner (row player) picks k features, the environment (column
  player) picks k features; the learner's reward for features i, j is M(i, j), "proportional
  to the likelihood that y[i] = y[j]"; the paper's suggestion, used here: M(i, j) = the
  information gain of the feature pair, IG(Y; (b_i, b_j)) (so M(i, i) = IG(Y; b_i)).
  The relaxed problem max_u min_v uᵀMv over {0 ≤ u ≤ 1, Σu = k} × {0 ≤ v ≤ 1, Σv = k} is an
  LP: for fixed u the inner minimum is the sum of the k smallest entries of c = Mᵀu, whose LP
  dual is max k·z − Σ_j s_j s.t. z − s_j ≤ c_j, s ≥ 0. Hence

      max_{u, z, s}  k·z − Σ_j s_j   s.t.  z − s_j − (Mᵀu)_j ≤ 0 ∀j,  Σ_i u_i = k,
                     0 ≤ u ≤ 1,  s ≥ 0,  z free,

  solved by HiGHS (``scipy.optimize.linprog(method="highs")``); the k features with the
  largest u_i are selected, as the paper says.
  [Decision] Candidate pre-selection: M is m × m over the ``m`` features of highest single
  IG (default m = min(d, 2k)); at ~8,000 features the full 8,000 × 8,000 game is out of
  reach for a per-update selection (64 M rewards, an LP with 16,001 variables), and a
  feature of low IG earns little reward against any column. Ties in u go to the candidate
  of higher IG (lower index in the candidate order).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = ["SeenCounts", "binary_entropy", "information_gain", "pair_information_gain",
           "game_lp", "game_selection", "top_k"]


def binary_entropy(p):
    """H(p) = −p log₂ p − (1 − p) log₂(1 − p), elementwise, with 0 log 0 = 0."""
    p = np.asarray(p, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(np.where(p > 0, p * np.log2(p), 0.0) + np.where(p < 1, (1 - p) * np.log2(1 - p), 0.0))
    return np.where(np.isfinite(h), h, 0.0)


def _conditional(n_cell, pos_cell, n):
    """Σ over cells of P(cell)·H(Y | cell), for count arrays of equal shape (n > 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n_cell > 0, pos_cell / np.where(n_cell > 0, n_cell, 1), 0.0)
    return (n_cell / n) * binary_entropy(p)


def information_gain(n, n_pos, ones, ones_pos):
    """IG(Y; b_j) in bits for every feature, from counts: ``n`` rows, ``n_pos`` positive,
    ``ones[j]`` rows with b_j = 1, ``ones_pos[j]`` of them positive. All zeros when n = 0."""
    ones = np.asarray(ones, dtype=np.float64)
    ones_pos = np.asarray(ones_pos, dtype=np.float64)
    if n == 0:
        return np.zeros_like(ones)
    h = binary_entropy(n_pos / n)
    cond = _conditional(ones, ones_pos, n) + _conditional(n - ones, n_pos - ones_pos, n)
    return np.maximum(h - cond, 0.0)


def pair_information_gain(n, n_pos, ones, ones_pos, both, both_pos):
    """M(i, j) = IG(Y; (b_i, b_j)) in bits for candidate features: ``ones``/``ones_pos`` their
    counts (length m), ``both[i, j]`` rows with b_i = b_j = 1, ``both_pos`` of them positive."""
    ones = np.asarray(ones, dtype=np.float64)
    ones_pos = np.asarray(ones_pos, dtype=np.float64)
    both = np.asarray(both, dtype=np.float64)
    both_pos = np.asarray(both_pos, dtype=np.float64)
    if n == 0:
        return np.zeros_like(both)
    oi, oj = ones[:, None], ones[None, :]
    pi, pj = ones_pos[:, None], ones_pos[None, :]
    cells = ((both, both_pos), (oi - both, pi - both_pos), (oj - both, pj - both_pos),
             (n - oi - oj + both, n_pos - pi - pj + both_pos))
    cond = sum(_conditional(c, cp, n) for c, cp in cells)
    return np.maximum(binary_entropy(n_pos / n) - cond, 0.0)


def top_k(scores, k):
    """Indices of the k largest scores, highest first; ties to the lower index."""
    order = np.argsort(-np.asarray(scores), kind="stable")
    return order[:k]


def game_lp(M, k):
    """``(u, value)``: an optimal relaxed strategy of Eq. (4.20) for the reward matrix M
    (m × m) and k ≤ m, and the game's value max_u min_v uᵀMv (see the module docstring)."""
    from scipy.optimize import linprog

    M = np.asarray(M, dtype=np.float64)
    m = M.shape[0]
    if M.shape != (m, m) or not 1 <= k <= m:
        raise ValueError(f"game_lp needs a square M and 1 ≤ k ≤ m, got {M.shape}, k={k}")
    # variables: u (m), z (1), s (m); minimise −k·z + Σ s
    c = np.concatenate([np.zeros(m), [-float(k)], np.ones(m)])
    A_ub = np.hstack([-M.T, np.ones((m, 1)), -np.identity(m)])   # m ≤ a few hundred: dense
    A_eq = np.concatenate([np.ones(m), [0.0], np.zeros(m)])[None, :]
    bounds = [(0.0, 1.0)] * m + [(None, None)] + [(0.0, None)] * m
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(m), A_eq=A_eq, b_eq=[float(k)], bounds=bounds,
                  method="highs")
    if res.status != 0:
        raise RuntimeError(f"the game LP (m={m}, k={k}) failed: {res.message}")
    return res.x[:m], -float(res.fun)


def game_selection(counts, k, candidates=None):
    """The k features chosen by the relaxed game of Eq. (4.20) on the rows seen
    (:class:`SeenCounts`), among ``candidates`` features of highest IG (default 2k)."""
    d = counts.d
    m = min(d, 2 * k if candidates is None else max(int(candidates), k))
    cand = top_k(counts.information_gain(), m)
    if counts.n == 0:
        return cand[:k]
    both, both_pos = counts.pair_counts(cand)
    M = pair_information_gain(counts.n, counts.n_pos, counts.ones[cand], counts.ones_pos[cand],
                              both, both_pos)
    u, _ = game_lp(M, k)
    return cand[np.argsort(-u, kind="stable")[:k]]


class SeenCounts:
    """Counts of the binarised rows seen so far (b = [x > threshold], y ∈ ±1): the number of
    rows, of positives, per-feature ones and positive ones, and the seen rows themselves (as
    dense 0/1 blocks of one byte per entry: the game's pair counts of m candidates are then
    a column gather and one m × m product, instead of re-stacking sparse rows at every
    selection)."""

    def __init__(self, d, threshold=0.5):
        self.d, self.threshold = int(d), float(threshold)
        self.n, self.n_pos = 0, 0
        self.ones = np.zeros(self.d)
        self.ones_pos = np.zeros(self.d)
        self._blocks, self._labels = [], []

    def add(self, X, y):
        """Count the rows X (dense or CSR) with labels y (±1)."""
        B = sp.csr_matrix(X > self.threshold, dtype=np.float64)
        pos = np.asarray(y) > 0
        self.n += B.shape[0]
        self.n_pos += int(pos.sum())
        self.ones += np.asarray(B.sum(axis=0)).ravel()
        self.ones_pos += np.asarray(B[pos].sum(axis=0)).ravel()
        self._blocks.append(B.toarray().astype(np.bool_))
        self._labels.append(pos)

    def information_gain(self):
        return information_gain(self.n, self.n_pos, self.ones, self.ones_pos)

    def pair_counts(self, features):
        """(both, both_pos): co-occurrence counts of ``features`` over the seen rows (sums of
        0/1 products: exact in float64)."""
        from threadpoolctl import threadpool_limits

        features = np.asarray(features)
        Bc = np.vstack([b[:, features] for b in self._blocks]).astype(np.float64)
        Bp = Bc[np.concatenate(self._labels)]
        with threadpool_limits(1, user_api="blas"):  # small products: BLAS threads only spin
            return Bc.T @ Bc, Bp.T @ Bp
