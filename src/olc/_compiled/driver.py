"""Python-side bridge to the compiled loops: picks the loop for the input layout and passes
the learner's state arrays (mutated in place) and the output arrays of the record."""
import numpy as np

from .._sparse import issparse
from ..config import strict_arithmetic
from .families import loops_for
from .feature_major import dense_rows_state
from .indices import as_index_array
from .rule_ids import family_of


def readonly(a):
    """A read-only view of ``a`` (no copy). Every input array reaches the loops read-only, so
    numba compiles one signature per layout whether the caller's data is writable or not
    (a memory map, an array from joblib): half the compile work of the test suite."""
    view = a.view()
    view.flags.writeable = False
    return view


_EMPTY_DENSE = readonly(np.zeros((0, 1)))
_EMPTY_Y = readonly(np.zeros(0))
_EMPTY_DATA = readonly(np.zeros(0))
_EMPTY_INDICES = readonly(np.zeros(0, dtype=np.uint32))
_EMPTY_INDPTR = readonly(np.zeros(1, dtype=np.int64))
NO_INTS = np.zeros(0, dtype=np.int64)  # the integer state of rules that keep none


class LoopInput:
    """A matrix in the exact layout the loops take: dense C-contiguous float64, or CSR as
    (data float64, indices uint32, indptr int64), canonical (sorted, no duplicates); every
    array a read-only view."""

    __slots__ = ("dense", "data", "indices", "indptr", "n_rows", "_binary")

    def __init__(self, X):
        self.n_rows = X.shape[0]
        self._binary = None
        if issparse(X):
            self.dense = None
            self.data = readonly(np.ascontiguousarray(X.data, dtype=np.float64))
            self.indices = readonly(as_index_array(X.indices))
            self.indptr = readonly(np.ascontiguousarray(X.indptr, dtype=np.int64))
        else:
            self.dense = readonly(np.ascontiguousarray(X))
            self.data = self.indices = self.indptr = None

    @property
    def sparse(self):
        return self.dense is None

    def binary(self):
        """CSR input whose stored values are all 1 (``kernels.all_ones``): tested once, on
        first use, by a loop that can take binary rows."""
        if self._binary is None:
            from .kernels import all_ones  # compiled: after loops_for set up the disk cache

            self._binary = self.sparse and bool(all_ones(self.data))
        return self._binary


def binary_rows(rule, X):
    """Whether the loops of ``rule`` get ``X`` (a LoopInput) as binary rows (val None)."""
    return X.sparse and family_of(rule).binary_rows and X.binary()


def csr_values(rule, X):
    """The ``data`` argument of ``rule``'s CSR loops for ``X``: None for binary rows (the
    loops' binary specialization), else the stored values."""
    return None if binary_rows(rule, X) else X.data


def run_online(rule, X, y, order, start, stop, vecs, ints, scal, hp, out, check=None,
               step_offset=0):
    """Run the online protocol over positions start..stop-1 of the stream X[order].

    ``X``: a :class:`LoopInput`; ``y``: labels ±1 (float64, indexed by row); ``order``: int64
    row of each position; ``vecs``, ``ints``, ``scal``: the state (float64 rows, int64 rows,
    float64 scalars; mutated in place); ``out``: (pred int8, score, updated bool, aux) arrays of length
    stop − start. ``check``: optional (LoopInput, y±1) evaluation set in the same layout.
    Returns (tau or -1, position reached, status in loops.OK/BAD_ROW/OVERFLOW).
    """
    pred, score, updated, aux = out
    fast = not strict_arithmetic()
    loops = loops_for(rule)
    y = readonly(np.ascontiguousarray(y, dtype=np.float64))
    order = readonly(np.ascontiguousarray(order, dtype=np.int64))
    if X.sparse:
        if check is not None:
            cX, cy = check
            cy = readonly(np.ascontiguousarray(cy, dtype=np.float64))
            cdata, cind, cptr = cX.data, cX.indices, cX.indptr
        else:
            cdata, cind, cptr, cy = _EMPTY_DATA, _EMPTY_INDICES, _EMPTY_INDPTR, _EMPTY_Y
        tau, reached, status = loops.run_csr(
            rule, csr_values(rule, X), X.indices, X.indptr, y, order, start, stop, vecs, ints,
            scal, hp, fast, pred, score, updated, aux, cdata, cind, cptr, cy, check is not None,
            step_offset)
    else:
        if check is not None:
            cX, cy = check
            cdense, cy = cX.dense, readonly(np.ascontiguousarray(cy, dtype=np.float64))
        else:
            cdense, cy = _EMPTY_DENSE, _EMPTY_Y
        with dense_rows_state(vecs, write_back=True) as state:  # row by row (feature_major)
            tau, reached, status = loops.run_dense(
                rule, X.dense, y, order, start, stop, state, ints, scal, hp, fast, pred, score,
                updated, aux, cdense, cy, check is not None, step_offset)
    return int(tau), int(reached), int(status)


def decision_values(rule, X, vecs, ints, scal, hp):
    """Decision values of the current state for a LoopInput; returns (values, first bad row
    or -1)."""
    out = np.empty(X.n_rows)
    fast = not strict_arithmetic()
    loops = loops_for(rule)
    if X.sparse:
        bad = loops.score_csr(rule, csr_values(rule, X), X.indices, X.indptr, vecs, ints, scal,
                              hp, fast, out)
    else:
        with dense_rows_state(vecs, write_back=False) as state:
            bad = loops.score_dense(rule, X.dense, state, ints, scal, hp, fast, out)
    return out, int(bad)
