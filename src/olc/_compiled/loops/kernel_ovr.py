"""One-vs-rest loops of the ``kernel`` family with one kernel row per example shared by the
K classes (``rules/kernel_shared.py``) — a template, instantiated for the ``kernel`` family
only (``loader.KERNEL_OVR``), with the entries, state bundle, record and ``learned`` of
``one_vs_rest.py``; ``driver/kernel_rows.py`` calls them when every class's STEPS agree.

Row-outer for dense and CSR rows alike (the shared values are per example): per row,
x's ‖x‖², then for c = 0..K−1 ``share_row`` fills class c's KROW (from the values the
classes before it computed, the rest from its own pool) and class c's step runs on its
filled pool (``rules/kernel.filled_step``). Where sharing does not pay (the pools overlap
little: the merge then costs more than it saves), a row runs each class's own step
(``family_step``, its own kernel row) instead: the same bits either way (PROBE_EVERY). ``scratch``: the merge's buffers — two (BORN, k)
lists of Σ_c capacity entries each (the classes alternate which is read and which written)
and (slots, positions, acc, sq) of one capacity.

Stopping as the dense one-vs-rest loop: a NaN/inf row is learned by no class (status
``BAD_ROW``, class 0); a step that overflows at class c stops the loop there, classes
0..c−1 having learned the row (``OVERFLOW``, ``learned`` says so). Class c's KROW is
cleared by its step, the later classes' were not filled yet: no scratch is left behind.
"""
import math

from ..caching import jit
from ..loader import loading
from ..kernels.vector import is_finite_row, sqnorm
from ..layouts.kernel import KernelScal as KS
from ..rules.kernel import filled_score, filled_step, share_row
from .codes import BAD_ROW, OK, OVERFLOW

loading()  # raises unless a family is being loaded (the kernel family: loader.KERNEL_OVR)
own_step = family_step  # noqa: F821 (the loader set it: each class its own kernel row)
own_score = family_score  # noqa: F821

#: Whether sharing pays is decided on the shared rows themselves and, while not sharing, on
#: one probe row every PROBE_EVERY: it pays when the classes' kernel rows hold at least
#: ``gain`` times the dots the shared row computes (``share_row``'s work; the merge costs
#: the rest; ``driver/kernel_rows.SHARE_GAIN``). Both ways give the same bits: the choice
#: changes only the time.
PROBE_EVERY = 64

# The rules allocate nothing: no reference-counted runtime; the run entries release the GIL.
LOOP_OPTIONS = {"_nrt": False}
RUN_OPTIONS = dict(LOOP_OPTIONS, nogil=True)


@jit(**LOOP_OPTIONS)
def _share(c, idx, val, xx, vecs, ints, scal, hp, scratch, n_in):
    """``share_row`` for class c, reading the list the previous class wrote."""
    born_a, k_a, born_b, k_b, rest = scratch  # returns (the list's size, work)
    P = (vecs[c], ints[c])
    if c % 2 == 0:
        return share_row(idx, val, xx, P, scal[c], hp[c], born_a, k_a, n_in, born_b, k_b, rest)
    return share_row(idx, val, xx, P, scal[c], hp[c], born_b, k_b, n_in, born_a, k_a, rest)


@jit(**LOOP_OPTIONS)
def _learn_row(rule, k, idx, val, label, state, hp, fast, record, scratch, learned,
               first_class, start, share, gain):
    """Row k for every class, sharing its kernel row or not; returns (class reached,
    status, whether sharing pays: PROBE_EVERY)."""
    vecs, ints, scal = state
    pred, score, updated, aux = record
    n_classes = vecs.shape[0]
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):  # as class 0's step would decline it
        for c in range(n_classes):
            learned[c] = k
        return 0, OVERFLOW if is_finite_row(val) else BAD_ROW, share
    best, best_score, n_updated, n_known = 0, 0.0, 0, 0
    slots, work = 0, 0
    for c in range(n_classes):
        y_c = 1.0 if label == first_class + c else -1.0
        if share:
            slots += int(scal[c, KS.N_STORED])
            n_known, done = _share(c, idx, val, xx, vecs, ints, scal, hp, scratch, n_known)
            work += done
            s, p, u, a = filled_step(rule, idx, val, y_c, vecs[c], ints[c], scal[c], hp[c],
                                     fast)
        else:
            s, p, u, a = own_step(rule, idx, val, y_c, vecs[c], ints[c], scal[c], hp[c], fast)
        if not math.isfinite(s):
            for c2 in range(n_classes):
                learned[c2] = k + 1 if c2 < c else k
            return c, OVERFLOW, share
        if c == 0 or s > best_score:
            best, best_score = c, s
        if u:
            n_updated += 1
    j = k - start
    pred[j] = best
    score[j] = best_score
    updated[j] = n_updated > 0
    aux[j] = n_updated
    return n_classes, OK, work * gain <= slots


