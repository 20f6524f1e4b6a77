"""Read Vowpal Wabbit's text format into CSR arrays, hashed as VW hashes.

``label [importance] [tag]|namespace[:weight] feature[:value] ... |namespace ...``: every
feature goes to column ``hash & (2^bits − 1)`` with VW's hash (MurmurHash3 with its
namespace seeding, integer names as numbers: :mod:`olc.data._vw_kernels`), so a column here
is the weight index VW uses with ``-b bits`` (its stride aside). Values are ``float()`` of
their token times the namespace's weight; zero-valued features are dropped as VW drops
them; features that share a column in one row are summed. VW's constant feature is not
added (olc's learners fit their own bias).

Labels are read as numbers (VW's binary convention is −1/+1; {0, 1} works as two classes
too). Importance weights: olc's online learners take none, so a line with an importance
other than 1 is refused (with its file and line) unless ``importance=True``, which returns
them as a third array for the caller to use. A third token before the bar (VW's initial
prediction) is refused. Tags are ignored.

The file is read by windows (a thread reads and decompresses ahead) cut into pieces that
threads parse (the kernels release the GIL); the pieces' arrays are joined at the end, so
the peak memory is about twice the result (the svmlight reader's is once).
"""
from __future__ import annotations

import os

import numpy as np

from . import _svmlight_parse as parse
from ._text_source import ThreadPool, as_array, windows
from .errors import DataFormatError
from .._util.sparse import scipy_sparse

__all__ = ["read_vw", "DEFAULT_BITS"]

#: VW's default ``-b``.
DEFAULT_BITS = 18
_loaded = []


def kernels():
    """The compiled VW kernels, their numba disk cache switched on (beside the svmlight
    kernels', in a folder keyed by every kernel source they use)."""
    if not _loaded:
        parse.kernels()  # the shared kernels, cached in their own folder
        with parse._lock:
            if not _loaded:
                _loaded.append(parse.enable_kernel_cache(
                    ("_vw_hash", "_vw_kernels"), "reader-vw",
                    depends=("_number_kernels", "_text_kernels")))
    return _loaded[0]


def _check_bits(bits):
    if not isinstance(bits, (int, np.integer)) or isinstance(bits, bool) or not 1 <= bits <= 31:
        raise ValueError(f"bits must be an integer from 1 to 31 (2^bits columns), got {bits!r}")


_REASONS = {
    20: "no label before the features",
    21: "the importance weight is not a number",
    22: ("an importance weight other than 1: olc's online learners take none (pass "
         "importance=True to read them as a third array)"),
    23: "a third token before the '|' (VW's initial prediction) is not supported",
    24: "malformed namespace (a name is expected after '|', and a number after its ':')",
    25: "malformed feature (expected 'name', 'name:value' or ':value')",
    26: "the value is not a number",
    27: "NaN or infinite label/value",
}


def _fill_piece(path, window, array, piece, mask, importance):
    """One piece: (y, weight, indptr, columns, values) with canonical rows."""
    K = kernels()
    y = np.empty(piece.rows, dtype=np.float64)
    weight = np.empty(piece.rows, dtype=np.float64)
    indptr = np.zeros(piece.rows + 1, dtype=np.int64)
    cols = np.empty(piece.nnz, dtype=np.int64)
    data = np.empty(piece.nnz, dtype=np.float64)
    room = min(4096, piece.rows + piece.nnz)
    while True:
        slot, pos, end = (np.empty(room, dtype=np.int64) for _ in range(3))
        status = np.zeros(K.STATUS_SIZE, dtype=np.int64)
        K.fill_block(array, piece.lo, piece.hi, np.uint64(mask), not importance, y, weight,
                     indptr, cols, data, 0, 0, piece.rows, piece.nnz, slot, pos, end, status)
        if status[K.HARD] <= room:
            break
        room = int(status[K.HARD])
    n = int(status[K.HARD])
    error = None
    if status[K.ERR] != K.OK:
        code = int(status[K.ERR])
        error = (int(status[K.POS]), _REASONS.get(code, "the file changed while it was read"))
    failure = parse.convert_hard(array, slot[:n], pos[:n], end[:n], y, data, K.scale_hard) \
        if n else None
    if failure is not None and (error is None or failure[0] < error[0]):
        error = failure
    if error is None and status[K.ROWS] != piece.rows:
        error = (piece.lo, "the file changed while it was read")
    if error is not None:
        raise parse.located_error(path, window, piece, *error)
    nnz = K.canonical_rows(indptr, cols, data, piece.rows)
    return y, weight, indptr, cols[:nnz], data[:nnz]


def read_vw(path: str | os.PathLike, bits: int = DEFAULT_BITS, *, importance: bool = False,
            progress=None):
    """``(X, y)`` of a VW text file (``(X, y, importance)`` with ``importance=True``): X a
    CSR matrix of ``2**bits`` columns (float64 values, sorted int32 indices), y float64.
    Raises :class:`DataFormatError` (file, line, text) at the first malformed line."""
    _check_bits(bits)
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no such Vowpal Wabbit file: {path}")
    K = kernels()
    parts, line = [], 1
    with ThreadPool() as pool:
        for window, end in windows(path):
            array = as_array(window)
            ranges = parse.cut(array, 0, end, 2 * pool.workers)
            pieces = []
            for (a, b), (lines, rows, nnz) in zip(ranges, pool.map(
                    K.count_block, [(array, a, b) for a, b in ranges])):
                pieces.append(parse.Piece(a, b, int(lines), int(rows), int(nnz), -1, -1, line))
                line += int(lines)
            parts += pool.map(_fill_piece, [(path, window, array, p, (1 << bits) - 1, importance)
                                            for p in pieces if p.rows])
            if progress is not None:
                progress(sum(p.rows for p in pieces))
    return _joined(parts, bits, importance)


def _joined(parts, bits, importance):
    sizes = [p[3].shape[0] for p in parts]
    offsets = np.cumsum([0] + sizes[:-1], dtype=np.int64)
    indptr = np.concatenate([np.zeros(1, dtype=np.int64)]
                            + [p[2][1:] + o for p, o in zip(parts, offsets)])
    if indptr[-1] > np.iinfo(np.int32).max:
        raise DataFormatError(None, None, None, "more than 2^31 features in all")
    y = np.concatenate([p[0] for p in parts]) if parts else np.empty(0)
    weight = np.concatenate([p[1] for p in parts]) if parts else np.empty(0)
    indices = np.concatenate([p[3] for p in parts]).astype(np.int32) if parts else \
        np.empty(0, dtype=np.int32)
    data = np.concatenate([p[4] for p in parts]) if parts else np.empty(0)
    X = scipy_sparse().csr_matrix((data, indices, indptr.astype(np.int32)),
                                  shape=(y.shape[0], 1 << bits), copy=False)
    return (X, y, weight) if importance else (X, y)
