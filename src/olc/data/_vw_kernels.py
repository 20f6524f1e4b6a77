"""Compiled kernels of the Vowpal Wabbit text reader (:mod:`olc.data.vw`).

A line is ``label [importance] [tag]|namespace[:weight] feature[:value] ... |...``. What VW
does with it, reproduced here (VW 9's ``parse_example_text.cc`` and ``hashstring.h``):

* the namespace's hash is ``hashstring(name, seed)`` (seed 0, VW's default ``--hash_seed``);
  the default namespace (a ``|`` followed by a space) has hash 0;
* a feature's hash is ``hashstring(name, namespace hash)``; ``name:word`` (a value that is
  not a number) hashes ``hashstring(word, hashstring(name, namespace hash))`` with value 1;
  an anonymous feature ``:value`` is ``namespace hash + k`` for the k-th of its namespace;
* ``hashstring`` trims bytes ≤ 0x20 at both ends, then gives ``int(name) + seed`` (mod
  2^64) when every byte is a decimal digit and MurmurHash3 (x86, 32 bits; Appleby 2011)
  of the bytes with that seed otherwise;
* the column is ``hash & (2^b − 1)``; the value is the feature's value times the
  namespace's weight; a feature whose value is 0 is dropped;
* VW's constant feature (hash 11650396) is not added: olc's learners have their own bias.

Features that fall in one column of a row are summed (what a linear model does with them).
Values are ``float()`` of their token (VW rounds them to float32), by the svmlight reader's
fast path or as hard tokens converted by the caller.
"""
import numpy as np

from .._compiled.caching import jit
from ._number_kernels import scan_number
from ._text_kernels import OK, OVERRUN
from ._vw_hash import hashstring

# status fields: as the svmlight kernels' (ROWS, NNZ, HARD, ERR, POS)
ROWS, NNZ, HARD, ERR, POS = 0, 1, 2, 3, 4
STATUS_SIZE = 5

NO_LABEL = 20           # a line with features but no label
BAD_IMPORTANCE = 21     # an importance weight that is not a plain number
WEIGHTED = 22           # an importance weight other than 1 where none is accepted
BASE = 23               # a third token before the '|' (VW's initial prediction)
BAD_NAMESPACE = 24      # '|:' or a namespace weight that is not a plain number
BAD_FEATURE = 25        # a feature followed by something other than ':', space, '|'
BAD_VALUE = 26          # a value that starts like a number and is none
NONFINITE = 27          # nan, inf or infinity as a value (VW reads them as numbers)

@jit(nogil=True, inline="always")
def _ends_name(c):
    # VW's read_name stops at ' ', ':', '\t', '|', '\r'
    return c == 32 or c == 58 or c == 9 or c == 124 or c == 13


@jit(nogil=True, inline="always")
def _ends_value(c):
    return c == 32 or c == 9 or c == 124 or c == 13


@jit(nogil=True)
def _number(buf, s, e):
    """(ok, value) when ``buf[s:e]`` is wholly in the fast path's grammar."""
    ok, v, end = scan_number(buf, s, e)
    return ok and end == e, v


@jit(nogil=True)
def _is_nan_or_inf(buf, s, e):
    n = e - s
    if n != 3 and n != 8:
        return False
    word = "infinity" if n == 8 else ("nan" if buf[s] | 32 == 110 else "inf")
    for i in range(n):
        if buf[s + i] | 32 != ord(word[i]):
            return False
    return True


