"""The ``kernel`` family's rules that shrink f (a lazy scale, ``support_set.shrink``): Shen &
Dietterich's objective-regularized and L2-constrained PA in kernel form, the self-tuned
Forgetron and kernel NORMA. The steps follow ``rules/kernel.py``'s outline."""
import math

from ..caching import jit
from ..kernels.vector import INLINE, sign, sqnorm
from ..layouts.kernel import (BORN, KERNEL_L2_CONSTRAINED_PA_LAYOUT, KERNEL_NORMA_LAYOUT,
                              KERNEL_REGULARIZED_PA_LAYOUT, SCHEDULE_SQRT, SQNORM,
                              UPDATE_ALWAYS, UPDATE_MISTAKE, KROW)
from ..layouts.kernel import KernelScal as KS
from .support_set import (FULL, MUST_GROW, append, base, clear, coefficient, kernel_row,
                          kernel_value, remove, replace, room, shrink, slot_at, stored_value)

RPHP = KERNEL_REGULARIZED_PA_LAYOUT.hp
L2HP = KERNEL_L2_CONSTRAINED_PA_LAYOUT.hp
NHP = KERNEL_NORMA_LAYOUT.hp
INF = math.inf


@jit(inline=INLINE)
def _condition(update, margin):
    """Shen & Dietterich's update test: mistake y·f ≤ 0, hinge y·f < 1, or always."""
    if update == UPDATE_MISTAKE:
        return margin <= 0.0
    if update == UPDATE_ALWAYS:
        return True
    return margin < 1.0


@jit(inline=INLINE)
def _store(idx, val, xx, vecs, scal, coef, space):
    """Store x with raw coefficient ``coef``; at the budget, in place of the oldest."""
    if space == FULL:
        replace(idx, val, xx, vecs, scal, 0, coef)
    else:
        append(idx, val, xx, vecs, scal, coef)


@jit(inline=INLINE)
def regularized_pa_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Problem (3.1) in kernel form: f ← (f + τ·y·k(x, ·))/(1 + α),
    τ = max(0, 1 + α − y·f(x))/k(x, x) (Lemma 3.1's multiplier, exact for any margin as in
    the linear learner). The shrink is the lazy scale; at the budget the oldest row goes
    (§5). k(x, x) = 0: infeasible, skipped. ``aux``: τ."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    kxx = kernel_value(hp, xx, xx, xx)
    upd = _condition(hp[RPHP.UPDATE], y * f) and kxx > 0.0
    tau = 0.0
    if upd:
        alpha = hp[RPHP.ALPHA]
        tau = max(0.0, 1.0 + alpha - y * f) / kxx
        if tau > 0.0:
            space = room(vecs, scal, hp)
            if space == MUST_GROW:
                return INF, 1.0, False, 0.0
            coef = tau * y / scal[KS.SCALE]
            if not math.isfinite(coef):
                return INF, 1.0, False, 0.0
            _store(idx, val, xx, vecs, scal, coef, space)
        shrink(vecs, scal, 1.0 / (1.0 + alpha))
        upd = tau > 0.0 or alpha > 0.0
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd, tau


@jit(inline=INLINE)
def l2_pa_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Problem (3.9) in kernel form by Lemma 3.2: Z = max{1, √((‖f‖²k(x,x) − f(x)²)/
    (β²k(x,x) − 1))}, τ = (ℓ + Z − 1)/k(x, x), f ← (f + τ·y·k(x, ·))/Z, with ‖f‖² kept
    incrementally (FNORM2). β²k(x, x) < 1: infeasible, skipped; = 1: f = y·k(x, ·)/k(x, x).
    A round with ℓ = 0 leaves f as is. At the budget the oldest row x_r goes after the update
    (§5): ‖f − c_r k(x_r, ·)‖² = ‖f‖² − 2c_r f(x_r) + c_r² k(x_r, x_r), O(n·d). ``aux``: τ."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    kxx = kernel_value(hp, xx, xx, xx)
    margin = y * f
    loss = max(0.0, 1.0 - margin)
    beta2 = hp[L2HP.BETA] * hp[L2HP.BETA]
    upd = _condition(hp[L2HP.UPDATE], margin) and loss > 0.0 and beta2 * kxx >= 1.0
    tau = 0.0
    if upd:
        space = room(vecs, scal, hp)
        if space == MUST_GROW:
            return INF, 1.0, False, 0.0
        if beta2 * kxx == 1.0:  # the feasible set is one point
            tau = 1.0 / kxx
            clear(vecs, scal)
            append(idx, val, xx, vecs, scal, tau * y)
            scal[KS.FNORM2] = tau * tau * kxx
        else:
            norm2 = scal[KS.FNORM2]
            z = 1.0
            num = norm2 * kxx - f * f
            if num > 0.0:
                z = max(1.0, math.sqrt(num / (beta2 * kxx - 1.0)))
            tau = (loss + z - 1.0) / kxx
            full = space == FULL
            k_new_old = 0.0
            f_old = 0.0
            c_old = 0.0
            k_old = 0.0
            if full:  # what the oldest row's removal needs, before the update moves f
                r = slot_at(vecs, scal, 0)
                k_new_old = scal[base(vecs, KROW) + r]
                c_old = coefficient(vecs, scal, r)
                sq = scal[base(vecs, SQNORM) + r]
                k_old = kernel_value(hp, sq, sq, sq)
                f_old = stored_value(vecs, scal, hp, r, fast)
            coef = tau * y / scal[KS.SCALE]
            if not math.isfinite(coef):
                return INF, 1.0, False, 0.0
            _store(idx, val, xx, vecs, scal, coef, space)
            shrink(vecs, scal, 1.0 / z)
            norm2 = (norm2 + 2.0 * tau * margin + tau * tau * kxx) / (z * z)
            if full:
                c = c_old / z
                f_at_old = (f_old + tau * y * k_new_old) / z
                norm2 = norm2 - 2.0 * c * f_at_old + c * c * k_old
            scal[KS.FNORM2] = max(norm2, 0.0)
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd, tau


