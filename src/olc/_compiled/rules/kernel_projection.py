"""The Projectron and Projectron++ (Orabona, Keshet & Caputo 2009, JMLR 10:2643–2666) and
BPA-S (Wang & Vucetic 2010), on the support-set pool (``rules/support_set.py``); the step
outline of ``rules/kernel.py``. Layouts: ``layouts/kernel_extra.py``.

The Projectron keeps K⁻¹, the inverse Gram matrix of the stored rows (slot order = position
order: it never removes a row), in the extra block; a stored row grows it by the block
inverse (Schur complement δ_t², their §3 "an efficient iterative method"), O(n²) per step.
"""
import math

from ..caching import jit
from ..kernels.vector import INLINE, sign, sqnorm
from ..layouts.kernel import ALPHA, HEADER, N_BLOCKS, SQNORM, KROW
from ..layouts.kernel import KernelScal as KS
from ..layouts.kernel_extra import (BUDGET_PA_LAYOUT, PROJECTRON_LAYOUT,
                                     PROJECTRON_SQUARED_LAYOUT)
from .csr_pool import capacity
from .support_set import (FULL, MUST_GROW, append, base, kernel_row, kernel_value, replace,
                          room_for, slot_at)

PHP = PROJECTRON_LAYOUT.hp
SQUARED = int(PROJECTRON_SQUARED_LAYOUT.hp.SQUARED)  # past the default layout's fields
BHP = BUDGET_PA_LAYOUT.hp
INF = math.inf


@jit(inline=INLINE)
def extra_base(P):
    """Where the extra block starts in scal."""
    return HEADER + N_BLOCKS * capacity(P)


@jit(inline=INLINE)
def _project(P, scal, n):
    """d* = K⁻¹k_t into the scratch row (k_t: KROW); returns k_tᵀd* = ‖P_{t−1}k(x_t, ·)‖²."""
    cap = capacity(P)
    e = extra_base(P)
    dstar = e + cap * cap
    kr = base(P, KROW)
    pk = 0.0
    for i in range(n):
        s = 0.0
        row = e + i * cap
        for j in range(n):
            s += scal[row + j] * scal[kr + j]
        scal[dstar + i] = s
    for i in range(n):
        pk += scal[kr + i] * scal[dstar + i]
    return pk


@jit(inline=INLINE)
def _add_projection(P, scal, n, c):
    """α_S += c·d* (c in units of f; the lazy scale divided out)."""
    cap = capacity(P)
    dstar = extra_base(P) + cap * cap
    a = base(P, ALPHA)
    c = c / scal[KS.SCALE]
    for i in range(n):
        scal[a + i] += c * scal[dstar + i]


@jit(inline=INLINE)
def _grow_inverse(P, scal, n, delta2):
    """K⁻¹ of the n + 1 rows from that of the first n (block inverse with Schur complement
    δ² = k(x_t, x_t) − k_tᵀd*): [[K⁻¹ + d*d*ᵀ/δ², −d*/δ²], [−d*ᵀ/δ², 1/δ²]]. Entry (i, j)
    and (j, i) are the same products, so K⁻¹ stays exactly symmetric."""
    cap = capacity(P)
    e = extra_base(P)
    dstar = e + cap * cap
    inv = 1.0 / delta2
    for i in range(n):
        di = scal[dstar + i]
        for j in range(n):
            scal[e + i * cap + j] += di * scal[dstar + j] * inv
        scal[e + i * cap + n] = -di * inv
        scal[e + n * cap + i] = -di * inv
    scal[e + n * cap + n] = inv


@jit(inline=INLINE)
def clear_projection(P, scal):
    """The scratch d* emptied after a row (as ``support_set.clear_scratch``)."""
    cap = capacity(P)
    dstar = extra_base(P) + cap * cap
    for i in range(int(scal[KS.N_STORED])):
        scal[dstar + i] = 0.0


