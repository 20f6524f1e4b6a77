"""The online loops of a binary family: one per input layout, generic over the update rule —
a *template*, executed once per family by ``loader.instantiate`` (never imported directly),
with ``family_step`` / ``family_score`` already set to that family's rule dispatchers; each
family thus gets its own compiled, disk-cached loops, and compiling one never compiles another.

Arguments come in bundles, plain tuples of arrays made by ``driver.binary`` (a tuple is one
argument to pass and unbox; a ``NamedTuple`` would be typed by numba's slow path, ~2 µs more
per call), unpacked by name at the top of each loop:
``state``   (vecs, ints, scal): the rule's state, mutated in place;
``record``  (pred int8, score, updated bool, aux): written at index k − start;
``check``   the τ evaluation set: (X, y) dense, (data, indices, indptr, y) CSR; read only when
            ``has_check``.
The input rows stay separate arguments: a CSR loop's ``data`` is None for binary rows, a type
numba settles at compile time only for an argument (``csr_row_step``).

The loop visits positions k = start..stop-1 of a stream whose k-th row is ``order[k]`` (the
identity for the data's order, a permutation for a shuffled pass), so passes and chunks need
no copy of X. At each position the rule predicts with the current state, then updates it;
the loop records, at index k − start of the output arrays, the prediction (±1), the raw
score, whether the rule updated and the rule's aux value.

Stopping: a non-finite score stops the loop before anything of that row is learned (rules
guarantee it, see ``rules/__init__``); the row is then tested: a NaN/inf value gives status
``BAD_ROW``, otherwise ``OVERFLOW``. Rows before it were learned — the streaming semantics;
the caller raises with the row's location.

τ: optionally (``check``), after every update the new classifier is tested on a fixed
evaluation set and the first step at which it classifies every evaluation point with positive
margin is returned (Ho-Nguyen et al. 2025, §6 (iii)); the test stops at the first violating
point and is not repeated once τ is found.
"""
import math

import numpy as np

from ..caching import jit
from ..kernels.vector import (INLINE, PREFETCH_AHEAD, PREFETCH_MIN_WEIGHTS, ROW_PREFETCH_AHEAD,
                              is_finite_row, prefetch_csr_row, prefetch_weights)
from ..loader import loading
from .codes import BAD_ROW, OK, OVERFLOW

_family = loading()  # raises unless a family is being loaded; the loader set these two:
rule_step = family_step  # noqa: F821
rule_score = family_score  # noqa: F821

# Without numba's reference-counted runtime (NRT), the row views X[i] and vecs[W] made for
# every row cost no atomic reference-count updates: measured on dense 400,000 × 100 rows,
# the perceptron loop runs at 60 ns per row without it, 96 with it (a bare loop: 52). NRT
# propagates to every function the loops call, so a family whose rules allocate keeps it
# (``Family.allocates``).
LOOP_OPTIONS = {} if _family.allocates else {"_nrt": False}
# The run entries release the GIL, so independent learners (the drop-ins' one-vs-rest
# problems, olc.sklearn) learn on threads at once.
RUN_OPTIONS = dict(LOOP_OPTIONS, nogil=True)

# Binary CSR input (every stored value 1, ``kernels.all_ones``, checked once per call by the
# driver) reaches the loops of a family with ``Family.binary_rows`` as data = None, and its
# rules as val = None: the kernels then skip the values altogether (bit for bit the same
# results, ``kernels``). data = None is its own type, so ``run_csr``/``score_csr`` have a
# binary specialization compiled on first use of binary data, apart from the valued one: a
# user of binary data (a9a) compiles only the first, a user of valued data only the second
# (each about half of the loop's compile: the rules' values/no-values copies). The
# ``data is None`` tests are settled at compile time (numba prunes them per type). The other
# families' rules read val themselves and always get the values. (Such a family's rule steps
# are inlined by LLVM, not numba: ``kernels.LLVM_INLINE``; numba's IR inlining of the two
# copies doubled its compile time.)
if _family.binary_rows:
    @jit(inline=INLINE)
    def csr_row_step(rule, idx, data, a, b, yi, vecs, ints, scal, hp, fast):
        if data is None:
            return rule_step(rule, idx, None, yi, vecs, ints, scal, hp, fast)
        return rule_step(rule, idx, data[a:b], yi, vecs, ints, scal, hp, fast)

    @jit(inline=INLINE)
    def csr_row_score(rule, idx, data, a, b, vecs, ints, scal, hp, fast):
        if data is None:
            return rule_score(rule, idx, None, vecs, ints, scal, hp, fast)
        return rule_score(rule, idx, data[a:b], vecs, ints, scal, hp, fast)
else:
    @jit(inline=INLINE)
    def csr_row_step(rule, idx, data, a, b, yi, vecs, ints, scal, hp, fast):
        return rule_step(rule, idx, data[a:b], yi, vecs, ints, scal, hp, fast)

    @jit(inline=INLINE)
    def csr_row_score(rule, idx, data, a, b, vecs, ints, scal, hp, fast):
        return rule_score(rule, idx, data[a:b], vecs, ints, scal, hp, fast)


