"""Averaged weights in O(nnz(x)) per row: the lazy sum of the iterates (``average=``).

The averaged perceptron predicts with the average of the weight vectors the online learner
went through (Freund & Schapire 1999, "Large margin classification using the perceptron
algorithm", Machine Learning 37(3): the voted perceptron and its averaged form; Collins
2002, the averaged perceptron for tagging). Summing the iterates explicitly costs O(d) per
row; the *lazy sum* (Daumé III 2006, PhD thesis, the averaged perceptron's implementation
trick; Bottou 2012, "Stochastic gradient descent tricks", the sparse trick for averaged SGD
on scaled vectors, which scikit-learn cites) keeps the sum with work only on the
coordinates a row changes. We follow scikit-learn's implementation exactly
(``sklearn/utils/_weight_vector.pyx.tp``, ``WeightVector.add_average`` and
``reset_wscale``; ``sklearn/linear_model/_sgd_fast.pyx.tp``, ``_plain_sgd``), so that the
averaged models agree with ``SGDClassifier(average=...)`` bit for bit where the iterates
do.

State (``layouts/averaging.py``): the row u = ``avg_sum`` and, from the block's first slot,
``rows`` t, ``count`` n, ``a``, ``b``, ``bias``, [``base_scale``]. The weight vector is
w = s·v (s = 1 for the rules without a scale). After the rule's own update on row t:

    if t ≥ start:   n ← n + 1
        u ← u + (a·x)·(−c/s)          on the nonzeros of x, only if the row moved v by (c/s)·x
        b ← b/(1 − 1/n)  (n > 1),     a ← a + (1/n)·b·s
        avg_bias ← avg_bias + (bias − avg_bias)/n

and the average of the iterates w_start..w_t is (u + a·v)·(1/b). (With s = 1: a = b = n,
u = −Σ_k (k−1)·Δw_k, and (u + n·w)/n = the mean, by summation by parts.) Nothing is O(d).

Numerical care over long streams:
- The counters are exact: n, t are integers in float64 (exact to 2⁵³ rows). a and b grow
  like n; the recursion b ← b/(1 − 1/n) stays within 1 ulp of n (measured up to n = 2·10⁶,
  ``tests/learners/averaging``) and a = Σ (1/n)·b·s snaps to the integer n when s = 1. No overflow
  below ~10³⁰⁰/|w| rows.
- Cancellation: u and a·v are each ~n·|w| and their sum is n·|mean|; the rounding left in
  the mean is ~ε·(number of updates of a coordinate)·max|w| — the same order as the
  rounding already in the iterate w itself — and less than an explicit running sum of the
  iterates (ε·n·max|w|). Tested on 200,000 rows against an exactly rounded sum.
- Scaled vectors (SGD with an L2 penalty: s decays geometrically): a·v grows like
  (Σ_k s_k)/s·|w|, which would cancel catastrophically as s → 0 (scikit-learn rebases only
  when s < 1e-9, losing up to ~8 digits). We **rebase** — u ← (u + a·v)·(1/b), a ← 0,
  b ← 1, scikit-learn's ``reset_wscale`` step for the average, O(d) — whenever the scale
  has fallen by 2¹⁰ since the last rebase (and before the scaled-vector kernel folds or
  clears v): at most ~2 digits lost, and O(d) work once per ~7/(η_tλ) rows. [Decision]
  Until the first rebase the arithmetic is scikit-learn's, bit for bit.
"""
import numpy as np

from ..caching import jit
from .vector import COLD, INLINE, SHARED, dot
from ..layouts.averaging import AveragingScal

ROWS, COUNT, A, B, BIAS, BASE_SCALE = (AveragingScal.ROWS, AveragingScal.COUNT, AveragingScal.A,
                                       AveragingScal.B, AveragingScal.BIAS,
                                       AveragingScal.BASE_SCALE)
#: Rebase when the scale has fallen below base_scale·REBASE_DECAY (see the docstring).
REBASE_DECAY = 2.0 ** -10


