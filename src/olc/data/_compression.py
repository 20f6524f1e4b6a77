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
import zlib
from pathlib import Path

from .errors import DataFormatError

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


#: What a damaged (truncated or corrupt) compressed stream raises while it is read.
DECOMPRESSION_ERRORS = (EOFError, lzma.LZMAError, zlib.error, gzip.BadGzipFile, OSError)


class _Guarded(io.RawIOBase):
    """A decompressing stream whose read errors become one :class:`DataFormatError` naming
    the file, the last complete line and the byte offset of the decompressed content."""

    def __init__(self, inner, path, kind):
        self._inner, self._path, self._kind = inner, path, kind
        self.offset = 0  # decompressed bytes delivered
        self.lines = 0   # complete lines delivered (newlines seen)

    def readable(self):
        return True

    def readinto(self, buffer):
        try:
            # read1: what one step of decompression gives, so that an error loses at most
            # that step and the reported position is close to the damage.
            data = self._inner.read1(len(buffer))
        except DECOMPRESSION_ERRORS as exc:
            where = (f"after line {self.lines} (lines 1-{self.lines} decompressed)" if self.lines
                     else "before the end of its first line")
            raise DataFormatError(
                self._path, None, None,
                f"the {self._kind} data is truncated or corrupt {where}, at byte "
                f"{self.offset} of the decompressed content ({type(exc).__name__}: {exc}); "
                "replace the file") from exc
        n = len(data)
        buffer[:n] = data
        self.offset += n
        self.lines += data.count(b"\n")
        return n

    def close(self):
        try:
            self._inner.close()
        finally:
            super().close()


def open_binary(path: str | os.PathLike) -> io.BufferedIOBase:
    """Open ``path`` for binary reading, decompressing on the fly if needed.

    The returned object streams: memory does not grow with the file size. A damaged
    compressed file raises :class:`~olc.data.errors.DataFormatError` (file, last complete
    line) when the damaged part is reached.
    """
    kind = detect_compression(path)
    opener = {"xz": lzma.open, "gz": gzip.open, "bz2": bz2.open}.get(kind)
    if opener is None:
        return open(path, "rb")
    return io.BufferedReader(_Guarded(opener(path, "rb"), os.fspath(path), kind),
                             buffer_size=1 << 16)


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
