"""Read svmlight / LIBSVM files in bounded-memory chunks.

Format: one example per line, ``<label> <index>:<value> <index>:<value> ... [# comment]``,
indices strictly increasing. Indices are **one-based by default** (the LIBSVM
convention: feature 1 is column 0); pass ``zero_based=True`` for zero-based
files, or ``'auto'`` to decide from the whole file (zero-based iff some index is
0, as scikit-learn decides), which costs one extra pass. Blank and
comment-only lines are skipped; ``qid:`` fields are ignored. Files may be plain
or gzip/bzip2/xz compressed (detected from the magic bytes).

Parsing is delegated to scikit-learn's fast parser, one chunk of lines at a
time, so memory is bounded by the chunk, not by the file. When that parser
rejects a chunk, the chunk is re-parsed line by line to report the exact
1-based line number and text in a :class:`DataFormatError`; sklearn's own
message does not say where. NaN or infinite labels/values are rejected the
same way: a learner fed a NaN silently produces NaN weights, so we stop at the
source.
"""

from __future__ import annotations

import io
import os
from itertools import islice
from typing import TYPE_CHECKING, Iterator

import numpy as np

from ._compression import open_binary
from .errors import DataFormatError
from .._util.sparse import scipy_sparse

if TYPE_CHECKING:  # annotations only: scipy.sparse is imported when a file is parsed
    import scipy.sparse as sp

__all__ = ["iter_svmlight_chunks", "read_svmlight", "DEFAULT_CHUNK_ROWS"]

#: Rows per chunk: ~10k rows keeps a chunk of a typical sparse text data set at a
#: few MB, while the per-chunk overhead stays negligible next to parsing.
DEFAULT_CHUNK_ROWS = 10_000

_INT32_MAX = np.iinfo(np.int32).max


def _is_data_line(line: bytes) -> bool:
    # Mirrors sklearn's parser: text after '#' is a comment; whitespace-only is skipped.
    return bool(line.split(b"#", 1)[0].split())


def _show(line: bytes) -> str:
    return line.decode("utf-8", "replace").rstrip("\r\n")


def _line_chunks(path, chunk_rows: int) -> Iterator[tuple[int, list[bytes]]]:
    """Yield (1-based number of the first line, list of at most chunk_rows lines)."""
    with open_binary(path) as f:
        first = 1
        while True:
            lines = list(islice(f, chunk_rows))
            if not lines:
                return
            yield first, lines
            first += len(lines)


def _sklearn_parse(data: bytes, n_features, zero_based: bool):
    # Imported here: scikit-learn's import costs ~1.5 s, which `olc run` pays only when it
    # reads svmlight data (and after the compile notice).
    from sklearn.datasets import load_svmlight_file

    return load_svmlight_file(
        io.BytesIO(data), n_features=n_features, zero_based=zero_based, dtype=np.float64
    )


def _locate_parse_error(path, first: int, lines: list[bytes], n_features, zero_based, exc) -> DataFormatError:
    for i, line in enumerate(lines):
        if not _is_data_line(line):
            continue
        try:
            _sklearn_parse(line, n_features, zero_based)
        except Exception as e:  # noqa: BLE001 - any parser failure is a format error here
            return DataFormatError(path, first + i, _show(line), f"invalid svmlight line ({e})")
    # Not reproducible line by line (should not happen): report the chunk's range.
    return DataFormatError(
        path, None, None, f"invalid svmlight data in lines {first}-{first + len(lines) - 1} ({exc})"
    )


def _line_of_row(first: int, lines: list[bytes], row: int) -> tuple[int, bytes]:
    seen = -1
    for i, line in enumerate(lines):
        if _is_data_line(line):
            seen += 1
            if seen == row:
                return first + i, line
    raise AssertionError("row beyond chunk")  # pragma: no cover


def _compact_indices(X: sp.csr_matrix) -> sp.csr_matrix:
    # int32 indices halve the index memory and are what scipy picks by itself
    # for matrices of this size; sklearn's parser returns int64.
    if X.shape[1] <= _INT32_MAX and X.nnz <= _INT32_MAX:
        X.indices = X.indices.astype(np.int32, copy=False)
        X.indptr = X.indptr.astype(np.int32, copy=False)
    return X


def _parse_chunk(path, first: int, lines: list[bytes], n_features, zero_based: bool):
    try:
        X, y = _sklearn_parse(b"".join(lines), n_features, zero_based)
    except Exception as e:  # noqa: BLE001
        raise _locate_parse_error(path, first, lines, n_features, zero_based, e) from e
    bad_rows = []
    if not np.isfinite(y).all():
        bad_rows.append(int(np.flatnonzero(~np.isfinite(y))[0]))
    if not np.isfinite(X.data).all():
        k = int(np.flatnonzero(~np.isfinite(X.data))[0])
        bad_rows.append(int(np.searchsorted(X.indptr, k, side="right") - 1))
    if bad_rows:
        lineno, line = _line_of_row(first, lines, min(bad_rows))
        raise DataFormatError(path, lineno, _show(line), "NaN or infinite label/value")
    return _compact_indices(X), y


