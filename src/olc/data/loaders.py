"""Turn the verified files of a named dataset into arrays.

``load(name, split)`` fetches (see :mod:`olc.data.registry`) and dispatches on
``spec.loader``. What each dataset returns:

==============  =====================================================================
a9a, w8a        ``(X, y)``: X ``csr_matrix`` float64 of shape (n, spec.n_features),
                y float64 in {-1, +1}
usps            ``(X, y)``: X float64 (n, 256), grey levels in [0, 1] (the file's
                float32 values, widened exactly); y int64 digits 0-9
mnist-test      ``(X, y)``: X float64 (10000, 784) = raw uint8 pixels / 255, so in
                [0, 1] (``raw=True``: the uint8 pixels unscaled); y int64 digits
20newsgroups    :class:`TextData` ``(data, target, target_names)``: raw documents
                decoded as Latin-1 (as scikit-learn does), int64 ids 0-19 in the
                alphabetical order of the newsgroup names, documents ordered by
                (newsgroup, file name) like ``sklearn.datasets.load_files``
sraa            :class:`TextData` of the four class folders (split ``'all'``), ids 0-3
                in the order of :data:`SRAA_CLASSES`
adult           :class:`AdultRaw` ``(columns, X, labels)``: the raw records as
                strings (whitespace stripped, ``'?'`` kept: it marks a missing
                value), labels ``'<=50K'`` / ``'>50K'`` (the test file's trailing
                ``'.'`` removed). :func:`adult_records` gives typed columns.
==============  =====================================================================
"""

from __future__ import annotations

import io
import os
import tarfile
from typing import Iterator, NamedTuple

import numpy as np

from . import _verified
from ._compression import detect_compression, open_binary
from .dataset_files import check_file
from .dataset_spec import DatasetSpec, check_split
from .errors import ChangedFileError, ChecksumError, DataError, DataFormatError
from .registry import fetch, get_spec
from .svmlight import DEFAULT_CHUNK_ROWS, iter_svmlight_chunks, read_svmlight
from .synthetic import stream_of

__all__ = [
    "load",
    "iter_chunks",
    "adult_records",
    "TextData",
    "AdultRaw",
    "AdultRecords",
    "ADULT_COLUMNS",
    "ADULT_CONTINUOUS",
    "ADULT_CATEGORICAL",
    "LOADERS",
]


class TextData(NamedTuple):
    data: list[str]
    target: np.ndarray
    target_names: list[str]


class AdultRaw(NamedTuple):
    columns: list[str]
    X: np.ndarray  # (n, 14) object array of str
    labels: np.ndarray  # (n,) object array of '<=50K' / '>50K'


class AdultRecords(NamedTuple):
    columns: dict[str, np.ndarray]  # float64 (NaN = missing) or object str (None = missing)
    y: np.ndarray  # float64, +1 = '>50K', -1 = '<=50K'


# Attribute names and kinds, in file order, as listed at the end of adult.names.
ADULT_COLUMNS = (
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country",
)  # fmt: skip
ADULT_CONTINUOUS = ("age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week")
ADULT_CATEGORICAL = tuple(c for c in ADULT_COLUMNS if c not in ADULT_CONTINUOUS)
_ADULT_LABELS = ("<=50K", ">50K")
_MISSING = "?"


# --------------------------------------------------------------------------- svmlight


def _load_svmlight(spec: DatasetSpec, split: str, paths: dict) -> tuple:
    """The split's file parsed, or the same arrays from the parsed-data cache
    (``olc.data.parsed_cache``: keyed by the verified content's checksum)."""
    from . import parsed_cache

    cached = parsed_cache.read(spec, split, spec.n_features)
    if cached is not None:
        return cached
    (path,) = (paths[n] for n in spec.splits[split])
    X, y = read_svmlight(path, n_features=spec.n_features)
    _check_pm1(path, y)
    parsed_cache.write(spec, split, spec.n_features, X, y)
    return X, y


def _check_pm1(path, y: np.ndarray) -> None:
    bad = ~np.isin(y, (-1.0, 1.0))
    if bad.any():
        raise DataFormatError(path, None, None, f"labels must be -1/+1, found {np.unique(y[bad])[:5]}")


# --------------------------------------------------------------------------- usps


def _load_usps(spec: DatasetSpec, split: str, paths: dict) -> tuple:
    import h5py  # only this loader needs it

    (path,) = (paths[n] for n in spec.splits[split])
    # h5py needs random access: decompress a compressed copy (2.9 MB) into memory.
    if detect_compression(path) is None:
        source = os.fspath(path)
    else:
        with open_binary(path) as f:
            source = io.BytesIO(f.read())
    with h5py.File(source, "r") as h5:
        X = np.asarray(h5[f"{split}/data"], dtype=np.float64)
        y = np.asarray(h5[f"{split}/target"], dtype=np.int64)
    return X, y


# --------------------------------------------------------------------------- mnist


