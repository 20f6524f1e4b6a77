"""Pieces of svmlight text to arrays: the Python side of :mod:`olc.data._text_kernels`.

A byte range of whole lines is cut into pieces at newlines (one per thread, or a few); each
piece is counted (:func:`count_pieces`), the caller allocates the arrays once, and each piece
is filled at its offsets (:func:`fill_piece`), its hard tokens converted in one NumPy cast,
and every error turned into one :class:`DataFormatError` naming the file, the line and its
text. Nothing here loops over examples in Python.
"""
from __future__ import annotations

import hashlib
import importlib
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import DataFormatError

_INT32_MAX = np.iinfo(np.int32).max
_HARD_ROOM = 4096  # hard tokens recorded per piece before a second run is needed
#: Smallest piece a thread is given: below it, the threads' hand-over costs more than it saves.
MIN_PIECE_BYTES = 256 << 10
_MIN_BLOCK = 32 << 10  # smallest block read by line_chunks
_lock = threading.Lock()
_kernels = None


def enable_kernel_cache(modules, folder_prefix, depends=()):
    """Import ``modules`` (of this package) and switch their numba disk cache on in one
    folder of olc's cache root keyed by their sources, those of ``depends`` (modules they
    call, cached elsewhere) and ``caching.py``: an edit of any of them (a kernel inlines the
    others) never reuses a stale cache. Returns the last module."""
    from .._compiled import caching
    from .._compiled.loader import cache_root

    loaded = [importlib.import_module(f"{__package__}.{name}") for name in modules]
    digest = hashlib.sha256(Path(caching.__file__).read_bytes())
    for module in [importlib.import_module(f"{__package__}.{name}") for name in depends] + loaded:
        digest.update(Path(module.__file__).read_bytes())
    folder = cache_root() / f"{folder_prefix}-{digest.hexdigest()[:16]}"
    for module in loaded:
        caching.enable_cache(module.__name__, folder)
    return loaded[-1]


def kernels():
    """The compiled svmlight kernels, their numba disk cache switched on."""
    global _kernels
    if _kernels is None:
        with _lock:
            if _kernels is None:
                _kernels = enable_kernel_cache(("_number_kernels", "_text_kernels"), "reader")
    return _kernels


@dataclass(frozen=True)
class Conventions:
    """How indices become columns: column = index − ``base``, below ``limit`` (−1: no
    limit), stored as ``index_dtype`` (``widen``: an index beyond int32 asks for int64 rather
    than failing)."""
    base: int
    limit: int
    index_dtype: type
    widen: bool = False

    @property
    def max_index(self):
        return _INT32_MAX if self.index_dtype == np.int32 else np.iinfo(np.int64).max


def index_dtype_for(width, nnz):
    return np.int32 if width <= _INT32_MAX and nnz <= _INT32_MAX else np.int64


@dataclass
class Piece:
    lo: int
    hi: int
    lines: int
    rows: int
    nnz: int
    min_index: int
    max_index: int
    first_line: int = 0
    row0: int = 0
    nz0: int = 0


def line_chunks(path, chunk_rows):
    """(window, array, lo, hi, first line) of each run of ``chunk_rows`` lines of ``path``
    (any line-based text format). Each block read is scanned once; a chunk that spans blocks
    is joined once (a chunk's bytes are copied at most once, whatever its size)."""
    from . import _text_source

    K = kernels()
    first, need, parts = 1, chunk_rows, []
    size = [_MIN_BLOCK]
    for block in _text_source.blocks(path, lambda: size[0]):
        array, pos = _text_source.as_array(block), 0
        while True:
            end, k = K.after_lines(array, pos, len(block), need)
            if k < need:  # the block ends inside the chunk
                need -= k
                if pos < len(block):
                    parts.append(block[pos:] if pos else block)
                break
            if parts:
                data = b"".join(parts + [block[pos:end]])
                yield data, _text_source.as_array(data), 0, len(data), first
            else:
                yield block, array, pos, end, first
            size[0] = min(max(sum(map(len, parts)) + end - pos, _MIN_BLOCK),
                          _text_source.WINDOW_BYTES)
            first, need, parts, pos = first + chunk_rows, chunk_rows, [], end
    data = b"".join(parts)
    if data:
        yield data, _text_source.as_array(data), 0, len(data), first