@jit(inline=INLINE)
def _psi(lam, mu):
    """Ψ(λ, μ) = λ² + 2λ − 2λμ (Dekel et al. 2008, §4)."""
    return lam * lam + 2.0 * lam - 2.0 * lam * mu


@jit(inline=INLINE)
def forgetron_step(idx, val, y, vecs, ints, scal, hp, fast):
    """The self-tuned Forgetron (Dekel, Shalev-Shwartz & Singer 2008, §4): on a mistake
    (y·f(x) ≤ 0) add x with σ = 1; with B + 1 rows, r the oldest, μ = y_r f′(x_r) (f′ with
    x added), φ = max{φ ∈ (0, 1] : Ψ(σ_r φ, μ) + Q ≤ (15/32)·M} (M: mistakes so far,
    this one included), f ← φ·f′ − φσ_r y_r k(x_r, ·) and Q ← Q + Ψ(σ_r φ, μ). ``aux``: φ
    (1 without a removal)."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    upd = y * f <= 0.0
    phi = 1.0
    if upd:
        space = room(vecs, scal, hp)
        if space == MUST_GROW:
            return INF, 1.0, False, 0.0
        scal[KS.MISTAKES] += 1.0
        coef = y / scal[KS.SCALE]
        if space == FULL:
            r = slot_at(vecs, scal, 0)
            k_new_old = scal[base(vecs, KROW) + r]
            c_old = coefficient(vecs, scal, r)
            sigma = abs(c_old)
            y_old = 1.0 if c_old >= 0.0 else -1.0
            mu = y_old * (stored_value(vecs, scal, hp, r, fast) + y * k_new_old)
            budget_left = 15.0 / 32.0 * scal[KS.MISTAKES] - scal[KS.Q]
            if _psi(sigma, mu) <= budget_left:
                phi = 1.0
            else:  # the largest root of (σφ)² + 2(1 − μ)σφ − budget_left = 0
                b = 1.0 - mu
                disc = b * b + budget_left
                lam = -b + math.sqrt(disc) if disc > 0.0 else 0.0
                phi = max(0.0, lam) / sigma
                if phi > 1.0:
                    phi = 1.0
            scal[KS.Q] += _psi(sigma * phi, mu)
            replace(idx, val, xx, vecs, scal, 0, coef)
            shrink(vecs, scal, phi)
        else:
            append(idx, val, xx, vecs, scal, coef)
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd, phi


@jit(inline=INLINE)
def norma_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Kernel NORMA (Kivinen, Smola & Williamson 2004, §III-A, classification):
    f ← (1 − η_t λ)f + η_t σ_t y·k(x, ·), σ_t = [y·f(x) < ρ], η_t = η or η/√t (t from 1);
    truncation (§III-A, Eq. for f_t with τ): after step t (0-based) the rows stored at a step
    ≤ t − τ are dropped (τ = 0: none); at the budget the oldest row goes. ``aux``: σ_t."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    t = scal[KS.STEPS]
    eta = hp[NHP.ETA]
    if hp[NHP.SCHEDULE] == SCHEDULE_SQRT:
        eta = eta / math.sqrt(t + 1.0)
    upd = y * f < hp[NHP.RHO]
    if upd:
        space = room(vecs, scal, hp)
        if space == MUST_GROW:
            return INF, 1.0, False, 0.0
        coef = eta * y / (scal[KS.SCALE] * (1.0 - eta * hp[NHP.LAM]))
        if not math.isfinite(coef):
            return INF, 1.0, False, 0.0
        _store(idx, val, xx, vecs, scal, coef, space)
    shrink(vecs, scal, 1.0 - eta * hp[NHP.LAM])
    window = hp[NHP.TAU]
    if window > 0.0:
        while scal[KS.N_STORED] > 0.0 and \
                scal[base(vecs, BORN) + slot_at(vecs, scal, 0)] <= t - window:
            remove(vecs, scal, 0)
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd, 1.0 if upd else 0.0
