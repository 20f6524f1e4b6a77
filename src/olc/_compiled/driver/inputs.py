"""Inputs in the exact layout the compiled loops take (pure NumPy): read-only contiguous
views, CSR column indices as uint32, binary CSR rows detected once per input."""
import numpy as np

from ..._util.sparse import issparse
from ..rule_ids import family_of


def as_index_array(indices):
    """CSR column indices as the dtype the compiled loops are built for: unsigned 32-bit, so
    no negative-index wraparound test is compiled into each access (1.2×: docs/architecture.md,
    "CSR rows"). int32 indices of a valid CSR matrix are non-negative, so this is a zero-copy
    view."""
    indices = np.asarray(indices)
    if indices.dtype == np.uint32:
        return np.ascontiguousarray(indices)
    if indices.dtype == np.int32:
        return np.ascontiguousarray(indices).view(np.uint32)
    if indices.size and (indices.min() < 0 or indices.max() > np.iinfo(np.uint32).max):
        raise ValueError("CSR column indices must lie in [0, 2**32)")
    return np.ascontiguousarray(indices, dtype=np.uint32)


def readonly(a):
    """A read-only view of ``a`` (no copy). Every input array reaches the loops read-only, so
    numba compiles one signature per layout whether the caller's data is writable or not
    (a memory map, an array from joblib): half the compile work of the test suite."""
    view = a.view()
    view.flags.writeable = False
    return view


# The loops' ``check`` bundle when there is no evaluation set: empty arrays of its types.
EMPTY_DENSE_CHECK = (readonly(np.zeros((0, 1))), readonly(np.zeros(0)))
EMPTY_CSR_CHECK = (readonly(np.zeros(0)), readonly(np.zeros(0, dtype=np.uint32)),
                   readonly(np.zeros(1, dtype=np.int64)), readonly(np.zeros(0)))
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
            from ..kernels.vector import all_ones  # compiled: after loops_for set up the disk cache

            self._binary = self.sparse and bool(all_ones(self.data))
        return self._binary


def binary_rows(rule, X):
    """Whether the loops of ``rule`` get ``X`` (a LoopInput) as binary rows (val None)."""
    return X.sparse and family_of(rule).binary_rows and X.binary()


def csr_values(rule, X):
    """The ``data`` argument of ``rule``'s CSR loops for ``X``: None for binary rows (the
    loops' binary specialization), else the stored values."""
    return None if binary_rows(rule, X) else X.data


