"""References of the Passive-Aggressive kernel learners: kernel PA / PA-I / PA-II, Shen &
Dietterich's objective-regularized and L2-constrained PAs (with oldest removal on a budget), and
the budgeted PA of Wang & Vucetic (BPA-S)."""
import math

import numpy as np

from .reference import finish, no_budget

_UPDATES = ("mistake", "hinge", "always")
# f_t counts as inside the ball when ‖f_t‖² exceeds β² by no more than rounding: an update of
# the L2-constrained PA lands on the sphere, where αᵀKα is β² only up to a few ulps (the same
# relative tolerance as olc's linear rule).
BALL_RTOL = 1e-12


def _pa(variant):
    def algorithm(k, y, budget=None, seed=0, C=1.0):
        """Kernel Passive-Aggressive (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer, JMLR 7,
        2006, Fig. 1 with ‖x_t‖² → k(x_t, x_t)): ℓ_t = max(0, 1 − y_t f_t(x_t)); when ℓ_t > 0,
        x_t is stored with α = τ_t y_t, τ_t = ℓ_t/k(x_t,x_t) (PA), min(C, ℓ_t/k(x_t,x_t))
        (PA-I), ℓ_t/(k(x_t,x_t) + 1/(2C)) (PA-II) (Eq. 6, as cited by olc's linear PAs; in
        kernel form w_t = Σ α_i x_i, so w_t·x = Σ α_i k(x_i, x)). budget=None only.
        k(x_t, x_t) = 0 (linear kernel, x = 0, no intercept): PA and PA-I skip the round (the
        constraint cannot be met; nothing stored); PA-II's τ is finite and x_t (= 0) is
        stored."""
        no_budget(variant, budget)
        pool, alpha = [], []
        n = y.shape[0]
        scores, updated, sizes = np.zeros(n), np.zeros(n, bool), np.zeros(n, np.int64)
        for t in range(n):
            s = k.value(pool, alpha, t)
            scores[t] = s
            loss = max(0.0, 1.0 - y[t] * s)
            kk = k(t, t)
            if loss > 0.0 and (kk > 0.0 or variant == "kernel-pa-ii"):
                if variant == "kernel-pa":
                    tau = loss / kk
                elif variant == "kernel-pa-i":
                    tau = min(C, loss / kk)
                else:
                    tau = loss / (kk + 1.0 / (2.0 * C))
                pool.append(t)
                alpha.append(tau * y[t])
                updated[t] = True
            sizes[t] = len(pool)
        return finish(scores, updated, pool, alpha, sizes)
    algorithm.__name__ = variant.replace("-", "_")
    return algorithm


def _active(m, update):
    if update == "mistake":
        return m <= 0.0
    if update == "hinge":
        return m < 1.0
    return True


def _drop_oldest(pool, alpha, budget, t):
    """Shen & Dietterich §5: the support-vector budget by removing the oldest row; returns
    [(step, row)] of the rows removed."""
    removed = []
    while budget is not None and len(pool) > budget:
        removed.append((t, pool.pop(0)))
        alpha.pop(0)
    return removed


