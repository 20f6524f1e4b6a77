"""Parsed data, cached: a registry data set's file, or any data file, is parsed once.

Two kinds of entries, both in ``derived_home()`` (olc's own cache, never the data home,
which may be a read-only shared folder):

* a registry svmlight data set: ``parsed-<dataset>-<split>-<key16>.npz``, keyed by what
  determines the arrays: the decompressed content's sha256 as the registry records it (the
  file passed that check when it was fetched), the number of columns, and
  :data:`PARSED_FORMAT` (bumped whenever the reader's output changes). A data set registered
  without a checksum is never cached (its content has no name). Reading a9a from its entry
  takes ~10 ms (parsing it: ~0.1 s, and it needs numba's reader loaded);
* any data file (``olc.data.read_file``, ``olc run --data FILE``):
  ``parsed-files/<name>.olcp``, memory-mapped when read; see "any file" below for its key.

Entries are written atomically (``olc._util.atomic``); an entry that cannot be read or does not
hold a valid CSR matrix of the expected shape (and ±1 labels, for a data set) is discarded
with a one-line ``CacheDiscardedWarning`` and the file is parsed again (``olc._util.cache``);
an unwritable cache costs only the parsing.

[Decision] The reader's version is not part of the key beyond :data:`PARSED_FORMAT`: the
arrays of a valid svmlight file are fixed by the format (the reader is tested bit for bit
against scikit-learn's), not by a parser's version.
"""
from __future__ import annotations

import hashlib

import numpy as np

#: Version of the arrays' layout and meaning (float64 data, int32 sorted indices and indptr,
#: float64 labels): part of every key.
PARSED_FORMAT = 1
_FIELDS = ("key", "shape", "data", "indices", "indptr", "y")


def entry_key(spec, split, n_features):
    """The key of ``spec``'s split parsed to ``n_features`` columns, or None when a file of
    the split has no recorded checksum (then nothing is cached)."""
    digests = []
    for f in spec.files_for(split):
        digest = f.content_sha256 or f.sha256
        if digest is None:
            return None
        digests.append(f"{f.name}={digest}")
    text = f"olc-parsed/{PARSED_FORMAT}|{spec.name}|{split}|{n_features}|" + "|".join(digests)
    return hashlib.sha256(text.encode()).hexdigest()


def entry_path(spec, split, key):
    from .registry import derived_home

    return derived_home() / f"parsed-{spec.name}-{split}-{key[:16]}.npz"


def read(spec, split, n_features):
    """``(X, y)`` from the cache, or None (no entry, no checksum, or a damaged entry, which
    is discarded)."""
    key = entry_key(spec, split, n_features)
    if key is None:
        return None
    from .._util.cache import discard, read_npz

    path = entry_path(spec, split, key)
    arrays = read_npz(path, _FIELDS)
    if arrays is None:
        return None
    try:
        return _checked(arrays, key, n_features)
    except (TypeError, ValueError, IndexError) as exc:
        discard(path, str(exc))
        return None


def _checked(a, key, n_features):
    """The entry's (X, y), after checking everything a reader relies on."""
    import scipy.sparse as sp

    if str(a["key"]) != key:
        raise ValueError("its key is not its file name's")
    n_rows, width = (int(v) for v in a["shape"])
    if n_features is not None and width != n_features:
        raise ValueError(f"{width} columns, expected {n_features}")
    data, indices, indptr, y = a["data"], a["indices"], a["indptr"], a["y"]
    expected = (("data", data, np.float64), ("indices", indices, np.int32),
                ("indptr", indptr, np.int32), ("y", y, np.float64))
    for name, array, dtype in expected:
        if array.dtype != dtype or array.ndim != 1:
            raise ValueError(f"{name} is {array.dtype} of {array.ndim} dimensions")
    if y.shape != (n_rows,) or indptr.shape != (n_rows + 1,):
        raise ValueError(f"{y.shape[0]} labels, {indptr.shape[0]} row pointers for "
                         f"{n_rows} rows")
    if not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError("labels other than -1/+1")
    if not np.isfinite(data).all():
        raise ValueError("NaN or infinite values")
    X = sp.csr_matrix((data, indices, indptr), shape=(n_rows, width))
    X.check_format(full_check=True)  # pointers, index range
    if not X.has_canonical_format:  # what the reader returns (and the loops expect)
        raise ValueError("column indices not sorted and unique")
    return X, y


