"""References of the perceptron-based kernel learners: the kernel perceptron, the Stoptron, the
randomized budget perceptron, the self-tuned Forgetron and the kernel OBPM.

Every function takes (k, y, budget, seed, **params) with k a ``reference.Kernel`` over the stream
rows; the pool is a list of stream row indices (oldest first) and a list of coefficients.
"""
import math

import numpy as np

from .reference import finish, no_budget, uniform


def _need_budget(name, budget):
    if budget is None:
        raise ValueError(f"{name} needs a budget")


def kernel_perceptron(k, y, budget=None, seed=0):
    """Kernel perceptron (Rosenblatt 1958; the kernel form of Freund & Schapire 1999, §2 /
    Aizerman et al. 1964): f_t = Σ_{i∈S} y_i k(x_i, ·); on a mistake y_t f_t(x_t) ≤ 0 the row
    is stored with α = y_t. Unbounded pool (budget=None only)."""
    no_budget("kernel-perceptron", budget)
    return _perceptron_with_policy(k, y, None, "none", seed)


def stoptron(k, y, budget=None, seed=0):
    """Stoptron (the baseline of Orabona, Keshet & Caputo 2009, §6): the kernel perceptron that
    stops storing rows once the pool holds B; a mistake with a full pool changes nothing
    (``updated`` False)."""
    _need_budget("stoptron", budget)
    return _perceptron_with_policy(k, y, budget, "stop", seed)


def randomized_budget_perceptron(k, y, budget=None, seed=0):
    """Randomized budget perceptron (Cavallanti, Cesa-Bianchi & Gentile 2007, Machine Learning
    69, Fig. 1): on a mistake y_t f_t(x_t) ≤ 0, if the pool already holds B rows, one of them,
    chosen uniformly at random, is discarded; then x_t is stored with α = y_t.

    The draw (olc's generator): u = uniform(seed, stream=0, counter=t), t the 0-based step index
    of the mistake, and the discarded row is pool position ⌊u·B⌋ (positions oldest first).
    The draw is made only at steps that remove (its counter is the step, so that changes
    nothing)."""
    _need_budget("randomized-budget-perceptron", budget)
    return _perceptron_with_policy(k, y, budget, "random", seed)


def _perceptron_with_policy(k, y, budget, policy, seed):
    pool, alpha = [], []
    n = y.shape[0]
    scores, updated, sizes = np.zeros(n), np.zeros(n, bool), np.zeros(n, np.int64)
    removed = []
    for t in range(n):
        s = k.value(pool, alpha, t)
        scores[t] = s
        if y[t] * s <= 0.0:
            if budget is not None and len(pool) >= budget:
                if policy == "stop":
                    sizes[t] = len(pool)
                    continue
                u = uniform(seed, 0, t)
                r = int(math.floor(u * budget))
                removed.append((t, pool[r]))
                del pool[r], alpha[r]
            pool.append(t)
            alpha.append(float(y[t]))
            updated[t] = True
        sizes[t] = len(pool)
    return finish(scores, updated, pool, alpha, sizes, removed=removed)


def forgetron_phi(sigma, mu, Q, M):
    """φ_t = max{φ ∈ (0, 1] : Q_{t−1} + Ψ(σφ, μφ) ≤ (15/32)·M_t} with Ψ(λ, μ) = λ² + 2λ − 2λμ
    (Dekel, Shalev-Shwartz & Singer 2008, the self-tuned Forgetron's choice of φ_t).

    g(φ) = Q + Ψ(σφ, μφ) − 15M/32 = (σ² − 2σμ)φ² + 2σφ + (Q − 15M/32), a quadratic in φ with
    g(0) = Q − 15M/32 < 0 (Q_{t−1} ≤ 15M_{t−1}/32 and M_t = M_{t−1} + 1), so the feasible set
    near 0 is non-empty: φ = 1 if g(1) ≤ 0, otherwise the root of g in (0, 1) (unique: g(0) < 0
    < g(1)). That root is −2c/(b + √(b² − 4ac)) whatever the sign of a (for a > 0 the positive
    root, for a < 0 the smaller positive one, for a = 0 it is −c/b), the cancellation-free form
    of the quadratic formula (b = 2σ > 0)."""
    a = sigma * sigma - 2.0 * sigma * mu
    b = 2.0 * sigma
    c = Q - 15.0 * M / 32.0
    if a + b + c <= 0.0:  # g(1) ≤ 0
        return 1.0
    return -2.0 * c / (b + math.sqrt(b * b - 4.0 * a * c))


def psi(lam, mu):
    return lam * lam + 2.0 * lam - 2.0 * lam * mu


