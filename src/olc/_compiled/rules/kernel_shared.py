"""One kernel row per example, shared by one-vs-rest's K classes of the ``kernel`` family
(the loops: ``loops/kernel_ovr.py``; the guard: ``driver/kernel_rows.py``).

Why it is exact. Every class of one-vs-rest learns every row, so when the K states start a
call with the same STEPS they stay in step, and the row a class stored at step t (its BORN)
is the stream's row t for every class that holds it: the same stored values, the same SQNORM
bits. So k(x_s, x) of the row in hand is one number for a given BORN, whichever class holds
it. Each pool lists its rows oldest first (ORDER), so BORN increases along it.

Per example, class by class, :func:`share_row` merges the class's BORN list with the sorted
list (BORN, k) of the values computed so far for this example (two pointers, O(n_c + U)):
a BORN found there is copied into the class's KROW; the others (missing) are computed, from
the class's own pool, with the very operations :func:`support_set.kernel_row` applies to
every slot (the dot adds the same products in the same order, then the same transform), and
join the list. The dots drop from Σ_c n_c to U, the union's size. The class's step then
runs on its *filled* pool (``support_set.is_filled``): the same rule code, which only weighs
KROW. Storage is not shared: each class keeps its own rows.
"""
from ..caching import jit
from ..kernels.vector import INLINE
from ..layouts.kernel import BORN, KROW, ORDER, SQNORM
from ..layouts.kernel import KernelScal as KS
from .csr_pool import _starts, pool_dots
from .support_set import _transform, base, gamma

#: A missing slot's dot read by gathering (the pool by feature: P[j, s] for scattered s)
#: costs about this many of the whole row's contiguous, vectorized ones: with more than
#: n/GATHER_COST missing slots the class computes its whole row (the same values).
GATHER_COST = 4

# Called, not IR-inlined: compiled apart for each row type (``csr_pool.CALLED``).
CALLED = "never"


@jit(inline=CALLED)
def _missing_dots_by_feature(idx, val, V, slots, m, acc):
    """acc[i] ← x_s·x, s = slots[i]: ``csr_pool.dense_dots`` restricted to those slots (the
    same products, added in the same order)."""
    for i in range(m):
        acc[i] = 0.0
    if idx is None:
        if val is not None:
            for j in range(val.shape[0]):
                x = val[j]
                if x != 0.0:
                    row = V[j]
                    for i in range(m):
                        acc[i] += row[slots[i]] * x
    elif val is not None:
        for q in range(idx.shape[0]):
            x = val[q]
            row = V[idx[q]]
            for i in range(m):
                acc[i] += row[slots[i]] * x


@jit(inline=CALLED)
def _missing_dots_csr(idx, val, V, slots, m, acc):
    """acc[i] ← x_s·x, s = slots[i]: ``csr_pool.csr_dots`` restricted to those slots."""
    o, ln, w, vb, ib = _starts(V)
    if idx is None:
        if val is not None:
            for i in range(m):
                a = int(V[o + slots[i]])
                total = 0.0
                for q in range(a, a + int(V[ln + slots[i]])):
                    total += V[vb + q] * val[int(V[ib + q])]
                acc[i] = total
    elif val is not None:
        for q in range(idx.shape[0]):
            V[w + idx[q]] = val[q]
        for i in range(m):
            a = int(V[o + slots[i]])
            total = 0.0
            for q in range(a, a + int(V[ln + slots[i]])):
                total += V[vb + q] * V[w + int(V[ib + q])]
            acc[i] = total
        for q in range(idx.shape[0]):
            V[w + idx[q]] = 0.0


@jit(inline=INLINE)
def _fill_missing(idx, val, xx, P, scal, hp, kr, n, slots, m, acc, sq_m):
    """KROW of the m missing slots; of all n (as kernel_row) when gathering would cost more.
    Returns the work done, in units of one contiguous slot's dot."""
    sq = scal[base(P, SQNORM):base(P, SQNORM) + n]
    csr = P[1].shape[0] > 0
    if m == n or (not csr and m * GATHER_COST >= n):  # the whole row (contiguous) is cheaper
        pool_dots(idx, val, P, kr, n)
        _transform(hp, gamma(hp, P), kr, sq, xx, n)
        return n
    if csr:
        _missing_dots_csr(idx, val, P[0][:, 0], slots, m, acc)
    else:
        _missing_dots_by_feature(idx, val, P[0], slots, m, acc)
    for i in range(m):
        sq_m[i] = sq[slots[i]]
    _transform(hp, gamma(hp, P), acc, sq_m, xx, m)
    for i in range(m):
        kr[slots[i]] = acc[i]
    return m if csr else m * GATHER_COST


@jit(inline=CALLED)
def share_row(idx, val, xx, P, scal, hp, born_in, k_in, n_in, born_out, k_out, scratch):
    """Fill class P's KROW with k(x_s, x) for its n stored rows, taking each value whose BORN
    is among the n_in sorted (``born_in``, ``k_in``) computed for x so far and computing the
    others; write the merged sorted list to (``born_out``, ``k_out``) and return its size.
    ``scratch``: (slots, positions) int64 and (acc, sq) float, of at least n entries each."""
    slots, positions, acc, sq_m = scratch
    n = int(scal[KS.N_STORED])
    kr = scal[base(P, KROW):base(P, KROW) + n]
    order, born = base(P, ORDER), base(P, BORN)
    m = 0
    i = 0
    u = 0
    for p in range(n):
        s = int(scal[order + p])
        t = scal[born + s]
        while i < n_in and born_in[i] < t:
            born_out[u] = born_in[i]
            k_out[u] = k_in[i]
            u += 1
            i += 1
        born_out[u] = t
        if i < n_in and born_in[i] == t:
            kr[s] = k_in[i]
            k_out[u] = k_in[i]
            i += 1
        else:
            slots[m] = s
            positions[m] = u
            m += 1
        u += 1
    while i < n_in:
        born_out[u] = born_in[i]
        k_out[u] = k_in[i]
        u += 1
        i += 1
    work = 0
    if m > 0:
        work = _fill_missing(idx, val, xx, P, scal, hp, kr, n, slots, m, acc, sq_m)
        for q in range(m):
            k_out[positions[q]] = kr[slots[q]]
    return u, work