@jit(inline=INLINE)
def csr_row_is_finite(data, a, b):
    """Whether CSR row [a, b) has only finite values (binary rows, data None: all are 1)."""
    if data is None:
        return True
    return is_finite_row(data[a:b])


@jit(**LOOP_OPTIONS)
def _check_dense(rule, cX, cy, vecs, ints, scal, hp, fast):
    for i in range(cX.shape[0]):
        if cy[i] * rule_score(rule, None, cX[i], vecs, ints, scal, hp, fast) <= 0.0:
            return False
    return True


@jit(**LOOP_OPTIONS)
def _check_csr(rule, cdata, cindices, cindptr, cy, vecs, ints, scal, hp, fast):
    for i in range(cindptr.shape[0] - 1):
        a, b = cindptr[i], cindptr[i + 1]
        s = rule_score(rule, cindices[a:b], cdata[a:b], vecs, ints, scal, hp, fast)
        if cy[i] * s <= 0.0:
            return False
    return True


@jit(**RUN_OPTIONS)
def run_dense(rule, X, y, order, start, stop, state, hp, fast, record, check, has_check,
              step_offset):
    """Returns (τ or -1, position reached, status)."""
    vecs, ints, scal = state
    pred, score, updated, aux = record
    check_X, check_y = check
    tau = -1
    for k in range(start, stop):
        i = order[k]
        s, p, u, a = rule_step(rule, None, X[i], y[i], vecs, ints, scal, hp, fast)
        if not math.isfinite(s):
            return tau, k, OVERFLOW if is_finite_row(X[i]) else BAD_ROW
        j = k - start
        score[j] = s
        pred[j] = np.int8(p)
        updated[j] = u
        aux[j] = a
        if has_check and u and tau < 0:
            if _check_dense(rule, check_X, check_y, vecs, ints, scal, hp, fast):
                tau = step_offset + j + 1
    return tau, stop, OK


@jit(**RUN_OPTIONS)
def run_csr(rule, data, indices, indptr, y, order, start, stop, state, hp, fast, record, check,
            has_check, step_offset):
    """``data`` None: binary rows, every stored value is 1 (see ``csr_row_step``)."""
    vecs, ints, scal = state
    pred, score, updated, aux = record
    check_data, check_indices, check_indptr, check_y = check
    tau = -1
    n_prefetch = min(vecs.shape[0], 2)  # v (and a second vector, e.g. OMM's v₋)
    if n_prefetch * vecs.shape[1] < PREFETCH_MIN_WEIGHTS:
        n_prefetch = 0  # the weights stay in L2: prefetching them only costs instructions
    elif vecs.strides[1] != vecs.itemsize:
        n_prefetch = 1  # feature-major (an averaged state, layouts/feature_major.py): one line
    for k in range(start, stop):
        if k + ROW_PREFETCH_AHEAD < stop:  # a shuffled pass reads rows from random places
            ahead = order[k + ROW_PREFETCH_AHEAD]
            prefetch_csr_row(data, indices, indptr[ahead], indptr[ahead + 1])
        # The weights the row after next will read: random reads into a large weight vector
        # bound this loop (docs/architecture.md, "CSR rows").
        if n_prefetch > 0 and k + PREFETCH_AHEAD < stop:
            nxt = order[k + PREFETCH_AHEAD]
            cols = indices[indptr[nxt]:indptr[nxt + 1]]
            prefetch_weights(vecs, n_prefetch, cols)
        i = order[k]
        a0, b0 = indptr[i], indptr[i + 1]
        s, p, u, a = csr_row_step(rule, indices[a0:b0], data, a0, b0, y[i], vecs, ints, scal,
                                  hp, fast)
        if not math.isfinite(s):
            return tau, k, OVERFLOW if csr_row_is_finite(data, a0, b0) else BAD_ROW
        j = k - start
        score[j] = s
        pred[j] = np.int8(p)
        updated[j] = u
        aux[j] = a
        if has_check and u and tau < 0:
            if _check_csr(rule, check_data, check_indices, check_indptr, check_y,
                          vecs, ints, scal, hp, fast):
                tau = step_offset + j + 1
    return tau, stop, OK


@jit(**LOOP_OPTIONS)
def score_dense(rule, X, state, hp, fast, out):
    """Decision values; returns the first row with a NaN/inf value, or -1."""
    vecs, ints, scal = state
    for i in range(X.shape[0]):
        if not is_finite_row(X[i]):
            return i
        out[i] = rule_score(rule, None, X[i], vecs, ints, scal, hp, fast)
    return -1


@jit(**LOOP_OPTIONS)
def score_csr(rule, data, indices, indptr, state, hp, fast, out):
    vecs, ints, scal = state
    for i in range(indptr.shape[0] - 1):
        a, b = indptr[i], indptr[i + 1]
        if not csr_row_is_finite(data, a, b):
            return i
        out[i] = csr_row_score(rule, indices[a:b], data, a, b, vecs, ints, scal, hp, fast)
    return -1
