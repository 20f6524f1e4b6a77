"""The CSR pool's compiled part (layout: ``layouts/kernel_csr.py``), used by ``support_set``.

``support_set`` takes the pool as P: a (vecs, ints) tuple in the ``kernel``,
``kernel_extra`` and ``nystrom`` families (the pool by feature when ints is empty, the CSR
pool when ints = [1]) or a bare block: the pool's operations here (``capacity``,
``pool_dots``, ``pool_write``, …) are overloaded on that type.

Kernel row of a CSR row x: x scattered into WORK (O(nnz(x))), each stored row's dot
Σ_q v_q·WORK[i_q] (O(nnz_s)), WORK cleared again. Each dot adds the products of the
features both rows hold in increasing feature order, with ±0 terms in between (a feature
only one row holds) — the terms and the order of the pool by feature, whose dot of slot s
adds P[j, s]·x_j over x's features in increasing j: the same bits (a ±0 term changes no
partial sum's value, and +0 + −0 = +0). A dense row x is read directly: Σ_q v_q·x[i_q].
"""
from numba import types
from numba.extending import overload

from ..caching import jit
from ..kernels.vector import COLD, INLINE
from ..layouts.kernel_csr import CAP, CSR_HEADER, D, END, LIVE, NEED, SLAB


def _is_tuple(P):
    return isinstance(P, types.BaseTuple)


def capacity(P):  # pragma: no cover - compiled only (the overloads below)
    raise NotImplementedError


def n_features(P):  # pragma: no cover
    raise NotImplementedError


def pool_dots(idx, val, P, kr, n):  # pragma: no cover
    raise NotImplementedError


def pool_stored_dots(P, r, kr, n):  # pragma: no cover
    raise NotImplementedError


def pool_write(idx, val, P, slot):  # pragma: no cover
    raise NotImplementedError


def pool_remove(P, slot, last):  # pragma: no cover
    raise NotImplementedError


def pool_clear(P, n):  # pragma: no cover
    raise NotImplementedError


def pool_has_room(idx, val, P, scal, order, n):  # pragma: no cover
    raise NotImplementedError


# Called, not IR-inlined, by the overloads: compiled apart for each row type, where numba
# drops the branches of ``idx is None`` / ``val is None`` that the type rules out (through an
# overload, an inlined copy keeps them and fails to type).
CALLED = "never"

# The overloads: P a (vecs, ints) tuple (ints empty: the block by feature, else the CSR
# pool's column vecs[:, 0]) or a bare block. None returns an array view: the loops run
# without numba's runtime, which refuses returning one.
@overload(capacity, inline="always")
def _capacity(P):
    if _is_tuple(P):
        def impl(P):
            if P[1].shape[0] > 0:
                return int(P[0][CAP, 0])
            return P[0].shape[1]
        return impl
    return lambda P: P.shape[1]


@overload(n_features, inline="always")
def _n_features(P):
    if _is_tuple(P):
        def impl(P):
            if P[1].shape[0] > 0:
                return int(P[0][D, 0])
            return P[0].shape[0]
        return impl
    return lambda P: P.shape[0]


@overload(pool_dots, inline="always")
def _pool_dots(idx, val, P, kr, n):
    if _is_tuple(P):
        def impl(idx, val, P, kr, n):
            if P[1].shape[0] > 0:
                csr_dots(idx, val, P[0][:, 0], kr, n)
            else:
                dense_dots(idx, val, P[0], kr, n)
        return impl
    return lambda idx, val, P, kr, n: dense_dots(idx, val, P, kr, n)


@overload(pool_stored_dots, inline="always")
def _pool_stored_dots(P, r, kr, n):
    if _is_tuple(P):
        def impl(P, r, kr, n):
            if P[1].shape[0] > 0:
                csr_stored_dots(P[0][:, 0], r, kr, n)
            else:
                dense_stored_dots(P[0], r, kr, n)
        return impl
    return lambda P, r, kr, n: dense_stored_dots(P, r, kr, n)


