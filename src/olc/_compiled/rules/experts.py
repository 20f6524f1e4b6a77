"""Multiplicative-update rules of Kitani's lecture notes on online linear classification:
Winnow (Algorithm 4), Weighted Majority (Algorithm 1) and Randomized Weighted Majority
(Algorithm 2). Layouts in ``layouts/experts.py``.

Input domains. Winnow reads x ∈ {0,1}^d; WM/RWM read expert predictions x ∈ {−1,+1}^d, so a
CSR row for them must store all d entries (an implicit zero is not a prediction). The check is
fused into the pass that computes the vote (no extra pass over the data): a step on a row with
a value outside the domain (or NaN/inf) returns a NaN score and leaves the state untouched —
the rule contract for bad rows — so the loop stops before the row, and the learner
(learners/experts.py) names the row and column. The ``score`` functions (decision_function,
τ check set) do not check; the learner validates those inputs first.

Winnow keeps integer exponents kᵢ (ints) with wᵢ = (1+β)^{kᵢ} exactly (kᵢ changes by ±1 per
update). wᵢ is recomputed from kᵢ at each update, so a weight never overflows (a promotion
needs w·x ≤ N, hence wᵢ ≤ N(1+β)) and one that underflows to 0 after ~1000 demotions is
restored exactly if promotions bring it back.

WM/RWM keep each expert's mistake count mₙ (ints), so the lecture's weight is
wₙ = (1−η)^{mₙ} exactly, and relative float weights vₙ = (1−η)^{mₙ − r} up to rounding, with
the reference count r (ints REF): when Σv falls below RENORM_LOW, v is recomputed from the
counts relative to the best expert (r = min m), so weights never all underflow and an expert
whose weight underflowed is restored when it matters. Predictions use only ratios of weights.
(w = (1−η)^r·v is a scale × vector pair whose scale is kept as an exact exponent; rebasing it
is a recomputation from the counts, not ``scaled.sv_fold``'s v ← s·v, which would round.)
"""
import math

import numpy as np

from ..caching import jit
from ..kernels.vector import INLINE, dot, sign
from ..kernels.scaled import RENORM_LOW
from ..layouts.experts import (
    EXPERT_MISTAKES,
    WINNOW_EXPONENTS,
    ExpertsInt,
    ExpertsVec,
    RandomizedWeightedMajorityHP,
    WeightedMajorityHP,
    WinnowHP,
    WinnowVec,
)
from ..kernels.random import uniform
from ..rule_ids import WEIGHTED_MAJORITY, WINNOW

REF, STEP = ExpertsInt.REF, ExpertsInt.STEP
W, V = WinnowVec.W, ExpertsVec.V


# -- Winnow ---------------------------------------------------------------------------------

@jit(fastmath={"reassoc"})
def _dense_dot01_reassoc(w, val):
    s = 0.0
    bad = 0.0
    for j in range(val.shape[0]):
        x = val[j]
        s += w[j] * x
        bad += abs(x * (x - 1.0))  # 0 iff x ∈ {0, 1}; NaN/inf stay non-zero
    return s, bad


@jit()
def _dense_dot01_strict(w, val):
    s = 0.0
    bad = 0.0
    for j in range(val.shape[0]):
        x = val[j]
        s += w[j] * x
        bad += abs(x * (x - 1.0))
    return s, bad


@jit(inline=INLINE)
def _dot01(w, idx, val, fast):
    """(w·x, violation): violation is 0 iff every value of x is 0 or 1."""
    if idx is None:
        if fast:
            return _dense_dot01_reassoc(w, val)
        return _dense_dot01_strict(w, val)
    s = 0.0
    bad = 0.0
    for k in range(idx.shape[0]):
        x = val[k]
        s += w[idx[k]] * x
        bad += abs(x * (x - 1.0))
    return s, bad


@jit(inline=INLINE)
def winnow_threshold(vecs, hp):
    """The decision value is w·x − N⁺ with N⁺ the next double above N: w·x > N (the paper's
    strict test, line 5) ⟺ w·x ≥ N⁺ ⟺ w·x − N⁺ ≥ 0, so sign(0) = +1 reproduces it exactly."""
    n = hp[WinnowHP.THRESHOLD]
    if not n > 0.0:
        n = float(vecs.shape[1])
    return np.nextafter(n, np.inf)