def write(spec, split, n_features, X, y):
    """Store ``(X, y)`` (best effort: a cache that cannot be written is skipped)."""
    key = entry_key(spec, split, n_features)
    if key is None or X.indices.dtype != np.int32 or X.indptr.dtype != np.int32:
        return
    from .._util.atomic import atomic_open

    try:  # atomic: concurrent writers each rename a complete entry
        with atomic_open(entry_path(spec, split, key), "wb") as fh:
            np.savez(fh, key=np.array(key), shape=np.array(X.shape, dtype=np.int64),
                     data=np.ascontiguousarray(X.data, dtype=np.float64),
                     indices=X.indices, indptr=X.indptr,
                     y=np.ascontiguousarray(y, dtype=np.float64))
    except OSError:
        pass


# --------------------------------------------------------------------------- any file
#
# An entry per (file, reading options): ``derived_home()/parsed-files/<name>.olcp``, where
# ``name`` hashes the file's absolute path and the options. The entry records the file's
# *stamp* — size, mtime_ns and a sha256 of SAMPLE_BLOCKS blocks of SAMPLE_BYTES spread over
# the file (the first and the last included) — and is used only when the stamp is still the
# file's; otherwise the file is parsed again and the entry replaced.
#
# [Decision] The stamp samples the content instead of hashing all of it: hashing 1 GB costs
# ~2 s, which is what the cache saves. A change is missed only if it keeps the size and the
# modification time (to the nanosecond) and touches no sampled block — an edit made on
# purpose to fool it (then delete the entry, or pass cache=False). Entries are raw arrays
# after a JSON header, memory-mapped when read: a read costs the validation below (one pass
# over the indices and values), not a copy.

SAMPLE_BLOCKS = 16
SAMPLE_BYTES = 64 << 10
_MAGIC = b"OLCPARS1"
_ALIGN = 64