@overload(pool_write, inline="always")
def _pool_write(idx, val, P, slot):
    if _is_tuple(P):
        def impl(idx, val, P, slot):
            if P[1].shape[0] > 0:
                csr_write(idx, val, P[0][:, 0], slot)
            else:
                dense_write(idx, val, P[0], slot)
        return impl
    return lambda idx, val, P, slot: dense_write(idx, val, P, slot)


@overload(pool_remove, inline="always")
def _pool_remove(P, slot, last):
    if _is_tuple(P):
        def impl(P, slot, last):
            if P[1].shape[0] > 0:
                csr_free(P[0][:, 0], slot)
                if slot != last:
                    csr_move(P[0][:, 0], last, slot)
            elif slot != last:
                dense_move(P[0], last, slot)
        return impl

    def bare(P, slot, last):
        if slot != last:
            dense_move(P, last, slot)
    return bare


@overload(pool_clear, inline="always")
def _pool_clear(P, n):
    if _is_tuple(P):
        def impl(P, n):
            if P[1].shape[0] > 0:
                csr_clear(P[0][:, 0], n)
        return impl
    return lambda P, n: None


@overload(pool_has_room, inline="always")
def _pool_has_room(idx, val, P, scal, order, n):
    if _is_tuple(P):
        def impl(idx, val, P, scal, order, n):
            if P[1].shape[0] > 0:
                return csr_has_room(idx, val, P[0][:, 0], scal, order, n)
            return True
        return impl
    return lambda idx, val, P, scal, order, n: True


# -- the pool by feature, (d, cap) -------------------------------------------------------------
@jit(inline=CALLED)
def dense_dots(idx, val, P, kr, n):
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
def dense_stored_dots(P, r, kr, n):
    for s in range(n):
        kr[s] = 0.0
    for j in range(P.shape[0]):
        x = P[j, r]
        if x != 0.0:
            row = P[j]
            for s in range(n):
                kr[s] += row[s] * x


@jit(inline=CALLED)
def dense_write(idx, val, P, slot):
    if idx is None:
        if val is not None:
            for j in range(val.shape[0]):
                P[j, slot] = val[j] + 0.0  # −0.0 → 0.0: a CSR row stores no zero at all
    else:
        for j in range(P.shape[0]):
            P[j, slot] = 0.0
        if val is not None:
            for q in range(idx.shape[0]):
                P[idx[q], slot] = val[q]


@jit(inline=COLD)
def dense_move(P, frm, to):
    for j in range(P.shape[0]):
        P[j, to] = P[j, frm]


# -- the CSR pool ------------------------------------------------------------------------------
@jit(inline=INLINE)
def _starts(V):
    """(OFFSET, LENGTH, WORK, VALUES, INDEX) starts in V."""
    cap, d = int(V[CAP]), int(V[D])
    o = CSR_HEADER
    w = o + 2 * cap
    return o, o + cap, w, w + d, w + d + int(V[SLAB])


@jit(inline=CALLED)
def csr_dots(idx, val, V, kr, n):
    """kr[s] ← x_s·x for the n slots (module docstring)."""
    o, ln, w, vb, ib = _starts(V)
    if idx is None:
        if val is not None:
            for s in range(n):
                a = int(V[o + s])
                acc = 0.0
                for q in range(a, a + int(V[ln + s])):
                    acc += V[vb + q] * val[int(V[ib + q])]
                kr[s] = acc
    elif val is not None:
        for q in range(idx.shape[0]):
            V[w + idx[q]] = val[q]
        for s in range(n):
            a = int(V[o + s])
            acc = 0.0
            for q in range(a, a + int(V[ln + s])):
                acc += V[vb + q] * V[w + int(V[ib + q])]
            kr[s] = acc
        for q in range(idx.shape[0]):
            V[w + idx[q]] = 0.0


