"""One example at a time, for River's ``learn_one`` / ``predict_one`` — a *template*, like
``binary.py``.

``loader.instantiate`` executes this file once per family, with ``family_step`` /
``family_score`` already set to that family's rule dispatchers, so each family gets its own
compiled, disk-cached entry points and the rule's per-row code is the very code the online
loops run (the same ``family_step`` on the same CSR row: uint32 columns in increasing order,
float64 values).

An example arrives as two byte strings that the Python side makes with ``struct.pack`` in a
few hundred nanoseconds (bytes also cross numba's dispatcher faster than arrays):

``cols``  int64, in the order of the dict: the state column of each feature, −1 for a feature
          the model does not know (``score_one`` leaves it out: its weight is the initial one,
          zero; ``learn_one`` never receives one);
``raw``   float64, the dict's values in the same order.

The row is the example's nonzero values (a zero is an absent feature: the canonical CSR row
``partial_fit`` learns, whose explicit zeros scipy's canonicalization removes), sorted by
column here (already sorted — columns are numbered in order of first appearance, so for a
stream whose dicts keep their key order — it costs one pass; else rank-sorted, or
heap-sorted beyond ``RANK_SORT_MAX`` entries), in a scratch row the caller lends
(``row_buffers``, sized to the state's columns: a row has at most one value per column).
The state and the scratch row arrive as one descriptor (``one_row_state``: one argument to
unbox instead of six). ``learn_row`` steps on the row the last ``score_one`` left in the
scratch row (River scores x, then learns it). Nothing touches the state when a value is not
finite (the rule contract, ``rules/__init__``).
"""
import math

import numpy as np

from ..caching import jit
from ..kernels.vector import bytes_as, is_finite_row, writable
from ..loader import loading
from .codes import BAD_VALUE, DECLINED, NOT_UPDATED, UPDATED
from .one_row_state import unpack

_family = loading()  # raises unless a family is being loaded; the loader set these two:
rule_step = family_step  # noqa: F821
rule_score = family_score  # noqa: F821


RANK_SORT_MAX = 96  # unordered rows with more entries than this are heap-sorted

# As in binary.py: a family whose rules never allocate is compiled without numba's
# reference-counted runtime (no atomic reference counts on the row and state views), the
# runtime flag the loops' own rule step was compiled with. Hence no allocation here: the
# row goes into a scratch row the caller lends, and the bytes are viewed by ``bytes_as``.
ENTRY_OPTIONS = {} if _family.allocates else {"_nrt": False}


@jit(**ENTRY_OPTIONS)
def _sift_down(idx, val, root, end):
    while 2 * root + 1 < end:
        child = 2 * root + 1
        if child + 1 < end and idx[child + 1] > idx[child]:
            child += 1
        if idx[root] >= idx[child]:
            return
        idx[root], idx[child] = idx[child], idx[root]
        val[root], val[child] = val[child], val[root]
        root = child


