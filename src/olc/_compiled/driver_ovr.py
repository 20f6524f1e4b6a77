"""Python-side bridge to the one-vs-rest loops (``loops_ovr.py``): K binary learners of one
rule, state stacked along a first axis of length K (see ``loops_ovr``)."""
import numpy as np

from ..config import strict_arithmetic
from .driver import readonly
from .families import ovr_loops_for


def run_online_ovr(rule, X, labels, order, start, stop, vecs, ints, scal, hp, out):
    """One-vs-rest online protocol over positions start..stop-1 of the stream X[order].

    ``X``: a ``LoopInput``; ``labels``: int64 class index (0..K−1) of each row; ``vecs``
    (K, n_vectors, d), ``ints`` (K, n_ints), ``scal`` (K, n_scalars), ``hp`` (K, n_hp): the K
    learners' states (mutated in place) and hyper-parameters; ``out``: (pred int32 class index,
    score, updated bool, aux = classes updated) arrays of length stop − start.
    Returns (position reached, class reached there, status in OK/BAD_ROW/OVERFLOW)."""
    pred, score, updated, aux = out
    fast = not strict_arithmetic()
    loops = ovr_loops_for(rule)
    labels = readonly(np.ascontiguousarray(labels, dtype=np.int64))
    order = readonly(np.ascontiguousarray(order, dtype=np.int64))
    if X.sparse:
        reached, cls, status = loops.run_csr_ovr(
            rule, X.data, X.indices, X.indptr, labels, order, start, stop, vecs, ints, scal, hp,
            fast, pred, score, updated, aux)
    else:
        reached, cls, status = loops.run_dense_ovr(
            rule, X.dense, labels, order, start, stop, vecs, ints, scal, hp, fast, pred, score,
            updated, aux)
    return int(reached), int(cls), int(status)


def decision_values_ovr(rule, X, vecs, ints, scal, hp):
    """(n, K) decision values of the K learners for a LoopInput; returns (values, first bad
    row or -1)."""
    out = np.empty((X.n_rows, vecs.shape[0]))
    fast = not strict_arithmetic()
    loops = ovr_loops_for(rule)
    if X.sparse:
        bad = loops.score_csr_ovr(rule, X.data, X.indices, X.indptr, vecs, ints, scal, hp, fast,
                                  out)
    else:
        bad = loops.score_dense_ovr(rule, X.dense, vecs, ints, scal, hp, fast, out)
    return out, int(bad)
