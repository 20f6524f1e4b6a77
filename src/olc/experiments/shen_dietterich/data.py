"""The data of Shen & Dietterich (2009) §4 as engine sources and stream transforms.

* USPS: the train and test splits pooled (7,291 + 2,007 digits, 256 grey levels in [0, 1]);
  the stream draws P1 = "3", P2 = "7", N1 = "8", N2 = "9", 500 rows per phase.
* 20 Newsgroups (bydate, train and test pooled) and SRAA: the documents of the four classes
  as 0/1 term vectors (header removed, no stemming, no stop list; :mod:`olc.data.text`);
  each trial's stream then keeps the terms present in at least ``MIN_DF`` of its own 3,200
  documents (:class:`olc.data.text.DocumentFrequencyCut`). 20NG: P1 = rec.sport.baseball,
  P2 = rec.sport.hockey, N1 = rec.autos, N2 = rec.motorcycles; SRAA: P1 = realauto,
  P2 = realaviation, N1 = simauto, N2 = simaviation; 800 rows per phase.

[Decision] Pooling the official splits: the paper samples its streams from "the data set"
without naming a split; pooling leaves every class enough rows to draw without replacement
(USPS "8": 708 rows for an expected 500; 20NG autos: 990 for an expected 800).
"""
from __future__ import annotations

import numpy as np

from ...data.drift import Drift
from ...data.text import DocumentFrequencyCut, binary_term_matrix
from ..engine.sources import Data, FunctionSource
from ..engine.spec import StreamSpec

#: [Decision] the vocabulary rule (olc.data.text): ≈ 8,000 terms on 3,200 20NG documents.
MIN_DF = 6

USPS_CLASSES = {"P1": 3, "P2": 7, "N1": 8, "N2": 9}
NEWSGROUPS_CLASSES = {"P1": "rec.sport.baseball", "P2": "rec.sport.hockey",
                      "N1": "rec.autos", "N2": "rec.motorcycles"}
SRAA_CLASSES = {"P1": "realauto", "P2": "realaviation", "N1": "simauto", "N2": "simaviation"}

ROWS_PER_PHASE = {"usps": 500, "20newsgroups": 800, "sraa": 800}
DATASETS = tuple(ROWS_PER_PHASE)


def usps_pool():
    """USPS train + test: X (9298 × 256), y the digit."""
    from ...data import load

    parts = [load("usps", s) for s in ("train", "test")]
    return Data(np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
                "usps (train + test)")


#: Bump when the pool's preprocessing changes (together with olc.data.text.VOCABULARY_RULE).
POOL_FORMAT = 1
_POOL_FIELDS = ("key", "data", "indptr", "indices", "shape", "labels", "vocabulary_size")


def text_pool(dataset, groups):
    """The documents of ``groups`` of a text data set (20newsgroups: both splits; sraa) as
    0/1 term vectors over their whole vocabulary; y = the group's name.

    Vectorizing 20 Newsgroups takes ~5 s, so the pool is cached in
    :func:`olc.data.derived_home` (``text-pool-<dataset>-<digest>.npz``), keyed by the sha256
    of the raw files, the groups, the splits, the vocabulary rule
    (:data:`olc.data.text.VOCABULARY_RULE`) and scikit-learn's version (its tokenizer);
    written atomically, a damaged or stale entry is rebuilt, a read-only cache only costs
    the recomputation."""
    from ...data import derived_home

    splits = ("train", "test") if dataset == "20newsgroups" else ("all",)
    key = _pool_key(dataset, groups, splits)
    path = derived_home() / f"text-pool-{dataset}-{key[:16]}.npz"
    cached = _read_pool(path, key)
    if cached is not None:
        X, labels, size = cached
    else:
        X, labels, size = _build_pool(dataset, groups, splits)
        _write_pool(path, key, X, labels, size)
    return Data(X, labels, f"{dataset} ({', '.join(groups)})", {"vocabulary_size": size})


def _pool_key(dataset, groups, splits):
    import hashlib
    import json

    import sklearn

    from ...data import fetch
    from ...data.text import VOCABULARY_RULE

    files = {}
    for name, path in sorted(fetch(dataset, download=False).items()):
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        files[name] = h.hexdigest()
    key = {"format": POOL_FORMAT, "dataset": dataset, "groups": list(groups),
           "splits": list(splits), "files": files, "vocabulary_rule": VOCABULARY_RULE,
           "sklearn": sklearn.__version__}
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def _build_pool(dataset, groups, splits):
    from ...data import load

    docs, labels = [], []
    for s in splits:
        text = load(dataset, s)
        for doc, target in zip(text.data, text.target):
            name = text.target_names[target]
            if name in groups:
                docs.append(doc)
                labels.append(name)
    X, vocabulary = binary_term_matrix(docs)
    return X, np.array(labels), int(vocabulary.size)


def _read_pool(path, key):
    import scipy.sparse as sp

    from ..._util.cache import discard, read_npz

    f = read_npz(path, _POOL_FIELDS)
    if f is None:
        return None
    try:
        if str(f["key"]) != key:
            raise ValueError("its key is not its file name's")
        n, d = (int(v) for v in f["shape"])
        X = sp.csr_matrix((f["data"], f["indices"], f["indptr"]),
                          shape=(n, d))
        X.check_format(full_check=True)
        if f["labels"].shape != (n,) or int(f["vocabulary_size"]) != d:
            raise ValueError(f"{f['labels'].shape[0]} labels, {d} columns for {n} rows")
    except (TypeError, ValueError) as exc:
        discard(path, str(exc))
        return None
    return X, f["labels"], d


def _write_pool(path, key, X, labels, size):
    from ..._util.atomic import atomic_open

    try:  # atomic (temporary file, fsync, rename): concurrent builders cannot corrupt it
        with atomic_open(path, "wb") as fh:
            np.savez(fh, key=np.array(key), data=X.data, indptr=X.indptr, indices=X.indices,
                     shape=np.array(X.shape), labels=labels, vocabulary_size=size)
    except OSError:
        pass  # a read-only cache only costs the recomputation


def source(dataset):
    if dataset == "usps":
        return FunctionSource(usps_pool, {}, "usps")
    classes = NEWSGROUPS_CLASSES if dataset == "20newsgroups" else SRAA_CLASSES
    return FunctionSource(text_pool, {"dataset": dataset, "groups": list(classes.values())},
                          dataset)


def stream(dataset, rows_per_phase=None):
    """The engine stream of ``dataset``: the drift draw, and for text the vocabulary cut."""
    n = rows_per_phase or ROWS_PER_PHASE[dataset]
    if dataset == "usps":
        return StreamSpec("usps", source("usps"), (Drift(USPS_CLASSES, n),), label="USPS")
    classes = NEWSGROUPS_CLASSES if dataset == "20newsgroups" else SRAA_CLASSES
    label = "20NewsGroups" if dataset == "20newsgroups" else "SRAA"
    return StreamSpec(dataset, source(dataset), (Drift(classes, n), DocumentFrequencyCut(MIN_DF)),
                      label=label)


def available(dataset):
    """(True, "") when the data set's files are in the data home, else (False, why)."""
    from ...data import fetch
    from ...data.errors import DataError

    try:
        fetch(dataset, download=False)
    except DataError as exc:
        return False, str(exc).splitlines()[0]
    return True, ""
