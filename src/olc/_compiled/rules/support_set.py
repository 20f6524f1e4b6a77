"""The support-set core of the ``kernel`` family (layout: ``layouts/kernel.py``): a pool of n
stored rows x_s, their squared norms, their coefficients a_s and a global scale S, so that
f(x) = S·Σ_s a_s k(x_s, x). The rows are stored by feature in a (d, cap) block, or as a CSR
slab (``layouts/kernel_csr.py``, ``csr_pool``); P is the pool: (vecs, ints) in the
``kernel``, ``kernel_extra`` and ``nystrom`` families.

Per row, :func:`kernel_row` computes the kernel row k(x_s, x) of the n slots once (into the
KROW scratch block), which the rule then reads as often as it needs: O(n·nnz(x)) for a CSR row
(nnz(x) passes over P[j, :n], contiguous), O(n·d') for a dense row of d' nonzero entries.
Kernels (scikit-learn's names and parameters, ``sklearn.metrics.pairwise``):
  linear  k(x, z) = x·z
  poly    k(x, z) = (γ·x·z + coef0)^degree
  rbf     k(x, z) = exp(−γ‖x − z‖²), ‖x − z‖² = ‖x‖² + ‖z‖² − 2x·z from the stored norms
          (clipped at 0 against rounding, as scikit-learn's ``euclidean_distances``); exp by
          :func:`exp_nonpositive`, a few ulps from libm's
plus 1 when ``fit_intercept``: the bias is the coefficient sum times a constant feature 1.

Shrinking f by c (NORMA's 1 − ηλ, the regularized PA's 1/(1 + α), the Forgetron's φ) is
S ← c·S in O(1); S is folded into the coefficients when it leaves [1e-100, 1e100].
Removing a row (oldest, or a given position) moves the last slot into the freed one, so the
slots in use stay 0..n−1; ORDER keeps positions oldest first.
"""
import math

import numba as nb
from llvmlite import ir
from numba import types
from numba.extending import intrinsic, overload

from ..caching import jit
from ..kernels.vector import COLD, INLINE, _dense_dot_reassoc, _dense_dot_strict
from ..layouts.kernel import ALPHA, BORN, HEADER, KROW, ORDER, POLY, RBF, SQNORM
from ..layouts.kernel import KernelHP as KHP
from ..layouts.kernel import KernelScal as KS
from .csr_pool import (capacity, n_features, pool_clear, pool_dots, pool_has_room,
                       pool_remove, pool_stored_dots, pool_write)

SCALE, N, STEPS, GROW = KS.SCALE, KS.N_STORED, KS.STEPS, KS.GROW

# exp on (−∞, 0] (the RBF kernel's argument): fdlibm's reduction x = k·ln2 + r, |r| ≤ ln2/2,
# with ln2 split in two (k·LN2_HI is exact), e^r by its Taylor polynomial of degree 13
# (truncation < 1e-17 relative), 2^k from its exponent bits. A few ulps from libm's exp
# (tested), and no call: LLVM vectorizes the kernel row's loop (libm's exp was ~2/3 of an
# RBF perceptron's time on a9a).
_LOG2E = 1.4426950408889634
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_EXP_MIN = -708.0  # below, e^x is subnormal or 0: 0 is returned


@intrinsic
def _float_from_bits(typingctx, bits):
    """The float64 whose IEEE bits are the int64 ``bits``."""
    if not isinstance(bits, types.Integer) or bits.bitwidth != 64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(bits), codegen


@jit(inline=INLINE)
def exp_nonpositive(x):
    """e^x for x ≤ 0 (see above); 0 below −708."""
    inside = x >= _EXP_MIN
    x = max(x, _EXP_MIN)
    k = math.floor(x * _LOG2E + 0.5)
    r = (x - k * _LN2_HI) - k * _LN2_LO
    p = 1.0 / 6227020800.0
    p = p * r + 1.0 / 479001600.0
    p = p * r + 1.0 / 39916800.0
    p = p * r + 1.0 / 3628800.0
    p = p * r + 1.0 / 362880.0
    p = p * r + 1.0 / 40320.0
    p = p * r + 1.0 / 5040.0
    p = p * r + 1.0 / 720.0
    p = p * r + 1.0 / 120.0
    p = p * r + 1.0 / 24.0
    p = p * r + 1.0 / 6.0
    p = p * r + 0.5
    p = p * r + 1.0
    p = p * r + 1.0
    e = p * _float_from_bits((nb.int64(k) + nb.int64(1023)) << nb.int64(52))
    return e if inside else 0.0


# What :func:`room` answers.
ROOM, MUST_GROW, FULL = 0, 1, 2


@jit(inline=INLINE)
def base(P, which):
    """Where block ``which`` starts in scal."""
    return HEADER + which * capacity(P)


@jit(inline=INLINE)
def gamma(hp, P):
    """γ; 0 in ``hp`` stands for 1/d (scikit-learn's pairwise kernels' gamma=None)."""
    g = hp[KHP.GAMMA]
    return g if g > 0.0 else 1.0 / n_features(P)


@jit(inline=INLINE)
def kernel_value(hp, P, p, xx, zz):
    """k(x, z) (+1 with fit_intercept) from x·z, ‖x‖² and ‖z‖²."""
    kind = hp[KHP.KERNEL]
    if kind == RBF:
        d2 = max(xx + zz - 2.0 * p, 0.0)
        k = exp_nonpositive(-gamma(hp, P) * d2)
    elif kind == POLY:
        k = (gamma(hp, P) * p + hp[KHP.COEF0]) ** hp[KHP.DEGREE]
    else:
        k = p
    return k + hp[KHP.FIT_INTERCEPT]


