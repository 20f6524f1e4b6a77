"""One-vs-rest online loops (K ≥ 3 classes): K binary learners in one compiled pass — a
*template*, instantiated per family by ``loader.instantiate`` exactly as ``binary.py`` is
(``family_step`` / ``family_score`` set to the family's rule dispatchers),
and only when a multiclass learner of that family is first used: binary users never compile it.

State of K learners, the ``state`` bundle (vecs, ints, scal) as in ``binary.py``: ``vecs``
(K, n_vectors, d), ``ints`` (K, n_ints), ``scal`` (K, n_scalars); ``hp`` (K, n_hp); the
``record`` bundle (pred, score, updated, aux) too. Class c's binary state is the view ``[c]``, of exactly the types a binary
learner's state has, so each rule runs unchanged. Class c's learner sees the label
y_c = +1 when the row's class index is c and −1 otherwise (scikit-learn's one-vs-rest).

Order. Dense rows: row-outer — per row (position k of the stream ``order``), for
c = 0..K−1, ``rule_step`` on class c's state (predict, then update). CSR rows: the K learners
are independent, so the loop runs **class-outer in blocks** of ``block`` stream positions:
for c = 0..K−1, class c's ``rule_step`` on every row of the block, then the next block.
Row-outer, every stored value of a CSR row reads K weights in K far-apart cache lines, and
K·d weights no longer fit in cache for a large d; class-outer, one class's weights
stay in cache for a whole block, like a binary learner's. (Dense rows are read once for the
K classes row-outer, and their K·d weights fit in cache: class-outer measured slower there;
docs/architecture.md.) Each learner sees its rows in the same order either way, so every
state, score and update is bit for bit the same. The K pre-update scores of a row meet in
the record itself: ``pred`` / ``score`` hold the argmax so far (the first class on ties, as
``numpy.argmax`` and scikit-learn's OvR), ``aux`` counts the classes that updated, and
``updated`` is set once every class has seen the row.

Threads (``driver/k_class.py``, ``n_jobs``): the entries learn the classes ``first_class`` ..
``first_class + K_g − 1`` of the stream whose state, hp and record they are given (class c of
the bundle is the stream's class ``first_class + c``, and the record's ``pred`` is that c),
and release the GIL (``nogil``), so
groups of classes run on threads, each with its own state slice and record; the driver
folds the groups' records in class order exactly as the loop folds classes.

Stopping (``learned[c]``: the first stream position class c has not learned):
- a row with a NaN/inf value is learned by no class: dense, class 0's score is not finite
  (the rules' contract, ``rules/__init__``); CSR, every row of a block is tested before any
  class learns one, and the block ends before the bad row. Status ``BAD_ROW``, class 0;
  ``learned[c]`` = its position for every class.
- a finite row whose step overflows at class c is declined by class c (the same contract).
  Dense: the loop stops there; classes 0..c−1 have learned the row. CSR: classes after c
  learn the block only up to that row (the stop moves to an earlier row if one of them
  overflows before it), so every row before the stop was learned by every class; classes
  before c have learned the block beyond it. Status ``OVERFLOW`` with the class that
  overflowed at the stop; ``learned`` tells how far each class went (undoing would need a
  copy of their states); the caller's error says so.
"""
import math

from ..caching import jit
from ..loader import loading
from ..kernels.vector import (INLINE, PREFETCH_AHEAD, PREFETCH_MIN_WEIGHTS, is_finite_row,
                      prefetch_weights)
from .codes import BAD_ROW, OK, OVERFLOW

_family = loading()  # raises unless a family is being loaded; the loader set these two:
rule_step = family_step  # noqa: F821
rule_score = family_score  # noqa: F821

# As in binary.py: without numba's reference-counted runtime the per-row and per-class views
# (X[i], vecs[c]) cost no atomic reference counting; families whose rules allocate keep it.
LOOP_OPTIONS = {} if _family.allocates else {"_nrt": False}
# The run entries release the GIL: groups of classes learn on threads (driver/k_class.py).
RUN_OPTIONS = dict(LOOP_OPTIONS, nogil=True)


@jit(inline=INLINE)
def _fold(c, j, s, u, pred, score, aux):
    """Class c's pre-update score s of record row j: the argmax so far (first on ties) and
    the number of classes that updated."""
    if c == 0 or s > score[j]:
        pred[j] = c
        score[j] = s
    aux[j] = (aux[j] if c > 0 else 0.0) + (1.0 if u else 0.0)


@jit(inline=INLINE)
def _close_block(start, b0, end, updated, aux):
    for k in range(b0, end):
        updated[k - start] = aux[k - start] > 0.0


