"""Python-side bridge to the loops of K-class streams: the one-vs-rest loops
(``loops/one_vs_rest.py``: K binary learners of one rule) or, for a genuinely multiclass family
(``rule_ids.Family.multiclass``), the family's own loops (``loops/multiclass.py``: the same
arguments, but the prototypes as one matrix ``W`` in the order the layout chose, and a
scratch: ``layouts/multiclass_pa.compiled_view``). Either way the
state is stacked along a first axis of length K."""
import numpy as np

from ...config import strict_arithmetic
from ..families import load, ovr_loops_for
from ..layouts.feature_major import dense_rows_state
from ..layouts.multiclass_pa import compiled_view
from ..rule_ids import family_of
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


def run_online_ovr(rule, X, labels, order, start, stop, vecs, ints, scal, hp, out):
    """One-vs-rest online protocol over positions start..stop-1 of the stream X[order].

    ``X``: a ``LoopInput``; ``labels``: int64 class index (0..K−1) of each row; ``vecs``
    (K, n_vectors, d), ``ints`` (K, n_ints), ``scal`` (K, n_scalars), ``hp`` (K, n_hp): the K
    learners' states (mutated in place) and hyper-parameters; ``out``: (pred int32 class index,
    score, updated bool, aux = classes updated) arrays of length stop − start.
    Returns (position reached, class reached there, status in OK/BAD_ROW/OVERFLOW,
    learned): ``learned[c]`` is the first position class c has not learned — the position
    reached for every class, except after an overflow in one-vs-rest, where the classes
    before the one that overflowed may have learned further (``loops/one_vs_rest.py``)."""
    record = tuple(out)
    fast = not strict_arithmetic()
    run_dense, run_csr = _k_class_loops(rule)[:2]
    labels = readonly(np.ascontiguousarray(labels, dtype=np.int64))
    order = readonly(np.ascontiguousarray(order, dtype=np.int64))
    n_classes = vecs.shape[0]
    if family_of(rule).multiclass:  # (W, by_feature), and the rule's scratch
        state, extra, learned = compiled_view(vecs) + (ints, scal), (np.zeros(n_classes),), None
    else:
        learned = np.full(n_classes, stop, dtype=np.int64)
        state, extra = (vecs, ints, scal), (OVR_BLOCK_ROWS, learned)
    if X.sparse:
        reached, cls, status = run_csr(
            rule, X.data, X.indices, X.indptr, labels, order, start, stop, state, hp, fast,
            record, *extra)
    else:
        # a feature-major state row by row (as in driver.binary); the multiclass rules' W as is
        with dense_rows_state(vecs, write_back=True) as rows:
            if rows is not vecs:
                state = (rows, ints, scal)
            reached, cls, status = run_dense(
                rule, X.dense, labels, order, start, stop, state, hp, fast, record, *extra)
    if learned is None:
        learned = np.full(n_classes, reached, dtype=np.int64)
    return int(reached), int(cls), int(status), learned


def decision_values_ovr(rule, X, vecs, ints, scal, hp):
    """(n, K) decision values of the K learners for a LoopInput; returns (values, first bad
    row or -1)."""
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
