"""Compiled kernels of the svmlight reader (:mod:`olc.data.svmlight`): bytes to CSR.

Two passes over a line-aligned byte range ``buf[lo:hi]``: :func:`count_block` finds how many
lines, examples and features it holds (so that the caller allocates the arrays once, at their
final size, and two threads can fill two ranges of one matrix), :func:`fill_block` writes the
labels, qids, row pointers, column indices and values. Both release the GIL (``nogil``).

Values: the fast path of :mod:`olc.data._number_kernels`; any other token is a *hard*
token: its slot and byte range are recorded and the caller converts all of a block's hard
tokens at once with NumPy's string cast, which is Python's correctly rounded conversion
(its own errors fall back to ``float()`` token by token to name the bad one).

Errors stop the block: ``status[ERR]`` holds a code (below) and ``status[POS]`` the byte
offset of the bad token, from which the caller finds the line.
"""
import numpy as np

from .._compiled.caching import jit
from ._number_kernels import ends_token, is_space, parse_int, scan_number, token_end

# status fields
ROWS, NNZ, HARD, ERR, POS, LOW, HIGH = 0, 1, 2, 3, 4, 5, 6
STATUS_SIZE = 7

# error codes
OK = 0
NO_COLON = 1        # a feature without ':value'
BAD_INDEX = 2       # an index that is not an integer
NEGATIVE_INDEX = 3  # below zero after the base is subtracted (index 0 in a one-based file)
UNSORTED = 4        # indices not strictly increasing
BEYOND = 5          # index ≥ n_features
BAD_QID = 6         # qid:<not an integer>
TOO_LARGE = 7       # index beyond the index dtype
OVERRUN = 8         # more rows/features than counted (the count pass disagrees: a bug)

@jit(nogil=True, inline="always")
def _is_qid(buf, t, te):
    # scikit-learn's test: the first feature token starts with b"qid"
    return te - t >= 3 and buf[t] == 113 and buf[t + 1] == 105 and buf[t + 2] == 100


@jit(nogil=True)
def next_line_start(buf, pos, hi):
    """The offset just after the first newline at or after ``pos`` (``hi`` if none)."""
    while pos < hi:
        if buf[pos] == 10:
            return pos + 1
        pos += 1
    return hi


@jit(nogil=True)
def after_lines(buf, pos, hi, n):
    """(offset after the ``n``-th newline from ``pos``, lines passed); (hi, k) when fewer."""
    k = 0
    while pos < hi:
        if buf[pos] == 10:
            k += 1
            if k == n:
                return pos + 1, k
        pos += 1
    return hi, k


@jit(nogil=True)
def count_block(buf, lo, hi):
    """(lines, examples, features, smallest index, largest index) of ``buf[lo:hi]``, without
    converting anything (indices that do not parse are skipped here; the fill pass names
    them). A last line without a newline counts as a line."""
    lines = 0
    rows = 0
    nnz = 0
    lo_idx = np.int64(1) << 62
    hi_idx = np.int64(-1)
    pos = lo
    while pos < hi:
        eol = pos
        while eol < hi and buf[eol] != 10:
            eol += 1
        lines += 1
        end = pos
        while end < eol and buf[end] != 35:
            end += 1
        t = pos
        while t < end and is_space(buf[t]):
            t += 1
        if t < end:
            rows += 1
            while t < end and not is_space(buf[t]):  # the label
                t += 1
            first = True
            while True:
                while t < end and is_space(buf[t]):
                    t += 1
                if t >= end:
                    break
                te = t
                c = -1
                while te < end and not is_space(buf[te]):
                    if c < 0 and buf[te] == 58:
                        c = te
                    te += 1
                if not (first and _is_qid(buf, t, te)):
                    nnz += 1
                    if c > t:
                        ok, idx = parse_int(buf, t, c)
                        if ok:
                            lo_idx = min(lo_idx, idx)
                            hi_idx = max(hi_idx, idx)
                first = False
                t = te
        pos = eol + 1
    return lines, rows, nnz, lo_idx, hi_idx


@jit(nogil=True, inline="always")
def _is_blank(c):
    # whitespace within a line
    return c == 32 or c == 9 or c == 11 or c == 12 or c == 13


@jit(nogil=True)
def _skip_line(buf, pos, hi):
    while pos < hi and buf[pos] != 10:
        pos += 1
    return pos + 1


@jit(nogil=True)
def fast_count(buf, lo, hi):
    """(lines, newlines, colons, plain) of ``buf[lo:hi]`` in one branch-free scan. When
    ``plain`` (no '#', no 'q', every line starts with a non-blank byte) every line is an
    example and every ':' a feature; otherwise :func:`count_block` must count."""
    newlines = 0
    colons = 0
    special = 0
    if hi > lo and buf[lo] <= 32:
        special = 1
    for i in range(lo + 1, hi):
        c = buf[i]
        newlines += c == 10
        colons += c == 58
        special |= (c == 35) | (c == 113) | ((buf[i - 1] == 10) & (c <= 32))
    if hi > lo:
        c = buf[lo]
        newlines += c == 10
        colons += c == 58
        special |= (c == 35) | (c == 113)
    lines = newlines + (1 if hi > lo and buf[hi - 1] != 10 else 0)
    return lines, colons, special == 0


