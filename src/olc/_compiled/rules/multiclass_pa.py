"""The multiclass Passive-Aggressive rule with K prototypes (Crammer, Dekel, Keshet,
Shalev-Shwartz & Singer 2006, "Online Passive-Aggressive Algorithms", JMLR 7, §7) — the
max-loss update on a single-label stream, in the multi-prototype construction.

Construction (§7). One weight vector w = (w_1, …, w_K) and Φ(x, y) = x in block y, zeros
elsewhere, so w·Φ(x, y) = w_y·x and ‖Φ(x, y) − Φ(x, r)‖² = 2‖x‖² for r ≠ y. On a row (x, y):
- predict ŷ = argmax_c w_c·x + b_c (the first class on ties, as ``numpy.argmax``);
- r = the highest-scoring wrong class, argmax_{c ≠ y} (the first on ties);
- ℓ = max(0, 1 − (s_y − s_r)), s_c = w_c·x + b_c;
- if ℓ > 0: w_y ← w_y + τx, w_r ← w_r − τx (and b_y ← b_y + τ, b_r ← b_r − τ), with
  q = ‖Φ(x,y) − Φ(x,r)‖² = 2(‖x‖² + [fit_intercept]) and
  τ = ℓ/q (PA), min(C, ℓ/q) (PA-I), ℓ/(q + 1/(2C)) (PA-II).
This is the exact solution of min ½‖W′ − W‖² (+ Cξ, + Cξ²) s.t. s′_y − s′_r ≥ 1 (− ξ), the
one constraint between y and r (tested against a QP solver, ``tests/learners/exactness``).

[Decision] The bias b_c is the weight of a constant feature 1 in Φ(x, c)'s block, for all
three variants: it counts in q (the problem above is solved exactly over (W, b)). The
binary PA-I/PA-II leave it out of the norm for parity with scikit-learn; there is no such
counterpart here, and counting it keeps the step the exact projection.
[Decision] x = 0 without a bias: the margin (w′_y − w′_r)·0 = 0 is the same for every W′,
so the problem's solution is W′ = W for every variant (PA's constraint is infeasible;
PA-I/PA-II pay the slack): no update, as the binary PA skips it.

Contract of the ``loops/multiclass.py`` template: ``family_step(rule, idx, val, label, W,
by_feature, ints, scal, hp, fast, acc)`` sees the K prototypes as one C-contiguous matrix
``W``: (d, K) when ``by_feature`` (``W[j, c]`` = w_c[j]; the K weights of a feature share a
cache line, so a CSR row reads one or a few lines per stored value, not K far-apart ones),
else (K, d) by class (``layouts/multiclass_pa.py`` chooses by K·d; the learner's ``vecs``
(K, 1, d) is a view of W either way), ``ints`` (K, 0), ``scal`` (K, 1), ``hp`` (K, n_hp),
the row's class index and a scratch ``acc`` (K,); it returns (predicted class, its score,
updated, τ). A row with a NaN/inf value gives a non-finite score and changes nothing; a step
that would not be finite is declined and reported as an infinite score.
``family_score(rule, idx, val, W, by_feature, ints, scal, hp, fast, acc, out)`` writes the K
scores.

Arithmetic: each class's score is summed in the order of ``kernels.dot`` on that class's own
vector — CSR: strictly left to right, or (``fast``) its four partial sums (term k to sum
k mod 4, the tail to the first, then (s₀ + s₁) + (s₂ + s₃)) — so the results are bit for bit
those of the per-class order. Dense rows by feature: strictly left to right in both modes
(SIMD runs across the classes), where the per-class order lets LLVM reassociate the fast SIMD
dot (machine-dependent bits): fast dense results differ by rounding between the two orders,
nothing else does (tested).
"""
import math

from ..caching import jit
from ..kernels.vector import INLINE, LLVM_INLINE, axpy, dot, sqnorm
from ..layouts.linear import LinearScal
from ..layouts.multiclass_pa import PA_I, PA_II
from ..layouts.multiclass_pa import MulticlassPAHP as HP

BIAS = LinearScal.BIAS


@jit(inline=INLINE)
def _four_sequential(idx, val, W, c0, c1, c2, c3):
    """Σ_k w_c[j_k]·x_k strictly left to right for the classes c0..c3 (four chains in
    registers; a dense row when idx is None)."""
    a0 = a1 = a2 = a3 = 0.0
    if idx is None:
        if val is not None:  # numba types every branch it cannot prune
            for j in range(val.shape[0]):
                x = val[j]
                a0 += W[j, c0] * x
                a1 += W[j, c1] * x
                a2 += W[j, c2] * x
                a3 += W[j, c3] * x
    else:
        for k in range(idx.shape[0]):
            j, x = idx[k], val[k]
            a0 += W[j, c0] * x
            a1 += W[j, c1] * x
            a2 += W[j, c2] * x
            a3 += W[j, c3] * x
    return a0, a1, a2, a3


@jit(inline=INLINE)
def _two_split(idx, val, W, c0, c1):
    """The CSR dot of classes c0, c1 in ``kernels.sparse_dot_split_reference``'s order: term
    k to partial sum k mod 4, the last n mod 4 terms to the first, (s₀ + s₁) + (s₂ + s₃)."""
    n = idx.shape[0]
    m = n - n % 4
    p0 = p1 = p2 = p3 = q0 = q1 = q2 = q3 = 0.0
    for k in range(0, m, 4):
        j0, j1, j2, j3 = idx[k], idx[k + 1], idx[k + 2], idx[k + 3]
        x0, x1, x2, x3 = val[k], val[k + 1], val[k + 2], val[k + 3]
        p0 += W[j0, c0] * x0
        p1 += W[j1, c0] * x1
        p2 += W[j2, c0] * x2
        p3 += W[j3, c0] * x3
        q0 += W[j0, c1] * x0
        q1 += W[j1, c1] * x1
        q2 += W[j2, c1] * x2
        q3 += W[j3, c1] * x3
    for k in range(m, n):
        p0 += W[idx[k], c0] * val[k]
        q0 += W[idx[k], c1] * val[k]
    return (p0 + p1) + (p2 + p3), (q0 + q1) + (q2 + q3)


