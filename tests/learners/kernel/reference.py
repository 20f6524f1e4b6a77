"""Independent NumPy references of the kernel learners (issue 24): the oracle that the compiled
learners are compared against, step by step.

Written from the papers, plainly: a Python loop over the examples, explicit kernel evaluations,
no lazy scales, no incremental inverses or norms (what a paper keeps incrementally is recomputed
directly here). Nothing here imports olc.

Entry point::

    run(name, X, y, *, kernel="rbf", gamma=None, degree=3, coef0=1.0, budget=None,
        fit_intercept=False, seed=0, **params) -> Trace

Conventions shared by every algorithm (the compiled learners must make the same choices):

- Kernels as scikit-learn's pairwise kernels: ``linear`` x·z, ``poly`` (γ·x·z + coef0)^degree,
  ``rbf`` exp(−γ‖x − z‖²); ``gamma=None`` means 1/n_features.
- ``fit_intercept=True``: the bias is the weight of a constant feature, i.e. the kernel becomes
  k'(x, z) = k(x, z) + 1 everywhere (scores, norms ‖f‖² = αᵀK'α, k'(x, x) in step sizes,
  projections). The bias is therefore Σᵢ αᵢ, it is shrunk / constrained / truncated with the
  coefficients, and it disappears with the support vectors that carry it.
- Prediction: sign(score) with sign(0) = +1 (olc's convention: ``classes_[score >= 0]`` in
  ``_framework/classifier.py``, ``kernels/vector.sign``). A "mistake" test, where the paper has
  one, is y·f(x) ≤ 0 (a zero score counts as a mistake), as olc's linear perceptron.
- ``Trace.scores[t]`` is f_t(x_t) before the update of step t; ``updated[t]`` whether step t
  changed the model; ``support`` the stream row indices of the pool at the end, oldest first
  (a newly stored row is appended at the end; removals keep the order of the others);
  ``alphas`` the final coefficients aligned with ``support``; ``n_support[t]`` the pool size
  after step t.
- Randomness: the counter-based generator of olc (SplitMix64; formula in
  ``src/olc/_compiled/kernels/random.py``) re-implemented below in :func:`uniform`.

Algorithms and their parameters (defaults), budget, and ``Trace.extra``:

  kernel-perceptron                        budget None only
  kernel-pa / kernel-pa-i / kernel-pa-ii   C (1.0); budget None only
  kernel-regularized-pa                    alpha (0.001), update ("mistake"); budget optional,
                                           oldest removal; extra removed [(step, row)]
  kernel-l2-constrained-pa                 beta (10.0), update ("mistake"); budget optional,
                                           oldest removal; extra removed [(step, row)]
  forgetron                                budget required; extra phi, Q, M
  randomized-budget-perceptron             budget required, seed; extra removed [(step, row)]
  stoptron                                 budget required
  kernel-norma                             eta (0.1), lam (0.01), rho (1.0), schedule
                                           ("constant"), tau (None); budget optional
  projectron / projectron++                eta (0.1), threshold_on ("norm"); budget None
                                           only; extra delta
  budget-pa                                C (1.0); budget required; extra removed [(step, row)]
  kernel-obpm                              N (100), tau (0.3), seed; budget optional;
                                           extra member_alphas, members_updated
  fogd                                     eta (0.1), omega (d, D), offset (D,); no pool;
                                           extra w, Z
  nogd                                     eta (0.1), rank (None = B); budget required;
                                           extra w, V, lam, map_step

Cost: kernel values are computed entry by entry and remembered in an n × n table, so the
references are for streams of up to a few thousand rows.
"""
from dataclasses import dataclass, field

import numpy as np

KERNELS = ("linear", "poly", "rbf")


@dataclass
class Trace:
    scores: np.ndarray
    updated: np.ndarray
    support: list
    alphas: np.ndarray
    n_support: np.ndarray
    extra: dict = field(default_factory=dict)


# -- kernels ----------------------------------------------------------------------------------

def resolve_gamma(gamma, n_features):
    return 1.0 / n_features if gamma is None else float(gamma)


def kernel_matrix(A, B, *, kernel, gamma, degree, coef0):
    """Dense kernel matrix K[i, j] = k(A[i], B[j]) (A (m, d), B (n, d)), as scikit-learn's
    ``pairwise_kernels``; ``gamma=None`` is 1/d. Computed entry by entry (no cleverness)."""
    A = np.atleast_2d(np.asarray(A, dtype=np.float64))
    B = np.atleast_2d(np.asarray(B, dtype=np.float64))
    if kernel not in KERNELS:
        raise ValueError(f"unknown kernel {kernel!r}")
    g = resolve_gamma(gamma, A.shape[1])
    K = np.empty((A.shape[0], B.shape[0]))
    for i in range(A.shape[0]):
        for j in range(B.shape[0]):
            a, b = A[i], B[j]
            if kernel == "linear":
                K[i, j] = float(np.dot(a, b))
            elif kernel == "poly":
                K[i, j] = (g * float(np.dot(a, b)) + coef0) ** degree
            else:
                diff = a - b
                K[i, j] = np.exp(-g * float(np.dot(diff, diff)))
    return K


