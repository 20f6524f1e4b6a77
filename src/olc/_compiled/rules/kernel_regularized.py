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
                          kernel_value, remove, replace, room_for, shrink, slot_at,
                          stored_value)

RPHP = KERNEL_REGULARIZED_PA_LAYOUT.hp
L2HP = KERNEL_L2_CONSTRAINED_PA_LAYOUT.hp
NHP = KERNEL_NORMA_LAYOUT.hp
INF = math.inf
# f counts as inside the ball when ‖f‖² exceeds β² by rounding only (an update lands on the
# sphere, where the kept ‖f‖² is β² up to a few ulps): the linear rule's tolerance.
BALL_RTOL = 1e-12


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
    kxx = kernel_value(hp, vecs, xx, xx, xx)
    upd = _condition(hp[RPHP.UPDATE], y * f) and kxx > 0.0
    tau = 0.0
    if upd:
        alpha = hp[RPHP.ALPHA]
        tau = max(0.0, 1.0 + alpha - y * f) / kxx
        if tau > 0.0:
            space = room_for(idx, val, vecs, scal, hp)
            if space == MUST_GROW:
                return INF, 1.0, False, 0.0
            coef = tau * y / scal[KS.SCALE]
            if not math.isfinite(coef):
                return INF, 1.0, False, 0.0
            _store(idx, val, xx, vecs, scal, coef, space)
        shrink(vecs, scal, 1.0 / (1.0 + alpha))
        upd = tau > 0.0 or (alpha > 0.0 and scal[KS.N_STORED] > 0.0)
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd, tau


@jit(inline=INLINE)
def l2_pa_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Problem (3.9) in kernel form, solved exactly as the linear rule (m = y·f(x),
    a = k(x, x), ℓ = max(0, 1 − m), ‖f‖² kept incrementally in FNORM2):
    0. m ≥ 1 and ‖f‖² ≤ β²(1 + 1e-12) (rounding on the sphere): nothing to do;
    1. the PA step τ₁ = ℓ/a when τ₁ > 0 and it stays in the ball;
    2. else if ‖f‖ > β (after an oldest removal) and m·β ≥ ‖f‖: the ball projection β/‖f‖;
    3. else Lemma 3.2: Z = max{1, √((‖f‖²a − m²)/(β²a − 1))}, τ = max(0, Z − m)/a (= (ℓ + Z
       − 1)/a), f ← (f + τ·y·k(x, ·))/Z; β²a = 1: f = y·k(x, ·)/a; β²a < 1: infeasible,
       skipped.
    At the budget the oldest row x_r goes after the update (§5):
    ‖f − c_r k(x_r, ·)‖² = ‖f‖² − 2c_r f(x_r) + c_r² k(x_r, x_r), O(n·d). ``aux``: τ."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    a = kernel_value(hp, vecs, xx, xx, xx)
    m = y * f
    beta = hp[L2HP.BETA]
    b2 = beta * beta
    w_sq = scal[KS.FNORM2]
    if not _condition(hp[L2HP.UPDATE], m) or a <= 0.0 or \
            (m >= 1.0 and w_sq <= b2 * (1.0 + BALL_RTOL)):
        scal[KS.STEPS] += 1.0
        return f, sign(f), False, 0.0
    tau = max(0.0, 1.0 - m) / a
    z = 1.0
    if not (tau > 0.0 and w_sq + 2.0 * tau * m + tau * tau * a <= b2):
        if w_sq > b2 and m * beta >= math.sqrt(w_sq):
            tau, z = 0.0, math.sqrt(w_sq) / beta
        else:
            den = b2 * a - 1.0
            if den < 0.0:  # infeasible
                scal[KS.STEPS] += 1.0
                return f, sign(f), False, 0.0
            if den == 0.0:  # the one feasible point
                space = room_for(idx, val, vecs, scal, hp)
                if space == MUST_GROW:
                    return INF, 1.0, False, 0.0
                clear(vecs, scal)
                append(idx, val, xx, vecs, scal, y / a)
                scal[KS.FNORM2] = 1.0 / a
                scal[KS.STEPS] += 1.0
                return f, sign(f), True, 1.0 / a
            num = w_sq * a - m * m
            if num > 0.0:
                z = max(1.0, math.sqrt(num / den))
            tau = max(0.0, z - m) / a
    space = FULL
    if tau > 0.0:
        space = room_for(idx, val, vecs, scal, hp)
        if space == MUST_GROW:
            return INF, 1.0, False, 0.0
    removing = tau > 0.0 and space == FULL
    k_new_old = 0.0
    f_old = 0.0
    c_old = 0.0
    k_old = 0.0
    if removing:  # what the oldest row's removal needs, before the update moves f
        r = slot_at(vecs, scal, 0)
        k_new_old = scal[base(vecs, KROW) + r]
        c_old = coefficient(vecs, scal, r)
        sq = scal[base(vecs, SQNORM) + r]
        k_old = kernel_value(hp, vecs, sq, sq, sq)
        f_old = stored_value(vecs, scal, hp, r, fast)
    if tau > 0.0:
        coef = tau * y / scal[KS.SCALE]
        if not math.isfinite(coef):
            return INF, 1.0, False, 0.0
        _store(idx, val, xx, vecs, scal, coef, space)
    shrink(vecs, scal, 1.0 / z)
    norm2 = (w_sq + 2.0 * tau * m + tau * tau * a) / (z * z)
    if removing:
        c = c_old / z
        f_at_old = (f_old + tau * y * k_new_old) / z
        norm2 = norm2 - 2.0 * c * f_at_old + c * c * k_old
    scal[KS.FNORM2] = max(norm2, 0.0)
    scal[KS.STEPS] += 1.0
    return f, sign(f), True, tau


