"""The CSR pool of the ``kernel`` family: the stored rows as one slab of (index, value) pairs
instead of a (d, capacity) block by feature, so that storing or removing a row costs
O(nnz) and the memory O(d + Σ nnz) rather than O(d·capacity). A learner whose first input is
CSR keeps its rows so (``KernelClassifier``); the kernel values, and so every result, are
bit for bit those of the pool by feature (``rules/csr_pool.py``).

The state of one binary learner: ``vecs`` (L, 1), one float64 column V holding

  V[:HEADER]   D (features), CAP (slots, as ``scal``'s blocks), SLAB (W, the slab's size),
               END (the slab is used up to END: a new row goes there), LIVE (Σ nnz of the
               stored rows), NEED (a row's nnz that found no room: the learner grows W)
  OFFSET       CAP slots: where slot s's row starts in the slab
  LENGTH       CAP slots: its number of stored entries
  WORK         D zeros between rows: the row in hand scattered by feature during a kernel row
  VALUES       W: the stored values (a removed row's entries are zeroed)
  INDEX        W: their feature indices (exact integers in float64), sorted within a row

``ints`` = [1] (the dense pool's is empty: that is how the compiled core tells them apart).
Rows lie in the slab in the pool's order (oldest first, ``scal``'s ORDER), so compaction
moves each row to a lower offset in that order, in place. ``scal`` is the dense pool's.
"""
import numpy as np

from .base import fields

CsrGeometry = fields("d", "cap", "slab", "end", "live", "need")
CSR_HEADER = 8  # the fields above, then two spare slots
D, CAP, SLAB, END, LIVE, NEED = (int(f) for f in CsrGeometry)
CSR_INTS = np.ones(1, dtype=np.int64)


def length(d, cap, slab):
    return CSR_HEADER + 2 * cap + d + 2 * slab


def offsets(V):
    """(OFFSET, LENGTH, VALUES, INDEX) starts of the flat column V."""
    d, cap, slab = int(V[D]), int(V[CAP]), int(V[SLAB])
    o = CSR_HEADER
    return o, o + cap, o + 2 * cap + d, o + 2 * cap + d + slab


def empty(d, cap, slab):
    """vecs (L, 1) of an empty CSR pool."""
    V = np.zeros(length(d, cap, slab))
    V[D], V[CAP], V[SLAB] = d, cap, slab
    return V[:, np.newaxis]


def rows_of(V, slots):
    """[(indices int64, values)] of the given slots."""
    o, ln, vb, ib = offsets(V)
    out = []
    for s in slots:
        a, m = int(V[o + s]), int(V[ln + s])
        out.append((V[ib + a:ib + a + m].astype(np.int64), V[vb + a:vb + a + m]))
    return out


def rebuilt(vecs, order_slots, cap, slab):
    """A CSR pool (L, 1) of ``cap`` slots and a slab of ``slab`` ≥ LIVE holding the same rows
    in the same slots, compacted in pool order (``order_slots``: slots oldest first)."""
    V = vecs[:, 0]
    new = empty(int(V[D]), cap, slab)
    W = new[:, 0]
    o, ln, vb, ib = offsets(W)
    end = 0
    for s, (idx, val) in zip(order_slots, rows_of(V, order_slots)):
        m = idx.shape[0]
        W[o + s], W[ln + s] = end, m
        W[vb + end:vb + end + m] = val
        W[ib + end:ib + end + m] = idx
        end += m
    W[END] = W[LIVE] = end
    return new


def needed_slab(live, need, slab):
    """The slab size after a step found no room for a row of ``need`` entries."""
    return max(2 * slab, 2 * (live + need), 16)


def check(vecs, n, cap, order):
    """None, or what is wrong with a CSR pool read from a file (n rows in the slots ORDER
    lists oldest first)."""
    if vecs.ndim != 2 or vecs.shape[1] != 1 or vecs.shape[0] < CSR_HEADER:
        return f"vecs: a CSR pool is one column of at least {CSR_HEADER} slots, found shape " \
               f"{vecs.shape}"
    V = vecs[:, 0]
    head = V[:CSR_HEADER]
    if np.any(head != np.floor(head)) or np.any(head < 0):
        return f"vecs 'csr header': expected non-negative integers, found {head.tolist()}"
    d, c, slab, end, live, need = (int(V[f]) for f in (D, CAP, SLAB, END, LIVE, NEED))
    if c != cap:
        return f"vecs 'cap': {c} slots, but scal has {cap}"
    if vecs.shape[0] != length(d, cap, slab):
        return f"vecs: {vecs.shape[0]} slots is not the CSR pool's {length(d, cap, slab)}"
    if need != 0 or not live <= end <= slab:
        return f"vecs 'end'/'live'/'need': expected live ≤ end ≤ {slab} and need 0, found " \
               f"end {end}, live {live}, need {need}"
    o, ln, vb, ib = offsets(V)
    if np.any(V[o + 2 * cap:o + 2 * cap + d] != 0.0):
        return "vecs 'work': expected zeros between rows"
    offs, lens = V[o:o + cap], V[ln:ln + cap]
    if np.any(offs[n:] != 0.0) or np.any(lens[n:] != 0.0):
        return "vecs 'offset'/'length': the slots beyond 'n_stored' must be zero"
    used = np.zeros(slab, dtype=bool)
    cursor = 0
    for p, s in enumerate(order):
        a, m = int(offs[s]), int(lens[s])
        if a < cursor or a + m > end:
            return (f"vecs 'offset': the row at position {p} (slot {s}) spans [{a}, {a + m}), "
                    f"overlapping the row before it or past 'end' = {end}")
        idx = V[ib + a:ib + a + m]
        if m and (np.any(idx != np.floor(idx)) or idx.min() < 0 or idx.max() >= d):
            return f"vecs 'index': slot {s} holds feature indices outside 0..{d - 1}"
        if m > 1 and np.any(np.diff(idx) <= 0):
            return f"vecs 'index': slot {s}'s feature indices are not sorted and distinct"
        used[a:a + m] = True
        cursor = a + m
    if int(lens[order].sum()) != live:
        return f"vecs 'live': {live} entries, but the rows hold {int(lens[order].sum())}"
    if np.any(V[vb:vb + slab][~used] != 0.0) or np.any(V[ib:ib + slab][~used] != 0.0):
        return "vecs 'values'/'index': the slab entries outside the stored rows must be zero"
    return None
