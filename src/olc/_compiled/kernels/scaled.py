"""The scaled-vector kernel: one implementation of ``w = s·v`` for every rule that shrinks,
normalizes or forms convex combinations (the design of scikit-learn's ``WeightVector``).

A scaled vector is a row ``v`` of ``vecs`` and a scale ``s`` kept in a named ``scal`` slot,
representing ``w = s·v``. Multiplying w by a constant changes s only (O(1)); adding a·x
changes v on the nonzeros of x (O(nnz(x))). The vector is folded (``v ← s·v``, ``s ← 1``)
only when s leaves [RENORM_LOW, RENORM_HIGH], so neither s nor v over- or underflows.

Optionally the vector's *support* is tracked: the coordinates it may be nonzero on, kept as a
set in the rule's integer state (``ints``, int64): a count slot, a list block and a position
block (position + 1 of each listed coordinate, 0 when absent), each block of length d.
Whole-vector operations (fold, clear, exact norm) then cost O(support) instead of O(d).

Squared norms are the caller's to keep (they are formulas of the rule: ‖w + a·x‖² =
‖w‖² + 2a·w·x + a²‖x‖²); ``support_sqnorm`` recomputes one exactly.
"""
import math

from ..caching import jit
from .overflow import scaled_dot
from .vector import COLD, INLINE, dot, prefetch

RENORM_LOW = 1e-100
RENORM_HIGH = 1e100


@jit(inline=INLINE)
def sv_dot(v, s, idx, val, fast):
    """w·x for w = s·v; a product that is not finite (v·x beyond the largest double while
    s·(v·x) is not, or 0·inf) is recomputed with s inside the scaling (``scaled_dot``)."""
    r = s * dot(v, idx, val, fast)
    if r - r == 0.0:
        return r
    return scaled_dot(v, idx, val, s)


@jit(inline=COLD)
def sv_diff_dot_parts(vp, sp, vn, sn, idx, val):
    """(m, e) with u·x = m·2^e for u = sp·vp − sn·vn, |m| ≤ nnz(x) — the scaling of
    ``scaled_dot`` on the difference of two scaled vectors, which ``sv_dot(vp)`` −
    ``sv_dot(vn)`` cannot give when both products are beyond the range (inf − inf). The
    caller ensures every uⱼ is finite (e-OMM: |sp·vpⱼ| ≤ ‖v₊‖, whose square is finite).
    (NaN, 0) when x has a NaN or inf value. Strict order."""
    mu = 0.0
    mx = 0.0
    bad = 0.0
    if idx is None:
        if val is not None:  # see the docstring of kernels/vector.py
            for j in range(val.shape[0]):
                u = sp * vp[j] - sn * vn[j]
                mu = max(mu, abs(u))
                mx = max(mx, abs(val[j]))
                bad += u * 0.0 + val[j] * 0.0
    else:
        for k in range(idx.shape[0]):
            u = sp * vp[idx[k]] - sn * vn[idx[k]]
            mu = max(mu, abs(u))
            bad += u * 0.0
        if val is None:
            mx = 1.0 if idx.shape[0] > 0 else 0.0
        else:
            for k in range(val.shape[0]):
                mx = max(mx, abs(val[k]))
                bad += val[k] * 0.0
    if bad != 0.0:
        return math.nan, 0
    if mu == 0.0 or mx == 0.0:
        return 0.0, 0
    a = math.frexp(mu)[1]
    b = math.frexp(mx)[1]
    m = 0.0
    if idx is None:
        if val is not None:
            for j in range(val.shape[0]):
                m += math.ldexp(sp * vp[j] - sn * vn[j], -a) * math.ldexp(val[j], -b)
    elif val is None:
        for k in range(idx.shape[0]):
            m += math.ldexp(sp * vp[idx[k]] - sn * vn[idx[k]], -a) * math.ldexp(1.0, -b)
    else:
        for k in range(idx.shape[0]):
            m += math.ldexp(sp * vp[idx[k]] - sn * vn[idx[k]], -a) * math.ldexp(val[k], -b)
    return m, a + b


@jit(inline=INLINE)
def sv_in_range(s):
    return RENORM_LOW <= abs(s) <= RENORM_HIGH


@jit(inline=COLD)
def sv_fold(v, scal, slot_s):
    """v ← s·v, s ← 1 (O(d)): the represented w is unchanged."""
    s = scal[slot_s]
    for j in range(v.shape[0]):
        v[j] *= s
    scal[slot_s] = 1.0


@jit(inline=INLINE)
def sv_add(v, scal, slot_s, a, idx, val):
    """w ← w + a·x in O(nnz(x)) (v += (a/s)·x; folds first if a/s is not finite)."""
    sv_add_rescaled(v, scal, slot_s, a, 1.0, idx, val)


@jit(inline=INLINE)
def sv_add_rescaled(v, scal, slot_s, a, c, idx, val):
    """w ← w + a·(c·x) in O(nnz(x)) for a row x given in other units (c converts them, e.g.
    a power of two): v += (a/s)·(c·xⱼ), so a·c/s need not be representable by itself
    (c = 1 is ``sv_add``, bit for bit). Folds first if a/s is not finite."""
    if a == 0.0:
        return
    coef = a / scal[slot_s]
    if not math.isfinite(coef):
        sv_fold(v, scal, slot_s)
        coef = a
    if idx is None:
        if val is not None:  # see the docstring of kernels/vector.py
            for j in range(val.shape[0]):
                v[j] += coef * (c * val[j])
    elif val is None:  # a binary row: c·1.0 = c
        for k in range(idx.shape[0]):
            v[idx[k]] += coef * c
    else:
        for k in range(idx.shape[0]):
            v[idx[k]] += coef * (c * val[k])