@jit(inline=INLINE)
def _psi(lam, mu):
    """Ψ(λ, μ) = λ² + 2λ − 2λμ (Dekel et al. 2008, §4)."""
    return lam * lam + 2.0 * lam - 2.0 * lam * mu


@jit(inline=INLINE)
def forgetron_phi(sigma, mu, q, mistakes):
    """φ = max{φ ∈ (0, 1] : Q + Ψ(σφ, μφ) ≤ (15/32)M}: g(φ) = (σ² − 2σμ)φ² + 2σφ + c,
    c = Q − 15M/32 < 0 (Q ≤ 15(M − 1)/32 by induction), so φ = 1 when g(1) ≤ 0, else the
    root of g in (0, 1), −2c/(b + √(b² − 4ac)) (cancellation-free, any sign of a)."""
    a = sigma * sigma - 2.0 * sigma * mu
    b = 2.0 * sigma
    c = q - 15.0 * mistakes / 32.0
    if a + b + c <= 0.0:
        return 1.0
    return -2.0 * c / (b + math.sqrt(b * b - 4.0 * a * c))


@jit(inline=INLINE)
def forgetron_step(idx, val, y, vecs, ints, scal, hp, fast):
    """The self-tuned Forgetron (Dekel, Shalev-Shwartz & Singer 2008, §4): on a mistake
    (y·f(x) ≤ 0) add x with σ = 1; with B + 1 rows, r the oldest, μ = y_r f′(x_r) (f′ with
    x added), φ = :func:`forgetron_phi` (the damage Ψ of removing r from f″ = φf′ is
    Ψ(σ_r φ, y_r f″(x_r)) = Ψ(σ_r φ, μφ); M: mistakes so far, this one included),
    f ← φ·(f′ − σ_r y_r k(x_r, ·)) and Q ← Q + Ψ(σ_r φ, μφ). ``aux``: φ (1 without a
    removal)."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    upd = y * f <= 0.0
    phi = 1.0
    if upd:
        space = room_for(idx, val, vecs, scal, hp)
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
            phi = forgetron_phi(sigma, mu, scal[KS.Q], scal[KS.MISTAKES])
            scal[KS.Q] += _psi(sigma * phi, mu * phi)
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
        space = room_for(idx, val, vecs, scal, hp)
        if space == MUST_GROW:
            return INF, 1.0, False, 0.0
        coef = eta * y / (scal[KS.SCALE] * (1.0 - eta * hp[NHP.LAM]))
        if not math.isfinite(coef):
            return INF, 1.0, False, 0.0
        _store(idx, val, xx, vecs, scal, coef, space)
    shrinks = hp[NHP.LAM] > 0.0 and scal[KS.N_STORED] > 0.0
    shrink(vecs, scal, 1.0 - eta * hp[NHP.LAM])
    window = hp[NHP.TAU]
    if window > 0.0:
        while scal[KS.N_STORED] > 0.0 and \
                scal[base(vecs, BORN) + slot_at(vecs, scal, 0)] <= t - window:
            remove(vecs, scal, 0)
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd or shrinks, 1.0 if upd else 0.0