@jit(nogil=True)
def count_block(buf, lo, hi):
    """(lines, examples, feature tokens) of ``buf[lo:hi]``: an upper bound of the features
    (zero values, duplicates and errors are found by the fill)."""
    lines = 0
    rows = 0
    tokens = 0
    pos = lo
    while pos < hi:
        eol = pos
        content = False
        while eol < hi and buf[eol] != 10:
            if buf[eol] > 32:
                content = True
            eol += 1
        lines += 1
        if content:
            rows += 1
            i = pos
            while i < eol and buf[i] != 124:
                i += 1
            while i < eol:  # at a '|'
                i += 1
                if i < eol and not _ends_value(buf[i]):  # the namespace's name
                    while i < eol and not _ends_value(buf[i]):
                        i += 1
                while i < eol and buf[i] != 124:
                    while i < eol and (buf[i] == 32 or buf[i] == 9):
                        i += 1
                    if i < eol and buf[i] != 124 and buf[i] != 13:
                        tokens += 1
                        while i < eol and not _ends_value(buf[i]):
                            i += 1
                    elif i < eol and buf[i] == 13:
                        i += 1
        pos = eol + 1
    return lines, rows, tokens


@jit(nogil=True)
def fill_block(buf, lo, hi, mask, unit_only, y, weight, indptr, cols, data, row0, nz0,
               row_cap, nz_cap, hard_slot, hard_pos, hard_end, status):
    """Parse ``buf[lo:hi]`` into rows ``row0 …`` (columns unsorted, as they come; see
    :func:`canonical_rows`). A hard value's slot holds its namespace weight, by which the
    caller multiplies the converted value; a hard label has slot −(row + 1)."""
    r = row0
    k = nz0
    nh = 0
    cap = hard_slot.shape[0]
    err = OK
    where = 0
    starts = np.zeros(4, dtype=np.int64)
    ends = np.zeros(4, dtype=np.int64)
    pos = lo
    while pos < hi and err == OK:
        eol = pos
        content = False
        while eol < hi and buf[eol] != 10:
            if buf[eol] > 32:
                content = True
            eol += 1
        if not content:
            pos = eol + 1
            continue
        if r >= row_cap:
            err = OVERRUN
            where = pos
            break
        bar = pos
        while bar < eol and buf[bar] != 124:
            bar += 1
        # the tokens before the bar (after its first tab, as VW), split at spaces:
        # label [importance] [tag]
        n = 0
        i = pos
        while i < bar and buf[i] != 9:
            i += 1
        i = pos if i == bar else i + 1
        while i < bar:
            while i < bar and buf[i] == 32:
                i += 1
            if i >= bar:
                break
            j = i
            while j < bar and buf[j] != 32:
                j += 1
            if n < 4:
                starts[n] = i
                ends[n] = j
            n += 1
            i = j
        if n > 0 and (ends[min(n, 4) - 1] == bar or buf[starts[min(n, 4) - 1]] == 39):
            n -= 1  # a tag: the last token if it touches the bar or starts with a quote
        if n == 0:
            err = NO_LABEL
            where = pos
            break
        if n > 2:
            err = BASE
            where = starts[2] if n <= 4 else starts[3]
            break
        ok, v = _number(buf, starts[0], ends[0])
        if ok:
            y[r] = v
        else:
            y[r] = 0.0
            if nh < cap:
                hard_slot[nh] = -(r + 1)
                hard_pos[nh] = starts[0]
                hard_end[nh] = ends[0]
            nh += 1
        w = 1.0
        if n == 2:
            ok, w = _number(buf, starts[1], ends[1])
            if not ok:
                err = BAD_IMPORTANCE
                where = starts[1]
                break
            if unit_only and w != 1.0:
                err = WEIGHTED
                where = starts[1]
                break
        weight[r] = w
        pos = bar
        while pos < eol and buf[pos] == 124 and err == OK:
            pos += 1
            channel = np.uint64(0)
            scale = 1.0
            anon = np.uint64(0)
            if pos < eol and buf[pos] == 58:
                err = BAD_NAMESPACE
                where = pos
                break
            if pos < eol and not _ends_value(buf[pos]):
                s = pos
                while pos < eol and not _ends_name(buf[pos]):
                    pos += 1
                channel = hashstring(buf, s, pos, 0)
                if pos < eol and buf[pos] == 58:
                    pos += 1
                    s = pos
                    while pos < eol and not _ends_value(buf[pos]):
                        pos += 1
                    ok, scale = _number(buf, s, pos)
                    if not ok:
                        err = BAD_NAMESPACE
                        where = s
                        break
            while pos < eol and (buf[pos] == 32 or buf[pos] == 9):
                pos += 1
                if pos >= eol or _ends_value(buf[pos]):
                    continue
                t = pos
                while pos < eol and not _ends_name(buf[pos]):
                    pos += 1
                name_end = pos
                value = scale
                hard = False
                text_value = False
                vs = pos
                if pos < eol and buf[pos] == 58:
                    pos += 1
                    vs = pos
                    c = buf[vs] if vs < eol else 32
                    if (48 <= c <= 57) or c == 43 or c == 45 or c == 46:  # a number
                        while pos < eol and not _ends_value(buf[pos]):
                            pos += 1
                        ok, v = _number(buf, vs, pos)
                        if ok:
                            value = v * scale
                        else:
                            hard = True
                    elif not _ends_value(c):  # a word (VW reads it up to a space, '|' too)
                        while pos < eol and buf[pos] != 32 and buf[pos] != 9 and buf[pos] != 13:
                            pos += 1
                        if _is_nan_or_inf(buf, vs, pos):
                            err = NONFINITE
                            where = vs
                            break
                        text_value = True
                    else:
                        value = 0.0  # 'name:' and nothing: VW reads no number (value 0)
                elif pos < eol and not _ends_value(buf[pos]):
                    err = BAD_FEATURE
                    where = t
                    break
                if text_value:
                    h = hashstring(buf, vs, pos, hashstring(buf, t, name_end, channel))
                    value = 1.0
                elif name_end > t:
                    h = hashstring(buf, t, name_end, channel)
                else:
                    h = channel + anon
                    anon += np.uint64(1)
                if value == 0.0 and not hard:
                    continue
                if k >= nz_cap:
                    err = OVERRUN
                    where = t
                    break
                cols[k] = np.int64(h & mask)
                if hard:
                    data[k] = scale
                    if nh < cap:
                        hard_slot[nh] = k
                        hard_pos[nh] = vs
                        hard_end[nh] = pos
                    nh += 1
                else:
                    data[k] = value
                k += 1
            if err == OK and pos < eol and buf[pos] != 124 and buf[pos] != 13:
                err = BAD_FEATURE
                where = pos
        if err != OK:
            break
        indptr[r + 1] = k
        r += 1
        pos = eol + 1
    status[ERR] = err
    status[POS] = where
    status[ROWS] = r - row0
    status[NNZ] = k - nz0
    status[HARD] = nh