def cut(array, lo, hi, parts):
    """``parts`` line-aligned ranges covering ``array[lo:hi]`` (fewer when small)."""
    K = kernels()
    parts = max(1, min(parts, (hi - lo) // MIN_PIECE_BYTES))
    bounds = [lo]
    for i in range(1, parts):
        b = K.next_line_start(array, max(lo + (hi - lo) * i // parts, bounds[-1]), hi)
        if b > bounds[-1] and b < hi:
            bounds.append(b)
    bounds.append(hi)
    return list(zip(bounds[:-1], bounds[1:]))


def _count(array, a, b):
    K = kernels()
    lines, colons, plain = K.fast_count(array, a, b)
    if plain:  # every line an example, every ':' a feature
        return lines, lines, colons, -1, -1
    return K.count_block(array, a, b)


def count_pieces(pool, array, lo, hi, first_line=1, row0=0, nz0=0, exact=False):
    """The pieces of ``array[lo:hi]``, counted, with their first line and offsets (their
    smallest and largest index too with ``exact``; else −1, found by the fill)."""
    K = kernels()
    ranges = cut(array, lo, hi, 2 * pool.workers)
    counts = pool.map(K.count_block if exact else _count, [(array, a, b) for a, b in ranges])
    pieces = []
    for (a, b), (lines, rows, nnz, low, high) in zip(ranges, counts):
        pieces.append(Piece(a, b, int(lines), int(rows), int(nnz), int(low), int(high),
                            first_line, row0, nz0))
        first_line, row0, nz0 = first_line + int(lines), row0 + int(rows), nz0 + int(nnz)
    return pieces


class WiderIndices(Exception):
    """An index does not fit int32: the caller reads again with int64 indices."""


class Arrays:
    """The output arrays of ``rows`` examples with ``nnz`` features."""

    def __init__(self, rows, nnz, index_dtype):
        self.y = np.empty(rows, dtype=np.float64)
        self.qid = np.empty(rows, dtype=np.int64)
        self.indptr = np.empty(rows + 1, dtype=index_dtype)
        self.indptr[0] = 0
        self.indices = np.empty(nnz, dtype=index_dtype)
        self.data = np.empty(nnz, dtype=np.float64)


def fill_piece(path, window, array, piece, conv, out):
    """Fill ``piece``'s rows of ``out`` (a kernel run, then its hard tokens); returns the
    smallest and largest column written; raises :class:`DataFormatError` at the first bad
    token of the piece."""
    K = kernels()
    room = min(_HARD_ROOM, piece.rows + piece.nnz)
    while True:
        slot = np.empty(room, dtype=np.int64)
        pos = np.empty(room, dtype=np.int64)
        end = np.empty(room, dtype=np.int64)
        status = np.zeros(K.STATUS_SIZE, dtype=np.int64)
        K.fill_block(array, piece.lo, piece.hi, conv.base, conv.limit, conv.max_index,
                     out.y, out.qid, out.indptr, out.indices, out.data, piece.row0, piece.nz0,
                     piece.row0 + piece.rows, piece.nz0 + piece.nnz, slot, pos, end, status)
        if status[K.HARD] <= room:
            break
        room = int(status[K.HARD])
    n = int(status[K.HARD])
    failure = convert_hard(array, slot[:n], pos[:n], end[:n], out.y, out.data,
                           K.scatter_hard) if n else None
    error = None
    if status[K.ERR] != K.OK:
        error = (int(status[K.POS]), _kernel_reason(window, int(status[K.POS]), piece.hi,
                                                    int(status[K.ERR]), conv))
    if failure is not None and (error is None or failure[0] < error[0]):
        error = failure
    elif status[K.ERR] == K.TOO_LARGE and conv.widen and conv.index_dtype == np.int32:
        raise WiderIndices()
    if error is None and (status[K.ROWS] != piece.rows or status[K.NNZ] != piece.nnz):
        error = (piece.lo, "the file changed while it was read")
    if error is not None:
        raise located_error(path, window, piece, *error)
    return int(status[K.LOW]), int(status[K.HIGH])


def convert_hard(array, slot, pos, end, y, data, scatter):
    """Convert the hard tokens (correctly rounded, as ``float()``) and hand them to
    ``scatter(slot, values, n, y, data)``; returns (byte offset, reason) of the first one
    that is not a finite number, or None."""
    K = kernels()
    n = slot.shape[0]
    lengths = end - pos
    width = max(int(lengths.max()), 1)
    matrix = K.gather_tokens(array, pos, end, n, width)
    values = None
    if np.count_nonzero(matrix) == int(lengths.sum()):  # no NUL byte (a fixed-width
        try:                                              # string would drop it)
            values = matrix.view(f"S{width}").ravel().astype(np.float64)
        except ValueError:
            pass
    if values is None:  # some token is not a number: find the first, the rest as float()
        values = np.empty(n, dtype=np.float64)
        for i in range(n):
            token = matrix[i, :lengths[i]].tobytes()
            try:
                values[i] = float(token)
            except ValueError:
                what = "label" if slot[i] < 0 else "value"
                return int(pos[i]), f"the {what} {token.decode('utf-8', 'replace')!r} is " \
                                    "not a number"
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        return int(pos[bad[0]]), "NaN or infinite label/value"
    scatter(slot, values, n, y, data)
    return None


def _token_at(window, pos, hi):
    end = pos
    while end < hi and window[end:end + 1] not in b" \t\n\r\x0b\x0c":
        end += 1
    return window[pos:end].decode("utf-8", "replace")


def _kernel_reason(window, pos, hi, code, conv):
    K = kernels()
    token = _token_at(window, pos, hi)
    index = token.partition(":")[0]
    if code == K.NO_COLON:
        return f"the feature {token!r} has no ':value'"
    if code == K.BAD_INDEX:
        return f"the index {index!r} is not an integer"
    if code == K.NEGATIVE_INDEX:
        if conv.base == 1 and int(index) == 0:
            return ("index 0 in a one-based file (indices start at 1 by default; pass "
                    "zero_based=True or 'auto' for a zero-based file)")
        return f"negative index {index}"
    if code == K.UNSORTED:
        return f"the indices are not sorted and unique (strictly increasing) at {token!r}"
    if code == K.BEYOND:
        return f"index {index} is beyond n_features={conv.limit}"
    if code == K.BAD_QID:
        return f"the qid in {token!r} is not an integer"
    if code == K.TOO_LARGE:
        return f"index {index} exceeds the largest index supported"
    return "the file changed while it was read"


def located_error(path, window, piece, pos, reason):
    """A :class:`DataFormatError` at byte ``pos`` of ``window`` (inside ``piece``)."""
    start = window.rfind(b"\n", piece.lo, pos) + 1 or piece.lo
    start = max(start, piece.lo)
    stop = window.find(b"\n", pos, piece.hi)
    stop = piece.hi if stop < 0 else stop
    line = piece.first_line + window.count(b"\n", piece.lo, start)
    text = window[start:stop].decode("utf-8", "replace").rstrip("\r\n")
    return DataFormatError(path, line, text, reason)