@jit(nogil=True)
def fill_block(buf, lo, hi, base, limit, max_index, y, qid, indptr, indices, data, row0, nz0,
               row_cap, nz_cap, hard_slot, hard_pos, hard_end, status):
    """Parse ``buf[lo:hi]`` into rows ``row0 …`` and features ``nz0 …`` of the output arrays
    (``indptr[row0 + r + 1]`` is written for each row; the caller sets ``indptr[0]``).
    Column = index − ``base``; it must be ≥ 0, below ``limit`` (when ≥ 0) and at most
    ``max_index`` (the index dtype's). Hard tokens go to ``hard_*`` (slot ≥ 0: ``data``'s
    position, slot < 0: the label of row −slot − 1) while there is room; ``status[HARD]``
    counts them all, so the caller can run the block again with room for every one.
    ``status[LOW]``/``status[HIGH]``: the smallest and largest column written."""
    r = row0
    k = nz0
    nh = 0
    cap = hard_slot.shape[0]
    low = np.int64(1) << 62
    high = np.int64(-1)
    err = OK
    where = 0
    pos = lo
    while pos < hi and err == OK:
        while pos < hi and _is_blank(buf[pos]):
            pos += 1
        if pos >= hi:
            break
        if buf[pos] == 10:
            pos += 1
            continue
        if buf[pos] == 35:
            pos = _skip_line(buf, pos, hi)
            continue
        if r >= row_cap:
            err = OVERRUN
            where = pos
            break
        t = pos
        ok, v, pos = scan_number(buf, pos, hi)
        if ok:
            y[r] = v
        else:
            y[r] = 0.0
            if nh < cap:
                hard_slot[nh] = -(r + 1)
                hard_pos[nh] = t
                hard_end[nh] = pos
            nh += 1
        qid[r] = 0
        first = True
        prev = np.int64(-1)
        while True:
            while pos < hi and _is_blank(buf[pos]):
                pos += 1
            if pos >= hi:
                break
            if buf[pos] == 10:
                pos += 1
                break
            if buf[pos] == 35:
                pos = _skip_line(buf, pos, hi)
                break
            t = pos
            idx = np.int64(0)
            nd = 0
            while pos < hi and 48 <= buf[pos] <= 57 and nd < 18:
                idx = idx * 10 + (buf[pos] - 48)
                pos += 1
                nd += 1
            if nd == 0 or pos >= hi or buf[pos] != 58:  # not digits then ':': the slow way
                te = token_end(buf, t, hi)
                c = t
                while c < te and buf[c] != 58:
                    c += 1
                if first and _is_qid(buf, t, te):
                    first = False
                    ok, q = parse_int(buf, c + 1, te) if c < te else (False, np.int64(0))
                    if not ok:
                        err = BAD_QID
                        where = t
                        break
                    qid[r] = q
                    pos = te
                    continue
                if c == te:
                    err = NO_COLON
                    where = t
                    break
                ok, idx = parse_int(buf, t, c)
                if not ok:
                    err = BAD_INDEX
                    where = t
                    break
                pos = c
            first = False
            pos += 1  # the colon
            col = idx - base
            if col < 0:
                err = NEGATIVE_INDEX
            elif idx <= prev:
                err = UNSORTED
            elif limit >= 0 and col >= limit:
                err = BEYOND
            elif col > max_index:
                err = TOO_LARGE
            elif k >= nz_cap:
                err = OVERRUN
            if err != OK:
                where = t
                break
            prev = idx
            indices[k] = col
            low = min(low, col)
            high = max(high, col)
            s = pos
            if pos + 1 < hi and buf[pos] == 49 and ends_token(buf[pos + 1]):
                ok, v, pos = True, 1.0, pos + 1  # binary data's '1', the commonest value
            else:
                ok, v, pos = scan_number(buf, pos, hi)
            if ok:
                data[k] = v
            else:
                data[k] = 0.0
                if nh < cap:
                    hard_slot[nh] = k
                    hard_pos[nh] = s
                    hard_end[nh] = pos
                nh += 1
            k += 1
        if err != OK:
            break
        indptr[r + 1] = k
        r += 1
    status[ERR] = err
    status[POS] = where
    status[ROWS] = r - row0
    status[NNZ] = k - nz0
    status[HARD] = nh
    status[LOW] = low
    status[HIGH] = high


@jit(nogil=True)
def gather_tokens(buf, pos, end, n, width):
    """The first ``n`` tokens ``buf[pos[i]:end[i]]`` as rows of a zero-padded
    (n, width) byte matrix (NumPy's fixed-width strings)."""
    out = np.zeros((n, width), dtype=np.uint8)
    for i in range(n):
        for j in range(end[i] - pos[i]):
            out[i, j] = buf[pos[i] + j]
    return out


@jit(nogil=True)
def scatter_hard(slots, values, n, y, data):
    for i in range(n):
        s = slots[i]
        if s >= 0:
            data[s] = values[i]
        else:
            y[-s - 1] = values[i]


@jit(nogil=True)
def first_bad_row(indptr, indices, width):
    """The first row whose pointers or column indices are not a valid sorted CSR row of
    ``width`` columns (−1: none; ``len(indptr) − 1`` for bad end pointers)."""
    n = indptr.shape[0] - 1
    if n < 0 or indptr[0] != 0 or indptr[n] != indices.shape[0]:
        return max(n, 0)
    for r in range(n):
        a = indptr[r]
        b = indptr[r + 1]
        if b < a or b > indices.shape[0]:
            return r
        prev = -1
        for k in range(a, b):
            c = indices[k]
            if c <= prev or c >= width:
                return r
            prev = c
    return -1