@jit()
def _dense_by_feature(val, W, scores):
    """scores[c] ← w_c·x over a dense row, feature by feature: the inner loop runs across the
    K classes of a feature (SIMD, contiguous), so each class's sum is strictly left to right —
    in fast mode too. A call (not inlined): kept apart, LLVM vectorizes it. Measured in plain
    Numba, d = 2^15, K = 10: 1.1–1.3× the per-class SIMD dots of the by-class order (register
    sums over groups of classes streamed W once per group: 2.3×)."""
    for c in range(scores.shape[0]):
        scores[c] = 0.0
    for j in range(val.shape[0]):
        x = val[j]
        for c in range(scores.shape[0]):
            scores[c] += W[j, c] * x


@jit(inline=INLINE)
def prototype_scores(idx, val, W, by_feature, scal, fast, acc):
    """acc[c] ← s_c = w_c·x + b_c for every class c. By class: ``kernels.dot`` on each row
    of W. By feature, CSR rows: a few classes at a time, feature by feature, their sums in
    registers (a group past the last class repeats the last class: the same sum, written
    twice); dense rows: ``_dense_by_feature``."""
    last = acc.shape[0] - 1
    if not by_feature:
        for c in range(last + 1):
            acc[c] = dot(W[c], idx, val, fast) + scal[c, BIAS]
        return
    if idx is None:
        if val is not None:  # numba types every branch it cannot prune
            _dense_by_feature(val, W, acc)
    elif fast:
        for c0 in range(0, last + 1, 2):
            c1 = min(c0 + 1, last)
            acc[c0], acc[c1] = _two_split(idx, val, W, c0, c1)
    else:
        for c0 in range(0, last + 1, 4):
            c1, c2, c3 = min(c0 + 1, last), min(c0 + 2, last), min(c0 + 3, last)
            acc[c0], acc[c1], acc[c2], acc[c3] = _four_sequential(
                idx, val, W, c0, c1, c2, c3)
    for c in range(last + 1):
        acc[c] += scal[c, BIAS]


@jit(inline=INLINE)
def move_pair(idx, val, W, by_feature, label, rival, tau):
    """w_label ← w_label + τx, w_rival ← w_rival − τx (x's nonzeros only)."""
    if not by_feature:
        axpy(tau, idx, val, W[label])
        axpy(-tau, idx, val, W[rival])
    elif idx is None:
        if val is not None:
            for j in range(val.shape[0]):
                W[j, label] += tau * val[j]
                W[j, rival] += -tau * val[j]
    else:
        for k in range(idx.shape[0]):
            j = idx[k]
            W[j, label] += tau * val[k]
            W[j, rival] += -tau * val[k]


@jit(forceinline=LLVM_INLINE)
def multiclass_pa_step(idx, val, label, W, by_feature, ints, scal, hp, fast, acc):
    """One round (module docstring): (ŷ, s_ŷ, updated, τ)."""
    prototype_scores(idx, val, W, by_feature, scal, fast, acc)
    best, best_score, rival, rival_score, true_score = 0, 0.0, -1, 0.0, 0.0
    for c in range(acc.shape[0]):
        s = acc[c]
        if not math.isfinite(s):
            return 0, s, False, 0.0  # NaN/inf row or overflow: the loop stops
        if c == 0 or s > best_score:
            best, best_score = c, s
        if c == label:
            true_score = s
        elif rival < 0 or s > rival_score:
            rival, rival_score = c, s
    ell = 1.0 - (true_score - rival_score)
    fit_bias = hp[0, HP.FIT_INTERCEPT] != 0.0
    q = sqnorm(idx, val) + (1.0 if fit_bias else 0.0)
    if not ell > 0.0 or q == 0.0:
        return best, best_score, False, 0.0
    q *= 2.0  # ‖Φ(x, y) − Φ(x, r)‖²
    variant = hp[0, HP.VARIANT]
    if variant == PA_II:
        tau = ell / (q + hp[0, HP.KAPPA])
    else:
        tau = ell / q
        if variant == PA_I and tau > hp[0, HP.C]:
            tau = hp[0, HP.C]
    if not (math.isfinite(tau * math.sqrt(q)) and math.isfinite(scal[label, BIAS] + tau)
            and math.isfinite(scal[rival, BIAS] - tau)):
        return best, math.inf, False, 0.0
    move_pair(idx, val, W, by_feature, label, rival, tau)
    if fit_bias:
        scal[label, BIAS] += tau
        scal[rival, BIAS] -= tau
    return best, best_score, True, tau


# -- family dispatchers (inlined into the family's loops) ------------------------------------

@jit(inline=INLINE)
def family_score(rule, idx, val, W, by_feature, ints, scal, hp, fast, acc, out):
    prototype_scores(idx, val, W, by_feature, scal, fast, acc)
    for c in range(acc.shape[0]):
        out[c] = acc[c]


@jit(inline=INLINE)
def family_step(rule, idx, val, label, W, by_feature, ints, scal, hp, fast, acc):
    return multiclass_pa_step(idx, val, label, W, by_feature, ints, scal, hp, fast, acc)
