"""Feature-major storage of the wide averaged states (``average=``): w_j and avg_sum_j side by
side, a numba type of their own.

An averaged learner's rows (k = 2: the rule's weight row and ``avg_sum``; ``layouts/averaging``)
are read and written together at every touched feature: w_j by the dot product and the update,
u_j by the lazy sum. Stored as two rows of length d, each touched feature costs two random
cache lines on wide sparse data (W2-like rows, d = 2²⁰: the averaged step ran at 2.0–2.4× the
plain one); stored feature-major, (w_j, u_j) share one line (docs/architecture.md, "Averaging").

- The state keeps its shape (…, k, d): ``_vecs[0]`` is w, ``_vecs[AVG_SUM]`` is u. It is a
  strided view (:func:`zeros`, :func:`interleave`) of a C-contiguous (…, d, k) array. Only wide
  states are stored so (``MIN_FEATURES``, ``stored``); narrower ones stay C-contiguous row by
  row.
- The compiled code gets that strided view as it is on sparse rows: an "A"-layout array, a
  numba type of its own, so the loops and steps are compiled for it on the first use of a
  wide averaged model, and never for a plain one (whose states are "C" arrays: the code they
  compiled before, unchanged). The rules index it like any state (``vecs[W]`` is a strided
  row); the sparse dot reads strided weights in the same order (``kernels.sparse_dot_split``),
  so the bits are those of the row storage.
- Dense rows get a contiguous copy instead (:func:`dense_rows_state`, written back after the
  call): LLVM vectorizes the reassociated dense dot by lanes that depend on the memory layout,
  and the copy keeps those bits the row storage's (an averaged learner before its average
  starts is the plain one). A dense row reads d values anyway, so the O(d) copy per call is
  at most one row's work.
"""
from contextlib import contextmanager

import numpy as np

_ITEM = np.dtype(np.float64).itemsize
#: Averaged states of at least this many features are stored feature-major; narrower ones row
#: by row (C (…, 2, d)): their rows sit in L2 (2 MiB here) anyway, where the layout saves no
#: cache misses. A module attribute: the tests set it to 1 to run every averaged state
#: feature-major.
MIN_FEATURES = 2 ** 17


def zeros(shape):
    """A zeroed state of ``shape`` (…, k, d), stored feature-major."""
    *lead, k, d = shape
    return np.swapaxes(np.zeros((*lead, d, k)), -1, -2)


def _owner(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def is_interleaved(vecs):
    """Whether ``vecs`` (…, k, d), k ≥ 2, is stored feature-major: the strides of
    :func:`zeros`'s views over a C-contiguous owner that holds all of it."""
    if not isinstance(vecs, np.ndarray) or vecs.ndim < 2:
        return False
    strides = vecs.strides
    if strides[-1] == _ITEM or strides[-2] != _ITEM:  # first: the plain states' quick exit
        return False
    k, d = vecs.shape[-2:]
    if k < 2 or strides[-1] != _ITEM * k or vecs.dtype != np.float64:
        return False
    size = d * k * _ITEM
    for n, stride in zip(vecs.shape[-3::-1], vecs.strides[-3::-1]):
        if stride != size:
            return False
        size *= n
    owner = _owner(vecs)
    if not owner.flags.c_contiguous:
        return False
    offset = vecs.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    return 0 <= offset and offset + size <= owner.nbytes


def interleave(vecs):
    """``vecs`` stored feature-major: itself when it already is, else a copy."""
    if is_interleaved(vecs):
        return vecs
    out = zeros(vecs.shape)
    out[...] = vecs
    return out


def stored(vecs):
    """How an averaged state ``vecs`` (…, 2, d) is stored: feature-major from
    ``MIN_FEATURES`` features on (``interleave``), else C-contiguous row by row."""
    if vecs.shape[-1] >= MIN_FEATURES:
        return interleave(vecs)
    if not vecs.flags.c_contiguous:
        return np.ascontiguousarray(vecs)
    return vecs


@contextmanager
def dense_rows_state(vecs, write_back):
    """The state the dense loops take for ``vecs``: ``vecs`` itself, or a C-contiguous copy
    of a feature-major state, copied back into ``vecs`` on exit when ``write_back`` (the loops
    may have changed it; also after an error, as the loops leave the state consistent)."""
    if not is_interleaved(vecs):
        yield vecs
        return
    copy = np.ascontiguousarray(vecs)
    try:
        yield copy
    finally:
        if write_back:
            vecs[...] = copy
