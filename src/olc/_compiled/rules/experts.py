"""Multiplicative-update rules of seed 001 (lecture notes): Winnow (Algorithm 4), Weighted
Majority (Algorithm 1) and Randomized Weighted Majority (Algorithm 2).

Rule ids (family 20–29): WINNOW = 20, WEIGHTED_MAJORITY = 21, RANDOMIZED_WEIGHTED_MAJORITY = 22.

Input domains. Winnow reads x ∈ {0,1}^d; WM/RWM read expert predictions x ∈ {−1,+1}^d, so a
CSR row for them must store all d entries (an implicit zero is not a prediction). The check is
fused into the pass that computes the vote (no extra pass over the data): a step on a row with
a value outside the domain (or NaN/inf) returns a NaN score and leaves the state untouched —
the rule contract for bad rows — so the loop stops before the row, and the learner
(learners/experts.py) names the row and column. The ``score`` functions (decision_function,
τ check set) do not check; the learner validates those inputs first.

Winnow state: vecs[0] = w, the float weights used in w·x; vecs[1] = k, integer exponents with
w_i = (1+β)^{k_i} exactly (k_i changes by ±1 per update, exact in float64 up to 2^53).
w_i is recomputed from k_i at each update, so a weight never overflows (a promotion needs
w·x ≤ N, hence w_i ≤ N(1+β)) and one that underflows to 0 after ~1000 demotions is restored
exactly if promotions bring it back. scal[0] = β as learning started (the learner keeps β
fixed from then on; the rule reads hp). hp = [beta, N] (N ≤ 0: N = d).

WM/RWM state: vecs[0] = v, relative weights; vecs[1] = m, each expert's mistake count, so the
paper's weight is w_n = (1−η)^{m_n} exactly. v_n = (1−η)^{m_n − r} up to rounding, with the
reference count r in scal[REF]: when Σv falls below RENORM_LOW, v is recomputed from the
counts relative to the best expert (r = min m), so weights never all underflow and an expert
whose weight underflowed is restored when it matters. Predictions use only ratios of weights.
scal[STEP] = rounds seen (RWM's draw counter), scal[ETA] = η as learning started (the
learner keeps η fixed from then on: the counts are counts of that factor). hp: WM [eta];
RWM [eta, seed].
"""
import math

import numba as nb

from ..caching import jit
from ..rule_ids import WINNOW, WEIGHTED_MAJORITY, RANDOMIZED_WEIGHTED_MAJORITY
import numpy as np

from ..kernels import INLINE, RENORM_LOW, dot, sign
from ..random import uniform


# scal slots (WM, RWM); ETA records η (the learner keeps it fixed; the rule reads hp)
REF, STEP, ETA = 0, 1, 2


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
    n = hp[1] if hp[1] > 0.0 else float(vecs.shape[1])
    return np.nextafter(n, np.inf)


@jit(inline=INLINE)
def winnow_score(idx, val, vecs, ints, scal, hp, fast):
    return dot(vecs[0], idx, val, fast) - winnow_threshold(vecs, hp)


@jit(inline=INLINE)
def winnow_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Algorithm 4: ŷ = 1[w·x > N]; w_i ← w_i (1+β)^{(y − ŷ) x_i} (labels 0/1 ↔ −1/+1).

    Only a mistake changes weights, and only those of active features (x_i = 1); updated is
    True when some weight changed (a mistake on x = 0 changes nothing).
    """
    wx, bad = _dot01(vecs[0], idx, val, fast)
    if bad != 0.0:
        return math.nan, 1.0, False, 0.0  # outside {0,1} or NaN/inf: decline (contract)
    s = wx - winnow_threshold(vecs, hp)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    if pred == y:
        return s, pred, False, 0.0
    e = 0.5 * (y - pred)  # +1: promotion (y = 1, ŷ = 0); −1: demotion (y = 0, ŷ = 1)
    base = 1.0 + hp[0]
    if e > 0.0 and not math.isfinite(wx * base):
        # Every active weight is ≤ w·x ≤ N, so a promotion stays ≤ N(1+β): only an absurd
        # N or β can overflow here. Decline (rule contract).
        return math.inf, pred, False, 0.0
    w = vecs[0]
    k = vecs[1]
    changed = False
    if idx is None:
        for j in range(val.shape[0]):
            if val[j] != 0.0:
                kj = k[j] + e
                k[j] = kj
                w[j] = base ** kj
                changed = True
    else:
        for q in range(idx.shape[0]):
            if val[q] != 0.0:
                j = idx[q]
                kj = k[j] + e
                k[j] = kj
                w[j] = base ** kj
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
def _penalize(idx, val, y, vecs, scal, shrink):
    """Line 8 (Alg. 1) / line 9 (Alg. 2): w_n ← w_n(1 − η) for every expert with x_n ≠ y.
    Returns whether any weight changed. Renormalizes from the counts when Σv < RENORM_LOW."""
    v = vecs[0]
    m = vecs[1]
    phi = 0.0
    changed = False
    for k in range(val.shape[0]):
        j = k if idx is None else idx[k]
        if val[k] != y:
            m[j] += 1.0
            v[j] *= shrink
            changed = True
        phi += v[j]
    if phi < RENORM_LOW:
        _renormalize(vecs, scal, shrink)
    return changed


@jit()
def _renormalize(vecs, scal, shrink):
    """v_n ← (1−η)^{m_n − r}, r = min_n m_n (the best expert's v is 1). O(d), at most once
    per ~332/log2(1/(1−η)) mistakes of the best expert (RENORM_LOW = 1e-100 ≈ 2⁻³³²)."""
    v = vecs[0]
    m = vecs[1]
    r = m[0]
    for j in range(m.shape[0]):
        if m[j] < r:
            r = m[j]
    for j in range(m.shape[0]):
        v[j] = shrink ** (m[j] - r)
    scal[REF] = r


@jit(inline=INLINE)
def wm_score(idx, val, vecs, ints, scal, hp, fast):
    """The normalized weighted vote Σ_n x_n w_n / Σ_n w_n ∈ [−1, 1] (line 6's argument / Φ)."""
    s, phi, _ = _vote(vecs[0], idx, val, fast)
    return s / phi


@jit(inline=INLINE)
def wm_step(idx, val, y, vecs, ints, scal, hp, fast):
    s, phi, bad = _vote(vecs[0], idx, val, fast)
    if bad != 0.0:
        return math.nan, 1.0, False, 0.0
    score = s / phi
    pred = sign(score)  # sign(0) = +1
    changed = _penalize(idx, val, y, vecs, scal, 1.0 - hp[0])
    scal[STEP] += 1.0
    return score, pred, changed, 0.0


@jit(inline=INLINE)
def rwm_expert(v, phi, scal, hp):
    """Line 6: I ~ Multinomial(w/Φ) by inversion in expert order with the draw
    u = uniform(seed, 0, t), t = rounds seen: I = min{n : Σ_{m ≤ n} v_m > u·Φ}, where
    Φ = Σ v summed in expert order."""
    target = uniform(hp[1], 0, scal[STEP]) * phi
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
    v = vecs[0]
    phi = 0.0
    for j in range(v.shape[0]):
        phi += v[j]
    i = rwm_expert(v, phi, scal, hp)
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
    _, phi, bad = _vote(vecs[0], idx, val, False)
    if bad != 0.0:
        return math.nan, 1.0, False, 0.0
    i = rwm_expert(vecs[0], phi, scal, hp)
    pred = val[i]  # full row: position i is column i in both layouts
    changed = _penalize(idx, val, y, vecs, scal, 1.0 - hp[0])
    scal[STEP] += 1.0
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
