"""Open plain, gzip, bzip2 or xz files transparently, and hash them.

Compression is detected from the first bytes (magic numbers), not from the file
name: the same content may be stored as ``a9a`` (as LIBSVM ships it), ``a9a.xz``
(as our shared folder keeps it) or ``a9a.bz2``, and a user who renames a file
should not get garbage.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import lzma
import os
from pathlib import Path

__all__ = [
    "COMPRESSED_SUFFIXES",
    "detect_compression",
    "open_binary",
    "strip_compression_suffix",
    "sha256_file",
    "sha256_content",
]

# suffix -> compression name; "" is a plain file.
COMPRESSED_SUFFIXES = {".xz": "xz", ".gz": "gz", ".bz2": "bz2"}

_MAGIC = (
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x1f\x8b", "gz"),
    (b"BZh", "bz2"),
)

_BLOCK = 1 << 20  # 1 MiB: large enough to hash at disk speed, small enough to be negligible


def detect_compression(path: str | os.PathLike) -> str | None:
    """Return ``'xz'``, ``'gz'``, ``'bz2'`` or ``None`` (plain) from the magic bytes."""
    with open(path, "rb") as f:
        head = f.read(6)
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return name
    return None


def open_binary(path: str | os.PathLike) -> io.BufferedIOBase:
    """Open ``path`` for binary reading, decompressing on the fly if needed.

    The returned object streams: memory does not grow with the file size.
    """
    kind = detect_compression(path)
    if kind == "xz":
        return lzma.open(path, "rb")
    if kind == "gz":
        return gzip.open(path, "rb")
    if kind == "bz2":
        return bz2.open(path, "rb")
    return open(path, "rb")


def strip_compression_suffix(name: str) -> str:
    """``'a9a.xz'`` -> ``'a9a'``; names without a compression suffix are unchanged."""
    for suffix in COMPRESSED_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _hash_stream(f) -> tuple[str, int]:
    h = hashlib.sha256()
    n = 0
    while True:
        block = f.read(_BLOCK)
        if not block:
            break
        h.update(block)
        n += len(block)
    return h.hexdigest(), n


def sha256_file(path: str | os.PathLike) -> str:
    """sha256 of the bytes of ``path`` as stored (no decompression)."""
    with open(Path(path), "rb") as f:
        return _hash_stream(f)[0]


def sha256_content(path: str | os.PathLike) -> tuple[str, int]:
    """sha256 and size of the *decompressed* content of ``path``."""
    with open_binary(path) as f:
        return _hash_stream(f)