@jit(**ENTRY_OPTIONS)
def _heapsort_by_column(idx, val, m):
    """Sort the pairs (idx[k], val[k]), k < m, by column, in place, without allocating (the
    entries may run without numba's runtime)."""
    for root in range(m // 2 - 1, -1, -1):
        _sift_down(idx, val, root, m)
    for end in range(m - 1, 0, -1):
        idx[0], idx[end] = idx[end], idx[0]
        val[0], val[end] = val[end], val[0]
        _sift_down(idx, val, 0, end)


@jit(**ENTRY_OPTIONS)
def _rank_sort(c, values, idx, val, all_kept):
    """Write the kept entries of ``c``/``values`` (column ≥ 0, value ≠ 0) at their rank among
    them: the row in increasing column order (columns are distinct). O(n²) compares, but
    branch-free ones that LLVM vectorizes: 40 random columns in ~0.35 µs, against ~0.8 µs by
    insertion sort, whose compares mispredict (bag-of-words dicts come in any key order).
    Reads only ``c`` and ``values`` (the example's bytes), so the row may be overwritten."""
    n = c.shape[0]
    for i in range(n):
        ci = c[i]
        if all_kept:
            r = 0
            for j in range(n):
                r += c[j] < ci
        else:
            if ci < 0 or values[i] == 0.0:
                continue
            r = 0
            for j in range(n):
                r += (c[j] < ci) & (c[j] >= 0) & (values[j] != 0.0)
        idx[r] = ci
        val[r] = values[i]


@jit(**ENTRY_OPTIONS)
def _row(cols, raw, idx_buf, val_buf):
    """The known features' nonzero values (a NaN is kept: the rule must see it), in
    increasing column order, written into the caller's scratch row, its length m stored
    after it (``idx_buf[capacity]``, read by ``learn_row``); returns m.

    ``idx_buf`` (uint32) and ``val_buf`` (float64) are lent read-only and written through
    ``kernels.writable``: the row handed to the rule is then ``idx_buf[:m]``,
    ``val_buf[:m]``, read-only slices of C arrays — exactly the types of the loops' CSR
    rows (``indices[a:b]``, ``data[a:b]``), so the rule step compiled for ``run_csr`` is
    the one called here (one compilation, not two)."""
    c = bytes_as(cols, np.int64)
    values = bytes_as(raw, np.float64)
    idx, val = writable(idx_buf), writable(val_buf)
    capacity = val.shape[0]
    m = 0
    ordered = True
    last = -1
    for k in range(c.shape[0]):
        if c[k] >= 0 and values[k] != 0.0:
            if m == capacity:
                raise IndexError("olc: the scratch row is shorter than the example")
            if c[k] < last:
                ordered = False
            last = c[k]
            idx[m] = c[k]
            val[m] = values[k]
            m += 1
    if not ordered:
        if c.shape[0] <= RANK_SORT_MAX:
            _rank_sort(c, values, idx, val, m == c.shape[0])
        else:
            _heapsort_by_column(idx, val, m)
    idx[capacity] = m
    return m


@jit(**ENTRY_OPTIONS)
def learn_one(rule, cols, raw, y, state, fast):
    """One round of the online protocol on one example (predict, then update), in place, on
    the arrays of ``state`` (a descriptor: ``one_row_state``).

    Returns UPDATED / NOT_UPDATED, or — the state untouched — BAD_VALUE (a NaN/inf value) or
    DECLINED (the step's result would not be finite, or a rule whose state has a capacity
    asks for more room; the caller grows it and runs the step again)."""
    vecs, ints, scal, hp, idx_buf, val_buf = unpack(state)
    m = _row(cols, raw, idx_buf, val_buf)
    s, _, updated, _ = rule_step(rule, idx_buf[:m], val_buf[:m], y, vecs, ints, scal, hp,
                                 fast)
    if not math.isfinite(s):
        return DECLINED if is_finite_row(bytes_as(raw, np.float64)) else BAD_VALUE
    return UPDATED if updated else NOT_UPDATED


@jit(**ENTRY_OPTIONS)
def learn_row(rule, y, state, fast):
    """``learn_one`` on the row the last ``score_one`` wrote into this scratch row (its
    length in ``idx_buf[capacity]``): River's progressive validation scores x, then learns
    the same x, whose row need not be built twice. The caller knows the row is x's (same
    dict contents, same scratch row, nothing written in between). ``score_one`` found its
    values finite, so a non-finite step is DECLINED."""
    vecs, ints, scal, hp, idx_buf, val_buf = unpack(state)
    m = idx_buf[val_buf.shape[0]]
    s, _, updated, _ = rule_step(rule, idx_buf[:m], val_buf[:m], y, vecs, ints, scal, hp,
                                 fast)
    if not math.isfinite(s):
        return DECLINED
    return UPDATED if updated else NOT_UPDATED


@jit(**ENTRY_OPTIONS)
def score_one(rule, cols, raw, state, fast):
    """The decision value w·x + b of the current state; NaN when a value of ``raw`` is not
    finite, whether its feature is known or not."""
    if not is_finite_row(bytes_as(raw, np.float64)):
        return math.nan
    vecs, ints, scal, hp, idx_buf, val_buf = unpack(state)
    m = _row(cols, raw, idx_buf, val_buf)
    return rule_score(rule, idx_buf[:m], val_buf[:m], vecs, ints, scal, hp, fast)