@jit(inline=INLINE)
def winnow_score(idx, val, vecs, ints, scal, hp, fast):
    return dot(vecs[W], idx, val, fast) - winnow_threshold(vecs, hp)


@jit(inline=INLINE)
def winnow_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Algorithm 4: ŷ = 1[w·x > N]; w_i ← w_i (1+β)^{(y − ŷ) x_i} (labels 0/1 ↔ −1/+1).

    Only a mistake changes weights, and only those of active features (x_i = 1); updated is
    True when some weight changed (a mistake on x = 0 changes nothing).
    """
    wx, bad = _dot01(vecs[W], idx, val, fast)
    if bad != 0.0:
        return math.nan, 1.0, False, 0.0  # outside {0,1} or NaN/inf: decline (contract)
    s = wx - winnow_threshold(vecs, hp)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    if pred == y:
        return s, pred, False, 0.0
    promote = y > 0.0  # y = 1, ŷ = 0 (else a demotion: y = 0, ŷ = 1)
    e = 1 if promote else -1
    base = 1.0 + hp[WinnowHP.BETA]
    if promote and not math.isfinite(wx * base):
        # Every active weight is ≤ w·x ≤ N, so a promotion stays ≤ N(1+β): only an absurd
        # N or β can overflow here. Decline (rule contract).
        return math.inf, pred, False, 0.0
    w = vecs[W]
    k = ints[WINNOW_EXPONENTS:WINNOW_EXPONENTS + w.shape[0]]
    changed = False
    if idx is None:
        for j in range(val.shape[0]):
            if val[j] != 0.0:
                kj = k[j] + e
                k[j] = kj
                w[j] = base ** float(kj)
                changed = True
    else:
        for q in range(idx.shape[0]):
            if val[q] != 0.0:
                j = idx[q]
                kj = k[j] + e
                k[j] = kj
                w[j] = base ** float(kj)
                changed = True
    return s, pred, changed, 0.0


# -- Weighted Majority and Randomized Weighted Majority --------------------------------------

@jit(fastmath={"reassoc"})
def _dense_vote_reassoc(v, val):
    s = 0.0
    phi = 0.0
    bad = 0.0
    for j in range(val.shape[0]):
        x = val[j]
        s += x * v[j]
        phi += v[j]
        bad += abs(x * x - 1.0)  # 0 iff x = ±1; NaN/inf stay non-zero
    return s, phi, bad


@jit()
def _dense_vote_strict(v, val):
    s = 0.0
    phi = 0.0
    bad = 0.0
    for j in range(val.shape[0]):
        x = val[j]
        s += x * v[j]
        phi += v[j]
        bad += abs(x * x - 1.0)
    return s, phi, bad


@jit(inline=INLINE)
def _vote(v, idx, val, fast):
    """(Σ x_n v_n, Σ v_n, violation): violation is 0 iff x ∈ {−1,+1}^d (a CSR row must store
    every column; canonical CSR then has idx[k] = k)."""
    if idx is None:
        if fast:
            return _dense_vote_reassoc(v, val)
        return _dense_vote_strict(v, val)
    s = 0.0
    phi = 0.0
    bad = float(v.shape[0] - idx.shape[0])  # missing columns are zeros: not predictions
    for k in range(idx.shape[0]):
        x = val[k]
        vk = v[idx[k]]
        s += x * vk
        phi += vk
        bad += abs(x * x - 1.0)
    return s, phi, bad


@jit(inline=INLINE)
def _mistakes(ints, d):
    return ints[EXPERT_MISTAKES:EXPERT_MISTAKES + d]


@jit(inline=INLINE)
def _penalize(idx, val, y, vecs, ints, shrink):
    """Line 8 (Alg. 1) / line 9 (Alg. 2): w_n ← w_n(1 − η) for every expert with x_n ≠ y.
    Returns whether any weight changed. Renormalizes from the counts when Σv < RENORM_LOW."""
    v = vecs[V]
    m = _mistakes(ints, v.shape[0])
    phi = 0.0
    changed = False
    for k in range(val.shape[0]):
        j = k if idx is None else idx[k]
        if val[k] != y:
            m[j] += 1
            v[j] *= shrink
            changed = True
        phi += v[j]
    if phi < RENORM_LOW:
        _renormalize(v, m, ints, shrink)
    return changed


@jit()
def _renormalize(v, m, ints, shrink):
    """v_n ← (1−η)^{m_n − r}, r = min_n m_n (the best expert's v is 1). O(d), at most once
    per ~332/log2(1/(1−η)) mistakes of the best expert (RENORM_LOW = 1e-100 ≈ 2⁻³³²)."""
    r = m[0]
    for j in range(m.shape[0]):
        if m[j] < r:
            r = m[j]
    for j in range(m.shape[0]):
        v[j] = shrink ** float(m[j] - r)
    ints[REF] = r


@jit(inline=INLINE)
def wm_score(idx, val, vecs, ints, scal, hp, fast):
    """The normalized weighted vote Σ_n x_n w_n / Σ_n w_n ∈ [−1, 1] (line 6's argument / Φ)."""
    s, phi, _ = _vote(vecs[V], idx, val, fast)
    return s / phi


@jit(inline=INLINE)
def wm_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Algorithm 1: predict sign(Σ x_n w_n) (line 6), then penalize the wrong experts."""
    s, phi, bad = _vote(vecs[V], idx, val, fast)
    if bad != 0.0:
        return math.nan, 1.0, False, 0.0
    score = s / phi
    pred = sign(score)  # sign(0) = +1
    changed = _penalize(idx, val, y, vecs, ints, 1.0 - hp[WeightedMajorityHP.ETA])
    ints[STEP] += 1
    return score, pred, changed, 0.0


@jit(inline=INLINE)
def rwm_expert(v, phi, ints, hp):
    """Line 6: I ~ Multinomial(w/Φ) by inversion in expert order with the draw
    u = uniform(seed, 0, t), t = rounds seen: I = min{n : Σ_{m ≤ n} v_m > u·Φ}, where
    Φ = Σ v summed in expert order."""
    target = uniform(hp[RandomizedWeightedMajorityHP.SEED], 0, ints[STEP]) * phi
    cum = 0.0
    last = 0
    for j in range(v.shape[0]):
        if v[j] > 0.0:
            last = j
        cum += v[j]
        if cum > target:
            return j
    return last  # rounding left u·Φ ≥ the computed Σv: the last expert with weight


@jit(inline=INLINE)
def rwm_score(idx, val, vecs, ints, scal, hp, fast):
    """x_I, the sampled expert's prediction for the next round (±1)."""
    v = vecs[V]
    phi = 0.0
    for j in range(v.shape[0]):
        phi += v[j]
    i = rwm_expert(v, phi, ints, hp)
    if idx is None:
        return val[i]
    for k in range(idx.shape[0]):
        if idx[k] == i:
            return val[k]
    return 0.0


@jit(inline=INLINE)
def rwm_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Algorithm 2: predict with expert I (line 7), then the WM update (line 9), which does
    not depend on the draw. aux = I (0-based column of the followed expert)."""
    # Strict order: Φ must be the sequential Σv that rwm_score computes (same draw, same I).
    _, phi, bad = _vote(vecs[V], idx, val, False)
    if bad != 0.0:
        return math.nan, 1.0, False, 0.0
    i = rwm_expert(vecs[V], phi, ints, hp)
    pred = val[i]  # full row: position i is column i in both layouts
    changed = _penalize(idx, val, y, vecs, ints, 1.0 - hp[RandomizedWeightedMajorityHP.ETA])
    ints[STEP] += 1
    return pred, pred, changed, float(i)


# -- family dispatchers ---------------------------------------------------------------------

@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == WINNOW:
        return winnow_score(idx, val, vecs, ints, scal, hp, fast)
    if rule == WEIGHTED_MAJORITY:
        return wm_score(idx, val, vecs, ints, scal, hp, fast)
    return rwm_score(idx, val, vecs, ints, scal, hp, fast)


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == WINNOW:
        return winnow_step(idx, val, y, vecs, ints, scal, hp, fast)
    if rule == WEIGHTED_MAJORITY:
        return wm_step(idx, val, y, vecs, ints, scal, hp, fast)
    return rwm_step(idx, val, y, vecs, ints, scal, hp, fast)
