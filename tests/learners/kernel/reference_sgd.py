"""References of the gradient and projection kernel learners: kernel NORMA, the Projectron and
Projectron++, and the two feature-map learners FOGD and NOGD."""
import math

import numpy as np

from .reference import finish, no_budget


def kernel_norma(k, y, budget=None, seed=0, eta=0.1, lam=0.01, rho=1.0, schedule="constant",
                 tau=None):
    """NORMA (Kivinen, Smola & Williamson, "Online learning with kernels", IEEE TSP 52(8), 2004,
    §III-A, classification with the soft margin ρ, the fixed-ρ version; parameter names as olc's
    linear ``norma``: eta, lam, rho, schedule).

    Each step t = 1, 2, …: η_t = η ("constant") or η/√t ("sqrt"); σ_t = 1 if y_t f_t(x_t) < ρ
    (strict, as the paper's σ_t and olc's linear rule: with ρ = 0 nothing is ever learned from
    f = 0), else 0; then every coefficient is multiplied by (1 − η_t λ) (every step, whether or
    not σ_t = 1) and, if σ_t = 1, x_t is stored with α = η_t y_t.
    Truncation (§III, Eq. for the truncated expansion): ``tau`` (an integer ≥ 1, None = off)
    keeps only the rows of the last τ steps, i.e. after step t (0-based) rows i with t − i ≥ τ
    are dropped, so f_t(x_t) uses only examples t−τ … t−1; ``budget`` keeps at most B rows,
    dropping the oldest. η_t λ < 1 is required.
    Bias: with ``fit_intercept`` the constant kernel term makes the bias Σα, so it IS shrunk and
    truncated with the coefficients (unlike olc's linear NORMA, whose bias is unregularized)."""
    if schedule not in ("constant", "sqrt"):
        raise ValueError("schedule must be 'constant' or 'sqrt'")
    if not eta * lam < 1.0:
        raise ValueError("eta * lam must be < 1")
    pool, coef = [], []
    n = y.shape[0]
    scores, updated, sizes = np.zeros(n), np.zeros(n, bool), np.zeros(n, np.int64)
    for t in range(n):
        s = k.value(pool, coef, t)
        scores[t] = s
        eta_t = eta if schedule == "constant" else eta / math.sqrt(t + 1)
        coef = [(1.0 - eta_t * lam) * c for c in coef]
        if y[t] * s < rho:
            pool.append(t)
            coef.append(eta_t * y[t])
            updated[t] = True
        elif lam > 0.0 and pool:
            updated[t] = True  # the shrink alone changed f
        if tau is not None:
            keep = [i for i, r in enumerate(pool) if t - r < tau]
            pool, coef = [pool[i] for i in keep], [coef[i] for i in keep]
        while budget is not None and len(pool) > budget:
            pool.pop(0)
            coef.pop(0)
        sizes[t] = len(pool)
    return finish(scores, updated, pool, coef, sizes)


def _projection(k, pool, t):
    """(d*, δ², k_t): d* = K⁻¹k_t the coefficients of the projection of k(x_t, ·) onto the span of
    the pool (K its Gram matrix, solved directly), δ² = k(x_t,x_t) − k_tᵀd* the squared distance
    (clipped at 0 against rounding)."""
    kt = k.row(pool, t)
    if not pool:
        return np.zeros(0), max(k(t, t), 0.0), kt
    d = np.linalg.solve(k.gram(pool), kt)
    return d, max(k(t, t) - float(kt @ d), 0.0), kt


