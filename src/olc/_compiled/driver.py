"""Python-side bridge to the compiled loops: picks the loop for the input layout, allocates the
per-step record, and passes the learner's state arrays (mutated in place)."""
import numpy as np
import scipy.sparse as sp

from ..config import strict_arithmetic
from . import loops
from .kernels import as_index_array

_EMPTY_DENSE = np.zeros((0, 1))
_EMPTY_Y = np.zeros(0)
_EMPTY_DATA = np.zeros(0)
_EMPTY_INDICES = np.zeros(0, dtype=np.int32)
_EMPTY_INDPTR = np.zeros(1, dtype=np.int64)


def _indptr(X):
    return np.asarray(X.indptr, dtype=np.int64)


def run_online(rule, X, y_pm, vecs, scal, hp, check=None, step_offset=0):
    """Run the online protocol over the rows of X (dense C-contiguous float64 or canonical CSR).

    ``check``: optional (Xc, yc) evaluation set in the same layout as X; then the first step
    whose updated classifier has positive margin on every point of it is returned as τ.
    Returns (pred int8, score, updated bool, aux, tau or -1, rows processed, status) — the
    record arrays cover only the processed rows; status is one of ``loops.OK``,
    ``loops.BAD_ROW`` (a NaN/inf value in the next row), ``loops.OVERFLOW``.
    """
    n = X.shape[0]
    pred = np.empty(n, dtype=np.int8)
    score = np.empty(n)
    updated = np.empty(n, dtype=np.bool_)
    aux = np.empty(n)
    fast = not strict_arithmetic()
    if sp.issparse(X):
        if check is not None:
            cX, cy = check
            cdata, cind, cptr = cX.data, as_index_array(cX.indices), _indptr(cX)
        else:
            cdata, cind, cptr, cy = _EMPTY_DATA, _EMPTY_INDICES, _EMPTY_INDPTR, _EMPTY_Y
        tau, done, status = loops.run_csr(rule, X.data, as_index_array(X.indices), _indptr(X), y_pm,
                            vecs, scal, hp, fast, pred, score, updated, aux,
                            cdata, cind, cptr, cy, check is not None, step_offset)
    else:
        if check is not None:
            cX, cy = check
        else:
            cX, cy = _EMPTY_DENSE, _EMPTY_Y
        tau, done, status = loops.run_dense(rule, X, y_pm, vecs, scal, hp, fast, pred, score, updated, aux,
                              cX, cy, check is not None, step_offset)
    done = int(done)
    if done < n:
        pred, score, updated, aux = pred[:done], score[:done], updated[:done], aux[:done]
    return pred, score, updated, aux, int(tau), done, int(status)


def decision_values(rule, X, vecs, scal, hp):
    """Decision values of the current state; returns (values, first bad row or -1)."""
    out = np.empty(X.shape[0])
    fast = not strict_arithmetic()
    if sp.issparse(X):
        bad = loops.score_csr(rule, X.data, as_index_array(X.indices), _indptr(X), vecs, scal, hp,
                        fast, out)
    else:
        bad = loops.score_dense(rule, X, vecs, scal, hp, fast, out)
    return out, int(bad)