@jit(inline=INLINE)
def sv_mul(v, scal, slot_s, c):
    """w ← c·w in O(1); c = 0 clears v (O(d)); folds when s leaves its range (O(d), rare)."""
    if c == 0.0:
        for j in range(v.shape[0]):
            v[j] = 0.0
        scal[slot_s] = 1.0
        return
    s = scal[slot_s] * c
    scal[slot_s] = s
    if not sv_in_range(s):
        sv_fold(v, scal, slot_s)


# -- tracked support (set semantics, in the integer state) ------------------------------------

@jit(inline=INLINE)
def support_add(ints, count_slot, list_base, pos_base, idx, val):
    """Add the nonzero coordinates of x to the support set (O(nnz(x)))."""
    n = ints[count_slot]
    if idx is None:
        for j in range(val.shape[0]):
            if val[j] != 0.0 and ints[pos_base + j] == 0:
                ints[list_base + n] = j
                n += 1
                ints[pos_base + j] = n
    else:
        for k in range(idx.shape[0]):
            j = idx[k]
            if val[k] != 0.0 and ints[pos_base + j] == 0:
                ints[list_base + n] = j
                n += 1
                ints[pos_base + j] = n
    ints[count_slot] = n


@jit(inline=INLINE)
def support_compact(v, ints, count_slot, list_base, pos_base):
    """Drop the listed coordinates where v is 0 (order kept), O(support)."""
    n = ints[count_slot]
    k = 0
    for i in range(n):
        j = ints[list_base + i]
        if v[j] != 0.0:
            ints[list_base + k] = j
            k += 1
            ints[pos_base + j] = k
        else:
            ints[pos_base + j] = 0
    ints[count_slot] = k


@jit(inline=INLINE)
def support_clear(v, ints, count_slot, list_base, pos_base):
    """v ← 0 and the support emptied, O(support)."""
    for i in range(ints[count_slot]):
        j = ints[list_base + i]
        v[j] = 0.0
        ints[pos_base + j] = 0
    ints[count_slot] = 0


@jit(inline=COLD)
def support_fold(v, scal, slot_s, ints, count_slot, list_base):
    """``sv_fold`` over the support only (O(support))."""
    s = scal[slot_s]
    for i in range(ints[count_slot]):
        j = ints[list_base + i]
        v[j] *= s
    scal[slot_s] = 1.0


@jit(inline=INLINE)
def support_sqnorm(v, s, ints, count_slot, list_base):
    """‖s·v‖² summed over the support (O(support)), in list order."""
    acc = 0.0
    for i in range(ints[count_slot]):
        w = s * v[ints[list_base + i]]
        acc += w * w
    return acc


@jit(inline=INLINE)
def support_l1norm(v, s, ints, count_slot, list_base):
    """‖s·v‖₁ summed over the support (O(support)), in list order."""
    acc = 0.0
    for i in range(ints[count_slot]):
        acc += abs(s * v[ints[list_base + i]])
    return acc


@jit(inline=INLINE)
def _insert_if_absent(ints, list_base, pos_base, j, n):
    """Append coordinate j to a support list of length n unless it is listed; the new n."""
    if ints[pos_base + j] != 0:
        return n
    ints[list_base + n] = j
    ints[pos_base + j] = n + 1
    return n + 1


@jit(inline=INLINE)
def support_merge_unwritten(v, ints, count_slot, list_base, pos_base, src_count_slot,
                            src_list_base):
    """Add every coordinate of another support set (kept in the same ``ints``) to v's support,
    called before v += a·u for the tracked u: O(u's support), and as in
    ``support_add_unwritten`` only coordinates where v = 0 read their position."""
    n = ints[count_slot]
    for i in range(ints[src_count_slot]):
        j = ints[src_list_base + i]
        if v[j] == 0.0:
            n = _insert_if_absent(ints, list_base, pos_base, j, n)
    ints[count_slot] = n


@jit(inline=INLINE)
def support_add_unwritten(v, ints, count_slot, list_base, pos_base, idx, val):
    """``support_add`` for v's own support, called before v += a·x: where v ≠ 0 the coordinate
    is in the support already (a support holds its vector's nonzeros), so only coordinates
    where v = 0 read their position (on large d: one cache miss fewer per coordinate written
    before)."""
    n = ints[count_slot]
    if idx is not None:
        # The positions read below are random accesses into a block of length d: ask for
        # them all first, so that their cache misses overlap instead of queueing.
        for k in range(idx.shape[0]):
            if v[idx[k]] == 0.0:
                prefetch(ints, pos_base + idx[k])
    if idx is None:
        for j in range(val.shape[0]):
            if val[j] != 0.0 and v[j] == 0.0:
                n = _insert_if_absent(ints, list_base, pos_base, j, n)
    else:
        for k in range(idx.shape[0]):
            if val[k] != 0.0 and v[idx[k]] == 0.0:
                n = _insert_if_absent(ints, list_base, pos_base, idx[k], n)
    ints[count_slot] = n