@jit(inline=INLINE)
def average_start(hp, slot):
    """The row from which the iterates are averaged (hp[slot], the ``average`` field; 1 if
    ``hp`` is shorter: a state and hyper-parameters out of step are refused by the learner
    before any compiled code runs, this only keeps the read in bounds)."""
    return hp[slot] if hp.shape[0] > slot else 1.0


@jit(inline=INLINE)
def _add_to_sum(u, a, k, idx, val):
    """u += (a·x)·k on the nonzeros of x (scikit-learn's order of the products)."""
    if idx is None:
        if val is not None:  # see kernels/vector.py
            for j in range(val.shape[0]):
                u[j] += (a * val[j]) * k
    elif val is None:  # a binary row: a·1.0 = a
        ak = a * k
        for q in range(idx.shape[0]):
            u[idx[q]] += ak
    else:
        for q in range(idx.shape[0]):
            u[idx[q]] += (a * val[q]) * k


# The per-row averaging and the averaged score are compiled once per row layout and called
# (``kernels.SHARED``): IR-inlined (numba) they would be copied into every step and score site,
# and LLVM-inlined (``forceinline``) each step would be re-optimized with four copies of the
# body (PA's passive exits); both cost the linear family 2-2.7× its cold compile time
# (measured with numba's compile events). A call per averaged row costs little next to it.
#
# The rules pass ``first`` and ``slot`` as their layouts' IntEnum members, each layout's enum a
# numba type of its own: the thin inlined entry below turns them into plain int64, so that
# the shared body compiles once per row type, not once per row type and layout (the linear
# family's perceptron and PA layouts would compile it twice per row type: 3.6 CPU-s, not 1.7).
# Not done for ``averaged_score``: every family calls it with one layout, and the same entry
# around it costs W1's averaged perceptron 15 % (122 ns/row, not 106; benchmarks/averaging.py).
@jit(inline=INLINE)
def average_step(idx, val, u, scal, first, hp, slot, c, s, bias):
    """Account row t in the average, after the rule moved v by (c/s)·x (c = 0: it did not)
    and its bias is ``bias``; ``first``: the block's first slot in ``scal``; hp[slot]: the
    ``average`` field (``average_start``)."""
    _average_step(idx, val, u, scal, np.int64(first), hp, np.int64(slot), c, s, bias)


@jit(inline=SHARED)
def _average_step(idx, val, u, scal, first, hp, slot, c, s, bias):
    t = scal[first + ROWS] + 1.0
    scal[first + ROWS] = t
    if t < average_start(hp, slot):
        return
    if c != 0.0:
        _add_to_sum(u, scal[first + A], -c / s, idx, val)
    n = scal[first + COUNT] + 1.0
    scal[first + COUNT] = n
    mu = 1.0 / n
    if n > 1.0:
        scal[first + B] /= (1.0 - mu)
    scal[first + A] += mu * scal[first + B] * s
    scal[first + BIAS] += (bias - scal[first + BIAS]) / n


@jit(inline=COLD)
def average_rebase(u, v, scal, first):
    """u ← (u + a·v)·(1/b), a ← 0, b ← 1 (O(d)): the same average, with the lazy sum
    restarted (scikit-learn's ``reset_wscale`` for the average)."""
    a = scal[first + A]
    inv = 1.0 / scal[first + B]
    for j in range(u.shape[0]):
        u[j] = (u[j] + a * v[j]) * inv
    scal[first + A] = 0.0
    scal[first + B] = 1.0


@jit(inline=INLINE)
def needs_rebase(scal, first, after, in_range):
    """Whether the average must be rebased before the scale becomes ``after`` (0: v is
    cleared; ``in_range`` False: the kernel will fold v)."""
    return after == 0.0 or not in_range or after < scal[first + BASE_SCALE] * REBASE_DECAY


@jit(inline=SHARED)
def averaged_score(u, v, idx, val, scal, first, fast):
    """x·(u + a·v)·(1/b) + avg_bias: the averaged model's decision value."""
    a = scal[first + A]
    su = dot(u, idx, val, fast)
    sv = dot(v, idx, val, fast)
    return (su + a * sv) * (1.0 / scal[first + B]) + scal[first + BIAS]
