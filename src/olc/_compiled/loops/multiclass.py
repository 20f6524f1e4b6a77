"""Online loops of the genuinely multiclass rules (``rule_ids.Family.multiclass``: K
prototypes, one step per row that sees every class) — a *template*, executed per family by
``loader.instantiate`` as ``binary.py`` is, with that family's ``family_step`` / ``family_score``.

The same entry points and record as the one-vs-rest loops (``one_vs_rest.py``), so
``driver/k_class.py`` and ``olc.learners._framework.multiclass`` run both: ``labels`` are class
indices; the ``state`` bundle is (W, by_feature, ints, scal): K per-class states (``ints``
(K, n_ints), ``scal`` (K, n_scalars); ``hp`` (K, n_hp) apart) whose vectors come as one
C-contiguous matrix ``W`` with its order ``by_feature`` ((d, K), or (K, d) by class: the
rule's contract, ``rules/multiclass_pa.py``; ``driver/k_class.py`` passes no other layout),
with a scratch ``acc`` (K,) last; the ``record`` bundle (pred, score, updated, aux) holds,
per row, the predicted class index, its score, whether the rule updated and its aux value.
Unlike one-vs-rest, the rule's step is one call over all K classes.

Stopping: a non-finite score stops the loop before anything of that row is learned (the
rule declines the whole step), with status ``BAD_ROW`` (a NaN/inf value) or ``OVERFLOW``;
the class returned with it is 0 (no class learned the row).
"""
import math

from ..caching import jit
from ..loader import loading
from ..kernels.vector import PREFETCH_AHEAD, PREFETCH_MIN_WEIGHTS, is_finite_row, prefetch
from .codes import BAD_ROW, OK, OVERFLOW

_family = loading()  # raises unless a family is being loaded; the loader set these two:
rule_step = family_step  # noqa: F821
rule_score = family_score  # noqa: F821

LOOP_OPTIONS = {} if _family.allocates else {"_nrt": False}  # as in binary.py


@jit(**LOOP_OPTIONS)
def run_dense(rule, X, labels, order, start, stop, state, hp, fast, record, acc):
    """Returns (position reached, 0, status)."""
    W, by_feature, ints, scal = state
    pred, score, updated, aux = record
    for k in range(start, stop):
        i = order[k]
        p, s, u, a = rule_step(rule, None, X[i], labels[i], W, by_feature, ints, scal, hp,
                               fast, acc)
        if not math.isfinite(s):
            return k, 0, OVERFLOW if is_finite_row(X[i]) else BAD_ROW
        pred[k - start], score[k - start], updated[k - start], aux[k - start] = p, s, u, a
    return stop, 0, OK


@jit(**LOOP_OPTIONS)
def run_csr(rule, data, indices, indptr, labels, order, start, stop, state, hp, fast, record,
            acc):
    W, by_feature, ints, scal = state
    pred, score, updated, aux = record
    n_classes = acc.shape[0]
    # By feature and beyond the cache (as binary.run_csr): the K weights of each feature the
    # row after next will read, one prefetch per cache line of 8 weights.
    ahead = by_feature and W.shape[0] * n_classes >= PREFETCH_MIN_WEIGHTS
    for k in range(start, stop):
        if ahead and k + PREFETCH_AHEAD < stop:
            nxt = order[k + PREFETCH_AHEAD]
            for q in range(indptr[nxt], indptr[nxt + 1]):
                weights = W[indices[q]]
                for c in range(0, n_classes, 8):
                    prefetch(weights, c)
                prefetch(weights, n_classes - 1)  # a feature's K weights may cross a line
        i = order[k]
        val = data[indptr[i]:indptr[i + 1]]
        p, s, u, a = rule_step(rule, indices[indptr[i]:indptr[i + 1]], val, labels[i], W,
                               by_feature, ints, scal, hp, fast, acc)
        if not math.isfinite(s):
            return k, 0, OVERFLOW if is_finite_row(val) else BAD_ROW
        pred[k - start], score[k - start], updated[k - start], aux[k - start] = p, s, u, a
    return stop, 0, OK


@jit(**LOOP_OPTIONS)
def score_dense(rule, X, state, hp, fast, acc, out):
    """Decision values (n, K); returns the first row with a NaN/inf value, or -1."""
    W, by_feature, ints, scal = state
    for i in range(X.shape[0]):
        if not is_finite_row(X[i]):
            return i
        rule_score(rule, None, X[i], W, by_feature, ints, scal, hp, fast, acc, out[i])
    return -1


@jit(**LOOP_OPTIONS)
def score_csr(rule, data, indices, indptr, state, hp, fast, acc, out):
    W, by_feature, ints, scal = state
    for i in range(indptr.shape[0] - 1):
        val = data[indptr[i]:indptr[i + 1]]
        if not is_finite_row(val):
            return i
        rule_score(rule, indices[indptr[i]:indptr[i + 1]], val, W, by_feature, ints, scal, hp,
                   fast, acc, out[i])
    return -1