def _check_args(chunk_rows, n_features, zero_based):
    if not isinstance(chunk_rows, (int, np.integer)) or isinstance(chunk_rows, bool) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    if n_features is not None and (
        not isinstance(n_features, (int, np.integer)) or isinstance(n_features, bool) or n_features < 0
    ):
        raise ValueError(f"n_features must be a non-negative integer or None, got {n_features!r}")
    if zero_based not in (True, False, "auto"):
        raise ValueError(f"zero_based must be True, False or 'auto', got {zero_based!r}")


def _scan(path, chunk_rows: int) -> tuple[int, bool]:
    """Pre-pass: (largest index in the file, whether index 0 occurs)."""
    max_index, has_zero = -1, False
    for first, lines in _line_chunks(path, chunk_rows):
        # zero_based=True reads indices as they are, so no index is rejected here;
        # validity for the real convention is checked in the main pass.
        X, _ = _parse_chunk(path, first, lines, None, True)
        if X.nnz:
            max_index = max(max_index, int(X.indices.max()))
            has_zero = has_zero or bool((X.indices == 0).any())
    return max_index, has_zero


def _resolve(path, chunk_rows, n_features, zero_based) -> tuple[int, bool]:
    if n_features is not None and zero_based != "auto":
        return int(n_features), bool(zero_based)
    max_index, has_zero = _scan(path, chunk_rows)
    zb = has_zero if zero_based == "auto" else bool(zero_based)
    if n_features is None:
        n_features = max(max_index + 1, 0) if zb else max(max_index, 0)
    return int(n_features), zb


def iter_svmlight_chunks(
    path: str | os.PathLike,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    *,
    n_features: int | None = None,
    zero_based: bool | str = False,
) -> Iterator[tuple[sp.csr_matrix, np.ndarray]]:
    """Yield ``(X, y)`` chunks of an svmlight/LIBSVM file, in file order.

    ``X`` is a ``scipy.sparse.csr_matrix`` of float64 with sorted int32 indices and
    exactly ``n_features`` columns in every chunk; ``y`` is a float64 array. A
    chunk holds the examples of at most ``chunk_rows`` consecutive lines (fewer
    rows if some lines are blank or comments; chunks with no example are not
    yielded).

    ``n_features``: pass it whenever it is known (for a named dataset the
    registry knows it: a9a has 123 columns, but its test file never uses index
    123). If None, it is inferred as the largest index in the whole file, which
    costs one extra pass over the file (memory stays bounded).

    Raises :class:`DataFormatError` (file, 1-based line, text) for a malformed
    line, an index beyond ``n_features``, an index 0 in a one-based file, or a
    NaN/infinite label or value. Arguments are checked at call time; the file is
    read lazily.
    """
    _check_args(chunk_rows, n_features, zero_based)
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no such svmlight file: {path}")

    def chunks():
        nf, zb = _resolve(path, chunk_rows, n_features, zero_based)
        for first, lines in _line_chunks(path, chunk_rows):
            X, y = _parse_chunk(path, first, lines, nf, zb)
            if X.shape[0]:
                yield X, y

    return chunks()


def read_svmlight(
    path: str | os.PathLike,
    n_features: int | None = None,
    *,
    zero_based: bool | str = False,
    chunk_rows: int = 100_000,
) -> tuple[sp.csr_matrix, np.ndarray]:
    """Read a whole svmlight/LIBSVM file: the concatenation of its chunks.

    Same conventions and errors as :func:`iter_svmlight_chunks`. With
    ``n_features=None`` (and a fixed ``zero_based``) the width is the largest
    index seen, found in the same single pass. An empty file gives a
    ``(0, n_features or 0)`` matrix.
    """
    _check_args(chunk_rows, n_features, zero_based)
    path = os.fspath(path)
    if n_features is not None or zero_based == "auto":
        parts = list(iter_svmlight_chunks(path, chunk_rows, n_features=n_features, zero_based=zero_based))
        width = n_features if n_features is not None else (parts[0][0].shape[1] if parts else 0)
    else:
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no such svmlight file: {path}")
        parts = []
        for first, lines in _line_chunks(path, chunk_rows):
            X, y = _parse_chunk(path, first, lines, None, bool(zero_based))
            if X.shape[0]:
                parts.append((X, y))
        # sklearn infers a width per chunk (and 1 for a chunk without any
        # feature); give every chunk the width of the whole file, i.e. one past
        # the largest column used anywhere.
        width = max((int(X.indices.max()) + 1 for X, _ in parts if X.nnz), default=0)
        parts = [(X if X.shape[1] == width else _reshape(X, width), y) for X, y in parts]
    if not parts:
        return scipy_sparse().csr_matrix((0, int(width)), dtype=np.float64), np.empty(0, dtype=np.float64)
    X = _compact_indices(scipy_sparse().vstack([X for X, _ in parts], format="csr"))
    y = np.concatenate([y for _, y in parts])
    return X, y


def _reshape(X: sp.csr_matrix, width: int) -> sp.csr_matrix:
    # valid because every column index of X is < width
    return scipy_sparse().csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], width))
