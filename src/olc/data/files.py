"""A data file to ``(X, y)``, parsed once: the format chosen, the parse cache consulted.

``read_file(path)`` reads an svmlight/LIBSVM file (:mod:`olc.data.svmlight`) or a Vowpal
Wabbit text file (:mod:`olc.data.vw`), plain or compressed, and keeps the parsed arrays in
the parse cache (``olc.data.parsed_cache``, like VW's ``--cache_file``): the next read of
the same, unchanged file with the same options maps the arrays from the cache instead of
parsing (a changed file is parsed again; a damaged entry is discarded with a warning).
"""
from __future__ import annotations

import os
from pathlib import Path

from ._compression import strip_compression_suffix

__all__ = ["read_file", "detect_format", "finish_writes", "FORMATS"]

FORMATS = ("svmlight", "vw")
_VW_SUFFIXES = (".vw",)
_writers = []  # parse-cache entries being written behind (write_behind=True)


def detect_format(path, format=None):
    """``format`` checked, or guessed from the name: ``.vw`` (before any compression
    suffix) is Vowpal Wabbit's text format, anything else svmlight."""
    if format is not None:
        if format not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)} (or None: from the "
                             f"file name), got {format!r}")
        return format
    name = strip_compression_suffix(Path(path).name)
    return "vw" if name.endswith(_VW_SUFFIXES) else "svmlight"


def read_file(path: str | os.PathLike, *, format: str | None = None,
              n_features: int | None = None, zero_based: bool | str = False,
              bits: int | None = None, cache: bool = True, progress=None,
              write_behind: bool = False):
    """``(X, y)`` of a data file: CSR float64 X, float64 y.

    ``format``: ``'svmlight'`` or ``'vw'`` (default: from the name, see
    :func:`detect_format`). svmlight takes ``n_features`` and ``zero_based`` (as
    :func:`~olc.data.read_svmlight`); vw takes ``bits`` (2^bits columns, VW's ``-b``; default
    18). ``cache``: use and fill the parse cache (``olc.data.parsed_cache``).
    ``progress``: called with the rows of each window read (when the file is parsed).
    ``write_behind``: write the cache entry on a thread while the caller goes on (the arrays
    are only read); :func:`finish_writes` waits for it (``olc run`` does, before it exits).
    """
    fmt = detect_format(path, format)
    path = os.fspath(path)
    if fmt == "vw":
        from .vw import DEFAULT_BITS, _check_bits, read_vw

        if n_features is not None or zero_based is not False:
            raise ValueError("n_features and zero_based are svmlight options; a VW file's "
                             "width is 2^bits")
        bits = DEFAULT_BITS if bits is None else bits
        _check_bits(bits)
        options = {"format": "vw", "bits": int(bits)}

        def parse():
            return read_vw(path, bits, progress=progress)
    else:
        from .svmlight import _check_args, read_svmlight

        if bits is not None:
            raise ValueError("bits is a Vowpal Wabbit option (format='vw')")
        _check_args(1, n_features, zero_based)
        options = {"format": "svmlight", "n_features": n_features,
                   "zero_based": zero_based}

        def parse():
            return read_svmlight(path, n_features, zero_based=zero_based, progress=progress)
    if not cache:
        return parse()
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no such data file: {path}")
    from . import parsed_cache

    stamp = parsed_cache.source_stamp(path)
    cached = parsed_cache.read_file(path, options, stamp)
    if cached is not None:
        return cached
    X, y = parse()
    if write_behind:
        import threading

        writer = threading.Thread(target=parsed_cache.write_file, name="olc-cache-write",
                                  args=(path, options, X, y, stamp))
        writer.start()
        _writers.append(writer)
    else:
        parsed_cache.write_file(path, options, X, y, stamp)
    return X, y


def finish_writes():
    """Wait for the cache entries written behind (:func:`read_file`'s ``write_behind``)."""
    while _writers:
        _writers.pop().join()