def _read_idx(path, magic: int, ndim: int) -> np.ndarray:
    with open_binary(path) as f:
        raw = f.read()
    head = int.from_bytes(raw[:4], "big")
    if head != magic:
        raise DataFormatError(path, None, None, f"not an idx file with magic {magic:#x} (found {head:#x})")
    dims = [int.from_bytes(raw[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim)]
    offset = 4 + 4 * ndim
    expected = int(np.prod(dims))
    if len(raw) - offset != expected:
        raise DataFormatError(path, None, None, f"idx size mismatch: header says {dims}, data has {len(raw) - offset} bytes")
    return np.frombuffer(raw, dtype=np.uint8, offset=offset).reshape(dims)


def _load_mnist(spec: DatasetSpec, split: str, paths: dict, *, raw: bool = False) -> tuple:
    images = _read_idx(paths["t10k-images-idx3-ubyte.gz"], 0x803, 3)
    labels = _read_idx(paths["t10k-labels-idx1-ubyte.gz"], 0x801, 1)
    X = images.reshape(images.shape[0], -1)
    X = X.copy() if raw else X.astype(np.float64) / 255.0
    return X, labels.astype(np.int64)


# --------------------------------------------------------------------------- 20 newsgroups


def _load_20newsgroups(spec: DatasetSpec, split: str, paths: dict) -> TextData:
    (path,) = (paths[n] for n in spec.splits[split])
    prefix = f"20news-bydate-{split}/"
    docs: list[tuple[str, str, bytes]] = []
    # Stream mode ('r|*'): one sequential pass, no seeking back in the gzip stream.
    with tarfile.open(os.fspath(path), mode="r|*") as tar:
        for member in tar:
            if not member.isfile() or not member.name.startswith(prefix):
                continue
            parts = member.name[len(prefix) :].split("/")
            if len(parts) != 2:
                raise DataFormatError(path, None, None, f"unexpected archive member {member.name!r}")
            docs.append((parts[0], parts[1], tar.extractfile(member).read()))
    docs.sort(key=lambda d: (d[0], d[1]))  # load_files order, whatever the archive order
    target_names = sorted({g for g, _, _ in docs})
    ids = {g: i for i, g in enumerate(target_names)}
    data = [body.decode("latin-1") for _, _, body in docs]
    target = np.array([ids[g] for g, _, _ in docs], dtype=np.int64)
    return TextData(data, target, target_names)


# --------------------------------------------------------------------------- sraa

#: SRAA's class folders, in the alphabetical order of their ids.
SRAA_CLASSES = ("realauto", "realaviation", "simauto", "simaviation")


def _load_sraa(spec: DatasetSpec, split: str, paths: dict) -> TextData:
    """SRAA's archive: every regular file whose parent folder is one of
    :data:`SRAA_CLASSES` is one article (the archive's top folder, ``sraa/``, may be absent);
    ordered by (class, file name); decoded as Latin-1 like 20 Newsgroups."""
    (path,) = (paths[n] for n in spec.splits[split])
    docs: list[tuple[str, str, bytes]] = []
    with tarfile.open(os.fspath(path), mode="r|*") as tar:
        for member in tar:
            parts = member.name.strip("/").split("/")
            if member.isfile() and len(parts) >= 2 and parts[-2] in SRAA_CLASSES:
                docs.append((parts[-2], member.name, tar.extractfile(member).read()))
    present = {g for g, _, _ in docs}
    missing = [g for g in SRAA_CLASSES if g not in present]
    if missing:
        raise DataFormatError(path, None, None, f"no article in the class folders {missing} "
                              f"(expected sraa/{{{','.join(SRAA_CLASSES)}}}/<one file per article>)")
    docs.sort(key=lambda d: (d[0], d[1]))
    ids = {g: i for i, g in enumerate(SRAA_CLASSES)}
    data = [body.decode("latin-1") for _, _, body in docs]
    target = np.array([ids[g] for g, _, _ in docs], dtype=np.int64)
    return TextData(data, target, list(SRAA_CLASSES))


# --------------------------------------------------------------------------- adult


def _read_adult(path) -> tuple[np.ndarray, np.ndarray]:
    rows, labels = [], []
    with open_binary(path) as f:
        for lineno, line in enumerate(io.TextIOWrapper(f, encoding="latin-1", newline=""), start=1):
            text = line.strip()
            if not text or text.startswith("|"):  # blank tail, '|1x3 Cross validator'
                continue
            fields = [v.strip() for v in text.split(",")]
            if len(fields) != len(ADULT_COLUMNS) + 1:
                raise DataFormatError(path, lineno, text, f"expected {len(ADULT_COLUMNS) + 1} fields, found {len(fields)}")
            label = fields[-1].rstrip(".")
            if label not in _ADULT_LABELS:
                raise DataFormatError(path, lineno, text, f"label must be one of {_ADULT_LABELS}")
            for name, value in zip(ADULT_COLUMNS, fields):
                if name in ADULT_CONTINUOUS and value != _MISSING:
                    try:
                        float(value)
                    except ValueError:
                        raise DataFormatError(path, lineno, text, f"{name} is not a number: {value!r}") from None
            rows.append(fields[:-1])
            labels.append(label)
    X = np.empty((len(rows), len(ADULT_COLUMNS)), dtype=object)
    if rows:
        X[:] = rows
    return X, np.array(labels, dtype=object)


def _load_adult(spec: DatasetSpec, split: str, paths: dict) -> AdultRaw:
    (path,) = (paths[n] for n in spec.splits[split])
    X, labels = _read_adult(path)
    return AdultRaw(list(ADULT_COLUMNS), X, labels)


def adult_records(split: str = "train", **fetch_kwargs) -> AdultRecords:
    """UCI Adult with typed columns, for preprocessing (dummies, scaling) later.

    ``split`` is ``'train'``, ``'test'`` or ``'all'`` (train rows then test rows;
    the OMM paper pools both before removing incomplete rows). Continuous
    columns are float64 with NaN for a missing value; categorical columns are
    object arrays of str with None for a missing value (``'?'`` in the file).
    ``y`` is float64 with +1 for ``'>50K'`` and -1 for ``'<=50K'``.
    """
    if split == "all":
        parts = [adult_records(s, **fetch_kwargs) for s in ("train", "test")]
        cols = {c: np.concatenate([p.columns[c] for p in parts]) for c in ADULT_COLUMNS}
        return AdultRecords(cols, np.concatenate([p.y for p in parts]))
    raw = load("adult", split, **fetch_kwargs)
    missing = raw.X == _MISSING
    cols: dict[str, np.ndarray] = {}
    for j, name in enumerate(ADULT_COLUMNS):
        col = raw.X[:, j]
        if name in ADULT_CONTINUOUS:
            values = np.where(missing[:, j], "nan", col).astype(np.float64)
        else:
            values = np.where(missing[:, j], None, col).astype(object)
        cols[name] = values
    y = np.where(raw.labels == ">50K", 1.0, -1.0)
    return AdultRecords(cols, y)


# --------------------------------------------------------------------------- dispatch

#: spec.loader -> function(spec, split, paths, **kwargs)
LOADERS = {
    "svmlight": _load_svmlight,
    "usps": _load_usps,
    "mnist": _load_mnist,
    "20newsgroups": _load_20newsgroups,
    "sraa": _load_sraa,
    "adult": _load_adult,
}


def load(
    name: str,
    split: str | None = None,
    *,
    data_home: str | os.PathLike | None = None,
    download: bool = True,
    **kwargs,
):
    """Load split ``split`` of dataset ``name`` (default: its first split).

    Every dataset has ``'train'`` and ``'test'`` except ``mnist-test`` (only
    ``'test'``, its default). Files are fetched and verified first (see
    :func:`olc.data.fetch`); extra keyword arguments go to the
    dataset's loader (``raw=True`` for mnist-test). See the module docstring
    for what each dataset returns.
    """
    spec = get_spec(name)
    split = check_split(spec, split)
    paths = fetch(name, split, data_home=data_home, download=download)
    try:
        return LOADERS[spec.loader](spec, split, paths, **kwargs)
    except _READ_FAILURES as exc:
        _recheck(spec, split, paths, exc)
        raise


#: What reading a damaged file can raise (decompression errors arrive as DataFormatError).
_READ_FAILURES = (DataError, OSError, EOFError, ValueError)


def _recheck(spec: DatasetSpec, split: str, paths: dict, exc: BaseException) -> None:
    """A file that was verified once (markers trust size, time stamp and inode) and now
    fails to read may have been damaged in place: hash it again and, if it no longer
    matches, raise :class:`ChangedFileError` (which file to replace) instead of ``exc``."""
    for f in spec.files_for(split):
        path = paths.get(f.name)
        if path is None:
            continue
        try:
            check_file(path, f)
        except ChecksumError as mismatch:
            _verified.forget(path)
            raise ChangedFileError(path, mismatch.expected, mismatch.actual,
                                   detail=f"reading it failed: {exc}") from exc


def iter_chunks(
    name: str,
    split: str | None = None,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    *,
    data_home: str | os.PathLike | None = None,
    download: bool = True,
) -> Iterator[tuple]:
    """Stream ``(X, y)`` chunks of a numeric dataset.

    svmlight datasets are read from the file chunk by chunk (memory bounded by
    the chunk, width ``spec.n_features`` in every chunk); dense datasets are
    loaded once and sliced. Text and raw-record datasets have no numeric chunks.
    """
    spec = get_spec(name)
    split = check_split(spec, split)
    if spec.loader == "svmlight":
        paths = fetch(name, split, data_home=data_home, download=download)
        (path,) = (paths[n] for n in spec.splits[split])
        chunks = iter_svmlight_chunks(path, chunk_rows, n_features=spec.n_features)

        def checked():
            try:
                for X, y in chunks:
                    _check_pm1(path, y)
                    yield X, y
            except _READ_FAILURES as exc:
                _recheck(spec, split, paths, exc)
                raise

        return checked()
    if spec.loader in ("usps", "mnist"):
        X, y = load(name, split, data_home=data_home, download=download)
        return stream_of(X, y, chunk_rows)
    raise TypeError(f"dataset {name!r} is not numeric; use load({name!r}) and preprocess it first")