@jit(inline=INLINE)
def _transform(hp, g, kr, sq, xx, n):
    """kr[s] ← k(x_s, x) from the dots x_s·x (no reduction in the loop, so LLVM vectorizes
    it, the RBF's exp included)."""
    kind = hp[KHP.KERNEL]
    bias = hp[KHP.FIT_INTERCEPT]
    if kind == RBF:
        for s in range(n):
            kr[s] = exp_nonpositive(-g * max(xx + sq[s] - 2.0 * kr[s], 0.0)) + bias
    elif kind == POLY:
        c0, deg = hp[KHP.COEF0], hp[KHP.DEGREE]
        for s in range(n):
            kr[s] = (g * kr[s] + c0) ** deg + bias
    elif bias != 0.0:
        for s in range(n):
            kr[s] += bias


@jit(inline=INLINE)
def _weighted_sum(al, kr, fast):
    """Σ_s a_s·k(x_s, x) in slot order (``fast``: reassociated, as ``kernels.dot``)."""
    if fast:
        return _dense_dot_reassoc(al, kr)
    return _dense_dot_strict(al, kr)


def is_filled(P):
    """Whether P is a *filled* pool, (vecs, ints, marker): its KROW already holds the kernel
    row of the row in hand (one-vs-rest computes it once for every class,
    ``rules/kernel_shared.py``), so :func:`kernel_row` only weighs it. Decided by P's type,
    at compile time."""
    return isinstance(P, types.BaseTuple) and len(P.types) == 3


def fill_row(idx, val, xx, P, kr, sq, hp, n):  # pragma: no cover - compiled only
    raise NotImplementedError


@overload(fill_row)  # not IR-inlined: the inlined copy trips numba's scope check
def _fill_row(idx, val, xx, P, kr, sq, hp, n):
    if is_filled(P):
        return lambda idx, val, xx, P, kr, sq, hp, n: None

    def impl(idx, val, xx, P, kr, sq, hp, n):
        pool_dots(idx, val, P, kr, n)
        _transform(hp, gamma(hp, P), kr, sq, xx, n)
    return impl


@jit(inline=INLINE)
def kernel_row(idx, val, xx, P, scal, hp, fast):
    """Fill KROW with k(x_s, x) for the n stored rows (a filled pool's is filled already:
    :func:`is_filled`); returns f(x) = S·Σ a_s k(x_s, x)."""
    n = int(scal[N])
    kr = scal[base(P, KROW):base(P, KROW) + n]
    fill_row(idx, val, xx, P, kr, scal[base(P, SQNORM):base(P, SQNORM) + n], hp, n)
    return scal[SCALE] * _weighted_sum(scal[base(P, ALPHA):base(P, ALPHA) + n], kr, fast)


@jit(inline=INLINE)
def clear_scratch(P, scal):
    """KROW ← 0 after a row: the scratch holds nothing between rows, so scoring and saving
    see the same state bits whatever rows were scored before."""
    n = int(scal[N])
    kr = scal[base(P, KROW):base(P, KROW) + n]
    for s in range(n):
        kr[s] = 0.0


@jit(inline=COLD)
def stored_value(P, scal, hp, r, fast):
    """f(x_r) of the stored row in slot r, O(n·d); overwrites KROW."""
    n = int(scal[N])
    kr = scal[base(P, KROW):base(P, KROW) + n]
    pool_stored_dots(P, r, kr, n)
    sq = scal[base(P, SQNORM):base(P, SQNORM) + n]
    _transform(hp, gamma(hp, P), kr, sq, scal[base(P, SQNORM) + r], n)
    return scal[SCALE] * _weighted_sum(scal[base(P, ALPHA):base(P, ALPHA) + n], kr, fast)


@jit(inline=INLINE)
def room(P, scal, hp):
    """ROOM: a free slot; MUST_GROW: the arrays are full below the budget (GROW is set: the
    learner doubles them and the loop resumes this row); FULL: n = budget."""
    n = int(scal[N])
    cap = capacity(P)
    if n < cap:
        return ROOM
    budget = hp[KHP.BUDGET]
    if budget == 0.0 or cap < budget:
        scal[GROW] = 1.0
        return MUST_GROW
    return FULL


@jit(inline=INLINE)
def room_for(idx, val, P, scal, hp):
    """:func:`room` for storing x; a CSR pool's slab must also hold x's entries (else
    MUST_GROW, the slab grows as the slots do)."""
    space = room(P, scal, hp)
    if space != MUST_GROW and not pool_has_room(idx, val, P, scal, base(P, ORDER),
                                                int(scal[N])):
        scal[GROW] = 1.0
        return MUST_GROW
    return space


@jit(inline=INLINE)
def _write(idx, val, xx, P, scal, slot, coef):
    """Store x in ``slot`` with raw coefficient ``coef`` (units of S), born now."""
    pool_write(idx, val, P, slot)
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
    pool_remove(P, int(slot), int(slot))  # the CSR pool frees the row's entries
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
    pool_remove(P, slot, last)
    if slot != last:
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
    pool_clear(P, int(scal[N]))
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