@jit(**RUN_OPTIONS)
def run_dense_shared(rule, X, labels, order, start, stop, state, hp, fast, record, scratch,
                     gain, learned, first_class):
    """Returns (position reached, class reached there, status)."""
    share = True
    for k in range(start, stop):
        i = order[k]
        probe = share or (k - start) % PROBE_EVERY == 0
        c, status, pays = _learn_row(rule, k, None, X[i], labels[i], state, hp, fast, record,
                                     scratch, learned, first_class, start, probe, gain)
        if status != OK:
            return k, c, status
        if probe:
            share = pays
    for c in range(state[0].shape[0]):
        learned[c] = stop
    return stop, state[0].shape[0], OK


@jit(**RUN_OPTIONS)
def run_csr_shared(rule, data, indices, indptr, labels, order, start, stop, state, hp, fast,
                   record, scratch, gain, learned, first_class):
    share = True
    for k in range(start, stop):
        i = order[k]
        a0, a1 = indptr[i], indptr[i + 1]
        probe = share or (k - start) % PROBE_EVERY == 0
        c, status, pays = _learn_row(rule, k, indices[a0:a1], data[a0:a1], labels[i], state,
                                     hp, fast, record, scratch, learned, first_class, start,
                                     probe, gain)
        if status != OK:
            return k, c, status
        if probe:
            share = pays
    for c in range(state[0].shape[0]):
        learned[c] = stop
    return stop, state[0].shape[0], OK


@jit(**LOOP_OPTIONS)
def _score_row(idx, val, rule, state, hp, fast, scratch, out_row, share, gain):
    """Row's K scores, sharing its kernel row or not; returns whether sharing pays."""
    vecs, ints, scal = state
    if not share:
        for c in range(vecs.shape[0]):
            out_row[c] = own_score(rule, idx, val, vecs[c], ints[c], scal[c], hp[c], fast)
        return False
    xx = sqnorm(idx, val)
    n_known, slots, work = 0, 0, 0
    for c in range(vecs.shape[0]):
        slots += int(scal[c, KS.N_STORED])
        n_known, done = _share(c, idx, val, xx, vecs, ints, scal, hp, scratch, n_known)
        work += done
        out_row[c] = filled_score(rule, idx, val, vecs[c], ints[c], scal[c], hp[c], fast)
    return work * gain <= slots


@jit(**LOOP_OPTIONS)
def score_dense_shared(rule, X, state, hp, fast, scratch, gain, out):
    """Decision values (n, K); returns the first row with a NaN/inf value, or -1."""
    share = True
    for i in range(X.shape[0]):
        if not is_finite_row(X[i]):
            return i
        probe = share or i % PROBE_EVERY == 0
        pays = _score_row(None, X[i], rule, state, hp, fast, scratch, out[i], probe, gain)
        if probe:
            share = pays
    return -1


@jit(**LOOP_OPTIONS)
def score_csr_shared(rule, data, indices, indptr, state, hp, fast, scratch, gain, out):
    n = indptr.shape[0] - 1
    for i in range(n):
        if not is_finite_row(data[indptr[i]:indptr[i + 1]]):
            return i
    share = True
    for i in range(n):
        a, b = indptr[i], indptr[i + 1]
        probe = share or i % PROBE_EVERY == 0
        pays = _score_row(indices[a:b], data[a:b], rule, state, hp, fast, scratch, out[i],
                          probe, gain)
        if probe:
            share = pays
    return -1