def kernel_regularized_pa(k, y, budget=None, seed=0, alpha=0.001, update="mistake"):
    """Objective-regularized PA in kernel form (Shen & Dietterich, seed 000, problem (3.1) and
    Lemma 3.1): on an update, f_{t+1} = argmin ½‖f − f_t‖² + (α/2)‖f‖² s.t. y_t f(x_t) ≥ 1, i.e.
    f_{t+1} = (f_t + τ_t y_t k(x_t, ·))/(1 + α), τ_t = max(0, 1 + α − y_t f_t(x_t))/k(x_t, x_t)
    (olc's linear rule: the exact multiplier, equal to Lemma 3.1's (ℓ_t + α)/‖x_t‖² whenever
    y_t f_t(x_t) ≤ 1). Every stored coefficient is divided by (1 + α); x_t is stored (α = τ_t y_t
    /(1 + α)) only when τ_t > 0 (``update="always"`` with margin ≥ 1 + α only shrinks).
    ``update`` as olc's linear learner: "mistake" y f ≤ 0 (default; the paper updates "when the
    classifier makes an error", §2), "hinge" y f < 1, "always". k(x_t, x_t) = 0: the problem is
    infeasible, the round is skipped. Budget (§5): after the update, while the pool exceeds B,
    the oldest row is removed (extra ``removed``: [(step, row)] in order)."""
    if update not in _UPDATES:
        raise ValueError(f"update must be one of {_UPDATES}")
    pool, coef = [], []
    n = y.shape[0]
    scores, updated, sizes = np.zeros(n), np.zeros(n, bool), np.zeros(n, np.int64)
    removed = []
    for t in range(n):
        s = k.value(pool, coef, t)
        scores[t] = s
        m = y[t] * s
        kk = k(t, t)
        if _active(m, update) and kk > 0.0:
            tau = max(0.0, 1.0 + alpha - m) / kk
            if tau > 0.0:
                pool.append(t)
                coef.append(tau * y[t])
            coef = [c / (1.0 + alpha) for c in coef]
            updated[t] = tau > 0.0 or (alpha > 0.0 and len(pool) > 0)
            removed += _drop_oldest(pool, coef, budget, t)
        sizes[t] = len(pool)
    return finish(scores, updated, pool, coef, sizes, removed=removed)


def kernel_l2_constrained_pa(k, y, budget=None, seed=0, beta=10.0, update="mistake"):
    """L2-norm-constrained PA in kernel form (Shen & Dietterich, problem (3.9), Lemma 3.2):
    f_{t+1} = argmin ½‖f − f_t‖² s.t. y_t f(x_t) ≥ 1 and ‖f‖ ≤ β, with ‖f‖² = αᵀKα recomputed
    from the Gram matrix each time. Solved exactly as olc's linear rule (m = y_t f_t(x_t),
    a = k(x_t, x_t), ℓ = max(0, 1 − m)):
      0. m ≥ 1 and ‖f_t‖² ≤ β²(1 + 1e-12) (rounding on the sphere): nothing to do (not
         updated);
      1. the PA step f_t + τ₁ y_t k(x_t, ·), τ₁ = ℓ/a, if τ₁ > 0 and it lies in the ball;
      2. else if ‖f_t‖ > β (possible after an oldest removal, or a lowered β) and the ball
         projection f_t·β/‖f_t‖ has margin ≥ 1 (m·β ≥ ‖f_t‖): that projection;
      3. else both constraints active, Lemma 3.2: Z = max(1, √((‖f_t‖²a − m²)/(β²a − 1))),
         τ = max(0, Z − m)/a (= (ℓ + Z − 1)/a), f_{t+1} = (f_t + τ y_t k(x_t, ·))/Z;
         β²a = 1: the single feasible point y_t k(x_t, ·)/a (the pool becomes {t});
         β²a < 1 (including a = 0): infeasible, the round is skipped.
    x_t is stored only when its coefficient is non-zero (τ > 0). ``update`` as for
    :func:`kernel_regularized_pa`. Budget (§5): after the update, while the pool exceeds B, the
    oldest row is removed (the norm is then whatever it is: step 2 handles ‖f‖ > β); extra
    ``removed``: [(step, row)]."""
    if update not in _UPDATES:
        raise ValueError(f"update must be one of {_UPDATES}")
    pool, coef = [], []
    n = y.shape[0]
    b2 = beta * beta
    scores, updated, sizes = np.zeros(n), np.zeros(n, bool), np.zeros(n, np.int64)
    removed = []
    for t in range(n):
        s = k.value(pool, coef, t)
        scores[t] = s
        m = y[t] * s
        a = k(t, t)
        sizes[t] = len(pool)
        if not _active(m, update) or a <= 0.0:
            continue
        w_sq = k.sqnorm(pool, coef)
        if m >= 1.0 and w_sq <= b2 * (1.0 + BALL_RTOL):
            continue
        ell = max(0.0, 1.0 - m)
        tau1 = ell / a
        step_sq = k.sqnorm(pool + [t], coef + [tau1 * y[t]])
        if tau1 > 0.0 and step_sq <= b2:
            pool.append(t)
            coef.append(tau1 * y[t])
        elif w_sq > b2 and m * beta >= math.sqrt(w_sq):
            coef = [c * beta / math.sqrt(w_sq) for c in coef]
        else:
            den = b2 * a - 1.0
            if den < 0.0:
                continue
            if den == 0.0:
                pool, coef = [t], [y[t] / a]
            else:
                num = w_sq * a - m * m
                z = max(1.0, math.sqrt(num / den)) if num > 0.0 else 1.0
                tau = max(0.0, z - m) / a
                if tau > 0.0:
                    pool.append(t)
                    coef.append(tau * y[t])
                coef = [c / z for c in coef]
        updated[t] = True
        removed += _drop_oldest(pool, coef, budget, t)
        sizes[t] = len(pool)
    return finish(scores, updated, pool, coef, sizes, removed=removed)