def _projectron(plus):
    def algorithm(k, y, budget=None, seed=0, eta=0.1, threshold_on="norm"):
        """Projectron (Orabona, Keshet & Caputo, "Bounded kernel-based online learning", JMLR 10,
        2009, Fig. 1) and Projectron++ (Fig. 2). δ_t = ‖P_{t−1}k(x_t, ·) − k(x_t, ·)‖ (a norm,
        not squared), computed from d* = K⁻¹k_t with K the pool's Gram matrix (solved directly).

        On a mistake y_t f(x_t) ≤ 0: if δ_t ≤ η, the projection is added, α_S += y_t d*
        (pool unchanged; an empty pool has nothing to project on: nothing changes); else x_t
        is stored with α = y_t. η = 0: a row is projected only when it lies in the span, and
        then the projected update is exactly the perceptron's: same f as the kernel perceptron.
        Projectron++ also, on a margin error 0 < y_t f(x_t) < 1 (strict both sides):
        ℓ_t = 1 − y_t f(x_t), ‖P k‖² = k_tᵀd* (= k(x_t,x_t) − δ_t²); if ℓ_t − δ_t/η > 0 (never
        when η = 0) and ‖P k‖² > 0, α_S += τ_t y_t d* with
        τ_t = min(ℓ_t/‖P k‖², 2(ℓ_t − δ_t/η)/‖P k‖², 1) (the pool never grows on margin errors).
        budget=None only (the pool is bounded by η through the paper's Theorem 2).
        threshold_on="squared_norm": the squared distance δ_t² in place of δ_t in the
        mistake test (δ_t² ≤ η), the margin-error test and τ (the first author's MATLAB
        code, DOGMA); ``extra["delta"]`` stays the distance δ_t."""
        no_budget("projectron++" if plus else "projectron", budget)
        if eta < 0.0:
            raise ValueError("eta must be >= 0")
        if threshold_on not in ("norm", "squared_norm"):
            raise ValueError("threshold_on must be 'norm' or 'squared_norm'")

        def measured(delta_sq):
            """What η bounds: δ_t or δ_t²."""
            return delta_sq if threshold_on == "squared_norm" else math.sqrt(delta_sq)

        pool, coef = [], []
        n = y.shape[0]
        scores, updated, sizes = np.zeros(n), np.zeros(n, bool), np.zeros(n, np.int64)
        deltas = np.full(n, np.nan)
        for t in range(n):
            s = k.value(pool, coef, t)
            scores[t] = s
            m = y[t] * s
            if m <= 0.0:
                d, delta_sq, _ = _projection(k, pool, t)
                deltas[t] = math.sqrt(delta_sq)
                if measured(delta_sq) <= eta:
                    if pool:
                        coef = [c + y[t] * di for c, di in zip(coef, d)]
                        updated[t] = True
                else:
                    pool.append(t)
                    coef.append(float(y[t]))
                    updated[t] = True
            elif plus and m < 1.0 and eta > 0.0:
                d, delta_sq, kt = _projection(k, pool, t)
                deltas[t] = math.sqrt(delta_sq)
                loss = 1.0 - m
                excess = loss - measured(delta_sq) / eta
                pk = float(kt @ d)
                if excess > 0.0 and pk > 0.0:
                    step = min(loss / pk, 2.0 * excess / pk, 1.0)
                    coef = [c + step * y[t] * di for c, di in zip(coef, d)]
                    updated[t] = True
            sizes[t] = len(pool)
        return finish(scores, updated, pool, coef, sizes, delta=deltas)
    algorithm.__name__ = "projectron_pp" if plus else "projectron"
    return algorithm


def _hinge_ogd(Z, y, eta):
    """Online gradient descent on the hinge loss in a feature space (Lu et al. 2016, Algorithms
    1 and 2, second stage): w ← w + η y_t z_t when y_t w·z_t < 1, else unchanged; w starts at 0
    unless given."""
    n = y.shape[0]
    w = np.zeros(Z.shape[1])
    scores, updated = np.zeros(n), np.zeros(n, bool)
    for t in range(n):
        s = float(w @ Z[t])
        scores[t] = s
        if y[t] * s < 1.0:
            w = w + eta * y[t] * Z[t]
            updated[t] = True
    return scores, updated, w


def fogd(k, y, budget=None, seed=0, eta=0.1, omega=None, offset=None):
    """Fourier Online Gradient Descent (Lu, Hoi, Wang, Zhao & Liu, "Large scale online kernel
    learning", JMLR 17, 2016, Algorithm 1): random Fourier features then OGD on the hinge loss.

    The random map is an input, in scikit-learn ``RBFSampler``'s form: omega (d, D) =
    ``random_weights_`` (drawn N(0, 2γ) for the RBF kernel exp(−γ‖x − z‖²)), offset (D,) =
    ``random_offset_`` (U[0, 2π)), z(x) = √(2/D)·cos(xΩ + b), so E[z(x)·z(x')] = k(x, x')
    (the paper's (cos uᵀx, sin uᵀx)/√D pairs are the same estimator with paired phases).
    ``fit_intercept``: z gets a constant 1 appended (k' = k + 1). Only the RBF kernel.
    No pool: support = [], n_support 0; extra ``w`` the final weights, ``Z`` the features."""
    no_budget("fogd", budget)
    if omega is None or offset is None:
        raise ValueError("fogd needs omega (d, D) and offset (D,)")
    X = k.X
    omega = np.asarray(omega, dtype=np.float64)
    offset = np.asarray(offset, dtype=np.float64)
    D = omega.shape[1]
    Z = np.sqrt(2.0 / D) * np.cos(X @ omega + offset)
    if k.bias:
        Z = np.hstack([Z, np.ones((Z.shape[0], 1))])
    scores, updated, w = _hinge_ogd(Z, y, eta)
    n = y.shape[0]
    return finish(scores, updated, [], [], np.zeros(n, np.int64), w=w, Z=Z)