@jit(inline=INLINE)
def projectron_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Projectron (Orabona et al. 2009, Fig. 1) and Projectron++ (Fig. 2).

    On a mistake y·f(x) ≤ 0: d* = K⁻¹k_t, δ_t = P_{t−1}k(x_t, ·) − k(x_t, ·) with
    ‖δ_t‖² = k(x_t, x_t) − k_tᵀd* (their Eq. for ‖δ_t‖², clipped at 0); if ‖δ_t‖ ≤ η the
    projection is added, α_S += y·d* (an empty pool: nothing to project on, no change); else
    x_t is stored with α = y and K⁻¹ grows. Projectron++, on a margin error 0 < y·f(x) < 1
    with η > 0: ℓ = 1 − y·f(x), ‖P k‖² = k_tᵀd*; if ℓ − ‖δ_t‖/η > 0 and ‖P k‖² > 0,
    α_S += τ·y·d*, τ = min(ℓ/‖P k‖², 2(ℓ − ‖δ_t‖/η)/‖P k‖², 1) (the pool never grows on a
    margin error). With the squared reading (hp ``squared`` = 1, a field only the
    ``threshold_on="squared_norm"`` layout has, so a shorter hp is the norm reading) ‖δ_t‖²
    stands for ‖δ_t‖ in both tests and in τ. ``aux``: ‖δ_t‖ when computed, else 0."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    n = int(scal[KS.N_STORED])
    margin = y * f
    eta = hp[PHP.ETA]
    squared = hp.shape[0] > SQUARED and hp[SQUARED] != 0.0
    upd = False
    delta = 0.0
    if margin <= 0.0:
        kxx = kernel_value(hp, vecs, xx, xx, xx)
        pk = _project(vecs, scal, n)
        delta2 = max(kxx - pk, 0.0)
        delta = math.sqrt(delta2)
        if (delta2 if squared else delta) <= eta:
            if n > 0:
                _add_projection(vecs, scal, n, y)
                upd = True
        else:
            coef = y / scal[KS.SCALE]
            if not math.isfinite(1.0 / delta2):
                return INF, 1.0, False, 0.0
            if room_for(idx, val, vecs, scal, hp) == MUST_GROW:
                return INF, 1.0, False, 0.0
            _grow_inverse(vecs, scal, n, delta2)
            append(idx, val, xx, vecs, scal, coef)
            upd = True
    elif hp[PHP.PLUS] != 0.0 and margin < 1.0 and eta > 0.0:
        kxx = kernel_value(hp, vecs, xx, xx, xx)
        pk = _project(vecs, scal, n)
        delta2 = max(kxx - pk, 0.0)
        delta = math.sqrt(delta2)
        loss = 1.0 - margin
        excess = loss - (delta2 if squared else delta) / eta
        if excess > 0.0 and pk > 0.0:
            tau = min(loss / pk, 2.0 * excess / pk, 1.0)
            _add_projection(vecs, scal, n, tau * y)
            upd = True
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd, delta


@jit(inline=INLINE)
def budget_pa_step(idx, val, y, vecs, ints, scal, hp, fast):
    """BPA-S (Wang & Vucetic 2010, §3: the budgeted PA problem with only x_t's coefficient
    free). ℓ = 1 − y·f(x) > 0 and k(x, x) > 0: τ = min(C, ℓ/k(x, x)) (PA-I). Below the
    budget x_t is stored with τ·y. At the budget, for each stored x_r:
    β_r = α_r k(x_r, x_t)/k(x_t, x_t) + τ·y (the new f agrees with f_t at x_t up to the PA
    step) and the objective ½‖Δf‖² + Cξ, ‖Δf‖² = α_r²k(x_r, x_r) − 2α_rβ_r k(x_r, x_t) +
    β_r²k(x_t, x_t), ξ = max(0, 1 − y(f(x) − α_r k(x_r, x_t) + β_r k(x_t, x_t))); the argmin
    (positions oldest first, the first on ties) is removed and x_t stored, as the newest,
    with β_r. O(B) per step from the kernel row. ``aux``: τ."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    loss = 1.0 - y * f
    kxx = kernel_value(hp, vecs, xx, xx, xx)
    upd = loss > 0.0 and kxx > 0.0
    tau = 0.0
    if upd:
        c = hp[BHP.C]
        tau = min(c, loss / kxx)
        space = room_for(idx, val, vecs, scal, hp)
        if space == MUST_GROW:
            return INF, 1.0, False, 0.0
        if space == FULL:
            n = int(scal[KS.N_STORED])
            s = scal[KS.SCALE]
            best = -1
            best_obj = 0.0
            best_beta = 0.0
            for p in range(n):
                r = slot_at(vecs, scal, p)
                a_r = scal[base(vecs, ALPHA) + r] * s
                k_rt = scal[base(vecs, KROW) + r]
                sq = scal[base(vecs, SQNORM) + r]
                k_rr = kernel_value(hp, vecs, sq, sq, sq)
                beta = a_r * k_rt / kxx + tau * y
                change = a_r * a_r * k_rr - 2.0 * a_r * beta * k_rt + beta * beta * kxx
                xi = max(0.0, 1.0 - y * (f - a_r * k_rt + beta * kxx))
                obj = 0.5 * change + c * xi
                if best < 0 or obj < best_obj:
                    best, best_obj, best_beta = p, obj, beta
            coef = best_beta / s
            if not math.isfinite(coef):
                return INF, 1.0, False, 0.0
            replace(idx, val, xx, vecs, scal, best, coef)
        else:
            coef = tau * y / scal[KS.SCALE]
            if not math.isfinite(coef):
                return INF, 1.0, False, 0.0
            append(idx, val, xx, vecs, scal, coef)
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd, tau