def budget_pa(k, y, budget=None, seed=0, C=1.0):
    """Budgeted PA, the simple variant BPA-S (Wang & Vucetic, "Online Passive-Aggressive
    Algorithms on a Budget", AISTATS 2010, §3.1–3.2).

    Base update PA-I: ℓ_t = max(0, 1 − y_t f_t(x_t)); when ℓ_t > 0 and the pool holds fewer than
    B rows, x_t is stored with α = τ_t y_t, τ_t = min(C, ℓ_t/k(x_t, x_t)). When the pool is full,
    BPA solves min ½‖f − f_t‖² + Cξ s.t. y_t f(x_t) ≥ 1 − ξ, ξ ≥ 0, over
    f = f_t − α_r k(x_r, ·) + β k(x_t, ·) for each candidate r of the pool (BPA-S: only x_t's
    coefficient is free). Its closed form: β = α_r k(x_r, x_t)/k(x_t, x_t) + τ_t y_t with the
    same τ_t = min(C, ℓ_t/k(x_t, x_t)) (the first term makes the new f agree with f_t at x_t, so
    ℓ_t is unchanged). The removed r is the argmin of the objective ½‖f^(r) − f_t‖² + Cξ^(r),
    computed here directly from the Gram matrix of pool ∪ {t}; since ξ^(r) does not depend on r
    this is the argmin of the weight degradation ‖f^(r) − f_t‖² (ties: the oldest). Then r is
    dropped and x_t appended with β. k(x_t, x_t) = 0: the round is skipped.
    extra: ``removed`` [(step, row)]."""
    if budget is None:
        raise ValueError("budget-pa needs a budget")
    pool, coef = [], []
    n = y.shape[0]
    scores, updated, sizes = np.zeros(n), np.zeros(n, bool), np.zeros(n, np.int64)
    removed = []
    for t in range(n):
        s = k.value(pool, coef, t)
        scores[t] = s
        loss = max(0.0, 1.0 - y[t] * s)
        kk = k(t, t)
        if loss > 0.0 and kk > 0.0:
            tau = min(C, loss / kk)
            if len(pool) < budget:
                pool.append(t)
                coef.append(tau * y[t])
            else:
                rows = pool + [t]
                G = k.gram(rows)
                best, best_obj, best_beta = None, None, None
                for r in range(len(pool)):
                    b = coef[r] * k(pool[r], t) / kk + tau * y[t]
                    delta = np.zeros(len(rows))
                    delta[r] = -coef[r]
                    delta[-1] = b
                    new_score = s - coef[r] * k(pool[r], t) + b * kk
                    xi = max(0.0, 1.0 - y[t] * new_score)
                    obj = 0.5 * float(delta @ G @ delta) + C * xi
                    if best is None or obj < best_obj:
                        best, best_obj, best_beta = r, obj, b
                removed.append((t, pool[best]))
                del pool[best], coef[best]
                pool.append(t)
                coef.append(best_beta)
            updated[t] = True
        sizes[t] = len(pool)
    return finish(scores, updated, pool, coef, sizes, removed=removed)


ALGORITHMS = {
    "kernel-pa": _pa("kernel-pa"),
    "kernel-pa-i": _pa("kernel-pa-i"),
    "kernel-pa-ii": _pa("kernel-pa-ii"),
    "kernel-regularized-pa": kernel_regularized_pa,
    "kernel-l2-constrained-pa": kernel_l2_constrained_pa,
    "budget-pa": budget_pa,
}