@jit(nogil=True)
def canonical_rows(indptr, cols, data, n_rows):
    """Sort each row's columns, sum the values of a repeated column and drop zeros, in
    place; rows are compacted to the front (``indptr`` rewritten, from 0). Returns the new
    nnz."""
    w = 0
    a = indptr[0]
    indptr[0] = 0
    for r in range(n_rows):
        b = indptr[r + 1]
        if 1 < b - a <= 64:  # insertion sort: rows are short
            for i in range(a + 1, b):
                c = cols[i]
                v = data[i]
                j = i - 1
                while j >= a and cols[j] > c:
                    cols[j + 1] = cols[j]
                    data[j + 1] = data[j]
                    j -= 1
                cols[j + 1] = c
                data[j + 1] = v
        elif b - a > 64:
            order = np.argsort(cols[a:b], kind="mergesort")
            sorted_cols = cols[a:b][order]
            sorted_data = data[a:b][order]
            cols[a:b] = sorted_cols
            data[a:b] = sorted_data
        i = a
        while i < b:
            c = cols[i]
            v = data[i]
            i += 1
            while i < b and cols[i] == c:
                v += data[i]
                i += 1
            if v != 0.0:
                cols[w] = c
                data[w] = v
                w += 1
        indptr[r + 1] = w
        a = b
    return w


@jit(nogil=True)
def scale_hard(slots, values, n, y, data):
    for i in range(n):
        s = slots[i]
        if s >= 0:
            data[s] = data[s] * values[i]
        else:
            y[-s - 1] = values[i]