def forgetron(k, y, budget=None, seed=0):
    """The self-tuned Forgetron (Dekel, Shalev-Shwartz & Singer, "The Forgetron: a kernel-based
    perceptron on a budget", SIAM J. Computing 37(5), 2008: the self-tuned Forgetron).

    f_t = Σ_{i∈I_t} σ_i y_i k(x_i, ·). M_t counts the mistakes so far (including step t),
    Q_0 = 0. On a mistake y_t f_t(x_t) ≤ 0 (M_t ← M_{t−1} + 1):
      1. f'_t = f_t + y_t k(x_t, ·), I'_t = I_t ∪ {t} (the perceptron step);
      2. if |I'_t| ≤ B: f_{t+1} = f'_t, Q_t = Q_{t−1};
      3. else: r = the oldest row of I_t, σ_r its current weight (α_r = σ_r y_r),
         μ_t = y_r f'_t(x_r), φ_t = :func:`forgetron_phi` (σ_r, μ_t, Q_{t−1}, M_t),
         Q_t = Q_{t−1} + Ψ(σ_r φ_t, μ_t φ_t), and
         f_{t+1} = φ_t (f'_t − σ_r y_r k(x_r, ·)): every coefficient multiplied by φ_t, row r
         dropped.
    The paper's analysis assumes k(x, x) ≤ 1 (RBF: = 1; with ``fit_intercept`` k' = k + 1 ≤ 2, the
    algorithm is run as written). extra: ``phi`` (per step, 1.0 where no shrink), ``Q`` (Q after
    each step), ``M`` (mistakes after each step)."""
    _need_budget("forgetron", budget)
    pool, alpha = [], []
    n = y.shape[0]
    scores, updated, sizes = np.zeros(n), np.zeros(n, bool), np.zeros(n, np.int64)
    phis, Qs, Ms = np.ones(n), np.zeros(n), np.zeros(n, np.int64)
    Q, M = 0.0, 0
    for t in range(n):
        s = k.value(pool, alpha, t)
        scores[t] = s
        if y[t] * s <= 0.0:
            M += 1
            pool.append(t)
            alpha.append(float(y[t]))
            updated[t] = True
            if len(pool) > budget:
                r = pool[0]
                sigma = abs(alpha[0])  # σ_r > 0: α_r = σ_r·y_r
                mu = y[r] * k.value(pool, alpha, r)  # y_r f'_t(x_r), f' with row r and row t
                phi = forgetron_phi(sigma, mu, Q, M)
                Q = Q + psi(sigma * phi, mu * phi)
                del pool[0], alpha[0]
                alpha = [phi * a for a in alpha]
                phis[t] = phi
        sizes[t], Qs[t], Ms[t] = len(pool), Q, M
    return finish(scores, updated, pool, alpha, sizes, phi=phis, Q=Qs, M=Ms)


def kernel_obpm(k, y, budget=None, seed=0, N=100, tau=0.3):
    """Kernel Online Bayes Point Machine (Harrington, Herbrich, Kivinen, Platt & Williamson,
    PAKDD 2003, Algorithm 2 with kernel perceptron members, as §3 says it "can be readily
    kernelised"), matching olc's linear ``obpm`` with base ``perceptron``:

    - member j learns example t iff uniform(seed, stream=j, counter=t) < τ (t 0-based; strict <);
    - a member that learns does the kernel perceptron step: if y_t f_j(x_t) ≤ 0, α_j[t] += y_t;
    - the classifier (and the online prediction, made before the round's updates) is
      F(x) = Σ_j f_j(x) / max(N, ‖Σ_j f_j‖) — olc's w̃ = w̄/max(1, ‖w̄‖), w̄ = Σ_j w_j/N
      (Algorithm 2, lines 13 and 15), with ‖·‖ the RKHS norm βᵀKβ, β = Σ_j α_j (the bias,
      with ``fit_intercept``, is in the kernel and so in the norm, as olc's footnote-4 choice);
    - one shared pool: a row is stored when at least one member adds it (its coefficient in
      the other members is 0); with a budget, storing a row into a full pool first removes
      the oldest row from every member.
    ``alphas`` are the final classifier's: β/max(N, ‖β‖). extra: ``member_alphas`` (N, |pool|),
    ``members_updated`` (per step, how many members updated)."""
    if not (isinstance(N, (int, np.integer)) and N >= 1):
        raise ValueError("N must be an integer >= 1")
    pool = []
    A = np.zeros((N, 0))
    n = y.shape[0]
    scores, updated, sizes = np.zeros(n), np.zeros(n, bool), np.zeros(n, np.int64)
    counts = np.zeros(n, np.int64)
    for t in range(n):
        beta = A.sum(axis=0)
        norm = math.sqrt(max(k.sqnorm(pool, beta), 0.0))
        scores[t] = k.value(pool, beta, t) / max(float(N), norm)
        new = np.zeros(N)
        for j in range(N):
            if not uniform(seed, j, t) < tau:
                continue
            fj = k.value(pool, A[j], t)
            if y[t] * fj <= 0.0:
                new[j] = y[t]
        if np.any(new != 0.0):
            if budget is not None and len(pool) >= budget:
                del pool[0]
                A = A[:, 1:]
            pool.append(t)
            A = np.concatenate([A, new[:, None]], axis=1)
            updated[t] = True
            counts[t] = int(np.count_nonzero(new))
        sizes[t] = len(pool)
    beta = A.sum(axis=0)
    norm = math.sqrt(max(k.sqnorm(pool, beta), 0.0))
    return finish(scores, updated, pool, beta / max(float(N), norm), sizes, member_alphas=A,
                  members_updated=counts)


ALGORITHMS = {
    "kernel-perceptron": kernel_perceptron,
    "stoptron": stoptron,
    "randomized-budget-perceptron": randomized_budget_perceptron,
    "forgetron": forgetron,
    "kernel-obpm": kernel_obpm,
}
