"""The Python side of the binary loops (``loops/binary.py``): picks the family's loop for the
input layout and passes the learner's state arrays (mutated in place) and the output arrays of
the record."""
import numpy as np

from ...config import strict_arithmetic
from ..families import loops_for
from ..layouts.feature_major import dense_rows_state
from .inputs import EMPTY_CSR_CHECK, EMPTY_DENSE_CHECK, csr_values, readonly


def run_online(rule, X, y, order, start, stop, vecs, ints, scal, hp, out, check=None,
               step_offset=0):
    """Run the online protocol over positions start..stop-1 of the stream X[order].

    ``X``: a :class:`LoopInput`; ``y``: labels ±1 (float64, indexed by row); ``order``: int64
    row of each position; ``vecs``, ``ints``, ``scal``: the state (float64 rows, int64 rows,
    float64 scalars; mutated in place); ``out``: the record, (pred int8, score, updated bool,
    aux) arrays of length stop − start. ``check``: optional (LoopInput, y±1) evaluation set in
    the same layout. Returns (tau or -1, position reached, status in loops.codes).
    """
    record = tuple(out)
    fast = not strict_arithmetic()
    loops = loops_for(rule)
    y = readonly(np.ascontiguousarray(y, dtype=np.float64))
    order = readonly(np.ascontiguousarray(order, dtype=np.int64))
    if check is not None:
        check_X, check_y = check
        check_y = readonly(np.ascontiguousarray(check_y, dtype=np.float64))
    if X.sparse:
        check_set = ((check_X.data, check_X.indices, check_X.indptr, check_y)
                     if check is not None else EMPTY_CSR_CHECK)
        tau, reached, status = loops.run_csr(
            rule, csr_values(rule, X), X.indices, X.indptr, y, order, start, stop,
            (vecs, ints, scal), hp, fast, record, check_set, check is not None, step_offset)
    else:
        check_set = (check_X.dense, check_y) if check is not None else EMPTY_DENSE_CHECK
        with dense_rows_state(vecs, write_back=True) as rows:  # row by row (feature_major)
            tau, reached, status = loops.run_dense(
                rule, X.dense, y, order, start, stop, (rows, ints, scal), hp, fast, record,
                check_set, check is not None, step_offset)
    return int(tau), int(reached), int(status)


def decision_values(rule, X, vecs, ints, scal, hp):
    """Decision values of the current state for a LoopInput; returns (values, first bad row
    or -1)."""
    out = np.empty(X.n_rows)
    fast = not strict_arithmetic()
    loops = loops_for(rule)
    if X.sparse:
        bad = loops.score_csr(rule, csr_values(rule, X), X.indices, X.indptr,
                              (vecs, ints, scal), hp, fast, out)
    else:
        with dense_rows_state(vecs, write_back=False) as rows:
            bad = loops.score_dense(rule, X.dense, (rows, ints, scal), hp, fast, out)
    return out, int(bad)
