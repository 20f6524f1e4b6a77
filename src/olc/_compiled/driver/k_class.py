"""Python-side bridge to the loops of K-class streams: the one-vs-rest loops
(``loops/one_vs_rest.py``: K binary learners of one rule) or, for a genuinely multiclass family
(``rule_ids.Family.multiclass``), the family's own loops (``loops/multiclass.py``: the same
arguments, but the prototypes as one matrix ``W`` in the order the layout chose, and a
scratch: ``layouts/multiclass_pa.compiled_view``). Either way the
state is stacked along a first axis of length K."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ...config import strict_arithmetic
from ..families import load, ovr_loops_for
from ..layouts.feature_major import dense_rows_state
from ..layouts.multiclass_pa import compiled_view
from ..rule_ids import family_of
from ..._util.jobs import groups
from ..loops.codes import OK
from . import kernel_rows
from .inputs import readonly

#: Stream positions per block of the one-vs-rest CSR loop, which learns class by class within
#: a block (``loops/one_vs_rest.py``). On CSR rows with d = 2^18 (2 MiB of weights per
#: class), one-vs-rest against the sum of its K binary learners run apart: 1.4–1.5× with blocks of 1,024
#: rows (each class's weights reload into L2 per block), 1.0–1.1× from 16,384 on.
OVR_BLOCK_ROWS = 16384


def _k_class_loops(rule):
    """(run_dense, run_csr, score_dense, score_csr) for a K-class stream of ``rule``."""
    family = family_of(rule)
    if family.multiclass:
        loops = load(family.name)
        return loops.run_dense, loops.run_csr, loops.score_dense, loops.score_csr
    loops = ovr_loops_for(rule)
    return loops.run_dense_ovr, loops.run_csr_ovr, loops.score_dense_ovr, loops.score_csr_ovr


#: The least row-class steps a thread is given: below, starting threads costs more than
#: they save (a thread start is ~50-100 µs; a CSR step of a short row ~0.1-1 µs).
MIN_STEPS_PER_THREAD = 65536


def ovr_threads(n_jobs, n_classes, n_rows):
    """How many threads learn a one-vs-rest stream of ``n_rows`` rows and ``n_classes``
    classes: at most ``n_jobs`` (already effective), one per class, and each given at least
    ``MIN_STEPS_PER_THREAD`` steps. The result never depends on it."""
    return max(1, min(int(n_jobs), n_classes, (n_rows * n_classes) // MIN_STEPS_PER_THREAD))


def run_online_ovr(rule, X, labels, order, start, stop, vecs, ints, scal, hp, out, n_jobs=1):
    """One-vs-rest online protocol over positions start..stop-1 of the stream X[order].

    ``X``: a ``LoopInput``; ``labels``: int64 class index (0..K−1) of each row; ``vecs``
    (K, n_vectors, d), ``ints`` (K, n_ints), ``scal`` (K, n_scalars), ``hp`` (K, n_hp): the K
    learners' states (mutated in place) and hyper-parameters; ``out``: (pred int32 class index,
    score, updated bool, aux = classes updated) arrays of length stop − start.
    ``n_jobs``: threads (an effective count, ``_util.jobs``) for the classes of a
    one-vs-rest stream, each learning a contiguous group of classes (:func:`_run_groups`);
    a multiclass family's one joint step does not split.
    Returns (position reached, class reached there, status in OK/BAD_ROW/OVERFLOW,
    learned): ``learned[c]`` is the first position class c has not learned — the position
    reached for every class, except after an overflow in one-vs-rest, where the classes
    before the one that overflowed (and, with threads, the other groups' classes) may have
    learned further (``loops/one_vs_rest.py``)."""
    record = tuple(out)
    fast = not strict_arithmetic()
    run_dense, run_csr = _k_class_loops(rule)[:2]
    labels = readonly(np.ascontiguousarray(labels, dtype=np.int64))
    order = readonly(np.ascontiguousarray(order, dtype=np.int64))
    n_classes = vecs.shape[0]
    multiclass = family_of(rule).multiclass
    if not multiclass and kernel_rows.shares_rows(rule, vecs, ints, scal):
        # one kernel row per example for the classes of each group (one group per thread)
        learned = np.full(n_classes, stop, dtype=np.int64)
        run = kernel_rows.runner(rule, X, labels, order, start, stop, fast)
        threads = ovr_threads(n_jobs, n_classes, stop - start)
        if threads > 1:
            reached, cls, status = _run_groups(run, (vecs, ints, scal), hp, record, threads,
                                               learned, start)
        else:
            reached, cls, status = run((vecs, ints, scal), hp, record, (0, learned, 0))
        return int(reached), int(cls), int(status), learned
    if multiclass:  # (W, by_feature), and the rule's scratch
        state, extra, learned = compiled_view(vecs) + (ints, scal), (np.zeros(n_classes),), None
    else:
        learned = np.full(n_classes, stop, dtype=np.int64)
        state, extra = (vecs, ints, scal), (OVR_BLOCK_ROWS, learned, 0)
    threads = 1 if multiclass else ovr_threads(n_jobs, n_classes, stop - start)
    if X.sparse:
        def run(group_state, group_hp, group_record, group_extra):
            return run_csr(rule, X.data, X.indices, X.indptr, labels, order, start, stop,
                           group_state, group_hp, fast, group_record, *group_extra)
        if threads > 1:
            reached, cls, status = _run_groups(run, state, hp, record, threads, learned, start)
        else:
            reached, cls, status = run(state, hp, record, extra)
    else:
        # a feature-major state row by row (as in driver.binary); the multiclass rules' W as is
        with dense_rows_state(vecs, write_back=True) as rows:
            if rows is not vecs:
                state = (rows, ints, scal)

            def run(group_state, group_hp, group_record, group_extra):
                return run_dense(rule, X.dense, labels, order, start, stop, group_state,
                                 group_hp, fast, group_record, *group_extra)
            if threads > 1:
                reached, cls, status = _run_groups(run, state, hp, record, threads, learned,
                                                   start)
            else:
                reached, cls, status = run(state, hp, record, extra)
    if learned is None:
        learned = np.full(n_classes, reached, dtype=np.int64)
    return int(reached), int(cls), int(status), learned


def _run_groups(run, state, hp, record, n_threads, learned, start):
    """``run`` on contiguous groups of classes at once, one thread each (the first in the
    calling thread; the loops release the GIL), then the groups' records folded in class
    order as the loop folds classes: the first group's argmax, replaced by a later group's
    only where its score is strictly larger (first class on ties), the updating classes
    summed. Each group has its own record and its own copy of its classes' ``ints`` and
    ``scal`` rows (written back after), so no two threads write one cache line; the vectors
    are disjoint slabs of d values per class. The stream stops where the earliest group
    stopped (the first group of those on a tie: the loop's class order); ``learned`` is
    filled per class."""
    vecs, ints, scal = state
    pred, score, updated, aux = record
    n = pred.shape[0]
    parts = []
    for g, (c0, c1) in enumerate(groups(vecs.shape[0], n_threads)):
        group_record = record if g == 0 else (np.empty(n, pred.dtype), np.empty(n),
                                              np.empty(n, np.bool_), np.empty(n))
        group_ints, group_scal = ints[c0:c1].copy(), scal[c0:c1].copy()
        extra = (OVR_BLOCK_ROWS, learned[c0:c1], c0)
        parts.append((c0, c1, group_ints, group_scal, group_record,
                      ((vecs[c0:c1], group_ints, group_scal), hp[c0:c1], group_record, extra)))
    with ThreadPoolExecutor(max_workers=len(parts) - 1) as pool:
        futures = [pool.submit(run, *part[-1]) for part in parts[1:]]
        results = [run(*parts[0][-1])] + [f.result() for f in futures]
    for c0, c1, group_ints, group_scal, _, _ in parts:
        ints[c0:c1] = group_ints
        scal[c0:c1] = group_scal
    # the earliest stop; on a tie the first group's (the loop's class order)
    reached, g, cls, status = min((int(r), g, int(c) + parts[g][0], int(st))
                                  for g, (r, c, st) in enumerate(results))
    if status == OK:
        cls = vecs.shape[0]
    done = reached - start
    for c0, c1, _, _, (pred_g, score_g, _, aux_g), _ in parts[1:]:
        better = score_g[:done] > score[:done]
        pred[:done][better] = pred_g[:done][better] + c0  # the group's own index
        score[:done][better] = score_g[:done][better]
        aux[:done] += aux_g[:done]
    updated[:done] = aux[:done] > 0.0
    return reached, cls, status


def decision_values_ovr(rule, X, vecs, ints, scal, hp):
    """(n, K) decision values of the K learners for a LoopInput; returns (values, first bad
    row or -1)."""
    if kernel_rows.shares_rows(rule, vecs, ints, scal):
        return kernel_rows.decision_values_shared(rule, X, vecs, ints, scal, hp)
    out = np.empty((X.n_rows, vecs.shape[0]))
    fast = not strict_arithmetic()
    score_dense, score_csr = _k_class_loops(rule)[2:]
    state, extra = (vecs, ints, scal), ()
    if family_of(rule).multiclass:  # as in run_online_ovr
        state, extra = compiled_view(vecs) + (ints, scal), (np.zeros(vecs.shape[0]),)
    if X.sparse:
        bad = score_csr(rule, X.data, X.indices, X.indptr, state, hp, fast, *extra, out)
    else:
        with dense_rows_state(vecs, write_back=False) as rows:
            if rows is not vecs:
                state = (rows, ints, scal)
            bad = score_dense(rule, X.dense, state, hp, fast, *extra, out)
    return out, int(bad)
