"""One example at a time, for River's ``learn_one`` / ``predict_one`` — a *template*, like
``loops.py``.

``one_row_entries.load(family)`` executes this file once per family, with ``family_step`` /
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
stream whose dicts keep their key order — it costs one pass), in a scratch row the caller
lends (``row_buffers``, sized to the state's columns: a row has at most one value per
column). Nothing touches the state when a value is not finite (the rule contract,
``rules/__init__``).
"""
import math

import numpy as np

from .caching import jit
from .kernels import bytes_as, is_finite_row, writable
from .one_row_entries import BAD_VALUE, DECLINED, NOT_UPDATED, UPDATED, loading

_family = loading()  # raises unless a family is being loaded; the loader set these two:
rule_step = family_step  # noqa: F821
rule_score = family_score  # noqa: F821


INSERTION_SORT_MAX = 96  # rows longer than this are heap-sorted (measured crossover)

# As in loops.py: a family whose rules never allocate is compiled without numba's
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
def _sort_by_column(idx, val, m):
    """Sort the pairs (idx[k], val[k]), k < m, by column, in place (no allocation: the entries
    may run without numba's runtime). Columns are distinct, so any correct sort gives the
    same row: insertion sort for short rows (usually already sorted: one pass), heapsort
    beyond ``INSERTION_SORT_MAX``."""
    if m <= INSERTION_SORT_MAX:
        for a in range(1, m):
            key, value = idx[a], val[a]
            b = a - 1
            while b >= 0 and idx[b] > key:
                idx[b + 1] = idx[b]
                val[b + 1] = val[b]
                b -= 1
            idx[b + 1] = key
            val[b + 1] = value
        return
    for root in range(m // 2 - 1, -1, -1):
        _sift_down(idx, val, root, m)
    for end in range(m - 1, 0, -1):
        idx[0], idx[end] = idx[end], idx[0]
        val[0], val[end] = val[end], val[0]
        _sift_down(idx, val, 0, end)


@jit(**ENTRY_OPTIONS)
def _row(cols, raw, idx_buf, val_buf):
    """The known features' nonzero values (a NaN is kept: the rule must see it), in
    increasing column order, written into the caller's scratch row; returns their count m.

    ``idx_buf`` (uint32) and ``val_buf`` (float64) are lent read-only and written through
    ``kernels.writable``: the row handed to the rule is then ``idx_buf[:m]``,
    ``val_buf[:m]``, read-only slices of C arrays — exactly the types of the loops' CSR
    rows (``indices[a:b]``, ``data[a:b]``), so the rule step compiled for ``run_csr`` is
    the one called here (one compilation, not two)."""
    c = bytes_as(cols, np.int64)
    values = bytes_as(raw, np.float64)
    idx, val = writable(idx_buf), writable(val_buf)
    capacity = idx.shape[0]
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
        _sort_by_column(idx, val, m)
    return m


@jit(**ENTRY_OPTIONS)
def learn_one(rule, cols, raw, y, vecs, ints, scal, hp, idx_buf, val_buf, fast):
    """One round of the online protocol on one example (predict, then update), in place.

    Returns UPDATED / NOT_UPDATED, or — the state untouched — BAD_VALUE (a NaN/inf value) or
    DECLINED (the step's result would not be finite, or a rule whose state has a capacity
    asks for more room; the caller grows it and runs the step again)."""
    m = _row(cols, raw, idx_buf, val_buf)
    s, _, updated, _ = rule_step(rule, idx_buf[:m], val_buf[:m], y, vecs, ints, scal, hp,
                                 fast)
    if not math.isfinite(s):
        return DECLINED if is_finite_row(bytes_as(raw, np.float64)) else BAD_VALUE
    return UPDATED if updated else NOT_UPDATED


@jit(**ENTRY_OPTIONS)
def score_one(rule, cols, raw, vecs, ints, scal, hp, idx_buf, val_buf, fast):
    """The decision value w·x + b of the current state; NaN when a value of ``raw`` is not
    finite, whether its feature is known or not."""
    if not is_finite_row(bytes_as(raw, np.float64)):
        return math.nan
    m = _row(cols, raw, idx_buf, val_buf)
    return rule_score(rule, idx_buf[:m], val_buf[:m], vecs, ints, scal, hp, fast)
