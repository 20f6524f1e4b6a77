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
threads parse (the kernels release the GIL), in two passes as the svmlight reader: a count,
then the parse into arrays allocated once (:func:`read_vw`); or chunk by chunk
(:func:`iter_vw_chunks`), memory bounded by the chunk.
"""
from __future__ import annotations

import os

import numpy as np

from . import _svmlight_parse as parse
from ._text_source import ThreadPool, as_array, read_ahead, windows
from .errors import DataFormatError
from .._util.sparse import scipy_sparse

__all__ = ["read_vw", "iter_vw_chunks", "DEFAULT_BITS"]

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


class _Arrays:
    """The output of ``rows`` examples with at most ``tokens`` features, allocated once: the
    pieces fill their own stretches, then are moved down over what their duplicates and
    zeros left unused (:meth:`settle`)."""

    def __init__(self, rows, tokens):
        self.y = np.empty(rows, dtype=np.float64)
        self.weight = np.empty(rows, dtype=np.float64)
        self.indptr = np.zeros(rows + 1, dtype=np.int64)
        self.cols = np.empty(tokens, dtype=np.int32)  # bits ≤ 31: a column fits int32
        self.data = np.empty(tokens, dtype=np.float64)
        self.nnz = 0

    def settle(self, piece, indptr, nnz):
        """Move ``piece``'s ``nnz`` canonical entries down to the end of those before it."""
        at, src = self.nnz, piece.nz0
        if at != src:
            self.cols[at:at + nnz] = self.cols[src:src + nnz]
            self.data[at:at + nnz] = self.data[src:src + nnz]
        self.indptr[piece.row0 + 1:piece.row0 + piece.rows + 1] = indptr[1:] + at
        self.nnz = at + nnz


def _fill_piece(path, window, array, piece, mask, importance, out):
    """One piece into its stretch of ``out``, rows made canonical: (its row pointers from
    0, its nnz)."""
    K = kernels()
    rows, room0 = piece.rows, piece.nnz
    y, weight = out.y[piece.row0:piece.row0 + rows], out.weight[piece.row0:piece.row0 + rows]
    cols, data = out.cols[piece.nz0:piece.nz0 + room0], out.data[piece.nz0:piece.nz0 + room0]
    indptr = np.zeros(rows + 1, dtype=np.int64)
    room = min(4096, rows + room0)
    while True:
        slot, pos, end = (np.empty(room, dtype=np.int64) for _ in range(3))
        status = np.zeros(K.STATUS_SIZE, dtype=np.int64)
        K.fill_block(array, piece.lo, piece.hi, np.uint64(mask), not importance, y, weight,
                     indptr, cols, data, 0, 0, rows, room0, slot, pos, end, status)
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
    if error is None and status[K.ROWS] != rows:
        error = (piece.lo, "the file changed while it was read")
    if error is not None:
        raise parse.located_error(path, window, piece, *error)
    return indptr, K.canonical_rows(indptr, cols, data, rows)


def _counted(pool, array, lo, hi, line, row0=0, nz0=0):
    """The pieces of ``array[lo:hi]``, counted (lines, rows, feature tokens), with their
    first line and their offsets in the output; and the line after them."""
    K = kernels()
    ranges = parse.cut(array, lo, hi, 2 * pool.workers)
    pieces = []
    for (a, b), (lines, rows, nnz) in zip(ranges, pool.map(
            K.count_block, [(array, a, b) for a, b in ranges])):
        pieces.append(parse.Piece(a, b, int(lines), int(rows), int(nnz), -1, -1, line, row0,
                                  nz0))
        line, row0, nz0 = line + int(lines), row0 + int(rows), nz0 + int(nnz)
    return pieces, line


def _fill(pool, path, window, array, pieces, mask, importance, out):
    done = pool.map(_fill_piece, [(path, window, array, p, mask, importance, out)
                                  for p in pieces if p.rows])
    for piece, (indptr, nnz) in zip([p for p in pieces if p.rows], done):
        out.settle(piece, indptr, nnz)


def read_vw(path: str | os.PathLike, bits: int = DEFAULT_BITS, *, importance: bool = False,
            progress=None):
    """``(X, y)`` of a VW text file (``(X, y, importance)`` with ``importance=True``): X a
    CSR matrix of ``2**bits`` columns (float64 values, sorted int32 indices), y float64.
    Raises :class:`DataFormatError` (file, line, text) at the first malformed line.

    Two passes, as the svmlight reader: the first counts rows and feature tokens so that the
    arrays are allocated once (peak memory: the result plus two windows, and the room of
    features that a row repeats or that are 0); the second parses."""
    _check_bits(bits)
    path = _check_path(path)
    mask = (1 << bits) - 1
    with ThreadPool() as pool:
        plan, line, rows, tokens = [], 1, 0, 0
        for window, end in windows(path):
            pieces, line = _counted(pool, as_array(window), 0, end, line, rows, tokens)
            rows += sum(p.rows for p in pieces)
            tokens += sum(p.nnz for p in pieces)
            plan.append((end, pieces))
        out, read = _Arrays(rows, tokens), 0
        for (window, end), (planned, pieces) in zip(windows(path), plan):
            if end != planned:
                raise DataFormatError(path, None, None, "the file changed while it was read")
            _fill(pool, path, window, as_array(window), pieces, mask, importance, out)
            read += 1
            if progress is not None:
                progress(sum(p.rows for p in pieces))
        if read != len(plan):
            raise DataFormatError(path, None, None, "the file changed while it was read")
    return _result(out, bits, importance)


def _check_path(path):
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no such Vowpal Wabbit file: {path}")
    return path


def _result(out, bits, importance):
    nnz = out.nnz
    if nnz > np.iinfo(np.int32).max:
        raise DataFormatError(None, None, None, "more than 2^31 features in all")
    cols, data = out.cols[:nnz], out.data[:nnz]
    if nnz < 0.9 * out.cols.shape[0]:  # many repeated or zero features: give the room back
        cols, data = cols.copy(), data.copy()
    X = scipy_sparse().csr_matrix((data, cols, out.indptr.astype(np.int32)),
                                  shape=(out.y.shape[0], 1 << bits), copy=False)
    return (X, out.y, out.weight) if importance else (X, out.y)


def iter_vw_chunks(path: str | os.PathLike, chunk_rows: int = 10_000, bits: int = DEFAULT_BITS,
                   *, importance: bool = False):
    """Yield ``(X, y)`` chunks (``(X, y, importance)`` with ``importance=True``) of a VW text
    file in file order, each of the examples of at most ``chunk_rows`` consecutive lines, X
    of ``2**bits`` columns: memory bounded by the chunk, one pass (the width is known
    beforehand). The next chunk is parsed on a thread while the caller uses the current one.
    Arguments are checked at call time; the file is read lazily."""
    from .svmlight import _check_args

    _check_args(chunk_rows, None, False)
    _check_bits(bits)
    path = _check_path(path)
    mask = (1 << bits) - 1

    def parsed():
        with ThreadPool() as pool:
            for window, array, lo, hi, first in parse.line_chunks(path, chunk_rows):
                pieces, _ = _counted(pool, array, lo, hi, first)
                rows, tokens = sum(p.rows for p in pieces), sum(p.nnz for p in pieces)
                if not rows:
                    continue
                out = _Arrays(rows, tokens)
                _fill(pool, path, window, array, pieces, mask, importance, out)
                yield _result(out, bits, importance)

    return read_ahead(parsed, name="olc-parse-ahead")