@jit(inline=COLD)
def csr_stored_dots(V, r, kr, n):
    """kr[s] ← x_s·x_r for the n slots, x_r the row in slot r (scattered into WORK)."""
    o, ln, w, vb, ib = _starts(V)
    a, m = int(V[o + r]), int(V[ln + r])
    for q in range(a, a + m):
        V[w + int(V[ib + q])] = V[vb + q]
    for s in range(n):
        b = int(V[o + s])
        acc = 0.0
        for q in range(b, b + int(V[ln + s])):
            acc += V[vb + q] * V[w + int(V[ib + q])]
        kr[s] = acc
    for q in range(a, a + m):
        V[w + int(V[ib + q])] = 0.0


@jit(inline=INLINE)
def row_nnz(idx, val):
    """The entries a row takes in the slab (a dense row's nonzero values)."""
    if idx is not None:
        return idx.shape[0]
    m = 0
    if val is not None:
        for j in range(val.shape[0]):
            if val[j] != 0.0:
                m += 1
    return m


@jit(inline=COLD)
def csr_compact(V, scal, order, n):
    """Move the n rows (slots ``scal[order + p]``, oldest first, already in increasing
    offsets) to the start of the slab, in place, and zero what they left."""
    o, ln, w, vb, ib = _starts(V)
    cursor = 0
    for p in range(n):
        s = int(scal[order + p])
        a, m = int(V[o + s]), int(V[ln + s])
        if a != cursor:
            for q in range(m):
                V[vb + cursor + q] = V[vb + a + q]
                V[ib + cursor + q] = V[ib + a + q]
            V[o + s] = cursor
        cursor += m
    for q in range(cursor, int(V[END])):
        V[vb + q] = 0.0
        V[ib + q] = 0.0
    V[END] = cursor


@jit(inline=CALLED)
def csr_has_room(idx, val, V, scal, order, n):
    """Whether the slab can take x (compacting it when only the holes left by removed rows
    would make room); False sets NEED: the learner grows the slab and the loop resumes."""
    m = row_nnz(idx, val)
    if V[LIVE] + m > V[SLAB]:
        V[NEED] = m
        return False
    if V[END] + m > V[SLAB]:
        csr_compact(V, scal, order, n)
    return True


@jit(inline=CALLED)
def csr_write(idx, val, V, slot):
    """Store x at the slab's end for ``slot`` (a dense x: its nonzero values)."""
    o, ln, w, vb, ib = _starts(V)
    e = int(V[END])
    m = 0
    if idx is None:
        if val is not None:
            for j in range(val.shape[0]):
                x = val[j]
                if x != 0.0:
                    V[vb + e + m] = x
                    V[ib + e + m] = j
                    m += 1
    elif val is not None:
        m = idx.shape[0]
        for q in range(m):
            V[vb + e + q] = val[q]
            V[ib + e + q] = idx[q]
    V[o + slot] = e
    V[ln + slot] = m
    V[END] = e + m
    V[LIVE] += m


@jit(inline=COLD)
def csr_free(V, slot):
    """Zero slot ``slot``'s entries (its row is removed; the hole is reclaimed by
    :func:`csr_compact`)."""
    o, ln, w, vb, ib = _starts(V)
    a, m = int(V[o + slot]), int(V[ln + slot])
    for q in range(a, a + m):
        V[vb + q] = 0.0
        V[ib + q] = 0.0
    V[LIVE] -= m
    V[o + slot] = 0.0
    V[ln + slot] = 0.0


@jit(inline=COLD)
def csr_move(V, frm, to):
    """Slot ``to`` takes slot ``frm``'s row (its entries stay where they are)."""
    o, ln = CSR_HEADER, CSR_HEADER + int(V[CAP])
    V[o + to], V[ln + to] = V[o + frm], V[ln + frm]
    V[o + frm] = 0.0
    V[ln + frm] = 0.0


@jit(inline=COLD)
def csr_clear(V, n):
    """Remove every row."""
    o, ln, w, vb, ib = _starts(V)
    for q in range(int(V[END])):
        V[vb + q] = 0.0
        V[ib + q] = 0.0
    for s in range(n):
        V[o + s] = 0.0
        V[ln + s] = 0.0
    V[END] = 0.0
    V[LIVE] = 0.0
