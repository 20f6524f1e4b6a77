"""The support-set core of the ``kernel`` family (layout: ``layouts/kernel.py``): a pool of n
stored rows x_s stored by feature in P (d, cap), their squared norms, their coefficients a_s
and a global scale S, so that f(x) = S·Σ_s a_s k(x_s, x).

Per row, :func:`kernel_row` computes the kernel row k(x_s, x) of the n slots once (into the
KROW scratch block), which the rule then reads as often as it needs: O(n·nnz(x)) for a CSR row
(nnz(x) passes over P[j, :n], contiguous), O(n·d') for a dense row of d' nonzero entries.
Kernels (scikit-learn's names and parameters, ``sklearn.metrics.pairwise``):
  linear  k(x, z) = x·z
  poly    k(x, z) = (γ·x·z + coef0)^degree
  rbf     k(x, z) = exp(−γ‖x − z‖²), ‖x − z‖² = ‖x‖² + ‖z‖² − 2x·z from the stored norms
          (clipped at 0 against rounding, as scikit-learn's ``euclidean_distances``)
plus 1 when ``fit_intercept``: the bias is the coefficient sum times a constant feature 1.

Shrinking f by c (NORMA's 1 − ηλ, the regularized PA's 1/(1 + α), the Forgetron's φ) is
S ← c·S in O(1); S is folded into the coefficients when it leaves [1e-100, 1e100].
Removing a row (oldest, or a given position) moves the last slot into the freed one, so the
slots in use stay 0..n−1; ORDER keeps positions oldest first.
"""
import math

from ..caching import jit
from ..kernels.vector import COLD, INLINE
from ..layouts.kernel import ALPHA, BORN, HEADER, KROW, ORDER, POLY, RBF, SQNORM
from ..layouts.kernel import KernelHP as KHP
from ..layouts.kernel import KernelScal as KS

SCALE, N, STEPS, GROW = KS.SCALE, KS.N_STORED, KS.STEPS, KS.GROW

# What :func:`room` answers.
ROOM, MUST_GROW, FULL = 0, 1, 2


@jit(inline=INLINE)
def base(P, which):
    """Where block ``which`` starts in scal."""
    return HEADER + which * P.shape[1]


@jit(inline=INLINE)
def kernel_value(hp, p, xx, zz):
    """k(x, z) (+1 with fit_intercept) from x·z, ‖x‖² and ‖z‖²."""
    kind = hp[KHP.KERNEL]
    if kind == RBF:
        d2 = xx + zz - 2.0 * p
        if d2 < 0.0:
            d2 = 0.0
        k = math.exp(-hp[KHP.GAMMA] * d2)
    elif kind == POLY:
        k = (hp[KHP.GAMMA] * p + hp[KHP.COEF0]) ** hp[KHP.DEGREE]
    else:
        k = p
    return k + hp[KHP.FIT_INTERCEPT]


@jit(inline=INLINE)
def _dots(idx, val, P, kr, n):
    """kr[s] ← x_s·x for the n slots, feature by feature (the same order for dense and CSR
    rows: a dense row's zero entries add nothing and are skipped)."""
    for s in range(n):
        kr[s] = 0.0
    if idx is None:
        if val is not None:  # numba types every branch it cannot prune
            for j in range(val.shape[0]):
                x = val[j]
                if x != 0.0:
                    row = P[j]
                    for s in range(n):
                        kr[s] += row[s] * x
    elif val is not None:
        for q in range(idx.shape[0]):
            x = val[q]
            row = P[idx[q]]
            for s in range(n):
                kr[s] += row[s] * x


@jit(inline=INLINE)
def _transform(hp, kr, sq, al, xx, n):
    """kr[s] ← k(x_s, x) from the dots; returns Σ_s a_s·k(x_s, x) (slot order)."""
    acc = 0.0
    kind = hp[KHP.KERNEL]
    bias = hp[KHP.FIT_INTERCEPT]
    if kind == RBF:
        g = hp[KHP.GAMMA]
        for s in range(n):
            d2 = xx + sq[s] - 2.0 * kr[s]
            if d2 < 0.0:
                d2 = 0.0
            k = math.exp(-g * d2) + bias
            kr[s] = k
            acc += al[s] * k
    elif kind == POLY:
        g, c0, deg = hp[KHP.GAMMA], hp[KHP.COEF0], hp[KHP.DEGREE]
        for s in range(n):
            k = (g * kr[s] + c0) ** deg + bias
            kr[s] = k
            acc += al[s] * k
    else:
        for s in range(n):
            k = kr[s] + bias
            kr[s] = k
            acc += al[s] * k
    return acc


