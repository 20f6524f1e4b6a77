"""Stream transforms: from a loaded data set to the stream a trial's learners see.

A transform has ``key() -> dict`` (JSON; part of every run's key) and
``apply(stream, rng) -> Stream``; the transforms of a stream spec are applied in order,
all drawing from one generator seeded by the trial (:func:`.spec.stream_seed`), so every
learner of a trial sees the same stream. A :class:`Stream` remembers, for each position,
the data set's row (``origin``) and original label (``labels``): a drift process's
schedule can be written out and checked.

Transforms are found by ``kind`` in :data:`TRANSFORMS` (the TOML spec's
``[[streams.transforms]] kind = ...``); a value is the class or ``"module:Class"`` (loaded on
first use). Add one with :func:`register_transform` or a line in that dict.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Sequence

import numpy as np
import scipy.sparse as sp

from .spec import resolve_callable


@dataclass
class Stream:
    """Rows in stream order: ``X`` (dense or CSR), ``y`` (labels, any two values after the
    transforms; the protocols map them to ±1), ``origin`` (the data set's row of each
    position), ``labels`` (the original label of each position, before any relabelling),
    ``info`` (what transforms report, e.g. a drift schedule's phases)."""

    X: Any
    y: np.ndarray
    origin: np.ndarray
    labels: np.ndarray
    info: dict = field(default_factory=dict)

    @classmethod
    def of(cls, data):
        n = data.X.shape[0]
        y = np.asarray(data.y)
        return cls(data.X, y, np.arange(n, dtype=np.int64), y.copy(), {})

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    def take(self, rows):
        """The positions ``rows`` of this stream, in that order (a new stream)."""
        rows = np.asarray(rows, dtype=np.int64)
        X = self.X[rows] if sp.issparse(self.X) else np.ascontiguousarray(self.X[rows])
        return replace(self, X=X, y=self.y[rows], origin=self.origin[rows],
                       labels=self.labels[rows])


@dataclass(frozen=True)
class Permute:
    """A uniformly random order of the rows (the trial's generator)."""

    def key(self):
        return {"kind": "permute"}

    def apply(self, stream, rng):
        return stream.take(rng.permutation(stream.n))


@dataclass(frozen=True)
class Head:
    """The first ``n`` positions (all when fewer)."""

    n: int

    def __post_init__(self):
        if not isinstance(self.n, int) or isinstance(self.n, bool) or self.n < 1:
            raise ValueError(f"head: n must be an integer ≥ 1, got {self.n!r}")

    def key(self):
        return {"kind": "head", "n": self.n}

    def apply(self, stream, rng):
        return stream.take(np.arange(min(self.n, stream.n)))


@dataclass(frozen=True)
class Classes:
    """A binary task from a labelled data set: keep the rows whose label is in
    ``positive`` or ``negative`` (in stream order) and relabel them +1 / −1."""

    positive: Sequence[Any]
    negative: Sequence[Any]

    def __post_init__(self):
        object.__setattr__(self, "positive", tuple(self.positive))
        object.__setattr__(self, "negative", tuple(self.negative))
        if not self.positive or not self.negative:
            raise ValueError("classes: positive and negative must both name labels")
        both = set(self.positive) & set(self.negative)
        if both:
            raise ValueError(f"classes: labels {sorted(both)} are both positive and negative")

    def key(self):
        return {"kind": "classes", "positive": list(self.positive),
                "negative": list(self.negative)}

    def apply(self, stream, rng):
        pos = np.isin(stream.y, self.positive)
        neg = np.isin(stream.y, self.negative)
        rows = np.flatnonzero(pos | neg)
        if not pos.any() or not neg.any():
            present = np.unique(stream.y)
            raise ValueError(f"classes: no rows labelled {list(self.positive if not pos.any() else self.negative)} "
                             f"(labels present: {present.tolist()[:20]})")
        out = stream.take(rows)
        out.y = np.where(pos[rows], 1.0, -1.0)
        return out


#: kind -> class or factory (or "module:name", imported on first use). ``drift``: the
#: drifting class mixture of Shen & Dietterich (2009, §4) on any labelled data
#: (:func:`olc.data.drift.drift_transform`); ``document-frequency-cut``: keep the columns
#: present in at least ``min_df`` of the stream's rows (:mod:`olc.data.text`).
TRANSFORMS: dict[str, Any] = {"permute": Permute, "head": Head, "classes": Classes,
                              "drift": "olc.data.drift:drift_transform",
                              "document-frequency-cut": "olc.data.text:DocumentFrequencyCut"}


def register_transform(kind, cls, *, replace_existing=False):
    if kind in TRANSFORMS and not replace_existing:
        raise ValueError(f"a stream transform {kind!r} is already registered")
    TRANSFORMS[kind] = cls


def transform_class(kind):
    try:
        target = TRANSFORMS[kind]
    except (KeyError, TypeError):
        raise ValueError(f"unknown stream transform {kind!r}; known: "
                         f"{', '.join(sorted(TRANSFORMS))}") from None
    return resolve_callable(target)


def make_transform(kind, **params):
    """A transform from its kind and parameters (a TypeError/ValueError names a bad one)."""
    cls = transform_class(kind)
    try:
        return cls(**params)
    except TypeError as exc:
        raise ValueError(f"stream transform {kind!r}: {exc}") from None


def apply_transforms(data, transforms, rng):
    stream = Stream.of(data)
    for t in transforms:
        stream = t.apply(stream, rng)
    return stream


def binary_labels(y, where="stream"):
    """y as ±1 float64 (the smaller label ↦ −1, as the learners map ``classes_``)."""
    values = np.unique(y)
    if values.size != 2:
        raise ValueError(f"{where}: the labels must take exactly two values after the "
                         f"transforms, got {values.size} ({values.tolist()[:10]}); select "
                         "two groups of classes with a 'classes' transform")
    return np.where(np.asarray(y) == values[1], 1.0, -1.0)