def nystrom_map(k, landmarks, rank):
    """Nyström map of the landmark rows: K_B = VΛVᵀ (numpy.linalg.eigh), keep the ``rank``
    largest eigenpairs among those with λ > 1e-12·λ_max; z(x) = Λ_k^{−1/2} V_kᵀ k_B(x), so that
    z(x)·z(x') = k_B(x)ᵀ K_B⁺ k_B(x') (the Nyström approximation). Returns (V_k, λ_k)."""
    lam, V = np.linalg.eigh(k.gram(landmarks))
    order = np.argsort(lam)[::-1]
    lam, V = lam[order], V[:, order]
    keep = lam > 1e-12 * lam[0]
    lam, V = lam[keep][:rank], V[:, keep][:, :rank]
    return V, lam


def nogd(k, y, budget=None, seed=0, eta=0.1, rank=None):
    """Nyström Online Gradient Descent (Lu, Hoi, Wang, Zhao & Liu 2016, the NOGD algorithm).

    Stage 1, kernel online gradient descent on the hinge loss: when y_t f(x_t) < 1 and the pool
    holds fewer than B rows, x_t is stored with α = η y_t (f = Σ αᵢ k(x_i, ·)). The moment the
    B-th row is stored (in that same step), the Nyström map of the pool is built
    (:func:`nystrom_map`, rank k = ``rank`` or B; the paper's eigs(K̂, k)) and f is carried into
    it: w = a·(Λ^{−1/2}Vᵀ)⁺ = Λ^{1/2}Vᵀa, so w·z(x) = aᵀVVᵀk_B(x) (= f(x) at full rank).
    Stage 2: z(x) = Λ^{−1/2}V_kᵀk_B(x), OGD on the hinge loss, w ← w + η y_t z(x_t) when
    y_t w·z(x_t) < 1. (The authors' code builds the map at the first update after the pool is
    full; the two differ only in the scores of the steps in between, and only when k < B.)
    ``fit_intercept`` enters through k' = k + 1. support = the landmark rows, alphas = their
    coefficients in the final f, a = VΛ^{−1/2}w (stage 2) or the stage-1 α. extra: ``w``
    (None if the pool never filled), ``V``, ``lam``, ``map_step`` (the step that built it)."""
    if budget is None:
        raise ValueError("nogd needs a budget (the number of landmark rows)")
    n = y.shape[0]
    rank = budget if rank is None else rank
    pool, a = [], []
    scores, updated, sizes = np.zeros(n), np.zeros(n, bool), np.zeros(n, np.int64)
    w = V = lam = None
    map_step = None
    for t in range(n):
        if w is None:
            s = k.value(pool, a, t)
        else:
            z = (V.T @ k.row(pool, t)) / np.sqrt(lam)
            s = float(w @ z)
        scores[t] = s
        if y[t] * s < 1.0:
            updated[t] = True
            if w is None:
                pool.append(t)
                a.append(eta * y[t])
                if len(pool) == budget:
                    V, lam = nystrom_map(k, pool, rank)
                    w = np.sqrt(lam) * (V.T @ np.asarray(a))
                    map_step = t
            else:
                w = w + eta * y[t] * z
        sizes[t] = len(pool)
    alphas = np.asarray(a) if w is None else V @ (w / np.sqrt(lam))
    return finish(scores, updated, pool, alphas, sizes, w=w, V=V, lam=lam, map_step=map_step)


ALGORITHMS = {
    "kernel-norma": kernel_norma,
    "projectron": _projectron(False),
    "projectron++": _projectron(True),
    "fogd": fogd,
    "nogd": nogd,
}