@jit(**RUN_OPTIONS)
def run_dense_ovr(rule, X, labels, order, start, stop, state, hp, fast, record, block, learned,
                  first_class):
    """Row-outer (dense rows: see the module docstring; ``block`` is unused). Returns
    (position reached, class reached there, status); ``learned[c]``: the first position
    class c has not learned."""
    vecs, ints, scal = state
    pred, score, updated, aux = record
    n_classes = vecs.shape[0]
    for k in range(start, stop):
        i = order[k]
        label = labels[i]
        best, best_score, n_updated = 0, 0.0, 0
        for c in range(n_classes):
            y_c = 1.0 if label == first_class + c else -1.0
            s, p, u, a = rule_step(rule, None, X[i], y_c, vecs[c], ints[c], scal[c], hp[c], fast)
            if not math.isfinite(s):
                for c2 in range(n_classes):
                    learned[c2] = k + 1 if c2 < c else k
                return k, c, OVERFLOW if is_finite_row(X[i]) else BAD_ROW
            if c == 0 or s > best_score:
                best, best_score = c, s
            if u:
                n_updated += 1
        j = k - start
        pred[j] = best
        score[j] = best_score
        updated[j] = n_updated > 0
        aux[j] = n_updated
    for c in range(n_classes):
        learned[c] = stop
    return stop, n_classes, OK


@jit(**RUN_OPTIONS)
def run_csr_ovr(rule, data, indices, indptr, labels, order, start, stop, state, hp, fast, record,
                block, learned, first_class):
    vecs, ints, scal = state
    pred, score, updated, aux = record
    n_classes = vecs.shape[0]
    n_prefetch = min(vecs.shape[1], 2)  # as binary.run_csr, on one class's vectors
    if n_prefetch * vecs.shape[2] < PREFETCH_MIN_WEIGHTS:
        n_prefetch = 0
    elif vecs.strides[2] != vecs.itemsize:
        n_prefetch = 1  # feature-major (as binary.run_csr)
    for b0 in range(start, stop, block):
        end, status, cls = min(stop, b0 + block), OK, n_classes
        for k in range(b0, end):  # a NaN/inf row: no class learns it
            i = order[k]
            if not is_finite_row(data[indptr[i]:indptr[i + 1]]):
                end, status, cls = k, BAD_ROW, 0
                break
        for c in range(n_classes):
            reached = end
            for k in range(b0, end):
                if n_prefetch > 0 and k + PREFETCH_AHEAD < end:
                    nxt = order[k + PREFETCH_AHEAD]
                    cols = indices[indptr[nxt]:indptr[nxt + 1]]
                    prefetch_weights(vecs[c], n_prefetch, cols)
                i = order[k]
                a0, a1 = indptr[i], indptr[i + 1]
                y_c = 1.0 if labels[i] == first_class + c else -1.0
                s, p, u, a = rule_step(rule, indices[a0:a1], data[a0:a1], y_c, vecs[c],
                                       ints[c], scal[c], hp[c], fast)
                if not math.isfinite(s):  # the row is finite: an overflow, declined
                    reached = k
                    break
                _fold(c, k - start, s, u, pred, score, aux)
            learned[c] = reached
            if reached < end:
                end, status, cls = reached, OVERFLOW, c
        _close_block(start, b0, end, updated, aux)
        if status != OK:
            return end, cls, status
    for c in range(n_classes):
        learned[c] = stop
    return stop, n_classes, OK


@jit(**LOOP_OPTIONS)
def score_dense_ovr(rule, X, state, hp, fast, out):
    """Decision values (n, K); returns the first row with a NaN/inf value, or -1."""
    vecs, ints, scal = state
    for i in range(X.shape[0]):
        if not is_finite_row(X[i]):
            return i
        for c in range(vecs.shape[0]):
            out[i, c] = rule_score(rule, None, X[i], vecs[c], ints[c], scal[c], hp[c], fast)
    return -1


@jit(**LOOP_OPTIONS)
def score_csr_ovr(rule, data, indices, indptr, state, hp, fast, out):
    """Class-outer (one class's weights at a time), after every row is found finite."""
    vecs, ints, scal = state
    n = indptr.shape[0] - 1
    for i in range(n):
        if not is_finite_row(data[indptr[i]:indptr[i + 1]]):
            return i
    for c in range(vecs.shape[0]):
        for i in range(n):
            a, b = indptr[i], indptr[i + 1]
            out[i, c] = rule_score(rule, indices[a:b], data[a:b], vecs[c], ints[c], scal[c],
                                   hp[c], fast)
    return -1