@jit(inline=INLINE)
def kernel_row(idx, val, xx, P, scal, hp):
    """Fill KROW with k(x_s, x) for the n stored rows; returns f(x) = S·Σ a_s k(x_s, x)."""
    n = int(scal[N])
    kr = scal[base(P, KROW):base(P, KROW) + n]
    _dots(idx, val, P, kr, n)
    acc = _transform(hp, kr, scal[base(P, SQNORM):base(P, SQNORM) + n],
                     scal[base(P, ALPHA):base(P, ALPHA) + n], xx, n)
    return scal[SCALE] * acc


@jit(inline=COLD)
def stored_value(P, scal, hp, r):
    """f(x_r) of the stored row in slot r, O(n·d); overwrites KROW."""
    n = int(scal[N])
    kr = scal[base(P, KROW):base(P, KROW) + n]
    for s in range(n):
        kr[s] = 0.0
    for j in range(P.shape[0]):
        x = P[j, r]
        if x != 0.0:
            row = P[j]
            for s in range(n):
                kr[s] += row[s] * x
    acc = _transform(hp, kr, scal[base(P, SQNORM):base(P, SQNORM) + n],
                     scal[base(P, ALPHA):base(P, ALPHA) + n], scal[base(P, SQNORM) + r], n)
    return scal[SCALE] * acc


@jit(inline=INLINE)
def room(P, scal, hp):
    """ROOM: a free slot; MUST_GROW: the arrays are full below the budget (GROW is set: the
    learner doubles them and the loop resumes this row); FULL: n = budget."""
    n = int(scal[N])
    if n < P.shape[1]:
        return ROOM
    budget = hp[KHP.BUDGET]
    if budget == 0.0 or P.shape[1] < budget:
        scal[GROW] = 1.0
        return MUST_GROW
    return FULL


@jit(inline=INLINE)
def _write(idx, val, xx, P, scal, slot, coef):
    """Store x in ``slot`` with raw coefficient ``coef`` (units of S), born now."""
    if idx is None:
        if val is not None:
            for j in range(val.shape[0]):
                P[j, slot] = val[j]
    else:
        for j in range(P.shape[0]):
            P[j, slot] = 0.0
        if val is not None:
            for q in range(idx.shape[0]):
                P[idx[q], slot] = val[q]
    scal[base(P, ALPHA) + slot] = coef
    scal[base(P, SQNORM) + slot] = xx
    scal[base(P, BORN) + slot] = scal[STEPS]


@jit(inline=INLINE)
def append(idx, val, xx, P, scal, coef):
    """Store x as the newest row (a free slot must exist: :func:`room`)."""
    n = int(scal[N])
    _write(idx, val, xx, P, scal, n, coef)
    scal[base(P, ORDER) + n] = n
    scal[N] = n + 1


@jit(inline=INLINE)
def slot_at(P, scal, position):
    return int(scal[base(P, ORDER) + position])


@jit(inline=COLD)
def replace(idx, val, xx, P, scal, position, coef):
    """Remove the row at ``position`` (0: the oldest) and store x, as the newest, in its slot."""
    n = int(scal[N])
    o = base(P, ORDER)
    slot = scal[o + position]
    for p in range(position, n - 1):
        scal[o + p] = scal[o + p + 1]
    scal[o + n - 1] = slot
    _write(idx, val, xx, P, scal, int(slot), coef)
    scal[KS.REMOVED] += 1.0


@jit(inline=COLD)
def remove(P, scal, position):
    """Remove the row at ``position``; the last slot moves into the freed one."""
    n = int(scal[N])
    o = base(P, ORDER)
    slot = int(scal[o + position])
    for p in range(position, n - 1):
        scal[o + p] = scal[o + p + 1]
    last = n - 1
    if slot != last:
        for j in range(P.shape[0]):
            P[j, slot] = P[j, last]
        for which in (ALPHA, SQNORM, BORN, KROW):
            scal[base(P, which) + slot] = scal[base(P, which) + last]
        for p in range(n - 1):
            if scal[o + p] == last:
                scal[o + p] = slot
    scal[N] = last
    scal[KS.REMOVED] += 1.0


@jit(inline=COLD)
def clear(P, scal):
    """Remove every row (S = 1, ‖f‖² = 0)."""
    scal[KS.REMOVED] += scal[N]
    scal[N] = 0.0
    scal[SCALE] = 1.0
    scal[KS.FNORM2] = 0.0


@jit(inline=COLD)
def _fold(P, scal):
    s = scal[SCALE]
    a = base(P, ALPHA)
    for q in range(int(scal[N])):
        scal[a + q] *= s
    scal[SCALE] = 1.0


@jit(inline=INLINE)
def shrink(P, scal, c):
    """f ← c·f in O(1) (S ← c·S; folded into the coefficients when S leaves its range)."""
    s = scal[SCALE] * c
    scal[SCALE] = s
    if not (1e-100 <= abs(s) <= 1e100):
        _fold(P, scal)


@jit(inline=INLINE)
def coefficient(P, scal, slot):
    """a_s·S: the coefficient of slot ``slot`` with the scale applied."""
    return scal[base(P, ALPHA) + slot] * scal[SCALE]
