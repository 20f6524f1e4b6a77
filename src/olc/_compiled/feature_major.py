"""Feature-major storage of the wide averaged states (``average=``): w_j and avg_sum_j side by
side, and the numba type of their own that keeps them apart from every plain state.

An averaged learner's rows (k = 2: the rule's weight row and ``avg_sum``; ``layouts/averaging``)
are read and written together at every touched feature: w_j by the dot product and the update,
u_j by the lazy sum. Stored as two rows of length d, each touched feature costs two random
cache lines on wide sparse data (W2-like rows, d = 2²⁰: the averaged step ran at 2.0–2.4× the
plain one); stored feature-major, (w_j, u_j) share one line (docs/architecture.md, "Averaging").

- Python sees the state as always, (…, k, d): ``_vecs[0]`` is w, ``_vecs[AVG_SUM]`` is u, as
  strided views (:func:`zeros`, :func:`interleave`) of a C-contiguous physical array
  (…, 2, d, k): part 0 the features (the k values of feature j side by side), part 1 a
  scratch of d·k contiguous floats. Only wide states are (``MIN_FEATURES``, ``stored``);
  narrower ones stay C-contiguous row by row, (…, 2, d).
- The compiled code receives that physical array (:func:`loop_vecs`): one dimension more than
  a plain state's (3-D for a binary learner, 4-D for one-vs-rest's stack), so a type of its
  own: the loops get a specialization for it on the first use of a wide averaged model, and
  the rules choose their feature-major code by ``vecs.ndim`` (settled at compile time in
  every function compiled on its own, ``averaging.feature_rows``). Plain states, and
  averaged ones stored row by row, compile exactly the code they compiled before.
- The scratch holds a contiguous copy of w for the reassociated dot product on dense rows
  (``averaging.row_dot``): that sum's order (LLVM's vector lanes) depends on the memory
  layout, and the copy makes it the plain learner's, bit for bit (an averaged learner before
  its average starts is the plain one). Only dense rows touch it: on sparse input its pages
  are never written, so never mapped (``np.zeros``).
"""
import numpy as np

_ITEM = np.dtype(np.float64).itemsize
#: Averaged states of at least this many features are stored feature-major; narrower ones row
#: by row (C (…, 2, d), as before): their rows sit in L2 (2 MiB here) anyway, where the
#: layout saves no cache misses, and the reassociated dense dot needs its contiguous copy
#: of w (``averaging.row_dot``), measured at 1.5–1.75× the plain step on W1-like dense rows
#: (d = 100) when every width was feature-major. A module attribute: the tests set it to 1
#: to run every averaged state feature-major.
MIN_FEATURES = 2 ** 17


def _physical_shape(shape):
    *lead, k, d = shape
    return (*lead, 2, d, k)


def zeros(shape):
    """A zeroed state of logical ``shape`` (…, k, d), stored feature-major."""
    physical = np.zeros(_physical_shape(shape))
    return np.swapaxes(physical[..., 0, :, :], -1, -2)


def _owner(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def _physical(vecs):
    """The physical array behind a feature-major view ``vecs``, or None when ``vecs`` is not
    one (the strides of the feature-major layout, k ≥ 2, and the memory of the physical array
    behind it, scratch included: a copy that kept the strides but not those is not)."""
    if not isinstance(vecs, np.ndarray) or vecs.ndim < 2:
        return None
    strides = vecs.strides
    if strides[-1] == _ITEM or strides[-2] != _ITEM:  # first: the plain states' quick exit
        return None
    k, d = vecs.shape[-2:]
    if k < 2 or strides[-1] != _ITEM * k or vecs.dtype != np.float64:
        return None
    size = 2 * d * k * _ITEM
    for n, stride in zip(vecs.shape[-3::-1], vecs.strides[-3::-1]):
        if stride != size:
            return None
        size *= n
    owner = _owner(vecs)
    if not owner.flags.c_contiguous:
        return None
    offset = vecs.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    if offset < 0 or offset + size > owner.nbytes:
        return None
    # A view of the owner's buffer (numpy's as_strided costs ~50 µs a call; this ~1 µs).
    physical = np.ndarray(_physical_shape(vecs.shape), np.float64, buffer=owner,
                          offset=offset)
    if not vecs.flags.writeable:
        physical.flags.writeable = False
    return physical


def is_interleaved(vecs):
    """Whether ``vecs`` (…, k, d) is a view made by :func:`zeros` (see ``_physical``)."""
    return _physical(vecs) is not None


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
    if is_interleaved(vecs) or not vecs.flags.c_contiguous:
        return np.ascontiguousarray(vecs)
    return vecs


def loop_vecs(vecs):
    """The array the compiled code takes for the state ``vecs``: the physical (…, 2, d, k)
    array behind a feature-major view (one dimension more: its own numba type); any other
    state as it is."""
    physical = _physical(vecs)
    return vecs if physical is None else physical