class Kernel:
    """k'(x, z) = k(x, z) (+ 1 with ``fit_intercept``) on the rows of one stream X."""

    def __init__(self, X, kernel, gamma, degree, coef0, fit_intercept):
        self.X = X
        self.kw = dict(kernel=kernel, gamma=resolve_gamma(gamma, X.shape[1]), degree=degree,
                       coef0=coef0)
        self.bias = 1.0 if fit_intercept else 0.0
        self._memo = np.full((X.shape[0], X.shape[0]), np.nan)

    def __call__(self, i, j):
        """k'(x_i, x_j) for stream rows i, j (each pair evaluated once, entry by entry, then
        remembered: the references ask for the same pairs again and again)."""
        if np.isnan(self._memo[i, j]):
            value = kernel_matrix(self.X[i], self.X[j], **self.kw)[0, 0] + self.bias
            self._memo[i, j] = self._memo[j, i] = value
        return float(self._memo[i, j])

    def row(self, rows, j):
        """[k'(x_i, x_j) for i in rows]."""
        return np.array([self(i, j) for i in rows], dtype=np.float64)

    def gram(self, rows):
        """The Gram matrix [k'(x_i, x_j)] of the rows."""
        rows = np.asarray(rows, dtype=np.intp)
        block = self._memo[np.ix_(rows, rows)]
        for a, b in zip(*np.nonzero(np.isnan(block))):
            self(int(rows[a]), int(rows[b]))
        return self._memo[np.ix_(rows, rows)].copy()

    def value(self, rows, alphas, j):
        """f(x_j) = Σ αᵢ k'(x_i, x_j), summed in pool order."""
        s = 0.0
        for i, a in zip(rows, alphas):
            s += a * self(i, j)
        return s

    def sqnorm(self, rows, alphas):
        """‖f‖² = αᵀK'α in the RKHS."""
        a = np.asarray(alphas, dtype=np.float64)
        return float(a @ self.gram(rows) @ a) if len(rows) else 0.0


# -- randomness: olc's counter-based generator, re-implemented ----------------------------------

_MASK = (1 << 64) - 1
_PHI = 0x9E3779B97F4A7C15


def _mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def uniform(seed, stream, counter):
    """uniform(seed, stream, counter) ∈ [0, 1): key = mix64(seed + φ(stream + 1)),
    u64 = mix64(key + φ(counter + 1)), uniform = (u64 ≫ 11)·2⁻⁵³, all mod 2⁶⁴ (SplitMix64's
    output function; olc ``_compiled/kernels/random.py``). Python integers, masked to 64 bits."""
    key = _mix64((int(seed) + _PHI * (int(stream) + 1)) & _MASK)
    u = _mix64((key + _PHI * (int(counter) + 1)) & _MASK)
    return (u >> 11) * 2.0 ** -53


# -- entry point --------------------------------------------------------------------------------

def _algorithms():
    from . import reference_pa, reference_perceptron, reference_sgd
    table = {}
    for module in (reference_perceptron, reference_pa, reference_sgd):
        table.update(module.ALGORITHMS)
    return table


def algorithm_names():
    return sorted(_algorithms())


def run(name, X, y, *, kernel="rbf", gamma=None, degree=3, coef0=1.0, budget=None,
        fit_intercept=False, seed=0, **params):
    """Run algorithm ``name`` on the stream (X, y) (X dense (n, d), y in {−1, +1}); see the
    module docstring for the conventions and each algorithm's function for its paper."""
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError("X must be (n, d) and y (n,)")
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must be in {-1, +1}")
    if budget is not None and (int(budget) != budget or budget < 1):
        raise ValueError(f"budget must be an integer >= 1, got {budget!r}")
    table = _algorithms()
    if name not in table:
        raise ValueError(f"unknown algorithm {name!r}; known: {sorted(table)}")
    k = Kernel(X, kernel, gamma, degree, coef0, fit_intercept)
    return table[name](k, y, budget=budget, seed=seed, **params)


def finish(scores, updated, support, alphas, n_support, **extra):
    return Trace(np.asarray(scores, dtype=np.float64), np.asarray(updated, dtype=bool),
                 [int(i) for i in support], np.asarray(alphas, dtype=np.float64).reshape(-1),
                 np.asarray(n_support, dtype=np.int64), dict(extra))


def no_budget(name, budget):
    if budget is not None:
        raise ValueError(f"{name} has no budget (budget=None only)")