def source_stamp(path):
    """{size, mtime_ns, sample}: what must not change for an entry of ``path`` to be used."""
    import os

    st = os.stat(path)
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        last = max(st.st_size - SAMPLE_BYTES, 0)
        for i in range(SAMPLE_BLOCKS):
            fh.seek(last * i // (SAMPLE_BLOCKS - 1))
            digest.update(fh.read(SAMPLE_BYTES))
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sample": digest.hexdigest()}


def file_entry_path(path, options):
    """The entry of ``path`` read with ``options`` (a dict of what shapes the arrays)."""
    import json
    import os

    from .registry import derived_home

    text = json.dumps({"path": os.path.abspath(path), "options": options,
                       "format": PARSED_FORMAT}, sort_keys=True)
    return derived_home() / "parsed-files" / f"{hashlib.sha256(text.encode()).hexdigest()[:24]}.olcp"


def read_file(path, options, stamp=None):
    """``(X, y)`` of ``path`` from its entry (memory-mapped, read-only), or None: no entry,
    a stale one (the file changed: silently replaced by the caller's write), or a damaged
    one (discarded with a :class:`CacheDiscardedWarning`). ``stamp``: the file's
    :func:`source_stamp`, if the caller has it."""
    from .._util.cache import discard

    entry = file_entry_path(path, options)
    if not entry.exists():
        return None
    try:
        header, arrays = _map_entry(entry)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        discard(entry, f"{type(exc).__name__}: {exc}")
        return None
    if header.get("stamp") != (stamp or source_stamp(path)) or header.get("options") != options:
        return None  # the file changed since: parse it again
    try:
        return _checked_file_arrays(header, arrays)
    except (TypeError, ValueError, IndexError) as exc:
        discard(entry, str(exc))
        return None


def write_file(path, options, X, y, stamp):
    """Store ``(X, y)`` parsed from ``path`` when it had ``stamp`` (best effort; atomic)."""
    import json

    from .._util.atomic import atomic_open

    arrays = {"data": np.ascontiguousarray(X.data, dtype=np.float64),
              "indices": np.ascontiguousarray(X.indices),
              "indptr": np.ascontiguousarray(X.indptr),
              "y": np.ascontiguousarray(y, dtype=np.float64)}
    layout, offset = {}, 0
    for name, a in arrays.items():
        layout[name] = [a.dtype.str, int(a.shape[0]), offset]
        offset += -(-a.nbytes // _ALIGN) * _ALIGN
    header = json.dumps({"format": PARSED_FORMAT, "stamp": stamp, "options": options,
                         "shape": [int(X.shape[0]), int(X.shape[1])],
                         "arrays": layout}).encode()
    start = -(-(len(_MAGIC) + 8 + len(header)) // _ALIGN) * _ALIGN
    try:
        with atomic_open(file_entry_path(path, options), "wb") as fh:
            fh.write(_MAGIC + len(header).to_bytes(8, "little") + header)
            fh.write(b"\0" * (start - len(_MAGIC) - 8 - len(header)))
            for name, a in arrays.items():
                fh.write(memoryview(a).cast("B"))
                fh.write(b"\0" * (-a.nbytes % _ALIGN))
    except OSError:
        pass


def _map_entry(entry):
    import json
    import mmap

    with open(entry, "rb") as fh:
        head = fh.read(len(_MAGIC) + 8)
        if len(head) < len(_MAGIC) + 8 or head[:len(_MAGIC)] != _MAGIC:
            raise ValueError("not an olc parse-cache entry")
        size = int.from_bytes(head[len(_MAGIC):], "little")
        header = json.loads(fh.read(size))
        if not isinstance(header, dict) or header.get("format") != PARSED_FORMAT:
            raise ValueError("another format version")
        start = -(-(len(_MAGIC) + 8 + size) // _ALIGN) * _ALIGN
        mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    arrays = {}
    for name in ("data", "indices", "indptr", "y"):
        dtype, count, offset = header["arrays"][name]
        if start + offset + count * np.dtype(dtype).itemsize > len(mapped):
            raise ValueError(f"truncated: {name} is cut short")
        arrays[name] = np.frombuffer(mapped, dtype=dtype, count=count, offset=start + offset)
    return header, arrays


def _checked_file_arrays(header, a):
    """(X, y) of a mapped entry after the checks the loops rely on: dtypes, lengths, row
    pointers, every row's indices increasing and inside the width, finite values."""
    from ._svmlight_parse import kernels
    from .._util.sparse import scipy_sparse

    n_rows, width = (int(v) for v in header["shape"])
    data, indices, indptr, y = a["data"], a["indices"], a["indptr"], a["y"]
    if data.dtype != np.float64 or y.dtype != np.float64 or indices.dtype != indptr.dtype \
            or indices.dtype not in (np.int32, np.int64):
        raise ValueError("unexpected dtypes")
    if y.shape != (n_rows,) or indptr.shape != (n_rows + 1,) or data.shape != indices.shape:
        raise ValueError("array lengths do not agree with the shape")
    bad_row = kernels().first_bad_row(indptr, indices, width)
    if bad_row >= 0:
        raise ValueError(f"row {bad_row}: row pointers or column indices out of order or range")
    if not (np.isfinite(data).all() and np.isfinite(y).all()):
        raise ValueError("NaN or infinite values")
    X = scipy_sparse().csr_matrix((data, indices, indptr), shape=(n_rows, width), copy=False)
    return X, y
