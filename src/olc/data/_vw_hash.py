"""Vowpal Wabbit's feature hash, compiled: MurmurHash3 (x86, 32 bits; Appleby 2011) and
VW's ``hashstring`` (VW 9, ``hashstring.h``): bytes ≤ 0x20 trimmed at both ends, then an
all-digit name is its integer value plus the seed (64-bit arithmetic), any other name
MurmurHash3 of its bytes with the seed."""
import numpy as np

from .._compiled.caching import jit

_M32 = np.uint64(0xFFFFFFFF)


@jit(nogil=True, inline="always")
def _rotl32(x, r):
    return ((x << np.uint64(r)) | (x >> np.uint64(32 - r))) & _M32


@jit(nogil=True)
def murmur3_32(buf, s, n, seed):
    """MurmurHash3_x86_32 of ``buf[s:s+n]`` with ``seed`` (the low 32 bits are used)."""
    c1 = np.uint64(0xCC9E2D51)
    c2 = np.uint64(0x1B873593)
    h = np.uint64(seed) & _M32
    nblocks = n // 4
    for i in range(nblocks):
        p = s + 4 * i
        k = (np.uint64(buf[p]) | (np.uint64(buf[p + 1]) << np.uint64(8))
             | (np.uint64(buf[p + 2]) << np.uint64(16)) | (np.uint64(buf[p + 3]) << np.uint64(24)))
        k = (k * c1) & _M32
        k = _rotl32(k, 15)
        k = (k * c2) & _M32
        h ^= k
        h = _rotl32(h, 13)
        h = (h * np.uint64(5) + np.uint64(0xE6546B64)) & _M32
    tail = s + 4 * nblocks
    k = np.uint64(0)
    rest = n & 3
    if rest >= 3:
        k ^= np.uint64(buf[tail + 2]) << np.uint64(16)
    if rest >= 2:
        k ^= np.uint64(buf[tail + 1]) << np.uint64(8)
    if rest >= 1:
        k ^= np.uint64(buf[tail])
        k = (k * c1) & _M32
        k = _rotl32(k, 15)
        k = (k * c2) & _M32
        h ^= k
    h ^= np.uint64(n) & _M32
    h ^= h >> np.uint64(16)
    h = (h * np.uint64(0x85EBCA6B)) & _M32
    h ^= h >> np.uint64(13)
    h = (h * np.uint64(0xC2B2AE35)) & _M32
    h ^= h >> np.uint64(16)
    return h


@jit(nogil=True)
def hashstring(buf, s, e, seed):
    """VW's ``hashstring``: an integer name is its value plus ``seed``, any other name
    MurmurHash3 with ``seed``; bytes ≤ 0x20 trimmed at both ends (64-bit arithmetic)."""
    while s < e and buf[s] <= 32:
        s += 1
    while e > s and buf[e - 1] <= 32:
        e -= 1
    value = np.uint64(0)
    for i in range(s, e):
        c = buf[i]
        if c < 48 or c > 57:
            return murmur3_32(buf, s, e - s, seed)
        value = value * np.uint64(10) + np.uint64(c - 48)
    return value + np.uint64(seed)


