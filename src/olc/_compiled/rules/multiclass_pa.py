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
one constraint between y and r (tested against a QP solver, ``tests/exactness``).

[Decision] The bias b_c is the weight of a constant feature 1 in Φ(x, c)'s block, for all
three variants: it counts in q (the problem above is solved exactly over (W, b)). The
binary PA-I/PA-II leave it out of the norm for parity with scikit-learn; there is no such
counterpart here, and counting it keeps the step the exact projection.
[Decision] x = 0 without a bias: the margin (w′_y − w′_r)·0 = 0 is the same for every W′,
so the problem's solution is W′ = W for every variant (PA's constraint is infeasible;
PA-I/PA-II pay the slack): no update, as the binary PA skips it.

Contract of the ``loops_multiclass.py`` template: ``family_step(rule, idx, val, label, vecs,
ints, scal, hp, fast)`` sees the K stacked states (``vecs`` (K, 1, d), ``ints`` (K, 0),
``scal`` (K, 1), ``hp`` (K, n_hp)) and the row's class index; it returns (predicted class,
its score, updated, τ). A row with a NaN/inf value gives a non-finite score and changes
nothing; a step that would not be finite is declined and reported as an infinite score.
``family_score(rule, idx, val, vecs, ints, scal, hp, fast, out)`` writes the K scores.
"""
import math

from ..caching import jit
from ..kernels import INLINE, LLVM_INLINE, axpy, dot, sqnorm
from ..layouts.linear import LinearScal, LinearVec
from ..layouts.multiclass_pa import PA_I, PA_II
from ..layouts.multiclass_pa import MulticlassPAHP as HP

BIAS, W = LinearScal.BIAS, LinearVec.W


@jit(inline=INLINE)
def prototype_score(c, idx, val, vecs, scal, fast):
    """s_c = w_c·x + b_c."""
    return dot(vecs[c, W], idx, val, fast) + scal[c, BIAS]


@jit(forceinline=LLVM_INLINE)
def multiclass_pa_step(idx, val, label, vecs, ints, scal, hp, fast):
    """One round (module docstring): (ŷ, s_ŷ, updated, τ)."""
    best, best_score, rival, rival_score, true_score = 0, 0.0, -1, 0.0, 0.0
    for c in range(vecs.shape[0]):
        s = prototype_score(c, idx, val, vecs, scal, fast)
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
    axpy(tau, idx, val, vecs[label, W])
    axpy(-tau, idx, val, vecs[rival, W])
    if fit_bias:
        scal[label, BIAS] += tau
        scal[rival, BIAS] -= tau
    return best, best_score, True, tau


# -- family dispatchers (inlined into the family's loops) ------------------------------------

@jit(inline=INLINE)
def family_score(rule, idx, val, vecs, ints, scal, hp, fast, out):
    for c in range(vecs.shape[0]):
        out[c] = prototype_score(c, idx, val, vecs, scal, fast)


@jit(inline=INLINE)
def family_step(rule, idx, val, label, vecs, ints, scal, hp, fast):
    return multiclass_pa_step(idx, val, label, vecs, ints, scal, hp, fast)
