"""Parsed svmlight data sets, cached: a registry data set's file is parsed once per machine.

Reading a9a costs ~2 s, nearly all of it importing scikit-learn, whose parser olc uses
(``svmlight``), and ~0.25 s parsing; the same arrays from an ``.npz`` entry take ~10 ms. The
entry is ``derived_home()/parsed-<dataset>-<split>-<key16>.npz`` (olc's own cache, never the
data home, which may be a read-only shared folder), keyed by what determines the arrays:
the decompressed content's sha256 as the registry records it (the file passed that check
when it was fetched), the number of columns, and :data:`PARSED_FORMAT` (bumped whenever the
reader's output changes). A data set registered without a checksum is never cached (its
content has no name).

Entries are written atomically (``olc._util.atomic``); an entry that cannot be read or does not
hold a valid CSR matrix of the expected shape and ±1 labels is discarded with a one-line
``CacheDiscardedWarning`` and the file is parsed again (``olc._util.cache``); an unwritable cache
costs only the parsing.

[Decision] scikit-learn's version is not part of the key (unlike the text pools of
``experiments/shen_dietterich``, whose tokenizer is scikit-learn's): the arrays of a valid
svmlight file are fixed by the format, not by the parser's version, and reading the version
without importing scikit-learn would cost what the cache saves.
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
