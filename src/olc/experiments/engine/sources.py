"""Data sources of an experiment: where a stream's (X, y) come from.

A source has ``key() -> dict`` (what it is, JSON; part of every run's key) and
``load() -> Data``. Loading happens once, in the main process, before any run starts, so a
missing file or an unknown data set is reported first (the data registry's message says
which file to put where); the arrays then travel to the runs (joblib memory-maps large
arrays for its worker processes).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import scipy.sparse as sp

from .spec import callable_name, resolve_callable


def fingerprint(X, y) -> str:
    """sha256 of the data's values and layout (dense or CSR), hex: a run's key holds it, so
    a changed data file never reuses a stored run."""
    h = hashlib.sha256()
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        h.update(b"csr" + repr(X.shape).encode())
        for part in (X.indptr, X.indices, X.data):
            h.update(np.ascontiguousarray(part).tobytes())
    else:
        X = np.ascontiguousarray(X)
        h.update(b"dense" + repr(X.shape).encode() + X.dtype.str.encode())
        h.update(X.tobytes())
    y = np.ascontiguousarray(y)
    h.update(y.dtype.str.encode() + y.tobytes())
    return h.hexdigest()


@dataclass
class Data:
    """A loaded data set: rows X (dense float64 or CSR), labels y (any values; a
    transform maps them to ±1), a display name, and ``info`` (e.g. feature names)."""

    X: Any
    y: np.ndarray
    name: str
    info: dict = field(default_factory=dict)
    _fingerprint: str | None = None

    @property
    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = fingerprint(self.X, self.y)
        return self._fingerprint

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    def memory_mapped(self, folder) -> "Data":
        """The same data with its arrays saved in ``folder`` and memory-mapped read-only.
        joblib sends a memory-mapped array to its worker processes as a file reference;
        any other large array is hashed and dumped again for every run (~50 ms a run for
        USPS, dominating short runs)."""
        from pathlib import Path

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        stem = self.fingerprint[:16]

        def mapped(name, array):
            path = folder / f"{stem}-{name}.npy"
            np.save(path, np.ascontiguousarray(array), allow_pickle=False)
            return np.load(path, mmap_mode="r", allow_pickle=False)

        if sp.issparse(self.X):
            X = sp.csr_matrix(self.X)
            X = sp.csr_matrix((mapped("data", X.data), mapped("indices", X.indices),
                               mapped("indptr", X.indptr)), shape=X.shape, copy=False)
        else:
            X = mapped("X", self.X)
        y = mapped("y", self.y) if self.y.dtype != object else self.y
        return Data(X, y, self.name, self.info, self.fingerprint)


@dataclass(frozen=True)
class DatasetSource:
    """A data set of the registry (``olc datasets``), e.g. ``"usps"`` / split ``"train"``;
    the loader must give a feature matrix and labels (``olc.data.load``)."""

    name: str
    split: str | None = None

    def key(self):
        return {"kind": "dataset", "name": self.name, "split": self.split}

    def check(self):
        from ...data.dataset_spec import check_split
        from ...data.registry import get_spec

        check_split(get_spec(self.name), self.split)

    def load(self) -> Data:
        from ...data import load

        loaded = load(self.name, split=self.split)
        if not (isinstance(loaded, tuple) and len(loaded) >= 2 and
                (sp.issparse(loaded[0]) or isinstance(loaded[0], np.ndarray))):
            raise ValueError(f"data set {self.name!r} is not a feature matrix (give a "
                             "source function that vectorizes it)")
        label = f"{self.name}:{self.split}" if self.split else self.name
        return Data(loaded[0], np.asarray(loaded[1]), label)


@dataclass(frozen=True)
class SyntheticSource:
    """olc's built-in synthetic stream (``olc.data.sources.synthetic_stream``: separable,
    margin, offset), with its options."""

    params: Mapping[str, Any] = field(default_factory=dict)

    def key(self):
        return {"kind": "synthetic", "params": dict(sorted(self.params.items()))}

    def check(self):
        from ...data.sources import SYNTHETIC_DEFAULTS

        unknown = sorted(set(self.params) - set(SYNTHETIC_DEFAULTS))
        if unknown:
            raise ValueError(f"synthetic: unknown option(s) {', '.join(unknown)}; options are "
                             f"{', '.join(SYNTHETIC_DEFAULTS)}")

    def load(self) -> Data:
        from ...data.sources import synthetic_stream

        X, y = synthetic_stream(**self.params)
        return Data(X, y, "synthetic")


@dataclass(frozen=True)
class FileSource:
    """An svmlight/libsvm file (plain or compressed)."""

    path: str

    def key(self):
        return {"kind": "file", "path": str(self.path)}

    def check(self):
        from pathlib import Path

        if not Path(self.path).is_file():
            raise FileNotFoundError(f"data file {self.path} does not exist")

    def load(self) -> Data:
        from pathlib import Path

        from ...data import read_svmlight

        X, y = read_svmlight(self.path)[:2]
        return Data(X, y, Path(self.path).name)


@dataclass(frozen=True)
class FunctionSource:
    """``function(**params) -> (X, y)`` or a :class:`Data` (a module-level function named
    ``module:function``): data that needs preparing, e.g. 20 Newsgroups as 0/1 vectors."""

    function: Any
    params: Mapping[str, Any] = field(default_factory=dict)
    name: str = ""

    def key(self):
        return {"kind": "function", "function": callable_name(self.function),
                "params": dict(sorted(self.params.items()))}

    def check(self):
        resolve_callable(self.function)

    def load(self) -> Data:
        out = resolve_callable(self.function)(**self.params)
        if isinstance(out, Data):
            return out
        X, y = out[:2]
        return Data(X, np.asarray(y), self.name or callable_name(self.function))


@dataclass(frozen=True, eq=False)
class ArraySource:
    """Arrays already in memory (a paper module's derived data). Its key is the name and
    the arrays' fingerprint."""

    X: Any
    y: Any
    name: str = "arrays"

    def key(self):
        return {"kind": "arrays", "name": self.name}

    def check(self):
        pass

    def load(self) -> Data:
        return Data(self.X, np.asarray(self.y), self.name)


def parse_data(text: str, params: Mapping | None = None):
    """The source named by a string as the CLI's ``--data`` takes it: ``synthetic``, a
    registered data set ``NAME[:SPLIT]``, or a path to an svmlight file."""
    from ...data.registry import datasets

    from pathlib import Path

    params = dict(params or {})
    if text == "synthetic":
        return SyntheticSource(params)
    name, _, split = text.partition(":")
    if name in datasets():
        source = DatasetSource(name, split or None)
    elif Path(text).exists() or "/" in text or text.endswith(
            (".svm", ".libsvm", ".txt", ".bz2", ".gz", ".xz")):
        source = FileSource(text)
    else:
        raise ValueError(f"unknown data {text!r}: not a data set ({', '.join(datasets())}), "
                         "'synthetic', nor a file path")
    if params:
        raise ValueError(f"data {text!r} takes no parameters (only 'synthetic' does)")
    return source
