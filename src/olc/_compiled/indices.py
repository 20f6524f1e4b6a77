"""CSR column indices in the dtype the compiled loops are built for (pure NumPy)."""
import numpy as np


def as_index_array(indices):
    """CSR column indices as the dtype the compiled loops are built for: unsigned 32-bit, so
    no negative-index wraparound test is compiled into each access (DESIGN.md: 1.2×).
    int32 indices of a valid CSR matrix are non-negative, so this is a zero-copy view."""
    indices = np.asarray(indices)
    if indices.dtype == np.uint32:
        return np.ascontiguousarray(indices)
    if indices.dtype == np.int32:
        return np.ascontiguousarray(indices).view(np.uint32)
    if indices.size and (indices.min() < 0 or indices.max() > np.iinfo(np.uint32).max):
        raise ValueError("CSR column indices must lie in [0, 2**32)")
    return np.ascontiguousarray(indices, dtype=np.uint32)
