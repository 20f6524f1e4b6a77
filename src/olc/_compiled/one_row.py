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
stream whose dicts keep their key order — it costs one pass). Nothing touches the state when
a value is not finite (the rule contract, ``rules/__init__``).
"""
import math

import numpy as np

from .caching import jit
from .kernels import is_finite_row
from .one_row_entries import BAD_VALUE, DECLINED, NOT_UPDATED, UPDATED, loading

_family = loading()  # raises unless a family is being loaded; the loader set these two:
rule_step = family_step  # noqa: F821
rule_score = family_score  # noqa: F821


INSERTION_SORT_MAX = 96  # rows longer than this are sorted by argsort (measured crossover)


@jit()
def _row(cols, raw):
    """(idx uint32, val float64) of the known features' nonzero values, in increasing column
    order (a NaN is kept: the rule must see it)."""
    c = np.frombuffer(cols, np.int64)
    values = np.frombuffer(raw, np.float64)
    n = c.shape[0]
    m = 0
    ordered = True
    last = -1
    for k in range(n):
        if c[k] >= 0 and values[k] != 0.0:
            m += 1
            if c[k] < last:
                ordered = False
            last = c[k]
    idx = np.empty(m, np.uint32)
    val = np.empty(m)
    j = 0
    for k in range(n):
        if c[k] >= 0 and values[k] != 0.0:
            idx[j] = c[k]
            val[j] = values[k]
            j += 1
    if not ordered:
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
        else:
            order = np.argsort(idx)  # columns are distinct: any sort gives the same order
            idx = idx[order]
            val = val[order]
    return idx, val


@jit()
def learn_one(rule, cols, raw, y, vecs, ints, scal, hp, fast):
    """One round of the online protocol on one example (predict, then update), in place.

    Returns UPDATED / NOT_UPDATED, or — the state untouched — BAD_VALUE (a NaN/inf value) or
    DECLINED (the step's result would not be finite, or a rule whose state has a capacity
    asks for more room; the caller grows it and runs the step again)."""
    idx, val = _row(cols, raw)
    s, _, updated, _ = rule_step(rule, idx, val, y, vecs, ints, scal, hp, fast)
    if not math.isfinite(s):
        return DECLINED if is_finite_row(np.frombuffer(raw, np.float64)) else BAD_VALUE
    return UPDATED if updated else NOT_UPDATED


@jit()
def score_one(rule, cols, raw, vecs, ints, scal, hp, fast):
    """The decision value w·x + b of the current state; NaN when a value of ``raw`` is not
    finite, whether its feature is known or not."""
    if not is_finite_row(np.frombuffer(raw, np.float64)):
        return math.nan
    idx, val = _row(cols, raw)
    return rule_score(rule, idx, val, vecs, ints, scal, hp, fast)
