"""One-vs-rest online loops (K ≥ 3 classes): K binary learners in one compiled pass — a
*template*, executed per family by ``families.load_ovr`` exactly as ``loops.py`` is by
``families.load`` (``family_step`` / ``family_score`` set to the family's rule dispatchers),
and only when a multiclass learner of that family is first used: binary users never compile it.

State of K learners: ``vecs`` (K, n_vectors, d), ``ints`` (K, n_ints), ``scal`` (K, n_scalars),
``hp`` (K, n_hp); class c's binary state is the view ``[c]``, of exactly the types a binary
learner's state has, so each rule runs unchanged. Class c's learner sees the label
y_c = +1 when the row's class index is c and −1 otherwise (scikit-learn's one-vs-rest).

Per row (position k of the stream ``order``): for c = 0..K−1, ``rule_step`` on class c's state
(predict, then update). The prediction is the class of the largest pre-update score (the first
one on ties, as ``numpy.argmax`` and scikit-learn's OvR); the record holds its index, its score,
whether any class updated, and (aux) how many classes updated.

Stopping: a row with a NaN/inf value gives class 0 a non-finite score (the rules' contract,
``rules/__init__``) before any class learned it: status ``BAD_ROW`` with class 0. A finite row
whose step overflows at class c is declined by class c (the same contract) and the loop stops
with ``OVERFLOW`` and class c: classes 0..c−1 have learned that row (their updates are not
undone: that would need a copy of K states per row), classes c..K−1 have not. The caller says so.
"""
import math

from .caching import jit
from .families import loading
from .kernels import is_finite_row
from .status import BAD_ROW, OK, OVERFLOW

_family = loading()  # raises unless a family is being loaded; families.load_ovr set these two:
rule_step = family_step  # noqa: F821
rule_score = family_score  # noqa: F821

# As in loops.py: without numba's reference-counted runtime the per-row and per-class views
# (X[i], vecs[c]) cost no atomic reference counting; families whose rules allocate keep it.
LOOP_OPTIONS = {} if _family.allocates else {"_nrt": False}


@jit(**LOOP_OPTIONS)
def run_dense_ovr(rule, X, labels, order, start, stop, vecs, ints, scal, hp, fast, pred, score,
                  updated, aux):
    """Returns (position reached, class reached there, status)."""
    n_classes = vecs.shape[0]
    for k in range(start, stop):
        i = order[k]
        label = labels[i]
        best, best_score, n_updated = 0, 0.0, 0
        for c in range(n_classes):
            y_c = 1.0 if label == c else -1.0
            s, p, u, a = rule_step(rule, None, X[i], y_c, vecs[c], ints[c], scal[c], hp[c], fast)
            if not math.isfinite(s):
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
    return stop, n_classes, OK


@jit(**LOOP_OPTIONS)
def run_csr_ovr(rule, data, indices, indptr, labels, order, start, stop, vecs, ints, scal, hp,
                fast, pred, score, updated, aux):
    n_classes = vecs.shape[0]
    for k in range(start, stop):
        i = order[k]
        a0, b0 = indptr[i], indptr[i + 1]
        idx, val = indices[a0:b0], data[a0:b0]
        label = labels[i]
        best, best_score, n_updated = 0, 0.0, 0
        for c in range(n_classes):
            y_c = 1.0 if label == c else -1.0
            s, p, u, a = rule_step(rule, idx, val, y_c, vecs[c], ints[c], scal[c], hp[c], fast)
            if not math.isfinite(s):
                return k, c, OVERFLOW if is_finite_row(val) else BAD_ROW
            if c == 0 or s > best_score:
                best, best_score = c, s
            if u:
                n_updated += 1
        j = k - start
        pred[j] = best
        score[j] = best_score
        updated[j] = n_updated > 0
        aux[j] = n_updated
    return stop, n_classes, OK


@jit(**LOOP_OPTIONS)
def score_dense_ovr(rule, X, vecs, ints, scal, hp, fast, out):
    """Decision values (n, K); returns the first row with a NaN/inf value, or -1."""
    for i in range(X.shape[0]):
        if not is_finite_row(X[i]):
            return i
        for c in range(vecs.shape[0]):
            out[i, c] = rule_score(rule, None, X[i], vecs[c], ints[c], scal[c], hp[c], fast)
    return -1


@jit(**LOOP_OPTIONS)
def score_csr_ovr(rule, data, indices, indptr, vecs, ints, scal, hp, fast, out):
    for i in range(indptr.shape[0] - 1):
        a, b = indptr[i], indptr[i + 1]
        if not is_finite_row(data[a:b]):
            return i
        for c in range(vecs.shape[0]):
            out[i, c] = rule_score(rule, indices[a:b], data[a:b], vecs[c], ints[c], scal[c],
                                   hp[c], fast)
    return -1
